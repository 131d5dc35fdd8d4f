package net

import "strings"

// Design note: named network conditions let a presenter switch from "LAN" to
// "terrible" with one key, and let a benchmark say exactly what it measured
// under. The numbers are round, plausible figures for each kind of path, not
// measurements; they are documented here and in the table below so that the
// screen, the docs and the tests agree.
//
//	preset            latency  jitter   loss  burst: G→B  B→G  bad loss  total loss  dup  reorder
//	perfect              0 ms   ±0 ms   0 %          –    –      –         0 %      0 %  0 %
//	LAN                  1 ms   ±0 ms   0 %          –    –      –         0 %      0 %  0 %
//	Wi-Fi                5 ms   ±5 ms   0.5 %     0.2 %  25 %   63 %     ≈1.0 %     0 %  0 %
//	intercontinental   100 ms  ±10 ms   5 %          –    –      –         5 %      0 %  0 %
//	mobile              60 ms  ±40 ms   1.5 %     0.5 %  20 %   63 %     ≈3.0 %     0 %  1 % (+50 ms)
//	terrible           250 ms ±100 ms   20 %         –    –      –        20 %      5 %  5 % (+50 ms)
//
// Latency is one way; the round trip is twice that. "Loss" is the loss in the
// good state; "total loss" is LinkConfig.ExpectedLoss, the long-run average
// including bursts: Wi-Fi's bad periods last 4 packets on average, mobile's
// 5. Jitter is uniform in ±jitter. None of the presets caps bandwidth or uses
// TCP-like mode; those are separate knobs.

// LinkPreset names a set of link conditions.
type LinkPreset uint8

// The presets, in the order a key cycles through them.
const (
	PresetPerfect LinkPreset = iota
	PresetLAN
	PresetWiFi
	PresetIntercontinental
	PresetMobile
	PresetTerrible

	// NumLinkPresets is the number of presets.
	NumLinkPresets = iota
)

var presetNames = [NumLinkPresets]string{"perfect", "LAN", "Wi-Fi", "intercontinental", "mobile", "terrible"}

// String returns the preset's display name.
func (p LinkPreset) String() string {
	if int(p) < NumLinkPresets {
		return presetNames[p]
	}
	return "unknown"
}

// LinkPresetByName finds a preset by name, ignoring case, spaces, '-' and
// '_' ("wifi", "Wi-Fi" and "WIFI" all work).
func LinkPresetByName(name string) (LinkPreset, bool) {
	key := presetKey(name)
	for i, n := range presetNames {
		if presetKey(n) == key {
			return LinkPreset(i), true
		}
	}
	return 0, false
}

func presetKey(s string) string {
	s = strings.ToLower(s)
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == ' ' {
			return -1
		}
		return r
	}, s)
}

// Config returns the preset's link configuration (see the table above). An
// unknown preset returns the perfect link.
func (p LinkPreset) Config() LinkConfig {
	switch p {
	case PresetLAN:
		return LinkConfig{LatencyMs: 1}
	case PresetWiFi:
		return LinkConfig{
			LatencyMs:   5,
			JitterMs:    5,
			LossPercent: 0.5,
			Burst:       BurstLoss{GoodToBadPercent: 0.2, BadToGoodPercent: 25, BadLossPercent: 63},
		}
	case PresetIntercontinental:
		return LinkConfig{LatencyMs: 100, JitterMs: 10, LossPercent: 5}
	case PresetMobile:
		return LinkConfig{
			LatencyMs:      60,
			JitterMs:       40,
			LossPercent:    1.5,
			Burst:          BurstLoss{GoodToBadPercent: 0.5, BadToGoodPercent: 20, BadLossPercent: 63},
			ReorderPercent: 1,
			ReorderExtraMs: 50,
		}
	case PresetTerrible:
		return LinkConfig{
			LatencyMs:        250,
			JitterMs:         100,
			LossPercent:      20,
			DuplicatePercent: 5,
			ReorderPercent:   5,
			ReorderExtraMs:   50,
		}
	default:
		return LinkConfig{}
	}
}
