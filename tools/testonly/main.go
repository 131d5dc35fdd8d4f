// Command testonly lists the exported names of some packages that no
// non-test code uses outside the package's tests: dead code kept alive by
// its tests (remove it, or move it into the tests), and exported names
// only their own package uses (unexport them).
//
//	go run ./tools/testonly ./snapshot ./physics ./wire/... ./geom
//
// Every package of the module is type-checked (go/types, dependencies from
// source), and an object counts as used by the uses recorded in the
// module's non-test files. A method counts as used when its type
// implements an interface that declares it, in the module or in any
// package the module imports (ebiten.Game's Draw, a plotter's Plot): it
// may be called through the interface. That makes the list a list of
// candidates to read, not a verdict, though it is usually right.
//
// The test-helper packages (a name ending in "test", as net/http/httptest,
// or testutil) exist for tests: their exported names are left out, and
// the line before the lists names them.
//
// Three rules count a name as part of its package's API although no
// non-test code names it, each because something other than a call site
// makes it so:
//   - the errors package's conventions: a method Unwrap() error,
//     Unwrap() []error, Is(error) bool or As(any) bool counts as an
//     interface method (errors.Is and errors.As call it through interfaces
//     declared inside their functions, which the interface rule above
//     cannot see);
//   - an enumeration's values: a constant of a named type of its package
//     counts as used when another constant of the same type is used by
//     non-test code (a switch or a zero value may stand for it: a
//     "none" value belongs to its type's set of values);
//   - the house rule on configurations (every Config struct has
//     DefaultConfig and Validate): a function named Default…Config without
//     parameters returning its package's …Config type, and a method
//     Validate() error of a type named …Config, count as used.
package main

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// listed is what `go list -json` says of a package.
type listed struct {
	ImportPath   string
	Dir          string
	Standard     bool
	Module       *struct{ Main bool }
	GoFiles      []string
	TestGoFiles  []string
	XTestGoFiles []string
	Imports      []string
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: testonly PACKAGE...")
		os.Exit(2)
	}
	targets, err := goList(os.Args[1:]...)
	if err != nil {
		fail(err)
	}
	all, err := goList("-deps", "./...")
	if err != nil {
		fail(err)
	}

	fset := token.NewFileSet()
	src := importer.ForCompiler(fset, "source", nil)
	checked := map[string]*types.Package{}
	imp := importerFunc(func(path string) (*types.Package, error) {
		if p, ok := checked[path]; ok {
			return p, nil
		}
		return src.Import(path)
	})

	// Type-check the module's packages in dependency order (go list -deps
	// lists dependencies first), recording which objects non-test code
	// uses, and in which package.
	usedBy := map[types.Object]map[string]bool{}
	for _, p := range all {
		if p.Module == nil || !p.Module.Main {
			continue
		}
		files, err := parseFiles(fset, p.Dir, p.GoFiles)
		if err != nil {
			fail(err)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
		conf := types.Config{Importer: imp, Error: func(error) {}}
		pkg, err := conf.Check(p.ImportPath, fset, files, info)
		if err != nil {
			fail(fmt.Errorf("%s: %w", p.ImportPath, err))
		}
		checked[p.ImportPath] = pkg
		for _, obj := range info.Uses {
			mark(usedBy, obj, p.ImportPath)
		}
		for _, sel := range info.Selections {
			mark(usedBy, sel.Obj(), p.ImportPath)
		}
	}
	ifaces := interfaceMethods(checked)

	var testOnly, internalOnly, helpers []string
	for _, t := range targets {
		pkg := checked[t.ImportPath]
		if pkg == nil {
			continue
		}
		if isTestHelper(pkg) {
			helpers = append(helpers, t.ImportPath)
			continue
		}
		for _, obj := range exported(pkg) {
			users := usedBy[obj]
			name := describe(fset, obj)
			switch {
			case len(users) == 0:
				if implements(obj, ifaces) {
					continue // may be called through an interface
				}
				if enumValue(obj, usedBy) || configConvention(obj) {
					continue
				}
				testOnly = append(testOnly, name)
			case len(users) == 1 && users[t.ImportPath]:
				if implements(obj, ifaces) {
					continue
				}
				internalOnly = append(internalOnly, name)
			}
		}
	}
	sort.Strings(testOnly)
	sort.Strings(internalOnly)
	if len(helpers) > 0 {
		fmt.Printf("test-helper packages, left out: %s\n", strings.Join(helpers, " "))
	}
	report(os.Stdout, "used by no non-test code (tests only, or nothing)", testOnly)
	report(os.Stdout, "used only inside their own package (could be unexported)", internalOnly)
}

