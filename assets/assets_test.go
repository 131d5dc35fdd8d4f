package assets

import (
	"bytes"
	"testing"
)

func TestSounds(t *testing.T) {
	tests := []struct {
		name     string
		pcm      []byte
		minMs    int
		maxMs    int
		minPeak  int16
		silentAt float64 // fraction of the length after which the sound has faded
	}{
		{"impact", Impact(0), 80, 100, 8000, 0.9},
		{"blow", Blow(), 350, 450, 3000, 0.99},
		{"click", Click(), 10, 15, 3000, 0.95},
	}
	for _, tt := range tests {
		if len(tt.pcm)%4 != 0 {
			t.Fatalf("%s: %d bytes is not whole stereo frames", tt.name, len(tt.pcm))
		}
		frames := len(tt.pcm) / 4
		ms := frames * 1000 / SampleRate
		if ms < tt.minMs || ms > tt.maxMs {
			t.Errorf("%s: %d ms long, want %d..%d", tt.name, ms, tt.minMs, tt.maxMs)
		}
		peak, tail := int16(0), int16(0)
		for i := 0; i < frames; i++ {
			l := int16(uint16(tt.pcm[4*i]) | uint16(tt.pcm[4*i+1])<<8)
			r := int16(uint16(tt.pcm[4*i+2]) | uint16(tt.pcm[4*i+3])<<8)
			if l != r {
				t.Fatalf("%s: channels differ at frame %d", tt.name, i)
			}
			a := max(l, -l)
			peak = max(peak, a)
			if float64(i) > tt.silentAt*float64(frames) {
				tail = max(tail, a)
			}
		}
		if peak < tt.minPeak {
			t.Errorf("%s: peak %d, want ≥ %d (audible)", tt.name, peak, tt.minPeak)
		}
		if tail > peak/8 {
			t.Errorf("%s: still loud at the end (%d of peak %d): would click when cut", tt.name, tail, peak)
		}
	}
	if !bytes.Equal(Impact(3), Impact(3)) || bytes.Equal(Impact(0), Impact(1)) {
		t.Error("impact variants should be deterministic and distinct")
	}
}

func TestScripts(t *testing.T) {
	names := ScriptNames()
	if len(names) < 2 || names[0] != "idle" || names[1] != "katamari" {
		t.Fatalf("ScriptNames() = %v, want idle and katamari", names)
	}
	for _, n := range names {
		if s, ok := Script(n); !ok || len(s) == 0 {
			t.Errorf("Script(%q) missing", n)
		}
	}
	for _, bad := range []string{"../go.mod", "scripts/idle", "idle.txt", "nope"} {
		if _, ok := Script(bad); ok {
			t.Errorf("Script(%q) should not resolve", bad)
		}
	}
}
