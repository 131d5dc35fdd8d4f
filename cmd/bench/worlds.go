package main

import (
	"fmt"
	"math"
	"runtime"
	"time"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/internal/cputime"
	"netcubes/internal/stepcost"
	"netcubes/link"
	"netcubes/strategy"
)

// Design note: the "worlds per tick" section. The strategies that run the
// whole world on every machine (the 2004 client's replay from key 5 on,
// and whatever the catalog lists after it) pay for many world steps in one
// tick: a replay of eight frames is eight steps, eight players in one
// process are nine worlds. This section says how many whole-world steps of
// the katamari gather phase fit in a 16.7 ms tick, what a save and a
// restore cost against a step, what a world where nothing moves costs, and
// then the tick of every such strategy with 2, 4 and 8 players in one
// process (every client whole, as on the players' own machines). Times
// are threads' CPU time (internal/cputime), not the wall clock: on a
// shared machine the wall time grows with every other process. The
// session spreads the server's sends and the players' machines over the
// cores (game.Config.Timing measures each worker), so a tick has two
// figures: its critical path (the calling thread and the slowest worker
// of each part: its time on idle cores, what fits in 16.7 ms) and its CPU
// on every core (its work: what one core alone would take).

// worldsSection is the bench's own section, after the strategies'.
func worldsSection() strategy.BenchSection {
	return strategy.BenchSection{Name: "worlds per tick", Run: func(sb strategy.Bench) error {
		b := sb.(*bench)
		return runWorlds(b)
	}}
}

// worldsPlayers are the numbers of players of the strategies' table.
var worldsPlayers = []int{2, 4, 8}

// firstWholeWorld is the catalog index (key − 1) of the first strategy
// whose clients simulate the whole world: the 2004 one, key 5.
const firstWholeWorld = 4

// threadClock is the calling thread's CPU time; lock the goroutine to its
// thread while using it.
func threadClock() time.Duration {
	d, _ := cputime.Thread()
	return d
}

func runWorlds(b *bench) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := worldsOne(b); err != nil {
		return err
	}
	fmt.Fprintln(b.out)
	return worldsStrategies(b)
}

// worldsOne is the table of one world's costs.
func worldsOne(b *bench) error {
	b.progress.start("worlds per tick: gather phase", 1)
	g, err := stepcost.RunGather(threadClock, 8, 10, b.limit)
	if err != nil {
		return err
	}
	a, err := stepcost.RunAsleep(threadClock, 20000)
	if err != nil {
		return err
	}
	b.progress.step(1)
	med, p95 := g.Median(), g.P95()
	perTick := func(ms float64) strategy.Cell {
		if ms <= 0 {
			return strategy.Text("-")
		}
		return strategy.Num(math.Floor(stepcost.TickMs/ms), "%.0f")
	}
	share := func(ms float64) strategy.Cell {
		if med <= 0 {
			return strategy.Text("-")
		}
		return strategy.Num(ms/med, "%.2f")
	}
	// A rollback of 8 frames: restore the oldest, then 8 steps, each
	// followed by a save for the next correction.
	roll := g.RestMs + 8*(med+g.SaveMs)
	tab := &strategy.Table{Columns: []strategy.Column{
		{Head: "one world"}, {Head: "ms", Unit: "ms"}, {Head: "per tick"}, {Head: "of a step"},
	}}
	tab.Add(strategy.Text("gather step, median"), strategy.Num(med, "%.3f"), perTick(med), share(med))
	tab.Add(strategy.Text("gather step, p95"), strategy.Num(p95, "%.3f"), perTick(p95), share(p95))
	tab.Add(strategy.Text("save"), strategy.Num(g.SaveMs, "%.4f"), perTick(g.SaveMs), share(g.SaveMs))
	tab.Add(strategy.Text("restore"), strategy.Num(g.RestMs, "%.4f"), perTick(g.RestMs), share(g.RestMs))
	tab.Add(strategy.Text("8-frame rollback (restore, 8 × step + save)"), strategy.Num(roll, "%.3f"), perTick(roll), share(roll))
	tab.Add(strategy.Text("physics step, all asleep"), strategy.Num(a.PhysicsNs/1e6, "%.6f"), perTick(a.PhysicsNs/1e6), share(a.PhysicsNs/1e6))
	tab.Add(strategy.Text("world step, all asleep (the game's rules too)"), strategy.Num(a.WorldNs/1e6, "%.4f"), perTick(a.WorldNs/1e6), share(a.WorldNs/1e6))
	tab.Notef("The katamari gather phase on one world (cubes.Spiral deciding every 8 ticks, %d steps timed; the ball at the end: %d cubes).", len(g.Steps), g.Ball)
	tab.Note("per tick: how many fit in a 16.7 ms tick on one core of this machine; of a step: against the median gather step.")
	tab.Notef("Save and restore: medians of one every 10 gather steps, the restore a rewind of 10 frames (a save holds %d kB). All asleep: after %d ticks of nothing (%d bodies awake).",
		g.SaveSize/1000, a.Settled, a.Awake)
	tab.Note("Times are the thread's CPU time; the browser runs the same code about three times slower (WebAssembly).")
	return b.Print(tab)
}

