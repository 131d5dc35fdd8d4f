package transfer_test

import (
	"fmt"
	"testing"

	"netcubes/cubes"
	"netcubes/internal/testutil"
	"netcubes/physics"
	"netcubes/transfer"
)

// katamariAt is the 901-cube world after the katamari script's first
// frames: the grid at rest (0), the ball forming (450), formed and rolling
// (900), the end (1300).
func katamariAt(tb testing.TB, frames int) *cubes.World {
	tb.Helper()
	w, err := cubes.NewWorld(cubes.DefaultConfig(), physics.DefaultConfig())
	if err != nil {
		tb.Fatal(err)
	}
	sc := testutil.Katamari(tb)
	for f := range frames {
		in := cubes.Inputs{sc.InputAt(f)}
		w.StepAll(&in)
	}
	return w
}

var transferFrames = []int{0, 450, 900, 1300}

// BenchmarkSendWorld: what the left does when a right joins: save the
// world, write it as bytes, compress it. Reports the bytes before and
// after compression and the fragments at the default 8 kB.
func BenchmarkSendWorld(b *testing.B) {
	for _, f := range transferFrames {
		w := katamariAt(b, f)
		b.Run(fmt.Sprintf("frame-%d", f), func(b *testing.B) {
			b.ReportAllocs()
			var s *transfer.Sender
			for b.Loop() {
				var err error
				if s, err = transfer.SendWorld(transfer.DefaultConfig(), w); err != nil {
					b.Fatal(err)
				}
			}
			var sv cubes.Saved
			w.Save(&sv)
			raw, _ := sv.AppendBinary(nil)
			n, frags := s.Bytes()
			b.ReportMetric(float64(len(raw)), "raw-bytes")
			b.ReportMetric(float64(n), "sent-bytes")
			b.ReportMetric(float64(frags), "fragments")
		})
	}
}

// BenchmarkReceiveWorld: what the right does with the last fragment:
// decompress, read and check every list, restore.
func BenchmarkReceiveWorld(b *testing.B) {
	cfg := transfer.DefaultConfig()
	for _, f := range transferFrames {
		w := katamariAt(b, f)
		s, err := transfer.SendWorld(cfg, w)
		if err != nil {
			b.Fatal(err)
		}
		right, err := cubes.NewWorld(cubes.DefaultConfig(), physics.DefaultConfig())
		if err != nil {
			b.Fatal(err)
		}
		// The pieces, as the right would have them.
		var pieces []transfer.Piece
		for tick := 0; ; tick++ {
			p := s.Piece(tick, 1000)
			if p.Index < 0 {
				break
			}
			pieces = append(pieces, transfer.Piece{Frame: p.Frame, Size: p.Size, Fragment: p.Fragment, Index: p.Index, Data: append([]byte(nil), p.Data...)})
		}
		b.Run(fmt.Sprintf("frame-%d", f), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				j := transfer.NewJoining()
				j.Follow(f)
				for k := range pieces {
					if _, err := j.Take(&pieces[k], right); err != nil {
						b.Fatal(err)
					}
				}
				if j.Waiting() {
					b.Fatal("the world did not arrive")
				}
			}
			if right.StateHash() != w.StateHash() {
				b.Fatal("the world received differs")
			}
		})
	}
}
