package ui

// The strategy menu and each strategy's keys and flags. The number keys
// pick an entry: snapshot interpolation and snapshot compression are the
// same strategy with the two articles' starting points (uncompressed at
// 10 Hz with hermite; level 11 at 60 Hz), state synchronization is the
// third. [ and ] walk the entry's sub-modes: render modes, compression
// levels, the state sync build-up.

import (
	"flag"
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/game"
	"netcubes/net"
)

// entry is one choice of the strategy menu on the number keys.
type entry struct {
	key   ebiten.Key
	label string
	flag  string // -strategy value
	name  string
	apply func(*game.Session) error
	// sub steps the entry's sub-mode by d (±1) and describes the result.
	sub func(s *game.Session, d int) string
}

// stateSync returns the session's state sync strategy.
func stateSync(s *game.Session) *game.StateSync {
	return s.StrategyByID(game.StrategyStateSync).(*game.StateSync)
}

var entries = []entry{
	{
		key: ebiten.Key1, label: "1", flag: "interpolation", name: "Snapshot interpolation",
		apply: func(s *game.Session) error {
			game.SnapshotOf(s).UseInterpolationDemo()
			return s.SetStrategy(game.StrategySnapshot)
		},
		sub: func(s *game.Session, d int) string {
			st := game.SnapshotOf(s)
			m := st.Render()
			for range (d + game.NumRenderModes) % game.NumRenderModes {
				m = m.Next()
			}
			st.SetRender(m)
			return "render: " + m.String()
		},
	},
	{
		key: ebiten.Key2, label: "2", flag: "compression", name: "Snapshot compression",
		apply: func(s *game.Session) error {
			game.SnapshotOf(s).UseCompressionDemo()
			return s.SetStrategy(game.StrategySnapshot)
		},
		sub: func(s *game.Session, d int) string {
			st := game.SnapshotOf(s)
			l := st.Level()
			if d > 0 {
				l = l.Next()
			} else {
				l = l.Prev()
			}
			st.SetLevel(l)
			return st.LevelExplain()
		},
	},
	{
		key: ebiten.Key3, label: "3", flag: "statesync", name: "State synchronization",
		apply: func(s *game.Session) error { return s.SetStrategy(game.StrategyStateSync) },
		sub: func(s *game.Session, d int) string {
			st := stateSync(s)
			if d > 0 {
				st.NextStep()
			} else {
				st.PrevStep()
			}
			return fmt.Sprintf("step %d: %s", st.Step(), st.Explain())
		},
	},
}

// subMode steps the active entry's sub-mode.
func (a *App) subMode(d int) {
	a.say("%s", entries[a.entry].sub(a.sess, d))
}

// onSnapshot runs f when a snapshot entry is active, else says which
// entries the key belongs to.
func (a *App) onSnapshot(what string, f func(*game.SnapshotStrategy) string) {
	if a.sess.StrategyID() != game.StrategySnapshot {
		a.say("%s is a snapshot setting: press 1 or 2 first", what)
		return
	}
	a.say("%s", f(game.SnapshotOf(a.sess)))
}

// onStateSync runs f when state synchronization is active.
func (a *App) onStateSync(what string, f func(*game.StateSync) string) {
	if a.sess.StrategyID() != game.StrategyStateSync {
		a.say("%s is a state sync setting: press 3 first", what)
		return
	}
	a.say("%s", f(stateSync(a.sess)))
}

// toggle flips a state sync switch by name and says its new state.
func toggle(name, label string) func(*game.StateSync) string {
	return func(st *game.StateSync) string {
		return label + " " + onOff(st.Toggle(name))
	}
}

