//go:build !js

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http/httptest"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The browser tests build the web folder, serve it on 127.0.0.1 and drive
// it in headless Chromium with software WebGL (SwiftShader), as a visitor
// would: load the page, press Start, press keys. They need a Chromium or
// Chrome (make test installs chromium on Debian) and skip without one.

// chromeEnv names a browser binary to use instead of looking for one.
const chromeEnv = "NETCUBES_CHROME"

// findChrome returns the browser to drive, or "".
func findChrome() string {
	if p := os.Getenv(chromeEnv); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if runtime.GOOS == "darwin" {
		for _, p := range []string{"/Applications/Chromium.app/Contents/MacOS/Chromium",
			"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"} {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	return ""
}

// The web folder, built once for all the browser tests (webFolder).
var (
	buildOnce sync.Once
	builtDir  string
	webDir    string
	buildErr  error
)

func webFolder() (string, error) {
	buildOnce.Do(func() {
		if d := os.Getenv(webDirEnv); d != "" {
			// A folder kept between runs: Build recompiles only what changed.
			var log bytes.Buffer
			if buildErr = Build(d, &log); buildErr != nil {
				buildErr = fmt.Errorf("%v\n%s", buildErr, log.String())
			}
			webDir = d
			return
		}
		if builtDir, buildErr = os.MkdirTemp("", "netcubes-web-"); buildErr != nil {
			return
		}
		var log bytes.Buffer
		if err := Build(builtDir, &log); err != nil {
			buildErr = fmt.Errorf("%v\n%s", err, log.String())
		}
	})
	if webDir != "" {
		return webDir, buildErr
	}
	return builtDir, buildErr
}

// webDirEnv names a folder to build the web folder in and keep (a
// developer's repeated runs), instead of a new temporary one.
const webDirEnv = "NETCUBES_WEBDIR"

func TestMain(m *testing.M) {
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}

// browser serves the web folder and starts a headless Chromium on it with
// a 1280×720 window; the returned context drives its tab. Everything
// stops within limit.
func browser(t *testing.T, limit time.Duration) (ctx context.Context, base string) {
	t.Helper()
	chrome := findChrome()
	if chrome == "" {
		t.Skipf("no Chromium or Chrome on PATH (chromium, chromium-browser, google-chrome; or set $%s): "+
			"the browser test needs one (make test installs chromium on Debian)", chromeEnv)
	}
	dir, err := webFolder()
	if err != nil {
		t.Fatalf("building the web folder: %v", err)
	}
	srv := httptest.NewServer(handler(dir)) // on 127.0.0.1
	t.Cleanup(srv.Close)

	var chromeOut bytes.Buffer
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chrome),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		// WebGL on the CPU: the machine (or CI) may have no GPU at all.
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		// No traffic but to the test's server.
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.NoFirstRun,
		chromedp.WindowSize(1280, 720),
		chromedp.CombinedOutput(&syncWriter{w: &chromeOut}),
	)
	ctx, cancelTab := chromedp.NewContext(alloc)
	// The first Run starts the browser; its context must not time out
	// (that would stop the browser), so the limit is a timer. The page
	// gets exactly 1280×720 (the window's size includes a headless
	// browser's own bars).
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 720)); err != nil {
		cancelAlloc()
		t.Fatalf("starting %s: %v", chrome, err)
	}
	timer := time.AfterFunc(limit, cancelTab)
	t.Cleanup(func() {
		timer.Stop()
		cancelTab()
		cancelAlloc()
		if t.Failed() {
			t.Logf("the browser's output:\n%s", chromeOut.String())
		}
	})
	return ctx, srv.URL
}

// syncWriter lets the browser's output be read while it is written.
type syncWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// appState is what the app publishes in window.netcubes (ui/platform_js.go).
type appState struct {
	ID, Name, Mode string
	Tick, Frame    int
	TPS            float64
	TickMs         float64
	TickMaxMs      float64
	DrawMs         float64
	FrameMs        float64
	DrawMsP50      float64
	DrawMsP10      float64
	DrawFrames     int
}

func readState(ctx context.Context) (appState, error) {
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify(window.netcubes || {})`))
	if err != nil {
		return appState{}, err
	}
	var st appState
	err = json.Unmarshal([]byte(s), &st)
	return st, err
}

// start opens the page at query, waits for the app to load, presses Start
// and waits until the app has run ticks ticks.
func start(t *testing.T, ctx context.Context, base, query string, ticks int) appState {
	t.Helper()
	err := chromedp.Do(ctx,
		chromedp.Navigate(base+"/"+query),
		chromedp.WaitEnabled(chromedp.ID("start")),
		chromedp.Click(chromedp.ID("start")),
	)
	if err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	waitTick(t, ctx, ticks)
	st, err := readState(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// waitTick waits until the app has run tick ticks.
func waitTick(t *testing.T, ctx context.Context, tick int) {
	t.Helper()
	waitTickWithin(t, ctx, tick, 90*time.Second)
}

// waitTickWithin is waitTick with its own time limit.
func waitTickWithin(t *testing.T, ctx context.Context, tick int, limit time.Duration) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`window.netcubes && window.netcubes.tick >= %d`, tick),
		chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(limit)))
	if err != nil {
		msg, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("message").textContent`))
		t.Fatalf("waiting for tick %d: %v (the page says %q)", tick, err, msg)
	}
}

