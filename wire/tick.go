package wire

// Design note: the whole program advances in fixed steps of 1/60 s, so time in
// this package is a tick count, never a wall-clock reading. Counting ticks
// makes every run repeatable: the same inputs and the same seed produce the
// same packets, the same losses and the same statistics, on any machine and at
// any speed (paused, single-stepped or headless).

// Tick is a simulation time: the number of fixed 1/60 s steps since the start
// of a session.
type Tick int64

// TicksPerSecond is the fixed simulation rate: the original demo stepped
// its physics at 60 Hz, and every figure of the articles assumes it.
const TicksPerSecond = 60

// Milliseconds converts a tick count (or a tick duration) to milliseconds.
// The product is rounded on its own (float64), so that a caller subtracting
// from it cannot fuse the two into one multiply-add on arm64.
func (t Tick) Milliseconds() float64 { return float64(float64(t) * (1000.0 / TicksPerSecond)) }
