package viewmodel_test

import (
	"math"
	"testing"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/viewmodel"
)

// TestComparisonOfASession drives a real session as the app does: the
// katamari script, three strategies shown one after the other (entry 2 at
// level 11, entry 3 at its default step, entry 5 with its own error
// figure), each for a little over three seconds (the windows shortened
// to keep the test quick). The chart gets three points, labelled
// by number key and setting, whose figures are the averages of what the
// HUD showed (the session's metrics, read here tick by tick) over each
// showing's last seconds.
func TestComparisonOfASession(t *testing.T) {
	if testing.Short() {
		t.Skip("steps a session for 10 s")
	}
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	cfg := game.DefaultConfig()
	cfg.Strategies = catalog.All()
	cfg.Link = link.PresetIntercontinental.Config()
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cc := viewmodel.CompareConfig{SettleTicks: 30, MinTicks: 120, WindowTicks: 120}
	cmp := viewmodel.NewComparison(cc)
	const showTicks = 200
	type hud struct{ kbps, err, lag []float64 }
	var seen []hud
	for k, entry := range []int{1, 2, 4} {
		if err := s.SetStrategy(entry); err != nil {
			t.Fatal(err)
		}
		var h hud
		for i := range showTicks {
			s.Step(sc.InputAt(k*showTicks + i))
			m := s.Metrics()
			st := s.Strategy()
			cmp.Add(viewmodel.Shown{Entry: s.StrategyIndex(), Name: st.Name(), Mode: st.Mode(), Link: "intercontinental", Conditions: "100 ms"}, m)
			if i < cc.SettleTicks {
				continue
			}
			h.kbps = append(h.kbps, m.SentKbps)
			e, l := math.NaN(), math.NaN()
			if m.Valid {
				e = m.PosRMSCm
				if m.ErrorOf == "" {
					l = m.DelayMs
				}
			}
			h.err, h.lag = append(h.err, e), append(h.lag, l)
		}
		seen = append(seen, h)
	}
	ps := cmp.Points()
	if len(ps) != 3 {
		t.Fatalf("%d points, want 3: %+v", len(ps), ps)
	}
	wantLabels := []string{"2 · level 11 + prediction", "3 · step 8", "5 · 4/6 replay + smoothing"}
	for k, p := range ps {
		if p.Label != wantLabels[k] {
			t.Errorf("point %d: label %q, want %q", k, p.Label, wantLabels[k])
		}
		h := seen[k]
		last := func(v []float64) float64 { // the HUD's figures over the window, oldest first
			v = v[len(v)-cc.WindowTicks:]
			sum, n := 0.0, 0
			for _, x := range v {
				if !math.IsNaN(x) {
					sum += x
					n++
				}
			}
			if n == 0 {
				return math.NaN()
			}
			return sum / float64(n)
		}
		same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
		if k, e, l := last(h.kbps), last(h.err), last(h.lag); !same(p.Kbps, k) || !same(p.ErrCm, e) || !same(p.LagMs, l) {
			t.Errorf("%s: %.3f kbit/s, %.4f cm, %.1f ms; the HUD showed %.3f, %.4f, %.1f on average", p.Label, p.Kbps, p.ErrCm, p.LagMs, k, e, l)
		}
		if p.Kbps <= 0 || math.IsNaN(p.ErrCm) {
			t.Errorf("%s: no bandwidth or no error: %+v", p.Label, p)
		}
	}
	// The 2004 client measures its own error: no lag to show.
	if !math.IsNaN(ps[2].LagMs) || math.IsNaN(ps[0].LagMs) {
		t.Errorf("lags: %v, %v", ps[0].LagMs, ps[2].LagMs)
	}
}
