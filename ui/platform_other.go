//go:build !js

package ui

// The desktop's side of what differs in a web page (platform_js.go): the
// app runs as it is, the recording goes to its file, and the sound device
// is probed by a throwaway copy of the process.

import (
	"context"
	"os"
	"os/exec"

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
	c, cancel := context.WithTimeout(context.Background(), probeTimeout)
	defer cancel()
	cmd := exec.CommandContext(c, exe)
	cmd.Env = append(os.Environ(), AudioProbeEnv+"=1")
	// The probe's own chatter (ALSA prints to stderr) is not the
	// presenter's business.
	cmd.Stdout, cmd.Stderr = nil, nil
	return cmd.Run() == nil
}
