// Package strategytest gives a strategy author the checks every strategy
// must pass, the way net/http/httptest and testing/fstest do for handlers
// and file systems: a conformance test (Conformance) and a receive fuzzer
// (Harness), each a few lines in the strategy's own tests. It is imported
// only by tests; it builds game sessions, so it sits above package game
// although it is named after the seam (package strategy) it checks.
//
// Conformance checks what the session relies on and cannot see for
// itself: a strategy with keys implements strategy.Shared (without it a
// right process silently keeps the default settings while the presenter
// changes them on the left), its settings cross a write and a read
// unchanged and hostile settings bytes are refused without a panic, Clone
// gives an independent instance with the same settings, and the receive
// paths survive hostile bytes.
//
//	func TestConformance(t *testing.T) {
//		strategytest.Conformance(t, func() strategy.Strategy { return mystrategy.New() })
//	}
//
// The Harness is the receive fuzzers' shared session: hostile bytes, under a
// sequence number the fuzzer chooses, reach a live session at a frame the
// fuzzer chooses, in either direction, and the session must reject them or
// take them, never panic, and keep showing a finite world.
//
// Design note: why a harness, and why it is fast. A fuzz target that builds
// a world per input spends its time building worlds (901 cubes, about
// 0.6 ms) and stepping them, not in the decoder; one that keeps a single
// session and never resets it is fast but lets each input inherit what the
// previous ones left, so a crash it finds may not reproduce from its input
// alone. The harness builds one session per fuzz worker (the body of a
// FuzzXxx function runs once per worker process) and, per input, puts it
// back at a frame with game.Session.Warp, which resets only the links and
// the strategy — no new left world, and no simulated frames in between.
// The left world was first left to settle with no input until every cube
// sleeps and none is red, and every tick the harness runs is idle, so the
// left stays exactly as it is (a sleeping world does not move): each input
// runs from a state decided by the input alone. A few real ticks (chosen by
// the input too, 0-3) give the right real packets, baselines and a running
// clock before the hostile packet arrives, and a few more afterwards let it
// flow through jitter buffers and playout. The seeds are real packets of a
// livelier run (Config.Script), captured before the settling.
//
// The world is small by default (Config.GridSide, 37 cubes instead of 901):
// every decoder sizes its indices and per-cube bits by the world's cube
// count, so a small world runs the same code paths (with narrower
// indices), and a tick costs a twentieth. A target may ask for the full
// world.
//
// A strategy gets its fuzzer in three lines:
//
//	func FuzzMyStrategyReceive(f *testing.F) {
//		st := mystrategy.New()
//		strategytest.New(f, strategytest.Config{Strategies: []strategy.Strategy{st}}).Fuzz(f)
//	}
//
// It then fuzzes both directions: data packets left → right (Receive), and
// the ack packets right → left with the strategy's own payload (ReceiveBack
// of a strategy.TwoWay), the ack header's fields chosen by the fuzzer too.
package strategytest
