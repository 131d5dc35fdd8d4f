package snapshot

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestCopyModelsByVersion: a copy between two blocks whose versions share
// an ancestor (versions.go) writes only the lines of the replays between
// them, and still gives exactly the source's models, whatever the tree of
// versions: siblings, cousins, a block copied from its own descendant,
// versions made by coding whole (every line), by writing the cubes'
// memory, unknown, or fallen out of the ring. It must pass over lines as
// the same version's, or the comparison would not check that path.
func TestCopyModelsByVersion(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	size := int(unsafe.Offsetof(entropyModels{}.clean))
	e := &entropyState{}
	// write scribbles on a few lines of m (a replay's, or every line) and
	// gives it its new version.
	write := func(m *entropyModels, every bool) {
		var mask [cleanWords]uint64
		b := modelBytes(m)
		n := 1 + rng.IntN(40)
		if every {
			n = size / modelLine
		}
		for range n {
			l := rng.IntN(size / modelLine)
			if every {
				l = n - 1
				n--
			}
			for i := range modelLine {
				b[l*modelLine+i] = byte(rng.Uint32())
			}
			mask[l/64] |= 1 << (l % 64)
			m.clean[l/64] &^= 1 << (l % 64)
		}
		old := m.ver
		if every {
			old = 0
			mask = allLines
		}
		e.models = m
		e.written(old, &mask)
	}
	root := new(entropyModels)
	root.reset()
	blocks := []*entropyModels{root}
	var same, total int
	for step := range 400 {
		// A new block: a copy of one of the last ones, written on.
		src := blocks[len(blocks)-1-rng.IntN(min(len(blocks), 12))]
		nb := new(entropyModels)
		switch rng.IntN(10) {
		case 0:
			nb.reset()
		case 1:
			*nb = *src
			nb.ver = 0 // unknown
		default:
			*nb = *src
		}
		write(nb, rng.IntN(25) == 0)
		blocks = append(blocks, nb)
		// A copy between two recent blocks, into a clone of the
		// destination.
		from := blocks[len(blocks)-1-rng.IntN(min(len(blocks), 20))]
		into := *blocks[len(blocks)-1-rng.IntN(min(len(blocks), 20))]
		e.models = &into
		_, s := e.copyModelsTo(from, from.ver)
		same += s
		total++
		if !bytes.Equal(modelBytes(&into)[:size], modelBytes(from)[:size]) || into.ver != from.ver || into.clean != from.clean {
			t.Fatalf("step %d: the copy differs from its source", step)
		}
	}
	if same == 0 {
		t.Errorf("%d copies passed over no line as the same version's", total)
	}
	t.Logf("%d copies, %d lines passed over as the same version's", total, same)
}

// TestVersionDiff: the lines two versions may differ in are the masks of
// the versions between each and their nearest common ancestor; unknown
// versions, other coders' and those fallen out of the ring cannot tell.
func TestVersionDiff(t *testing.T) {
	v := newModelVersions()
	line := func(ls ...int) *[cleanWords]uint64 {
		var m [cleanWords]uint64
		for _, l := range ls {
			m[l/64] |= 1 << (l % 64)
		}
		return &m
	}
	a := v.add(rootVersion, line(1))
	b := v.add(a, line(2))
	c := v.add(a, line(3, 70))
	d := v.add(c, line(4))
	other := newModelVersions().add(rootVersion, line(5))
	cases := []struct {
		name string
		x, y uint64
		ok   bool
		want *[cleanWords]uint64
	}{
		{"same", d, d, true, line()},
		{"parent", b, a, true, line(2)},
		{"child", a, b, true, line(2)},
		{"siblings", b, c, true, line(2, 3, 70)},
		{"cousin", b, d, true, line(2, 3, 4, 70)},
		{"root", d, rootVersion, true, line(1, 3, 4, 70)},
		{"unknown", 0, a, false, nil},
		{"other coder's", other, a, false, nil},
	}
	for _, c := range cases {
		var got [cleanWords]uint64
		ok := v.diff(c.x, c.y, &got)
		if ok != c.ok || (ok && got != *c.want) {
			t.Errorf("%s: %v, %v", c.name, ok, got != [cleanWords]uint64{})
		}
	}
	// Past the ring: the oldest versions are forgotten.
	for range numVersions {
		v.add(d, line(6))
	}
	var got [cleanWords]uint64
	if v.diff(b, d, &got) {
		t.Errorf("versions out of the ring still compared")
	}
}
