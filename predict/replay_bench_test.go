package predict

import (
	"testing"

	"netcubes/link"
)

// BenchmarkReplay measures one rewind and replay: restore the predicting
// world to the frame of the server's last state, set the server's player
// and cubes, and re-step every stored move up to the client's present.
// The session runs the katamari script for 5 s over the intercontinental
// link first (the client is a round trip plus a margin ahead, the ball is
// forming). Both scopes: the player alone in its own world, and the whole
// local world (901 cubes re-stepped per replayed frame), whose cost the
// issue asks to report honestly. ns/op is the cost of one correction;
// frames/op is how many frames it replayed.
func BenchmarkReplay(b *testing.B) {
	sc := katamari(b)
	for _, bc := range []struct {
		name string
		mode Mode
	}{{"player", Katamari}, {"world", Replay}} {
		b.Run(bc.name, func(b *testing.B) {
			s, st := newSession(b, link.PresetIntercontinental.Config(), bc.mode)
			for f := range 300 {
				s.Step(sc.InputAt(f))
			}
			c := &st.cli
			pw, rg := c.predicting()
			f := c.lastServer
			if f < 0 || rg.at(f) == nil {
				b.Fatalf("no server state inside the move ring (server frame %d, client %d)", f, c.ct)
			}
			frames := c.ct - f
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				c.replay(st, pw, rg, f, &c.pkt)
			}
			b.ReportMetric(float64(frames), "frames/op")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(max(frames, 1)), "µs/frame")
		})
	}
}
