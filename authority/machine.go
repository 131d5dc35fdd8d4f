package authority

import (
	"netcubes/cubes"
	"netcubes/diverge"
	"netcubes/geom"
	"netcubes/physics"
	"netcubes/replication"
	"netcubes/strategy"
)

// Design note: a player's machine. It simulates the whole world at the
// present, its own player with its own input at once (zero latency for
// its own cube) and the other players with the inputs the host relayed.
// It keeps its own table of who owns what and:
//
//   - takes a cube it touches (its player touching it, or a cube it owns
//     and that moves touching it: the chain of touching cubes, one contact
//     hop per tick like the world's red spread) when the step allows: step
//     3+ if its id is lower than the cube's owner here;
//   - applies what it hears about a cube it does not own: snapped into its
//     simulation, drawn smoothed (state sync's error offsets); a cube it
//     owns it never overwrites, unless it lost it: a lower id owns it
//     (step 3), or the ownership sequence moved past its claim (step 4+:
//     the host refused it, took it back, or someone took it after a
//     release). Then the cube pops to what the winner says: the
//     comment's "the higher player id will see a pop/warp";
//   - lets a cube go when it has rested ReturnTicks (step 5), telling
//     the host (a release, one more authority sequence);
//   - sends the cubes it owns, by priority, to the host (relay) or to
//     every other machine (peer to peer).

// machineStats are one machine's counters since the reset.
type machineStats struct {
	Claims, Lost, Releases uint64 // cubes taken, cubes lost to a lower id or a refusal, cubes let go at rest
	Stale, Applied         uint64 // updates older than what is held; states taken into the world
	Refused                uint64 // updates about its own cubes it did not take
	Cheats                 uint64 // cubes the cheat flung
	Pops                   uint64 // states taken that moved a cube more than 5 cm
	Corrections            uint64 // states taken that moved a cube more than 1 cm
	claims, lost, pops     window
}

// machine is one player's machine (the right of one client).
type machine struct {
	w        *cubes.World
	fresh    cubes.Saved
	t        table
	me       int32  // this machine's player id (1..players)
	own      int    // its player's cube
	heard    []int  // the frame of the newest state applied per cube
	released []bool // let go at rest, the release not sent yet
	pending  []bool // claimed, the host's confirmation not heard yet (step 4+)
	smooth   replication.Smoother
	inputs   cubes.Inputs
	touched  []bool
	pairs    []physics.ContactPair
	stats    machineStats
	// div is the divergence m.w runs (diverge.World gave it another
	// solver, or rounds it), substeps the host's solver substeps.
	div      diverge.Mode
	substeps int
	// What crossed this machine's link to the host in the last second,
	// each way (the relay's figures; written by this instance's own Send
	// and SendBack only, so the clients' parallel Sends never share one).
	up, down bytesWindow
}

// reset starts the machine from the world every machine loads: a freshly
// built one, at the session's frame.
func (m *machine) reset(ctx strategy.Context) {
	n := ctx.Left().NumCubes()
	switch {
	case ctx.Thin():
		m.w = nil // it only sends its input: nothing draws it (the scale bench)
	case m.w == nil || m.w.NumCubes() != n || !m.fresh.Valid() || m.div != diverge.Off:
		// (A machine on another solver starts again as the host's.)
		m.w = ctx.NewWorld()
		m.w.Save(&m.fresh)
	case m.w.Restore(&m.fresh) != nil:
		m.w = ctx.NewWorld()
	}
	if m.w != nil {
		m.w.SetFrame(ctx.Frame())
		m.div, m.substeps = diverge.Off, m.w.Physics().Config().Substeps
	}
	m.t.reset(n, ctx.Players())
	m.me = int32(ctx.Player() + 1)
	m.own = -1 // a spectator's machine owns nothing
	if p := ctx.Player(); p >= 0 && p < ctx.Left().NumPlayers() {
		m.own = ctx.Left().PlayerCube(p)
	}
	if cap(m.heard) < n {
		m.heard, m.touched, m.released, m.pending = make([]int, n), make([]bool, n), make([]bool, n), make([]bool, n)
	}
	m.heard, m.touched, m.released, m.pending = m.heard[:n], m.touched[:n], m.released[:n], m.pending[:n]
	m.forget()
	m.smooth.SetConfig(replication.DefaultSmoothingConfig())
	m.smooth.Resize(n)
	m.inputs = cubes.Inputs{}
	m.stats = machineStats{}
	m.up, m.down = bytesWindow{}, bytesWindow{}
}

