// Command funclen lists Go functions by length and branch count, longest
// first, so a reader can see which functions are too long to hold in one's
// head and measure a refactor before and after.
//
//	go run ./tools/funclen [-min 60] [-n 20] [-tests] [-func name,name] ./snapshot ./physics
//
// Lines are the function's source lines from `func` to its closing brace,
// comments and blank lines included (what a reader scrolls through).
// Branches are the decisions a reader has to follow: each if, else-if, for,
// range, case or comm clause (default included), and each && or ||.
// Arguments are directories (a trailing /... walks below); files ending in
// _test.go are skipped unless -tests is given.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// fn is one measured function.
type fn struct {
	pos      string // file:line
	name     string // Recv.Name or Name
	lines    int
	branches int
}

func main() {
	minLines := flag.Int("min", 0, "list only functions of at least this many lines")
	most := flag.Int("n", 0, "list at most this many functions (0: all)")
	tests := flag.Bool("tests", false, "include _test.go files")
	only := flag.String("func", "", "comma-separated function names (Name or Recv.Name) to list, whatever their length")
	flag.Parse()
	dirs := flag.Args()
	if len(dirs) == 0 {
		dirs = []string{"./..."}
	}
	var want map[string]bool
	if *only != "" {
		want = map[string]bool{}
		for _, n := range strings.Split(*only, ",") {
			want[strings.TrimSpace(n)] = true
		}
	}
	fset := token.NewFileSet()
	var all []fn
	for _, d := range dirs {
		files, err := goFiles(d, *tests)
		if err != nil {
			fmt.Fprintln(os.Stderr, "funclen:", err)
			os.Exit(1)
		}
		for _, path := range files {
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				fmt.Fprintln(os.Stderr, "funclen:", err)
				os.Exit(1)
			}
			for _, decl := range f.Decls {
				fd, ok := decl.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				name := funcName(fd)
				if want != nil && !want[name] && !want[fd.Name.Name] {
					continue
				}
				start := fset.Position(fd.Pos())
				end := fset.Position(fd.End())
				all = append(all, fn{
					pos:      fmt.Sprintf("%s:%d", path, start.Line),
					name:     name,
					lines:    end.Line - start.Line + 1,
					branches: branches(fd.Body),
				})
			}
		}
	}
	// Longest first; ties by position so the output is stable.
	sort.Slice(all, func(i, j int) bool {
		if all[i].lines != all[j].lines {
			return all[i].lines > all[j].lines
		}
		return all[i].pos < all[j].pos
	})
	fmt.Printf("%6s %8s  %-40s %s\n", "lines", "branches", "function", "where")
	shown := 0
	for _, f := range all {
		if f.lines < *minLines && want == nil {
			continue
		}
		if *most > 0 && shown == *most {
			break
		}
		fmt.Printf("%6d %8d  %-40s %s\n", f.lines, f.branches, f.name, f.pos)
		shown++
	}
}

// funcName is Name, or Recv.Name for a method (pointer and type
// parameters dropped).
func funcName(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
			continue
		case *ast.IndexExpr:
			t = x.X
			continue
		case *ast.IndexListExpr:
			t = x.X
			continue
		case *ast.Ident:
			return x.Name + "." + fd.Name.Name
		}
		return fd.Name.Name
	}
}

// branches counts the decisions in body (function literals included: a
// reader follows them too).
func branches(body *ast.BlockStmt) int {
	n := 0
	ast.Inspect(body, func(node ast.Node) bool {
		switch x := node.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.CaseClause, *ast.CommClause:
			n++
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				n++
			}
		}
		return true
	})
	return n
}

// goFiles lists the .go files of dir, or below it when dir ends in "/...".
func goFiles(dir string, tests bool) ([]string, error) {
	keep := func(name string) bool {
		return strings.HasSuffix(name, ".go") && (tests || !strings.HasSuffix(name, "_test.go"))
	}
	if root, ok := strings.CutSuffix(dir, "/..."); ok {
		if root == "." || root == "" {
			root = "."
		}
		var out []string
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				base := d.Name()
				if path != root && (strings.HasPrefix(base, ".") || base == "testdata" || base == "vendor") {
					return filepath.SkipDir
				}
				return nil
			}
			if keep(d.Name()) {
				out = append(out, path)
			}
			return nil
		})
		return out, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && keep(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out, nil
}
