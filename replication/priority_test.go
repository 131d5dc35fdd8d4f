package replication

import (
	"math"
	"slices"
	"testing"

	"netcubes/wire"
)

func TestPriorityOrderTiesByIndex(t *testing.T) {
	p := NewPriorityAccumulator(6)
	for i, v := range []float64{1, 5, 1, 5, 0, 2} {
		p.Add(i, v)
	}
	got := p.ordered()
	want := []int32{1, 3, 5, 0, 2, 4}
	for k := range want {
		if got[k] != want[k] {
			t.Fatalf("order %v, want %v", got, want)
		}
	}
	// NaN and negative priorities add nothing.
	p.Add(4, math.NaN())
	p.Add(4, -3)
	if p.Value(4) != 0 {
		t.Fatalf("value %v after NaN/negative adds", p.Value(4))
	}
	p.Sent(1)
	if p.Value(1) != 0 || p.Max() != 5 {
		t.Fatalf("after Sent: value %v, max %v", p.Value(1), p.Max())
	}
}

// fillPackets simulates the sender's walk: each tick every cube adds its
// priority, and the first `fit` cubes in order are sent (the player always).
// It returns, per cube, the longest gap between two sends (or since the start).
func fillPackets(t *testing.T, n, fit, ticks int, prio func(i int) float64, accumulate bool) (maxGap []int, sends []int) {
	t.Helper()
	p := NewPriorityAccumulator(n)
	last := make([]int, n)
	maxGap = make([]int, n)
	sends = make([]int, n)
	for tick := 1; tick <= ticks; tick++ {
		for i := range n {
			if accumulate {
				p.Add(i, prio(i))
			} else {
				p.Set(i, prio(i))
			}
		}
		for k, i := range p.ordered() {
			if k >= fit {
				break
			}
			p.Sent(int(i))
			maxGap[i] = max(maxGap[i], tick-last[i])
			last[i] = tick
			sends[i]++
		}
	}
	for i := range n {
		maxGap[i] = max(maxGap[i], ticks+1-last[i])
	}
	return maxGap, sends
}

// TestPriorityAccumulatorCoversAllAtRest: with every cube at rest and room
// for N updates per packet (the player's one of them), every cube is sent
// within ceil(900/(N−1))+1 packets, for several N.
func TestPriorityAccumulatorCoversAllAtRest(t *testing.T) {
	const n = 901
	prio := func(i int) float64 {
		if i == 0 {
			return 1e6
		}
		return 1
	}
	for _, fit := range []int{2, 8, 17, 32, 64} {
		gaps, _ := fillPackets(t, n, fit, 2000, prio, true)
		limit := (900+fit-2)/(fit-1) + 1
		worst := 0
		for i := 1; i < n; i++ {
			worst = max(worst, gaps[i])
		}
		if gaps[0] != 1 {
			t.Errorf("N=%d: the player waited %d packets", fit-1, gaps[0])
		}
		if worst > limit {
			t.Errorf("N=%d: a cube waited %d packets, limit %d", fit-1, worst, limit)
		}
		t.Logf("N=%2d grid updates/packet (+ the player): longest wait %d packets (limit ceil(900/%d)+1 = %d)", fit-1, worst, fit-1, limit)
	}
}

// TestPriorityAccumulatorVersusCurrentPriority: red cubes are sent far more
// often than grey ones with the accumulator, and without it the grey cubes
// beyond the first few are never sent at all.
func TestPriorityAccumulatorVersusCurrentPriority(t *testing.T) {
	const n, fit, ticks = 901, 32, 3000
	prio := func(i int) float64 {
		switch {
		case i == 0:
			return 1e6
		case i <= 100:
			return 100 // a katamari ball of 100 red cubes
		}
		return 1
	}
	gaps, sends := fillPackets(t, n, fit, ticks, prio, true)
	red, grey, greyWorst := 0, 0, 0
	for i := 1; i < n; i++ {
		if i <= 100 {
			red += sends[i]
		} else {
			grey += sends[i]
			greyWorst = max(greyWorst, gaps[i])
		}
	}
	ratio := (float64(red) / 100) / (float64(grey) / 800)
	t.Logf("accumulator: a red cube is sent %.1f× as often as a grey one; longest grey wait %d ticks", ratio, greyWorst)
	if ratio < 10 {
		t.Errorf("red/grey send ratio %.1f, want ≥ 10", ratio)
	}
	if greyWorst > 10*wire.TicksPerSecond {
		t.Errorf("a grey cube waited %d ticks", greyWorst)
	}

	_, sends = fillPackets(t, n, fit, ticks, prio, false)
	never := 0
	for i := 1; i < n; i++ {
		if sends[i] == 0 {
			never++
		}
	}
	t.Logf("current priority only: %d of 900 cubes never sent", never)
	if never < 800 {
		t.Errorf("without the accumulator only %d cubes starve, want ≥ 800", never)
	}
}

