//go:build !js

package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"netcubes/game"
	"netcubes/room"
	"netcubes/ui/launch"
)

// The classroom in a real browser: a room on 127.0.0.1 (its session
// headless in this process), pages that join it from headless Chromium
// and drive their players with the arrow keys.
//
// WebRTC on loopback in headless Chromium needs two flags: by default
// Chromium gathers no loopback candidates (--allow-loopback-in-peer-connection)
// and hides its host addresses behind mDNS names
// (--disable-features=WebRtcHideLocalIpsWithMdns), which the room does
// not resolve. The room offers only its loopback address.

// roomTestStrategy is the room's strategy in the test: one in which each
// client drives its own player. Distributed authority, not the 2004
// prediction: a 2004 client must tick at the server's 60 Hz to stamp its
// inputs ahead of the server (the server drops late ones), which a page
// sharing two cores of software WebGL with two others cannot promise; an
// authority client's player moves at whatever pace its page ticks.
const roomTestStrategy = "authority"

// roomWorld is what the test reads of the room's session on its tick.
type roomWorld struct {
	room      *room.Room
	tabs      []context.Context
	mu        sync.Mutex
	pos       [8][2]float64 // each player's x, y
	connected [16]bool
	reports   [4]game.ClientReport // the first four slots' reports
	frame     int
}

func (w *roomWorld) read(s *game.Session) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.frame = s.Frame()
	v := s.LeftView()
	for p := range s.NumPlayers() {
		if i := s.Left().PlayerCube(p); i < len(v.Cubes) {
			w.pos[p] = [2]float64{v.Cubes[i].Position.X(), v.Cubes[i].Position.Y()}
		}
	}
	srv := s.Server()
	for k := range min(len(w.connected), srv.MaxClients()) {
		w.connected[k] = srv.Slot(k).Connected
	}
	for k := range w.reports {
		w.reports[k] = s.ClientReport(k)
	}
}

// waitReports waits until the pages in slots 0..n-1 have reported their
// figures (error, ticks and frames a second) and a view to the room.
func waitReports(t *testing.T, w *roomWorld, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		w.mu.Lock()
		rs := w.reports
		w.mu.Unlock()
		done := true
		for k := range n {
			done = done && rs[k].Has && rs[k].HasRates && rs[k].TPS > 0 && rs[k].Refused == 0
		}
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pages' reports after 30 s: %+v", rs[:n])
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (w *roomWorld) snapshot() ([8][2]float64, [16]bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.pos, w.connected
}

// hostRoom starts a headless room on 127.0.0.1 serving the web folder and
// returns the address to open.
func hostRoom(t *testing.T, force bool, w *roomWorld) string {
	t.Helper()
	dir, err := webFolder()
	if err != nil {
		t.Fatalf("building the web folder: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	var log syncWriter
	log.w = new(bytes.Buffer)
	go func() {
		done <- launch.HostRoom(ctx, launch.RoomOptions{Addr: "127.0.0.1:0", Static: handler(dir), ForceWebSocket: force,
			Headless: true, Ready: func(u string) { ready <- u }, OnTick: w.read,
			OnRoom: func(r *room.Room) { w.room = r }},
			[]string{"-players", "4", "-bots", "idle", "-mute", "-strategy", roomTestStrategy}, &log)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		if t.Failed() {
			t.Logf("the room's output:\n%s", log.w.String())
		}
	})
	select {
	case u := <-ready:
		return u
	case err := <-done:
		t.Fatalf("the room did not start: %v", err)
	case <-time.After(30 * time.Second):
		t.Fatal("the room did not start in 30 s")
	}
	return ""
}

// roomBrowser starts headless Chromium with WebRTC on loopback.
func roomBrowser(t *testing.T, limit time.Duration) context.Context {
	t.Helper()
	chrome := findChrome()
	if chrome == "" {
		t.Skipf("no Chromium or Chrome on PATH (chromium, chromium-browser, google-chrome; or set $%s): "+
			"the classroom's browser test needs one (make test installs chromium on Debian)", chromeEnv)
	}
	var out syncWriter
	out.w = new(bytes.Buffer)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chrome),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("use-angle", "swiftshader"),
		chromedp.Flag("enable-unsafe-swiftshader", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		// Every page keeps ticking, though only one has the focus.
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		// WebRTC on loopback (above).
		chromedp.Flag("allow-loopback-in-peer-connection", true),
		chromedp.Flag("disable-features", "WebRtcHideLocalIpsWithMdns"),
		chromedp.NoFirstRun,
		chromedp.WindowSize(640, 360),
		chromedp.CombinedOutput(&out),
	)
	ctx, cancel := chromedp.NewContext(alloc)
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(640, 360)); err != nil {
		cancelAlloc()
		t.Fatalf("starting %s: %v", chrome, err)
	}
	timer := time.AfterFunc(limit, cancel)
	t.Cleanup(func() {
		timer.Stop()
		cancel()
		cancelAlloc()
		if t.Failed() {
			t.Logf("the browser's output:\n%s", out.w.String())
		}
	})
	return ctx
}

