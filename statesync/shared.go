package statesync

import (
	"netcubes/diverge"
	"netcubes/replication"
	"netcubes/wire"
)

// SerializeSettings implements strategy.Shared: the build-up settings cross
// from the left to the right in the two-process mode (the right needs the
// same jitter buffer, smoothing and sync-off switch as the left's keys say;
// the packet format itself is self-describing).
func (st *Strategy) SerializeSettings(s wire.Stream) error {
	x := st.set
	kbps := int32(x.BandwidthKbps)
	jitter := int32(x.JitterFrames)
	s.SetCategory(wire.CategoryOther)
	for _, b := range []*bool{&x.Accumulate, &x.LimitBandwidth, &x.Snap, &x.Compressed, &x.Quantize,
		&x.RelativeToPlayer, &x.DeltaEncoding, &x.RestCommit, &x.SyncOff, &x.CongestionAvoidance, &x.AdaptiveJitter, &x.SimpleCongestion, &x.Relevance, &x.Coarse, &x.SoftContacts} {
		if err := wire.SerializeBool(s, b); err != nil {
			return err
		}
	}
	if err := wire.SerializeInt(s, &kbps, MinKbps, MaxKbps); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &jitter, 0, MaxJitterFrames); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &x.Smoothing, 0, replication.NumSmoothingModes-1); err != nil {
		return err
	}
	div := int32(x.Divergence)
	if err := wire.SerializeInt(s, &div, 0, int32(diverge.NumModes)-1); err != nil {
		return err
	}
	original := int32(st.orig.Shown)
	if err := wire.SerializeInt(s, &original, 0, int32(len(OriginalModes))); err != nil {
		return err
	}
	if s.IsReading() {
		x.BandwidthKbps, x.JitterFrames = int(kbps), int(jitter)
		x.Divergence = diverge.Mode(div)
		if original > 0 && st.orig.Shown == 0 {
			st.beforeOriginal = st.set
		}
		st.orig.Shown = int(original)
		if x != st.set {
			st.SetSettings(x)
		}
	}
	return nil
}
