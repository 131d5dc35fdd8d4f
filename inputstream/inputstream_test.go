package inputstream

import (
	"errors"
	"testing"

	"netcubes/cubes"
	"netcubes/wire"
)

// TestRoundTripAndCost: inputs cross exactly; the first costs 6 bits, a
// repeated one 1, a changed one 7; an input beyond cubes.InputBits is
// refused on writing.
func TestRoundTripAndCost(t *testing.T) {
	in := []uint8{5, 5, 5, 9, 9, 0}
	w := wire.NewWriteStream(make([]byte, 64))
	if err := Serialize(w, in); err != nil {
		t.Fatal(err)
	}
	if err := w.SerializeAlign(); err != nil {
		t.Fatal(err)
	}
	got := make([]uint8, len(in))
	if err := Serialize(wire.NewReadStream(w.Bytes()), got); err != nil {
		t.Fatal(err)
	}
	for k := range in {
		if got[k] != in[k] {
			t.Fatalf("input %d: got %d, want %d", k, got[k], in[k])
		}
	}
	m := wire.NewMeasureStream()
	if err := Serialize(m, in); err != nil {
		t.Fatal(err)
	}
	b := m.Breakdown()
	if n, want := b.Total(), 6+1+1+7+1+7; n != want {
		t.Errorf("%d bits, want %d", n, want)
	}
	bad := []uint8{1 << cubes.InputBits}
	if err := Serialize(wire.NewWriteStream(make([]byte, 8)), bad); !errors.Is(err, ErrInputBits) {
		t.Errorf("an input beyond the bits: %v", err)
	}
}
