package adapt

import "netcubes/wire"

// Design note: playout delays sized from what the receiver measures.
// Snapshot interpolation's delay and state sync's jitter buffer were fixed
// (the articles' 3 send intervals + a margin, and 4-5 frames): right for
// the link the article had in mind, too long on a LAN and too short on a
// jittery mobile link. Mirror and Unity's Netcode for Entities size theirs
// from the jitter they measure: Mirror's buffer is send interval ×
// (1 + tolerance) + the standard deviation of the delivery times; Unity
// scales its measured jitter by 1.25. Ours, in ticks:
//
//	snapshots:  delay  = (1 + n) × send interval + 2σ + 1
//	state sync: frames = (mean transit − fastest transit) + 2σ + 1
//
// σ is the standard deviation of the packets' transit times (arrival tick −
// the frame they carry; the clocks' offset cancels), smoothed over about
// 32 packets. Uniform jitter of ±J has σ = J/√3, so 2σ covers it whole;
// the tick is the rounding of arrivals to whole ticks. n is how many lost
// packets in a row the snapshot delay rides out: the fewest that happen
// less than once in 500 packets at the loss measured (none on a clean
// link, 1 at 1 %, 2 at 5 %, 3 at 20 %). State sync's jitter buffer does not
// wait for lost packets (the right simulates on; the next packet
// corrects), so its delay counts only jitter, from the fastest transit its
// playout clock already keys on.
//
// Hunting. The wanted delay moves with every measurement; the delay in use
// follows it up at once (a late packet costs a visible hitch) and down
// only after it has wanted less for HoldTicks (3 s), one tick at a time a
// second apart: a link that briefly calms down does not pull the delay
// down just before the next burst. The playout clocks then glide to the
// new delay as they do when the presenter changes it.

// Jitter measures the spread of packet transit times. Integer arithmetic
// on milli-ticks: the same arrivals give the same figures everywhere (state
// sync's right simulates with the delay it picks). The zero value is
// empty.
type Jitter struct {
	n    int
	mean int64 // milli-ticks
	vari int64 // milli-ticks²
}

// jitterWeight is the weight of a new packet in the averages: 1/32.
const jitterWeight = 32

// Reset forgets every packet.
func (j *Jitter) Reset() { *j = Jitter{} }

// Add records one packet's transit time, in ticks (arrival − frame).
func (j *Jitter) Add(transit int) {
	x := int64(transit) * milli
	if j.n == 0 {
		j.mean, j.vari = x, 0
	}
	j.n++
	// The first packets weigh more (a running mean) until the average
	// has its full memory.
	w := int64(min(j.n, jitterWeight))
	d := x - j.mean
	j.mean += d / w
	j.vari += (d*d - j.vari) / w
}

// Count is the number of packets measured.
func (j *Jitter) Count() int { return j.n }

// meanTicks is the mean transit time, ticks (clock offset included).
func (j *Jitter) meanTicks() float64 { return float64(j.mean) / milli }

// SigmaMilli is the standard deviation of the transit times, milli-ticks.
func (j *Jitter) SigmaMilli() int64 { return isqrt(j.vari) }

// SigmaMs is the standard deviation of the transit times, ms.
func (j *Jitter) SigmaMs() float64 { return milliToMs(j.SigmaMilli()) }

// Losses measures the share of a sender's packets that do not arrive, from
// the frames they carry: a gap in the frames is that many packets lost
// (one that arrives late, after a newer one, was counted lost: for a
// playout buffer it mostly was).
type Losses struct {
	newest  int
	started bool
	ema     int64 // permille ×16
}

// reset forgets everything.
func (l *Losses) reset() { *l = Losses{} }

// Arrived records a packet of frame f from a sender sending every interval
// ticks.
func (l *Losses) Arrived(f, interval int) {
	interval = max(interval, 1)
	if !l.started {
		l.newest, l.started = f, true
		return
	}
	if f <= l.newest {
		return
	}
	missing := min((f-l.newest)/interval-1, 1000)
	for range missing {
		l.ema += (1000*16 - l.ema) / 64
	}
	l.ema -= l.ema / 64
	l.newest = f
}

// Permille is the loss measured, ‰ (an average over about 64 packets).
func (l *Losses) Permille() int { return int(l.ema / 16) }

// RunsToCover is n of the snapshot formula: how many losses in a row to
// ride out so that a longer run happens less than once in 500 packets at
// loss ‰ (p^(n+1) < 1/500), at most 4.
func RunsToCover(permille int) int {
	p := min(max(permille, 0), 999)
	// Compare p^(n+1) with 1/500 in permille powers: p^(n+1) × 500 <
	// 1000^(n+1).
	pow, scale := int64(p), int64(1000)
	for n := 0; n < 4; n++ {
		if pow*500 < scale {
			return n
		}
		pow *= int64(p)
		scale *= 1000
	}
	return 4
}

// Hold is the hysteresis of an adaptive delay, in ticks: up at once, down
// one tick at a time after HoldTicks of wanting less.
type Hold struct {
	cur, lowFor int
	set         bool
}

// HoldTicks is how long the wanted delay must stay lower before the delay
// comes down (3 s); it then comes down a tick per second.
const HoldTicks = 3 * wire.TicksPerSecond

// Reset forgets the delay.
func (h *Hold) Reset() { *h = Hold{} }

// Update takes this tick's wanted delay and returns the delay to use.
func (h *Hold) Update(want int) int {
	switch {
	case !h.set:
		h.cur, h.set, h.lowFor = want, true, 0
	case want > h.cur:
		h.cur, h.lowFor = want, 0
	case want < h.cur:
		h.lowFor++
		if h.lowFor >= HoldTicks {
			h.cur--
			h.lowFor = HoldTicks - wire.TicksPerSecond
		}
	default:
		h.lowFor = 0
	}
	return h.cur
}

// ticks is the delay in use (0 before the first Update).
func (h *Hold) ticks() int { return h.cur }

// SnapshotDelay is the snapshot formula: (1 + n) × interval + 2σ + 1
// ticks, σ in milli-ticks, rounded up.
func SnapshotDelay(interval int, sigmaMilli int64, lossPermille int) int {
	n := RunsToCover(lossPermille)
	return (1+n)*interval + int((2*sigmaMilli+milli-1)/milli) + 1
}

// JitterFrames is the state sync formula: (mean − fastest) + 2σ + 1 frames,
// the mean and σ in milli-ticks and the fastest transit in ticks, rounded
// up.
func JitterFrames(meanMilli int64, fastest int, sigmaMilli int64) int {
	above := max(meanMilli-int64(fastest)*milli, 0)
	return int((above+2*sigmaMilli+milli-1)/milli) + 1
}

// MeanMilli is the mean transit, milli-ticks.
func (j *Jitter) MeanMilli() int64 { return j.mean }
