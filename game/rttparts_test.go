package game_test

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/viewmodel"
)

// rttWhy reads "RTT = 2 × 60 ms on the link +17 ms held for ticks −23 ms
// jitter": every part in ms, the sum of the parts.
var (
	rttLink = regexp.MustCompile(`^RTT = (?:2 × ([0-9]+)|([0-9]+)) ms on the links?`)
	rttTerm = regexp.MustCompile(`^ ([+−])([0-9]+) ms ([a-z]+(?: [a-z]+)*)`)
)

func sumOfWhy(t *testing.T, why string) (float64, []string) {
	t.Helper()
	m := rttLink.FindStringSubmatch(why)
	if m == nil {
		t.Fatalf("%q: no link part", why)
	}
	sum := 0.0
	if m[1] != "" {
		v, _ := strconv.Atoi(m[1])
		sum = 2 * float64(v)
	} else {
		v, _ := strconv.Atoi(m[2])
		sum = float64(v)
	}
	var names []string
	rest := why[len(m[0]):]
	for rest != "" {
		tm := rttTerm.FindStringSubmatch(rest)
		if tm == nil {
			t.Fatalf("%q: %q is not a part in ms", why, rest)
		}
		v, _ := strconv.Atoi(tm[2])
		if tm[1] == "−" {
			v = -v
		}
		sum += float64(v)
		names = append(names, strings.TrimSpace(tm[3]))
		rest = rest[len(tm[0]):]
	}
	return sum, names
}

// TestRTTExplanationAddsUp: in one process the RTT's explanation names
// every part of the round trip (the link both ways, the ticks each end
// holds a packet, queueing, jitter) and the parts add up to the figure
// shown, on every kind of link: jittery, lossy, asymmetric, capped (a
// queue), TCP-like (resends). (The stage report: "RTT 114 ms" above "RTT
// = 2 × 60 ms on the link + 0 ticks"; 493 ms against 2 × 250 ms.)
func TestRTTExplanationAddsUp(t *testing.T) {
	capped := link.Config{LatencyMs: 20, BandwidthKbps: 300}
	tcp := link.Config{LatencyMs: 40, JitterMs: 10, LossPercent: 5, TCPLike: true}
	cases := []struct {
		name  string
		pair  link.Pair
		parts []string // parts the explanation must name
	}{
		{"perfect", link.PresetPerfect.Pair(), []string{"held for ticks"}},
		{"Wi-Fi", link.PresetWiFi.Pair(), []string{"held for ticks"}},
		{"intercontinental", link.PresetIntercontinental.Pair(), []string{"held for ticks"}},
		{"terrible", link.PresetTerrible.Pair(), []string{"held for ticks", "jitter"}},
		{"asymmetric", link.PresetAsymmetric.Pair(), []string{"held for ticks"}},
		{"capped", link.Symmetric(capped), []string{"held for ticks", "queueing"}},
		{"TCP-like", link.Symmetric(tcp), []string{"held for ticks", "jitter"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := game.DefaultConfig()
			cfg.Strategies = catalog.All()
			cfg.World.GridSide = 6
			cfg.Link = c.pair.Down
			if !c.pair.IsSymmetric() {
				cfg.Up = &c.pair.Up
			}
			s, err := game.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			for range 360 {
				s.Step(cubes.Input{Up: true, Katamari: true})
			}
			m := s.Metrics()
			rtt, why, _ := viewmodel.DescribeRTT(m, s.Link(), true)
			if why == "" {
				t.Fatalf("%s: no explanation (parts %+v)", rtt, m.RTTParts)
			}
			shown, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rtt, "RTT "), " ms"))
			sum, names := sumOfWhy(t, why)
			if sum != float64(shown) {
				t.Errorf("%s, %s: the parts add up to %.0f ms", rtt, why, sum)
			}
			for _, want := range c.parts {
				if !strings.Contains(strings.Join(names, ","), want) {
					t.Errorf("%s, %s: no %q", rtt, why, want)
				}
			}
			// The split itself is exact, not a remainder.
			p := m.RTTParts
			if d := p.LinkMs + p.QueueMs + p.JitterMs + p.HeldMs - m.RTTms; math.Abs(d) > 1e-6 {
				t.Errorf("parts %+v add up to %.6f ms off RTT %.6f", p, d, m.RTTms)
			}
			t.Logf("%s · %s", rtt, why)
		})
	}
}
