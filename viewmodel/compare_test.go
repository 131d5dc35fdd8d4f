package viewmodel

import (
	"math"
	"reflect"
	"testing"
)

// feed adds n ticks of s with the metrics f(tick) returns.
func feed(c *Comparison, s Shown, n int, f func(i int) Metrics) {
	for i := range n {
		m := f(i)
		c.Add(s, &m)
	}
}

func steady(kbps, err, lag float64) func(int) Metrics {
	return func(int) Metrics { return Metrics{SentKbps: kbps, Valid: true, PosRMSCm: err, DelayMs: lag} }
}

var cfgSmall = CompareConfig{SettleTicks: 2, MinTicks: 6, WindowTicks: 3}

// TestComparisonShowings: a showing becomes a point once it lasted
// MinTicks, averaging its last WindowTicks after SettleTicks; a short one
// leaves nothing; showing a thing again replaces its point in place;
// Clear forgets everything.
func TestComparisonShowings(t *testing.T) {
	a := Shown{Entry: 1, Name: "Snapshot compression", Mode: "level 11 · 60 Hz", Link: "perfect", Conditions: "0 ms"}
	b := Shown{Entry: 2, Name: "State synchronization", Mode: "step 6 · 256 kbit/s", Link: "perfect", Conditions: "0 ms"}
	c := NewComparison(cfgSmall)
	// Ticks 0-1 settle (1000 kbit/s would be the previous setting's), then
	// 10, 20, 30, 40: the last three average 30.
	feed(c, a, 6, func(i int) Metrics {
		if i < 2 {
			return Metrics{SentKbps: 1000, Valid: true, PosRMSCm: 99}
		}
		return Metrics{SentKbps: float64(10 * (i - 1)), Valid: true, PosRMSCm: float64(i - 1), DelayMs: 100}
	})
	ps := c.Points()
	if len(ps) != 1 || ps[0].Kbps != 30 || ps[0].ErrCm != 3 || ps[0].LagMs != 100 || ps[0].Ticks != 3 || ps[0].Label != "2 · level 11" {
		t.Fatalf("after 6 ticks of a: %+v", ps)
	}
	// Five ticks is too short: no point for b, a's stays.
	feed(c, b, 5, steady(200, 0.5, 50))
	if ps := c.Points(); len(ps) != 1 || ps[0].Shown != a {
		t.Fatalf("a short showing of b made a point: %+v", ps)
	}
	feed(c, b, 6, steady(200, 0.5, 50))
	ps = c.Points()
	if len(ps) != 2 || ps[1].Shown != b || ps[1].Kbps != 200 || ps[1].Label != "3 · step 6" {
		t.Fatalf("after b: %+v", ps)
	}
	// a again, with other figures: its point moves, in first place still.
	feed(c, a, 8, steady(500, 1, 0))
	ps = c.Points()
	if len(ps) != 2 || ps[0].Shown != a || ps[0].Kbps != 500 || ps[0].ErrCm != 1 {
		t.Fatalf("after a again: %+v", ps)
	}
	c.Clear()
	if ps := c.Points(); len(ps) != 0 {
		t.Fatalf("after Clear: %+v", ps)
	}
	// Clear also forgets the showing on screen so far: it counts again.
	feed(c, a, 5, steady(1, 1, 1))
	if ps := c.Points(); len(ps) != 0 {
		t.Fatalf("5 ticks after Clear: %+v", ps)
	}
}

// TestComparisonMissingFigures: ticks without an error figure (the right
// shows nothing yet) do not count toward the error; a strategy measuring
// its own error (ErrorOf) has no lag; no error at all is NaN.
func TestComparisonMissingFigures(t *testing.T) {
	s := Shown{Entry: 4, Mode: "2/5 prediction"}
	c := NewComparison(CompareConfig{MinTicks: 4, WindowTicks: 4})
	feed(c, s, 4, func(i int) Metrics {
		if i%2 == 0 {
			return Metrics{SentKbps: 8}
		}
		return Metrics{SentKbps: 8, Valid: true, PosRMSCm: 6, ErrorOf: "the player, predicted vs the server's", DelayMs: 0}
	})
	p := c.Points()[0]
	if p.ErrCm != 6 || !math.IsNaN(p.LagMs) || p.Kbps != 8 {
		t.Errorf("own error: %+v", p)
	}
	c = NewComparison(CompareConfig{MinTicks: 2, WindowTicks: 4})
	feed(c, s, 3, func(int) Metrics { return Metrics{SentKbps: 8} })
	if p := c.Points()[0]; !math.IsNaN(p.ErrCm) || !math.IsNaN(p.LagMs) {
		t.Errorf("no figures: %+v", p)
	}
}

