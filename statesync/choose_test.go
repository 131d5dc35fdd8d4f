package statesync

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/wire"
)

// referenceChoose is choose as it was before the size classes: the player,
// then every cube in priority order (Rank), each measured and taken if it
// fits, until fewer than replication.MinUpdateBits remain. It runs on the sender's
// state as choose found it (the accumulator, the header, the bases) and
// puts the packet back as it found it, so the sender carries on with what
// choose chose. It returns the cubes taken, in the order taken, the
// packet's bits, and how many of the cubes it measured and rejected the
// size classes of choose (its s.class and s.bounds) would have passed over.
func referenceChoose(s *stateSyncSender, st *Strategy, left *cubes.World, frame, headerBits int) (selected []int32, used, passedOver int) {
	set, cfg, pkt := &st.set, &st.cfg, &s.pkt
	saved, savedN, savedRel, savedCand := pkt.Updates[0], pkt.NumUpdates, pkt.Relative, s.cand
	defer func() { pkt.Updates[0], pkt.NumUpdates, pkt.Relative, s.cand = saved, savedN, savedRel, savedCand }()
	pkt.NumUpdates, pkt.Relative = 0, false // as writeHeader left them

	used, budget := headerBits, math.MaxInt
	if set.LimitBandwidth {
		budget = replication.BudgetBytes(st.budgetKbps()) * 8
	}
	minBits := replication.MinUpdateBits(st.n)
	s.candidate(st, left, frame, cubes.Player)
	if bits, err := pkt.MeasureUpdate(s.m, &s.cand); err == nil && used+bits <= budget {
		used += bits
		pkt.Updates[0] = s.cand
		pkt.NumUpdates = 1
		selected = append(selected, cubes.Player)
		pkt.Relative = set.Compressed && set.RelativeToPlayer
	}
	rank := s.prio.Rank()
	for i, more := rank.Next(); more; i, more = rank.Next() {
		if len(selected) >= cfg.MaxUpdates || budget-used < minBits {
			break
		}
		if i == cubes.Player {
			continue
		}
		s.candidate(st, left, frame, i)
		bits, err := pkt.MeasureUpdate(s.m, &s.cand)
		if err != nil || used+bits > budget {
			if s.bounds[s.class[i]] > budget-used {
				passedOver++
			}
			continue
		}
		used += bits
		selected = append(selected, i)
	}
	return selected, used, passedOver
}

// chooseScenario forms a ball in a few passes and blows it apart: cubes at
// rest, rolling with the player and flying, near the player and far.
const chooseScenario = `
0-29 -
30-89 up katamari
90-149 down katamari
150-209 left katamari
210-269 right katamari
270-299 katamari
300-339 blow
end 450
`

// chooseCase is a session whose every client's choice is checked.
type chooseCase struct {
	name     string
	set      func(s *Settings)
	cfg      func(c *Config)
	preset   link.Preset
	clients  int
	players  int
	script   string
	outageAt int // a 30-tick outage of client 1's link from this frame (0: none)
}

