package lockstep

import (
	"crypto/rand"
	"errors"
	"testing"

	"netcubes/cubes"
	"netcubes/transfer"
	"netcubes/wire"
)

// TestJoinMidRunIsExact: 3 s into the katamari script on mode 6's link
// (UDP, 125 ms, 25 % loss), the right joins: the left sends its world at
// that frame in fragments, some lost and sent again, the right restores it
// and, from there, equals the left bit for bit at every frame it reaches
// and every hash it compares agrees.
func TestJoinMidRunIsExact(t *testing.T) {
	t.Parallel() // a whole session run of its own: CPU-bound, shares nothing
	sc := katamari(t)
	s, st := session(t, 5, Modes[5].Link)
	const joinAt, frames = 3 * wire.TicksPerSecond, 7 * wire.TicksPerSecond
	left := map[int]uint64{}
	receivedAt := -1
	for f := range frames {
		if f == joinAt {
			st.Join(s.Context())
		}
		s.Step(sc.InputAt(f))
		left[s.Left().Frame()] = s.Left().StateHash()
		if f < joinAt || st.receiving() || st.xj.Base() < 0 {
			continue
		}
		if receivedAt < 0 {
			receivedAt = f
		}
		r := st.World()
		if want, ok := left[r.Frame()]; !ok || r.StateHash() != want {
			t.Fatalf("tick %d: the right's frame %d differs from the left's", f, r.Frame())
		}
	}
	tr, ss := st.transfer(), st.Stats()
	t.Logf("the world at frame %d: %d bytes in %d fragments, %d sent, in the right %d ticks after the join; %d hashes compared, the right at frame %d (left %d)",
		tr.Frame, tr.Bytes, tr.Fragments, tr.Sent, receivedAt-joinAt, ss.Checked, ss.Frame, s.Frame())
	if receivedAt < 0 || !tr.Done || tr.Frame != joinAt || ss.Desync >= 0 || ss.Checked < 2*wire.TicksPerSecond || ss.Frame < s.Frame()-20 {
		t.Errorf("transfer done %v at frame %d (joined at %d), received at tick %d, desync %d, %d checked, right at %d",
			tr.Done, tr.Frame, joinAt, receivedAt, ss.Desync, ss.Checked, ss.Frame)
	}
}

// TestHostileTransferRefused: a transfer whose bytes do not decompress,
// decompress to too much, are not a world, are another world's, or claim
// another frame than their own, is refused when its last fragment arrives:
// counted, the right still waiting for a world it can run, nothing
// panics. The real world after them is taken.
func TestHostileTransferRefused(t *testing.T) {
	s, st := sessionGrid(t, 6, 0, Modes[0].Link)
	for range 30 {
		s.Step(cubes.Input{})
	}
	ctx := s.Context()
	f := ctx.Frame()
	save := func(w *cubes.World) []byte {
		var sv cubes.Saved
		w.Save(&sv)
		b, err := sv.AppendBinary(nil)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	compress := func(b []byte) []byte {
		c, err := transfer.Compress(b)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	noise := make([]byte, 3000)
	_, _ = rand.Read(noise)
	other, _ := sessionGrid(t, 5, 0, Modes[0].Link)
	good := save(s.Left())
	cases := []struct {
		name  string
		frame int
		data  []byte
	}{
		{"not DEFLATE", f, noise},
		{"too much once decompressed", f, compress(make([]byte, transfer.MaxWorldBytes+1))},
		{"not a world", f, compress(noise)},
		{"another world", f, compress(save(other.Left()))},
		{"another frame", f - 1, compress(good)},
		{"cut short", f, compress(good[:len(good)-9])},
	}
	buf := make([]byte, 64*1024)
	w := wire.NewWriteStream(buf)
	send := func(frame int, data []byte) error {
		n := (len(data) + transfer.MaxFragmentBytes - 1) / transfer.MaxFragmentBytes
		var err error
		for i := range n {
			lo, hi := i*transfer.MaxFragmentBytes, min((i+1)*transfer.MaxFragmentBytes, len(data))
			p := InputPacket{Piece: &transfer.Piece{Frame: uint32(frame), Size: int32(len(data)), Fragment: transfer.MaxFragmentBytes, Index: int32(i), Data: data[lo:hi]}}
			w.Reset(buf)
			if e := p.Serialize(w); e != nil {
				t.Fatal(e)
			}
			err = st.Receive(ctx, uint16(ctx.Frame()), wire.NewReadStream(w.Bytes()))
		}
		return err
	}
	for k, tc := range cases {
		if err := send(tc.frame, tc.data); !errors.Is(err, transfer.ErrRefused) {
			t.Errorf("%s: taken (%v)", tc.name, err)
		}
		if st.transfer().Refused != k+1 || !st.receiving() {
			t.Errorf("%s: %d refused, receiving %v", tc.name, st.transfer().Refused, st.receiving())
		}
	}
	if err := send(f, compress(good)); err != nil || st.receiving() || st.World().StateHash() != s.Left().StateHash() {
		t.Errorf("the real world: %v, receiving %v", err, st.receiving())
	}
}
