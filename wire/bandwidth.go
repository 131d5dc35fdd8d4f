package wire

// Design note: a packet costs more than its payload. Every UDP datagram over
// IPv4 carries a 20-byte IP header and an 8-byte UDP header, and at 60
// packets per second those 28 bytes alone are 13.4 kbit/s. That is why the
// all-at-rest steady state of delta-compressed snapshots is about 15 kbit/s
// even though its payload is a few bytes. Every bandwidth figure in netcubes
// counts them, like the articles do.
//
// A BandwidthMeter answers "how many kbit/s over the last second?" from a
// ring of per-tick byte counts: adding is O(1), reading is O(1) (a running
// sum), and nothing allocates after construction.

// PacketHeaderBytes is the IPv4 (20 bytes) + UDP (8 bytes) header counted on
// top of every packet's payload.
const PacketHeaderBytes = 28

// WireBytes is the size of a packet on the wire: payload plus
// PacketHeaderBytes.
func WireBytes(payloadBytes int) int { return payloadBytes + PacketHeaderBytes }

// BitsToBytes is the number of whole bytes that hold n bits: ceil(n/8).
func BitsToBytes(bits int) int { return (bits + 7) / 8 }

// BandwidthMeter measures bytes per tick over a sliding window of ticks.
type BandwidthMeter struct {
	slots []int64 // bytes per tick, indexed by tick % len
	sum   int64   // sum of slots
	last  Tick    // newest tick the slots describe
	begun bool
}

// NewBandwidthMeter returns a meter averaging over windowTicks ticks (at
// least 1; TicksPerSecond for one second).
func NewBandwidthMeter(windowTicks int) *BandwidthMeter {
	if windowTicks < 1 {
		windowTicks = 1
	}
	return &BandwidthMeter{slots: make([]int64, windowTicks)}
}

// window is the window length in ticks.
func (m *BandwidthMeter) window() int { return len(m.slots) }

// reset forgets everything measured.
func (m *BandwidthMeter) reset() {
	clear(m.slots)
	m.sum = 0
	m.last = 0
	m.begun = false
}

// advance moves the window so that it ends at tick now, clearing the slots of
// ticks that fell out of it.
func (m *BandwidthMeter) advance(now Tick) {
	if !m.begun {
		m.begun = true
		m.last = now
		return
	}
	if now <= m.last {
		return
	}
	n := Tick(len(m.slots))
	if now-m.last >= n {
		clear(m.slots)
		m.sum = 0
	} else {
		for t := m.last + 1; t <= now; t++ {
			i := slot(t, n)
			m.sum -= m.slots[i]
			m.slots[i] = 0
		}
	}
	m.last = now
}

// slot maps a tick (possibly negative) to a ring index.
func slot(t, n Tick) Tick {
	i := t % n
	if i < 0 {
		i += n
	}
	return i
}

// Add records bytes sent or received at tick now. Ticks should not go
// backwards; bytes added for a tick that has already left the window are
// ignored.
func (m *BandwidthMeter) Add(now Tick, bytes int) {
	m.advance(now)
	n := Tick(len(m.slots))
	if now <= m.last-n {
		return
	}
	m.slots[slot(now, n)] += int64(bytes)
	m.sum += int64(bytes)
}

// Bytes returns the bytes recorded in the window ending at tick now: ticks
// now-window+1 .. now.
func (m *BandwidthMeter) Bytes(now Tick) int64 {
	m.advance(now)
	return m.sum
}

// Kbps returns the average bandwidth over the window ending at tick now, in
// kilobits per second: bytes × 8 / window seconds / 1000.
func (m *BandwidthMeter) Kbps(now Tick) float64 {
	b := m.Bytes(now)
	seconds := float64(len(m.slots)) / TicksPerSecond
	return float64(b) * 8 / seconds / 1000
}
