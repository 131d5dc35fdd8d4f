package link

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
//	DSL                 15 ms   ±3 ms   0 %          –    –      –         0 %      0 %  0 %
//	congested           40 ms  ±10 ms   1 %          –    –      –         1 %      0 %  0 %
//
// The last two are bottlenecks (see the design note in link.go): DSL is a
// home line's uplink, 1,024 kbit/s with a 250 ms queue and PPPoE's
// 1,492-byte MTU; congested is a shared path at 256 kbit/s with a bloated
// 500 ms queue and a 1,500-byte MTU. On them the uncompressed snapshots
// (2.9 Mbit/s at 10 Hz) mostly queue and drop, and whatever exceeds the cap
// shows as delay first, then loss.
//
// Latency is one way; the round trip is twice that. "Loss" is the loss in the
// good state; "total loss" is Config.ExpectedLoss, the long-run average
// including bursts: Wi-Fi's bad periods last 4 packets on average, mobile's
// 5. Jitter is uniform in ±jitter. Only DSL and congested cap the bandwidth
// (and fragment datagrams over their MTU; the others send datagrams whole,
// as the bench's tables were measured); none uses TCP-like mode, a separate
// knob.

// Preset names a set of link conditions.
type Preset uint8

// The presets, in the order a key cycles through them.
const (
	PresetPerfect Preset = iota
	PresetLAN
	PresetWiFi
	PresetIntercontinental
	PresetMobile
	PresetTerrible
	PresetDSL
	PresetCongested

	// NumPresets is the number of presets.
	NumPresets = iota
)

var presetNames = [NumPresets]string{"perfect", "LAN", "Wi-Fi", "intercontinental", "mobile", "terrible", "DSL", "congested"}

// String returns the preset's display name.
func (p Preset) String() string {
	if int(p) < NumPresets {
		return presetNames[p]
	}
	return "unknown"
}

// PresetByName finds a preset by name, ignoring case, spaces, '-' and
// '_' ("wifi", "Wi-Fi" and "WIFI" all work).
func PresetByName(name string) (Preset, bool) {
	key := presetKey(name)
	for i, n := range presetNames {
		if presetKey(n) == key {
			return Preset(i), true
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
func (p Preset) Config() Config {
	switch p {
	case PresetLAN:
		return Config{LatencyMs: 1}
	case PresetWiFi:
		return Config{
			LatencyMs:   5,
			JitterMs:    5,
			LossPercent: 0.5,
			Burst:       BurstLoss{GoodToBadPercent: 0.2, BadToGoodPercent: 25, BadLossPercent: 63},
		}
	case PresetIntercontinental:
		return Config{LatencyMs: 100, JitterMs: 10, LossPercent: 5}
	case PresetMobile:
		return Config{
			LatencyMs:      60,
			JitterMs:       40,
			LossPercent:    1.5,
			Burst:          BurstLoss{GoodToBadPercent: 0.5, BadToGoodPercent: 20, BadLossPercent: 63},
			ReorderPercent: 1,
			ReorderExtraMs: 50,
		}
	case PresetTerrible:
		return Config{
			LatencyMs:        250,
			JitterMs:         100,
			LossPercent:      20,
			DuplicatePercent: 5,
			ReorderPercent:   5,
			ReorderExtraMs:   50,
		}
	case PresetDSL:
		return Config{LatencyMs: 15, JitterMs: 3, BandwidthKbps: 1024, MTUBytes: 1492}
	case PresetCongested:
		return Config{LatencyMs: 40, JitterMs: 10, LossPercent: 1, BandwidthKbps: 256, QueueLimitMs: 500, MTUBytes: 1500}
	default:
		return Config{}
	}
}