// joinPage opens a new tab on url, presses Start and waits until the app
// runs as a right that joined.
func joinPage(t *testing.T, browser context.Context, url string) (context.Context, context.CancelFunc) {
	t.Helper()
	tab, cancel := chromedp.NewContext(browser)
	err := chromedp.Do(tab,
		chromedp.EmulateViewport(640, 360),
		// Software WebGL without anti-aliasing: several pages share two cores.
		chromedp.Navigate(url+"&antialias=false&mute"),
		chromedp.WaitEnabled(chromedp.ID("start")),
		chromedp.Click(chromedp.ID("start")),
	)
	if err != nil {
		cancel()
		t.Fatalf("loading %s: %v", url, err)
	}
	_, err = chromedp.Run(tab, chromedp.Poll[bool](`window.netcubes && window.netcubes.tick >= 30`,
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(90*time.Second)))
	if err != nil {
		msg, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("message").textContent`))
		cancel()
		t.Fatalf("the page did not run: %v (it says %q)", err, msg)
	}
	return tab, cancel
}

// hold brings the page to the front (keys go to the page that has the
// focus) and holds key r down for d.
func hold(r rune, d time.Duration) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, cdppage.BringToFront, cdp.Empty{}); err != nil {
			return err
		}
		for _, k := range kb.Encode(r) {
			if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, *k); err != nil {
				return err
			}
			if k.Type == kb.KeyDown {
				time.Sleep(d)
			}
		}
		return nil
	})
}

// drive holds key r on page k (a second at a time: a page on a loaded
// machine ticks slowly) until the room sees player p move half a metre.
func drive(t *testing.T, w *roomWorld, tab context.Context, k, p int, r rune) {
	t.Helper()
	start, _ := w.snapshot()
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		if err := chromedp.Do(tab, hold(r, time.Second)); err != nil {
			t.Fatalf("page %d: %v", k+1, err)
		}
		time.Sleep(200 * time.Millisecond)
		if pos, _ := w.snapshot(); math.Hypot(pos[p][0]-start[p][0], pos[p][1]-start[p][1]) > 0.5 {
			return
		}
	}
	pos, _ := w.snapshot()
	shootPages(w, "failed")
	t.Fatalf("page %d held its key for 90 s, player %d did not move: %v → %v", k+1, p+1, start[p], pos[p])
}

// waitRoom waits until cond holds of the room's world.
func waitRoom(t *testing.T, w *roomWorld, what string, cond func(pos [8][2]float64, conn [16]bool) bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if pos, conn := w.snapshot(); cond(pos, conn) {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	pos, conn := w.snapshot()
	if w.room != nil {
		t.Logf("the room: %+v; connections %+v", w.room.Counts(), w.room.Peers())
	}
	for k, tab := range w.tabs {
		msg, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("message").textContent`))
		t.Logf("page %d says %q", k+1, msg)
	}
	shootPages(w, "failed")
	t.Fatalf("%s: not after 60 s (players at %v, slots %v)", what, pos[:4], conn[:4])
}

// shootPages saves each page's screen as NETCUBES_SHOTS/room-NAME-k.png.
func shootPages(w *roomWorld, name string) {
	dir := os.Getenv("NETCUBES_SHOTS")
	if dir == "" {
		return
	}
	for k, tab := range w.tabs {
		if shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot()); err == nil {
			os.WriteFile(fmt.Sprintf("%s/room-%s-%d.png", dir, name, k+1), shot, 0o644)
		}
	}
}

// TestBrowserRoom: three pages join a room, each drives its player, the
// room sees three players move; one page closes and its slot frees; a
// fourth joins and takes it. Over data channels, and again with the
// WebSocket forced.
func TestBrowserRoom(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	for _, force := range []bool{false, true} {
		t.Run(map[bool]string{false: "data channel", true: "WebSocket forced"}[force], func(t *testing.T) {
			var w roomWorld
			url := hostRoom(t, force, &w)
			browser := roomBrowser(t, 4*time.Minute)
			wantVia := map[bool]string{false: "WebRTC", true: "WebSocket"}[force]
			var tabs []context.Context
			var closers []context.CancelFunc
			for k := range 3 {
				tab, cancel := joinPage(t, browser, url)
				tabs, closers = append(tabs, tab), append(closers, cancel)
				w.tabs = tabs
				waitRoom(t, &w, fmt.Sprintf("page %d in slot %d", k+1, k), func(_ [8][2]float64, c [16]bool) bool { return c[k] })
			}
			defer func() {
				for _, c := range closers {
					c()
				}
			}()
			via, err := chromedp.Run(tabs[0], chromedp.Evaluate[string](`window.netcubes.transport || ""`))
			if err != nil || via != wantVia {
				t.Errorf("the page joined over %q (%v), want %s", via, err, wantVia)
			}
			for k, tab := range tabs {
				drive(t, &w, tab, k, k, '\u0304') // ArrowUp
			}
			// Each page reports its own figures to the host (its table's
			// error, lag, ticks/s and fps columns; Tab's panel).
			waitReports(t, &w, 3)
			shootPages(&w, wantVia)
			closers[1]()
			waitRoom(t, &w, "the closed page's slot freed", func(_ [8][2]float64, c [16]bool) bool { return !c[1] })
			tab, cancel := joinPage(t, browser, url)
			closers = append(closers, cancel)
			waitRoom(t, &w, "a fourth page in the freed slot", func(_ [8][2]float64, c [16]bool) bool { return c[1] })
			drive(t, &w, tab, 3, 1, '\u0302') // ArrowLeft
		})
	}
}