func TestPriorityOrderAllocs(t *testing.T) {
	p := NewPriorityAccumulator(901)
	n := testing.AllocsPerRun(20, func() {
		for i := range 901 {
			p.Add(i, float64(i%7))
		}
		p.ordered()
		p.Sent(3)
	})
	if n != 0 {
		t.Fatalf("%v allocations per tick", n)
	}
}

func BenchmarkPriorityTick(b *testing.B) {
	p := NewPriorityAccumulator(901)
	b.ReportAllocs()
	for b.Loop() {
		for i := range 901 {
			p.Add(i, 1)
		}
		o := p.ordered()
		for _, i := range o[:32] {
			p.Sent(int(i))
		}
	}
}

// TestRankIsOrder: walking Rank returns exactly Order's order, ties by
// index included, for accumulators with many equal values.
func TestRankIsOrder(t *testing.T) {
	p := NewPriorityAccumulator(901)
	for tick := range 50 {
		for i := range 901 {
			v := float64((i*7 + tick) % 5)
			if i%97 == 0 {
				v = 1e6
			}
			p.Add(i, v)
		}
		want := append([]int32(nil), p.ordered()...)
		r := p.Rank()
		for k := range want {
			got, ok := r.Next()
			if !ok || got != want[k] {
				t.Fatalf("tick %d: rank %d is %d (%v), want %d", tick, k, got, ok, want[k])
			}
		}
		if _, ok := r.Next(); ok {
			t.Fatal("the walk returned more than every object")
		}
		for _, i := range want[:20] {
			p.Sent(int(i))
		}
	}
}

func TestRankAllocs(t *testing.T) {
	p := NewPriorityAccumulator(901)
	n := testing.AllocsPerRun(20, func() {
		for i := range 901 {
			p.Add(i, float64(i%7))
		}
		r := p.Rank()
		for range 64 {
			r.Next()
		}
	})
	if n != 0 {
		t.Fatalf("%v allocations per tick", n)
	}
}

// TestRankGroupsIsOrder: a walk of RankGroups whose room shrinks returns
// exactly the objects of Order's order whose group's least room is at most
// the room when their turn comes, in that order, for accumulators with
// many equal values and groups of every size (one empty).
func TestRankGroupsIsOrder(t *testing.T) {
	const n = 901
	p := NewPriorityAccumulator(n)
	group := make([]uint8, n)
	least := []int{0, 20, 45, 70, 103, 120, 300, 1000}
	for tick := range 50 {
		for i := range n {
			v := float64((i*7 + tick) % 5)
			if i%97 == 0 {
				v = 1e6
			}
			p.Add(i, v)
			group[i] = uint8((i*i + tick) % 7) // group 7 stays empty
		}
		order := append([]int32(nil), p.ordered()...)
		r := p.RankGroups(group, least)
		room := 2000 + tick*10
		var want, got []int32
		for _, i := range order {
			if least[group[i]] <= room {
				want = append(want, i)
				room -= 1 + int(i)%40 // the walk takes it
			}
		}
		room = 2000 + tick*10
		for {
			i, ok := r.Next(room)
			if !ok {
				break
			}
			got = append(got, i)
			room -= 1 + int(i)%40
		}
		if !slices.Equal(got, want) {
			t.Fatalf("tick %d: the walk returned %d objects, want %d:\n%v\n%v", tick, len(got), len(want), got, want)
		}
		for _, i := range want[:20] {
			p.Sent(int(i))
		}
	}
}