func strategyBindings() []binding {
	const snap, sync = "Snapshots (1, 2)", "State sync (3)"
	return []binding{
		{group: snap, keys: keys(ebiten.KeyR), label: "R", help: "send rate: 60 / 30 / 20 / 10 snapshots per second",
			do: func(a *App) {
				a.onSnapshot("send rate", func(st *game.SnapshotStrategy) string {
					st.SetRate(st.Rate().Next())
					return "send rate " + st.Rate().String()
				})
			}},
		{group: snap, keys: keys(ebiten.KeyI), label: "I", help: "render mode: latest / linear / hermite / extrapolate",
			do: func(a *App) {
				a.onSnapshot("render mode", func(st *game.SnapshotStrategy) string {
					st.SetRender(st.Render().Next())
					return "render: " + st.Render().String()
				})
			}},
		{group: snap, keys: keys(ebiten.KeyD), shift: noShift, repeat: true, label: "D / Shift+D", help: "interpolation delay +1 / −1 tick",
			do: func(a *App) { a.nudgeDelay(+1) }},
		{group: snap, keys: keys(ebiten.KeyD), shift: withShift, repeat: true,
			do: func(a *App) { a.nudgeDelay(-1) }},
		{group: snap, keys: keys(ebiten.KeyF), label: "F", help: "player prediction of delta baselines on / off (levels 9-11, beyond the article)",
			do: func(a *App) {
				a.onSnapshot("prediction", func(st *game.SnapshotStrategy) string {
					st.SetPlayerPrediction(!st.PlayerPrediction())
					return "player prediction " + onOff(st.PlayerPrediction())
				})
			}},

		{group: sync, keys: keys(ebiten.KeyB), shift: noShift, label: "B / Shift+B", help: "bandwidth budget up / down",
			do: func(a *App) {
				a.onStateSync("budget", func(st *game.StateSync) string {
					st.BandwidthUp()
					return fmt.Sprintf("budget %d kbit/s", st.Settings().BandwidthKbps)
				})
			}},
		{group: sync, keys: keys(ebiten.KeyB), shift: withShift,
			do: func(a *App) {
				a.onStateSync("budget", func(st *game.StateSync) string {
					st.BandwidthDown()
					return fmt.Sprintf("budget %d kbit/s", st.Settings().BandwidthKbps)
				})
			}},
		{group: sync, keys: keys(ebiten.KeyJ), shift: noShift, label: "J / Shift+J", help: "jitter buffer +1 / −1 frame (0-10)",
			do: func(a *App) { a.jitterFrames(+1) }},
		{group: sync, keys: keys(ebiten.KeyJ), shift: withShift,
			do: func(a *App) { a.jitterFrames(-1) }},
		{group: sync, keys: keys(ebiten.KeyQ), label: "Q", help: "quantize both sides on / off",
			do: func(a *App) { a.onStateSync("quantize", toggle("quantize", "quantize both sides")) }},
		{group: sync, keys: keys(ebiten.KeyS), label: "S", help: "smoothing: none / basic / adaptive",
			do: func(a *App) {
				a.onStateSync("smoothing", func(st *game.StateSync) string { st.CycleSmoothing(); return st.Settings().Smoothing.String() })
			}},
		{group: sync, keys: keys(ebiten.KeyC), label: "C", help: "compressed updates on / off",
			do: func(a *App) { a.onStateSync("compression", toggle("compressed", "compressed updates")) }},
		{group: sync, keys: keys(ebiten.KeyV), label: "V", help: "positions relative to the player on / off",
			do: func(a *App) {
				a.onStateSync("relative positions", toggle("relative", "positions relative to the player"))
			}},
		{group: sync, keys: keys(ebiten.KeyA), label: "A", help: "delta encoding against acked bases on / off",
			do: func(a *App) { a.onStateSync("delta encoding", toggle("delta", "delta encoding")) }},
		{group: sync, keys: keys(ebiten.KeyW), label: "W", help: "at-rest commit (boost until acked) on / off",
			do: func(a *App) { a.onStateSync("at-rest commit", toggle("restcommit", "at-rest commit")) }},
		{group: sync, keys: keys(ebiten.KeyO), label: "O", help: "sync off: stop applying updates and watch it diverge",
			do: func(a *App) { a.onStateSync("sync off", toggle("syncoff", "sync off")) }},
	}
}

func (a *App) nudgeDelay(d int) {
	a.onSnapshot("delay", func(st *game.SnapshotStrategy) string {
		st.NudgeDelay(d)
		c := st.Config()
		return "interpolation delay " + c.DelayString()
	})
}

func (a *App) jitterFrames(d int) {
	a.onStateSync("jitter buffer", func(st *game.StateSync) string {
		st.SetJitterFrames(st.Settings().JitterFrames + d)
		return fmt.Sprintf("jitter buffer %d frames", st.Settings().JitterFrames)
	})
}

// EntryNames are the -strategy flag values, in menu order.
func EntryNames() []string {
	var n []string
	for _, e := range entries {
		n = append(n, e.flag)
	}
	return n
}

// EntryByName finds a -strategy flag value (or its number key).
func EntryByName(name string) (int, bool) {
	for i, e := range entries {
		if e.flag == name || e.label == name {
			return i, true
		}
	}
	return 0, false
}

// Flag names of the render and smoothing modes.
var (
	renderNames = map[string]game.RenderMode{
		"latest": game.RenderLatest, "linear": game.RenderLinear,
		"hermite": game.RenderHermite, "extrapolate": game.RenderExtrapolate,
	}
	smoothingNames = map[string]game.SmoothingMode{
		"none": game.SmoothingNone, "basic": game.SmoothingBasic, "adaptive": game.SmoothingAdaptive,
	}
)

