package snapshot

import (
	"netcubes/wire"
)

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
	if s.IsReading() {
		c.Rate = Rates[rate]
		c.DelayNudgeTicks = int(nudge)
		return st.SetConfig(c)
	}
	return nil
}
