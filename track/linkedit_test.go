package track

import (
	"math"
	"strings"
	"testing"

	"netcubes/link"
)

// TestNextCap: F7 tightens the bandwidth cap step by step and wraps to
// off; Shift+F7 loosens it; a cap between steps moves to the next one.
func TestNextCap(t *testing.T) {
	tests := []struct {
		cur  float64
		dir  int
		want float64
	}{
		{0, +1, 2048}, {2048, +1, 1024}, {64, +1, 0},
		{0, -1, 64}, {64, -1, 128}, {2048, -1, 0},
		{1000, +1, 512}, {1000, -1, 1024}, {5000, -1, 0}, {5000, +1, 2048}, {10, +1, 0}, {10, -1, 64},
		{math.NaN(), +1, 2048}, {-3, -1, 64},
	}
	for _, tt := range tests {
		if got := NextCap(tt.cur, tt.dir); got != tt.want {
			t.Errorf("nextCap(%g, %+d) = %g, want %g", tt.cur, tt.dir, got, tt.want)
		}
	}
}

// TestLinkDiff: the header's link lines (a preset and the figures that
// differ from it) give back every preset's pair, as changed by every kind
// of edit the keys and the commands make.
func TestLinkDiff(t *testing.T) {
	edits := [][]LinkEdit{
		nil,
		{{Field: FieldLatency, Kind: EditAdd, Value: 10}},
		{{Field: FieldLoss, Value: 33.5}, {Dir: DirUp, Field: FieldJitter, Value: 70}},
		{{Field: FieldCap, Kind: EditNext}, {Field: FieldCorrupt, Kind: EditNext}, {Field: FieldTCP, Kind: EditToggle}},
		{{Dir: DirDown, Field: FieldMTU, Value: 576}, {Field: FieldQueueMs, Value: 900}, {Field: FieldQueueBytes, Value: 5000}},
		{{Field: FieldBurstIn, Value: 1}, {Dir: DirUp, Field: FieldBurstLoss, Value: 90}, {Field: FieldDuplicate, Value: 2},
			{Field: FieldReorder, Value: 3}, {Field: FieldReorderExtra, Value: 80}},
	}
	for p := link.Preset(0); p < link.NumPresets; p++ {
		for _, es := range edits {
			want := applyEdits(p.Pair(), es)
			got, ok := linkDiff(p.Pair(), want)
			if !ok || applyEdits(p.Pair(), got) != want {
				t.Errorf("%s with %+v: the diff %+v gives %+v", p, es, got, applyEdits(p.Pair(), got))
			}
			// And through the text: the lines read back to the same edits.
			c := Command{Op: OpLink, Edits: got, Client: AllClients}
			if len(got) == 0 {
				continue
			}
			tr, err := Parse("l.txt", strings.NewReader("0 "+c.String()))
			if err != nil {
				t.Fatalf("%q: %v", c.String(), err)
			}
			if back := applyEdits(p.Pair(), tr.Events[0].Cmd.Edits); back != want {
				t.Errorf("%s: %q reads back as %+v, want %+v", p, c.String(), back, want)
			}
		}
	}
}
