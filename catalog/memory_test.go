package catalog

import (
	"netcubes/wire"
	"reflect"
	"runtime"
	"testing"

	"netcubes/game"
	"netcubes/internal/testutil"
	"netcubes/link"
	"netcubes/snapshot"
)

// reachable is the memory reachable from v, in bytes: every distinct
// pointee, slice backing array (to its capacity), map and string, through
// structs, arrays and interfaces, each counted once. Functions (the
// controls' closures) are not followed. It is how TestSwitchReleases
// inspects a strategy's fields without knowing them.
func reachable(v reflect.Value, seen map[uintptr]bool) int {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return 0
		}
		seen[v.Pointer()] = true
		return int(v.Type().Elem().Size()) + reachable(v.Elem(), seen)
	case reflect.Interface:
		if v.IsNil() {
			return 0
		}
		return reachable(v.Elem(), seen)
	case reflect.Slice:
		if v.IsNil() || v.Cap() == 0 || seen[v.Pointer()] {
			return 0
		}
		seen[v.Pointer()] = true
		n := v.Cap() * int(v.Type().Elem().Size())
		full := v.Slice3(0, v.Cap(), v.Cap())
		if hasPointers(v.Type().Elem()) {
			for i := 0; i < full.Len(); i++ {
				n += reachable(full.Index(i), seen)
			}
		}
		return n
	case reflect.Array:
		n := 0
		if hasPointers(v.Type().Elem()) {
			for i := 0; i < v.Len(); i++ {
				n += reachable(v.Index(i), seen)
			}
		}
		return n
	case reflect.Struct:
		n := 0
		for i := 0; i < v.NumField(); i++ {
			n += reachable(v.Field(i), seen)
		}
		return n
	case reflect.Map:
		if v.IsNil() || seen[v.Pointer()] {
			return 0
		}
		seen[v.Pointer()] = true
		n := 0
		it := v.MapRange()
		for it.Next() {
			n += int(it.Key().Type().Size()+it.Value().Type().Size()) + reachable(it.Key(), seen) + reachable(it.Value(), seen)
		}
		return n
	case reflect.String:
		return v.Len()
	}
	return 0
}

// hasPointers reports whether values of t can refer to other memory.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Slice, reflect.Map, reflect.String, reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// strategyBytes is the memory reachable from a strategy's value.
func strategyBytes(st any) int {
	return reachable(reflect.ValueOf(st), map[uintptr]bool{})
}

// TestSwitchReleases: every strategy that ran the katamari gather holds
// megabytes (worlds, saved worlds, snapshot buffers, carried models:
// measured through its fields); once the session switches to the next
// one, it holds next to nothing (its settings and controls) until the
// switch back, which rebuilds what it needs and runs on.
func TestSwitchReleases(t *testing.T) {
	sc := testutil.Katamari(t)
	cfg := game.DefaultConfig()
	cfg.Strategies = All()
	cfg.Link = link.PresetIntercontinental.Config()
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	const small = 64 << 10
	for i, st := range cfg.Strategies {
		if err := s.SetStrategy(i); err != nil {
			t.Fatal(err)
		}
		for range 150 {
			s.Step(sc.InputAt(s.Frame()))
		}
		running := strategyBytes(st)
		if err := s.SetStrategy((i + 1) % len(cfg.Strategies)); err != nil {
			t.Fatal(err)
		}
		// The strategy's own value (its fixed rings: the 2004 strategy's
		// per-player truth and tags, lockstep's input ring) is there from
		// New whether it ran or not; Release lets go of what running
		// allocated beyond it.
		fixed := int(reflect.TypeOf(st).Elem().Size())
		left := strategyBytes(st) - fixed
		t.Logf("%-13s %7.2f MB running, %6.1f kB after the switch away (and its value, %.1f kB)", st.ID(), float64(running)/(1<<20), float64(left)/(1<<10), float64(fixed)/(1<<10))
		if fixed > 1<<20 {
			t.Errorf("%s: its value alone is %d bytes", st.ID(), fixed)
		}
		if running < 1<<20 {
			t.Errorf("%s: %d bytes while running: the walk misses its buffers", st.ID(), running)
		}
		if left > small {
			t.Errorf("%s keeps %d bytes after the switch away, want ≤ %d", st.ID(), left, small)
		}
	}
	// Back to each: it rebuilds and runs.
	for i, st := range cfg.Strategies {
		if err := s.SetStrategy(i); err != nil {
			t.Fatal(err)
		}
		// A snapshot view shows nothing until its first snapshot has
		// played out (350 ms of interpolation delay over the 125 ms of
		// the intercontinental link, at 10 snapshots a second): 2 s is
		// ample for every strategy.
		n := 0
		for range 2 * wire.TicksPerSecond {
			s.Step(sc.InputAt(s.Frame()))
			if n = len(s.RightView().Cubes); n == s.Left().NumCubes() {
				break
			}
		}
		if n != s.Left().NumCubes() {
			t.Errorf("%s 2 s after the switch back: %d cubes in the right view", st.ID(), n)
		}
	}
}

