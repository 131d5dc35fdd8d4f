//go:build !js

package main

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// newServer serves the web folder dir. Timeouts bound what a slow or idle
// client holds (a classroom's server faces everyone on the network); the
// write timeout leaves a slow Wi-Fi a few minutes for the app's 5.4 MB.
func newServer(dir string) *http.Server {
	return &http.Server{
		Handler:           handler(dir),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      5 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
	}
}

// handler serves the files of dir, read-only (GET and HEAD). A browser
// that accepts gzip gets netcubes.wasm.gz for netcubes.wasm (6 MB instead
// of 26); a Markdown file is shown as text (the page links to the
// rendered README.html); every answer is revalidated, so a
// rebuilt app is picked up at the next load.
func handler(dir string) http.Handler {
	files := http.FileServer(http.Dir(dir))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "read-only", http.StatusMethodNotAllowed)
			return
		}
		h := w.Header()
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Content-Type-Options", "nosniff")
		p := path.Clean("/" + r.URL.Path)
		switch path.Ext(p) {
		case ".md":
			h.Set("Content-Type", "text/plain; charset=utf-8")
		case ".wasm":
			h.Set("Content-Type", "application/wasm")
			h.Add("Vary", "Accept-Encoding")
			gz := filepath.Join(dir, filepath.FromSlash(p)+".gz")
			if acceptsGzip(r) && isFile(gz) {
				h.Set("Content-Encoding", "gzip")
				http.ServeFile(w, r, gz)
				return
			}
		}
		files.ServeHTTP(w, r)
	})
}

// acceptsGzip reports whether the request's Accept-Encoding lists gzip
// (not refused with q=0).
func acceptsGzip(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept-Encoding") {
		for _, part := range strings.Split(v, ",") {
			name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			if strings.EqualFold(strings.TrimSpace(name), "gzip") {
				q := strings.ReplaceAll(params, " ", "")
				return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
			}
		}
	}
	return false
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
