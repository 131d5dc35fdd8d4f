package predict

import (
	"netcubes/diverge"
	"netcubes/strategy"
)

// Design note: divergence on the 2004 strategy (package diverge). The
// client's solver is the server's, bit for bit, so a client that predicts
// the whole world never mispredicts (0 corrections in steps 3-5 on a
// perfect link): the article's loop of correction, rewind and replay shows
// only with the player-only scope or other players. On another machine it
// shows for the article's own reason: the client's physics is not the
// server's, every contact comes out a little differently, and the error
// grows until the correction threshold rewinds it. The mode acts on every
// world the client steps (the predicting world, its replays and the
// mirror), so a replay diverges the same way the first prediction did.

// divergeControl is D: off, float noise, another machine (the same key as
// state sync's).
func (st *Strategy) divergeControl() strategy.Control {
	return diverge.Control("the client's", func() diverge.Mode { return st.set.Divergence }, st.setDivergence)
}

// divergeFlag is -diverge (one flag for every strategy with the setting).
func (st *Strategy) divergeFlag() strategy.Flag { return diverge.Flag(st.setDivergence) }

// setDivergence applies divergence mode m to the settings.
func (st *Strategy) setDivergence(m diverge.Mode) {
	s := st.set
	s.Divergence = m
	st.SetSettings(s)
}

// diverge makes the client's worlds the machine the setting says: new
// worlds when the solver changes (configure then starts their history
// over, as for a change of scope).
func (c *client) diverge(m diverge.Mode) {
	if w, err := diverge.World(c.w, m, c.substeps); err == nil {
		c.w = w
	}
	if w, err := diverge.World(c.pw, m, c.substeps); err == nil {
		c.pw = w
	}
	if c.rw != nil {
		if w, err := diverge.World(c.rw.w, m, c.substeps); err == nil {
			c.rw.w = w
		}
	}
}
