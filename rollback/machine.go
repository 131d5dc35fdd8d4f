package rollback

// Design note: one player's machine, GGPO's model on netcubes' blocks. The
// machine runs the whole world from inputs alone and never waits for one
// that is still on the way: a missing input of another player is
// predicted (that player's last input, repeated: a held key usually stays
// held). Before each frame it saves the world (a ring of saveRing saves,
// reused, so a tick allocates nothing), and it remembers the inputs each
// frame was stepped with. When a real input arrives and differs from the
// prediction the frame used, the machine restores the save of that frame
// and resimulates to the present in the same tick, with the inputs it now
// holds; because the solver is bit-exact, once every input has arrived the
// machine's world is, bit for bit, the world of a run where every input
// was known in advance: the left's.
//
// Frames are numbered as the left steps them: input n is the one every
// player made at tick n. A machine with an input delay of d shows frame
// T−d at tick T: its own player answers a key d frames late, and the
// others' inputs have d frames more to arrive before they must be
// predicted. The prediction window bounds how far the machine may run
// ahead of the newest frame whose inputs it holds from every player;
// beyond it the machine stalls, as lockstep does (a window of 0 is
// lockstep). The steps a tick may take (resimulation and the step
// forward) are bounded too: a rollback that does not fit is finished over
// the next ticks while the machine stalls, rather than dropping frames.

import (
	"math"
	"runtime"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/internal/cputime"
	"netcubes/wire"
)

// hashAt is a frame's state hash (low 32 bits).
type hashAt struct {
	frame int
	hash  uint32
}

// figureWindow is the span of the per-second figures (ticks), stallWindow
// that of the stall time.
const (
	figureWindow = wire.TicksPerSecond
	stallWindow  = 10 * wire.TicksPerSecond
)

// StallReason says why a machine did not reach its target this tick.
type StallReason uint8

const (
	NoStall      StallReason = iota
	StallWindow              // the prediction window is full: an input is missing
	StallBudget              // the resimulation did not fit in the tick's steps
	StallStarted             // nothing has arrived yet
	StallWorld               // a machine that joined waits for the left's world
)

// machine is one client's right side.
type machine struct {
	world   *cubes.World
	start   int
	players int
	own     int // the player whose inputs this machine makes (−1: none)

	next     [cubes.MaxPlayers]int // first frame of player p not held
	inputs   [ring]cubes.Inputs    // the inputs held, by frame
	used     [ring]cubes.Inputs    // the inputs each frame was last stepped with
	saves    [saveRing]cubes.Saved // the world at the start of each frame
	mine     [ring]hashAt          // own hash of the state at each frame
	remote   [ring]hashAt          // the left's hashes
	checkTo  int                   // frames before it were compared (or had no left hash)
	rollFrom int                   // earliest frame a held input contradicted (−1: none)
	reached  int                   // frames before it have been simulated once
	nudged   bool

	popBuf   []mgl64.Vec3 // the shown positions before a rollback
	popAfter []mgl64.Vec3 // … and after it

	fig figures
}

// figures are the machine's counts for the HUD, the tests and the bench.
type figures struct {
	Rollbacks    int     // since the start
	Resimulated  int     // frames, since the start
	LongestRoll  int     // frames
	Predicted    int     // inputs used before they arrived and then confirmed
	PredictedHit int     // of which the prediction was right
	PopCm        float64 // the last rollback's largest jump, cm
	MaxPopCm     float64 // since the start
	Checked      int     // frames whose hashes were compared with the left's
	Desync       int     // first frame that differed from the left's, −1
	SyncChecked  int     // frames the sync test simulated again and compared
	SyncFail     int     // first frame the sync test found different, −1
	StallTicks   int     // since the start
	LongestStall int     // ticks
	Stall        StallReason
	Behind       int // frames the machine is behind the frame it should show
	stallRun     int
	Refused      int // inputs refused (another value for a held frame)
	ResimNsMax   int64
	ticksRolled  [figureWindow]uint8
	ticksResim   [figureWindow]uint8
	ticksNs      [figureWindow]int64
	stalled      [stallWindow]bool
	tick         int
	lastResim    int
	rolled       bool
	lastResimNs  int64
	desyncSaid   bool
	syncSaid     bool
	popSaid      bool
	popTick      int // the tick of the last rollback that reached the present
}

