package ui

// BenchmarkDraw measures the Go side of one App.Draw: what the CPU spends
// building both views' triangles, the HUD and handing them to Ebitengine,
// before the GPU (or software OpenGL) draws anything. Ebitengine draws
// only inside a running game (one RunGame per process, on the main
// goroutine), so when benchmarks are asked for, TestMain runs the tests
// and benchmarks inside one and each iteration waits for a frame. The
// time of a frame is the GPU's and the display's business; the figures
// that count are the ones measured around App.Draw alone:
//
//	draw-ms      the Go side of one Draw, milliseconds (the mean)
//	draw-ms-p50, draw-ms-p10  the median and the tenth percentile of the
//	             frames' times (less moved by other work preempting a frame)
//	draw-cpu-ms  the CPU time of the thread that ran Draw, per frame (Linux):
//	             the Go side's own work, not counting waits for the
//	             graphics thread nor the time other work held the CPU
//	draw-allocs  heap allocations inside one Draw
//	views-ms-p50, hud-ms-p50, rest-ms-p50  (BenchmarkDraw) the medians of
//	             Draw's parts: the two views, the HUD, the rest (drawSplit)
//
// BenchmarkDrawViews measures the two 3D views alone, the same way.
//
// Run it on a display (a virtual one is fine):
//
//	xvfb-run -a -s "-screen 0 1920x1080x24 -noreset" go test -run XXX -bench Draw -benchtime 200x ./ui

import (
	"flag"
	"fmt"
	"image"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/catalog"
	"netcubes/game"
	"netcubes/render"
	"netcubes/talk"
)

// drawFrames hands a function to the running game's next Draw; nil when
// no game runs (no benchmark asked for, or no display). drawFrame waits
// until it has run: the app must not tick while it draws.
var drawFrames chan func(screen *ebiten.Image)

// drawn says the function handed over has run.
var drawn = make(chan struct{})

func drawFrame(f func(screen *ebiten.Image)) {
	drawFrames <- f
	<-drawn
}

// benchGame is the game the benchmarks draw in: it runs nothing itself,
// it only serves drawFrames.
type benchGame struct {
	run  func() int
	code int
	done chan struct{}
	w, h int
}

func (g *benchGame) Update() error {
	if g.done == nil {
		g.done = make(chan struct{})
		go func() {
			g.code = g.run()
			close(g.done)
		}()
	}
	select {
	case <-g.done:
		return ebiten.Termination
	default:
		return nil
	}
}

func (g *benchGame) Draw(screen *ebiten.Image) {
	for {
		select {
		case f := <-drawFrames:
			f(screen)
			drawn <- struct{}{}
			return
		case <-g.done:
			return
		case <-time.After(50 * time.Millisecond):
			return // let Update see the end of the run
		}
	}
}

func (g *benchGame) Layout(int, int) (int, int) { return g.w, g.h }

