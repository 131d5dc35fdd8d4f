package game

import (
	"reflect"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/udp"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// sampleReport is a report with every part set, for a world of n cubes.
func sampleReport(n int) report {
	r := report{frame: 1234, hasError: true, errRMSmm: 12, errMaxmm: 345, hasDelay: true, delayMs: 83,
		hasRates: true, tps10: 600, fps10: 143, hasView: true, back16: 80, anyFrame: true, numCubes: uint16(n), unsent: 2}
	r.red = make([]bool, n)
	r.red[3], r.red[n-1] = true, true
	for _, i := range []int{0, 7, n - 1} {
		r.cubes = append(r.cubes, reportCube{index: uint16(i), diagCube: diagCube{
			pos: wire.QuantizePosition(mgl64.Vec3{1, -2, 3}, diagResolution)}})
	}
	return r
}

func writeReportBody(t testing.TB, r *report, n int) []byte {
	t.Helper()
	w := wire.NewWriteStream(make([]byte, reportBufBytes))
	if err := r.serialize(w, n); err != nil {
		t.Fatal(err)
	}
	if err := w.SerializeAlign(); err != nil {
		t.Fatal(err)
	}
	return append([]byte(nil), w.Bytes()...)
}

// TestReportRoundTrip: a report reads back as written, within its bound
// in bytes; a body for another world, a cube twice, out of order, or cut
// short is refused.
func TestReportRoundTrip(t *testing.T) {
	const n = 901
	r := sampleReport(n)
	body := writeReportBody(t, &r, n)
	var got report
	if err := readReport(&got, body, n, wire.NewReadStream(nil)); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, r) {
		t.Fatalf("read back %+v, wrote %+v", got, r)
	}
	full := sampleReport(n)
	full.cubes = full.cubes[:0]
	for i := range MaxReportCubes {
		full.cubes = append(full.cubes, reportCube{index: uint16(i * 9)})
	}
	if b := writeReportBody(t, &full, n); len(b) > 1400 {
		t.Errorf("a full report is %d bytes, want at most 1400 (the room's messages are 2 kB)", len(b))
	}
	bad := map[string]func(*report){
		"a cube twice":     func(r *report) { r.cubes[1].index = r.cubes[0].index },
		"cubes backwards":  func(r *report) { r.cubes[0].index, r.cubes[1].index = 9, 8 },
		"unsent past all":  func(r *report) { r.unsent = uint16(n) + 1 },
		"an absurd frame":  func(r *report) { r.frame = wire.MaxFrame + 1 },
		"a cube past them": func(r *report) { r.cubes[2].index = uint16(n) },
	}
	for name, spoil := range bad {
		b := sampleReport(n)
		spoil(&b)
		w := wire.NewWriteStream(make([]byte, reportBufBytes))
		if b.serialize(w, n) == nil && w.SerializeAlign() == nil {
			if readReport(&got, w.Bytes(), n, wire.NewReadStream(nil)) == nil {
				t.Errorf("%s: read as valid", name)
			}
		}
	}
	if readReport(&got, body, n-1, wire.NewReadStream(nil)) == nil {
		t.Error("a report of another world's cube count was read")
	}
	for cut := range len(body) - 1 {
		if readReport(&got, body[:cut], n, wire.NewReadStream(nil)) == nil {
			t.Fatalf("a report cut to %d of %d bytes was read", cut, len(body))
		}
	}
}

