package authority

// The "authority" section: two and four players, on three links, pushing
// separate piles or the same pile, with state synchronization (the host
// owns everything), the 2004 prediction (client-side prediction with
// rewind and replay) and distributed authority at each step of its
// build-up (and the last over peer to peer). What each row measures is on
// player 1's machine (client 1's screen) unless said.

import (
	"fmt"
	"math"
	"runtime"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/internal/cputime"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// BenchSections implements strategy.Benched.
func (st *Strategy) BenchSections() []strategy.BenchSection {
	return []strategy.BenchSection{{Name: "authority", Run: benchAuthority},
		{Name: "authority: the players' machines diverge", Run: benchDiverge}}
}

// benchRow is one configuration of a table: a strategy from the catalog
// (by ID) or distributed authority at a step and topology.
type benchRow struct {
	name string
	id   string // "statesync", "predict": another strategy of the catalog
	step Step
	p2p  bool
}

var benchRows = []benchRow{
	{name: "3 state sync (host authority)", id: "statesync"},
	{name: "5 prediction, rewind, replay", id: "predict"},
	{name: "6.1 host authority only", step: StepHost},
	{name: "6.2 own cube", step: StepOwnCube},
	{name: "6.3 the lowest id wins", step: StepLowestID},
	{name: "6.4 sequences", step: StepSequences},
	{name: "6.5 return at rest", step: StepReturn},
	{name: "6.5 peer to peer", step: StepReturn, p2p: true},
}

// benchTicks is each run's length unless -frames holds it shorter: 1.5 s
// to land, then 8.5 s of pushing.
const (
	benchTicks = 600
	benchPress = 90
)

func benchAuthority(b strategy.Bench) error {
	pb, ok := b.(strategy.PlayersBench)
	mk, ok2 := b.(strategy.StrategyMaker)
	if !ok || !ok2 {
		_, err := fmt.Fprintln(b.Out(), "(the authority section needs a bench of several players)")
		return err
	}
	frames := benchTicks
	if l := b.FrameLimit(); l > 0 {
		frames = max(min(l, frames), benchPress+60)
	}
	t, four := newBenchTable(), newBenchTable()
	for _, players := range []int{2, 4} {
		for _, pr := range []link.Preset{link.PresetLAN, link.PresetIntercontinental, link.PresetTerrible} {
			for _, same := range []bool{false, true} {
				for _, row := range benchRows {
					r, err := benchRun(b, pb, mk, row, players, pr, same, frames)
					if err != nil {
						return err
					}
					t.Add(r...)
					if players == 4 && same {
						four.Add(r...)
					}
				}
			}
		}
	}
	benchNotes(t, frames)
	if err := b.Print(t); err != nil {
		return err
	}
	// The lesson's case again, charted: four players pushing one pile.
	four.Note("The rows above of four players pushing the same pile, by link.")
	four.Charts = []strategy.Chart{{
		File: "authority", Title: "Four players pushing one pile: distributed authority against state sync and the 2004 prediction",
		X: []string{"strategy"}, Series: "link", Bars: true,
		Panels: []strategy.Panel{
			{Y: "pushed ms vs host", Label: "pushed, after the host"},
			{Y: "err P1 cm", Label: "P1 screen vs host"},
			{Y: "up kbit/s", Label: "P1 upload"},
		},
	}}
	return b.Print(four)
}

func newBenchTable() *strategy.Table {
	return strategy.NewTable(
		strategy.Column{Head: "players"},
		strategy.Column{Head: "link"},
		strategy.Column{Head: "piles"},
		strategy.Column{Head: "strategy"},
		strategy.Column{Head: "own cube ms", Unit: "ms"},
		strategy.Column{Head: "pushed ms vs host", Unit: "ms"},
		strategy.Column{Head: "err P1 cm", Unit: "cm"},
		strategy.Column{Head: "err P2 cm", Unit: "cm"},
		strategy.Column{Head: "conflicts/s"},
		strategy.Column{Head: "lost/s"},
		strategy.Column{Head: "pop cm", Unit: "cm"},
		strategy.Column{Head: "down kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "up kbit/s", Unit: "kbit/s"},
		strategy.Column{Head: "CPU ms/tick/machine", Unit: "ms"},
	)
}

func benchNotes(t *strategy.Table, frames int) {
	t.Note(fmt.Sprintf("Each run: the full world, every player driven, %d ticks: %d to land, then each player pushes: separate piles (each away from the", frames, benchPress))
	t.Note("centre, into its own part of the grid) or the same pile (everyone toward the centre, where player 1 pulls a ball). Measured on player 1's machine")
	t.Note("(client 1): own cube: from the first press to its cube moving 2 cm on its screen; pushed: when the cubes it pushes move 2 cm on its screen")
	t.Note("against when they do in the host's world (negative: its own machine moved them first); err: the RMS error of player 1's and player 2's")
	t.Note("screens against the host's world at the same frame over the pushing, cm (state sync: player 1's screen as the session measures")
	t.Note("it against the left now; the 2004 client draws frames the host has not reached, so none; player 2 only for distributed authority, whose every machine is simulated here); conflicts and lost claims per second and the")
	t.Note("largest pop (distributed authority); down/up: client 1's link, headers included (peer to peer: up adds its links to the other players);")
	t.Note("CPU: the session's thread time per tick over the machines (players + the host).")
}

// benchRun plays one row and returns its cells.
func benchRun(b strategy.Bench, pb strategy.PlayersBench, mk strategy.StrategyMaker, row benchRow, players int, pr link.Preset, same bool, frames int) ([]strategy.Cell, error) {
	var st strategy.Strategy
	var auth *Strategy
	if row.id != "" {
		s, ok := mk.NewStrategy(row.id)
		if !ok {
			return nil, fmt.Errorf("authority bench: no strategy %q", row.id)
		}
		st = s
	} else {
		auth = New(DefaultConfig())
		x := auth.Settings()
		x.Step, x.P2P = row.step, row.p2p
		auth.SetSettings(x)
		st = auth
	}
	run, err := pb.NewPlayersRun(strategy.PlayersConfig{Players: players, Links: []link.Config{pr.Config()}}, st)
	if err != nil {
		return nil, err
	}
	runtime.LockOSThread() // the thread's CPU clock: the same thread throughout
	defer runtime.UnlockOSThread()
	m := newBenchMeasure(run, auth)
	piles := "separate"
	if same {
		piles = "same"
	}
	pb.PlayPlayers("authority", fmt.Sprintf("%d players, %s, %s, %s", players, pr, piles, row.name), run, frames,
		func(f int, ins *cubes.Inputs) uint8 { return benchInput(f, players, same, ins) },
		func() { m.tick(run) })
	return m.cells(players, pr, piles, row.name), nil
}

// benchInput drives every player: idle while landing, then a push.
func benchInput(f, players int, same bool, ins *cubes.Inputs) uint8 {
	if f >= benchPress {
		for p := range players {
			ins[p] = benchPush(p, same)
		}
	}
	return uint8(1<<players - 1)
}

// benchPush is player p's push. The players start at the centre and 9 m
// out at +x, −x, +y (cubes.PlayerStart).
func benchPush(p int, same bool) cubes.Input {
	if same {
		switch p {
		case 0:
			return cubes.Input{Katamari: true, Up: true}
		case 1:
			return cubes.Input{Left: true}
		case 2:
			return cubes.Input{Right: true}
		default:
			return cubes.Input{Down: true}
		}
	}
	switch p {
	case 0:
		return cubes.Input{Down: true, Katamari: true}
	case 1:
		return cubes.Input{Right: true}
	case 2:
		return cubes.Input{Left: true}
	default:
		return cubes.Input{Up: true}
	}
}

// benchMeasure gathers one run's figures.
type benchMeasure struct {
	auth             *Strategy
	n                int
	start            []mgl64.Vec3 // every cube on the host when the push starts
	seen             []mgl64.Vec3 // and on player 1's screen
	hostAt, screenAt []int        // the tick each first moved 2 cm (−1: not yet)
	ownAt            int
	ticks            int
	err1, err2       float64
	errN             int
	down, up         float64
	cpu              float64
	cpuN             int
	last             float64 // thread time at the last tick, s
}

func newBenchMeasure(run strategy.PlayersRun, auth *Strategy) *benchMeasure {
	n := run.Left().NumCubes()
	m := &benchMeasure{auth: auth, n: n, ownAt: -1,
		start: make([]mgl64.Vec3, n), seen: make([]mgl64.Vec3, n), hostAt: make([]int, n), screenAt: make([]int, n)}
	if d, ok := cputime.Thread(); ok {
		m.last = d.Seconds()
	}
	return m
}

const moved = 0.02 // m: what counts as "it moved"

func (m *benchMeasure) tick(run strategy.PlayersRun) {
	f := run.Frame() - 1 // the tick just played
	if d, ok := cputime.Thread(); ok {
		m.cpu += d.Seconds() - m.last
		m.cpuN++
		m.last = d.Seconds()
	}
	left, view := run.Left(), run.RightView()
	if len(view.Cubes) != m.n {
		return
	}
	switch {
	case f == benchPress-1:
		for i := range m.n {
			m.start[i], m.seen[i] = left.Cube(i).Position, view.Cubes[i].Position
			m.hostAt[i], m.screenAt[i] = -1, -1
		}
	case f >= benchPress:
		m.pushTick(run, f)
	}
}

func (m *benchMeasure) pushTick(run strategy.PlayersRun, f int) {
	left, view := run.Left(), run.RightView()
	for i := range m.n {
		if m.hostAt[i] < 0 && flat(left.Cube(i).Position.Sub(m.start[i])) > moved {
			m.hostAt[i] = f
		}
		if m.screenAt[i] < 0 && flat(view.Cubes[i].Position.Sub(m.seen[i])) > moved {
			m.screenAt[i] = f
		}
	}
	if m.ownAt < 0 && m.screenAt[view.Player] >= 0 {
		m.ownAt = m.screenAt[view.Player] - benchPress
	}
	mt := run.Metrics()
	m.down += mt.SentKbps
	m.up += mt.AckKbps
	if m.auth != nil && m.auth.set.P2P {
		m.up += m.auth.room.mesh.up[0].kbps()
	}
	m.ticks++
	if m.auth != nil {
		m.err1 += sq(machineErr(m.auth.room.machines[0], left))
		m.err2 += sq(machineErr(m.auth.room.machines[1], left))
		m.errN++
	} else if mt.Valid && mt.ErrorOf == "" {
		m.err1 += sq(mt.NowRMSCm / 100)
		m.errN++
	}
}

func sq(x float64) float64 { return x * x }

// flat is the horizontal length of d: the pushes are horizontal, and a
// player still settling from its drop bobs vertically.
func flat(d mgl64.Vec3) float64 { return math.Hypot(d[0], d[1]) }

// machineErr is the RMS distance of a machine's drawn world from the
// host's, metres.
func machineErr(mc *machine, left *cubes.World) float64 {
	if mc == nil || mc.w == nil {
		return 0
	}
	s := 0.0
	for i := range left.NumCubes() {
		p, _ := mc.smooth.Rendered(i, mc.w.Cube(i).Position, mc.w.Cube(i).Orientation)
		s += sq(p.Sub(left.Cube(i).Position).Len())
	}
	return math.Sqrt(s / float64(left.NumCubes()))
}

// pushedMs is the mean of (screen − host) over the grid cubes that moved
// on both, in ms.
func (m *benchMeasure) pushedMs() (float64, bool) {
	sum, n := 0, 0
	for i := range m.n {
		if m.hostAt[i] >= 0 && m.screenAt[i] >= 0 {
			sum += m.screenAt[i] - m.hostAt[i]
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return float64(sum) / float64(n) * 1000 / wire.TicksPerSecond, true
}

func (m *benchMeasure) cells(players int, pr link.Preset, piles, name string) []strategy.Cell {
	ms := 1000.0 / wire.TicksPerSecond
	own := strategy.Text("never")
	if m.ownAt >= 0 {
		own = strategy.Num(float64(m.ownAt)*ms, "%.0f")
	}
	pushed := strategy.Text("-")
	if v, ok := m.pushedMs(); ok {
		pushed = strategy.Num(v, "%.0f")
	}
	n := float64(max(m.errN, 1))
	err1 := strategy.Text("-")
	if m.errN > 0 {
		err1 = strategy.Num(100*math.Sqrt(m.err1/n), "%.1f")
	}
	secs := float64(max(m.ticks, 1)) / wire.TicksPerSecond
	conf, lost, pop, err2 := strategy.Text("-"), strategy.Text("-"), strategy.Text("-"), strategy.Text("-")
	if a := m.auth; a != nil {
		h := &a.room.host.stats
		var ml uint64
		largest := 0.0
		for _, mc := range a.room.machines[:players] {
			if mc != nil {
				ml += mc.stats.Lost
				largest = max(largest, mc.stats.pops.largest())
			}
		}
		conf = strategy.Num(float64(h.Conflicts)/secs, "%.1f")
		lost = strategy.Num(float64(h.Lost+ml)/secs, "%.1f")
		pop = strategy.Num(largest*100, "%.0f")
		err2 = strategy.Num(100*math.Sqrt(m.err2/n), "%.1f")
	}
	machines := float64(players + 1)
	return []strategy.Cell{
		strategy.Int(players), strategy.Text(pr.String()), strategy.Text(piles), strategy.Text(name),
		own, pushed, err1, err2, conf, lost, pop,
		strategy.Num(m.down/float64(max(m.ticks, 1)), "%.0f"), strategy.Num(m.up/float64(max(m.ticks, 1)), "%.0f"),
		strategy.Num(m.cpu*1000/float64(max(m.cpuN, 1))/machines, "%.2f"),
	}
}
