package snapshot

import "netcubes/wire"

// SerializeSettings implements strategy.Shared: the live settings of the
// snapshot strategies (what the keys change) cross from the left to the
// right in the two-process mode. The right reads them into a copy and takes
// them only when every field is in range.
func (st *Strategy) SerializeSettings(s wire.Stream) error {
	c := st.cfg
	rate := int32(0)
	for i, r := range Rates {
		if r == c.Rate {
			rate = int32(i)
		}
	}
	nudge := int32(c.DelayNudgeTicks)
	s.SetCategory(wire.CategoryOther)
	if err := wire.SerializeInt(s, &rate, 0, int32(len(Rates)-1)); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &c.Render, 0, NumRenderModes-1); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &c.Level, MinLevel, MaxLevel); err != nil {
		return err
	}
	if err := wire.SerializeBool(s, &c.PlayerPrediction); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &nudge, -MaxDelayNudgeTicks, MaxDelayNudgeTicks); err != nil {
		return err
	}
	if err := wire.SerializeBool(s, &c.CongestionAvoidance); err != nil {
		return err
	}
	if err := wire.SerializeBool(s, &c.AdaptiveDelay); err != nil {
		return err
	}
	if err := wire.SerializeBool(s, &c.AtRestFlag); err != nil {
		return err
	}
	if err := wire.SerializeBool(s, &c.SimpleCongestion); err != nil {
		return err
	}
	// The original demo's mode shown, of this entry's list.
	modes, _ := st.originals()
	original := int32(st.orig.Shown)
	if err := wire.SerializeInt(s, &original, 0, int32(len(modes))); err != nil {
		return err
	}
	if s.IsReading() {
		c.Rate = Rates[rate]
		c.DelayNudgeTicks = int(nudge)
		prev := st.cfg
		if err := st.SetConfig(c); err != nil {
			return err
		}
		// The left's settings already are the mode's (or changed by hand
		// since): only the list the keys step is taken.
		if original > 0 && st.orig.Shown == 0 {
			st.beforeOriginal = prev
		}
		st.orig.Shown = int(original)
	}
	return nil
}
