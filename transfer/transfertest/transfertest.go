// Package transfertest holds what the tests of a strategy's join transfer
// share: a piece written as it rides after a packet, the pieces every
// right must refuse, and a fuzz target over the bytes after a packet.
package transfertest

import (
	"math"
	"testing"

	"netcubes/cubes"
	"netcubes/transfer"
	"netcubes/wire"
)

// Junk is n bytes of 0xff: fragments that make no world.
func Junk(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 0xff
	}
	return b
}

// Tail is p written as it rides after a packet's last byte, then extra.
func Tail(t testing.TB, p *transfer.Piece, extra []byte) *wire.ReadStream {
	t.Helper()
	w := wire.NewWriteStream(make([]byte, 64*1024))
	if err := p.Serialize(w); err != nil {
		t.Fatal(err)
	}
	if err := w.SerializeAlign(); err != nil {
		t.Fatal(err)
	}
	return wire.NewReadStream(append(w.Bytes(), extra...))
}

// Case is a piece and the bytes after it.
type Case struct {
	Name  string
	P     transfer.Piece
	Extra []byte
}

// Hostile are pieces a right must refuse with the packet of frame that
// carries them: from the packet's future, from before past (older than
// any transfer the left lets run), and with bytes after them.
func Hostile(frame, past int) []Case {
	junk := Junk(512)
	return []Case{
		{"from the future", transfer.Piece{Frame: uint32(frame + 1), Size: 512, Fragment: 512, Index: 0, Data: junk}, nil},
		{"from the distant past", transfer.Piece{Frame: uint32(past - 1), Size: 512, Fragment: 512, Index: 0, Data: junk}, nil},
		{"bytes after it", transfer.Piece{Frame: uint32(frame), Size: 512, Fragment: 512, Index: 0, Data: junk}, []byte{1}},
	}
}

// Refuses checks that take refuses every case.
func Refuses(t *testing.T, cases []Case, take func(*wire.ReadStream) error) {
	t.Helper()
	for _, tc := range cases {
		if err := take(Tail(t, &tc.P, tc.Extra)); err == nil {
			t.Errorf("%s: accepted", tc.Name)
		}
	}
}

// FuzzTail feeds any bytes, up to four pieces, to take (the right's
// reader of the bytes after a packet); nothing may panic, and world (the
// right's) stays finite.
func FuzzTail(f *testing.F, take func(*wire.ReadStream) error, world func() *cubes.World) {
	f.Add([]byte{0, 0, 0, 30, 0, 0, 2, 0, 0x80, 0, 0, 0})
	f.Add(make([]byte, 600))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := wire.NewReadStream(data)
		for range 4 {
			if take(r) != nil {
				break
			}
		}
		w := world()
		for i := range w.NumCubes() {
			p := w.Cube(i).Position
			if math.IsNaN(p[0]+p[1]+p[2]) || math.IsInf(p[0]+p[1]+p[2], 0) {
				t.Fatalf("cube %d at %v", i, p)
			}
		}
	})
}
