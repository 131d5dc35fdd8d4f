package talk

import (
	"strings"
	"testing"

	"netcubes/link"
)

// TestLinkDiff: the header's link lines (a preset and the figures that
// differ from it) give back every preset's pair, as changed by every kind
// of edit the keys and the commands make.
func TestLinkDiff(t *testing.T) {
	edits := [][]link.Edit{
		nil,
		{{Field: link.FieldLatency, Kind: link.EditAdd, Value: 10}},
		{{Field: link.FieldLoss, Value: 33.5}, {Dir: link.DirUp, Field: link.FieldJitter, Value: 70}},
		{{Field: link.FieldCap, Kind: link.EditNext}, {Field: link.FieldCorrupt, Kind: link.EditNext}, {Field: link.FieldTCP, Kind: link.EditToggle}},
		{{Dir: link.DirDown, Field: link.FieldMTU, Value: 576}, {Field: link.FieldQueueMs, Value: 900}, {Field: link.FieldQueueBytes, Value: 5000}},
		{{Field: link.FieldBurstIn, Value: 1}, {Dir: link.DirUp, Field: link.FieldBurstLoss, Value: 90}, {Field: link.FieldDuplicate, Value: 2},
			{Field: link.FieldReorder, Value: 3}, {Field: link.FieldReorderExtra, Value: 80}},
	}
	for p := link.Preset(0); p < link.NumPresets; p++ {
		for _, es := range edits {
			want := p.Pair().Apply(es)
			got, ok := link.Diff(p.Pair(), want)
			if !ok || p.Pair().Apply(got) != want {
				t.Errorf("%s with %+v: the diff %+v gives %+v", p, es, got, p.Pair().Apply(got))
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
			if back := p.Pair().Apply(tr.Events[0].Cmd.Edits); back != want {
				t.Errorf("%s: %q reads back as %+v, want %+v", p, c.String(), back, want)
			}
		}
	}
}
