//go:build !js

package ui

// The desktop's side of what differs in a web page (platform_js.go): the
// app runs as it is, the recording goes to its file, and the sound device
// is probed by a throwaway copy of the process.

import (
	"context"
	"os"
	"os/exec"
	"sync/atomic"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/cubes"
	"netcubes/talk"
)

// platformGame is the game Ebitengine runs: the app itself.
func platformGame(a *App) ebiten.Game { return a }

// saveScript saves the recording to its file (atomically).
func saveScript(path string, t *talk.Track) error { return cubes.SaveText(path, t) }

// probeAudio runs the probe and reports whether sound works.
func probeAudio() bool {
	exe, err := os.Executable()
	if err != nil {
		return false
	}
	limit := probeTimeout
	if d, err := time.ParseDuration(os.Getenv(audioProbeLimitEnv)); err == nil && d > 0 {
		limit = d
	}
	c, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(c, exe)
	cmd.Env = append(os.Environ(), AudioProbeEnv+"=1")
	// The probe's own chatter (ALSA prints to stderr) is not the
	// presenter's business.
	cmd.Stdout, cmd.Stderr = nil, nil
	// The probe reads its standard input until the app is gone (see
	// RunAudioProbe); the app keeps the write end open until the probe is
	// done, and the system closes it when the app exits. probeLife is
	// package state so the file stays open as long as the probe runs.
	r, w, err := os.Pipe()
	if err != nil {
		return false
	}
	cmd.Stdin = r
	err = cmd.Start()
	r.Close()
	if err != nil {
		w.Close()
		return false
	}
	probeLife.Store(w)
	err = cmd.Wait()
	probeLife.Store(nil)
	w.Close()
	return err == nil
}

// probeLife is the write end of the running probe's standard input.
var probeLife atomic.Pointer[os.File]