// TestChooseMatchesReference runs sessions under many settings, links and
// numbers of clients and players, and checks every client's every choice
// against referenceChoose: the same cubes in the same order and the same
// bits. The size classes only pass over cubes that cannot fit; if a bound
// were ever above a cube's real size, a cube that fits would be passed
// over, and this test would see it wherever that cube came up in the
// order. It also counts the choices in which cubes were passed over and
// cubes fitted exactly into the room left, so the walk's bounds are
// exercised, not just present.
func TestChooseMatchesReference(t *testing.T) {
	step := func(n int) func(s *Settings) { return func(s *Settings) { *s = s.WithStep(n) } }
	kbps := func(n int, more func(s *Settings)) func(s *Settings) {
		return func(s *Settings) {
			if more != nil {
				more(s)
			}
			s.BandwidthKbps, s.LimitBandwidth = n, true
		}
	}
	cases := []chooseCase{
		{name: "step 8, 256 kbit/s, intercontinental", set: step(8), preset: link.PresetIntercontinental, clients: 1, players: 1, script: chooseScenario},
		{name: "step 8, 64 kbit/s, terrible, 3 clients", set: kbps(64, step(8)), preset: link.PresetTerrible, clients: 3, players: 3, script: chooseScenario, outageAt: 300},
		{name: "step 8, 48 kbit/s, perfect", set: kbps(48, step(8)), preset: link.PresetPerfect, clients: 1, players: 1, script: chooseScenario},
		{name: "step 8, 32 kbit/s, 2 players", set: kbps(32, step(8)), preset: link.PresetWiFi, clients: 2, players: 2, script: chooseScenario},
		{name: "step 5, 128 kbit/s", set: kbps(128, step(5)), preset: link.PresetMobile, clients: 1, players: 1, script: chooseScenario},
		{name: "step 7, 96 kbit/s", set: kbps(96, step(7)), preset: link.PresetIntercontinental, clients: 2, players: 1, script: chooseScenario},
		{name: "step 2, raw, 256 kbit/s", set: step(2), preset: link.PresetIntercontinental, clients: 1, players: 1, script: chooseScenario},
		{name: "step 1, raw, no limit", set: step(1), preset: link.PresetLAN, clients: 1, players: 1, script: chooseScenario},
		{name: "step 8, no limit", set: func(s *Settings) { *s = s.WithStep(8); s.LimitBandwidth = false }, preset: link.PresetTerrible, clients: 1, players: 1, script: chooseScenario},
		{name: "step 8, delta without relative, 192 kbit/s", set: kbps(192, func(s *Settings) { *s = s.WithStep(8); s.RelativeToPlayer = false }),
			preset: link.PresetMobile, clients: 1, players: 1, script: chooseScenario},
		{name: "step 8, relative without delta, 128 kbit/s", set: kbps(128, func(s *Settings) { *s = s.WithStep(8); s.DeltaEncoding = false }),
			preset: link.PresetIntercontinental, clients: 1, players: 1, script: chooseScenario},
		{name: "step 8, congestion avoidance, congested", set: kbps(1024, func(s *Settings) { *s = s.WithStep(8); s.CongestionAvoidance = true }),
			preset: link.PresetCongested, clients: 1, players: 1, script: chooseScenario},
		{name: "step 8, 10 updates, 1024 kbit/s", set: kbps(1024, step(8)), cfg: func(c *Config) { c.MaxUpdates = 10 },
			preset: link.PresetIntercontinental, clients: 1, players: 1, script: chooseScenario},
		{name: "step 8, current priority, no starvation guard", set: func(s *Settings) { *s = s.WithStep(8); s.Accumulate = false },
			cfg: func(c *Config) { c.StarvationTicks = 0 }, preset: link.PresetIntercontinental, clients: 1, players: 1, script: chooseScenario},
		{name: "step 8, 4 thin clients, 8 players", set: step(8), preset: link.PresetIntercontinental, clients: 4, players: 8, script: chooseScenario},
	}
	frames := 450
	if testing.Short() {
		frames = 250
	}
	var choices, passedOver, exactFits atomic.Int64
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, p, e := runChooseCase(t, tc, frames)
			choices.Add(c)
			passedOver.Add(p)
			exactFits.Add(e)
		})
	}
	t.Logf("%d choices checked, %d passed over cubes, %d filled the packet to the last bit", choices.Load(), passedOver.Load(), exactFits.Load())
	if passedOver.Load() == 0 || exactFits.Load() == 0 {
		t.Errorf("the cases never exercised the bounds: %d choices passed over cubes, %d fitted a cube exactly", passedOver.Load(), exactFits.Load())
	}
}

