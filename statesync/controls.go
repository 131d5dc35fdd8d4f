package statesync

import (
	"fmt"
	"netcubes/adapt"
	"strconv"

	"netcubes/replication"
	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// The presenter's handles on state synchronization: a key per setting of
// the build-up, the sub-mode keys walking the build-up itself, four flags,
// and the HUD's facts line. Every toggle goes through SetSettings, so the
// mode line and the value a toast prints are the setting as it now is.

// toggle is a Control flipping the boolean field of the settings that f
// points into.
func (st *Strategy) toggle(key, label, help string, f func(s *Settings) *bool) strategy.Control {
	return strategy.Control{Key: key, Label: label, Help: help, Action: strategy.Toggle,
		Value: func() string { return strategy.OnOff(*f(&st.set)) },
		Do: func(int) {
			s := st.set
			p := f(&s)
			*p = !*p
			st.SetSettings(s)
		}}
}

func (st *Strategy) buildControls() []strategy.Control {
	return []strategy.Control{
		{Key: "B", Label: "bandwidth budget", Help: "bandwidth budget up / down", Action: strategy.Adjust,
			Value: func() string { return st.set.BandwidthString() },
			Do: func(dir int) {
				if dir < 0 {
					st.BandwidthDown()
				} else {
					st.BandwidthUp()
				}
			}},
		{Key: "J", Label: "jitter buffer", Help: "jitter buffer +1 / −1 frame (0-10)", Action: strategy.Adjust,
			Value: func() string { return fmt.Sprintf("%d frames", st.set.JitterFrames) },
			Do:    func(dir int) { st.SetJitterFrames(st.set.JitterFrames + dir) }},
		st.toggle("Q", "quantize both sides", "quantize both sides on / off", func(s *Settings) *bool { return &s.Quantize }),
		{Key: "S", Label: "smoothing", Help: "smoothing: none / basic / adaptive / 2004", Action: strategy.Cycle,
			Value: func() string { return st.set.Smoothing.String() },
			Do: func(dir int) {
				n := int(replication.NumSmoothingModes)
				st.SetSmoothing(replication.SmoothingMode((int(st.set.Smoothing) + dir + n) % n))
			}},
		st.toggle("C", "compressed updates", "compressed updates on / off", func(s *Settings) *bool { return &s.Compressed }),
		st.needsCompressed(st.toggle("V", "positions relative to the player", "positions relative to the player on / off",
			func(s *Settings) *bool { return &s.RelativeToPlayer })),
		st.needsCompressed(st.toggle("A", "delta encoding", "delta encoding against acked bases on / off", func(s *Settings) *bool { return &s.DeltaEncoding })),
		st.toggle("W", "at-rest commit", "at-rest commit (boost until acked) on / off", func(s *Settings) *bool { return &s.RestCommit }),
		{Key: "O", Label: "sync", Help: "sync off: stop applying updates and watch it diverge", Action: strategy.Toggle,
			Value: func() string {
				if st.set.SyncOff {
					return "off, the right runs on its own"
				}
				return "on"
			},
			Do: func(int) {
				s := st.set
				s.SyncOff = !s.SyncOff
				st.SetSettings(s)
			}},
		st.congestionControl(),
		st.divergeControl(),
		st.relevanceControl(),
		st.precisionControl(),
		st.contactsControl(),
		st.toggle(adapt.PlayoutKey, "adaptive jitter buffer", "jitter buffer sized from measured jitter / fixed",
			func(s *Settings) *bool { return &s.AdaptiveJitter }),
	}
}

// needsCompressed makes a toggle that only acts on compressed updates say
// so while they are off: the press changes the setting, which shows only
// once C turns compression on.
func (st *Strategy) needsCompressed(c strategy.Control) strategy.Control {
	value := c.Value
	c.Value = func() string {
		if !st.set.Compressed {
			return value() + " (acts with compressed updates only: C)"
		}
		return value()
	}
	return c
}

// Controls implements strategy.Strategy.
func (st *Strategy) Controls() []strategy.Control { return st.controls }

// SubMode implements strategy.Strategy: the steps of the article's
// build-up.
func (st *Strategy) SubMode(dir int) string {
	if st.orig.Shown > 0 {
		return st.stepOriginal(dir)
	}
	if dir < 0 {
		st.PrevStep()
	} else {
		st.NextStep()
	}
	// The step's name is the note; its explanation is the top bar's line.
	msg := fmt.Sprintf("step %d: %s", st.Step(), StepName(st.Step()))
	if st.RestartsAfter(dir) {
		msg += " · the right restarts from the left's state"
	}
	return msg
}

// smoothingFlagNames are the -smoothing values, in replication.SmoothingMode order.
var smoothingFlagNames = []string{"none", "basic", "adaptive", "2004"}

// Flags implements strategy.Flagged.
func (st *Strategy) Flags() []strategy.Flag {
	return []strategy.Flag{
		strategy.IntFlag("step", "state sync build-up step 1-8 (default: 8, all of it)", 1, Steps, st.SetStep),
		{Name: "budget", Usage: "state sync bandwidth budget in kbit/s, 32-2048 (default 256)", Set: func(v string) error {
			n, err := strconv.Atoi(v)
			if err != nil || n < 32 || n > 2048 {
				return fmt.Errorf("-budget must be 32..2048 kbit/s, got %s", v)
			}
			s := st.set
			s.BandwidthKbps = n
			st.SetSettings(s)
			return nil
		}},
		strategy.IntFlag("jitter-buffer", "state sync jitter buffer in frames, 0-10 (default 5)", 0, MaxJitterFrames, st.SetJitterFrames),
		strategy.ChoiceFlag("smoothing", "state sync smoothing: none, basic, adaptive or 2004", smoothingFlagNames,
			func(i int) { st.SetSmoothing(replication.SmoothingMode(i)) }),
		st.orig.Flag(st.SetOriginal),
		st.congestionFlag(),
		st.divergeFlag(),
		st.relevanceFlag(),
		st.precisionFlag(),
		st.contactsFlag(),
	}
}

// Facts implements strategy.Facts: updates per packet and their cost, and
// how long the most neglected cube has waited.
// The HUD wraps it between its parts, so each part is short and the
// lesson of the step comes first: at step 1, the cubes never sent.
func (st *Strategy) Facts() string {
	ss := st.Stats()
	out := st.joinFacts(st.joined.now) + st.divergeFacts() + st.adapt.facts(st)
	if ss.NeverSent > 0 {
		out = viewmodel.Plural(ss.NeverSent, "cube") + " never sent · "
	}
	out += fmt.Sprintf("%.1f updates/packet × %.0f bits", ss.UpdatesPerPacket, ss.BitsPerUpdate)
	out += fmt.Sprintf(" · longest wait %.1f s", float64(ss.OldestUnsentTicks)/wire.TicksPerSecond)
	return out
}
