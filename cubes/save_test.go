package cubes

import "testing"

// TestSaveRestoreReplays runs the katamari script, saves at two frames
// (the player landing, and in the middle of the gather where hundreds of
// cubes touch), runs on, then restores each save and re-runs: every
// frame's StateHash must equal the first run's.
func TestSaveRestoreReplays(t *testing.T) {
	script, err := LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	const end = 600
	cases := []struct {
		name       string
		save, stop int
	}{
		{"landing", 150, 300},
		{"gather", 450, end},
	}
	w := newTestWorld(t)
	saves := make([]Saved, len(cases))
	hashes := make([]uint64, end+1)
	hashes[0] = w.StateHash()
	for f := 0; f < end; f++ {
		for i, c := range cases {
			if w.Frame() == c.save {
				w.Save(&saves[i])
			}
		}
		w.Step(script.InputAt(f))
		hashes[w.Frame()] = w.StateHash()
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := w.Restore(&saves[i]); err != nil {
				t.Fatal(err)
			}
			if w.Frame() != c.save || w.StateHash() != hashes[c.save] {
				t.Fatalf("restored frame %d hash %x, want frame %d hash %x", w.Frame(), w.StateHash(), c.save, hashes[c.save])
			}
			for f := c.save; f < c.stop; f++ {
				w.Step(script.InputAt(f))
				if got := w.StateHash(); got != hashes[f+1] {
					t.Fatalf("frame %d after restore: hash %x, first run %x", f+1, got, hashes[f+1])
				}
			}
		})
	}
}

func TestRestoreRefusesEmptyAndForeignSaves(t *testing.T) {
	w := newTestWorld(t)
	var empty Saved
	if err := w.Restore(&empty); err == nil {
		t.Error("restore from an empty save: no error")
	}
	cfg := DefaultConfig()
	cfg.GridSide = 3
	small, err := NewWorld(cfg, w.Physics().Config())
	if err != nil {
		t.Fatal(err)
	}
	var s Saved
	small.Save(&s)
	before := w.StateHash()
	if err := w.Restore(&s); err == nil {
		t.Error("restore of a 10-cube save into 901 cubes: no error")
	}
	if w.StateHash() != before {
		t.Error("a refused restore changed the world")
	}
}

// BenchmarkSaveRestore reports the cost of one save and one restore of
// the 901-cube world in the middle of the gather; both are copies into
// reused memory, so they allocate nothing once warm.
func BenchmarkSaveRestore(b *testing.B) {
	script, err := LoadScript("katamari")
	if err != nil {
		b.Fatal(err)
	}
	w := newTestWorld(b)
	for f := 0; f < 450; f++ {
		w.Step(script.InputAt(f))
	}
	var s Saved
	w.Save(&s)
	b.Run("save", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			w.Save(&s)
		}
	})
	b.Run("restore", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := w.Restore(&s); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkSaveRestoreRing is the client's pattern: a ring of 32 saves of
// the gather, each save into the next slot and a restore from the slot
// saved 16 frames earlier, so that every copy reads and writes memory
// that is not in the cache, as a replay does. bytes/save is the size of a
// warm save.
func BenchmarkSaveRestoreRing(b *testing.B) {
	script, err := LoadScript("katamari")
	if err != nil {
		b.Fatal(err)
	}
	w := newTestWorld(b)
	ring := make([]Saved, 32)
	for f := 0; f < 450; f++ {
		w.Save(&ring[f%len(ring)])
		w.Step(script.InputAt(f))
	}
	k := 0
	b.ReportAllocs()
	for b.Loop() {
		w.Save(&ring[k%len(ring)])
		if err := w.Restore(&ring[(k+16)%len(ring)]); err != nil {
			b.Fatal(err)
		}
		k++
	}
	b.ReportMetric(float64(ring[0].Bytes()), "bytes/save")
}
