package main

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestBenchSnapshotSections runs the snapshot sections on a short stretch
// of the script and checks every row is there and the idle figure is the
// article's ≈ 15 kbit/s.
func TestBenchSnapshotSections(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run([]string{"-only", "snapshot", "-frames", "90", "-quiet", "-preset", "perfect"}, &out, &errb); err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	text := out.String()
	for _, want := range []string{
		"== snapshot compression ==", "== snapshot interpolation ==", "== snapshot: the article's figures ==",
		"uncompressed", "11+pred", "changed-field bits + player prediction",
		"10 Hz  hermite+slerp", "60 Hz    extrapolate", "17.37 Mbit/s",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// 11 levels + 3 with prediction, 4 rates × 4 modes.
	if n := strings.Count(text, "\n"); n < 14+16+9 {
		t.Errorf("only %d lines:\n%s", n, text)
	}
	m := regexp.MustCompile(`all at rest \(level 11\)\s+≈ 15 kbit/s\s+([0-9.]+) kbit/s`).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no idle row:\n%s", text)
	}
	if v, _ := strconv.ParseFloat(m[1], 64); v < 15 || v > 16.5 {
		t.Errorf("idle %v kbit/s", v)
	}
	m = regexp.MustCompile(`uncompressed \(level 1\), peak\s+17.37 Mbit/s\s+([0-9.]+) Mbit/s`).FindStringSubmatch(text)
	if m == nil || m[1] != "17.4" {
		t.Errorf("uncompressed row: %v", m)
	}
}
