package adapt_test

import (
	"encoding/binary"
	"testing"

	"netcubes/adapt"
	"netcubes/link"
	"netcubes/wire"
)

// loopTick is one tick of a closed-loop run.
type loopTick struct {
	kbps    int     // the estimate
	queueMs float64 // the queueing delay the bottleneck gave the packet sent this tick (ms)
	cap     float64
	goodput int // bytes delivered this tick (wire)
	state   adapt.State
}

// runLoop sends one packet per tick filling min(setting, estimate) over a
// link with cfg (the data direction) and acks each arrival back over a
// clean 20 ms link: the sender of state sync, without the game.
func runLoop(t testing.TB, cfg link.Config, settingKbps, ticks int, seed uint64) []loopTick {
	down := link.New(cfg, seed)
	back := link.New(link.Config{LatencyMs: cfg.LatencyMs}, seed+1)
	e := adapt.New(adapt.DefaultConfig(64, settingKbps))
	var tr adapt.Tracker
	tr.Reset()
	out := make([]loopTick, ticks)
	buf := make([]byte, 4096)
	ack := make([]byte, 8)
	for now := 0; now < ticks; now++ {
		tick := wire.Tick(now)
		for _, d := range back.Receive(tick) {
			tr.Acked(int(binary.LittleEndian.Uint64(d.Data)), now)
		}
		e.Update(tr.Tick(now, e.LossWaitTicks()))
		kbps := min(settingKbps, e.Kbps())
		size := max(kbps*1000/8/wire.TicksPerSecond-wire.PacketHeaderBytes, 16)
		binary.LittleEndian.PutUint64(buf, uint64(now))
		down.Send(tick, buf[:size])
		tr.Sent(now, wire.WireBytes(size))
		out[now] = loopTick{kbps: e.Kbps(), cap: down.CapKbps(tick), state: e.State()}
		for _, d := range down.Receive(tick) {
			out[now].goodput += wire.WireBytes(len(d.Data))
			f := int(binary.LittleEndian.Uint64(d.Data))
			out[f].queueMs = queuedMs(down, d.ID, out[f].cap)
			binary.LittleEndian.PutUint64(ack, uint64(f))
			back.Send(tick, ack)
		}
	}
	return out
}

// queuedMs is how long the packet with link id waited behind earlier
// packets in the bottleneck's queue: the link's own record of its time
// between Send and its last bit leaving, less its own time on the wire at
// capKbps (the packet's with IP and UDP headers).
func queuedMs(l *link.Link, id uint64, capKbps float64) float64 {
	ev, ok := l.Event(id)
	if !ok {
		return 0
	}
	q, _, _, ok := ev.Times()
	if !ok || capKbps <= 0 {
		return q
	}
	own := float64(wire.WireBytes(int(ev.Bytes))*8) / capKbps
	return max(0, q-own)
}

// TestClosedLoopNoCap: on links without a bottleneck (jitter, random loss,
// reordering, duplicates) the slow start reaches the setting within 4 s
// and the estimator never cuts: the rate stays there for two minutes.
func TestClosedLoopNoCap(t *testing.T) {
	const s = wire.TicksPerSecond
	for _, p := range []link.Preset{link.PresetPerfect, link.PresetWiFi, link.PresetIntercontinental, link.PresetMobile, link.PresetTerrible} {
		for seed := uint64(1); seed <= 3; seed++ {
			r := runLoop(t, p.Config(), 512, 120*s, seed)
			reached := -1
			for k, x := range r {
				if x.kbps == 512 {
					reached = k
					break
				}
			}
			if reached < 0 || reached > 5*s {
				t.Errorf("%s seed %d: reached the setting at tick %d", p, seed, reached)
				continue
			}
			for k, x := range r[reached:] {
				if x.kbps < 512 {
					t.Errorf("%s seed %d: the rate fell to %d kbit/s at %.1f s with no bottleneck", p, seed, x.kbps, float64(reached+k)/s)
					break
				}
			}
		}
	}
}

// TestClosedLoopCongested: a budget of 512 kbit/s over the "congested"
// preset (256 kbit/s behind a 500 ms queue) from the first tick: the slow
// start finds the empty path first, and from 5 s on the queue stays under
// 100 ms while the goodput stays above 80 % of the cap.
func TestClosedLoopCongested(t *testing.T) {
	const s = wire.TicksPerSecond
	r := runLoop(t, link.PresetCongested.Config(), 512, 60*s, 1)
	good, worst := 0, 0.0
	for _, x := range r[5*s:] {
		good += x.goodput
		worst = max(worst, x.queueMs)
	}
	kbps := float64(good*8) / 55 / 1000
	t.Logf("goodput %.0f kbit/s, queue ≤ %.0f ms", kbps, worst)
	if worst > 100 || kbps < 0.8*256 {
		t.Errorf("goodput %.0f kbit/s, queue up to %.0f ms", kbps, worst)
	}
}

// TestClosedLoopBottleneck: the sender of state sync at 512 kbit/s over the
// "bottleneck" preset (1,000 kbit/s, 256 from 10 s to 30 s, 1,000 again),
// with the estimator in the loop. The bench's goals are measured on the
// game (statesync's bench section "adaptation"); this checks the estimator
// alone with some slack: the queue is back under 100 ms within 2.5 s of
// the drop, the low phase carries at least 80 % of the cap, the rate is
// back above 80 % of 512 within 5 s of the rise, nothing is cut while the
// cap is above the budget, and the same seed repeats the run exactly.
func TestClosedLoopBottleneck(t *testing.T) {
	const s = wire.TicksPerSecond
	r := runLoop(t, link.PresetBottleneck.Config(), 512, 45*s, 1)
	lastHigh := -1
	for k := 10 * s; k < 30*s; k++ {
		if r[k].queueMs > 100 {
			lastHigh = k
		}
	}
	good := 0
	for _, x := range r[15*s : 30*s] {
		good += x.goodput
	}
	goodKbps := float64(good*8) / 15 / 1000
	back := -1
	for k := 30 * s; k < 45*s; k++ {
		if r[k].kbps >= 410 {
			back = k
			break
		}
	}
	t.Logf("queue under 100 ms %.2f s after the drop; goodput %.0f kbit/s (%.0f %% of 256); 410 kbit/s %.2f s after the rise",
		float64(lastHigh+1-10*s)/s, goodKbps, goodKbps/2.56, float64(back-30*s)/s)
	if lastHigh+1-10*s > 5*s/2 {
		t.Errorf("queueing over 100 ms until %.2f s after the drop", float64(lastHigh+1-10*s)/s)
	}
	if goodKbps < 0.8*256 {
		t.Errorf("goodput %.0f kbit/s in the low phase", goodKbps)
	}
	if back < 0 || back-30*s > 5*s {
		t.Errorf("the rate came back to 410 kbit/s %.2f s after the rise", float64(back-30*s)/s)
	}
	for k, x := range r[:10*s] {
		if (k > 3*s && x.kbps != 512) || x.queueMs > 0 {
			t.Fatalf("tick %d, above the cap: rate %d, queue %.1f ms", k, x.kbps, x.queueMs)
		}
	}
	again := runLoop(t, link.PresetBottleneck.Config(), 512, 45*s, 1)
	for k := range r {
		if r[k] != again[k] {
			t.Fatalf("tick %d differs between two runs: %+v, %+v", k, r[k], again[k])
		}
	}
}
