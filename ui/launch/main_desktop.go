//go:build !js

package launch

// The desktop app's side of main: the command line is os.Args, messages go
// to the terminal, signals end the run as Ctrl+Q does and the recording is
// saved on the way out. The browser build's side is main_js.go.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/udp"
	"netcubes/ui"
	"netcubes/wire"
)

// messages is where errors and -h go: the terminal.
var messages io.Writer = os.Stderr

// commandLine is the app's arguments.
func commandLine() ([]string, error) { return os.Args[1:], nil }

// checkPlatform refuses what this platform cannot do: the desktop can do
// everything the flags ask.
func checkPlatform(options) error { return nil }

// exitCode is the process's status after run failed: 128 + the signal's
// number when a signal stopped it, as a shell reports a process killed by
// it, else 1.
func exitCode(err error) int {
	var st stoppedError
	if errors.As(err, &st) {
		return 128 + int(st.sig)
	}
	var refused udp.RefusedError
	if errors.As(err, &refused) {
		return udp.ExitRefused
	}
	return 1
}

// stopSignals end the run as Ctrl+Q does: the terminal's Ctrl+C, a kill,
// a closed terminal. The recording is saved on the way out.
var stopSignals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// screenshotTPS is the tick rate asked for with -screenshot: far more than
// any machine reaches, so the ticks are limited by the CPU alone.
const screenshotTPS = 100 * wire.TicksPerSecond

// stopGrace is how long a signalled app may take to end its run (the next
// tick) before main gives up on it and exits with what was last saved.
const stopGrace = 3 * time.Second

// stoppedError is the run ended by a signal: main exits with 128 + its
// number, as a shell reports a process killed by it.
type stoppedError struct{ sig syscall.Signal }

func (e stoppedError) Error() string { return "stopped by " + signalName(e.sig) }

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return s.String()
}

func run(o options) error {
	if err := openNetwork(&o, os.Stdout); err != nil {
		return err
	}
	return runOpen(o)
}

// runOpen runs the app once its connection, if any, is open.
func runOpen(o options) error {
	// The connection says goodbye on the way out (the other side frees
	// its slot at once instead of waiting for its timeout).
	if c := o.ui.Session.Client; c != nil {
		defer c.Close()
	}
	if s := o.ui.Session.Server; s != nil && !o.net.headless {
		defer s.Close()
	}
	if o.net.headless {
		return runHeadless(o)
	}
	ebiten.SetWindowSize(windowFor(o))
	if o.ui.Screenshot != "" || o.ui.Capture.On() && o.ui.Track != nil {
		// The picture is of tick -frames whatever the pace, and nobody
		// watches the way there: run the ticks as fast as the machine
		// allows (Ebitengine then runs many per drawn frame; a capture
		// waits for each to be drawn) instead of 60 a second.
		ebiten.SetTPS(screenshotTPS)
		ebiten.SetVsyncEnabled(false)
	}
	if o.ui.Capture.On() {
		o.ui.Capture.Progress = os.Stderr
	}
	stop := make(chan struct{})
	o.ui.Stop = stop
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, stopSignals...)
	defer signal.Stop(sigs)
	var got atomic.Value // syscall.Signal
	go func() {
		s, ok := <-sigs
		if !ok {
			return
		}
		sig, _ := s.(syscall.Signal)
		got.Store(sig)
		close(stop)
		// The app ends at its next tick. If it cannot (its loop is stuck),
		// the recording on disk is the one saved last second.
		time.Sleep(stopGrace)
		fmt.Fprintf(os.Stderr, "netcubes: %s; the app did not stop within %v", stoppedError{sig}, stopGrace)
		if o.ui.RecordPath != "" {
			fmt.Fprintf(os.Stderr, "; the recording saved last is in %s", o.ui.RecordPath)
		}
		fmt.Fprintln(os.Stderr)
		os.Exit(128 + int(sig))
	}()
	app, err := ui.Run(o.ui)
	if app != nil && err != nil {
		// A failed run (no display, an error) captured nothing worth
		// keeping, and must not replace a good video with its own.
		app.AbortCapture()
	} else if app != nil {
		summary, cerr := app.FinishCapture()
		if cerr != nil {
			fmt.Fprintf(os.Stderr, "netcubes: capture: %v\n", cerr)
			if err == nil {
				err = cerr
			}
		} else if summary != "" {
			fmt.Fprintln(os.Stderr, "netcubes:", summary)
		}
	}
	if app != nil && o.ui.RecordPath != "" {
		frames, werr := app.SaveRecording()
		if werr != nil {
			fmt.Fprintf(os.Stderr, "netcubes: cannot save the recording to %s: %v\n", o.ui.RecordPath, werr)
			if err == nil {
				err = werr
			}
		} else if frames > 0 {
			fmt.Fprintf(os.Stderr, "netcubes: recording of %d ticks (%.1f s) saved to %s\n",
				frames, float64(frames)/wire.TicksPerSecond, o.ui.RecordPath)
		}
	}
	if sig, ok := got.Load().(syscall.Signal); ok && err == nil {
		err = stoppedError{sig}
	}
	return err
}

// windowFor is the window's size: -width × -height, or for a capture
// larger than a display (the capture draws at its own size whatever the
// window's) the same shape within 1600 × 900.
func windowFor(o options) (int, int) {
	w, h := o.width, o.height
	if !o.ui.Capture.On() || w <= defaultWidth && h <= defaultHeight {
		return w, h
	}
	s := min(float64(defaultWidth)/float64(w), float64(defaultHeight)/float64(h))
	return max(int(float64(w)*s), minWidth), max(int(float64(h)*s), minHeight)
}