// TestComparisonBreak: a reset ends the showing; the same thing shown
// after it is a new showing that must last MinTicks again, and then
// replaces the point.
func TestComparisonBreak(t *testing.T) {
	s := Shown{Entry: 0, Mode: "level 1"}
	c := NewComparison(cfgSmall)
	feed(c, s, 6, steady(10, 1, 1))
	c.Break()
	feed(c, s, 3, steady(20, 2, 2))
	if p := c.Points(); len(p) != 1 || p[0].Kbps != 10 {
		t.Fatalf("a new showing replaced the point too early: %+v", p)
	}
	feed(c, s, 3, steady(20, 2, 2))
	if p := c.Points(); len(p) != 1 || p[0].Kbps != 20 {
		t.Fatalf("after the new showing: %+v", p)
	}
}

// TestComparisonLabels: the first setting always, the others only where
// the entry's points differ in them, the link only where points differ in
// it, and the link's numbers where two share its name.
func TestComparisonLabels(t *testing.T) {
	pt := func(entry int, mode, link, cond string) ComparePoint {
		return ComparePoint{Shown: Shown{Entry: entry, Mode: mode, Link: link, Conditions: cond}}
	}
	tests := []struct {
		ps   []ComparePoint
		want []string
	}{
		{[]ComparePoint{pt(1, "level 11 · 60 Hz", "perfect", "0"), pt(1, "level 12 · 60 Hz", "perfect", "0"), pt(2, "step 6 · 256 kbit/s", "perfect", "0")},
			[]string{"2 · level 11", "2 · level 12", "3 · step 6"}},
		// Steps differ in more than their number: the number is enough.
		{[]ComparePoint{pt(2, "step 6 · quantize", "perfect", "0"), pt(2, "step 8 · quantize · delta · rest commit", "perfect", "0")},
			[]string{"3 · step 6", "3 · step 8"}},
		{[]ComparePoint{pt(0, "level 1 · 10 Hz · hermite+slerp · delay 350 ms", "perfect", "0"), pt(0, "level 1 · 10 Hz · latest only · no delay", "perfect", "0"),
			pt(0, "level 1 · 60 Hz · latest only · no delay", "perfect", "0")},
			[]string{"1 · level 1 · 10 Hz · hermite+slerp · delay 350 ms", "1 · level 1 · 10 Hz · latest only · no delay", "1 · level 1 · 60 Hz · latest only · no delay"}},
		// The link where a point's differs from most points'.
		{[]ComparePoint{pt(2, "step 8 · 256 kbit/s", "intercontinental", "100"), pt(1, "level 11", "intercontinental", "100"), pt(2, "step 8 · 256 kbit/s", "perfect", "0")},
			[]string{"3 · step 8", "2 · level 11", "3 · step 8 · perfect"}},
		{[]ComparePoint{pt(2, "step 8", "custom", "10 ms"), pt(2, "step 8", "custom", "20 ms")},
			[]string{"3 · step 8", "3 · step 8 · custom (20 ms)"}},
		// Lockstep's modes choose their links: its mode names them.
		{[]ComparePoint{pt(1, "level 11", "perfect", "0"), pt(3, "mode 3: TCP-like 50 ms, 1 % loss", "", "50 ms")},
			[]string{"2 · level 11", "4 · mode 3: TCP-like 50 ms, 1 % loss"}},
	}
	for _, tt := range tests {
		label(tt.ps)
		var got []string
		for _, p := range tt.ps {
			got = append(got, p.Label)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("labels %q, want %q", got, tt.want)
		}
	}
}

// TestComparisonDeterministic: the same ticks give the same points.
func TestComparisonDeterministic(t *testing.T) {
	run := func() []ComparePoint {
		c := NewComparison(DefaultCompareConfig())
		for e := range 3 {
			feed(c, Shown{Entry: e, Mode: "m"}, 400, func(i int) Metrics {
				return Metrics{SentKbps: math.Sin(float64(i)) * 100, Valid: i%3 != 0, PosRMSCm: math.Sqrt(float64(i)), DelayMs: float64(i % 7)}
			})
		}
		return c.Points()
	}
	a, b := run(), run()
	if !reflect.DeepEqual(a, b) || len(a) != 3 {
		t.Errorf("two runs differ or lack points:\n%+v\n%+v", a, b)
	}
}