// forget clears what the machine heard and claimed (a reset, a restart).
func (m *machine) forget() {
	for i := range m.heard {
		m.heard[i], m.touched[i], m.released[i], m.pending[i] = -1, false, false, false
	}
}

// apply takes one update heard from the host or a peer (sent at frame
// sent) into the machine's world, or says why not.
func (m *machine) apply(st *Strategy, u *Update, sent, now int, fromHost bool) {
	i := int(u.Index)
	step := st.set.Step
	t := &m.t
	if i == m.own && step >= StepOwnCube {
		m.stats.Refused++ // nobody else says where my own cube is
		return
	}
	if step >= StepSequences {
		if newer(t.ownSeq[i], u.OwnSeq) {
			m.stats.Stale++
			return
		}
	} else if m.heard[i] > sent {
		m.stats.Stale++
		return
	}
	if t.owner[i] == m.me && !m.loses(step, u) {
		m.stats.Refused++
		return
	}
	if !fromHost && u.Owner != m.t.def && t.owner[i] != m.me && step >= StepLowestID && t.owner[i] < u.Owner {
		// A peer claims a cube a lower id holds here: the lower id wins
		// on every machine.
		m.stats.Refused++
		return
	}
	m.snap(i, u, now)
}

// loses reports whether an update about a cube this machine owns takes
// it away: a lower id (step 3); from step 4, a newer ownership than the
// one this machine heard last (someone took it, the host refused the
// claim or took the cube back), or, while its claim waits for the host,
// a lower id at the same ownership (the race went to the lower id). The
// same owner at the same sequence is the host confirming.
func (m *machine) loses(step Step, u *Update) bool {
	i := int(u.Index)
	t := &m.t
	switch {
	case step < StepLowestID:
		return true // steps 1-2: only the own cube is owned, handled before
	case step < StepSequences:
		return u.Owner < m.me
	case u.Owner == m.me:
		if !newer(t.ownSeq[i], u.OwnSeq) {
			t.ownSeq[i], m.pending[i] = u.OwnSeq, false // confirmed
		}
		return false
	case newer(u.OwnSeq, t.ownSeq[i]):
		return true
	}
	return m.pending[i] && u.OwnSeq == t.ownSeq[i] && u.Owner < m.me
}

// snap puts cube i where the update says, smoothing the drawn pose, and
// records who owns it now.
func (m *machine) snap(i int, u *Update, now int) {
	t := &m.t
	if t.owner[i] == m.me && u.Owner != m.me {
		m.stats.Lost++
		m.stats.lost.add(now, 1)
		t.disputed[i] = now
	}
	old := m.w.Cube(i)
	s := stateOf(&u.State)
	s.Interacting = old.Interacting || !u.State.AtRest
	if m.w.SetCube(i, s) != nil {
		return
	}
	m.smooth.Corrected(replication.SmoothingAdaptive, i, old.Position, old.Orientation, s.Position, s.Orientation)
	if geom.Len(s.Position.Sub(old.Position)) > 0.01 {
		m.stats.Corrections++
	}
	if pop := geom.Len(s.Position.Sub(old.Position)); t.owner[i] != u.Owner || pop > 0.05 {
		m.stats.pops.peakAt(now, pop)
		if pop > 0.05 {
			m.stats.Pops++
		}
	}
	t.give(i, u.Owner, now)
	t.ownSeq[i], t.authSeq[i] = u.OwnSeq, u.AuthSeq
	m.pending[i] = false
	m.heard[i] = now
	m.stats.Applied++
}

