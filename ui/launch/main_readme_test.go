package launch

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"netcubes/cubes"
	"netcubes/talk"
)

// readmeSection is the README's text between the heading and the next
// heading of the same level.
func readmeSection(t *testing.T, heading string) string {
	t.Helper()
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("README has no %q", heading)
	}
	s = s[i+len(heading)+2:]
	level := heading[:strings.IndexByte(heading, ' ')+1]
	if j := strings.Index(s, "\n"+level); j >= 0 {
		s = s[:j]
	}
	return s
}

// TestReadmeListsEveryFlag: the README's flags table names every flag the
// app takes (as -h lists them) and no flag it does not.
func TestReadmeListsEveryFlag(t *testing.T) {
	t.Chdir("../..") // the repository's root: the README, the Makefile, the packages
	var help bytes.Buffer
	if _, err := parseFlags([]string{"-h"}, &help); err == nil {
		t.Fatal("-h did not stop")
	}
	real := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z][a-z0-9-]*)`).FindAllStringSubmatch(help.String(), -1) {
		real[m[1]] = true
	}
	if len(real) < 20 {
		t.Fatalf("only %d flags in -h:\n%s", len(real), help.String())
	}
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("`-([a-z][a-z0-9-]*)").FindAllStringSubmatch(readmeSection(t, "## Flags"), -1) {
		listed[m[1]] = true
	}
	var missing, extra []string
	for f := range real {
		if !listed[f] {
			missing = append(missing, "-"+f)
		}
	}
	for f := range listed {
		if !real[f] {
			extra = append(extra, "-"+f)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing) > 0 || len(extra) > 0 {
		t.Errorf("README flags table: missing %v; not flags of the app %v", missing, extra)
	}
}

// TestReadmeIsValidMarkdown parses the README and the pages under docs/
// as GitHub renders them: no table swallows the line after it (a bold
// pseudo-heading without a blank line before it becomes a table row), and
// every picture and relative link points to a file in the repository.
func TestReadmeIsValidMarkdown(t *testing.T) {
	t.Chdir("../..") // the repository's root: the README, the Makefile, the packages
	for _, page := range docPages(t) {
		checkMarkdown(t, page)
	}
}

// checkMarkdown checks one page's tables and links.
func checkMarkdown(t *testing.T, page string) {
	t.Helper()
	src, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := md.Parser().Parse(text.NewReader(src))
	err = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *extast.TableCell:
			if n.FirstChild() != nil {
				if _, bold := n.FirstChild().(*ast.Emphasis); bold && n.Parent().ChildCount() > 1 && n.NextSibling() != nil && n.NextSibling().ChildCount() == 0 {
					t.Errorf("%s: a table swallowed the line %q (a blank line is missing before it)", page, cellText(n, src))
				}
			}
		case *ast.Image:
			checkTarget(t, page, string(n.Destination))
		case *ast.Link:
			checkTarget(t, page, string(n.Destination))
		}
		return ast.WalkContinue, nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// checkTarget fails t when a relative link of page names no file.
func checkTarget(t *testing.T, page, dest string) {
	t.Helper()
	if dest == "" || strings.Contains(dest, "://") || strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "mailto:") {
		return
	}
	path, _, _ := strings.Cut(dest, "#")
	if _, err := os.Stat(filepath.Join(filepath.Dir(page), filepath.FromSlash(path))); err != nil {
		t.Errorf("%s links to %s, which does not exist", page, dest)
	}
}

// cellText is the text of a table cell's inline children, for a message.
func cellText(n ast.Node, src []byte) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b.Write(t.Segment.Value(src))
			continue
		}
		b.WriteString(cellText(c, src))
	}
	return b.String()
}

// TestReadmeTrackExampleParses: every talk example the README and its
// pages show is a track the app plays (each code block that sets a session
// up and has a timeline).
func TestReadmeTrackExampleParses(t *testing.T) {
	t.Chdir("../..") // the repository's root: the README, the Makefile, the packages
	found := 0
	for _, page := range docPages(t) {
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		blocks := strings.Split(string(src), "```")
		for k := 1; k < len(blocks); k += 2 {
			b := blocks[k]
			if !strings.Contains(b, "# the timeline") {
				continue
			}
			found++
			body := b[strings.Index(b, "\n")+1:]
			if _, err := talk.ParseWith(page, strings.NewReader(body), cubes.LoadScript); err != nil {
				t.Errorf("the talk example in %s does not parse: %v", page, err)
			}
		}
	}
	if found == 0 {
		t.Error("the README shows no talk example")
	}
}

// TestReadmePackageMap: the README's package map names every package of
// the module (a directory with Go files) and nothing that is not there.
func TestReadmePackageMap(t *testing.T) {
	t.Chdir("../..") // the repository's root: the README, the Makefile, the packages
	listed := map[string]bool{}
	for _, line := range strings.Split(readmeSection(t, "## Package map"), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 3 {
			continue
		}
		for _, m := range regexp.MustCompile("`([a-z0-9_./-]+)/`").FindAllStringSubmatch(cells[1], -1) {
			listed[m[1]] = true
		}
	}
	var missing, extra []string
	for p := range listed {
		if st, err := os.Stat(p); err != nil || !st.IsDir() {
			extra = append(extra, p+"/")
		}
	}
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if path != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "build" || name == "docs") {
			return filepath.SkipDir
		}
		if path == "." || listed[filepath.ToSlash(path)] {
			return nil
		}
		if goFiles, _ := filepath.Glob(filepath.Join(path, "*.go")); len(goFiles) > 0 {
			missing = append(missing, filepath.ToSlash(path)+"/")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(listed) < 20 || len(missing) > 0 || len(extra) > 0 {
		t.Errorf("README package map (%d paths): packages missing %v; paths that are not directories %v", len(listed), missing, extra)
	}
}

// TestReadmePackageMapEbitengine: the map's last column says truly which
// packages import Ebitengine, directly or through another package (go
// list's dependencies of every package in the module, and of the module's
// root for main.go).
func TestReadmePackageMapEbitengine(t *testing.T) {
	t.Chdir("../..")
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	uses := map[string]bool{} // a directory of the module: imports Ebitengine
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		path, deps, _ := strings.Cut(line, " ")
		dir := strings.TrimPrefix(strings.TrimPrefix(path, "netcubes"), "/")
		uses[dir] = strings.Contains(" "+deps, " github.com/hajimehoshi/ebiten/")
	}
	rows := 0
	for _, line := range strings.Split(readmeSection(t, "## Package map"), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 {
			continue
		}
		claim := strings.TrimSpace(cells[3])
		yes := strings.HasPrefix(claim, "yes")
		if !yes && !strings.HasPrefix(claim, "no") {
			continue // the header and its rule
		}
		for _, m := range regexp.MustCompile("`([a-z0-9_./-]+?)/?`").FindAllStringSubmatch(cells[1], -1) {
			dir := m[1]
			if dir == "main.go" {
				dir = ""
			}
			actual, isPkg := uses[dir]
			if !isPkg {
				continue // not a package of the module (a C++ tool, a script)
			}
			rows++
			if actual != yes {
				t.Errorf("README package map: %s says %q about Ebitengine, but it imports it: %v", m[1], claim, actual)
			}
		}
	}
	if rows < 20 {
		t.Errorf("README package map: only %d packages checked against go list", rows)
	}
}
