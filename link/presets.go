package link

import (
	"strings"

	"netcubes/wire"
)

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
//	asymmetric   down   35 ms   ±5 ms   0.2 %        –    –      –       0.2 %      0 %  0 %
//	             up     55 ms  ±25 ms   1 %       0.5 %  25 %   50 %     ≈2.0 %     0 %  0 %, cap 256 kbit/s
//	bottleneck          20 ms   ±2 ms   0 %          –    –      –         0 %      0 %  0 %, cap 1000 → 256 → 1000 kbit/s
//
// The last two are bottlenecks (see the design note in link.go): DSL is a
// home line's uplink, 1,024 kbit/s with a 250 ms queue and PPPoE's
// 1,492-byte MTU; congested is a shared path at 256 kbit/s with a bloated
// 500 ms queue and a 1,500-byte MTU. On them the uncompressed snapshots
// (2.9 Mbit/s at 10 Hz) mostly queue and drop, and whatever exceeds the cap
// shows as delay first, then loss.
//
// Every preset but one is the same in both directions (Pair, directions).
// "asymmetric" is a phone on a mobile network: the downlink (left → right,
// the data) is the good direction, the uplink (right → left: acks, and the
// inputs of lockstep and of the 2004 client) the weak one. A phone's uplink
// waits for the cell to grant it a transmission slot (so it is slower and
// more variable: +20 ms and ±25 ms against ±5), is sent at the handset's
// limited power (so it loses more, in bursts near the cell's edge: 1 % plus
// bad periods of 4 packets at 50 %) and shares a narrower channel (256
// kbit/s, which inputs and acks never fill). The round trip is 90 ms; the
// one-way figures, 35 and 55 ms, are what lockstep's input path and the
// 2004 input stream feel.
//
// "bottleneck" is a clean path whose cap changes over time, in ticks from
// the moment the link starts (CapSchedule): 1,000 kbit/s for 10 s, 256 for
// 20 s, 1,000 for 20 s, and again, a 50 s cycle, with the default 250 ms
// queue and a 1,500-byte MTU. It is the cap step of the bench's
// "adaptation" section: a budget of 512 kbit/s fits, then does not, then
// fits again, which is what congestion avoidance must notice.
//
// Latency is one way; the round trip is twice that. "Loss" is the loss in the
// good state; "total loss" is Config.expectedLoss, the long-run average
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
	PresetAsymmetric
	PresetBottleneck

	// NumPresets is the number of presets.
	NumPresets = iota
)

var presetNames = [NumPresets]string{"perfect", "LAN", "Wi-Fi", "intercontinental", "mobile", "terrible", "DSL", "congested", "asymmetric", "bottleneck"}

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

// Pair is the conditions of the two directions of a path: each is what one
// Link simulates.
type Pair struct {
	Down Config // left → right: the server's data
	Up   Config // right → left: acks and the client's inputs
}

// Symmetric returns the pair with c in both directions.
func Symmetric(c Config) Pair { return Pair{Down: c, Up: c} }

// IsSymmetric reports whether both directions are the same.
func (p Pair) IsSymmetric() bool { return p.Down == p.Up }

// Pair returns the preset's conditions in both directions (see the table
// above); all but "asymmetric" are the same both ways.
func (p Preset) Pair() Pair {
	if p == PresetAsymmetric {
		return Pair{
			Down: Config{LatencyMs: 35, JitterMs: 5, LossPercent: 0.2},
			Up: Config{
				LatencyMs:     55,
				JitterMs:      25,
				LossPercent:   1,
				Burst:         BurstLoss{GoodToBadPercent: 0.5, BadToGoodPercent: 25, BadLossPercent: 50},
				BandwidthKbps: 256,
				MTUBytes:      1500,
			},
		}
	}
	return Symmetric(p.symmetric())
}

// directions returns the preset's down (left → right) and up (right →
// left) conditions.
func (p Preset) directions() (down, up Config) {
	pair := p.Pair()
	return pair.Down, pair.Up
}

// BottleneckSchedule is the "bottleneck" preset's cap: 1,000 kbit/s for
// 10 s, 256 for 20 s, 1,000 for 20 s, repeating.
func BottleneckSchedule() CapSchedule {
	const s = wire.TicksPerSecond
	return CapSchedule{Steps: [MaxCapSteps]CapStep{{1000, 10 * s}, {256, 20 * s}, {1000, 20 * s}}, Repeat: true}
}

// Config returns the preset's left → right conditions (Pair gives both
// directions; they differ only for "asymmetric"). An unknown preset returns
// the perfect link.
func (p Preset) Config() Config { return p.Pair().Down }

// symmetric is a preset's configuration in each direction.
func (p Preset) symmetric() Config {
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
	case PresetBottleneck:
		return Config{LatencyMs: 20, JitterMs: 2, MTUBytes: 1500, CapSchedule: BottleneckSchedule()}
	default:
		return Config{}
	}
}
