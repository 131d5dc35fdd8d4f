package game

import (
	"math"
	"slices"

	"netcubes/geom"
	"netcubes/udp"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Design note: a right's report. The left measures what the acks tell it
// (RTT, loss, bandwidth); what the right's screen shows only the right
// knows: how far its view is from the server's world (its error, against
// the truth its diagnostics bring), how far in the past it shows the
// server, and how fast it ticks and draws (a slow laptop's browser ticks
// 15 times a second, not 60). So a right sends its left a report three
// times a second (ReportEvery ticks of its own clock): those figures, and
// a compact picture of its view for the host's Tab panel.
//
// The picture is a delta against the server's world, which the host
// keeps (its history, HistoryTicks): the frame the right shows (as an
// offset back from the report's frame), one bit a cube for "drawn red",
// and the cubes the right draws more than 1 cm or 2° away from the truth
// it has of that frame, at snapshot level 5's precision (2 mm, 79 bits a
// cube), at most MaxReportCubes of them, the furthest first. The host
// draws every other cube from its own history at that frame (they are
// within 1 cm of it as the right's truth has it), and says how many cubes
// differed but did not fit. A report is therefore at most about 1.3 kB,
// 4 kB/s a right, whatever the strategy; an honest picture of a view that
// is close to the server's, and a bounded, labelled one of a view that is
// far from it.
//
// Reports are read as strictly as any datagram (readReport, fuzzed): every
// field bounded, cube indices strictly increasing, the cube count the
// host's own. The left takes at most one a slot every reportMinTicks, and
// one whose frame is ahead of its clock is refused and counted. Nothing
// in a report reaches the simulation: it is drawn, never stepped.

// Reports' timing and bounds.
const (
	// ReportEvery is the ticks between two reports of a right: 3 a
	// second (a figure a third of a second old is current for a table).
	ReportEvery = 20
	// reportMinTicks: the left takes at most one report a slot this
	// often; more (a flood, or a burst a TCP connection delivered at
	// once) are dropped and counted.
	reportMinTicks = ReportEvery / 2
	// MaxReportCubes bounds the cubes a report draws explicitly.
	MaxReportCubes = 96
	// reportNear and reportNearRad: a cube drawn within both of the
	// truth is drawn from the host's history.
	reportNear    = 0.01
	reportNearRad = 2 * math.Pi / 180
	// The figures' bounds (a larger figure is sent as the bound).
	maxReportMM      = 100_000 // error, millimetres: 100 m
	maxReportDelayMs = 10_000
	maxReportRate10  = 2400 // ticks or frames a second, tenths: 240
	maxReportBack16  = 16 * 10 * wire.TicksPerSecond
	maxReportCubes   = maxDiagCubes
	reportBufBytes   = 2048
)

// report is one report, as written and read.
type report struct {
	frame              uint32 // the right's frame when it wrote it
	hasError           bool
	errRMSmm, errMaxmm uint32
	hasDelay           bool
	delayMs            uint16
	hasRates           bool
	tps10, fps10       uint16
	hasView            bool
	back16             uint16 // the frame its view shows: frame − back16/16
	// anyFrame: the view shows no single frame of the server (the 2004
	// client draws its player ahead and the rest behind): back16 is then
	// the newest truth it has, which its cubes were compared with.
	anyFrame bool
	numCubes uint16
	red      []bool // per cube: drawn red (interacting)
	cubes    []reportCube
	unsent   uint16 // cubes beyond the tolerance that did not fit
}

// reportCube is a cube the right draws away from the truth: 79 bits and
// its index.
type reportCube struct {
	index uint16
	diagCube
}

// serialize writes or reads r; reading checks every bound, and that the
// world has numCubes cubes.
func (r *report) serialize(s wire.Stream, numCubes int) error {
	s.SetCategory(wire.CategoryHeader)
	if err := wire.SerializeUint32(s, &r.frame); err != nil {
		return err
	}
	if s.IsReading() && r.frame > wire.MaxFrame {
		return s.Fail(wire.ErrValueOutOfRange)
	}
	if err := serializeOptional(s, &r.hasError, func() error {
		if err := wire.SerializeInt(s, &r.errRMSmm, 0, maxReportMM); err != nil {
			return err
		}
		return wire.SerializeInt(s, &r.errMaxmm, 0, maxReportMM)
	}); err != nil {
		return err
	}
	if err := serializeOptional(s, &r.hasDelay, func() error {
		return wire.SerializeInt(s, &r.delayMs, 0, maxReportDelayMs)
	}); err != nil {
		return err
	}
	if err := serializeOptional(s, &r.hasRates, func() error {
		if err := wire.SerializeInt(s, &r.tps10, 0, maxReportRate10); err != nil {
			return err
		}
		return wire.SerializeInt(s, &r.fps10, 0, maxReportRate10)
	}); err != nil {
		return err
	}
	return serializeOptional(s, &r.hasView, func() error { return r.serializeView(s, numCubes) })
}

// serializeOptional serializes a flag, then fields when it is set.
func serializeOptional(s wire.Stream, has *bool, fields func() error) error {
	if err := wire.SerializeBool(s, has); err != nil {
		return err
	}
	if !*has {
		return nil
	}
	return fields()
}

// serializeView is the view's part: the frame it shows, red bits, the
// cubes away from the truth.
func (r *report) serializeView(s wire.Stream, numCubes int) error {
	if err := wire.SerializeInt(s, &r.back16, 0, maxReportBack16); err != nil {
		return err
	}
	if err := wire.SerializeBool(s, &r.anyFrame); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &r.numCubes, 1, maxReportCubes); err != nil {
		return err
	}
	if s.IsReading() {
		if int(r.numCubes) != numCubes {
			return s.Fail(wire.ErrValueOutOfRange) // another world
		}
		r.red = slices.Grow(r.red[:0], numCubes)[:numCubes]
	}
	for i := range r.red {
		if err := wire.SerializeBool(s, &r.red[i]); err != nil {
			return err
		}
	}
	n := uint16(len(r.cubes))
	if err := wire.SerializeInt(s, &n, 0, MaxReportCubes); err != nil {
		return err
	}
	if err := wire.SerializeInt(s, &r.unsent, 0, r.numCubes); err != nil {
		return err
	}
	if s.IsReading() {
		r.cubes = slices.Grow(r.cubes[:0], int(n))[:n]
	}
	prev := -1
	for i := range r.cubes {
		c := &r.cubes[i]
		if err := wire.SerializeInt(s, &c.index, 0, r.numCubes-1); err != nil {
			return err
		}
		if int(c.index) <= prev {
			return s.Fail(wire.ErrValueOutOfRange) // strictly increasing: no cube twice
		}
		prev = int(c.index)
		if err := c.serialize(s); err != nil {
			return err
		}
	}
	return nil
}

