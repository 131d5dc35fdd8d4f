package transfer

import (
	"bytes"
	"testing"

	"netcubes/wire"
)

// TestLossyTransfer: a world crosses a link that loses every third packet
// and every second ack; the right ends with the sender's bytes exactly,
// and the sender stops once told.
func TestLossyTransfer(t *testing.T) {
	world := make([]byte, 100_000)
	for i := range world {
		world[i] = byte(i * 7 / 13)
	}
	data, err := Compress(world)
	if err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.FragmentBytes = MinFragmentBytes
	s := NewSender(cfg, 1234, data)
	var r Receiver
	var ack Ack
	buf := make([]byte, 64*1024)
	w := wire.NewWriteStream(buf)
	rd := &wire.ReadStream{}
	var in Piece
	var inAck Ack
	tick := 0
	for ; tick < 2000 && !s.Done(); tick++ {
		p := s.Piece(tick, 4)
		w.Reset(buf)
		if err := p.Serialize(w); err != nil || w.SerializeAlign() != nil {
			t.Fatal(err)
		}
		if tick%3 != 0 {
			rd.Reset(w.Bytes())
			if err := in.Serialize(rd); err != nil {
				t.Fatal(err)
			}
			if in.Index >= 0 {
				r.Take(&in)
			} else {
				r.Take(&in) // the announcement starts the transfer
			}
		}
		if !r.active {
			continue
		}
		done := false
		if r.Complete() {
			got, err := Decompress(r.Data())
			if err != nil || !bytes.Equal(got, world) {
				t.Fatalf("the world received differs (%v)", err)
			}
			done = true
		}
		r.Fill(&ack, done)
		w.Reset(buf)
		if err := ack.Serialize(w); err != nil || w.SerializeAlign() != nil {
			t.Fatal(err)
		}
		if tick%2 == 0 {
			rd.Reset(w.Bytes())
			if err := inAck.Serialize(rd); err != nil {
				t.Fatal(err)
			}
			s.Take(&inAck, true)
		}
	}
	n, frags := s.Bytes()
	t.Logf("%d bytes compressed to %d in %d fragments: done in %d ticks, %d fragments sent", len(world), n, frags, tick, s.Sent())
	if !s.Done() {
		t.Fatal("the transfer never finished")
	}
	if s.Sent() > 3*frags {
		t.Errorf("%d fragments sent for %d", s.Sent(), frags)
	}
}

// FuzzPieceAndAck: hostile bytes read as a piece or an ack return an
// error or something within the bounds, never a panic; a piece read is
// taken by a receiver.
func FuzzPieceAndAck(f *testing.F) {
	buf := make([]byte, 64*1024)
	w := wire.NewWriteStream(buf)
	p := Piece{Frame: 9, Size: 1000, Fragment: 256, Index: 3, Data: make([]byte, 1000-768)}
	if err := p.Serialize(w); err != nil {
		f.Fatal(err)
	}
	f.Add(append([]byte(nil), w.Bytes()...))
	w.Reset(buf)
	a := Ack{Frame: 9, Count: 40}
	a.Have[0] = 0xdeadbeef
	if err := a.Serialize(w); err != nil {
		f.Fatal(err)
	}
	f.Add(append([]byte(nil), w.Bytes()...))
	var r Receiver
	f.Fuzz(func(t *testing.T, b []byte) {
		rd := &wire.ReadStream{}
		rd.Reset(b)
		var p Piece
		if p.Serialize(rd) == nil {
			if p.Index >= 0 && len(p.Data) > MaxFragmentBytes {
				t.Fatalf("a fragment of %d bytes", len(p.Data))
			}
			if r.Take(&p) {
				_, _ = Decompress(r.Data())
			}
		}
		rd.Reset(b)
		var a Ack
		if a.Serialize(rd) == nil && (a.Count < 0 || a.Count > MaxFragments) {
			t.Fatalf("an ack of %d fragments", a.Count)
		}
	})
}