// StrategyFlags defines the strategy-specific flags on fs and returns a
// function that, after parsing, checks them and returns the session set-up
// they ask for (nil when none was given). Errors are usage errors.
func StrategyFlags(fs *flag.FlagSet) func() (func(*game.Session) error, error) {
	level := fs.Int("level", 0, "snapshot compression level 1-11 (0: the entry's default)")
	rate := fs.Int("rate", 0, "snapshots per second: 60, 30, 20 or 10 (0: the entry's default)")
	mode := fs.String("render", "", "snapshot render mode: latest, linear, hermite or extrapolate")
	predict := fs.String("predict", "", "player prediction of delta baselines (levels 9-11): on or off")
	step := fs.Int("step", 0, "state sync build-up step 1-8 (0: all of it)")
	budget := fs.Int("budget", 0, "state sync bandwidth budget in kbit/s, 32-2048 (0: 256)")
	jitter := fs.Int("jitter-buffer", -1, "state sync jitter buffer in frames, 0-10 (-1: the default, 5)")
	smoothing := fs.String("smoothing", "", "state sync smoothing: none, basic or adaptive")
	return func() (func(*game.Session) error, error) {
		var snapSet []func(*game.SnapshotStrategy)
		var syncSet []func(*game.StateSync)
		if *level != 0 {
			l := net.SnapshotLevel(*level)
			if !l.Valid() {
				return nil, UsageError(fmt.Sprintf("-level must be 1..11, got %d", *level))
			}
			snapSet = append(snapSet, func(st *game.SnapshotStrategy) { st.SetLevel(l) })
		}
		if *rate != 0 {
			r := game.SnapshotRate(*rate)
			if !r.Valid() {
				return nil, UsageError(fmt.Sprintf("-rate must be 60, 30, 20 or 10, got %d", *rate))
			}
			snapSet = append(snapSet, func(st *game.SnapshotStrategy) { st.SetRate(r) })
		}
		if *mode != "" {
			m, ok := renderNames[*mode]
			if !ok {
				return nil, UsageError(fmt.Sprintf("-render must be latest, linear, hermite or extrapolate, got %q", *mode))
			}
			snapSet = append(snapSet, func(st *game.SnapshotStrategy) { st.SetRender(m) })
		}
		switch *predict {
		case "":
		case "on", "off":
			on := *predict == "on"
			snapSet = append(snapSet, func(st *game.SnapshotStrategy) { st.SetPlayerPrediction(on) })
		default:
			return nil, UsageError(fmt.Sprintf("-predict must be on or off, got %q", *predict))
		}
		if *step != 0 {
			if *step < 1 || *step > 8 {
				return nil, UsageError(fmt.Sprintf("-step must be 1..8, got %d", *step))
			}
			n := *step
			syncSet = append(syncSet, func(st *game.StateSync) { st.SetStep(n) })
		}
		if *budget != 0 {
			if *budget < 32 || *budget > 2048 {
				return nil, UsageError(fmt.Sprintf("-budget must be 32..2048 kbit/s, got %d", *budget))
			}
			kbps := *budget
			syncSet = append(syncSet, func(st *game.StateSync) {
				s := st.Settings()
				s.BandwidthKbps = kbps
				st.SetSettings(s)
			})
		}
		if *jitter != -1 {
			if *jitter < 0 || *jitter > 10 {
				return nil, UsageError(fmt.Sprintf("-jitter-buffer must be 0..10 frames, got %d", *jitter))
			}
			n := *jitter
			syncSet = append(syncSet, func(st *game.StateSync) { st.SetJitterFrames(n) })
		}
		if *smoothing != "" {
			m, ok := smoothingNames[*smoothing]
			if !ok {
				return nil, UsageError(fmt.Sprintf("-smoothing must be none, basic or adaptive, got %q", *smoothing))
			}
			syncSet = append(syncSet, func(st *game.StateSync) { st.SetSmoothing(m) })
		}
		if len(snapSet) == 0 && len(syncSet) == 0 {
			return nil, nil
		}
		return func(s *game.Session) error {
			for _, f := range snapSet {
				f(game.SnapshotOf(s))
			}
			for _, f := range syncSet {
				f(stateSync(s))
			}
			return nil
		}, nil
	}
}

// UsageError is a bad command-line value: main prints it on one line and
// exits with code 2.
type UsageError string

func (e UsageError) Error() string { return string(e) }

// strategyFacts is one line of the strategy's own figures for the HUD: what
// a packet holds, so the presenter can point at the number an article
// talks about (bits per changed cube, updates per packet) while it changes.
// Averages are over the last second.
func strategyFacts(st game.Strategy) string {
	switch s := st.(type) {
	case *game.SnapshotStrategy:
		ss := s.Stats()
		if !ss.HasLast {
			return "no snapshot sent yet"
		}
		sec := ss.Second
		var out string
		if s.Level().IsDelta() {
			out = fmt.Sprintf("per packet: %.0f changed cubes × %.1f bits · baseline %.0f ticks old",
				sec.ChangedPerPacket(), sec.BitsPerChanged(), sec.MeanBaselineAge())
		} else {
			out = fmt.Sprintf("per packet: %.0f cubes × %.0f bits", sec.ChangedPerPacket(), sec.BitsPerChanged())
		}
		if ss.StarvedTicks > 0 {
			out += fmt.Sprintf(" · starved %d ticks", ss.StarvedTicks)
		}
		return out
	case *game.StateSync:
		ss := s.Stats()
		out := fmt.Sprintf("per packet: %.1f updates × %.0f bits", ss.UpdatesPerPacket, ss.BitsPerUpdate)
		out += fmt.Sprintf(" · longest wait %.1f s", float64(ss.OldestUnsentTicks)/net.TicksPerSecond)
		if ss.NeverSent > 0 {
			out += fmt.Sprintf(" · %d never sent", ss.NeverSent)
		}
		return out
	}
	return ""
}