// reset puts the machine at state fresh at frame start, with players
// players, own player own, forgetting everything.
func (m *machine) reset(fresh *cubes.Saved, start, players, own int) {
	if m.world.Restore(fresh) == nil {
		m.world.SetFrame(start)
	}
	m.start, m.players, m.own = start, players, own
	for p := range m.next {
		m.next[p] = start
	}
	for k := range m.mine {
		m.mine[k] = hashAt{frame: -1}
		m.remote[k] = hashAt{frame: -1}
	}
	m.checkTo, m.rollFrom, m.reached, m.nudged = start, -1, start, false
	m.fig = figures{Desync: -1, SyncFail: -1}
	if cap(m.popBuf) < m.world.NumCubes() {
		m.popBuf = make([]mgl64.Vec3, m.world.NumCubes())
	}
	m.popBuf = m.popBuf[:m.world.NumCubes()]
	if cap(m.popAfter) < m.world.NumCubes() {
		m.popAfter = make([]mgl64.Vec3, m.world.NumCubes())
	}
	m.popAfter = m.popAfter[:m.world.NumCubes()]
	m.record(start)
}

// held reports whether player p's input of frame f is held.
func (m *machine) held(p, f int) bool { return f < m.next[p] }

// confirmed is the first frame some player's input is missing for: every
// frame before it is final.
func (m *machine) confirmed() int {
	c := math.MaxInt
	for p := range m.players {
		c = min(c, m.next[p])
	}
	return c
}

// take stores player p's input of frame f as it arrived. Inputs are taken
// in order only (the sender repeats every input not acked), so the first
// value of a frame is final: another value for a held frame is refused and
// counted. An input that contradicts the prediction a simulated frame used
// marks that frame for a rollback.
func (m *machine) take(p, f int, in cubes.Input) {
	switch {
	case p < 0 || p >= m.players || f < m.start:
		return
	case f < m.next[p]:
		if f > m.next[p]-ring && m.inputs[f%ring][p] != in {
			m.fig.Refused++
		}
		return
	case f > m.next[p] || f >= m.checkTo+ring-saveRing:
		return // a gap (the sender resends from our ack), or beyond the ring
	}
	m.inputs[f%ring][p] = in
	m.next[p] = f + 1
	if f >= m.world.Frame() {
		return // in time: no prediction was made
	}
	m.fig.Predicted++
	if m.used[f%ring][p] == in {
		m.fig.PredictedHit++
		return
	}
	if m.rollFrom < 0 || f < m.rollFrom {
		m.rollFrom = f
	}
}

// inputsFor are the inputs frame f steps with: each player's held input,
// or the last one held, repeated.
func (m *machine) inputsFor(f int, dst *cubes.Inputs) {
	*dst = cubes.Inputs{}
	for p := range m.players {
		switch {
		case m.held(p, f):
			dst[p] = m.inputs[f%ring][p]
		case m.next[p] > m.start:
			dst[p] = m.inputs[(m.next[p]-1)%ring][p]
		}
	}
}

// stepFrame saves the world, steps frame f (its frame now) and hashes the
// result. check compares the hash with the one recorded before (the sync
// test); nudge moves the player by PerturbMetres on the frame's first run.
func (m *machine) stepFrame(check bool, nudgeAt int) {
	f := m.world.Frame()
	m.world.Save(&m.saves[f%saveRing])
	if !check {
		m.inputsFor(f, &m.used[f%ring])
	}
	if nudgeAt >= 0 && !m.nudged && f >= m.reached && f >= nudgeAt {
		m.nudged = true
		c := m.world.Cube(cubes.Player)
		c.Position[0] += PerturbMetres
		_ = m.world.SetCube(cubes.Player, c)
	}
	m.world.StepAll(&m.used[f%ring])
	m.reached = max(m.reached, f+1)
	if check {
		m.fig.SyncChecked++
		if h := uint32(m.world.StateHash()); h != m.mine[(f+1)%ring].hash && m.fig.SyncFail < 0 {
			m.fig.SyncFail = f + 1
		}
	}
	m.record(f + 1)
}