// readReport reads a report's body for a world of numCubes cubes into r
// (its slices reused).
func readReport(r *report, body []byte, numCubes int, rs *wire.ReadStream) error {
	rs.Reset(body)
	if err := r.serialize(rs, numCubes); err != nil {
		return err
	}
	return rs.SerializeAlign()
}

// reportState is the report side of the two-process mode: a right's
// writer, a left's record of each slot's newest report.
type reportState struct {
	w   *wire.WriteStream
	buf []byte
	// The right: its own rates (SetLocalRates) and scratch.
	tps, fps float64
	hasRates bool
	out      report
	far      []farCube
	// The left: per slot.
	slots   []slotReport
	scratch report
	view    viewmodel.View
	viewKey [2]int // the slot and arrival frame the view was built for; [−1, −1]: none
}

// farCube is a cube the right draws away from its truth, and how far.
type farCube struct {
	index int
	far   float64
}

// slotReport is the left's record of one slot's reports.
type slotReport struct {
	r       report
	has     bool
	at      int    // the left's frame when it arrived
	taken   uint64 // reports taken
	refused uint64 // malformed
	ahead   uint64 // taken, though its frame was ahead of the left's clock
	early   uint64 // within reportMinTicks of the last one taken
}

func newReportState() *reportState {
	b := make([]byte, reportBufBytes)
	return &reportState{w: wire.NewWriteStream(b), buf: b, viewKey: [2]int{-1, -1}}
}

// slot is the left's record of slot k.
func (rp *reportState) slot(k int) *slotReport {
	for len(rp.slots) <= k {
		rp.slots = append(rp.slots, slotReport{})
	}
	return &rp.slots[k]
}

// forget drops slot k's report (its right left, or another joined).
func (rp *reportState) forget(k int) {
	if k < len(rp.slots) {
		rp.slots[k].has = false
	}
	if rp.viewKey[0] == k {
		rp.viewKey = [2]int{-1, -1}
	}
}

// SetLocalRates tells a right process how many ticks and frames a second
// its machine manages (the app measures them; the session has no clock):
// its reports carry them. Elsewhere it does nothing.
func (s *Session) SetLocalRates(tps, fps float64) {
	if s.tp == nil || s.tp.client == nil {
		return
	}
	rp := s.tp.rep
	rp.tps, rp.fps, rp.hasRates = tps, fps, true
}

// sendReport writes and sends the right's report every ReportEvery of its
// ticks, once it follows a left; shown and ok are what the view showed.
func (s *Session) sendReport(shown float64, ok bool) {
	if !s.tp.joined || s.tp.tick%ReportEvery != 0 {
		return
	}
	if body := s.writeReport(shown, ok); body != nil {
		s.tp.client.Send(udp.KindReport, body)
	}
}

