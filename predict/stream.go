package predict

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: the article's own server (step 6). "Each character object
// has its physics advanced ahead in time individually as input rpcs are
// received from the client that owns it ... the physics state of different
// client characters are slightly out of phase on the server"; in the
// comments, the author explains that this fits an FPS (characters in a
// static world) and not a world of interacting objects that must step
// together, which is what steps 1-5's server does (a fixed tick, the
// client running ahead so input n is there before frame n).
//
// netcubes has one world, stepped once a tick by the session, so a
// player's time stream is built around it. Each tick, the server takes
// every input of that player that arrived (the frames after the player's
// time, up to the newest: "if time < currentTime return", then advance by
// time − currentTime) and advances the player that many frames: none, and
// the player's cube is held where it was while the world steps (its time
// did not move; restored before the packets go, PrepareSend); one, the
// world's step; two or more, all but the last stepped alone on the ground
// plane in a world of its own (as an FPS character moves against the
// static level), then the last in the world's step, with its contacts. So
// the player moves in bursts that follow its packets' arrival (so do its
// pushes on other players), and each player's time is the stamp of its
// newest input: out of phase with the server's and with every other
// player's, by its own latency. Measured (the bench's "article's own
// server"): the players' motion on the server is ten to twenty times
// jerkier than on the fixed tick over jittery links; the cubes they push
// are not (a burst's lone frames have no contacts and a held player pushes
// nothing: the cubes get fewer pushes, not harder ones). The client predicts
// its player alone (the article's client) at its own frame, stamping one
// input a tick with no lead, and compares the server's state with the move
// of the player's time, which the server's ack carries (every input it
// received is applied on arrival, so the newest acked input is the
// player's time − 1).
//
// The speed hack (comment 3: a client that runs its clock fast moves
// farther) and the clamp against it (comment 63: "track total amount of
// time advanced over a period of time and if its some % over/under real
// time advanced then it could be clamped"): the presenter's client may
// stamp 1 + 1/SpeedHackEvery inputs a tick; the server may give each
// player an allowance of one frame a tick, banked up to ClampBurstTicks,
// and drop the frames beyond it (the player's time still jumps to its
// newest input: the frames are simply not simulated). The fixed-tick
// server needs no clamp: it steps each frame once, whatever the client
// stamps.
//
// The last frame of each tick is stepped at the world's frame, not the
// player's (the wobble of a rolling cube follows the frame count), so
// even on open ground the server's character differs a little from the
// client's prediction: one world cannot honour a time per player.

// Speed is the speed hack and the server's clamp (C).
type Speed int

const (
	// SpeedHonest: every client stamps one input a tick; no clamp.
	SpeedHonest Speed = iota
	// SpeedHack: the presenter's client stamps 25 % more inputs than
	// ticks pass; the article's server believes them.
	SpeedHack
	// SpeedHackClamped: the same, and the server clamps each player's
	// time to real time (plus its slack).
	SpeedHackClamped
	// SpeedClamped: honest clients and the clamp: what it costs them
	// when jitter bunches their inputs.
	SpeedClamped
	numSpeeds
)

var speedNames = [...]string{"honest", "speed hack", "speed hack, clamped", "honest, clamped"}

// speedFlagNames are -predict-speed's values, in Speed order.
var speedFlagNames = []string{"honest", "hack", "hack+clamp", "clamp"}

// String names the setting as the HUD says it.
func (s Speed) String() string {
	if s < 0 || s >= numSpeeds {
		return "speed(?)"
	}
	return speedNames[s]
}

// hack reports whether the presenter's client runs its clock fast.
func (s Speed) hack() bool { return s == SpeedHack || s == SpeedHackClamped }

// clamp reports whether the server clamps each player's time.
func (s Speed) clamp() bool { return s == SpeedHackClamped || s == SpeedClamped }

// streamWindow is the ticks the time streams' figures cover (a second).
const streamWindow = wire.TicksPerSecond

// streamPlayer is one player's time stream as the server keeps it, shared
// by every client's instance (the HUD shows them all).
type streamPlayer struct {
	on     bool            // the player's instance advanced it this tick
	last   int             // the tick it last advanced
	filled int             // ticks of the window since the stream started
	frozen bool            // its time did not move this tick: held (PrepareSend)
	held   cubes.CubeState // where
	offset int             // the player's time − the server's after this tick, ticks
	adv    [streamWindow]int8
	clamp  [streamWindow]int16
}

// streamBoard is what the clients' instances share about the time streams
// (like the quantized world, Clone hands the same one to every instance),
// and the server's motion jitter, measured once a tick.
type streamBoard struct {
	p [cubes.MaxPlayers]streamPlayer
	// The positions of every cube at the last two ticks, for the second
	// difference (the jitter) of the players and the pushed cubes.
	prev, prev2 []mgl64.Vec3
	hist        int
	jit         [streamWindow]jitterTick
	filled      int
	streamed    bool // the jitter window is the article's server's
}