func report(w io.Writer, title string, names []string) {
	fmt.Fprintf(w, "%d exported names %s:\n", len(names), title)
	for _, n := range names {
		fmt.Fprintln(w, "  "+n)
	}
}

func mark(usedBy map[types.Object]map[string]bool, obj types.Object, by string) {
	if obj == nil {
		return
	}
	if fn, ok := obj.(*types.Func); ok {
		obj = fn.Origin()
	}
	if v, ok := obj.(*types.Var); ok {
		obj = v.Origin()
	}
	if usedBy[obj] == nil {
		usedBy[obj] = map[string]bool{}
	}
	usedBy[obj][by] = true
}

// exported lists a package's exported package-level objects, the exported
// methods of its named types, and the exported fields of its structs are
// left out (a field is data, often filled by a literal elsewhere).
func exported(pkg *types.Package) []types.Object {
	var out []types.Object
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if obj.Exported() {
			out = append(out, obj)
		}
		tn, ok := obj.(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		named, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		for i := 0; i < named.NumMethods(); i++ {
			if m := named.Method(i); m.Exported() {
				out = append(out, m)
			}
		}
	}
	return out
}

func isMethod(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	return ok && sig.Recv() != nil
}

// isTestHelper reports whether pkg is a package of helpers for tests:
// its name ends in "test" (httptest, strategytest) or is testutil.
func isTestHelper(pkg *types.Package) bool {
	return strings.HasSuffix(pkg.Name(), "test") || pkg.Name() == "testutil"
}

// interfaceMethods lists, by method name, the interface types declared at
// package level in the checked packages and every package they import,
// the standard library's and the dependencies' included (error is in the
// universe).
func interfaceMethods(checked map[string]*types.Package) map[string][]*types.Interface {
	out := map[string][]*types.Interface{}
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package)
	visit = func(p *types.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		scope := p.Scope()
		for _, name := range scope.Names() {
			tn, ok := scope.Lookup(name).(*types.TypeName)
			if !ok {
				continue
			}
			if it, ok := tn.Type().Underlying().(*types.Interface); ok {
				for i := 0; i < it.NumMethods(); i++ {
					m := it.Method(i).Name()
					out[m] = append(out[m], it)
				}
			}
		}
		for _, imp := range p.Imports() {
			visit(imp)
		}
	}
	paths := make([]string, 0, len(checked))
	for path := range checked {
		paths = append(paths, path)
	}
	sort.Strings(paths)
	for _, path := range paths {
		visit(checked[path])
	}
	errIface := types.Universe.Lookup("error").Type().Underlying().(*types.Interface)
	out["Error"] = append(out["Error"], errIface)
	for _, m := range errorsConventions() {
		out[m.Name()] = append(out[m.Name()], types.NewInterfaceType([]*types.Func{m}, nil).Complete())
	}
	return out
}

// errorsConventions are the methods errors.Is, errors.As and errors.Unwrap
// look for through interfaces declared inside their functions.
func errorsConventions() []*types.Func {
	errT := types.Universe.Lookup("error").Type()
	anyT := types.Universe.Lookup("any").Type()
	method := func(name string, param, result types.Type) *types.Func {
		var params *types.Tuple
		if param != nil {
			params = types.NewTuple(types.NewParam(0, nil, "", param))
		}
		sig := types.NewSignatureType(nil, nil, nil, params, types.NewTuple(types.NewParam(0, nil, "", result)), false)
		return types.NewFunc(0, nil, name, sig)
	}
	return []*types.Func{
		method("Unwrap", nil, errT),
		method("Unwrap", nil, types.NewSlice(errT)),
		method("Is", errT, types.Typ[types.Bool]),
		method("As", anyT, types.Typ[types.Bool]),
	}
}

