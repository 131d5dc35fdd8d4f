package main

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/snapshot"
	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: the scale bench (-clients 1,2,4,...). One server world and N
// clients in one process, for every strategy: what sizes a game server is
// its cost per client. The clients are thin (strategy.Context.Thin): they
// decode, ack and send their inputs, but do not simulate or interpolate a
// world of their own, which would otherwise dominate the run and measure
// the clients rather than the server; only client 1, the one a presenter
// would see, is whole. The server's time per tick is measured around its
// share only (game.Config.Timing): reading the clients' packets, stepping
// the world, the acks, and every client's encoding. Players: one per
// client up to 8 (bots beyond the first), the rest spectators.

// parseClients reads "1,2,4,8".
func parseClients(list string) ([]int, error) {
	var out []int
	for _, w := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < 1 || n > game.MaxClients {
			return nil, fmt.Errorf("-clients wants numbers 1..%d separated by commas, got %q", game.MaxClients, w)
		}
		out = append(out, n)
	}
	return out, nil
}

// scaleRow is one strategy at one number of clients.
type scaleRow struct {
	strategy    string
	clients     int
	medianUs    float64 // server time per tick, on its critical path
	p95Us       float64
	cpuUs       float64 // its CPU time per tick, every core's (median)
	bytesTick   float64 // bytes sent to all clients per tick, IP/UDP headers included
	heapKB      float64 // live heap after a collection, whole session
	perClientKB float64 // heap above the one-client run, per extra client
}

// scaleEntry is a strategy of the catalog as the scale bench runs it: at
// its default settings, or (level > 0) snapshot compression at a range-coded
// level, whose per-client cost is the coder's and its carried models'.
type scaleEntry struct {
	index int // in catalog.All()
	name  string
	level snapshot.Level // 0: the strategy's default
}

// scaleEntries is every strategy of the catalog, then compression at
// levels 12 and 13.
func scaleEntries() []scaleEntry {
	var out []scaleEntry
	for i, st := range catalog.All() {
		out = append(out, scaleEntry{index: i, name: st.ID()})
		if st.ID() == "compression" {
			out = append(out, scaleEntry{index: i, name: "compression 12", level: snapshot.RangeCoded},
				scaleEntry{index: i, name: "compression 13", level: snapshot.MotionPredicted})
		}
	}
	return out
}

// runScale measures every strategy whose name contains only (all when
// empty) at every number of clients.
func runScale(b *bench, counts []int, only string, progress *progress) error {
	var entries []scaleEntry
	for _, e := range scaleEntries() {
		if strings.Contains(e.name, only) {
			entries = append(entries, e)
		}
	}
	if len(entries) == 0 {
		return usageError(fmt.Sprintf("no strategy of the scale bench matches -only %q", only))
	}
	fmt.Fprintf(b.out, "netcubes bench: scale, script %s, preset %s, seed %d, %d ticks measured after %d of warm-up\n",
		b.script.Name, b.preset, b.seed, b.frames, scaleWarmup)
	var rows []scaleRow
	for _, e := range entries {
		base := 0.0
		for _, n := range counts {
			r, err := scaleRun(b, e, n, progress)
			if err != nil {
				return fmt.Errorf("%s, %d clients: %w", e.name, n, err)
			}
			r.strategy = e.name
			if n == 1 {
				base = r.heapKB
			} else if base > 0 {
				r.perClientKB = (r.heapKB - base) / float64(n-1)
			}
			rows = append(rows, r)
		}
	}
	progress.done()
	b.section = "scale"
	return b.Print(scaleTable(rows))
}

// scaleWarmup is how many ticks run before the measured ones: the
// strategies' buffers fill, the katamari forms.
const scaleWarmup = 120

