package ui

import (
	"slices"

	"netcubes/game"
	"netcubes/render"
	"netcubes/talk"
)

// The grid view (key 0, -show grid, the talk track's "grid on"): the
// server's view and up to four clients' at once, each under its own strip
// of figures (hudgrid.go draws them). This file keeps the session filling
// the views of the page shown and the views' easing.

// gridState is the grid's share of the app.
type gridState struct {
	on    bool                              // the presenter asked for it
	views [game.MaxGridClients]*render.View // one per cell, eased like the right view
	ks    []int                             // the clients of the page the session fills
	sess  *game.Session                     // the session they were asked of
}

// gridActive reports whether the grid is drawn: asked for, in one process
// (a left process has no clients' views, a right process is one client).
func (a *App) gridActive() bool {
	if !a.gridS.on || a.sess == nil {
		return false
	}
	hasLeft, hasRight := a.sess.Halves()
	return hasLeft && hasRight
}

// gridPage is the clients on the page the shown client is on.
func (a *App) gridPage() []int {
	n := a.sess.NumClients()
	first := a.sess.Shown() / game.MaxGridClients * game.MaxGridClients
	var ks []int
	for k := first; k < n && k < first+game.MaxGridClients; k++ {
		ks = append(ks, k)
	}
	return ks
}

// syncGrid asks the session for the page's views when the page, the
// session or the grid's state changed.
func (a *App) syncGrid() {
	var ks []int
	if a.gridActive() {
		ks = a.gridPage()
	}
	g := &a.gridS
	if g.sess == a.sess && slices.Equal(g.ks, ks) {
		return
	}
	g.sess, g.ks = a.sess, ks
	a.sess.SetGridClients(ks)
	a.resetGridViews()
}

// resetGridViews starts the cells' easing over on the views as they are.
func (a *App) resetGridViews() {
	g := &a.gridS
	for i, k := range g.ks {
		if g.views[i] == nil {
			g.views[i] = render.NewView()
		}
		v := g.views[i]
		v.AntiAlias = a.left.AntiAlias
		v.Reset()
		if cv := a.sess.ClientView(k); cv != nil {
			v.Tick(cv)
		}
	}
}

// tickGrid eases the cells' views by one tick (App.stepped).
func (a *App) tickGrid() {
	g := &a.gridS
	if g.sess != a.sess {
		return
	}
	for i, k := range g.ks {
		if cv := a.sess.ClientView(k); cv != nil && g.views[i] != nil {
			g.views[i].Tick(cv)
		}
	}
}

// gridTab is Tab in the grid with more clients than a page holds: the
// next (dir +1) or previous page, showing its first client.
func (a *App) gridTab(dir int) bool {
	n := a.sess.NumClients()
	if !a.gridActive() || n <= game.MaxGridClients {
		return false
	}
	pages := (n + game.MaxGridClients - 1) / game.MaxGridClients
	p := (a.sess.Shown()/game.MaxGridClients + dir + pages) % pages
	a.d.Do(talk.Command{Op: talk.OpShow, N: p * game.MaxGridClients})
	return true
}

// toggleGrid is the grid key.
func (a *App) toggleGrid() {
	if hasLeft, hasRight := a.sess.Halves(); !hasLeft || !hasRight {
		a.say("grid: in one process only (this process has one side)")
		return
	}
	a.d.Do(talk.Command{Op: talk.OpGrid, On: !a.d.View().Grid})
}
