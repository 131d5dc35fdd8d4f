package predict

import (
	"fmt"
	"math"
	"netcubes/diverge"
	"time"

	"netcubes/cubes"
	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Strategy is "Networked Physics (2004)": the left is the server, the
// right the client that owns the player.
type Strategy struct {
	cfg      Config
	set      Settings
	srv      server
	cli      client
	stats    Stats
	win      [wire.TicksPerSecond]tickStat
	controls []strategy.Control
	// Other players and tags (others.go, tag.go, truth.go).
	oth   others
	tsrv  tagServer
	tcli  tagClient
	truth truth
	// The totals at the last roll of the window.
	rolledCorr   uint64
	rolledFrames int
	rolledNs     int64
	seen         stageSeen // the figures Event last reported from
	// winKey is what the one-second window measures (windowKey), and
	// winFilled the ticks it holds since that last changed.
	winKey    windowKey
	winFilled int
	// serverChanged: the last sub-mode step went to or from the article's
	// server (RestartsAfter).
	serverChanged bool
	// join is a mid-session client's transfer of the server's world
	// (join.go).
	join joinState
}

// RestartsAfter implements strategy.Restarter: a step to or from the
// article's server (6) starts the right over, links emptied. The two
// servers count a player's time differently (the fixed tick's frames, the
// client running ahead; the player's own stamps, no lead), so the inputs
// either holds would be read by the other as another time.
func (st *Strategy) RestartsAfter(int) bool { return st.serverChanged }

// Restart implements strategy.Restarter: as a switch to the strategy
// mid-run (Reset), whose client starts from the server's world as it is
// now (as state sync's does), not from the initial one, so the step does
// not open with the catch-up's jumps ("pop: a cube jumped 83 cm").
func (st *Strategy) Restart(ctx strategy.Context) { st.Reset(ctx) }

// MeasureTicks is how much of a new mode the one-second windows must hold
// before the HUD quotes their figures, ticks (half a second): until then
// it says "measuring…" rather than a figure of a few ticks.
const MeasureTicks = wire.TicksPerSecond / 2

// windowKey is what the figures averaged over a window depend on: when
// any of it changes, the windows start over, so no figure mixes the mode
// it measures with the one before.
type windowKey struct {
	mode       Mode
	scope      Scope
	divergence diverge.Mode
	others     OthersMode
	delay      int
	speed      Speed
}

// windowKey is the current settings' key.
func (st *Strategy) windowKey() windowKey {
	s := &st.set
	return windowKey{mode: s.Mode, scope: s.Scope, divergence: s.Divergence, others: s.Others, delay: s.DelayNudge, speed: s.Speed}
}

var (
	_ strategy.Strategy    = (*Strategy)(nil)
	_ strategy.TwoWay      = (*Strategy)(nil)
	_ strategy.RightDriven = (*Strategy)(nil)
	_ strategy.Facts       = (*Strategy)(nil)
	_ strategy.Shared      = (*Strategy)(nil)
	_ strategy.Flagged     = (*Strategy)(nil)
	_ strategy.Releaser    = (*Strategy)(nil)
)

// New returns the strategy at sub-mode 4 (rewind and replay with the 2004
// smoothing: the article's complete client). cfg must be valid (Validate;
// DefaultConfig is): an invalid one is a programming error and panics, as
// snapshot.New does, rather than run with settings nobody asked for.
func New(cfg Config) *Strategy {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	st := &Strategy{cfg: cfg, set: ModeSettings(ReplaySmooth)}
	st.srv.quant = &quantCache{}
	st.srv.board = &streamBoard{}
	st.controls = st.buildControls()
	return st
}

// Stats are the strategy's figures: counters since the last Reset, and
// the HUD's figures over the last second.
type Stats struct {
	// Server.
	ReceivedInputs uint64 // inputs stored before their frame
	LateInputs     uint64 // inputs that arrived after their frame was simulated (dropped)
	OnTimeFrames   uint64 // frames simulated with the client's input
	MissingFrames  uint64 // frames simulated with the last input repeated
	SimulatedTwice uint64 // frames the server was asked to simulate again (must stay 0)
	LastUpdates    int    // cube updates in the last packet

	// Client.
	StalePackets   uint64 // server packets older than one already applied
	Corrections    uint64 // rewinds
	ReplayedFrames int    // frames replayed, in all
	ReplayNs       int64  // time spent replaying, in all
	PredictNs      int64  // time spent in predicted steps, in all
	// The bodies the solver moved (awake) in the predicted steps, the
	// replayed ones and the mirror's steps, summed: the work, counted
	// rather than timed (a shared machine's clock says little).
	PredictBodies, ReplayBodies, MirrorBodies uint64
	TooOld                                    uint64 // corrections older than the move ring (snapped at the present)
	InputMismatches                           uint64 // server states stepped with another input than the prediction (late inputs): corrected whatever the error
	ClockJumps                                uint64 // the client was behind the server and jumped
	StepsThisTick                             int    // 0, 1 or 2
	Lead                                      int    // client frame − server frame, ticks
	Early                                     int    // the client's estimate of how early its inputs arrive, ticks
	HasEarly                                  bool
	Reported                                  int // the server's last report, ticks
	MoveDepth                                 int // moves not yet confirmed by the server
	SaveDepth                                 int // frames that keep a saved world (keepSaves)
	Saves                                     int // saved worlds held
	SaveBytes                                 int // their memory
	InputsPerPacket                           int
	InputDelayMs                              float64 // the last key press's input-to-motion delay
	HasInputDelay                             bool
	InputPresses                              uint64  // key presses whose motion has shown since the start
	InputDelaySumMs                           float64 // their input-to-motion delays, summed (ms)

	// Over the last second.
	CorrectionsPerSec     float64
	FramesPerCorrection   float64
	ReplayUsPerTick       float64 // mean
	ReplayUsMaxTick       float64 // the costliest tick
	PredictionErrorRMSCm  float64 // predicted player vs the server's, same frame
	PredictionErrorMaxCm  float64
	PredictionErrorMaxDeg float64 // largest angle between them
	PredictionErrors      int     // comparisons in the window (0: nothing to show)
	// Measuring: the step, scope or divergence changed less than
	// MeasureTicks ago; the window holds only what followed the change.
	Measuring        bool
	LastReplayFrames int
	LastReplayUs     float64

	// The radius scope: the cubes its world predicts now (the player not
	// counted).
	RadiusCubes int

	// The article's server (step 6): the frames the clamp dropped, in
	// all, and the time streams' figures over the last second.
	ClampedFrames uint64
	Stream        StreamFigures

	// Other players as this client draws them, and its tags.
	Others OthersStats
	Tags   TagStats
	// OthersCorrections counts the rewinds another player's error started
	// (other players predicted with their last inputs), among Corrections.
	OthersCorrections uint64

	errSq, errMax, errDeg float64
	errN                  int
}

// addError counts one same-frame comparison: d metres and a radians apart.
func (s *Stats) addError(d, a float64) {
	s.errSq += d * d
	s.errN++
	s.errMax = math.Max(s.errMax, d)
	s.errDeg = math.Max(s.errDeg, a*180/math.Pi)
}

func (s *Stats) lastReplay(frames int, d time.Duration) {
	s.LastReplayFrames = frames
	s.LastReplayUs = float64(d.Nanoseconds()) / 1000
}

// tickStat is one tick of the one-second window.
type tickStat struct {
	corrections, frames   int
	replayNs              int64
	errSq, errMax, errDeg float64
	errN                  int
}

// roll closes the tick: what changed since the last roll goes into the
// window, and the window's figures are recomputed.
func (st *Strategy) roll(frame int) {
	s := &st.stats
	if k := st.windowKey(); k != st.winKey {
		st.win = [wire.TicksPerSecond]tickStat{}
		st.winKey, st.winFilled = k, 0
	}
	st.winFilled = min(st.winFilled+1, len(st.win))
	s.Measuring = st.winFilled < MeasureTicks
	prevCorr, prevFrames, prevNs := st.rolledCorr, st.rolledFrames, st.rolledNs
	st.rolledCorr, st.rolledFrames, st.rolledNs = s.Corrections, s.ReplayedFrames, s.ReplayNs
	st.win[frame%len(st.win)] = tickStat{
		corrections: int(s.Corrections - prevCorr), frames: s.ReplayedFrames - prevFrames,
		replayNs: s.ReplayNs - prevNs, errSq: s.errSq, errMax: s.errMax, errDeg: s.errDeg, errN: s.errN,
	}
	s.errSq, s.errMax, s.errDeg, s.errN = 0, 0, 0, 0
	var corr, frames, n int
	var ns, maxNs int64
	var sq, mx, deg float64
	for _, w := range st.win {
		corr += w.corrections
		frames += w.frames
		ns += w.replayNs
		maxNs = max(maxNs, w.replayNs)
		sq += w.errSq
		n += w.errN
		mx = math.Max(mx, w.errMax)
		deg = math.Max(deg, w.errDeg)
	}
	s.CorrectionsPerSec = float64(corr) * wire.TicksPerSecond / float64(len(st.win))
	s.FramesPerCorrection = float64(frames) / float64(max(corr, 1))
	s.ReplayUsPerTick = float64(ns) / 1000 / float64(len(st.win))
	s.ReplayUsMaxTick = float64(maxNs) / 1000
	s.PredictionErrorRMSCm = 100 * math.Sqrt(sq/float64(max(n, 1)))
	s.PredictionErrorMaxCm = 100 * mx
	s.PredictionErrorMaxDeg = deg
	s.PredictionErrors = n
}

// OwnError implements strategy.OwnError. In the predicting sub-modes the
// client draws its player at its own frame, ahead of the server, and the
// cubes at the server's: there is no one frame of the left to hold the
// picture against. What can be compared honestly is the prediction of
// frame f with the server's state for frame f, when that arrives (a round
// trip later): the figures of the last second. Without prediction View
// measures the whole view the usual way and this is not consulted.
func (st *Strategy) OwnError() (strategy.ErrorFigures, bool) {
	s := &st.stats
	if !st.cli.pred || s.PredictionErrors == 0 {
		return strategy.ErrorFigures{}, false
	}
	return strategy.ErrorFigures{
		RMSCm: s.PredictionErrorRMSCm, MaxCm: s.PredictionErrorMaxCm, MaxDeg: s.PredictionErrorMaxDeg,
		Of: "the player's prediction vs. the server at the same frame",
	}, true
}

// Settings returns the live settings.
func (st *Strategy) Settings() Settings { return st.set }

// SetSettings changes them; the client follows at its next tick.
func (st *Strategy) SetSettings(s Settings) {
	if s.Mode < NoPrediction || int(s.Mode) > NumModes {
		s.Mode = ReplaySmooth
	}
	if s.Smoothing < 0 || s.Smoothing >= numSmoothings {
		s.Smoothing = SmoothNone
	}
	if s.Scope < 0 || s.Scope >= numScopes {
		s.Scope = ScopeWorld
	}
	s.OthersSettings.normalize()
	if !s.Divergence.Valid() {
		s.Divergence = diverge.Off
	}
	if s.Speed < 0 || s.Speed >= numSpeeds {
		s.Speed = SpeedHonest
	}
	st.set = s
}

// SetMode moves to sub-mode m with its starting settings; the settings of
// other players stay.
func (st *Strategy) SetMode(m Mode) {
	s := ModeSettings(m)
	s.OthersSettings, s.Divergence, s.Speed = st.set.OthersSettings, st.set.Divergence, st.set.Speed
	st.SetSettings(s)
}

// Stats returns the figures.
func (st *Strategy) Stats() Stats { return st.stats }

// config returns the tunables.
func (st *Strategy) config() Config { return st.cfg }

// ID implements strategy.Strategy.
func (st *Strategy) ID() string { return "predict" }

// Name implements strategy.Strategy.
func (st *Strategy) Name() string { return "Networked Physics (2004)" }

// Family implements strategy.Strategy.
func (st *Strategy) Family() string { return "Prediction (2004)" }

// Mode implements strategy.Strategy.
func (st *Strategy) Mode() string {
	s := st.set
	out := fmt.Sprintf("%d/%d %s", int(s.Mode), NumModes, s.Mode)
	if s.Mode.corrects() {
		out += " · replay " + st.scopeText()
	}
	out += " · smoothing " + s.Smoothing.String() + st.othersMode()
	if s.Divergence != diverge.Off {
		out += " · client: " + s.Divergence.String()
	}
	if s.Mode.streams() {
		out += " · " + s.Speed.String()
	}
	return out
}

// Explain implements strategy.Strategy.
func (st *Strategy) Explain() string {
	switch st.set.Mode {
	case NoPrediction:
		return "you drive the CLIENT (right); it draws the server's state as it arrives: your keys act one round trip late"
	case PredictOnly:
		return "the client moves your cube at once with your input and ignores the server: no lag, and it drifts away"
	case Replay:
		return "a correction that differs from the saved move by > 2 cm or 3° rewinds to the server's state and replays the moves"
	case ReplaySmooth:
		return "replay, then draw the jump smoothed (2004: snap > 2 m, 10 % of the way > 10 cm); S cycles none / 2004 / adaptive"
	case Katamari:
		return "gather a ball (Z): cubes from the server are in the past, contacts disagree, corrections pile up; W: replay scope"
	default:
		return "the article's server: each player advanced as its inputs arrive, out of phase, in bursts; C: speed hack / clamp"
	}
}

// SideLabels implements strategy.RightDriven.
func (st *Strategy) SideLabels() (left, leftSub, right, rightSub string) {
	switch {
	case !st.set.Mode.predicts():
		rightSub = "your keys · the server's state as it arrives"
	case st.set.Mode.corrects():
		rightSub = "your keys · cyan: server · magenta: replay jump"
	default:
		rightSub = "your keys, predicted · cyan: server"
	}
	if st.set.Mode.streams() {
		return "SERVER", "each player advanced as its inputs arrive", "CLIENT", rightSub
	}
	return "SERVER", "steps with the inputs that reached it", "CLIENT", rightSub
}

// Reset implements strategy.Strategy.
func (st *Strategy) Reset(ctx strategy.Context) {
	st.stats = Stats{}
	st.seen = stageSeen{}
	st.win = [wire.TicksPerSecond]tickStat{}
	st.winKey, st.winFilled = st.windowKey(), 0
	st.rolledCorr, st.rolledFrames, st.rolledNs = 0, 0, 0
	st.srv.reset(st, ctx)
	st.oth.reset(st)
	st.tsrv.reset()
	st.tcli.reset()
	st.truth.reset()
	if ctx.Players() > 1 {
		st.truth.record(ctx.Frame(), ctx.Left())
	}
	st.cli.reset(st, ctx)
	// A switch to the strategy mid-run: the client joins the server's
	// present, as a client joining a running game loads the level as it
	// is, instead of opening with the catch-up from the initial world
	// ("correction: 872 cm pop"): the server's world crosses the link
	// (join.go).
	st.startJoin(ctx)
}

// Release implements strategy.Releaser: the client's worlds and saved
// worlds, its smoothing, the other players' records and the server's
// accumulator go; Reset builds them again.
func (st *Strategy) Release() {
	st.cli = client{}
	// The quantized world is shared with the clients' instances (Clone),
	// which the switch drops: empty it in place, for the next clones.
	q, b := st.srv.quant, st.srv.board
	*q = quantCache{}
	st.srv = server{quant: q, board: b}
	st.oth = others{}     // its reset builds the clock and the rings again
	st.join = joinState{} // a join's save and pieces (startJoin resets it)
}

// ReceiveBack implements strategy.TwoWay: the client's inputs reach the
// server.
func (st *Strategy) ReceiveBack(ctx strategy.Context, s *wire.ReadStream) error {
	return st.srv.receive(st, ctx, s)
}

// LeftInput implements strategy.RightDriven: the input the server steps
// frame ctx.Frame() with.
func (st *Strategy) LeftInput(ctx strategy.Context) cubes.Input {
	st.judgeTags(ctx)
	if st.set.Mode.streams() {
		return st.srv.streamInput(st, ctx)
	}
	return st.srv.input(st, ctx.Frame())
}

// Send implements strategy.Strategy.
func (st *Strategy) Send(ctx strategy.Context) { st.srv.send(st, ctx) }

// Acked implements strategy.Strategy: the client acknowledges inputs in
// its own packets' content, so session acks are not needed.
func (st *Strategy) Acked(strategy.Context, uint16) {}

// Receive implements strategy.Strategy.
func (st *Strategy) Receive(ctx strategy.Context, seq uint16, s *wire.ReadStream) error {
	return st.cli.receive(st, ctx, seq, s)
}

// Update implements strategy.Strategy.
func (st *Strategy) Update(ctx strategy.Context) {
	st.join.now, st.join.clientRuns = ctx.Frame(), true
	if !st.join.waiting() {
		st.cli.update(st, ctx) // a joining client does not step until its world is in
	}
	st.roll(ctx.Frame())
	st.stats.Stream = st.srv.board.figures(ctx.Players(), st.set.Mode.streams())
}

// SendBack implements strategy.TwoWay.
func (st *Strategy) SendBack(ctx strategy.Context) { st.cli.sendBack(st, ctx) }

// View implements strategy.Strategy. The client draws its world; the
// player from the player-only world when that predicts. Without prediction
// the view is the server's past and the session's error figures compare it
// at that frame; with prediction the drawn player is at a frame the server
// has not simulated yet, so it returns ok = false and the facts line gives
// the error at the same frame instead (prediction vs the server's state
// when it arrives).
func (st *Strategy) View(v *viewmodel.View) (float64, bool) {
	c := &st.cli
	w := c.w
	v.Player = cubes.Player
	v.HasErrorOffsets = true
	v.Marks = v.Marks[:0]
	if st.join.waiting() {
		return 0, false // nothing to show until the server's world is in
	}
	for i := 0; i < w.NumCubes(); i++ {
		s, atRest := c.drawnCube(i)
		if i == c.me {
			s = c.drawnPlayer()
		}
		p, q := c.smooth.Rendered(i, s.Position, s.Orientation)
		if o, ok := st.otherAt(i); ok {
			p, q, atRest = o.Position, o.Orientation, false
		}
		v.Cubes = append(v.Cubes, viewmodel.CubeView{
			Position: p, Orientation: q, HalfExtent: w.HalfExtent(i),
			Player: i == c.me, Interacting: s.Interacting || w.IsPlayer(i), AtRest: atRest,
			ErrorOffset: c.smooth.Offset(i),
		})
	}
	h := w.HalfExtent(c.me)
	if c.pred && c.hasServer {
		v.Marks = append(v.Marks, viewmodel.Mark{Kind: viewmodel.MarkServer, Position: c.serverPlayer.Position,
			Orientation: c.serverPlayer.Orientation, HalfExtent: h})
	}
	if c.markTicks > 0 {
		v.Marks = append(v.Marks, viewmodel.Mark{Kind: viewmodel.MarkReplay, Position: c.mark.Position,
			Orientation: c.mark.Orientation, HalfExtent: h, To: c.markTo.Position})
	}
	st.othersMarks(v, h)
	if c.pred || c.lastServer < 0 {
		return 0, false
	}
	return float64(w.Frame()), true
}

// Clone implements strategy.Strategy: an instance for one more client, in
// the same mode. Each client's instance holds the server's state for that
// client (its input stream and clock lead) and the client's own world.
func (st *Strategy) Clone() strategy.Strategy {
	c := New(st.cfg)
	c.SetSettings(st.set)
	c.srv.quant = st.srv.quant
	c.srv.board = st.srv.board
	return c
}

// PrepareSend implements strategy.Preparer: every cube quantized once for
// every client's instance.
func (st *Strategy) PrepareSend(ctx strategy.Context) {
	st.srv.board.settle(ctx.EditLeft(), st.set.Mode.streams())
	st.srv.quant.prepare(ctx.Left())
}

var _ strategy.IndependentRight = (*Strategy)(nil)

// IndependentRight implements strategy.IndependentRight: a client's part
// (Receive, Update, SendBack) steps, rewinds and replays its own worlds
// and keeps its own figures. What its instance shares with the other
// clients' (Clone) is the server's: the quantized world and the input
// streams' board, written in PrepareSend and by the server's receiving
// (ReceiveBack, LeftInput) before the clients' turn, only read during it
// (the board's jitter figures in Update). So the clients' machines may
// run at once.
func (st *Strategy) IndependentRight() bool { return true }