// jitterTick is one tick's sums of squared second differences.
type jitterTick struct {
	playerSq, cubeSq float64
	playerN, cubeN   int
}

// StreamFigures are the article's server's figures over the last second.
type StreamFigures struct {
	// Per player (0-based), while its instance streams: its time against
	// the server's (negative: behind, ms), the frames it advanced per tick
	// (least, most, mean) and the frames the clamp dropped per second.
	On                 [cubes.MaxPlayers]bool
	OffsetMs           [cubes.MaxPlayers]float64
	MinAdv, MaxAdv     [cubes.MaxPlayers]int
	MeanAdv            [cubes.MaxPlayers]float64
	ClampedPerSec      [cubes.MaxPlayers]float64
	ClampedTotal       uint64
	PlayerJitterCm     float64 // RMS second difference of the players' cubes on the server, cm/tick
	PushedJitterCm     float64 // the same for the moving, interacting grid cubes
	HasJitter, Streams bool
}

// reset forgets player p's stream (p < 0: every player and the jitter).
func (b *streamBoard) reset(p int) {
	if p < 0 {
		*b = streamBoard{prev: b.prev[:0], prev2: b.prev2[:0]}
		return
	}
	b.p[p] = streamPlayer{}
}

// streamInput is the input the article's server steps player p's cube with
// in this tick's world step, after advancing it through the other frames
// that arrived (see the design note); held when none did.
func (s *server) streamInput(st *Strategy, ctx strategy.Context) cubes.Input {
	now := ctx.Frame()
	ss := &st.stats
	if now <= s.lastSim {
		ss.SimulatedTwice++
	}
	s.lastSim = now
	p := ctx.Player()
	if p < 0 {
		return cubes.Input{}
	}
	bp := &s.board.p[p]
	if s.stream < 0 {
		*bp = streamPlayer{} // a new stream: its figures start over
	}
	bp.on, bp.frozen, bp.last = true, false, now
	bp.filled = min(bp.filled+1, streamWindow)
	k := 0
	if s.newest >= 0 {
		if s.stream < 0 {
			s.stream = int(s.newest) // the player's time starts at its first input
		}
		k = max(int(s.newest)+1-s.stream, 0)
	}
	n := k
	if st.set.Speed.clamp() {
		s.allow = min(s.allow+1, st.cfg.ClampBurstTicks)
		n = min(k, s.allow)
		s.allow -= n
	}
	w := now % streamWindow
	bp.adv[w], bp.clamp[w] = int8(min(n, math.MaxInt8)), int16(min(k-n, math.MaxInt16))
	ss.ClampedFrames += uint64(k - n)
	left := ctx.EditLeft()
	pc := left.PlayerCube(p)
	in := cubes.Input{}
	if n == 0 {
		bp.frozen, bp.held = true, left.Cube(pc)
	} else {
		if n > 1 {
			s.alone(left, pc, p, n-1)
		}
		in = s.frameInput(s.stream + n - 1)
		ss.OnTimeFrames += uint64(n)
	}
	s.stream += k
	bp.offset = s.stream - (now + 1)
	return in
}

// frameInput is the input of the player's frame f (the last one used when
// f never arrived: the article's server advances over a gap with the input
// it has).
func (s *server) frameInput(f int) cubes.Input {
	slot := f % serverInputRing
	if f >= 0 && s.have[slot] == int32(f) && s.inputs[slot] != lateInput {
		s.last = cubes.InputFromBits(s.inputs[slot])
	}
	return s.last
}

// alone steps player p's cube (pc in left) m frames of its time alone on
// the ground plane, in a world of its own, from where left has it, and puts
// it back into left: the frames of a burst before the last.
func (s *server) alone(left *cubes.World, pc, p, m int) {
	if s.own == nil {
		w, err := playerWorld(left)
		if err != nil {
			return // the same configuration with one grid cube cannot fail
		}
		parkPlayers(w, p)
		s.own = w
	}
	me := s.own.PlayerCube(p)
	if s.own.SetCube(me, left.Cube(pc)) != nil {
		return
	}
	for j := range m {
		var ins cubes.Inputs
		ins[p] = s.frameInput(s.stream + j)
		s.own.SetFrame(s.stream + j)
		s.own.StepAll(&ins)
	}
	_ = left.SetCube(pc, s.own.Cube(me))
}

// parkPlayers moves every player of w but me far away, each to a spot of
// its own, where me never meets them.
func parkPlayers(w *cubes.World, me int) {
	for p := range w.NumPlayers() {
		if p == me {
			continue
		}
		i := w.PlayerCube(p)
		c := w.Cube(i)
		c.Position = parkedCube.Add(mgl64.Vec3{float64(5 * (p + 1)), 0, 1})
		_ = w.SetCube(i, c)
	}
}