// PerturbMetres is how far the nudge moves the player along x, once: a
// nanometre, as lockstep's non-deterministic mode does.
const PerturbMetres = 1e-9

// record hashes the world at frame f.
func (m *machine) record(f int) {
	m.mine[f%ring] = hashAt{frame: f, hash: uint32(m.world.StateHash())}
}

// tickPlan is what one tick asks of the machine.
type tickPlan struct {
	target   int // the frame to show
	window   int // prediction window, frames
	maxSteps int // physics steps this tick may take
	syncTest int // frames the sync test rolls back (0: off)
	nudgeAt  int // the frame the nudge moves the player at (−1: off)
}

// update runs one tick: the rollback the arrived inputs asked for, the
// steps forward, the sync test, then the hash check.
func (m *machine) update(pl tickPlan) {
	before := m.world.Frame()
	steps := m.rollback(pl)
	stall := NoStall
	limit := m.confirmed() + pl.window
	for m.world.Frame() < pl.target && m.world.Frame() < limit && steps < pl.maxSteps {
		m.stepFrame(false, pl.nudgeAt)
		steps++
	}
	// Behind its target, the machine shows the world later than it
	// should (it catches up as inputs arrive); frozen, it did not move at
	// all this tick: the stall the audience sees.
	m.fig.Behind = max(pl.target-m.world.Frame(), 0)
	if m.fig.Behind > 0 && m.world.Frame() <= before {
		stall = StallBudget
		if m.world.Frame() >= limit {
			stall = StallWindow
		}
	}
	if pl.syncTest > 0 && m.rollFrom < 0 {
		m.syncTest(pl.syncTest)
	}
	m.check()
	m.count(stall)
}

// rollback restores the save of the first mispredicted frame and
// resimulates to the present, at most maxSteps frames. It returns the
// steps taken.
func (m *machine) rollback(pl tickPlan) int {
	m.fig.lastResim, m.fig.lastResimNs, m.fig.rolled = 0, 0, false
	from, to := m.rollFrom, m.world.Frame()
	if from < 0 {
		return 0
	}
	if from >= to || m.saves[from%saveRing].Frame() != from {
		m.rollFrom = -1 // nothing simulated from there (or no save): nothing to undo
		return 0
	}
	// The cost figure (the HUD's only, never the simulation's) is read on
	// the thread's CPU clock: the goroutine stays on its thread meanwhile.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0 := cpuNow()
	for i := range m.popBuf {
		m.popBuf[i] = m.world.Cube(i).Position
	}
	if m.world.Restore(&m.saves[from%saveRing]) != nil {
		m.rollFrom = -1
		return 0
	}
	n := 0
	for m.world.Frame() < to && n < pl.maxSteps {
		m.stepFrame(false, -1)
		n++
	}
	// Over budget, the rest is simulated as the machine goes forward
	// again (it shows an earlier frame meanwhile, and stalls).
	m.rollFrom = -1
	if m.world.Frame() == to {
		m.pop()
	}
	m.fig.rolled = true
	m.fig.Rollbacks++
	m.fig.Resimulated += n
	m.fig.LongestRoll = max(m.fig.LongestRoll, to-from)
	m.fig.lastResim, m.fig.lastResimNs = n, cpuSince(t0)
	m.fig.ResimNsMax = max(m.fig.ResimNsMax, m.fig.lastResimNs)
	return n
}

