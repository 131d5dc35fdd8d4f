package snapshot

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/game"
	"netcubes/geom"
	"netcubes/internal/cputime"
	"netcubes/internal/testutil"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// TestCodedLevelsSurviveLossAndReordering: levels 12 and 13, with and
// without player prediction, and level 14 with it, over a link that loses, duplicates and
// reorders packets: every snapshot the right decodes is the left's state
// at that frame, bit for bit, and none is rejected. A packet's models
// start where its baseline's packet ended (entropy.go), and a baseline is
// always a snapshot the right acked, so a lost or late packet cannot
// desynchronize the decoder.
func TestCodedLevelsSurviveLossAndReordering(t *testing.T) {
	t.Parallel() // a whole session run of its own: CPU-bound, shares nothing
	sc := loadScript(t, "katamari")
	lc := link.PresetIntercontinental.Config()
	lc.LossPercent, lc.DuplicatePercent, lc.ReorderPercent, lc.JitterMs = 20, 5, 20, 30
	for _, l := range []Level{RangeCoded, MotionPredicted, TurnWithMiss} {
		for _, predict := range []bool{false, true} {
			if l == TurnWithMiss && !predict {
				continue // level 13 exactly: the turn is for player-predicted cubes
			}
			t.Run(fmt.Sprintf("%v/predict=%v", l, predict), func(t *testing.T) {
				s, st := snapSession(t, lc, func(st *Strategy) {
					st.SetLevel(l)
					st.SetPlayerPrediction(predict)
				})
				sent := map[int][]Cube{}
				seen := map[int]bool{} // snapshots checked once already
				checked := 0
				for f := 0; f < 600; f++ {
					s.Step(sc.InputAt(f))
					snap := make([]Cube, s.Left().NumCubes())
					for i := range snap {
						snap[i] = leftQuantized(s.Left(), l, i)
					}
					sent[s.Frame()] = snap
					// Each snapshot when it arrives, and every one held
					// once a second (a later packet must not change a
					// snapshot already decoded: they are baselines).
					all := s.Frame()%wire.TicksPerSecond == 0
					for k := 0; k < st.recv.buffer.Len(); k++ {
						e := st.recv.buffer.At(k)
						want, ok := sent[e.Frame]
						if !ok || e.Frame == 0 || (seen[e.Frame] && !all) {
							continue
						}
						seen[e.Frame] = true
						for i := range e.Cubes {
							if e.Cubes[i] != want[i] {
								t.Fatalf("frame %d: snapshot %d cube %d: right %+v, left %+v", s.Frame(), e.Frame, i, e.Cubes[i], want[i])
							}
						}
						checked++
					}
				}
				stats := st.Stats()
				if m := s.Metrics(); m.Rejected != 0 || stats.Rejected != 0 || stats.Received == 0 || m.Loss == 0 {
					t.Fatalf("rejected %d/%d, received %d, loss %v", m.Rejected, stats.Rejected, stats.Received, m.Loss)
				}
				if l >= MotionPredicted && stats.Total.Motion == 0 {
					t.Error("no cube predicted from its motion")
				}
				t.Logf("%d snapshots checked, %.1f bits per changed cube", checked, stats.Total.BitsPerChanged())
			})
		}
	}
}

// katamariPacket runs the katamari script at level l on the
// intercontinental link to frame 420 (the ball rolls) and returns the
// sender's last packet, its bytes and a decoding packet for them.
func katamariPacket(t testing.TB, l Level, predict bool) (*Packet, []byte, *Packet) {
	sc := loadScript(t, "katamari")
	s, st := snapSession(t, link.PresetIntercontinental.Config(), func(st *Strategy) {
		st.SetLevel(l)
		st.SetPlayerPrediction(predict)
	})
	for f := 0; f < 420; f++ {
		s.Step(sc.InputAt(f))
	}
	p := &st.send.packet
	if p.Stats.Changed < 20 || (l >= MotionPredicted && !p.Motion) {
		t.Fatalf("packet at frame 420: %+v motion %v", p.Stats, p.Motion)
	}
	w := wire.NewWriteStream(make([]byte, 64*1024))
	if err := p.Serialize(w); err != nil {
		t.Fatal(err)
	}
	n := len(p.Cubes)
	q := &Packet{Cubes: make([]Cube, n), Sent: make([]bool, n), Baselines: &st.send, Sequence: p.Sequence}
	return p, append([]byte(nil), w.Bytes()...), q
}

