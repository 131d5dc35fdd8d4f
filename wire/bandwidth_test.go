package wire

import (
	"math"
	"testing"
)

func TestBandwidthMeter(t *testing.T) {
	type add struct {
		tick  Tick
		bytes int
	}
	tests := []struct {
		name   string
		window int
		adds   []add
		at     Tick
		want   int64 // bytes in the window ending at `at`
	}{
		{"empty", 60, nil, 10, 0},
		{"one tick", 60, []add{{5, 100}}, 5, 100},
		{"same tick adds up", 60, []add{{5, 100}, {5, 28}}, 5, 128},
		{"still inside the window", 60, []add{{5, 100}}, 64, 100},
		{"just left the window", 60, []add{{5, 100}}, 65, 0},
		{"sliding", 3, []add{{0, 1}, {1, 10}, {2, 100}, {3, 1000}}, 3, 1110},
		{"long gap clears", 3, []add{{0, 1}, {1, 10}, {100, 5}}, 100, 5},
		{"late add for an expired tick ignored", 3, []add{{10, 1}, {2, 50}}, 10, 1},
		{"late add inside the window counts", 3, []add{{10, 1}, {9, 50}}, 10, 51},
		{"negative ticks", 4, []add{{-3, 7}, {-1, 1}}, 0, 8},
	}
	for _, tc := range tests {
		m := NewBandwidthMeter(tc.window)
		for _, a := range tc.adds {
			m.Add(a.tick, a.bytes)
		}
		if got := m.Bytes(tc.at); got != tc.want {
			t.Errorf("%s: %d bytes, want %d", tc.name, got, tc.want)
		}
	}
}

// kbpsAt60 is the bandwidth of one packet of this payload per tick,
// headers included: (payload + 28) × 8 × 60 / 1000 kbit/s.
func kbpsAt60(payloadBytes int) float64 {
	return float64(WireBytes(payloadBytes)*8) * TicksPerSecond / 1000
}

func TestBandwidthKbps(t *testing.T) {
	// A steady 60 packets/s of 100-byte payloads: (100 + 28) × 8 × 60 bits/s.
	m := NewBandwidthMeter(TicksPerSecond)
	for tick := Tick(0); tick < 300; tick++ {
		m.Add(tick, WireBytes(100))
	}
	if got := m.Kbps(299); math.Abs(got-61.44) > 1e-9 {
		t.Fatalf("%v kbit/s, want 61.44", got)
	}
	// The header alone at 60 Hz: the 13.44 kbit/s floor of every strategy.
	if got := kbpsAt60(0); math.Abs(got-13.44) > 1e-9 {
		t.Fatalf("header-only %v kbit/s", got)
	}
	// The article's uncompressed snapshot: 901 cubes × 321 bits = 36153
	// bytes, + 28, × 8 × 60 = 17.37 Mbit/s.
	payload := BitsToBytes(901 * 321)
	if got := kbpsAt60(payload); math.Abs(got-17366.88) > 0.01 {
		t.Fatalf("uncompressed snapshot %v kbit/s, want about 17.37 Mbit/s", got)
	}
	m.reset()
	if m.Kbps(1000) != 0 {
		t.Fatal("Reset")
	}
	if NewBandwidthMeter(0).window() != 1 {
		t.Fatal("window floor")
	}
}

func TestBandwidthMeterZeroAllocs(t *testing.T) {
	m := NewBandwidthMeter(60)
	tick := Tick(0)
	allocs := testing.AllocsPerRun(1000, func() {
		m.Add(tick, 1200)
		_ = m.Kbps(tick)
		tick++
	})
	if allocs != 0 {
		t.Fatalf("%v allocs", allocs)
	}
}
