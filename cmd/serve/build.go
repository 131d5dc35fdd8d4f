//go:build !js

package main

import (
	"bytes"
	"compress/gzip"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// page is the web page around the app: index.html and netcubes.js.
//
//go:embed page
var page embed.FS

// Build writes the web folder dir: the app compiled for js/wasm
// (netcubes.wasm, and netcubes.wasm.gz for servers that send
// precompressed files), Go's wasm_exec.js from the toolchain that built
// it (the two must match), the page, and the README the page links to (rendered, docs.go). It
// runs the go command found on PATH (or in $GOROOT),
// from the module's root, and says what it does on log.
func Build(dir string, log io.Writer) error {
	goBin := goCommand()
	root, err := moduleRoot(goBin)
	if err != nil {
		return err
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	wasm := filepath.Join(dir, "netcubes.wasm")
	goVersion, err := goEnv(goBin, root, "GOVERSION")
	if err != nil {
		return err
	}
	if newer, err := staleBy(root, wasm, goVersion); err != nil {
		return err
	} else if newer == "" {
		fmt.Fprintf(log, "%s is newer than every source: not compiled again\n", wasm)
		return writePage(root, dir, goBin)
	} else {
		fmt.Fprintf(log, "compiling the app for js/wasm into %s (%s)\n", wasm, newer)
	}
	// -s -w drop the symbol table and DWARF (a debugger's, not a
	// browser's): about half a megabyte; panics still name their functions.
	// -trimpath keeps the builder's folders out of the published file.
	cmd := exec.Command(goBin, "build", "-trimpath", "-ldflags=-s -w", "-o", wasm, ".")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build for js/wasm: %v\n%s", err, out)
	}
	if err := gzipFile(wasm); err != nil {
		return err
	}
	// Written last: a build stopped halfway leaves no stamp and is redone.
	if err := os.WriteFile(wasm+".goversion", []byte(goVersion+"\n"), 0o644); err != nil {
		return err
	}
	return writePage(root, dir, goBin)
}

// writePage writes everything of the folder but the app: Go's
// wasm_exec.js, the README and the page (cheap, so always).
func writePage(root, dir, goBin string) error {
	goroot, err := goEnv(goBin, root, "GOROOT")
	if err != nil {
		return err
	}
	if err := copyFile(filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"), filepath.Join(dir, "wasm_exec.js")); err != nil {
		return fmt.Errorf("wasm_exec.js of the Go installation: %w", err)
	}
	if err := writeDocs(root, dir); err != nil {
		return err
	}
	return fs.WalkDir(page, "page", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := page.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, filepath.Base(path)), b, 0o644)
	})
}

// staleBy says why wasm must be compiled again, "" when it need not: it
// is missing, a file of the module (Go sources, go.mod, go.sum, embedded
// assets) is newer than it, or another Go version built it (wasm_exec.js
// must match the compiler). The stamp wasm+".goversion" names the version.
func staleBy(root, wasm, goVersion string) (string, error) {
	built, err := os.Stat(wasm)
	if err != nil {
		return "none built yet", nil
	}
	if _, err := os.Stat(wasm + ".gz"); err != nil {
		return "no compressed copy", nil
	}
	stamp, err := os.ReadFile(wasm + ".goversion")
	if err != nil || strings.TrimSpace(string(stamp)) != goVersion {
		return "built by another Go version", nil
	}
	newer := ""
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			// Dot folders (.git, .bin), the build output and the other
			// commands (cmd/, tools/: the app imports none) hold no source
			// of the app.
			rel, _ := filepath.Rel(root, path)
			skip := strings.HasPrefix(name, ".") || name == "testdata" || rel == "build" || rel == "cmd" || rel == "tools"
			if path != root && skip {
				return filepath.SkipDir
			}
			return nil
		}
		if !isSource(root, path) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.ModTime().After(built.ModTime()) {
			rel, _ := filepath.Rel(root, path)
			newer = rel + " is newer"
			return filepath.SkipAll
		}
		return nil
	})
	return newer, err
}

// isSource reports whether the file at path goes into the app: a Go
// file but a test, go.mod, go.sum, or a file the assets package embeds.
func isSource(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return true
	}
	rel = filepath.ToSlash(rel)
	name := filepath.Base(rel)
	switch {
	case strings.HasSuffix(name, "_test.go"):
		return false
	case strings.HasSuffix(name, ".go"), rel == "go.mod", rel == "go.sum":
		return true
	}
	return strings.HasPrefix(rel, "assets/")
}

// goCommand is the go command: the one on PATH, else the one go run or
// go test puts in $GOROOT.
func goCommand() string {
	if p, err := exec.LookPath("go"); err == nil {
		return p
	}
	if root := os.Getenv("GOROOT"); root != "" {
		return filepath.Join(root, "bin", "go")
	}
	return "go"
}

// goEnv is one value of `go env`, run in dir.
func goEnv(goBin, dir, name string) (string, error) {
	cmd := exec.Command(goBin, "env", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// moduleRoot is the folder of the netcubes module's go.mod, found from the
// working directory.
func moduleRoot(goBin string) (string, error) {
	mod, err := goEnv(goBin, ".", "GOMOD")
	if err != nil {
		return "", err
	}
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside the netcubes module: run it from the repository")
	}
	b, err := os.ReadFile(mod)
	if err != nil {
		return "", err
	}
	if !bytes.HasPrefix(b, []byte("module netcubes\n")) {
		return "", fmt.Errorf("%s is not netcubes's: run it from the netcubes repository", mod)
	}
	return filepath.Dir(mod), nil
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// gzipFile writes path+".gz", the file compressed.
func gzipFile(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		return err
	}
	if _, err := zw.Write(b); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(path+".gz", buf.Bytes(), 0o644)
}
