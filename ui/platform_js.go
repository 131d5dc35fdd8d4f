package ui

// The app in a web page (the browser build; platform_other.go is the
// desktop's side). A page has no files and cannot start processes, so the
// recording is kept for the page's download button and sound needs no
// probe. The page (and its test) can read what the app shows and what it
// costs from window.netcubes, which the app updates every tick:
//
//	id, name, mode  the active strategy and its sub-mode, as on the HUD
//	tick, frame     Update calls and session frames so far
//	tickMs, tickMaxMs, drawMs, frameMs, tps
//	                over the last second of wall time: one Update (a
//	                simulation tick: keys, the session's step with both
//	                sides' strategies, the views), the Go side of Draw, the
//	                interval between drawn frames, and ticks reached
//	drawMsP50, drawMsP10, drawFrames
//	                the median and the tenth percentile of the Go side of
//	                Draw over the last 60 frames (a frame the browser
//	                interrupts moves the mean of a second more than
//	                these), and the frames drawn so far
//
// The timings use the wall clock: they measure, and never change what is
// simulated.

import (
	"slices"
	"strings"
	"syscall/js"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/talk"
	"netcubes/wire"
)

// probeAudio: a browser always has an audio output, and Ebitengine starts
// it at the page's first click or key (the page's Start button is one):
// browsers allow no sound before. There is nothing to probe.
func probeAudio() bool { return true }

// saveScript keeps the recording in window.netcubesRecording (name, text,
// ticks) for the page's download button.
func saveScript(path string, t *talk.Track) error {
	var b strings.Builder
	if _, err := t.WriteTo(&b); err != nil {
		return err
	}
	rec := js.Global().Get("Object").New()
	rec.Set("name", path)
	rec.Set("text", b.String())
	rec.Set("ticks", t.Length)
	js.Global().Set("netcubesRecording", rec)
	return nil
}

// webGame is the app with its state and costs published to the page.
type webGame struct {
	*App
	state              js.Value // window.netcubes
	second             time.Time
	tick, draw, frame  meter
	lastDraw           time.Time
	draws              drawRing
	ticksAtSecondStart int
	slowTick           slowTickWatch
}

func platformGame(a *App) ebiten.Game {
	g := &webGame{App: a, state: js.Global().Get("Object").New()}
	js.Global().Set("netcubes", g.state)
	return g
}

func (g *webGame) Update() error {
	start := time.Now()
	err := g.App.Update()
	g.tick.add(time.Since(start))
	g.publish(start)
	return err
}

func (g *webGame) Draw(screen *ebiten.Image) {
	start := time.Now()
	if !g.lastDraw.IsZero() {
		g.frame.add(start.Sub(g.lastDraw))
	}
	g.lastDraw = start
	g.App.Draw(screen)
	d := time.Since(start)
	g.draw.add(d)
	g.draws.add(d)
}

// publish sets window.netcubes: what the HUD shows every tick, the costs
// once a second.
func (g *webGame) publish(now time.Time) {
	st := g.sess.Strategy()
	g.state.Set("id", st.ID())
	g.state.Set("name", st.Name())
	g.state.Set("mode", st.Mode())
	g.state.Set("tick", g.ticks)
	g.state.Set("frame", g.sess.Frame())
	if t := g.opts.Room.Transport; t != 0 {
		g.state.Set("transport", t.Short()) // a classroom's browser: how it joined
	}
	if g.second.IsZero() {
		g.second, g.ticksAtSecondStart = now, g.ticks
		return
	}
	dt := now.Sub(g.second).Seconds()
	if dt < 1 {
		return
	}
	tps := float64(g.ticks-g.ticksAtSecondStart) / dt
	g.state.Set("tps", tps)
	g.state.Set("tickMs", g.tick.meanMs())
	g.state.Set("tickMaxMs", g.tick.maxMs())
	g.state.Set("drawMs", g.draw.meanMs())
	p50, p10 := g.draws.percentiles()
	g.state.Set("drawMsP50", p50)
	g.state.Set("drawMsP10", p10)
	g.state.Set("drawFrames", g.draws.n)
	g.state.Set("frameMs", g.frame.meanMs())
	if note := g.slowTick.observe(tps, g.tick.meanMs(), st.ID()+" "+st.Mode()); note != "" {
		g.say("%s", note)
		g.noteTicks = 5 * wire.TicksPerSecond
	}
	g.tick, g.draw, g.frame = meter{}, meter{}, meter{}
	g.second, g.ticksAtSecondStart = now, g.ticks
}

// meter sums durations over one second.
type meter struct {
	n        int
	sum, max time.Duration
}

func (m *meter) add(d time.Duration) {
	m.n++
	m.sum += d
	m.max = max(m.max, d)
}

func (m *meter) meanMs() float64 {
	if m.n == 0 {
		return 0
	}
	return float64(m.sum) / float64(m.n) / 1e6
}

func (m *meter) maxMs() float64 { return float64(m.max) / 1e6 }

// drawRing keeps the Go side of the last frames' Draw.
type drawRing struct {
	d      [60]time.Duration
	n      int
	sorted [60]time.Duration
}

func (r *drawRing) add(d time.Duration) {
	r.d[r.n%len(r.d)] = d
	r.n++
}

// percentiles are the median and the tenth percentile of the kept frames,
// in milliseconds.
func (r *drawRing) percentiles() (p50, p10 float64) {
	n := min(r.n, len(r.d))
	if n == 0 {
		return 0, 0
	}
	s := r.sorted[:n]
	copy(s, r.d[:n])
	slices.Sort(s)
	return float64(s[n/2]) / 1e6, float64(s[n/10]) / 1e6
}
