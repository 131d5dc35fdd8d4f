package transfer

import (
	"fmt"
	"testing"

	"netcubes/cubes"
	"netcubes/physics"
)

// tickOf is a session's tick for WorldOut: a frame and a known round trip.
type tickOf struct{ frame int }

func (s tickOf) Frame() int           { return s.frame }
func (s tickOf) RTT() (float64, bool) { return 50, true }

// TestWorldOut: a left's end sends nothing for a right that joins before
// the left world stepped, sends the world otherwise, starts over (join)
// when the right needs it again or the transfer outlives its inputs, and
// stops once the right says it runs the world; its words follow it.
func TestWorldOut(t *testing.T) {
	cfg := cubes.DefaultConfig()
	cfg.GridSide = 6 // 37 cubes: a transfer of a few pieces
	w, err := cubes.NewWorld(cfg, physics.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	var o WorldOut
	joins := 0
	join := func(now int) func() {
		return func() { joins++; o.Start(DefaultConfig(), w, now, 0) }
	}
	o.Start(DefaultConfig(), w, 0, 0)
	if p := o.Piece(tickOf{0}, 10, join(0)); p != nil || joins != 0 || o.Stats(0).Frame != -1 {
		t.Fatalf("a right that joined at the session's start got piece %+v (%d joins)", p, joins)
	}
	const line = "sending %.1f kB in %s (%d sent)"
	if got := SendingFacts(nil, 0, line); got != "" {
		t.Errorf("no transfer: %q", got)
	}
	o.Start(DefaultConfig(), w, 5, 0)
	if p := o.Piece(tickOf{5}, 10, join(5)); p == nil || joins != 0 || int(p.Frame) != w.Frame() {
		t.Fatalf("a right that joined at frame 5: piece %+v, %d joins", p, joins)
	}
	if got, want := SendingFacts(o.s, 2500, line), "sending 2.5 kB in "; len(got) < len(want) || got[:len(want)] != want {
		t.Errorf("the sending line: %q", got)
	}
	o.Again()
	if o.Piece(tickOf{6}, 10, join(6)); joins != 1 {
		t.Errorf("Again: %d joins", joins)
	}
	if o.Piece(tickOf{6 + 11}, 10, join(17)); joins != 2 {
		t.Errorf("a transfer older than its hold: %d joins", joins)
	}
	o.Take(&Ack{Frame: uint32(w.Frame()), Done: true})
	if !o.Stats(3).Done || o.Stats(3).Refused != 3 || SendingFacts(o.s, 2500, line) != "" {
		t.Errorf("after the right's done: %+v, line %q", o.Stats(3), SendingFacts(o.s, 2500, line))
	}
	o.Take(nil) // a right following no transfer: everything goes again
	if o.Stats(0).Done {
		t.Error("a right that follows no transfer left it done")
	}
	o.Stop()
	if o.Piece(tickOf{20}, 10, join(20)); o.Stats(0).Frame != -1 || joins != 2 {
		t.Errorf("after Stop: %+v, %d joins", o.Stats(0), joins)
	}
}

// TestJoiningLine: the right's words before the first piece and after.
func TestJoiningLine(t *testing.T) {
	j := NewJoining()
	j.Follow(42)
	if got, want := j.Line(), "receiving the left's world at frame 42"; got != want {
		t.Errorf("before a piece: %q, want %q", got, want)
	}
	data := make([]byte, 3*MinFragmentBytes)
	cfg := DefaultConfig()
	cfg.FragmentBytes = MinFragmentBytes
	s := NewSender(cfg, 42, data)
	j.r.Take(s.Piece(0, 0))
	want := fmt.Sprintf("receiving the left's world at frame 42: %.0f of %.0f kB", MinFragmentBytes/1000.0, 3*MinFragmentBytes/1000.0)
	if got := j.Line(); got != want {
		t.Errorf("after a piece: %q, want %q", got, want)
	}
}