// TestRightReportsToLeft: over UDP on loopback, a right's reports reach
// its left three times a second with its figures and rates, the left
// rebuilds its view within the report's tolerance of what the right drew,
// hostile or too frequent reports are counted and change nothing, and
// the data packets are those of a run without reports (TestTwoProcesses-
// MatchOneProcess checks them byte for byte).
func TestRightReportsToLeft(t *testing.T) {
	sc, err := cubes.LoadScript("katamari")
	if err != nil {
		t.Fatal(err)
	}
	p := newProcPair(t, 0)
	p.right.SetLocalRates(59.5, 23)
	var drawn []cubes.CubeState
	for f := range 2 * wire.TicksPerSecond {
		p.step(sc.InputAt(f))
		if p.right.tp.tick%ReportEvery == 0 && p.right.tp.rep.out.hasView {
			drawn = drawn[:0]
			for _, c := range p.right.RightView().Cubes {
				drawn = append(drawn, cubes.CubeState{Position: c.Position, Orientation: c.Orientation})
			}
		}
	}
	t.Logf("the right's last report: %d bytes", len(p.right.tp.rep.w.Bytes()))
	c := p.left.ClientReport(0)
	if !c.Has || c.Taken < 4 || c.Refused != 0 || c.Early != 0 {
		t.Fatalf("the left has %+v, want 5 or 6 reports taken, none refused", c)
	}
	if !c.HasRates || c.TPS != 59.5 || c.FPS != 23 || !c.HasError || !c.HasDelay || !c.HasView || c.LagMs < c.DelayMs {
		t.Errorf("report %+v: want rates 59.5/23, an error, a delay and a view", c)
	}
	// The newest report is the one of the last report tick, if it arrived
	// (the left steps first): rebuild the view and compare.
	v, ok := p.left.ReportView(0)
	if !ok || len(v.Cubes) != len(drawn) {
		t.Fatalf("no view rebuilt (%v), or %d cubes of %d", ok, len(v.Cubes), len(drawn))
	}
	if c.AgeTicks < ReportEvery {
		worst := 0.0
		for i, d := range drawn {
			worst = max(worst, v.Cubes[i].Position.Sub(d.Position).Len())
		}
		// 1 cm of tolerance, plus the truth's 2 mm quantization.
		if worst > 0.0135 {
			t.Errorf("the rebuilt view is %.1f cm from what the right drew", 100*worst)
		}
		t.Logf("report %d ticks old: %d cubes sent, %d unsent; the rebuilt view within %.2f cm of the right's", c.AgeTicks, c.Sent, c.Unsent, 100*worst)
	} else {
		t.Errorf("the newest report is %d ticks old", c.AgeTicks)
	}

	// A report of a world the host no longer has (it changed the
	// players) draws nothing.
	sr := &p.left.tp.rep.slots[0]
	red := sr.r.red
	sr.r.red = red[:len(red)-1]
	if _, ok := p.left.ReportView(0); ok {
		t.Error("a report of another world's shape was drawn")
	}
	sr.r.red = red

	// Hostile and too frequent reports: counted, the report kept.
	before := p.left.ClientReport(0)
	p.left.tp.rep.slots[0].at = -ReportEvery // not too early
	r := sampleReport(p.left.Left().NumCubes())
	r.frame = uint32(p.left.frame + 10*wire.TicksPerSecond) // ahead of the left's clock
	p.left.takeReports(0, [][]byte{{0xff, 0xff, 0xff, 0xff, 0xff}, nil, writeReportBody(t, &r, p.left.Left().NumCubes())})
	p.left.tp.rep.slots[0].at = p.left.frame
	r.frame = uint32(p.left.frame)
	p.left.takeReports(0, [][]byte{writeReportBody(t, &r, p.left.Left().NumCubes())})
	after := p.left.ClientReport(0)
	if after.Refused != before.Refused+2 || after.Ahead != before.Ahead+1 || after.Early != before.Early+1 || after.Taken != before.Taken+1 {
		t.Errorf("after 2 malformed reports, 1 ahead of the left and 1 too early: %+v (before %+v)", after, before)
	}
	if _, ok := p.left.ReportView(0); ok {
		t.Error("a view of a frame ahead of the left was drawn")
	}
}

// FuzzReadReport: any bytes read as a report fail cleanly or read back the
// same after writing.
func FuzzReadReport(f *testing.F) {
	const n = 37
	r := sampleReport(n)
	f.Add(writeReportBody(f, &r, n))
	f.Add([]byte{})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, body []byte) {
		var got report
		if readReport(&got, body, n, wire.NewReadStream(nil)) != nil {
			return
		}
		again := writeReportBody(t, &got, n)
		var back report
		if err := readReport(&back, again, n, wire.NewReadStream(nil)); err != nil || !reflect.DeepEqual(back, got) {
			t.Fatalf("a report read, written and read again changed (%v)", err)
		}
	})
}

// TestLeftSaysNoClientYet: a left whose slot has no right has no RTT or
// loss to show, and its HUD facts say so; once a right joins, they are
// its figures.
func TestLeftSaysNoClientYet(t *testing.T) {
	tok, err := udp.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	lc, err := udp.Listen("127.0.0.1:0", tok, leftNetConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lc.Close() })
	cfg := DefaultConfig()
	cfg.Strategies, cfg.Role, cfg.Server = strategiesForTest(), RoleLeft, lc
	left, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for range 3 * wire.TicksPerSecond {
		left.Step(cubes.Input{})
	}
	var f viewmodel.Facts
	left.HUDFacts(0, &f)
	if f.NoRight != "no client yet" {
		t.Errorf("a left nobody joined: %q, want \"no client yet\"", f.NoRight)
	}
	p := newProcPair(t, 0)
	p.step(cubes.Input{})
	p.left.HUDFacts(0, &f)
	if f.NoRight != "" {
		t.Errorf("a left with a right: %q, want its figures", f.NoRight)
	}
}

// BenchmarkReport writes and reads a full report (96 cubes of 901): what a
// report costs the right to write and the host to read, three times a
// second a client.
func BenchmarkReport(b *testing.B) {
	const n = 901
	r := sampleReport(n)
	r.cubes = r.cubes[:0]
	for i := range MaxReportCubes {
		r.cubes = append(r.cubes, reportCube{index: uint16(i * 9)})
	}
	buf := make([]byte, reportBufBytes)
	w := wire.NewWriteStream(buf)
	rs := wire.NewReadStream(nil)
	var got report
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(buf)
		if r.serialize(w, n) != nil || w.SerializeAlign() != nil {
			b.Fatal("write")
		}
		if readReport(&got, w.Bytes(), n, rs) != nil {
			b.Fatal("read")
		}
	}
	b.ReportMetric(float64(len(w.Bytes())), "bytes")
}