// writeReport writes the right's report (nil if it cannot).
func (s *Session) writeReport(shown float64, ok bool) []byte {
	rp := s.tp.rep
	r := &rp.out
	m := &s.clients[0].metrics
	*r = report{frame: uint32(s.frame), red: r.red[:0], cubes: r.cubes[:0]}
	if m.Valid {
		r.hasError = true
		r.errRMSmm, r.errMaxmm = clampRound(m.PosRMSCm*10, maxReportMM), clampRound(m.PosMaxCm*10, maxReportMM)
		if m.ErrorOf == "" {
			r.hasDelay, r.delayMs = true, uint16(clampRound(m.DelayMs, maxReportDelayMs))
		}
	}
	if rp.hasRates {
		r.hasRates = true
		r.tps10, r.fps10 = uint16(clampRound(rp.tps*10, maxReportRate10)), uint16(clampRound(rp.fps*10, maxReportRate10))
	}
	s.reportView(r, shown, ok)
	rp.w.Reset(rp.buf)
	if r.serialize(rp.w, s.left.NumCubes()) != nil || rp.w.SerializeAlign() != nil {
		return nil
	}
	return rp.w.Bytes()
}

// reportView fills the view's part of r: nothing when the right shows no
// whole view or has no truth for the frame it shows. A view of no single
// frame (ok false: the 2004 client's) is compared with the newest truth
// the right has, and says so.
func (s *Session) reportView(r *report, shown float64, ok bool) {
	n := s.left.NumCubes()
	if !ok {
		if s.tp.lastDiag < 0 {
			return
		}
		shown, r.anyFrame = float64(s.tp.lastDiag), true
	}
	back := (float64(s.frame) - shown) * 16
	if len(s.right.Cubes) != n || n > maxReportCubes || !(back >= 0 && back <= maxReportBack16) {
		r.anyFrame = false
		return
	}
	rp := s.tp.rep
	rp.far = rp.far[:0]
	for i := range s.right.Cubes {
		p, q, has := s.hist.pose(shown, i)
		if !has {
			r.red, r.anyFrame = r.red[:0], false
			return
		}
		c := &s.right.Cubes[i]
		d, a := c.Position.Sub(p).Len(), geom.AngleBetween(c.Orientation, q)
		r.red = append(r.red, c.Interacting)
		if d > reportNear || a > reportNearRad {
			// How far, in metres a corner moves: the position's error plus
			// the orientation's at the cube's half extent.
			rp.far = append(rp.far, farCube{i, d + a*c.HalfExtent})
		}
	}
	r.hasView, r.back16, r.numCubes = true, uint16(math.Round(back)), uint16(n)
	slices.SortFunc(rp.far, func(a, b farCube) int {
		if a.far != b.far {
			if a.far > b.far {
				return -1
			}
			return 1
		}
		return a.index - b.index
	})
	keep := rp.far[:min(len(rp.far), MaxReportCubes)]
	r.unsent = uint16(len(rp.far) - len(keep))
	slices.SortFunc(keep, func(a, b farCube) int { return a.index - b.index })
	for _, f := range keep {
		c := &s.right.Cubes[f.index]
		r.cubes = append(r.cubes, reportCube{index: uint16(f.index), diagCube: diagCube{
			pos: wire.QuantizePosition(c.Position, diagResolution), rot: wire.QuantizeQuat(c.Orientation, diagOrientationBits)}})
	}
}

// clampRound rounds v to an integer in 0..max (NaN: 0).
func clampRound(v float64, max uint32) uint32 {
	if !(v > 0) {
		return 0
	}
	return uint32(math.Min(math.Round(v), float64(max)))
}

// takeReports takes slot k's reports that arrived this tick: the newest
// valid one is kept.
func (s *Session) takeReports(k int, bodies [][]byte) {
	rp := s.tp.rep
	for _, body := range bodies {
		sr := rp.slot(k)
		if sr.has && s.frame-sr.at < reportMinTicks {
			sr.early++
			continue
		}
		sc := &rp.scratch
		if readReport(sc, body, s.left.NumCubes(), s.r) != nil {
			sr.refused++
			continue
		}
		if int(sc.frame) > s.frame+resyncTicks {
			// Ahead of the left's clock: a left that ticks slower than
			// real time (a loaded host) falls behind a right that keeps
			// up. Taken and counted (its view, in the left's future,
			// cannot be drawn); a frame far in the past is taken too: a
			// slow machine falls seconds behind, and its lag says so.
			sr.ahead++
		}
		sr.r, *sc = *sc, sr.r // keep both slices' storage
		sr.has, sr.at = true, s.frame
		sr.taken++
		if rp.viewKey[0] == k {
			rp.viewKey = [2]int{-1, -1}
		}
	}
}