// runChooseCase runs one case and returns how many choices it checked, in
// how many the walk passed over cubes the reference measured, and in how
// many the last cube taken filled the budget to the bit.
func runChooseCase(t *testing.T, tc chooseCase, frames int) (choices, passedOver, exactFits int64) {
	cfg := game.DefaultConfig()
	scfg := DefaultConfig()
	if tc.cfg != nil {
		tc.cfg(&scfg)
	}
	st := New(scfg)
	cfg.Strategies = []strategy.Strategy{st}
	cfg.Link = tc.preset.Config()
	cfg.Clients = tc.clients
	cfg.World.Players = tc.players
	cfg.Thin = true
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	set := st.Settings()
	tc.set(&set)
	st.SetSettings(set)
	sc := scenario(t, tc.script)
	var nChoices, nPassed, nExact atomic.Int64
	for k := range tc.clients {
		cs := s.ClientStrategy(k).(*Strategy)
		snd := &cs.snd
		// Clients send in parallel from 8 on: each hook touches only its
		// own sender, and the counters are atomic.
		snd.chosen = func(st *Strategy, left *cubes.World, frame, headerBits, used int) {
			got := slices.Clone(snd.selected)
			want, wantUsed, passed := referenceChoose(snd, st, left, frame, headerBits)
			if !slices.Equal(got, want) || used != wantUsed {
				t.Errorf("client %d, frame %d: chose %v (%d bits), the reference %v (%d bits)", k, frame, got, used, want, wantUsed)
			}
			nChoices.Add(1)
			if passed > 0 {
				nPassed.Add(1)
			}
			if st.set.LimitBandwidth && used == replication.BudgetBytes(st.budgetKbps())*8 {
				nExact.Add(1)
			}
		}
	}
	for f := range frames {
		if tc.outageAt > 0 && f == tc.outageAt {
			s.Outage(30)
		}
		s.Step(sc.InputAt(f))
	}
	if nChoices.Load() < int64(frames*tc.clients/2) {
		t.Errorf("%d choices checked in %d frames of %d clients", nChoices.Load(), frames, tc.clients)
	}
	return nChoices.Load(), nPassed.Load(), nExact.Load()
}

