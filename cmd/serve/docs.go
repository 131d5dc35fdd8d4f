//go:build !js

package main

// The page links to the project's README. A raw Markdown file would reach
// the browser as plain text with its pictures missing, so the build
// renders the README and the pages under docs/ to HTML (GitHub's Markdown
// dialect, as the README test parses it), points their links between
// pages at the rendered ones, and copies the pictures they show, at the
// same paths: the folder stays self-contained for any static host.

import (
	"bytes"
	"fmt"
	"html"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// docPages are the Markdown pages rendered: the README and docs/.
func docPages(root string) ([]string, error) {
	pages := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		rel, err := filepath.Rel(root, p)
		pages = append(pages, filepath.ToSlash(rel))
		return err
	})
	return pages, err
}

// writeDocs renders every page of docPages into dir and copies the
// pictures they show.
func writeDocs(root, dir string) error {
	pages, err := docPages(root)
	if err != nil {
		return err
	}
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	pictures := map[string]bool{}
	for _, p := range pages {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return err
		}
		doc := md.Parser().Parse(text.NewReader(src))
		title := relink(doc, src, path.Dir(p), pictures)
		var body bytes.Buffer
		if err := md.Renderer().Render(&body, src, doc); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		out := filepath.Join(dir, filepath.FromSlash(htmlName(p)))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		page := fmt.Sprintf(docTemplate, html.EscapeString(title), body.String())
		if err := os.WriteFile(out, []byte(page), 0o644); err != nil {
			return err
		}
	}
	for pic := range pictures {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(pic)))
		if err != nil {
			return fmt.Errorf("a page shows %s: %w", pic, err)
		}
		out := filepath.Join(dir, filepath.FromSlash(pic))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// htmlName is the rendered page's path: README.md is README.html.
func htmlName(p string) string { return strings.TrimSuffix(p, ".md") + ".html" }

// relink points links to local .md pages at their .html, notes the local
// pictures (paths from the module's root) and returns the page's first
// heading for its title.
func relink(doc ast.Node, src []byte, dir string, pictures map[string]bool) string {
	title := "netcubes"
	first := true
	ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Heading:
			if first {
				first = false
				var b strings.Builder
				for c := n.FirstChild(); c != nil; c = c.NextSibling() {
					if t, ok := c.(*ast.Text); ok {
						b.Write(t.Value(src))
					}
				}
				if b.Len() > 0 {
					title = b.String()
				}
			}
		case *ast.Link:
			if local(n.Destination, dir) {
				dest, frag, _ := strings.Cut(string(n.Destination), "#")
				if strings.HasSuffix(dest, ".md") {
					dest = htmlName(dest)
				} else if dest != "" {
					pictures[path.Join(dir, dest)] = true // a linked picture or file
				}
				if frag != "" {
					dest += "#" + frag
				}
				n.Destination = []byte(dest)
			}
		case *ast.Image:
			if local(n.Destination, dir) {
				pictures[path.Join(dir, string(n.Destination))] = true
			}
		}
		return ast.WalkContinue, nil
	})
	return title
}

// local reports whether a link of a page in dir stays in the repository
// (a page under docs/ links back to ../README.md; nothing may reach above
// the repository's root).
func local(dest []byte, dir string) bool {
	d := string(dest)
	if d == "" || strings.Contains(d, "://") || strings.HasPrefix(d, "mailto:") ||
		strings.HasPrefix(d, "#") || strings.HasPrefix(d, "/") {
		return false
	}
	file, _, _ := strings.Cut(d, "#")
	to := path.Join(dir, file)
	return to != ".." && !strings.HasPrefix(to, "../")
}

const docTemplate = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>%s</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
img { max-width: 100%%; }
table { border-collapse: collapse; } th, td { border: 1px solid #ccc; padding: 0.2rem 0.5rem; }
pre { background: #f4f4f4; padding: 0.6rem; overflow-x: auto; } code { font-size: 0.92em; }
</style>
</head>
<body>
%s
</body>
</html>
`