// settle runs once a tick after the world's step, before any packet goes
// (PrepareSend): the players whose time did not move go back where they
// were, and the server's motion jitter is measured.
func (b *streamBoard) settle(left *cubes.World, streams bool) {
	if streams != b.streamed {
		b.restartJitter() // the jitter belongs to the server that made it
		b.streamed = streams
	}
	for p := range left.NumPlayers() {
		bp := &b.p[p]
		if streams && bp.on && bp.frozen {
			_ = left.SetCube(left.PlayerCube(p), bp.held)
		}
		bp.on = false
	}
	b.measure(left, left.Frame())
}

// measure adds this tick's second differences of the players' cubes and of
// the moving interacting grid cubes (the cubes being pushed) to the window.
func (b *streamBoard) measure(left *cubes.World, frame int) {
	n := left.NumCubes()
	if len(b.prev) != n {
		b.prev, b.prev2, b.hist = make([]mgl64.Vec3, n), make([]mgl64.Vec3, n), 0
	}
	var t jitterTick
	for i := range n {
		pos := left.Cube(i).Position
		if b.hist >= 2 {
			d := pos.Sub(b.prev[i].Mul(2)).Add(b.prev2[i]).Len()
			switch {
			case left.IsPlayer(i):
				t.playerSq += d * d
				t.playerN++
			case left.Interacting(i) && left.Physics().IsAwake(left.BodyID(i)):
				t.cubeSq += d * d
				t.cubeN++
			}
		}
		b.prev2[i], b.prev[i] = b.prev[i], pos
	}
	b.hist = min(b.hist+1, 2)
	b.jit[frame%len(b.jit)] = t
	b.filled = min(b.filled+1, len(b.jit))
}

// figures sums the window into the HUD's figures.
func (b *streamBoard) figures(players int, streams bool) StreamFigures {
	var f StreamFigures
	f.Streams = streams
	if b.filled < MeasureTicks {
		return f // a new window: too little to quote
	}
	var t jitterTick
	for _, j := range b.jit {
		t.playerSq += j.playerSq
		t.playerN += j.playerN
		t.cubeSq += j.cubeSq
		t.cubeN += j.cubeN
	}
	f.HasJitter = t.playerN > 0
	f.PlayerJitterCm = 100 * math.Sqrt(t.playerSq/float64(max(t.playerN, 1)))
	f.PushedJitterCm = 100 * math.Sqrt(t.cubeSq/float64(max(t.cubeN, 1)))
	if !streams {
		return f
	}
	for p := range min(players, cubes.MaxPlayers) {
		bp := &b.p[p]
		if bp.filled == 0 {
			continue
		}
		f.On[p] = true
		f.OffsetMs[p] = float64(bp.offset) * 1000 / wire.TicksPerSecond
		lo, hi, sum, cl := math.MaxInt, 0, 0, 0
		for j := range bp.filled {
			k := ((bp.last-j)%streamWindow + streamWindow) % streamWindow
			a := int(bp.adv[k])
			lo, hi, sum, cl = min(lo, a), max(hi, a), sum+a, cl+int(bp.clamp[k])
		}
		f.MinAdv[p], f.MaxAdv[p] = lo, hi
		f.MeanAdv[p] = float64(sum) / float64(bp.filled)
		f.ClampedPerSec[p] = float64(cl) * wire.TicksPerSecond / float64(bp.filled)
	}
	return f
}

// restartJitter empties the jitter window (the step changed: the figure
// belongs to the server that made it).
func (b *streamBoard) restartJitter() {
	b.jit = [streamWindow]jitterTick{}
	b.filled = 0
}

// streamFacts are the facts line's parts in step 6: each player's time
// against the server's and how many frames it advanced per tick, the
// frames the clamp dropped, the server's motion jitter.
func (st *Strategy) streamFacts() []string {
	f := &st.stats.Stream
	var parts []string
	if !f.HasJitter {
		return append(parts, "time streams: measuring…")
	}
	for p := range cubes.MaxPlayers {
		if !f.On[p] {
			continue
		}
		parts = append(parts, fmt.Sprintf("P%d time %+.0f ms, %d-%d frames a tick", p+1, f.OffsetMs[p], f.MinAdv[p], f.MaxAdv[p]))
	}
	if st.set.Speed.clamp() || st.stats.ClampedFrames > 0 {
		cl := 0.0
		for _, c := range f.ClampedPerSec {
			cl += c
		}
		parts = append(parts, fmt.Sprintf("clamped %.0f inputs/s", cl))
	}
	return append(parts, fmt.Sprintf("server jitter: players %.1f cm/tick, pushed cubes %.1f", f.PlayerJitterCm, f.PushedJitterCm))
}