// TestClassBoundsAreLowerBounds: for packets of every format (raw,
// compressed, relative with the player in or not, delta with a base ack
// or not) and random updates of every kind (at rest or moving, near the
// player or far, with a base equal to, close to or far from the state, or
// none), no update is smaller than the bound of its size class, and no
// bound is 0 (which would be no bound at all).
func TestClassBoundsAreLowerBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 23))
	m := wire.NewMeasureStream()
	xyMin, xyMax, zMax := wire.PositionLimits(wire.StateSyncPositionResolution)
	randPos := func() wire.QuantizedVec3 {
		return wire.QuantizedVec3{xyMin + rng.Int32N(xyMax-xyMin+1), xyMin + rng.Int32N(xyMax-xyMin+1), rng.Int32N(zMax + 1)}
	}
	randState := func(near wire.QuantizedVec3, atRest bool) replication.QuantizedCubeState {
		var pos wire.QuantizedVec3
		switch rng.IntN(3) {
		case 0:
			pos = randPos()
		case 1: // inside the player's box, or just outside it
			for a := range pos {
				pos[a] = near[a] + rng.Int32N(2*(replication.RelativeRange*wire.StateSyncPositionResolution)+4) - replication.RelativeRange*wire.StateSyncPositionResolution - 2
			}
			pos[2] = min(max(pos[2], 0), zMax)
		default:
			pos = near
		}
		axis := mgl64.Vec3{rng.Float64() - 0.5, rng.Float64() - 0.5, rng.Float64() - 0.5}
		if rng.IntN(4) == 0 {
			axis = mgl64.Vec3{0, 0, 1}
		}
		lin, ang := mgl64.Vec3{}, mgl64.Vec3{}
		if !atRest {
			lin = mgl64.Vec3{rng.NormFloat64() * 3, rng.NormFloat64() * 3, rng.NormFloat64() * 3}
			ang = mgl64.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		}
		q := replication.QuantizeState(mgl64.Vec3{}, mgl64.QuatRotate(rng.Float64()*2*math.Pi, axis.Normalize()), lin, ang)
		q.Position = pos
		if !atRest && q.AtRest {
			q.LinearVelocity[0], q.AtRest = 1, false
		}
		return q
	}
	// nearBase is a base a little off the state: small and large deltas.
	nearBase := func(q replication.QuantizedCubeState) replication.QuantizedCubeState {
		b := q
		scale := int32(1) << rng.IntN(16)
		for a := range b.Position {
			b.Position[a] = min(max(b.Position[a]+rng.Int32N(2*scale+1)-scale, xyMin), xyMax)
		}
		b.Position[2] = min(max(b.Position[2], 0), zMax)
		lo, hi := wire.SmallestThreeLimits(wire.StateSyncOrientationBits)
		for a := range b.Orientation.Small {
			if rng.IntN(2) == 0 {
				b.Orientation.Small[a] = min(max(b.Orientation.Small[a]+rng.Int32N(2*scale+1)-scale, lo), hi)
			}
		}
		if rng.IntN(3) == 0 {
			b.LinearVelocity, b.AngularVelocity, b.AtRest = wire.QuantizedVec3{}, wire.QuantizedVec3{}, true
		} else {
			vlo, vhi := wire.VelocityLimits(replication.LinearVelocityBits)
			for a := range b.LinearVelocity {
				b.LinearVelocity[a] = min(max(b.LinearVelocity[a]+rng.Int32N(2*scale+1)-scale, vlo), vhi)
			}
			b.AtRest = b.LinearVelocity == (wire.QuantizedVec3{}) && b.AngularVelocity == (wire.QuantizedVec3{})
		}
		return b
	}
	checked := 0
	for range 400 {
		pkt := &replication.Packet{NumCubes: int32(2 + rng.IntN(1000)), Compressed: rng.IntN(4) != 0}
		if pkt.Compressed {
			pkt.Relative, pkt.Delta = rng.IntN(2) == 0, rng.IntN(2) == 0
			pkt.HasBaseAck = pkt.Delta && rng.IntN(4) != 0
		}
		player := randState(randPos(), rng.IntN(2) == 0).Position
		if rng.IntN(4) != 0 {
			pkt.Updates[0] = replication.StateUpdate{Index: 0, State: replication.QuantizedCubeState{Position: player, AtRest: true}}
			pkt.NumUpdates = 1
		}
		var bounds [replication.NumClasses]int
		pkt.ClassBounds(m, player, &bounds)
		for range 200 {
			atRest := rng.IntN(2) == 0
			u := replication.StateUpdate{Index: 1 + rng.Int32N(pkt.NumCubes-1), Interacting: rng.IntN(2) == 0}
			u.State = randState(player, atRest)
			lin := mgl64.Vec3{}
			if !atRest {
				lin = mgl64.Vec3{rng.NormFloat64(), 0, 0}
				if lin[0] == 0 {
					lin[0] = 1
				}
			}
			u.Raw = replication.RawState(mgl64.Vec3{rng.Float64(), 1, 2}, mgl64.QuatRotate(rng.Float64(), mgl64.Vec3{0, 0, 1}), lin, mgl64.Vec3{})
			atRest = u.State.AtRest
			if !pkt.Compressed {
				atRest = u.Raw.AtRest
			}
			if pkt.HasBaseAck && rng.IntN(3) != 0 {
				u.HasBase, u.BaseOffset = true, rng.Int32N(replication.MaxBaseOffset+1)
				u.Base = u.State
				if rng.IntN(2) == 0 {
					u.Base = nearBase(u.State)
				} else if rng.IntN(2) == 0 {
					u.Base = randState(player, rng.IntN(2) == 0)
				}
			}
			c := 0
			if atRest {
				c |= replication.ClassAtRest
			}
			if replication.NearPlayer(u.State.Position, player) {
				c |= replication.ClassNear
			}
			if u.HasBase || rng.IntN(4) == 0 { // a class may expect a base the cube then lacks
				c |= replication.ClassBase
			}
			bits, err := pkt.MeasureUpdate(m, &u)
			if err != nil {
				continue
			}
			checked++
			if bits < bounds[c] {
				t.Fatalf("packet %+v, update %+v: %d bits, below its class %03b bound %d", *pkt, u, bits, c, bounds[c])
			}
		}
		for c := range replication.NumClasses {
			if bounds[c] <= 0 {
				t.Errorf("packet %+v: class %03b has no bound", *pkt, c)
			}
		}
	}
	if checked < 50000 {
		t.Errorf("only %d updates checked", checked)
	}
}