// TestCodedPacketsAreIndependent: packets decode in any order, with any
// packet missing, and a decoder that has decoded other packets decodes
// the same bits the same way: a packet depends on its baseline (its cubes
// and the models its packet ended with) and nothing else. Also
// a cut or padded payload is refused, and a corrupted one never panics.
func TestCodedPacketsAreIndependent(t *testing.T) {
	for _, l := range []Level{RangeCoded, MotionPredicted, TurnWithMiss} {
		p, data, q := katamariPacket(t, l, true)
		want := append([]Cube(nil), p.Cubes...)
		// The same reader decodes the packet three times, with other
		// (hostile) packets in between: the same cubes each time.
		for round := range 3 {
			if err := q.Serialize(wire.NewReadStream(data)); err != nil {
				t.Fatalf("%v round %d: %v", l, round, err)
			}
			for i := range want {
				if q.Cubes[i] != want[i] {
					t.Fatalf("%v round %d: cube %d differs", l, round, i)
				}
			}
			if q.Stats != p.Stats {
				t.Fatalf("%v: reader %+v, writer %+v", l, q.Stats, p.Stats)
			}
			bad := append([]byte(nil), data...)
			bad[len(bad)/2] ^= 0x5A
			_ = q.Serialize(wire.NewReadStream(bad))
		}
		if err := q.Serialize(wire.NewReadStream(data[:len(data)-1])); err == nil {
			t.Errorf("%v: a truncated packet decoded", l)
		}
		// Padding is refused: by the end check, or, when the bytes the
		// decoder reads past the payload change its last decisions, as a
		// read past the end.
		long := append(append([]byte(nil), data...), 0x7F, 0x01)
		if err := q.Serialize(wire.NewReadStream(long)); !errors.Is(err, wire.ErrValueOutOfRange) && !errors.Is(err, wire.ErrEndOfData) {
			t.Errorf("%v: a padded packet: %v", l, err)
		}
	}
}

// TestCodedBreakdown: the measure, write and read streams charge the
// coded payload to the same categories, with nothing to "other".
func TestCodedBreakdown(t *testing.T) {
	for _, l := range []Level{RangeCoded, MotionPredicted} {
		p, data, q := katamariPacket(t, l, true)
		m := wire.NewMeasureStream()
		if err := p.Serialize(m); err != nil {
			t.Fatal(err)
		}
		r := wire.NewReadStream(data)
		if err := q.Serialize(r); err != nil {
			t.Fatal(err)
		}
		mb, rb := m.Breakdown(), r.Breakdown()
		if mb != rb || mb.Bits(wire.CategoryOther) != 0 || mb.Bits(wire.CategoryPosition) == 0 ||
			mb.Bits(wire.CategoryOrientation) == 0 || mb.Bits(wire.CategoryFlags) == 0 {
			t.Errorf("%v: measured %v, read %v", l, mb, rb)
		}
	}
}

// TestCodedNoAllocs: encoding and decoding a warm level 12, 13 or 14 packet
// allocates nothing.
func TestCodedNoAllocs(t *testing.T) {
	for _, l := range []Level{RangeCoded, MotionPredicted, TurnWithMiss} {
		p, data, q := katamariPacket(t, l, true)
		w := wire.NewWriteStream(make([]byte, 64*1024))
		r := wire.NewReadStream(data)
		if n := testing.AllocsPerRun(20, func() {
			w.Reset(w.Bytes()[:cap(w.Bytes())])
			_ = p.Serialize(w)
			r.Reset(data)
			_ = q.Serialize(r)
		}); n != 0 {
			t.Errorf("%v: %v allocations per encode + decode", l, n)
		}
	}
}