// press presses and releases key r as a finger does: held for a few
// ticks, so the app's tick sees it down whatever the frame timing.
func press(r rune) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, k := range kb.Encode(r) {
			if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, *k); err != nil {
				return err
			}
			if k.Type == kb.KeyDown {
				time.Sleep(100 * time.Millisecond)
			}
		}
		return nil
	})
}

// TestBrowser opens the page with flags in its address, starts the app,
// presses 3 (state synchronization, at build-up step 5 from the address)
// and ] (step 6), and checks
// what the app says it shows (window.netcubes) and what is on the screen:
// the canvas fills the window with the two views and the HUD, not a blank
// or a single colour.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	ctx, base := browser(t, 4*time.Minute)
	before := start(t, ctx, base, "?strategy=compression&step=5&preset=intercontinental&script=katamari&mute", 60)
	if before.ID != "compression" {
		t.Fatalf("started with strategy %q, want compression (from ?strategy=compression)", before.ID)
	}
	if err := chromedp.Do(ctx, press('3')); err != nil {
		t.Fatal(err)
	}
	waitTick(t, ctx, before.Tick+10)
	mid, err := readState(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if mid.ID != "statesync" {
		t.Fatalf("after 3 the strategy is %q, want statesync", mid.ID)
	}
	if err := chromedp.Do(ctx, press(']')); err != nil {
		t.Fatal(err)
	}
	waitTick(t, ctx, mid.Tick+10)
	after, err := readState(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(mid.Mode, "step 5 ") {
		t.Errorf("state sync's mode is %q, want step 5 (from ?step=5)", mid.Mode)
	}
	if after.ID != "statesync" || !strings.HasPrefix(after.Mode, "step 6 ") {
		t.Errorf("after ] the strategy is %q in mode %q, want statesync at step 6", after.ID, after.Mode)
	}
	t.Logf("%s (%s) → %s (%s) → %s", before.Name, before.Mode, mid.Name, mid.Mode, after.Mode)
	t.Logf("tick %d: %.0f ticks/s, tick %.2f ms (max %.2f), Go side of Draw %.2f ms, frame interval %.2f ms",
		after.Tick, after.TPS, after.TickMs, after.TickMaxMs, after.DrawMs, after.FrameMs)

	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("NETCUBES_SHOTS"); dir != "" {
		os.WriteFile(dir+"/browser.png", shot, 0o644)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got != image.Pt(1280, 720) {
		t.Errorf("screenshot %v, want 1280×720", got)
	}
	checkDrawn(t, img)
}

// checkDrawn fails unless img shows the app: many colours in each half
// (cubes, ground, sky), and text colours in the top bar.
func checkDrawn(t *testing.T, img image.Image) {
	t.Helper()
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	for _, r := range []struct {
		name string
		rect image.Rectangle
		min  int
	}{
		{"left view", image.Rect(0, h/6, w/2-10, h*3/4), 40},
		{"right view", image.Rect(w/2+10, h/6, w, h*3/4), 40},
		{"top bar", image.Rect(0, 0, w, h/12), 20},
	} {
		if n := colours(img, r.rect, 200); n < r.min {
			t.Errorf("%s: %d colours, want at least %d: blank?", r.name, n, r.min)
		}
	}
}

// colours counts the distinct colours in r, up to limit.
func colours(img image.Image, r image.Rectangle, limit int) int {
	seen := map[[3]uint32]bool{}
	for y := r.Min.Y; y < r.Max.Y; y += 2 {
		for x := r.Min.X; x < r.Max.X; x += 2 {
			c, g, b, _ := img.At(x, y).RGBA()
			seen[[3]uint32{c, g, b}] = true
			if len(seen) >= limit {
				return limit
			}
		}
	}
	return len(seen)
}

// TestBrowserRefusesInOneLine: a flag that needs a file (-screenshot) or
// a socket (-role) gives one line on the page and the intro back, and ?help
// lists the flags there; nothing fails silently.
func TestBrowserRefusesInOneLine(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	ctx, base := browser(t, 3*time.Minute)
	for _, tt := range []struct{ query, want string }{
		{"?screenshot=a.png&frames=10", "netcubes: -screenshot writes a file, which a web page cannot"},
		{"?role=left&listen=:40000", "netcubes: -role: two processes talk over UDP, which a web page cannot"},
		{"?strategy=magic", `netcubes: unknown -strategy "magic"`},
		{"?help", "-strategy string"},
	} {
		err := chromedp.Do(ctx,
			chromedp.Navigate(base+"/"+tt.query),
			chromedp.WaitEnabled(chromedp.ID("start")),
			chromedp.Click(chromedp.ID("start")),
		)
		if err != nil {
			t.Fatalf("%s: %v", tt.query, err)
		}
		msg, err := chromedp.Run(ctx, chromedp.Poll[string](`window.netcubesExit !== undefined && document.getElementById("message").textContent`,
			chromedp.WithPollingInterval(50*time.Millisecond), chromedp.WithPollingTimeout(60*time.Second)))
		if err != nil {
			t.Fatalf("%s: the app did not stop: %v", tt.query, err)
		}
		if !strings.Contains(msg, tt.want) {
			t.Errorf("%s: the page says %q, want %q", tt.query, msg, tt.want)
		}
		if tt.query != "?help" && strings.Count(strings.TrimSpace(msg), "\n") > 0 {
			t.Errorf("%s: more than one line: %q", tt.query, msg)
		}
		visible, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`!document.getElementById("intro").hidden`))
		if err != nil || !visible {
			t.Errorf("%s: the intro is not back (%v)", tt.query, err)
		}
	}
}

