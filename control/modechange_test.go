package control

import (
	"testing"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/talk"
)

// TestModeChangeClearsCaptions: every caption and alarm belongs to the
// mode that raised it. A sub-mode step (`[`/`]`), a strategy's key, a
// restart (Home, F5) take the caption board down, and no strategy keeps
// an alarm of the mode before: walked over every strategy's sub-modes
// and keys, with four players on the stage's per-client presets (LAN,
// intercontinental, mobile, terrible: stalls, pops, outages).
func TestModeChangeClearsCaptions(t *testing.T) {
	for i, st := range catalog.All() {
		t.Run(st.Name(), func(t *testing.T) {
			o := testOptions("interpolation", "terrible")
			o.Config.Start = i
			o.Config.World.Players = 4
			for _, p := range []link.Preset{link.PresetLAN, link.PresetIntercontinental, link.PresetMobile, link.PresetTerrible} {
				o.Config.ClientLinks = append(o.Config.ClientLinks, p.Pair())
			}
			d := newTestDirector(t, o)
			check := func(what string) {
				t.Helper()
				if c, ok := d.Captions().Current(); ok {
					t.Errorf("after %s: the caption %q of the mode before is still up", what, c.Text)
				}
				s := d.Session()
				for k := 0; k < s.NumClients(); k++ {
					if a, ok := s.ClientStrategy(k).(strategy.Alarm); ok && a.Alarm() != "" {
						t.Errorf("after %s: client %d's alarm %q of the mode before", what, k+1, a.Alarm())
					}
				}
			}
			raise := func() {
				for range 20 {
					d.Tick(cubes.Input{})
				}
				// Whatever the mode raised by itself, one more event of
				// its own: the board must be up before the change.
				d.Captions().Offer(strategy.Event{Kind: strategy.EventDesync, Text: "DESYNC at frame 1: of the mode before"})
			}
			first := d.Session().Strategy().Mode()
			for n := 0; n < 10; n++ {
				raise()
				d.Do(talk.Command{Op: talk.OpSubMode, Dir: 1})
				check("] into " + d.Session().Strategy().Mode())
				if d.Session().Strategy().Mode() == first {
					break
				}
			}
			for _, c := range d.Session().Strategy().Controls() {
				raise()
				d.Do(talk.Command{Op: talk.OpKey, Name: c.Key, Dir: 1})
				check("the key " + c.Key)
			}
			for _, op := range []talk.Op{talk.OpReset, talk.OpScene, talk.OpRestart} {
				raise()
				d.Do(talk.Command{Op: op})
				check(op.String())
			}
		})
	}
}