// scaleRun is one session of n clients on entry e.
func scaleRun(b *bench, e scaleEntry, n int, progress *progress) (scaleRow, error) {
	i := e.index
	cfg := game.DefaultConfig()
	cfg.Seed = b.seed
	cfg.Link = b.preset.Config()
	cfg.Strategies = catalog.All()
	if sn, ok := cfg.Strategies[i].(*snapshot.Strategy); ok && e.level > 0 {
		sn.SetLevel(e.level) // before the session clones it for the clients
	}
	cfg.Start = i
	cfg.Clients = n
	cfg.World.Players = min(n, cubes.MaxPlayers)
	cfg.Thin = true
	cfg.Timing = true
	s, err := game.New(cfg)
	if err != nil {
		return scaleRow{}, err
	}
	// The server's time is this thread's CPU time (game.Config.Timing).
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	name := fmt.Sprintf("scale: %s, %d clients", e.name, n)
	progress.start(name, scaleWarmup+b.frames)
	ns := make([]float64, 0, b.frames)
	cpu := make([]float64, 0, b.frames)
	bytes := 0
	for f := 0; f < scaleWarmup+b.frames; f++ {
		s.Step(b.script.InputAt(f))
		progress.step(f + 1)
		if f < scaleWarmup {
			continue
		}
		ns = append(ns, float64(s.ServerNanos()))
		cpu = append(cpu, float64(s.ServerCPU()))
		for k := range n {
			if m := s.ClientMetrics(k); m.LastPacketFrame == m.Frame {
				bytes += m.LastPacketBytes + wire.PacketHeaderBytes
			}
		}
	}
	slices.Sort(ns)
	slices.Sort(cpu)
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(s)
	return scaleRow{
		clients:   n,
		medianUs:  ns[len(ns)/2] / 1000,
		p95Us:     ns[len(ns)*95/100] / 1000,
		cpuUs:     cpu[len(cpu)/2] / 1000,
		bytesTick: float64(bytes) / float64(b.frames),
		heapKB:    float64(ms.HeapAlloc) / 1024,
	}, nil
}

// scaleTable is the scale bench's table and its chart: the server's cost
// against the number of clients, one line per strategy.
func scaleTable(rows []scaleRow) *strategy.Table {
	t := strategy.NewTable(
		strategy.Column{Head: "strategy"}, strategy.Column{Head: "clients"},
		strategy.Column{Head: "median ms", Unit: "ms"}, strategy.Column{Head: "p95 ms", Unit: "ms"},
		strategy.Column{Head: "CPU ms", Unit: "ms"},
		strategy.Column{Head: "bytes/tick", Unit: "bytes"}, strategy.Column{Head: "bytes/client", Unit: "bytes"},
		strategy.Column{Head: "heap MB", Unit: "MB"}, strategy.Column{Head: "KB/client", Unit: "KB"})
	for _, r := range rows {
		per := strategy.Text("-")
		if r.clients > 1 {
			per = strategy.Num(r.perClientKB, "%.0f")
		}
		t.Add(strategy.Text(r.strategy), strategy.Int(r.clients),
			strategy.Num(r.medianUs/1000, "%.2f"), strategy.Num(r.p95Us/1000, "%.2f"), strategy.Num(r.cpuUs/1000, "%.2f"),
			strategy.Num(r.bytesTick, "%.0f"), strategy.Num(r.bytesTick/float64(r.clients), "%.0f"),
			strategy.Num(r.heapKB/1024, "%.1f"), per)
	}
	t.Note("median, p95: the server's share of a tick (reading the clients' packets, the world's step, the acks, every client's encoding) on its critical path:")
	t.Note(fmt.Sprintf("the clients' encoding runs in parallel on this machine's %d cores (8 clients or more); CPU: the CPU time of the tick on every core (median). Thread CPU time, not wall time.", runtime.GOMAXPROCS(0)))
	t.Note("Left out: the clients' own simulation and interpolation (thin clients: they decode, ack and send inputs), except client 1's.")
	t.Note("Players: one per client up to 8 (bots), the other clients spectators. Heap: live after a collection; KB/client: above the one-client run.")
	t.Charts = []strategy.Chart{{
		File: "scale", Title: "The server's cost per client: CPU per tick and memory, by number of clients",
		X: []string{"clients"}, Series: "strategy",
		Panels: []strategy.Panel{
			{Y: "median ms", Label: "server CPU per tick, median", Log: true, Lines: []strategy.Line{{Value: 1000.0 / 60, Label: "one tick (16.7 ms)"}}},
			{Y: "bytes/client", Label: "sent per client per tick", Log: true},
			{Y: "heap MB", Label: "live heap", Log: true},
		},
	}}
	return t
}