// pop measures how far the rollback moved the cubes the machine showed.
func (m *machine) pop() {
	worst := 0.0
	for i := range m.popBuf {
		m.popAfter[i] = m.world.Cube(i).Position
		worst = max(worst, m.popAfter[i].Sub(m.popBuf[i]).Len())
	}
	m.fig.popTick = m.fig.tick
	m.fig.PopCm = worst * 100
	m.fig.MaxPopCm = max(m.fig.MaxPopCm, m.fig.PopCm)
	m.fig.popSaid = false
}

// syncTest rolls back n frames and simulates them again with the same
// inputs, comparing each frame's hash with the first run's (GGPO's sync
// test): a deterministic world gives the same bits every time.
func (m *machine) syncTest(n int) {
	to := m.world.Frame()
	from := to - n
	if from < m.start || m.saves[from%saveRing].Frame() != from {
		return
	}
	runtime.LockOSThread() // the cost figure's clock (see rollback)
	defer runtime.UnlockOSThread()
	t0 := cpuNow()
	if m.world.Restore(&m.saves[from%saveRing]) != nil {
		return
	}
	for m.world.Frame() < to {
		m.stepFrame(true, -1)
	}
	m.fig.lastResim += n
	m.fig.lastResimNs += cpuSince(t0)
}

// check compares, for every frame that became final, the machine's hash
// with the left's.
func (m *machine) check() {
	final := min(m.confirmed(), m.world.Frame())
	for ; m.checkTo <= final; m.checkTo++ {
		m.compare(m.checkTo)
	}
}

// compare compares frame f's hashes when both are known and f is final.
func (m *machine) compare(f int) {
	mine, theirs := m.mine[f%ring], m.remote[f%ring]
	if mine.frame != f || theirs.frame != f {
		return
	}
	m.fig.Checked++
	if mine.hash != theirs.hash && (m.fig.Desync < 0 || f < m.fig.Desync) {
		m.fig.Desync = f
	}
}

// leftHash records the left's hash of frame f, comparing it at once when
// the frame is already final.
func (m *machine) leftHash(f int, h uint32) {
	if f < m.start || f < m.checkTo-ring+1 {
		return
	}
	m.remote[f%ring] = hashAt{frame: f, hash: h}
	if f < m.checkTo {
		m.compare(f)
	}
}

// count updates the per-tick figures.
func (m *machine) count(stall StallReason) {
	f := &m.fig
	k := f.tick % figureWindow
	f.ticksRolled[k] = 0
	if f.rolled {
		f.ticksRolled[k] = 1
	}
	f.ticksResim[k] = uint8(min(f.lastResim, 255))
	f.ticksNs[k] = f.lastResimNs
	f.stalled[f.tick%stallWindow] = stall != NoStall
	f.tick++
	f.Stall = stall
	if stall != NoStall {
		f.stallRun++
		f.StallTicks++
		f.LongestStall = max(f.LongestStall, f.stallRun)
	} else {
		f.stallRun = 0
	}
}

// perSecond are the last second's rollbacks, mean frames resimulated per
// tick and mean ms of resimulation per tick.
func (f *figures) perSecond() (rollbacks int, frames, ms float64) {
	var sumF int
	var sumNs int64
	for k := range figureWindow {
		rollbacks += int(f.ticksRolled[k])
		sumF += int(f.ticksResim[k])
		sumNs += f.ticksNs[k]
	}
	n := float64(min(max(f.tick, 1), figureWindow))
	return rollbacks, float64(sumF) / n, float64(sumNs) / n / 1e6
}

// stalledTicks is how many of the last 10 s of ticks stalled.
func (f *figures) stalledTicks() int {
	n := 0
	for _, s := range f.stalled {
		if s {
			n++
		}
	}
	return n
}

// cpuNow is the calling thread's CPU clock (the wall clock where there is
// none): the resimulation's cost is measured in CPU time, which another
// job on a shared machine does not inflate.
func cpuNow() int64 {
	d, _ := cputime.Thread()
	return int64(d)
}

// cpuSince is the CPU time since t0, never negative (a goroutine moved to
// another thread between the two readings reads another clock).
func cpuSince(t0 int64) int64 { return max(cpuNow()-t0, 0) }