// worldsStrategies is the table of the whole-world strategies' ticks with
// several players in one process: on the tick's critical path over this
// machine's cores, and in CPU time on every core.
func worldsStrategies(b *bench) error {
	tab := &strategy.Table{Columns: []strategy.Column{
		{Head: "strategy"}, {Head: "players"}, {Head: "median ms", Unit: "ms"}, {Head: "p95 ms", Unit: "ms"},
		{Head: "worst ms", Unit: "ms"}, {Head: "p95 fits 16.7 ms"}, {Head: "CPU median ms", Unit: "ms"}, {Head: "CPU p95 ms", Unit: "ms"},
	}}
	all := catalog.All()
	for k := firstWholeWorld; k < len(all); k++ {
		for _, n := range worldsPlayers {
			st := catalog.All()[k]
			crit, cpu, err := worldsTicks(b, st, n)
			if err != nil {
				return fmt.Errorf("%s, %d players: %w", st.ID(), n, err)
			}
			p95 := stepcost.Percentile(crit, 0.95)
			fits := "yes"
			if p95 > stepcost.TickMs {
				fits = "no"
			}
			tab.Add(strategy.Textf("%d %s", k+1, st.ID()), strategy.Int(n), strategy.Num(stepcost.Percentile(crit, 0.5), "%.2f"),
				strategy.Num(p95, "%.2f"), strategy.Num(stepcost.Percentile(crit, 1), "%.2f"), strategy.Text(fits),
				strategy.Num(stepcost.Percentile(cpu, 0.5), "%.2f"), strategy.Num(stepcost.Percentile(cpu, 0.95), "%.2f"))
		}
	}
	tab.Notef("Every strategy from key %d on (its clients run the whole world), %d ticks of the %s script for player 1, bots for the others,",
		firstWholeWorld+1, b.frames, b.script.Name)
	tab.Notef("links %s; the whole process's tick (the server's world, every client whole, the links) in CPU time.", b.preset)
	cores := fmt.Sprintf("%d cores", runtime.GOMAXPROCS(0))
	if runtime.GOMAXPROCS(0) == 1 {
		cores = "1 core"
	}
	tab.Notef("median, p95, worst: the tick's critical path on %s of this machine (the calling thread, plus the slowest worker of each part", cores)
	tab.Note("spread over the cores: the server's sends, the players' machines), the tick's time on idle cores: what fits. CPU: every core's, the tick's work in all.")
	return b.Print(tab)
}

// worldsTicks plays st with n players and returns each tick's time, ms:
// on its critical path and in CPU time on every core (game.Config.Timing).
func worldsTicks(b *bench, st strategy.Strategy, n int) (crit, cpu []float64, err error) {
	cfg, err := b.playersConfig(strategy.PlayersConfig{Players: n, Links: []link.Config{b.preset.Config()}}, st)
	if err != nil {
		return nil, nil, err
	}
	cfg.Timing = true
	run, err := game.New(cfg)
	if err != nil {
		return nil, nil, err
	}
	crit, cpu = make([]float64, 0, b.frames), make([]float64, 0, b.frames)
	var t0 time.Duration
	// The input callback runs just before each StepPlayers and the tick
	// callback just after it.
	b.PlayPlayers("worlds per tick", fmt.Sprintf("%s, %d players", st.ID(), n), run, b.frames,
		func(f int, ins *cubes.Inputs) uint8 {
			ins[0] = b.script.InputAt(f)
			t0 = threadClock()
			return 1
		}, func() {
			own := (threadClock() - t0).Nanoseconds()
			slowest, all := run.WorkersNanos()
			crit = append(crit, float64(own+slowest)/1e6)
			cpu = append(cpu, float64(own+all)/1e6)
		})
	return crit, cpu, nil
}
