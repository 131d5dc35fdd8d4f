package ui

// Audio is a nicety and must never cost the show. Ebitengine opens the sound
// device asynchronously and, when that fails (no sound card, as on a CI
// machine or a locked-down lecture-hall PC), returns the error from
// RunGame, which would end the app. A stuck driver could also hang. So the
// app first asks a throwaway copy of itself to open the device (a
// subprocess with a time limit), and only when that succeeds creates the
// real audio context. Until then, and forever if it fails, sounds are
// silently skipped.
//
// Loudness follows the physics: an impact's volume is the speed change its
// contact impulse gave the lighter body, and a token bucket limits impacts
// to a few per second so a katamari ball forming does not roar.

import (
	"context"
	"os"
	"os/exec"
	"sync/atomic"
	"time"

	"github.com/ebitengine/oto/v3"
	"github.com/hajimehoshi/ebiten/v2/audio"

	"netcubes/assets"
	"netcubes/cubes"
	"netcubes/physics"
)

// AudioProbeEnv makes the binary act as the audio probe (see RunAudioProbe).
const AudioProbeEnv = "NETCUBES_AUDIO_PROBE"

// audioProbeHangEnv makes the probe hang, to test that a stuck device does
// not stop the app.
const audioProbeHangEnv = "NETCUBES_AUDIO_PROBE_HANG"

// probeTimeout is how long the app waits for the probe before giving up on
// sound.
const probeTimeout = 3 * time.Second

// RunAudioProbe must be called first thing in main. When the process was
// started as the audio probe it tries to open the sound device and exits
// with status 0 if it works, 1 if not; otherwise it returns at once.
func RunAudioProbe() {
	if os.Getenv(AudioProbeEnv) != "1" {
		return
	}
	if os.Getenv(audioProbeHangEnv) == "1" {
		select {}
	}
	ctx, ready, err := oto.NewContext(&oto.NewContextOptions{
		SampleRate:   assets.SampleRate,
		ChannelCount: 2,
		Format:       oto.FormatSignedInt16LE,
	})
	if err != nil {
		os.Exit(1)
	}
	<-ready
	if ctx.Err() != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

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

// audioState values.
const (
	audioProbing int32 = iota
	audioReady
	audioUnavailable
)

// sounds plays the app's sound effects.
type sounds struct {
	state   atomic.Int32 // set by the probe goroutine, read by the game loop
	ctx     *audio.Context
	impacts [][]byte
	blow    []byte
	click   []byte
	muted   bool
	players []*audio.Player
	tokens  float64 // impact budget, refilled per tick
	pairs   []physics.ContactPair
}

// Impact rate limit: tokens refill at impactsPerSecond and cap at
// impactBurst; each impact sound spends one.
const (
	impactsPerSecond = 8
	impactBurst      = 3
	// minImpactSpeed is the smallest speed change (m/s) worth a sound;
	// fullImpactSpeed plays at full volume.
	minImpactSpeed  = 1.0
	fullImpactSpeed = 8.0
)

// newSounds starts the probe in the background; disabled skips it.
func newSounds(disabled bool) *sounds {
	s := &sounds{blow: assets.Blow(), click: assets.Click()}
	for i := 0; i < assets.ImpactVariants; i++ {
		s.impacts = append(s.impacts, assets.Impact(i))
	}
	if disabled {
		s.state.Store(audioUnavailable)
		return s
	}
	go func() {
		if probeAudio() {
			s.state.Store(audioReady)
		} else {
			s.state.Store(audioUnavailable)
		}
	}()
	return s
}

// status is a word for the HUD.
func (s *sounds) status() string {
	switch {
	case s.muted:
		return "muted"
	case s.state.Load() == audioProbing:
		return "starting"
	case s.state.Load() == audioUnavailable:
		return "no device"
	}
	return "on"
}

// ready creates the audio context once the probe succeeded and reports
// whether sounds can play now.
func (s *sounds) ready() bool {
	if s.muted || s.state.Load() != audioReady {
		return false
	}
	if s.ctx == nil {
		s.ctx = audio.NewContext(assets.SampleRate)
	}
	return true
}

// play starts pcm at volume 0..1.
func (s *sounds) play(pcm []byte, volume float64) {
	if !s.ready() || volume <= 0 {
		return
	}
	// Finished players are closed and forgotten.
	live := s.players[:0]
	for _, p := range s.players {
		if p.IsPlaying() {
			live = append(live, p)
		} else {
			p.Close()
		}
	}
	s.players = live
	if len(s.players) >= 16 {
		return
	}
	p := s.ctx.NewPlayerFromBytes(pcm)
	p.SetVolume(min(1, volume))
	p.Play()
	s.players = append(s.players, p)
}

func (s *sounds) clickSound() { s.play(s.click, 0.5) }
func (s *sounds) blowSound()  { s.play(s.blow, 0.8) }

// tick plays the impacts of the last physics step of w.
func (s *sounds) tick(w *cubes.World) {
	s.tokens = min(impactBurst, s.tokens+impactsPerSecond/60.0)
	if !s.ready() || s.tokens < 1 {
		return
	}
	ph := w.Physics()
	s.pairs = ph.ContactPairs(s.pairs[:0])
	best, bestSpeed := -1, minImpactSpeed
	for i, p := range s.pairs {
		if !p.Began {
			continue
		}
		// The speed change of the lighter body tells how hard it hit.
		m := ph.Mass(p.A)
		if p.B != physics.Ground {
			m = min(m, ph.Mass(p.B))
		}
		if dv := p.NormalImpulse / m; dv > bestSpeed {
			best, bestSpeed = i, dv
		}
	}
	if best < 0 {
		return
	}
	s.tokens--
	v := (bestSpeed - minImpactSpeed) / (fullImpactSpeed - minImpactSpeed)
	s.play(s.impacts[(w.Frame()+best)%len(s.impacts)], 0.15+0.6*min(1, v))
}
