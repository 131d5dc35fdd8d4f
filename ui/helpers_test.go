package ui

import (
	"testing"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/talk"
)

// layoutApps are the apps the layout tests lay out, one per strategy: a
// director for the names the HUD reads from it, built once.
var layoutApps = map[string]*App{}

// layoutApp is an app for a layout test: the fonts and the session given,
// a director starting with the session's strategy for the rest.
func layoutApp(t *testing.T, f *fonts, sess *game.Session) *App {
	t.Helper()
	id := sess.Strategy().ID()
	a := layoutApps[id]
	if a == nil {
		a = newStageApp(t, id, "perfect")
		layoutApps[id] = a
	}
	a.fonts, a.sess, a.note, a.noteTicks = f, sess, "", 0
	a.buildHUD()
	return a
}

// step runs one tick of the app without keys: one frame unless paused.
func (a *App) step() {
	a.d.Tick(cubes.Input{})
	a.sync()
}

// selectEntry is a number key: strategy i of the menu.
func (a *App) selectEntry(i int) {
	a.d.Do(talk.Command{Op: talk.OpStrategy, Name: a.sess.Strategies()[i].ID()})
	a.sync()
}

// reset is F5, scene Home, cyclePreset N (Shift+N).
func (a *App) reset()              { a.d.Restart(); a.sync() }
func (a *App) scene()              { a.d.Scene(); a.sync() }
func (a *App) cyclePreset(dir int) { a.d.CyclePreset(dir); a.sync() }
