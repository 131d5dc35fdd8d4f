// Package testutil holds the helpers that the tests of several packages
// share. It is imported only by tests.
package testutil

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// update rewrites the golden files: go test ./wire ./snapshot ./statesync -update.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Golden compares got with testdata/name of the package under test
// (rewriting the file first under -update) and returns the file's bytes, so
// a test can also read them back. A golden file pins a wire format: a change
// to it must be deliberate.
func Golden(t testing.TB, name string, got []byte) []byte {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s: wrote\n% x\nwant\n% x", name, got, want)
	}
	return want
}
