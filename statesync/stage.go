package statesync

import "netcubes/strategy"

// Stepping the build-up down must show the lower step's own error. Left
// alone, the right would keep the world the higher step kept in sync, and
// steps 2-4 would read 0.0 cm until the pile drifted: the figure would be
// the later step's. So a step down restarts the right from the left's
// state at that moment (as if one perfect packet had carried every cube),
// and from there on only the lower step's mechanisms keep it close. (A
// switch to the strategy mid-run starts the right from one block of the
// left's world too, as a client joining a game would: join.go.)

// RestartsAfter implements strategy.Restarter: a step down restarts.
func (st *Strategy) RestartsAfter(dir int) bool { return dir < 0 || st.orig.Shown > 0 }

// Restart implements strategy.Restarter: everything starts over as after a
// switch (Reset), except that the right's world is the left's as it is now,
// every cube's pose, velocities and colour, at the left's frame.
func (st *Strategy) Restart(ctx strategy.Context) {
	st.Reset(ctx)
	r := &st.rcv
	left := ctx.Left()
	for i := range min(left.NumCubes(), r.world.NumCubes()) {
		c := left.Cube(i)
		if r.world.SetCube(i, c) == nil {
			r.colour[i] = c.Interacting
		}
	}
	r.world.SetFrame(ctx.Frame())
	st.joined.reset(ctx.Frame()) // a restart, not a join: no block to send or wait for
}