// TestSteadyStateAllocations: once the world has reached its largest
// number of contacts (the katamari script played to after the blow), a
// tick of the session allocates nothing, in any strategy, on a lossy
// link (mobile: burst loss, jitter and reordering, so the 2004 client
// rewinds and replays; and snapshot compression at its range-coded level
// 13 on the intercontinental link). Before that, each array grows as the
// ball and then the blow reach sizes the world never had (0.02-0.5
// allocations per tick, amortized: the solver's arrays double, saved
// worlds keep a quarter of room); past the peak that stops.
func TestSteadyStateAllocations(t *testing.T) {
	sc := testutil.Katamari(t)
	const warm, ticks = 1560, 240
	type run struct {
		name  string
		start int
		level snapshot.Level // for snapshot compression (0: its default)
		link  link.Preset
	}
	var runs []run
	for i, st := range All() {
		runs = append(runs, run{st.ID(), i, 0, link.PresetMobile})
		if st.ID() == "compression" {
			// The range-coded level, whose models each side keeps for
			// the snapshots that can still become a baseline, on the
			// link of the README's compression figures (on mobile's
			// bursts of loss, a burst longer than any of the last 8 s
			// takes one more 316 kB model: see snapshot/pool.go).
			runs = append(runs, run{"compression 13", i, snapshot.MaxLevel, link.PresetIntercontinental})
		}
	}
	for _, r := range runs {
		cfg := game.DefaultConfig()
		cfg.Strategies = All()
		cfg.Start = r.start
		cfg.Link = r.link.Config()
		if r.level != 0 {
			cfg.Strategies[r.start].(*snapshot.Strategy).SetLevel(r.level)
		}
		s, err := game.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		for s.Frame() < warm {
			s.Step(sc.InputAt(s.Frame()))
		}
		step := func() { s.Step(sc.InputAt(s.Frame())) }
		var per float64
		var total uint64
		// Another window while one counts more than the runtime's own
		// few (see below): those fill a cache once and do not come
		// back, where a session's allocation comes every tick. A ring
		// of saves also settles: rollback's, whose saves each grow to
		// the largest contact lists once, counted 8, 2, 2 and then 0
		// in four windows in a row, where a session's per-tick
		// allocation would count hundreds in every one.
		for try := 0; try < 4 && (try == 0 || per != 0 || total > 2); try++ {
			runtime.GC() // the earlier sessions' garbage is not this one's
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			per = testing.AllocsPerRun(ticks, step)
			runtime.ReadMemStats(&m1)
			total = m1.Mallocs - m0.Mallocs
			t.Logf("%-14s %d allocations in %d ticks", r.name, total, ticks+1)
		}
		// AllocsPerRun rounds down: under one per tick it says 0. The
		// count itself must be 0 too, but for the runtime's: Go fills
		// the cache of a type assertion at random, on one miss in 1,024
		// (runtime.typeAssert), and the first fill at a site allocates
		// it (80 bytes, seen at game/session.go:410, st.(RightDriven),
		// in a window of state sync). One or two of those, in some runs
		// and some strategies; the session's own, 241 ticks of them,
		// would be hundreds.
		if per != 0 || total > 2 {
			t.Errorf("%s: %d allocations in %d ticks (AllocsPerRun %v), want 0", r.name, total, ticks+1, per)
		}
	}
}
