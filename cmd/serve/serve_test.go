//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"html"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// fakeFolder is a web folder with a small wasm and its .gz.
func fakeFolder(t *testing.T) (dir string, wasm []byte) {
	t.Helper()
	dir = t.TempDir()
	wasm = bytes.Repeat([]byte("\x00asm netcubes "), 1000)
	for name, b := range map[string][]byte{
		"netcubes.wasm": wasm,
		"index.html":    []byte("<!doctype html><title>netcubes</title>"),
		"README.md":     []byte("# netcubes\n"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := gzipFile(filepath.Join(dir, "netcubes.wasm")); err != nil {
		t.Fatal(err)
	}
	return dir, wasm
}

func TestHandler(t *testing.T) {
	dir, wasm := fakeFolder(t)
	srv := httptest.NewServer(handler(dir))
	defer srv.Close()
	// The transport must not add Accept-Encoding itself (it would unzip
	// behind the test's back).
	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	get := func(method, path, acceptEncoding string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(method, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if acceptEncoding != "" {
			req.Header.Set("Accept-Encoding", acceptEncoding)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp, b
	}

	resp, body := get("GET", "/netcubes.wasm", "gzip, deflate, br")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "gzip" || resp.Header.Get("Content-Type") != "application/wasm" {
		t.Errorf("wasm with gzip: %d, encoding %q, type %q", resp.StatusCode, resp.Header.Get("Content-Encoding"), resp.Header.Get("Content-Type"))
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if plain, err := io.ReadAll(zr); err != nil || !bytes.Equal(plain, wasm) {
		t.Errorf("the gzipped wasm does not unzip to the wasm (%v)", err)
	}
	if len(body) >= len(wasm) {
		t.Errorf("gzipped %d bytes, plain %d", len(body), len(wasm))
	}

	for _, ae := range []string{"", "identity", "gzip;q=0", "br"} {
		resp, body = get("GET", "/netcubes.wasm", ae)
		if resp.Header.Get("Content-Encoding") != "" || !bytes.Equal(body, wasm) || resp.Header.Get("Content-Type") != "application/wasm" {
			t.Errorf("Accept-Encoding %q: encoding %q, %d bytes, type %q; want the plain wasm", ae,
				resp.Header.Get("Content-Encoding"), len(body), resp.Header.Get("Content-Type"))
		}
	}

	resp, _ = get("GET", "/README.md", "")
	if ct := resp.Header.Get("Content-Type"); ct != "text/plain; charset=utf-8" {
		t.Errorf("README.md served as %q, want text", ct)
	}
	resp, body = get("GET", "/", "")
	if resp.StatusCode != 200 || !strings.Contains(string(body), "<title>netcubes</title>") {
		t.Errorf("/: %d %q", resp.StatusCode, body)
	}
	if resp, _ = get("POST", "/index.html", ""); resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", resp.StatusCode)
	}
	if resp, _ = get("HEAD", "/index.html", ""); resp.StatusCode != 200 {
		t.Errorf("HEAD: %d", resp.StatusCode)
	}
	// Nothing outside the folder: the server's own files stay out of reach.
	secret := filepath.Join(filepath.Dir(dir), "secret.txt")
	os.WriteFile(secret, []byte("secret"), 0o644)
	defer os.Remove(secret)
	for _, p := range []string{"/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/netcubes.wasm/../../secret.txt"} {
		resp, body := get("GET", p, "gzip")
		if strings.Contains(string(body), "secret") {
			t.Errorf("%s: %d, served a file outside the folder", p, resp.StatusCode)
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	for _, tt := range []struct {
		header string
		want   bool
	}{
		{"", false},
		{"gzip", true},
		{"deflate, gzip;q=1.0, *;q=0.5", true},
		{"GZIP", true},
		{"gzip;q=0", false},
		{"gzip; q=0.000", false},
		{"x-gzip", false},
		{"br, zstd", false},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		if tt.header != "" {
			r.Header.Set("Accept-Encoding", tt.header)
		}
		if got := acceptsGzip(r); got != tt.want {
			t.Errorf("acceptsGzip(%q) = %v", tt.header, got)
		}
	}
}

func TestDisplayAddr(t *testing.T) {
	for _, tt := range []struct{ addr, want string }{
		{"127.0.0.1:8080", "127.0.0.1:8080"},
		{"0.0.0.0:8080", "127.0.0.1:8080"},
		{"[::]:9000", "127.0.0.1:9000"},
		{"192.0.2.7:80", "192.0.2.7:80"},
	} {
		a, err := net.ResolveTCPAddr("tcp", tt.addr)
		if err != nil {
			t.Fatal(err)
		}
		if got := displayAddr(a); got != tt.want {
			t.Errorf("displayAddr(%s) = %s, want %s", tt.addr, got, tt.want)
		}
	}
}

func TestRunRefusesBadFlags(t *testing.T) {
	var out bytes.Buffer
	for _, args := range [][]string{{"-nosuch"}, {"extra"}, {"-addr"}} {
		if err := run(args, &out); err == nil || !strings.HasPrefix(err.Error(), "usage: ") {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}

// TestStaleBy: the wasm is compiled again only when something that goes
// into it is newer (a Go file but a test, go.mod, go.sum, an embedded
// asset), when a file of the build is missing, or when another Go version
// built it; a newer test, README or picture does not count.
func TestStaleBy(t *testing.T) {
	root := t.TempDir()
	write := func(rel string, age time.Duration) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(rel), 0o644); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-age)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	const old, built, fresh = 3 * time.Hour, 2 * time.Hour, time.Hour
	for _, f := range []string{"go.mod", "go.sum", "main.go", "ui/app.go", "assets/scripts/katamari.txt"} {
		write(f, old)
	}
	wasm := filepath.Join(root, "build", "web", "netcubes.wasm")
	if got, _ := staleBy(root, wasm, "go1.26"); got != "none built yet" {
		t.Fatalf("no wasm: %q", got)
	}
	write("build/web/netcubes.wasm", built)
	write("build/web/netcubes.wasm.gz", built)
	if got, _ := staleBy(root, wasm, "go1.26"); got != "built by another Go version" {
		t.Fatalf("no stamp: %q", got)
	}
	write("build/web/netcubes.wasm.goversion", built)
	os.WriteFile(wasm+".goversion", []byte("go1.26\n"), 0o644)
	if got, _ := staleBy(root, wasm, "go1.26"); got != "" {
		t.Fatalf("up to date: %q", got)
	}
	if got, _ := staleBy(root, wasm, "go1.27"); got != "built by another Go version" {
		t.Fatalf("another Go: %q", got)
	}
	for _, f := range []string{"ui/app_test.go", "README.md", "docs/x.png", ".git/index", "build/web/index.html"} {
		write(f, fresh)
		if got, _ := staleBy(root, wasm, "go1.26"); got != "" {
			t.Errorf("a newer %s made it stale: %q", f, got)
		}
	}
	for _, f := range []string{"ui/app.go", "go.sum", "assets/scripts/katamari.txt"} {
		write(f, fresh)
		if got, _ := staleBy(root, wasm, "go1.26"); got != f+" is newer" {
			t.Errorf("a newer %s: %q", f, got)
		}
		write(f, old)
	}
}

// TestDocsRendered: the README the page links to is rendered to HTML, and
// every local link and picture of every rendered page is in the folder
// (nothing 404s).
func TestDocsRendered(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := writeDocs(root, dir); err != nil {
		t.Fatal(err)
	}
	index, err := page.ReadFile("page/index.html")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(index, []byte(`href="README.html"`)) {
		t.Error("the page does not link to README.html")
	}
	ref := regexp.MustCompile(`(?:src|href)="([^"#:]+)(?:#[^"]*)?"`)
	pages := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(p, ".html") {
			return err
		}
		pages++
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range ref.FindAllSubmatch(b, -1) {
			target := filepath.Join(filepath.Dir(p), html.UnescapeString(string(m[1])))
			if _, err := os.Stat(target); err != nil {
				rel, _ := filepath.Rel(dir, p)
				t.Errorf("%s links to %s, which the folder lacks", rel, m[1])
			}
		}
		return nil
	})
	if pages < 2 {
		t.Errorf("%d pages rendered, want the README and docs/", pages)
	}
	if _, err := os.Stat(filepath.Join(dir, "README.html")); err != nil {
		t.Error(err)
	}
}

// TestBrowserWasmSizeInReadme (run with the browser tests, which build the
// same folder): the README's sizes of the app in the web folder
// (as built and gzipped) are within 10 % of what the build makes.
func TestBrowserWasmSizeInReadme(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the app for js/wasm")
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("`netcubes\\.wasm` of ([0-9.]+) MB, ([0-9.]+) MB gzipped").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README states no \"`netcubes.wasm` of N MB, M MB gzipped\"")
	}
	dir, err := webFolder()
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"netcubes.wasm", "netcubes.wasm.gz"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		stated, _ := strconv.ParseFloat(string(m[i+1]), 64)
		got := float64(fi.Size()) / 1e6
		if got < stated*0.9 || got > stated*1.1 {
			t.Errorf("%s is %.1f MB; the README says %.1f MB", name, got, stated)
		}
	}
}

// TestLocalLinks: a page's link is rendered as local when it stays in the
// repository, from the README or from a page under docs/.
func TestLocalLinks(t *testing.T) {
	tests := []struct {
		dest, dir string
		want      bool
	}{
		{"docs/udp.md", ".", true},
		{"../README.md", "docs", true},
		{"../README.md#keys", "docs", true},
		{"design/rollback.md", "docs", true},
		{"../../etc/passwd", "docs", false},
		{"../x.png", ".", false},
		{"/etc/passwd", ".", false},
		{"https://go.dev", ".", false},
		{"#keys", ".", false},
		{"", ".", false},
	}
	for _, tt := range tests {
		if got := local([]byte(tt.dest), tt.dir); got != tt.want {
			t.Errorf("local(%q) from %s = %v, want %v", tt.dest, tt.dir, got, tt.want)
		}
	}
}