// figuresEnv asks TestBrowserFigures to measure.
const figuresEnv = "NETCUBES_BROWSER_FIGURES"

// TestBrowserFigures measures the app in the browser at 1280×720, each
// strategy (and the 2004 strategy's player-only replay) on a page of its
// own, playing the katamari script on the intercontinental preset: from
// its 120th tick, over about four seconds (the last whole second the page
// measured), ticks reached per second, the cost of one tick (keys, the
// session's step: both sides' physics and strategies) and of the Go side
// of Draw, and the interval between drawn frames. A measurement, not a
// check: it runs only with NETCUBES_BROWSER_FIGURES=1.
func TestBrowserFigures(t *testing.T) {
	if os.Getenv(figuresEnv) != "1" {
		t.Skipf("a measurement: set %s=1", figuresEnv)
	}
	ctx, base := browser(t, 40*time.Minute)
	for _, c := range []struct{ label, flags string }{
		{"1 snapshot interpolation", "strategy=interpolation"},
		{"2 snapshot compression", "strategy=compression"},
		{"3 state synchronization", "strategy=statesync"},
		{"4 deterministic lockstep", "strategy=lockstep"},
		{"5 prediction (2004), whole-world replay", "strategy=predict"},
		{"5 prediction (2004), player-only replay", "strategy=predict&predict-scope=player"},
		{"6 distributed authority", "strategy=authority"},
		{"7 rollback", "strategy=rollback"},
	} {
		start(t, ctx, base, "?mute&script=katamari&preset=intercontinental&"+c.flags, 1)
		// A loaded machine may take minutes to get there.
		waitTickWithin(t, ctx, 2*60, 5*time.Minute)
		time.Sleep(4 * time.Second)
		st, err := readState(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-42s %-32.32q %5.1f ticks/s  tick %6.2f ms (max %6.2f)  Draw %6.2f ms  frame %7.2f ms",
			c.label, st.Mode, st.TPS, st.TickMs, st.TickMaxMs, st.DrawMs, st.FrameMs)
	}
}

// TestBrowserDrawCost measures the Go side of Draw in WebAssembly in the
// scene BenchmarkDraw measures natively (ui/draw_bench_test.go): the app as
// it starts (snapshot interpolation, perfect link) at 1280×720, playing
// the katamari script, from its 300th tick. The page's median of its last
// 60 frames (window.netcubes.drawMsP50), read when 60 frames have been
// drawn since the 300th tick and then four times more, each time after 20
// more frames.
// A measurement, not a check: it runs only with NETCUBES_BROWSER_FIGURES=1.
func TestBrowserDrawCost(t *testing.T) {
	if os.Getenv(figuresEnv) != "1" {
		t.Skipf("a measurement: set %s=1", figuresEnv)
	}
	ctx, base := browser(t, 15*time.Minute)
	start(t, ctx, base, "?mute&script=katamari&preset=perfect&strategy=interpolation", 1)
	waitTickWithin(t, ctx, 300, 5*time.Minute)
	var p50s []float64
	st, err := readState(ctx)
	if err != nil {
		t.Fatal(err)
	}
	frames := st.DrawFrames + 60
	for range 5 {
		waitFrames(t, ctx, frames)
		frames += 20
		st, err := readState(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("tick %d: Go side of Draw median %.2f ms, tenth percentile %.2f ms (last 60 frames; mean of the last second %.2f ms), frame interval %.1f ms, %.1f ticks/s",
			st.Tick, st.DrawMsP50, st.DrawMsP10, st.DrawMs, st.FrameMs, st.TPS)
		p50s = append(p50s, st.DrawMsP50)
	}
	slices.Sort(p50s)
	t.Logf("median of the medians: %.2f ms", p50s[len(p50s)/2])
}

// waitFrames waits until the page has drawn frames frames.
func waitFrames(t *testing.T, ctx context.Context, frames int) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`window.netcubes && window.netcubes.drawFrames >= %d`, frames),
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(5*time.Minute)))
	if err != nil {
		t.Fatalf("waiting for frame %d: %v", frames, err)
	}
}
