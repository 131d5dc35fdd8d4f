package snapshot

import (
	"bufio"
	"fmt"
	"hash/fnv"
	"os"
	"slices"
	"testing"
	"unsafe"

	"netcubes/game"
	"netcubes/geom"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
	"netcubes/wire/arith"
)

// TestFitSameAsReference: the correction fit (correctionFit.fit) gives the
// same integers as the plain form it was rewritten from (fitRef: each
// cube's whole prediction, the Jacobian's entries from a table), on the
// packets of a katamari session at level 12 with prediction, frame by
// frame, and the same offsets, residuals and last weights: the same
// additions in the same order, so the same bits.
func TestFitSameAsReference(t *testing.T) {
	sc := loadScript(t, "katamari")
	s, st := snapSession(t, link.PresetLAN.Config(), func(st *Strategy) {
		st.SetLevel(RangeCoded)
		st.SetPlayerPrediction(true)
	})
	var f, ref correctionFit
	fitted := 0
	for frame := range 360 {
		s.Step(sc.InputAt(frame))
		p := &st.send.packet
		if p.Initial || p.Baselines == nil {
			continue
		}
		base := p.Baselines.SnapshotBaseline(false, p.Baseline)
		if len(base) != len(p.Cubes) {
			continue
		}
		var pr snapPredictor
		pr.setup(&base[0], &p.Cubes[0])
		got, want := f.fit(&pr, base, p.Cubes), ref.fitRef(&pr, base, p.Cubes)
		if got != want {
			t.Fatalf("frame %d: fit %v, reference %v", frame, got, want)
		}
		// Bit for bit, not only once rounded: the last weights depend on
		// every sum.
		if f != ref {
			t.Fatalf("frame %d: the fits' offsets, residuals or weights differ", frame)
		}
		if got != [6]int32{} {
			fitted++
		}
	}
	// Most frames of the run move the player: the comparison must have
	// seen corrections, not only the zeros of too few cubes.
	if fitted < 100 {
		t.Errorf("%d frames fitted a correction", fitted)
	}
}

// fitRef is correctionFit.fit in its plain form: the reference.
func (f *correctionFit) fitRef(pr *snapPredictor, base, cur []Cube) (c [6]int32) {
	n := 0
	for i := 1; i < len(cur) && i < MaxCubes; i++ {
		b := &base[i]
		if cur[i].sameState(b) {
			continue
		}
		var p Cube
		if !pr.predict(b, &p) {
			continue
		}
		f.d[n] = geom.Rotate(pr.r, wire.DequantizePosition(b.Position, wire.SnapshotPositionResolution).Sub(pr.pb)).Mul(wire.SnapshotPositionResolution)
		for k := range 3 {
			f.r[n][k] = float64(cur[i].Position[k] - p.Position[k])
		}
		f.w[n] = 1
		n++
	}
	if n < 6 {
		return c
	}
	var x [6]float64
	for range 6 {
		var a [6][6]float64
		var v [6]float64
		for j := range n {
			d := f.d[j]
			jac := [3][3]struct {
				u int
				c float64
			}{
				{{1, d[2]}, {2, -d[1]}, {3, 1}},
				{{0, -d[2]}, {2, d[0]}, {4, 1}},
				{{0, d[1]}, {1, -d[0]}, {5, 1}},
			}
			for k := range 3 {
				for _, ju := range jac[k] {
					wu := float64(f.w[j] * ju.c)
					v[ju.u] += float64(wu * f.r[j][k])
					for _, js := range jac[k] {
						a[ju.u][js.u] += float64(wu * js.c)
					}
				}
			}
		}
		x = solve6(a, v)
		f.reweigh(x, n) // (unchanged by the new form: shared)
	}
	return roundCorrection(x)
}

// TestTraceDigests writes a digest of every trace the servers of 8-client
// katamari sessions at levels 12 and 13 publish, on each of the link
// presets over 300 frames (its key, steps, lines, memory and stats), one a
// line, sorted, to the file named by NETCUBES_TRACE_DIGESTS, and is
// skipped without it. It is how a change to the recording is checked
// step by step against the code before it: run it on both builds and
// compare the files (cmp). A trace's steps do not depend on which worker
// records it, so the file is the same run after run.
func TestTraceDigests(t *testing.T) {
	out := os.Getenv("NETCUBES_TRACE_DIGESTS")
	if out == "" {
		t.Skip("NETCUBES_TRACE_DIGESTS names no file")
	}
	sc := loadScript(t, "katamari")
	var lines []string
	for _, l := range []Level{RangeCoded, MotionPredicted} {
		for p := range link.Preset(link.NumPresets) {
			st := NewCompression()
			st.SetLevel(l)
			cfg := game.DefaultConfig()
			cfg.Strategies = []strategy.Strategy{st}
			cfg.Link = p.Config()
			cfg.Clients, cfg.Thin = 8, true
			cfg.World.Players = 4
			s, err := game.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			st.send.shared.traces.published = func(tr *trace) {
				lines = append(lines, fmt.Sprintf("%d %v %+v %d %x", l, p, tr.key, len(tr.steps), tr.digest()))
			}
			for f := range 300 {
				s.Step(sc.InputAt(f))
			}
		}
	}
	slices.Sort(lines)
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for _, x := range lines {
		fmt.Fprintln(w, x)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d traces", len(lines))
}

// digest hashes what a trace hands its replays: its key, stats, memory,
// lines and steps (every field).
func (tr *trace) digest() uint64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%+v %+v %d %v %v %v", tr.key, tr.stats, tr.n, tr.mem[:tr.n], tr.lines, tr.mask)
	if len(tr.steps) > 0 {
		h.Write(unsafe.Slice((*byte)(unsafe.Pointer(&tr.steps[0])), len(tr.steps)*int(unsafe.Sizeof(arith.Step{}))))
	}
	return h.Sum64()
}
