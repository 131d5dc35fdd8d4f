package snapshot

import "netcubes/wire"

// pool recycles large arrays of one kind (the carried models, 316 kB; the
// decoded poses of a snapshot, 79 kB) between the snapshots of one side.
// What is given back waits for the next snapshot, as long as the pool's
// arrays, in use and waiting, stay within the most in use at once over the
// last poolPeriods seconds plus poolSpares; the rest goes to the
// collector. So a side that needs fewer (a better link, another level)
// lets go of them, and one whose needs swing with the jitter does not
// allocate at every swing. (With two spares and no window, the models in
// flight swinging on the terrible link made a new 316 kB model 1.2 times
// a tick.)
type pool[T any] struct {
	spare []T
	// inUse counts what was given out and not given back; peaks[at] is
	// its largest in the current period of a second, the others the last
	// periods'.
	inUse  int
	peaks  [poolPeriods]int
	at     int
	period int
	fresh  func() T
}

const (
	// poolPeriods is the window of the peak in use, in seconds.
	poolPeriods = 8
	// poolSpares is how many arrays a pool keeps beyond the peak: one
	// snapshot enters and about one leaves per packet.
	poolSpares = 2
)

// get returns a waiting array, or a fresh one.
func (p *pool[T]) get() T {
	p.inUse++
	p.peaks[p.at] = max(p.peaks[p.at], p.inUse)
	if n := len(p.spare); n > 0 {
		v := p.spare[n-1]
		var zero T
		p.spare[n-1] = zero
		p.spare = p.spare[:n-1]
		return v
	}
	return p.fresh()
}

// put takes an array back.
func (p *pool[T]) put(v T) {
	p.inUse--
	peak := 0
	for _, n := range p.peaks {
		peak = max(peak, n)
	}
	if p.inUse+len(p.spare) < peak+poolSpares {
		p.spare = append(p.spare, v)
	}
}

// roll starts a new period of the peak's window at each second of frame f.
func (p *pool[T]) roll(f int) {
	if period := f / wire.TicksPerSecond; period != p.period {
		p.period = period
		p.at = (p.at + 1) % len(p.peaks)
		p.peaks[p.at] = p.inUse
	}
}

// empty forgets the arrays waiting and the peaks (nothing is in use).
func (p *pool[T]) empty() {
	clear(p.spare)
	p.spare = p.spare[:0]
	p.inUse, p.peaks, p.at = 0, [poolPeriods]int{}, 0
}