// ClientReport is what client k's right last reported of itself (the
// left process; zero elsewhere or before a report).
type ClientReport struct {
	Has      bool
	AgeTicks int // since it arrived
	// The error of its view against the server's world at the frame it
	// shows (its truth from the diagnostics), centimetres.
	HasError           bool
	ErrRMSCm, ErrMaxCm float64
	// DelayMs: how far in the past it shows the server by its own clock
	// (its frame minus the frame it shows); LagMs, by the left's: its
	// delay plus how far its frame was behind the left's when the report
	// arrived (a machine that ticks slowly falls behind; the report's
	// own trip, half a round trip, is in it too).
	HasDelay bool
	DelayMs  float64
	LagMs    float64
	// TPS and FPS: the ticks and frames its machine ran in the last
	// second.
	HasRates bool
	TPS, FPS float64
	// HasView: the report carries its view; ShownFrame is the frame it
	// shows; Sent of its cubes were away from the server's and sent,
	// Unsent more were but did not fit (drawn as the server's).
	HasView      bool
	AnyFrame     bool // its view shows no single frame: compared at ShownFrame, its newest truth
	ShownFrame   float64
	BackMs       float64 // ShownFrame is this long before the report's frame
	Sent, Unsent int
	// Taken, Refused and Early count its reports: kept, refused as
	// malformed, dropped as too frequent; Ahead, those taken whose frame
	// was more than resyncTicks ahead of the left's (the left ticks
	// slower than real time).
	Taken, Refused, Early, Ahead uint64
}

// ClientReport returns client k's report.
func (s *Session) ClientReport(k int) ClientReport {
	if s.tp == nil || s.tp.server == nil || k < 0 || k >= len(s.tp.rep.slots) {
		return ClientReport{}
	}
	sr := &s.tp.rep.slots[k]
	c := ClientReport{Taken: sr.taken, Refused: sr.refused, Early: sr.early, Ahead: sr.ahead}
	if !sr.has {
		return c
	}
	r := &sr.r
	c.Has, c.AgeTicks = true, s.frame-sr.at
	c.HasError, c.ErrRMSCm, c.ErrMaxCm = r.hasError, float64(r.errRMSmm)/10, float64(r.errMaxmm)/10
	c.HasDelay, c.DelayMs = r.hasDelay, float64(r.delayMs)
	c.LagMs = c.DelayMs + float64(max(sr.at-int(r.frame), 0))*1000/wire.TicksPerSecond
	c.HasRates, c.TPS, c.FPS = r.hasRates, float64(r.tps10)/10, float64(r.fps10)/10
	c.HasView, c.AnyFrame = r.hasView, r.anyFrame
	if r.hasView {
		c.ShownFrame = float64(r.frame) - float64(r.back16)/16
		c.BackMs = float64(r.back16) / 16 * 1000 / wire.TicksPerSecond
		c.Sent, c.Unsent = len(r.cubes), int(r.unsent)
	}
	return c
}

// ReportView is client k's view as its last report draws it: the cubes it
// sent where it drew them, every other cube where the server's world was
// at the frame it shows (from the left's history). False when there is no
// view, or that frame is no longer in the history.
func (s *Session) ReportView(k int) (*viewmodel.View, bool) {
	c := s.ClientReport(k)
	if !c.HasView || len(s.leftView.Cubes) != s.left.NumCubes() {
		return nil, false
	}
	rp := s.tp.rep
	sr := &rp.slots[k]
	if len(sr.r.red) != len(s.leftView.Cubes) {
		return nil, false // the world changed shape since (the host changed the players)
	}
	if rp.viewKey == [2]int{k, sr.at} {
		return &rp.view, true
	}
	v := &rp.view
	v.Cubes = v.Cubes[:0]
	for i, lc := range s.leftView.Cubes {
		p, q, ok := s.hist.pose(c.ShownFrame, i)
		if !ok {
			return nil, false
		}
		v.Cubes = append(v.Cubes, viewmodel.CubeView{Position: p, Orientation: q, HalfExtent: lc.HalfExtent,
			Player: lc.Player, PlayerNum: lc.PlayerNum, Interacting: sr.r.red[i]})
	}
	for _, rc := range sr.r.cubes {
		cv := &v.Cubes[rc.index]
		cv.Position = wire.DequantizePosition(rc.pos, diagResolution)
		cv.Orientation = wire.DequantizeQuat(rc.rot, diagOrientationBits)
	}
	v.Player = s.leftView.Player
	if k < len(s.clients) && s.clients[k].player() >= 0 {
		v.Player = s.left.PlayerCube(s.clients[k].player())
	}
	rp.viewKey = [2]int{k, sr.at}
	return v, true
}

// HistoryTicks is how far back the session remembers the left world (a
// reported view older than this cannot be rebuilt).
func (s *Session) HistoryTicks() int { return s.cfg.HistoryTicks }