// step advances the machine one tick: its own input at once, the others
// as relayed; then its claims and releases.
func (m *machine) step(st *Strategy, ctx strategy.Context, in cubes.Input) {
	f := ctx.Frame()
	if p := ctx.Player(); p >= 0 && p < len(m.inputs) {
		m.inputs[p] = in
	}
	if d := st.set.Divergence; d != m.div {
		if w, err := diverge.World(m.w, d, m.substeps); err == nil {
			m.w, m.div = w, d
		}
	}
	m.w.StepAll(&m.inputs)
	m.div.AfterStep(m.w)
	m.smooth.Decay(replication.SmoothingAdaptive)
	step := st.set.Step
	m.ownPlayer(step, f)
	if step >= StepLowestID {
		m.claim(st, f, in)
	}
	if step >= StepReturn {
		m.releaseResting(st, f)
	}
	// The next tick's slots: what its packets bring is counted there.
	m.stats.claims.open(f + 1)
	m.stats.lost.open(f + 1)
	m.stats.pops.open(f + 1)
}

// ownPlayer sets the owner of every player's cube for the step.
func (m *machine) ownPlayer(step Step, f int) {
	for p := range m.w.NumPlayers() {
		o := m.t.def
		if step >= StepOwnCube {
			o = int32(p + 1)
		}
		m.t.give(m.w.PlayerCube(p), o, f)
	}
}

// claim takes the cubes this machine's player touches, directly or
// through a chain of touching cubes it owns, when its id is lower than
// their owner's.
func (m *machine) claim(st *Strategy, f int, in cubes.Input) {
	m.pairs = m.w.Physics().ContactPairs(m.pairs[:0])
	n := m.w.NumCubes()
	for k := range m.touched {
		m.touched[k] = false
	}
	for _, p := range m.pairs {
		a, b := int(p.A), int(p.B)
		if p.B == physics.Ground || a >= n || b >= n {
			continue
		}
		if m.spreads(a) {
			m.touched[b] = true
		}
		if m.spreads(b) {
			m.touched[a] = true
		}
	}
	if in.Katamari && m.own >= 0 {
		m.touchPulled()
	}
	for i, yes := range m.touched {
		if yes && !m.w.IsPlayer(i) && m.me < m.t.owner[i] {
			m.take(i, f)
		}
	}
}

// spreads reports whether cube i passes this machine's authority on to
// what it touches: its own player or a cube it owns, while it moves (a
// pile leaning on a player at rest is not being pushed).
func (m *machine) spreads(i int) bool {
	return (i == m.own || m.t.owner[i] == m.me) && !m.w.AtRest(i)
}

// touchPulled marks the cubes the katamari pull reaches (they touch the
// player through the pull, not a contact).
func (m *machine) touchPulled() {
	me := m.w.Cube(m.own).Position
	for i := range m.touched {
		if geom.Len(m.w.Cube(i).Position.Sub(me)) < 2 {
			m.touched[i] = true
		}
	}
}

// take claims cube i: one more authority sequence, and (step 4+) the
// claim proposes the next ownership.
func (m *machine) take(i int, f int) {
	t := &m.t
	t.give(i, m.me, f)
	t.authSeq[i]++
	m.pending[i] = true // step 4+: it proposes the next ownership until the host confirms
	m.released[i] = false
	m.stats.Claims++
	m.stats.claims.add(f, 1)
}

// releaseResting lets go of the cubes this machine owns that have rested
// ReturnTicks (step 5): the next packet carries the release.
func (m *machine) releaseResting(st *Strategy, f int) {
	t := &m.t
	for i, o := range t.owner {
		if o != m.me || i == m.own {
			continue
		}
		if m.w.AtRest(i) {
			t.rest[i]++
		} else {
			t.rest[i] = 0
		}
		if t.rest[i] >= st.cfg.ReturnTicks {
			if m.pending[i] {
				t.ownSeq[i]++ // the claim the host never confirmed is the one released
			}
			t.give(i, t.def, f)
			t.authSeq[i]++
			t.ownSeq[i]++ // the release starts the next ownership
			m.released[i], m.pending[i] = true, false
			m.stats.Releases++
		}
	}
}
