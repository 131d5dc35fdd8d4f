package ui

import (
	"fmt"

	"netcubes/talk"
	"netcubes/viewmodel"
)

// The HUD's one value per tick: the session's facts of the shown client
// and the app's own, worded by viewmodel.BuildHUD. Everything the HUD
// draws comes from a.hud (and the grid's strips from a.strips); hud.go
// lays it out and draws it.

// buildHUD takes this tick's HUD (App.sync calls it once the director's
// tick and the keys are done).
func (a *App) buildHUD() {
	k := a.sess.Shown()
	a.sess.HUDFacts(k, &a.facts)
	af := a.appFacts(k)
	a.hud = viewmodel.BuildHUD(&a.facts, &af)
	a.strips = a.strips[:0]
	if a.gridActive() && a.gridS.sess == a.sess {
		for _, g := range a.gridS.ks {
			a.sess.HUDFacts(g, &a.gridFacts)
			gf := a.appFacts(g)
			st := viewmodel.BuildStrip(&a.gridFacts, &gf)
			st.Shown = g == k
			a.strips = append(a.strips, st)
		}
	}
}

// appFacts are the app's facts for client k: the presenter's state of the
// run and the link as the director names it.
func (a *App) appFacts(k int) viewmodel.AppFacts {
	af := viewmodel.AppFacts{
		Paused:      a.d.Paused(),
		Slow:        a.d.Slow(),
		Recording:   a.opts.RecordPath != "",
		LinkName:    a.d.LinkName(k),
		Restored:    a.d.RestoredTicks() > 0,
		ClientTitle: a.d.ClientTitle(k),
		Ghost:       a.overlays.Ghost,
	}
	if what, done, ok := a.d.Jump(); ok {
		af.Jump, af.JumpDone = what, done
	}
	if name, at, length, on := a.d.TrackStatus(); on {
		af.Script = fmt.Sprintf("%s %s/%s", name, talk.Clock(at), talk.Clock(length))
	}
	// Each direction on its own line when they differ (an asymmetric
	// path: a phone's slow, lossy uplink).
	if pair := a.sess.LinksOf(k); !pair.IsSymmetric() {
		af.LinkDescs = []string{"down " + describeLink(pair.Down), "up " + describeLink(pair.Up)}
	} else {
		af.LinkDescs = []string{describeLink(pair.Down)}
	}
	af.NetStatus, af.Refused = a.netLines()
	return af
}
