package link

// One-way settings: a preset's two directions (Pair), and the delays a
// ping and its pong measure through two links set up as a direction each.

import (
	"encoding/binary"
	"math"
	"testing"

	"netcubes/wire"
)

// TestPresetPairs: every preset is the same both ways except
// "asymmetric", whose uplink is the weaker direction on every count, and
// whose Config is its downlink.
func TestPresetPairs(t *testing.T) {
	for p := Preset(0); p < NumPresets; p++ {
		pair := p.Pair()
		down, up := p.directions()
		if down != pair.Down || up != pair.Up || p.Config() != pair.Down {
			t.Errorf("%s: directions, Pair and Config disagree", p)
		}
		if p != PresetAsymmetric {
			if !pair.IsSymmetric() {
				t.Errorf("%s: directions differ", p)
			}
			continue
		}
		if pair.IsSymmetric() {
			t.Fatalf("%s: both directions alike", p)
		}
		if !(up.LatencyMs > down.LatencyMs && up.JitterMs > down.JitterMs && up.expectedLoss() > down.expectedLoss()) {
			t.Errorf("%s: the uplink is not the weaker direction: down %+v, up %+v", p, down, up)
		}
		if up.BandwidthKbps == 0 || (down.BandwidthKbps != 0 && down.BandwidthKbps < up.BandwidthKbps) {
			t.Errorf("%s: uplink cap %v, downlink %v", p, up.BandwidthKbps, down.BandwidthKbps)
		}
	}
	if Symmetric(PresetMobile.Config()) != PresetMobile.Pair() {
		t.Error("Symmetric(mobile) is not mobile's pair")
	}
}

// meanTicks is the mean delivery delay in ticks of a packet sent on a tick
// boundary with a delay uniform in latency ± jitter (ms), plus extraMs: the
// delay rounds up to the next tick.
func meanTicks(latency, jitter, extraMs float64) float64 {
	const n = 100000
	sum := 0.0
	for k := range n {
		ms := latency - jitter + 2*jitter*(float64(k)+0.5)/n + extraMs
		sum += math.Ceil(math.Max(ms, 0) * wire.TicksPerSecond / 1000)
	}
	return sum / n
}

// TestOneWayDelays: through the asymmetric preset's two links, a ping
// every tick left → right and a pong sent back the tick it arrives. The
// one-way delays come out as each direction was set, and every round trip
// is exactly the sum of its two one-way delays.
func TestOneWayDelays(t *testing.T) {
	downCfg, upCfg := PresetAsymmetric.directions()
	down, up := New(downCfg, 11), New(upCfg, 12)
	const ticks = 120 * wire.TicksPerSecond
	ping := make([]byte, 16)
	pong := make([]byte, 16)
	pingSent := map[uint64]wire.Tick{} // ping number → tick sent
	var downSum, upSum, rttSum float64
	var downN, upN, rttN int
	for tick := wire.Tick(0); tick < ticks+60; tick++ {
		for _, d := range up.Receive(tick) {
			if d.Duplicate {
				continue
			}
			n := binary.LittleEndian.Uint64(d.Data)
			arrivedRight := wire.Tick(binary.LittleEndian.Uint64(d.Data[8:]))
			upDelay := tick - d.Sent
			downDelay := arrivedRight - pingSent[n]
			rtt := tick - pingSent[n]
			if d.Sent != arrivedRight {
				t.Fatalf("pong %d sent at %d, its ping arrived at %d", n, d.Sent, arrivedRight)
			}
			if rtt != upDelay+downDelay {
				t.Fatalf("ping %d: round trip %d ticks, one-way %d + %d", n, rtt, downDelay, upDelay)
			}
			upSum += float64(upDelay)
			upN++
			rttSum += float64(rtt)
			rttN++
		}
		if tick < ticks {
			n := uint64(tick)
			binary.LittleEndian.PutUint64(ping, n)
			pingSent[n] = tick
			down.Send(tick, ping)
		}
		for _, d := range down.Receive(tick) {
			if d.Duplicate {
				continue
			}
			n := binary.LittleEndian.Uint64(d.Data)
			downSum += float64(tick - pingSent[n])
			downN++
			binary.LittleEndian.PutUint64(pong, n)
			binary.LittleEndian.PutUint64(pong[8:], uint64(tick))
			up.Send(tick, pong)
		}
	}
	// The uplink's cap clocks each 44-byte pong out in 1.4 ms.
	txMs := float64(wire.WireBytes(len(pong))*8) / upCfg.BandwidthKbps
	wantDown := meanTicks(downCfg.LatencyMs, downCfg.JitterMs, 0)
	wantUp := meanTicks(upCfg.LatencyMs, upCfg.JitterMs, txMs)
	gotDown, gotUp := downSum/float64(downN), upSum/float64(upN)
	t.Logf("one way: down %.3f ticks (want %.3f), up %.3f (want %.3f); round trip %.3f over %d pongs",
		gotDown, wantDown, gotUp, wantUp, rttSum/float64(rttN), rttN)
	if math.Abs(gotDown-wantDown) > 0.05 || math.Abs(gotUp-wantUp) > 0.1 {
		t.Errorf("one-way delays %.3f and %.3f ticks, set up for %.3f and %.3f", gotDown, gotUp, wantDown, wantUp)
	}
	if gotUp-gotDown < 1 {
		t.Errorf("the uplink is only %.2f ticks slower", gotUp-gotDown)
	}
	// Both directions lose: the pongs that came back are fewer than the
	// pings that arrived by about the uplink's loss.
	lostUp := 1 - float64(upN)/float64(downN)
	if math.Abs(lostUp-upCfg.expectedLoss()) > 0.01 {
		t.Errorf("uplink lost %.3f, set up for %.3f", lostUp, upCfg.expectedLoss())
	}
}
