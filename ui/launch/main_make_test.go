package launch

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestMakefileFuzzesEveryTarget: every fuzz target in the repository is in
// the Makefile's FUZZ_TARGETS, so `make test` fuzzes it (a new strategy's
// receive fuzzer included).
func TestMakefileFuzzesEveryTarget(t *testing.T) {
	t.Chdir("../..") // the repository's root: the README, the Makefile, the packages
	mk, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)FUZZ_TARGETS := (.*?)\n\n`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("no FUZZ_TARGETS in the Makefile")
	}
	listed := map[string]bool{}
	for _, f := range strings.Fields(strings.ReplaceAll(string(m[1]), "\\", " ")) {
		listed[f] = true
	}
	fuzzFunc := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`)
	n := 0
	err = filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && path != "." || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		pkg := "./" + filepath.Dir(path)
		if filepath.Dir(path) == "." {
			pkg = "."
		}
		for _, f := range fuzzFunc.FindAllSubmatch(src, -1) {
			n++
			if id := pkg + ":" + string(f[1]); !listed[id] {
				t.Errorf("%s is not in the Makefile's FUZZ_TARGETS", id)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != len(listed) {
		t.Errorf("%d fuzz targets in the code, %d in FUZZ_TARGETS", n, len(listed))
	}
}

// TestMakefileDisplayDoesNotReset: the virtual display the tests run in is
// started with -noreset. Without it the X server resets each time its last
// client leaves, and an app that opens its window during the reset fails
// with "failed to open display": the tests start and stop dozens of app
// processes, so one of them now and then lands in that window.
func TestMakefileDisplayDoesNotReset(t *testing.T) {
	t.Chdir("../..") // the repository's root: the README, the Makefile, the packages
	mk, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^XVFB := .*xvfb-run (.*)$`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("no XVFB := ... xvfb-run line in the Makefile")
	}
	if !strings.Contains(string(m[1]), "-noreset") {
		t.Errorf("the Makefile's xvfb-run starts the server without -noreset: %s", m[1])
	}
}