// enumValue reports whether obj is a constant of a named type of its
// package another constant of which non-test code uses.
func enumValue(obj types.Object, usedBy map[types.Object]map[string]bool) bool {
	c, ok := obj.(*types.Const)
	if !ok {
		return false
	}
	named, ok := c.Type().(*types.Named)
	if !ok || named.Obj().Pkg() != c.Pkg() {
		return false
	}
	scope := c.Pkg().Scope()
	for _, name := range scope.Names() {
		other, ok := scope.Lookup(name).(*types.Const)
		if ok && other != c && types.Identical(other.Type(), named) && len(usedBy[other]) > 0 {
			return true
		}
	}
	return false
}

// configConvention reports whether obj is a Default…Config function or a
// Config's Validate method, which the house rule asks of every Config.
func configConvention(obj types.Object) bool {
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	if recv := sig.Recv(); recv != nil {
		t := recv.Type()
		if p, ok := t.(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := t.(*types.Named)
		return ok && fn.Name() == "Validate" && strings.HasSuffix(n.Obj().Name(), "Config") &&
			sig.Params().Len() == 0 && sig.Results().Len() == 1 &&
			types.Identical(sig.Results().At(0).Type(), types.Universe.Lookup("error").Type())
	}
	if !strings.HasPrefix(fn.Name(), "Default") || !strings.HasSuffix(fn.Name(), "Config") ||
		sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	n, ok := sig.Results().At(0).Type().(*types.Named)
	return ok && n.Obj().Pkg() == fn.Pkg() && fn.Name() == "Default"+strings.TrimSuffix(n.Obj().Name(), "Config")+"Config"
}

// implements reports whether obj is a method that an interface declaring
// a method of its name may call: the method of some type of its package
// (its own, or one that embeds it) that implements the interface.
func implements(obj types.Object, ifaces map[string][]*types.Interface) bool {
	fn, ok := obj.(*types.Func)
	if !ok || !isMethod(fn) || len(ifaces[fn.Name()]) == 0 {
		return false
	}
	scope := fn.Pkg().Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		ptr := types.NewPointer(tn.Type())
		if m, _, _ := types.LookupFieldOrMethod(ptr, true, fn.Pkg(), fn.Name()); m != fn {
			continue
		}
		for _, it := range ifaces[fn.Name()] {
			if types.Implements(tn.Type(), it) || types.Implements(ptr, it) {
				return true
			}
		}
	}
	return false
}

func describe(fset *token.FileSet, obj types.Object) string {
	pos := fset.Position(obj.Pos())
	wd, _ := os.Getwd()
	file, err := filepath.Rel(wd, pos.Filename)
	if err != nil {
		file = pos.Filename
	}
	name := obj.Pkg().Name() + "." + obj.Name()
	if fn, ok := obj.(*types.Func); ok && isMethod(fn) {
		recv := fn.Type().(*types.Signature).Recv().Type()
		if p, ok := recv.(*types.Pointer); ok {
			recv = p.Elem()
		}
		if n, ok := recv.(*types.Named); ok {
			name = obj.Pkg().Name() + "." + n.Obj().Name() + "." + obj.Name()
		}
	}
	return fmt.Sprintf("%-45s %s:%d", name, file, pos.Line)
}

func parseFiles(fset *token.FileSet, dir string, names []string) ([]*ast.File, error) {
	var files []*ast.File
	for _, n := range names {
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

func goList(args ...string) ([]listed, error) {
	cmd := exec.Command("go", append([]string{"list", "-json"}, args...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, err
	}
	var pkgs []listed
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "testonly:", err)
	os.Exit(1)
}
