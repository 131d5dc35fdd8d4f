// Package strategy is the seam between the session (package game) and the
// networking strategies: a strategy is one package that implements
// Strategy and describes its own keys (Control), flags (Flag), HUD line
// (Facts), budget (Budgeted) and bench tables (Benched); the session, the
// app, the help overlay, the command line and the bench handle every
// strategy alike through these, and package catalog lists them. A
// strategy that sends data from the right to the left (TwoWay) or whose
// right side owns the player (RightDriven) says so by implementing those
// interfaces.
//
//   - strategy.go: Strategy, Context (what a strategy sees of the session),
//     Payload and the optional interfaces.
//   - control.go: Control and Flag, the typed settings, and helpers
//     (IntFlag, ChoiceFlag: values checked, NaN refused, errors
//     on one short line; control_test.go pins their text).
//   - bench.go: Bench, Run and Summary, the bench as a strategy's tables
//     see it.
//   - table.go: Table, a bench table as data (columns with units, cells
//     with their figures), printed by one Write, and the charts the bench
//     draws from it (Chart, Tradeoff). Every bench table goes through it.
//   - capstep.go: CapStepSeconds, the adaptation sections' cap step second
//     by second (fixed against congestion avoidance) and its chart, one
//     table for the snapshot strategies and state sync.
//   - modelist.go: ModeList, a second list of sub-modes beside a
//     strategy's own (the original demos' modes), its switch key and the
//     -original flag the strategies with one share; a list whose modes
//     carry link conditions implements LinkChooser.
//
// A strategy author checks a new strategy with package strategy/strategytest:
// its conformance test and its receive fuzzer are a few lines each.
//
// It depends only on the layers below (cubes, wire, link, viewmodel) and
// internal/cliutil (the one-line flag messages).
package strategy
