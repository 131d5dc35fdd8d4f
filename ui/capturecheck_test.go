package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckCaptureTouchesNothing: the check before a run says whether the
// -capture directory could be made without making it (a run that then
// finds no display must leave no trace), and refuses a path under a file.
func TestCheckCaptureTouchesNothing(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir, err string
	}{
		{filepath.Join(dir, "frames", "talk"), ""},
		{dir, ""},
		{file, "not a directory"},
		{filepath.Join(file, "frames"), "not a directory"},
	} {
		err := CheckCapture(Capture{Dir: c.dir})
		if (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v, want %q", c.dir, err, c.err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "frames")); !os.IsNotExist(err) {
		t.Errorf("the check made the directory: %v", err)
	}
}
