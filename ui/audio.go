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
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/ebitengine/oto/v3"
	"github.com/hajimehoshi/ebiten/v2/audio"

	"netcubes/assets"
	"netcubes/game"
)

// AudioProbeEnv makes the binary act as the audio probe (see RunAudioProbe).
const AudioProbeEnv = "NETCUBES_AUDIO_PROBE"

// audioProbeHangEnv makes the probe hang, to test that a stuck device does
// not stop the app.
const audioProbeHangEnv = "NETCUBES_AUDIO_PROBE_HANG"

// audioProbeLimitEnv replaces probeTimeout (a Go duration), so a test can
// make the app exit while its probe still runs, whatever the machine's load.
const audioProbeLimitEnv = "NETCUBES_AUDIO_PROBE_LIMIT"

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
	// The app holds the other end of the probe's standard input: when the
	// app is gone, for whatever reason, the read ends and so does the
	// probe, even one stuck in a sound driver. No copy outlives the app.
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(1)
	}()
	if os.Getenv(audioProbeHangEnv) == "1" {
		for {
			time.Sleep(time.Hour)
		}
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

// audioState values.
const (
	audioProbing int32 = iota
	audioReady
	audioUnavailable
	audioNotProbed // -mute: nothing opened yet; the first unmute probes
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

// newSounds starts the probe in the background; muted (-mute) starts
// muted and opens nothing until the presenter unmutes (M).
func newSounds(muted bool) *sounds {
	s := &sounds{blow: assets.Blow(), click: assets.Click(), muted: muted}
	for i := 0; i < assets.ImpactVariants; i++ {
		s.impacts = append(s.impacts, assets.Impact(i))
	}
	if muted {
		s.state.Store(audioNotProbed)
		return s
	}
	s.startProbe(probeAudio)
	return s
}

// startProbe looks for a sound device in the background.
func (s *sounds) startProbe(probe func() bool) {
	s.state.Store(audioProbing)
	go func() {
		if probe() {
			s.state.Store(audioReady)
		} else {
			s.state.Store(audioUnavailable)
		}
	}()
}

// toggleMute is the M key: it mutes or unmutes, probing for a device the
// first time sound is asked for after -mute, and says what happened.
func (s *sounds) toggleMute(probe func() bool) string {
	s.muted = !s.muted
	if !s.muted && s.state.Load() == audioNotProbed {
		s.startProbe(probe)
	}
	return "sound " + s.status()
}

// status is a word for the HUD.
func (s *sounds) status() string {
	switch {
	case s.muted:
		return "muted"
	case s.state.Load() == audioProbing:
		return "on as soon as the sound device answers"
	case s.state.Load() == audioUnavailable:
		return "unavailable: no sound device answered"
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
	// Finished players are forgotten: they hold no device resource once
	// they stopped (Ebitengine v2.10 deprecates Close; the garbage collector
	// takes the player).
	live := s.players[:0]
	for _, p := range s.players {
		if p.IsPlaying() {
			live = append(live, p)
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

// tick plays the hardest impact of the session's last step.
func (s *sounds) tick(sess *game.Session) {
	s.tokens = min(impactBurst, s.tokens+impactsPerSecond/60.0)
	if !s.ready() || s.tokens < 1 {
		return
	}
	im, ok := sess.HardestImpact(minImpactSpeed)
	if !ok {
		return
	}
	s.tokens--
	v := (im.Speed - minImpactSpeed) / (fullImpactSpeed - minImpactSpeed)
	s.play(s.impacts[(sess.Frame()+im.Index)%len(s.impacts)], 0.15+0.6*min(1, v))
}