// BenchmarkCodedPacket: encode + decode of one katamari packet (about a
// hundred changed cubes) at levels 12, 13 and 14, against level 11.
func BenchmarkCodedPacket(b *testing.B) {
	for _, l := range []Level{ChangedFields, RangeCoded, MotionPredicted, TurnWithMiss} {
		b.Run(fmt.Sprintf("level%d", l), func(b *testing.B) {
			p, data, q := katamariPacket(b, l, true)
			buf := make([]byte, 64*1024)
			w := wire.NewWriteStream(buf)
			r := wire.NewReadStream(data)
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				w.Reset(buf)
				if err := p.Serialize(w); err != nil {
					b.Fatal(err)
				}
				r.Reset(w.Bytes())
				if err := q.Serialize(r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCodedSides: a level 12, 13 or 14 katamari packet's encoder (the
// server's measure pass, which its write then sends again), its replay
// (the same packet coded from another client's trace of its decisions,
// trace.go: the models copied in, then mixing, coding and updating them),
// its recording (the first client's pass: deciding, recording the trace,
// then replaying it), its deciding alone (the recording's dry pass: the
// decisions made and recorded, nothing coded) and its decoder apart, each with its coded decisions per second and its
// thread CPU time per packet (steadier than the wall time on a shared
// machine): the figures to hold against a range coder's throughput (the
// decisions, not the few hundred bytes they code to, are the work).
func BenchmarkCodedSides(b *testing.B) {
	for _, l := range []Level{RangeCoded, MotionPredicted, TurnWithMiss} {
		p, data, q := katamariPacket(b, l, true)
		m := wire.NewMeasureStream()
		r := wire.NewReadStream(data)
		decisions := codedDecisions(b, p)
		for _, side := range []string{"encode", "replay", "record", "decide", "decode"} {
			if (side == "replay" || side == "record" || side == "decide") && l >= TurnWithMiss {
				continue // level 14 records no traces
			}
			b.Run(fmt.Sprintf("level%d/%s", l, side), func(b *testing.B) {
				p.traces = nil
				if side == "record" || side == "decide" {
					p.traces = &traceShare{}
				}
				// The dry pass reads the packet's models' memory: those of
				// a pass coded first.
				base := p.Baselines.SnapshotBaseline(p.Initial, p.Baseline)
				if side == "decide" {
					m.Reset()
					if err := p.Serialize(m); err != nil {
						b.Fatal(err)
					}
				}
				if side == "replay" {
					// The first pass records the trace, the others replay it.
					p.traces = &traceShare{}
					m.Reset()
					if err := p.Serialize(m); err != nil {
						b.Fatal(err)
					}
				}
				defer func() { p.traces = nil }()
				b.ReportAllocs()
				b.SetBytes(int64(len(data)))
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				cpu0, _ := cputime.Thread()
				for b.Loop() {
					var err error
					switch side {
					case "decode":
						r.Reset(data)
						err = q.Serialize(r)
					case "decide":
						p.traces.frame = -1 // a new tick: a new trace
						t, _ := p.traces.claim(p.traceKeyOf())
						p.pred.ready, p.pred2.ready, p.Stats = false, false, PacketStats{}
						err = p.recordDecisions(p.ent, base, t)
					default:
						if side == "record" {
							p.traces.frame = -1 // a new tick: this pass records
						}
						m.Reset()
						err = p.Serialize(m)
					}
					if err != nil {
						b.Fatal(err)
					}
				}
				cpu1, _ := cputime.Thread()
				if side == "replay" && p.traces.replayed != b.N {
					b.Fatalf("%d packets replayed of %d", p.traces.replayed, b.N)
				}
				cpuPer := float64(cpu1-cpu0) / float64(b.N)
				b.ReportMetric(cpuPer/1e3, "cpu-µs/packet")
				b.ReportMetric(float64(len(data))/cpuPer*1e3, "cpu-MB/s")
				b.ReportMetric(float64(decisions), "decisions/packet")
				b.ReportMetric(float64(decisions)/cpuPer*1e3, "cpu-Mdecisions/s")
			})
		}
	}
}

// codedDecisions counts the binary decisions (modelled and direct) p's
// coding makes.
func codedDecisions(t testing.TB, p *Packet) int {
	m := wire.NewMeasureStream()
	if err := p.Serialize(m); err != nil {
		t.Fatal(err)
	}
	return p.ent.enc.Decisions()
}

// modelessBaselines holds the baselines' cubes but not their models.
type modelessBaselines struct{ s *snapshotSender }

func (m modelessBaselines) SnapshotBaseline(initial bool, seq uint16) []Cube {
	return m.s.SnapshotBaseline(initial, seq)
}

// TestCarriedModels: in a running session a level 12-14 packet starts from
// its baseline's models (Carried). A decoder that holds the baseline's
// cubes but not those models refuses it, as the header bit lets it, rather
// than decode garbage; the same packet coded from fresh models decodes
// without them and is larger.
func TestCarriedModels(t *testing.T) {
	for _, l := range []Level{RangeCoded, MotionPredicted, TurnWithMiss} {
		p, data, q := katamariPacket(t, l, true)
		if !p.Carried {
			t.Fatalf("%v: the packet at frame 420 starts from fresh models", l)
		}
		q.Baselines = modelessBaselines{q.Baselines.(*snapshotSender)}
		if err := q.Serialize(wire.NewReadStream(data)); !errors.Is(err, ErrNoBaseline) {
			t.Errorf("%v: decoded without the baseline's models: %v", l, err)
		}
		p.Carried = false
		w := wire.NewWriteStream(make([]byte, 64*1024))
		if err := p.Serialize(w); err != nil {
			t.Fatal(err)
		}
		if err := q.Serialize(wire.NewReadStream(w.Bytes())); err != nil {
			t.Errorf("%v: fresh models need nothing but the cubes: %v", l, err)
		}
		t.Logf("%v: %d bytes from the baseline's models, %d from fresh ones", l, len(data), len(w.Bytes()))
		if len(w.Bytes()) <= len(data) {
			t.Errorf("%v: carried models %d bytes, fresh %d: carrying bought nothing", l, len(data), len(w.Bytes()))
		}
	}
}

// TestResidualMemory: a packet's models end with each cube's residual
// size (mem, the second model's context of the next packet against this
// one): non-zero exactly for the cubes it carried, and the decoder ends
// with the same memory and mixer weights as the encoder, or a packet that
// carries them on would decode differently.
func TestResidualMemory(t *testing.T) {
	for _, l := range []Level{RangeCoded, MotionPredicted} {
		p, data, q := katamariPacket(t, l, true)
		if err := q.Serialize(wire.NewReadStream(data)); err != nil {
			t.Fatal(err)
		}
		base := p.Baselines.SnapshotBaseline(false, p.Baseline)
		pm, qm := p.models(), q.models()
		for i := range p.Cubes {
			if changed := !p.Cubes[i].sameState(&base[i]); changed != (pm.mem[i] != 0) {
				t.Fatalf("%v cube %d: changed %v, memory %d", l, i, changed, pm.mem[i])
			}
		}
		if *pm != *qm {
			t.Fatalf("%v: the decoder's models differ from the encoder's", l)
		}
	}
}

// TestCorrectionFit: the encoder's fit of the player prediction's
// correction recovers a rotation and a shift the ball shares beyond the
// player's, and a packet predicted with it decodes to the bit. Cubes
// around a player that turned by R, then all by a further 3/512 rad about
// z and shifted by (2, −1, 0) grid units: the fit must send about that,
// and predicting with it must leave residuals of a unit or so, where the
// uncorrected prediction is several units off.
func TestCorrectionFit(t *testing.T) {
	const n = 60
	rz := func(a float64) mgl64.Quat { return mgl64.QuatRotate(a, mgl64.Vec3{0, 0, 1}) }
	const res = wire.SnapshotPositionResolution
	player := Cube{Position: wire.QuantizePosition(mgl64.Vec3{10, 5, 1}, res),
		Orientation: wire.QuantizeQuat(mgl64.QuatIdent(), wire.SnapshotOrientationBits)}
	turn := rz(0.3)
	extra := rz(3 * CorrectionStep)
	base := make([]Cube, n)
	cur := make([]Cube, n)
	base[0] = player
	cur[0] = player
	cur[0].Orientation = wire.QuantizeQuat(turn, wire.SnapshotOrientationBits)
	var pr snapPredictor
	pr.setup(&base[0], &cur[0])
	for i := 1; i < n; i++ {
		a := float64(i) * 0.7
		off := mgl64.Vec3{1.5 * math.Cos(a), 1.5 * math.Sin(a), 0.3 * math.Sin(3*a)}
		base[i] = Cube{Position: wire.QuantizePosition(pr.pb.Add(off), res),
			Orientation: wire.QuantizeQuat(rz(a), wire.SnapshotOrientationBits)}
		moved := geom.Rotate(extra, geom.Rotate(pr.r, wire.DequantizePosition(base[i].Position, res).Sub(pr.pb)))
		cur[i] = base[i]
		cur[i].Position = wire.QuantizePosition(pr.pn.Add(moved).Add(mgl64.Vec3{2.0 / res, -1.0 / res, 0}), res)
	}
	var f correctionFit
	c := f.fit(&pr, base, cur)
	want := [6]int32{0, 0, 3, 2, -1, 0}
	for k := range c {
		if d := c[k] - want[k]; d < -1 || d > 1 {
			t.Fatalf("fitted %v, want about %v", c, want)
		}
	}
	worst := func(pr *snapPredictor) (m int64) {
		for i := 1; i < n; i++ {
			var p Cube
			if !pr.predict(&base[i], &p) {
				t.Fatalf("cube %d not predicted", i)
			}
			m = max(m, maxDiff(p.Position[:], cur[i].Position[:]))
		}
		return m
	}
	before := worst(&pr)
	pr.correct(c)
	after := worst(&pr)
	if after > 1 || before < 4 {
		t.Errorf("largest residual %d grid units uncorrected, %d corrected", before, after)
	}
	// A zero correction leaves the prediction exactly as it was.
	var p1, p2 snapPredictor
	p1.setup(&base[0], &cur[0])
	p2 = p1
	p2.correct([6]int32{})
	if p1 != p2 {
		t.Errorf("a zero correction changed the predictor: %+v, %+v", p1, p2)
	}
	// Coded: a level 12 packet predicting from the player carries the
	// correction and decodes exactly.
	bl := &testBaselines{initial: base, snap: base}
	pk := &Packet{Level: RangeCoded, Baseline: 100, Predict: true, Cubes: cur, Baselines: bl}
	data, _ := encodeSnapshot(t, pk)
	q, err := decodeSnapshot(data, n, bl)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cur {
		if q.Cubes[i] != cur[i] {
			t.Fatalf("cube %d decoded %+v, want %+v", i, q.Cubes[i], cur[i])
		}
	}
}

// TestHistClass: the history class's edges (a change would change the
// level 13 format: TestSnapshotGolden pins it too).
func TestHistClass(t *testing.T) {
	for d, want := range map[int64]int{0: 0, 4: 0, 5: 1, 11: 1, 12: 2, 1000: 2} {
		if got := histClass(d); got != want {
			t.Errorf("histClass(%d) = %d, want %d", d, got, want)
		}
	}
}

// TestEdgeClass: how near a reference orientation is to swapping its
// largest component, from its largest small component (the level 12-13
// format depends on these edges; TestSnapshotGolden pins it too).
func TestEdgeClass(t *testing.T) {
	q := wire.SmallestThreeMax(wire.SnapshotOrientationBits)
	for _, c := range []struct {
		small [3]int32
		want  int
	}{{[3]int32{0, 0, 0}, 2}, {[3]int32{q, 0, 0}, 0}, {[3]int32{0, -(q - 15), 3}, 0}, {[3]int32{1, 2, q - 16}, 1},
		{[3]int32{-(q - 63), 0, 0}, 1}, {[3]int32{q - 64, 0, 0}, 2}} {
		if got := edgeClass(&c.small); got != c.want {
			t.Errorf("edgeClass(%v) = %d, want %d", c.small, got, c.want)
		}
	}
}

// TestNeighbourSumMatchesScan: the spatial hash behind the neighbour
// correction finds exactly the cubes a scan of every entry finds, for
// points spread over cell corners, negative coordinates and hash
// collisions, at levels 12-13's radius and level 14's; so it changes
// speed, never bits.
func TestNeighbourSumMatchesScan(t *testing.T) {
	rng := wire.NewRNG(7)
	e := &entropyState{}
	for round := range 40 {
		e.nbrReset()
		if round%2 == 1 {
			e.nbrRadius, e.nbrShift = neighbourRadius14, nbrCellShift14
		}
		spread := int64(256 << (round / 2 % 6)) // from one cell to many
		n := 1 + int(rng.Uint64()%MaxCubes)
		for range n {
			var pos wire.QuantizedVec3
			var res [3]int32
			for k := range 3 {
				pos[k] = int32(int64(rng.Uint64()%uint64(2*spread)) - spread)
				res[k] = int32(rng.Uint64()%64) - 32
			}
			e.nbrAdd(pos, refMotion+uint8(rng.Uint64()%2), res)
		}
		for range 200 {
			var pos wire.QuantizedVec3
			for k := range 3 {
				pos[k] = int32(int64(rng.Uint64()%uint64(2*spread)) - spread)
			}
			kind := refMotion + uint8(rng.Uint64()%2)
			var want [3]int64
			var wantN int64
			for j := range e.nbrN {
				var d2 int64
				for k := range 3 {
					d := int64(e.nbrPos[j][k]) - int64(pos[k])
					d2 += d * d
				}
				if e.nbrKind[j] == kind && d2 < e.nbrRadius*e.nbrRadius {
					for k := range 3 {
						want[k] += int64(e.nbrRes[j][k])
					}
					wantN++
				}
			}
			if sum, cnt := e.nbrSum(pos, kind); sum != want || cnt != wantN {
				t.Fatalf("round %d at %v: %v over %d, the scan finds %v over %d", round, pos, sum, cnt, want, wantN)
			}
		}
	}
}

// TestModelsSize: every level 12-13 snapshot kept on either side holds a
// copy of the models (Entry.Models), and every coded packet copies them
// twice; a model added carelessly (a full Golomb per context where a
// GolombContext would do) multiplies that. 316 kB today.
func TestModelsSize(t *testing.T) {
	if n := unsafe.Sizeof(entropyModels{}); n > 330<<10 {
		t.Errorf("entropyModels is %d bytes", n)
	}
	// A buffer slot holds its models by pointer, allocated when a level
	// 12-13 packet is kept: inline, every snapshot buffer of every level
	// would hold them (61 MB for the default 64 + 128 snapshots).
	if n := unsafe.Sizeof(Entry{}); n > 1<<10 {
		t.Errorf("a buffer entry is %d bytes: the models are held inline", n)
	}
	b := NewBuffer(4, 8, false)
	e := b.Insert(1)
	keepModels(e, &Packet{Level: ChangedFields}, &modelPool{})
	if e.HasModels || e.Models != nil {
		t.Errorf("a level 11 snapshot kept models")
	}
}

// TestMotionPredictionOrientation: predictMotion turns a cube on by its
// turn between the baselines (here 3° about z per frame, two frames
// apart, extrapolated six frames: 18° more), across a change of the
// largest component too, and leaves a cube lying on the ground, or
// barely moving, where it is.
func TestMotionPredictionOrientation(t *testing.T) {
	const bits = wire.SnapshotOrientationBits
	mr := motionRef{age: 6, span: 2}
	rot := func(deg float64) wire.QuantizedQuat {
		return wire.QuantizeQuat(mgl64.QuatRotate(deg*math.Pi/180, mgl64.Vec3{0, 0, 1}), bits)
	}
	for _, start := range []float64{10, 80, 83} { // 83 + 6 + 18 crosses 90°: w stops being largest
		b2 := Cube{Position: wire.QuantizedVec3{0, 0, 2000}, Orientation: rot(start)}
		b1 := Cube{Position: wire.QuantizedVec3{0, 0, 2000}, Orientation: rot(start + 6)}
		var out Cube
		mr.predictMotion(&b1, &b2, &out)
		want := rot(start + 24)
		if out.Orientation.Largest != want.Largest || maxDiff(out.Orientation.Small[:], want.Small[:]) > 2 {
			t.Errorf("from %v°: predicted %+v, want about %+v", start, out.Orientation, want)
		}
	}
	// On the ground, moving: stays.
	b2 := Cube{Position: wire.QuantizedVec3{0, 0, zGround}, Orientation: rot(0)}
	b1 := Cube{Position: wire.QuantizedVec3{40, 0, zGround}, Orientation: rot(6)}
	var out Cube
	mr.predictMotion(&b1, &b2, &out)
	if out != b1 {
		t.Errorf("a cube on the ground predicted %+v, want where it lies", out)
	}
	// In the air, barely moving: stays; moving: goes on, not below ground.
	b2 = Cube{Position: wire.QuantizedVec3{0, 0, 1000}, Orientation: rot(0)}
	b1 = Cube{Position: wire.QuantizedVec3{jitter, 0, 1000 - jitter}, Orientation: rot(0)}
	mr.predictMotion(&b1, &b2, &out)
	if out != b1 {
		t.Errorf("a barely moving cube predicted %+v, want where it is", out)
	}
	b1.Position = wire.QuantizedVec3{100, 0, 300}
	b2.Position = wire.QuantizedVec3{0, 0, 600}
	mr.predictMotion(&b1, &b2, &out)
	if out.Position != (wire.QuantizedVec3{400, 0, zGround}) {
		t.Errorf("a falling cube predicted at %v, want (400, 0, %d)", out.Position, zGround)
	}
}

// TestModelsOnlyForPossibleBaselines: at levels 12 and 13, on a lossy and
// reordering link, each side keeps models only for the snapshots that can
// still become a baseline, about one round trip of packets (the sender:
// its newest acked snapshot and those in flight; the receiver: one
// delay's worth more, for packets still on their way), not one per slot
// (64 + 128); and the packets are byte for byte those of a session that
// keeps every slot's models: no packet found its models gone.
func TestModelsOnlyForPossibleBaselines(t *testing.T) {
	sc := testutil.Katamari(t)
	for _, c := range []struct {
		lvl Level
		p   link.Preset
	}{{RangeCoded, link.PresetIntercontinental}, {MotionPredicted, link.PresetTerrible}} {
		run := func(keepAll bool) (bytes []int, st *Strategy) {
			st = NewCompression()
			st.SetLevel(c.lvl)
			cfg := game.DefaultConfig()
			cfg.Strategies = []strategy.Strategy{st}
			cfg.Link = c.p.Config()
			cfg.Tap = func(toRight bool, data []byte) {
				if toRight {
					bytes = append(bytes, len(data))
				}
			}
			s, err := game.New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			st.send.keepAll, st.recv.keepAll = keepAll, keepAll
			for f := 0; f < 450; f++ {
				s.Step(sc.InputAt(f))
			}
			return bytes, st
		}
		got, st := run(false)
		want, _ := run(true)
		lc := c.p.Config()
		oneWay := int(math.Ceil((lc.LatencyMs + lc.JitterMs + lc.ReorderExtraMs) * wire.TicksPerSecond / 1000))
		rtt := 2*oneWay + 2
		sent, recv := heldModels(st.send.history), heldModels(st.recv.buffer)
		t.Logf("level %d, %s: models held by the sender %d, the receiver %d (a round trip ≤ %d ticks)", c.lvl, c.p, sent, recv, rtt)
		if len(got) < 400 || !slices.Equal(got, want) {
			t.Errorf("level %d, %s: the %d packets differ from the %d of a session keeping every slot's models", c.lvl, c.p, len(got), len(want))
		}
		if sent > rtt+2 || recv > 2*rtt+8 {
			t.Errorf("level %d, %s: %d and %d snapshots hold models, a round trip is %d ticks", c.lvl, c.p, sent, recv, rtt)
		}
	}
}

// TestServerSharingSameBits: a server with several clients at level 12
// or 13 codes each packet once (the write sends the payload the measure
// coded), fits the player prediction's correction once per baseline for
// all its clients, and codes a packet once for all the clients whose
// chains of baselines agree; every client's packets are the bits of a
// server that does none of it, on a perfect link (every client acks the
// same snapshots: the packets are shared) and a lossy one (each its own).
func TestServerSharingSameBits(t *testing.T) {
	t.Parallel() // whole sessions of their own: CPU-bound, shares nothing
	sc := loadScript(t, "katamari")
	const clients, frames = 2, 200
	// run returns a hash of every data packet the server sent, in order
	// (two clients are sent to one after the other), and the sharing's
	// figures.
	run := func(l Level, p link.Preset, apart bool) (uint64, int, int) {
		st := NewCompression()
		st.SetLevel(l)
		cfg := game.DefaultConfig()
		cfg.Strategies = []strategy.Strategy{st}
		cfg.Link = p.Config()
		cfg.Clients, cfg.Thin = clients, true
		sent := fnv.New64a()
		cfg.Tap = func(toRight bool, data []byte) {
			if toRight {
				sent.Write(data)
			}
		}
		s, err := game.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		st.send.shared.apart = apart
		for f := range frames {
			s.Step(sc.InputAt(f))
		}
		return sent.Sum64(), st.send.shared.fits.found, st.send.shared.packets.taken
	}
	for _, c := range []struct {
		l Level
		p link.Preset
	}{{RangeCoded, link.PresetPerfect}, {MotionPredicted, link.PresetPerfect}, {MotionPredicted, link.PresetIntercontinental},
		{MotionPredicted, link.PresetTerrible}, {TurnWithMiss, link.PresetIntercontinental}} {
		shared, found, taken := run(c.l, c.p, false)
		apart, none, noneTaken := run(c.l, c.p, true)
		if shared != apart {
			t.Errorf("level %d, %s: packets hash %x shared, %x apart", c.l, c.p, shared, apart)
		}
		// On a lossy link the clients' chains part after the first
		// losses, but packets must have been shared until then, or the
		// comparison above would not check sharing at all.
		if none != 0 || noneTaken != 0 || (c.p == link.PresetPerfect && taken < (clients-1)*frames*9/10) ||
			(c.p != link.PresetPerfect && (found == 0 || taken == 0)) {
			t.Errorf("level %d, %s: %d fits and %d packets shared (%d and %d apart)", c.l, c.p, found, taken, none, noneTaken)
		}
		t.Logf("level %d, %s: %d fits and %d packets shared", c.l, c.p, found, taken)
	}
}

// TestReplayedSameBits: many clients on lossy links, where most packets
// are coded from another client's trace of their decisions (trace.go)
// against the client's own models, and the tick's quantized world is lent
// rather than copied: every packet is the bits of the plain path (apart:
// each client decides, copies and codes everything itself). The tap makes
// the session send serially, in client order; TestParallelSendsSameBits
// checks that two cores send the same bits as one.
func TestReplayedSameBits(t *testing.T) {
	t.Parallel() // whole sessions of their own: CPU-bound, shares nothing
	sc := loadScript(t, "katamari")
	const clients, frames = 12, 120
	run := func(l Level, p link.Preset, apart bool) (uint64, int, *quantized) {
		st := NewCompression()
		st.SetLevel(l)
		cfg := game.DefaultConfig()
		cfg.Strategies = []strategy.Strategy{st}
		cfg.Link = p.Config()
		cfg.Clients, cfg.Thin = clients, true
		cfg.World.Players = 4
		sent := fnv.New64a()
		cfg.Tap = func(toRight bool, data []byte) {
			if toRight {
				sent.Write(data)
			}
		}
		s, err := game.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		st.send.shared.apart = apart
		for f := range frames {
			s.Step(sc.InputAt(f))
		}
		return sent.Sum64(), st.send.shared.traces.replayed, st.send.shared
	}
	// Level 14's decisions depend on each client's own carried models (its
	// turn's slope): it records and replays nothing, and its packets must
	// still be the plain path's.
	cases := []struct {
		l      Level
		p      link.Preset
		replay bool
	}{{MotionPredicted, link.PresetIntercontinental, true}, {MotionPredicted, link.PresetTerrible, true}, {TurnWithMiss, link.PresetIntercontinental, false}}
	for _, c := range cases {
		p := c.p
		shared, replayed, q := run(c.l, p, false)
		apart, none, _ := run(c.l, p, true)
		if shared != apart {
			t.Errorf("level %d, %s: packets hash %x replayed, %x apart", c.l, p, shared, apart)
		}
		// Packets must have been replayed (almost half of them on the
		// intercontinental link, an eighth on the terrible one: the others
		// are copied whole, record a trace, or change nothing), or the
		// comparison above would not check the replay.
		if !c.replay {
			if replayed != 0 {
				t.Errorf("level %d: %d packets replayed", c.l, replayed)
			}
			continue
		}
		if none != 0 || replayed < clients*frames/10 {
			t.Errorf("%s: %d packets replayed (%d apart) of %d", p, replayed, none, clients*frames)
		}
		// Replays code in their baseline's models, lent (lend.go), and a
		// baseline named again after lending them is copied from the
		// storage it lent them to: both must have happened, or the
		// comparison would not check them.
		// So do the recorders once their decisions are recorded
		// (wholeModels), which read their baseline's memory before, from
		// a lender's storage when it lent them; and copies must have
		// passed over lines clean in both models (copyModelsFrom).
		lends, rebuilt := q.lends.Load(), q.rebuilt.Load()
		recLends, recMem := q.traces.recorderLends.Load(), q.traces.recorderMem.Load()
		if lends-recLends == 0 || rebuilt == 0 || recLends == 0 || recMem == 0 || q.cleanSkipped.Load() == 0 {
			t.Errorf("%s: %d of %d replays and %d recorders lent their baseline's models, %d copied from a lender, %d recorders read a lender's memory",
				p, lends-recLends, replayed, recLends, rebuilt, recMem)
		}
		t.Logf("%s: %d of %d packets replayed, %d of them in their baseline's models lent; %d recorders lent theirs, %d read a lender's memory; %d models copied from a lender; %d clean lines not copied",
			p, replayed, clients*frames, lends-recLends, recLends, recMem, rebuilt, q.cleanSkipped.Load())
	}
}

// TestCopyModelsFrom: a copy that passes over the lines clean in both
// models gives the models a whole copy gives, whichever lines either has
// written (runs of lines across the bitmap's words, the whole models, the
// last line, none).
func TestCopyModelsFrom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var src, dst entropyModels
	size := int(unsafe.Offsetof(entropyModels{}.clean))
	scribble := func(m *entropyModels, lines []int) {
		b := modelBytes(m)
		for _, l := range lines {
			off := l * modelLine
			n := min(modelLine, size-off)
			for i := range n {
				b[off+i] = byte(rng.Uint32())
			}
			m.unclean(off, n)
		}
	}
	last := (size - 1) / modelLine
	cases := [][2][]int{
		{nil, nil},
		{{0, 1, 2, 63, 64, 65, 127, 128}, {5}},
		{{last}, {last - 1, last}},
	}
	var all []int
	for l := 0; l <= last; l++ {
		all = append(all, l)
	}
	cases = append(cases, [2][]int{all, nil}, [2][]int{nil, all})
	for range 20 {
		var a, b []int
		for l := 0; l <= last; l++ {
			if rng.IntN(4) == 0 {
				a = append(a, l)
			}
			if rng.IntN(3) == 0 {
				b = append(b, l)
			}
		}
		cases = append(cases, [2][]int{a, b})
	}
	for i, c := range cases {
		src.reset()
		dst.reset()
		scribble(&src, c[0])
		scribble(&dst, c[1])
		skipped := copyModelsFrom(&dst, &src)
		if dst != src {
			t.Fatalf("case %d: the copy differs from its source", i)
		}
		// Passed over: the lines clean after reset (those wholly before
		// clean) that neither wrote.
		want := size / modelLine
		for l := range union(c[0], c[1]) {
			if l < size/modelLine {
				want--
			}
		}
		if skipped != want {
			t.Errorf("case %d: %d lines passed over, want %d", i, skipped, want)
		}
	}
}

// union is the distinct values of a and b.
func union(a, b []int) map[int]bool {
	u := map[int]bool{}
	for _, v := range a {
		u[v] = true
	}
	for _, v := range b {
		u[v] = true
	}
	return u
}

// TestPayloadBits: payloadBits gathers the same bits as reading them one
// at a time, at every offset and width.
func TestPayloadBits(t *testing.T) {
	payload := []byte{0x5a, 0xc3, 0xff, 0x00, 0x81, 0x7e, 0x24, 0xe7, 0x99}
	for off := 0; off < len(payload)*8; off++ {
		for k := 1; k <= min(32, len(payload)*8-off); k++ {
			var want uint32
			for j := range k {
				bit := off + j
				want |= uint32(payload[bit/8]>>uint(bit%8)&1) << uint(j)
			}
			if got := payloadBits(payload, off, k); got != want {
				t.Fatalf("bits %d..%d: %#x, one at a time %#x", off, off+k-1, got, want)
			}
		}
	}
}

// TestThinClientsKeepNoPoses: a thin client (the scale bench's: it only
// decodes and acks) lets go of every decoded pose each tick, since
// nothing interpolates them; the shown client keeps the ones its
// interpolation reads. (At 64 clients the thin clients' poses were a
// third of the bench's heap.)
func TestThinClientsKeepNoPoses(t *testing.T) {
	sc := loadScript(t, "katamari")
	st := NewCompression()
	st.SetLevel(MotionPredicted)
	cfg := game.DefaultConfig()
	cfg.Strategies = []strategy.Strategy{st}
	cfg.Link = link.PresetIntercontinental.Config()
	cfg.Clients, cfg.Thin = 3, true
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for f := range 90 {
		s.Step(sc.InputAt(f))
	}
	posed := func(k int) (n int) {
		b := s.ClientStrategy(k).(*Strategy).recv.buffer
		for i := range b.slots {
			if b.slots[i].Poses != nil {
				n++
			}
		}
		return n
	}
	if n := posed(0); n < 2 {
		t.Errorf("the shown client holds %d decoded snapshots, want the interpolation's (2 or more)", n)
	}
	for k := 1; k < 3; k++ {
		if n := posed(k); n != 0 {
			t.Errorf("thin client %d holds %d decoded snapshots, want none", k, n)
		}
	}
}