func TestMain(m *testing.M) {
	flag.Parse()
	// A game runs when there is a display, for the benchmarks and for
	// TestDrawAllocs's own process (drawGameEnv): the other tests run
	// without one (with a game, every image they draw would be rendered).
	bench := flag.Lookup("test.bench")
	if os.Getenv("DISPLAY") == "" || (bench == nil || bench.Value.String() == "") && os.Getenv(drawGameEnv) != "1" {
		os.Exit(m.Run())
	}
	drawFrames = make(chan func(*ebiten.Image))
	g := &benchGame{run: m.Run, w: 1280, h: 720}
	ebiten.SetWindowSize(g.w, g.h)
	ebiten.SetVsyncEnabled(false)
	ebiten.SetScreenClearedEveryFrame(false)
	// One thread, as in a browser: with its own render thread, Ebitengine
	// runs the previous frame's OpenGL calls while the next frame is drawn
	// (on a CPU rasterizer, software OpenGL on a virtual display: heavy),
	// which on a small machine takes the CPU from Draw and lengthens its
	// wall time, and whose allocations MemStats counts with Draw's.
	opts := &ebiten.RunGameOptions{SingleThread: true}
	if err := ebiten.RunGameWithOptions(g, opts); err != nil {
		os.Stderr.WriteString("no game for the draw benchmark: " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Exit(g.code)
}

// BenchmarkDraw draws the app as it starts (snapshot interpolation on the
// default link) at 1280×720 while it plays the katamari script, one tick
// between frames, from the script's 5th second (the ball is forming).
func BenchmarkDraw(b *testing.B) {
	a := benchApp(b, 300)
	a.split = &drawSplit{} // views-ms-p50, hud-ms-p50
	benchFrames(b, a, a.Draw)
}

// BenchmarkDrawBetweenTicks is BenchmarkDraw on a display drawing two
// frames a tick (120 Hz): every other frame comes between two ticks, and
// shows what the frame before it showed.
func BenchmarkDrawBetweenTicks(b *testing.B) {
	a := benchApp(b, 300)
	benchFramesEvery(b, a, a.Draw, 2)
}

// BenchmarkDrawViews is BenchmarkDraw's two 3D views alone (ground,
// shadows, cubes, the ghost), without the HUD: the views' share of Draw.
// The rectangles are about where the app puts the views at 1280×720.
func BenchmarkDrawViews(b *testing.B) {
	a := benchApp(b, 300)
	lr, rr := image.Rect(0, 70, 638, 500), image.Rect(642, 70, 1280, 500)
	benchFrames(b, a, func(screen *ebiten.Image) {
		a.right.Prepare(rr, a.sess.RightView(), a.sess.GhostView(), a.overlays)
		a.left.Draw(screen, lr, a.sess.LeftView(), nil, render.Overlays{})
		a.right.Draw(screen, rr, a.sess.RightView(), a.sess.GhostView(), a.overlays)
	})
}

// BenchmarkBuildViews is BenchmarkDrawViews's work before Ebitengine
// takes the vertices: both views' triangles (ground, shadows, sorted cube
// faces, the ghost) of the same scene, its 300th tick, built again and
// again. It needs no display, so it runs anywhere and under Valgrind,
// whose count of instructions does not depend on the machine's load
// (see docs/design/draw-cost.md).
func BenchmarkBuildViews(b *testing.B) {
	a := newBenchApp(b, 300)
	lr, rr := image.Rect(0, 70, 638, 500), image.Rect(642, 70, 1280, 500)
	b.ReportAllocs()
	var tris int
	for b.Loop() {
		l := a.left.Build(lr, a.sess.LeftView(), nil, render.Overlays{})
		tris = len(l.Ground.Indices) + len(l.Shadows.Indices) + len(l.Cubes.Indices)
		r := a.right.Build(rr, a.sess.RightView(), a.sess.GhostView(), a.overlays)
		tris += len(r.Ground.Indices) + len(r.Shadows.Indices) + len(r.Cubes.Indices) + len(r.Lines.Indices)
	}
	b.ReportMetric(float64(tris/3), "triangles")
}

// benchApp is the app BenchmarkDraw draws, ticks into the script.
func benchApp(b testing.TB, ticks int) *App {
	if drawFrames == nil {
		b.Skip("needs a display: run with -bench under xvfb-run (see the file comment)")
	}
	return newBenchApp(b, ticks)
}

// newBenchApp is benchApp's app, made without a display.
func newBenchApp(b testing.TB, ticks int) *App {
	tr, err := talk.Load("katamari")
	if err != nil {
		b.Fatal(err)
	}
	cfg := game.DefaultConfig()
	cfg.Strategies = catalog.All()
	a, err := NewApp(Options{Session: cfg, Preset: "perfect", NoAudio: true, Track: tr})
	if err != nil {
		b.Fatal(err)
	}
	a.winW, a.winH = 1280, 720
	// Smooth edges cost the rasterizer (software OpenGL on a virtual
	// display: seconds a frame), not the Go side measured here.
	a.setAntiAlias(false)
	for range ticks {
		a.step()
	}
	return a
}

// benchFrames ticks the app and hands draw one frame per iteration,
// reporting the time and heap allocations inside draw alone.
func benchFrames(b *testing.B, a *App, draw func(screen *ebiten.Image)) {
	benchFramesEvery(b, a, draw, 1)
}

// benchFramesEvery is benchFrames with a tick every framesPerTick frames.
func benchFramesEvery(b *testing.B, a *App, draw func(screen *ebiten.Image), framesPerTick int) {
	var (
		spent  time.Duration
		each   []time.Duration
		allocs uint64
		before runtime.MemStats
		after  runtime.MemStats
		frames int
	)
	var cpu int64
	cpuOK := true
	// between says the frame comes between two ticks; betweenEach holds
	// those frames' times.
	var between bool
	var betweenEach []time.Duration
	// The parts of each App.Draw (drawSplit), when timed.
	var partEach [numSplits][]time.Duration
	frame := func(screen *ebiten.Image) {
		runtime.ReadMemStats(&before)
		// The thread's CPU time is read on one thread: the goroutine
		// stays on it for the frame.
		runtime.LockOSThread()
		c0, ok0 := threadCPU()
		start := time.Now()
		draw(screen)
		d := time.Since(start)
		c1, ok1 := threadCPU()
		runtime.UnlockOSThread()
		cpu += c1 - c0
		cpuOK = cpuOK && ok0 && ok1
		spent += d
		each = append(each, d)
		if between {
			betweenEach = append(betweenEach, d)
		}
		if a.split != nil {
			for i := range partEach {
				partEach[i] = append(partEach[i], a.split.parts[i])
			}
		}
		runtime.ReadMemStats(&after)
		allocs += after.Mallocs - before.Mallocs
		frames++
	}
	drawFrame(frame) // the first frame makes the images and buffers
	spent, allocs, frames, each, cpu = 0, 0, 0, each[:0], 0
	for i := range partEach {
		partEach[i] = partEach[i][:0]
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		between = i%framesPerTick != 0
		if !between {
			a.step()
		}
		drawFrame(frame)
	}
	b.ReportMetric(float64(spent.Microseconds())/1000/float64(frames), "draw-ms")
	// On a machine shared with other work a frame is often preempted in
	// the middle, which lengthens the mean; the median and the tenth
	// percentile of the frames are less moved by it.
	slices.Sort(each)
	b.ReportMetric(float64(each[len(each)/2].Microseconds())/1000, "draw-ms-p50")
	b.ReportMetric(float64(each[len(each)/10].Microseconds())/1000, "draw-ms-p10")
	if len(partEach[splitViews]) > 0 {
		// The medians of Draw's parts: the two views, the HUD (its
		// layout, bars, labels and captions), the rest.
		for i, unit := range [numSplits]string{"views-ms-p50", "hud-ms-p50", "rest-ms-p50"} {
			slices.Sort(partEach[i])
			b.ReportMetric(float64(partEach[i][len(partEach[i])/2].Microseconds())/1000, unit)
		}
	}
	if len(betweenEach) > 0 {
		// The frames between two ticks alone.
		slices.Sort(betweenEach)
		b.ReportMetric(float64(betweenEach[len(betweenEach)/2].Microseconds())/1000, "between-ms-p50")
	}
	if cpuOK {
		b.ReportMetric(float64(cpu)/1e6/float64(frames), "draw-cpu-ms")
	}
	b.ReportMetric(float64(allocs)/float64(frames), "draw-allocs")
}

// TestDrawAllocs checks that a frame of the default scene allocates
// nothing on the heap: the app as BenchmarkDraw draws it (1280×720, the
// katamari script, one tick between frames), 60 frames, counting the
// allocations made while App.Draw runs. Each frame's figures are new
// text (they change every tick), which the first time a text is met
// allocates where its glyphs are learnt (a rune at a new fractional
// position) or a run gets an image; so an identical app draws the same 60
// frames first, and the frames counted are the second app's: what a
// running app does once its texts have been met.
//
// What is left is Ebitengine's: its command queue and vertex buffers
// growing to a new largest frame (twice in the first frames) and its
// pools refilled after the collection this test runs before counting
// (4 allocations in 3 of the 60 frames when written; 46 in 9 before the
// views shared one shadow layer as large as the screen, so that the
// bottom panel changing height in the 30th frame makes no new one, and
// the ghosts' and the graph's meshes were reserved at their largest).
// So: at most one frame in ten allocates, and all 60 together at most 20
// times.
func TestDrawAllocs(t *testing.T) {
	if drawFrames == nil {
		inGame(t, "TestDrawAllocs")
		return
	}
	warm, counted := benchApp(t, 180), benchApp(t, 180)
	counted.fonts = warm.fonts // the glyphs are kept per font
	const frames = 60
	// Each app's first frame makes its images and buffers.
	drawFrame(warm.Draw)
	drawFrame(counted.Draw)
	for range frames {
		warm.step()
		drawFrame(warm.Draw)
	}
	// No collection while counting: finalizers (Ebitengine's images
	// have them) run on a goroutine of their own and allocate there, and
	// MemStats counts every goroutine's allocations.
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var before, after runtime.MemStats
	var each []string
	total := uint64(0)
	for i := range frames {
		counted.step()
		drawFrame(func(screen *ebiten.Image) {
			runtime.ReadMemStats(&before)
			counted.Draw(screen)
			runtime.ReadMemStats(&after)
		})
		if n := after.Mallocs - before.Mallocs; n > 0 {
			total += n
			each = append(each, fmt.Sprintf("frame %d: %d", i, n))
		}
	}
	if len(each) > frames/10 || total > frames/3 {
		t.Errorf("%d heap allocations in %d frames' Draw, %d frames allocating (%v)", total, frames, len(each), each)
	} else {
		t.Logf("%d heap allocations in %d frames' Draw (%v)", total, frames, each)
	}
}

// drawGameEnv, set to 1, makes TestMain run the tests inside a game.
const drawGameEnv = "NETCUBES_TEST_IN_GAME"

// inGame runs the test named in a process of its own whose tests run
// inside a game (on the display; skipped without one), and reports its
// output.
func inGame(t *testing.T, name string) {
	t.Helper()
	if os.Getenv("DISPLAY") == "" {
		t.Skip("needs a display (xvfb-run)")
	}
	if os.Getenv(drawGameEnv) == "1" {
		t.Fatal("no game in the game's process")
	}
	cmd := exec.Command(os.Args[0], "-test.run", "^"+name+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), drawGameEnv+"=1")
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("%s in a game: %v", name, err)
	}
}
