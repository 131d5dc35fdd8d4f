package authority

import (
	"errors"

	"netcubes/cubes"
	"netcubes/geom"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: the host. In one process the left world is the host's
// machine: it simulates the whole world like everyone, steps each player
// with the input that crossed that player's link, owns every cube nobody
// has claimed (the default authority, players + 1), judges the claims,
// and relays: what it sends each client is its own world, in which the
// cubes other players own were snapped to what their owners said. Its
// judgement per update from player id for cube i:
//
//   - another player's cube, a packet naming another sender, a cube out of
//     range: refused and counted (hostile);
//   - step 1: nothing a client says about a cube is taken (the host owns
//     everything); step 2: only the player's own cube;
//   - step 3: taken if id ≤ the cube's owner (the lowest id wins); else
//     refused (a lost claim: the claimant will see the pop);
//   - step 4+: the update names the ownership sequence it claims against:
//     older than the host's is stale (ignored), newer is from the future
//     (refused); equal: taken if id owns it or id is lower than its owner,
//     and a change of hands bumps the sequence, which confirms the claim
//     to the claimant and refuses it to anyone who claimed at the same
//     sequence;
//   - a new claim must be plausible: within ReachMetres of the claimant's
//     player in the host's world;
//   - every taken state is checked for speed and a jump from the host's
//     own simulation; the excess accumulates per player and decays. Past
//     DivergenceLimit the host flags the player and takes its cubes back
//     for SuspendTicks (the cheat's lesson: a machine with authority can
//     say anything about its cubes, and the host can only judge whether
//     it is plausible).

// hostStats are the host's counters since the reset.
type hostStats struct {
	Claims, Conflicts, Lost       uint64 // changes of hands, steals from another player, refused claims
	Stale, Future                 uint64 // step 4+: older and newer sequences than the host's
	Hostile                       uint64 // another player's cube, a cube out of range, a claim the step forbids
	Implausible, Flags            uint64 // claims out of reach or states too fast or too far; players flagged
	Releases, Returns             uint64 // cubes let go by their owner, cubes the host took back at rest
	Applied                       uint64 // states taken into the host's world
	claims, conflicts, lost, pops window
}

// host is the state every client's instance shares (Clone): there is one
// host.
type host struct {
	t          table
	players    int
	step       Step
	p2p        bool
	input      [cubes.MaxPlayers]uint8
	heard      []int // the frame of the newest state taken per cube
	divergence [cubes.MaxPlayers]float64
	suspended  [cubes.MaxPlayers]int // frame until which a player's claims are refused
	flagged    [cubes.MaxPlayers]uint64
	prepared   int // the frame of the last per-tick work
	stats      hostStats
	left       *cubes.World // the host's world, to read (the machines' error figures)
}

func (h *host) reset(ctx strategy.Context, set Settings) {
	n := ctx.Left().NumCubes()
	h.players = ctx.Players()
	h.step, h.p2p = set.Step, set.P2P
	h.t.reset(n, h.players)
	h.input = [cubes.MaxPlayers]uint8{}
	if cap(h.heard) < n {
		h.heard = make([]int, n)
	}
	h.heard = h.heard[:n]
	for i := range h.heard {
		h.heard[i] = -1
	}
	h.divergence = [cubes.MaxPlayers]float64{}
	h.suspended = [cubes.MaxPlayers]int{}
	h.flagged = [cubes.MaxPlayers]uint64{}
	h.prepared = -1
	h.stats = hostStats{}
	h.left = nil
}

// Errors the host's reader returns (the packet is dropped and counted by
// the session).
var (
	errWrongSender = errors.New("authority: packet from another player than its link's")
	errWrongWorld  = errors.New("authority: packet for another world (players or cubes)")
	errNotToHost   = errors.New("authority: a host packet sent to the host")
)

// receive judges one client's packet, before the left steps.
func (h *host) receive(st *Strategy, ctx strategy.Context, s *wire.ReadStream) error {
	p := &st.in
	*p = Packet{}
	if err := p.Serialize(s); err != nil {
		return err
	}
	switch {
	case p.FromHost:
		return errNotToHost
	case p.Sender != int32(ctx.Player()+1):
		h.stats.Hostile++
		return errWrongSender
	case int(p.Players) != h.players || int(p.NumCubes) != ctx.Left().NumCubes():
		return errWrongWorld
	}
	h.input[ctx.Player()] = p.Inputs[0]
	left := ctx.EditLeft()
	for k := range p.NumUpdates {
		h.judge(st, left, p.Sender, &p.Updates[k], ctx.Frame())
	}
	return nil
}

// judge takes or refuses one update from player id.
func (h *host) judge(st *Strategy, left *cubes.World, id int32, u *Update, f int) {
	i := int(u.Index)
	own := left.PlayerCube(int(id - 1))
	switch {
	case left.IsPlayer(i) && i != own:
		h.stats.Hostile++
		return
	case f < h.suspended[id-1] && i != own:
		h.stats.Implausible++
		if t := &h.t; h.step >= StepSequences && t.owner[i] == t.def && u.Owner == id && u.OwnSeq == t.ownSeq[i]+1 {
			t.ownSeq[i]++ // refused: a new ownership tells the claimant
		}
		return
	}
	if i == own {
		if h.step >= StepOwnCube && u.Owner == id {
			h.take(st, left, id, i, u, f)
		}
		return
	}
	switch {
	case h.step < StepLowestID:
		h.stats.Hostile++ // the step lets no player claim a cube
	case u.Owner != id:
		h.release(st, left, id, i, u, f)
	case h.step < StepSequences:
		h.claimByID(st, left, id, i, u, f)
	default:
		h.claimBySequence(st, left, id, i, u, f)
	}
}

// claimByID is step 3's rule: the lowest id wins.
func (h *host) claimByID(st *Strategy, left *cubes.World, id int32, i int, u *Update, f int) {
	t := &h.t
	if id > t.owner[i] {
		h.refuse(i, f)
		return
	}
	if id < t.owner[i] && !h.handOver(st, left, id, i, f) {
		return
	}
	h.take(st, left, id, i, u, f)
}

// claimBySequence is step 4's: an update names the ownership it stands
// for. The owner's own updates name the current one (an older authority
// sequence is a packet from an earlier tenure: stale); a new claim
// proposes the next one. Two claims proposing the same next ownership
// race: the lower id wins, and the host's relay of the winner at that
// sequence tells the other it lost.
func (h *host) claimBySequence(st *Strategy, left *cubes.World, id int32, i int, u *Update, f int) {
	t := &h.t
	d := wire.SequenceDiff(u.OwnSeq, t.ownSeq[i])
	if t.owner[i] == id {
		switch {
		case d < 0 || d == 0 && newer(t.authSeq[i], u.AuthSeq):
			h.stats.Stale++
		case d > 0:
			h.stats.Future++
		default:
			t.authSeq[i] = u.AuthSeq
			h.take(st, left, id, i, u, f)
		}
		return
	}
	switch {
	case d <= 0:
		h.stats.Stale++ // made against an ownership that has since changed
	case d > 1:
		h.stats.Future++
	case id > t.owner[i]:
		h.refuse(i, f)
	case h.handOver(st, left, id, i, f):
		t.ownSeq[i], t.authSeq[i] = u.OwnSeq, u.AuthSeq
		h.take(st, left, id, i, u, f)
	}
}

// handOver gives cube i to id if the claim is plausible, counting it.
func (h *host) handOver(st *Strategy, left *cubes.World, id int32, i int, f int) bool {
	t := &h.t
	me := left.Cube(left.PlayerCube(int(id - 1))).Position
	if h.step >= StepSequences && geom.Len(left.Cube(i).Position.Sub(me)) > st.cfg.ReachMetres {
		// Refused, not held against the player (a chain of cubes may
		// reach far); a new ownership sequence tells the claimant.
		h.stats.Implausible++
		if t.owner[i] == t.def {
			t.ownSeq[i]++
			t.disputed[i] = f
		}
		return false
	}
	if t.owner[i] != t.def {
		h.stats.Conflicts++
		h.stats.conflicts.add(f, 1)
		t.disputed[i] = f
	}
	h.stats.Claims++
	h.stats.claims.add(f, 1)
	t.give(i, id, f)
	return true
}

// refuse counts a lost claim.
func (h *host) refuse(i int, f int) {
	h.stats.Lost++
	h.stats.lost.add(f, 1)
	h.t.disputed[i] = f
}

// release is the owner letting a resting cube go (step 5).
func (h *host) release(st *Strategy, left *cubes.World, id int32, i int, u *Update, f int) {
	t := &h.t
	if t.owner[i] != id || h.step < StepReturn {
		return
	}
	if h.step >= StepSequences && u.OwnSeq != t.ownSeq[i]+1 {
		h.stats.Stale++ // a release names the ownership it starts
		return
	}
	h.take(st, left, id, i, u, f)
	t.give(i, t.def, f)
	t.ownSeq[i]++
	h.stats.Releases++
}

// take applies an update's state to the host's world after the
// plausibility check.
func (h *host) take(st *Strategy, left *cubes.World, id int32, i int, u *Update, f int) {
	h.takeState(st, left, id, i, u, f, h.t.changed[i] == f)
}

// takeState applies the state; the first state of a hand-over (fresh) is
// not judged for its jump: the claimant simulated the cube where it saw
// it, and the host's copy may have drifted since it last heard of it.
func (h *host) takeState(st *Strategy, left *cubes.World, id int32, i int, u *Update, f int, fresh bool) {
	s := stateOf(&u.State)
	old := left.Cube(i)
	excess := h.implausible(st, &old, &s, f-h.heard[i], fresh)
	d := &h.divergence[id-1]
	*d += excess
	if *d > st.cfg.DivergenceLimit {
		h.flag(id, f, st.cfg.SuspendTicks)
		return
	}
	s.Interacting = old.Interacting || !u.State.AtRest
	if left.SetCube(i, s) == nil {
		h.heard[i] = f
		h.stats.Applied++
	}
}

// implausible is how far a state a player sent is beyond what physics
// allows (0: plausible): faster than the solver's speed limit, more energy
// (height and speed) than any push gives, or farther from the host's own
// copy than both could have moved since the host last heard of it (age
// ticks; not judged for the first state of a hand-over, fresh).
func (h *host) implausible(st *Strategy, old, s *cubes.CubeState, age int, fresh bool) float64 {
	cfg := &st.cfg
	excess := 0.0
	v := geom.Len(s.LinearVelocity)
	if v > cfg.MaxSpeed {
		excess++
	}
	if float64(gravity*s.Position[2])+float64(float64(v*v)/2) > cfg.MaxEnergy {
		excess++
	}
	if !fresh && age > 0 {
		allowed := cfg.MaxJumpMetres + 2*cfg.MaxSpeed*float64(age)/wire.TicksPerSecond
		excess += max(0, geom.Len(s.Position.Sub(old.Position))-allowed)
	}
	return excess
}

// gravity is the world's, m/s² (the energy check's height term).
const gravity = 20

// flag takes every cube of a player flagged by the plausibility check
// back to the default and refuses its claims for a while.
func (h *host) flag(id int32, f, ticks int) {
	h.stats.Flags++
	h.flagged[id-1]++
	h.suspended[id-1] = f + ticks
	h.divergence[id-1] = 0
	t := &h.t
	for i, o := range t.owner {
		if o == id {
			t.give(i, t.def, f)
			t.ownSeq[i]++
			t.disputed[i] = f
		}
	}
}

// prepare is the host's work once per tick, after the left stepped:
// decay the divergences, return resting cubes (step 5), own players'
// cubes (step 2+).
func (h *host) prepare(st *Strategy, ctx strategy.Context) {
	f := ctx.Frame()
	if h.prepared == f {
		return
	}
	h.prepared = f
	h.left = ctx.Left()
	h.stats.claims.open(f + 1)
	h.stats.conflicts.open(f + 1)
	h.stats.lost.open(f + 1)
	h.stats.pops.open(f + 1)
	for k := range h.divergence {
		h.divergence[k] *= st.cfg.DivergenceDecay
	}
	left := ctx.Left()
	t := &h.t
	for p := range h.players {
		i := left.PlayerCube(p)
		if h.step >= StepOwnCube {
			t.owner[i] = int32(p + 1)
		} else {
			t.owner[i] = t.def
		}
	}
	if h.step < StepReturn {
		return
	}
	for i, o := range t.owner {
		if o == t.def || left.IsPlayer(i) {
			continue
		}
		if left.AtRest(i) {
			t.rest[i]++
		} else {
			t.rest[i] = 0
		}
		if t.rest[i] >= st.cfg.ReturnTicks+st.cfg.HostReturnMargin {
			t.give(i, t.def, f)
			t.ownSeq[i]++
			h.stats.Returns++
		}
	}
}

// priority is how much cube i matters to the client whose player is id
// this tick (0: not sent to it at all).
func (h *host) priority(st *Strategy, left *cubes.World, i int, id int32, f int) float64 {
	t := &h.t
	o := t.owner[i]
	cfg := &st.cfg
	switch {
	case o == id && f-t.changed[i] < cfg.FlashTicks:
		return cfg.OwnedPriority // the confirmation of its claim (step 4+)
	case o == id:
		return 0 // its own: it knows better
	case h.p2p && o != t.def:
		return 0 // the owner sends it straight to every peer
	case left.IsPlayer(i):
		return cfg.PlayerPriority
	case o != t.def || f-t.changed[i] < cfg.FlashTicks || f-t.disputed[i] < cfg.FlashTicks:
		return cfg.OwnedPriority
	}
	return replication.BasePriority(left, i, cfg.PlayerPriority, cfg.InteractingPriority, cfg.RestingPriority)
}
