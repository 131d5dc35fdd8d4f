package ui

import (
	"fmt"
	"math"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// Link knob steps and limits.
const (
	latencyStepMs = 10
	jitterStepMs  = 5
	lossStep      = 1.0 // percent
	maxLatencyMs  = 1000
	maxJitterMs   = 500
	maxLoss       = 50.0
	tapOutage     = wire.TicksPerSecond // a tap of the outage key drops 1 s
)

// capSteps are the bandwidth caps F7 steps through, kbit/s (0: no cap),
// tighter with each press: from a line that carries everything but the
// uncompressed snapshots down to one that starves even state sync's budget.
var capSteps = []float64{0, 2048, 1024, 512, 256, 128, 64}

// nextCap returns the cap after cur in capSteps going dir (+1 tighter, −1
// looser), wrapping through "off"; a cap between two steps (a preset's, a
// flag's) moves to the next step that way, or off past the end.
func nextCap(cur float64, dir int) float64 {
	n := len(capSteps)
	for i, v := range capSteps {
		if v == cur {
			return capSteps[((i+dir)%n+n)%n]
		}
	}
	if !(cur > 0) {
		return capSteps[((dir)%n+n)%n]
	}
	if dir > 0 {
		for _, v := range capSteps[1:] {
			if v < cur {
				return v
			}
		}
		return 0
	}
	for i := n - 1; i >= 1; i-- {
		if capSteps[i] > cur {
			return capSteps[i]
		}
	}
	return 0
}

// buildBindings returns the key table for the strategies in list (the
// closures take the app as an argument, so one table serves any session
// with that list).
func buildBindings(list []strategy.Strategy) []binding {
	t := []binding{
		{group: "Drive the left world", label: "Arrows", help: "move the player cube (it rolls and tumbles)"},
		{group: "Drive the left world", label: "Space", help: "blow: push nearby cubes away, lift the player"},
		{group: "Drive the left world", label: "Z", help: "katamari: pull nearby cubes into a ball"},
	}
	t = append(t, strategyBindings(list)...)
	t = append(t,
		binding{group: "Network", keys: keys(ebiten.KeyN), shift: noShift, label: "N", help: "next network preset",
			do: func(a *App) { a.cyclePreset(+1) }},
		binding{group: "Network", keys: keys(ebiten.KeyN), shift: withShift, label: "Shift+N", help: "previous network preset",
			do: func(a *App) { a.cyclePreset(-1) }},
		binding{group: "Network", keys: keys(ebiten.KeyL), shift: noShift, repeat: true, label: "L / Shift+L", help: fmt.Sprintf("latency +%d / −%d ms (one way)", latencyStepMs, latencyStepMs),
			do: func(a *App) {
				a.adjustLink(func(c *link.Config) { c.LatencyMs = math.Min(maxLatencyMs, c.LatencyMs+latencyStepMs) })
			}},
		binding{group: "Network", keys: keys(ebiten.KeyL), shift: withShift, repeat: true,
			do: func(a *App) {
				a.adjustLink(func(c *link.Config) { c.LatencyMs = math.Max(0, c.LatencyMs-latencyStepMs) })
			}},
		binding{group: "Network", keys: keys(ebiten.KeyU), shift: noShift, repeat: true, label: "U / Shift+U", help: fmt.Sprintf("jitter +%d / −%d ms", jitterStepMs, jitterStepMs),
			do: func(a *App) {
				a.adjustLink(func(c *link.Config) { c.JitterMs = math.Min(maxJitterMs, c.JitterMs+jitterStepMs) })
			}},
		binding{group: "Network", keys: keys(ebiten.KeyU), shift: withShift, repeat: true,
			do: func(a *App) {
				a.adjustLink(func(c *link.Config) { c.JitterMs = math.Max(0, c.JitterMs-jitterStepMs) })
			}},
		binding{group: "Network", keys: keys(ebiten.KeyK), shift: noShift, repeat: true, label: "K / Shift+K", help: "packet loss +1 / −1 %",
			do: func(a *App) {
				a.adjustLink(func(c *link.Config) { c.LossPercent = math.Min(maxLoss, c.LossPercent+lossStep) })
			}},
		binding{group: "Network", keys: keys(ebiten.KeyK), shift: withShift, repeat: true,
			do: func(a *App) {
				a.adjustLink(func(c *link.Config) { c.LossPercent = math.Max(0, c.LossPercent-lossStep) })
			}},
		binding{group: "Network", keys: keys(ebiten.KeyF7), shift: noShift, label: "F7 / Shift+F7", help: "bandwidth cap: off, 2048 … 64 kbit/s (a queue: delay, then loss)",
			do: func(a *App) { a.adjustLink(func(c *link.Config) { c.BandwidthKbps = nextCap(c.BandwidthKbps, +1) }) }},
		binding{group: "Network", keys: keys(ebiten.KeyF7), shift: withShift,
			do: func(a *App) { a.adjustLink(func(c *link.Config) { c.BandwidthKbps = nextCap(c.BandwidthKbps, -1) }) }},
		binding{group: "Network", keys: keys(ebiten.KeyY), label: "Y", help: "TCP-like link on/off (in order, lost packets resent late)",
			do: func(a *App) { a.adjustLink(func(c *link.Config) { c.TCPLike = !c.TCPLike }) }},
		binding{group: "Network", keys: keys(ebiten.KeyX), label: "X", help: "outage: drop every packet while held (a tap drops 1 s)",
			hold: func(a *App, down bool) { a.outageKey(down) }},

		binding{group: "Show", keys: keys(ebiten.KeyG), label: "G", help: "ghost: the left's true pose as a wireframe on the right",
			do: func(a *App) { a.overlays.Ghost = !a.overlays.Ghost; a.say("ghost %s", onOff(a.overlays.Ghost)) }},
		binding{group: "Show", keys: keys(ebiten.KeyT), label: "T", help: "tint: interacting / priority / updated this tick",
			do: func(a *App) { a.overlays.Tint = a.overlays.Tint.Next(); a.say("tint: %s", a.overlays.Tint) }},
		binding{group: "Show", keys: keys(ebiten.KeyE), label: "E", help: "smoothing error offsets as lines",
			do: func(a *App) {
				a.overlays.ErrorOffsets = !a.overlays.ErrorOffsets
				a.say("error offsets %s", onOff(a.overlays.ErrorOffsets))
			}},
		binding{group: "Show", keys: keys(ebiten.KeyH, ebiten.KeyF1), label: "H or F1", help: "this help",
			do: func(a *App) { a.help = !a.help }},
		binding{group: "Show", keys: keys(ebiten.KeyEqual, ebiten.KeyNumpadAdd), label: "= / -", help: "text larger / smaller",
			do: func(a *App) { a.fonts.scale = math.Min(2, a.fonts.scale*1.1) }},
		binding{group: "Show", keys: keys(ebiten.KeyMinus, ebiten.KeyNumpadSubtract),
			do: func(a *App) { a.fonts.scale = math.Max(0.6, a.fonts.scale/1.1) }},
		binding{group: "Show", keys: keys(ebiten.KeyF11), label: "F11 or Alt+Enter", help: "fullscreen",
			do: func(a *App) { ebiten.SetFullscreen(!ebiten.IsFullscreen()) }},
		binding{group: "Show", keys: keys(ebiten.KeyEnter), alt: true,
			do: func(a *App) { ebiten.SetFullscreen(!ebiten.IsFullscreen()) }},
		binding{group: "Show", keys: keys(ebiten.KeyF9), label: "F9", help: "smooth edges (anti-aliasing) on / off",
			do: func(a *App) { a.setAntiAlias(!a.left.AntiAlias); a.say("smooth edges %s", onOff(a.left.AntiAlias)) }},
		binding{group: "Show", keys: keys(ebiten.KeyM), label: "M", help: "mute / unmute sound",
			do: func(a *App) { a.say("%s", a.snd.toggleMute(probeAudio)) }},

		binding{group: "Players", keys: keys(ebiten.KeyTab), shift: noShift, label: "Tab / Shift+Tab", help: "show the next / previous client's screen on the right",
			do: func(a *App) { a.cycleClient(+1) }},
		binding{group: "Players", keys: keys(ebiten.KeyTab), shift: withShift,
			do: func(a *App) { a.cycleClient(-1) }},
		binding{group: "Players", keys: keys(ebiten.KeyF4), shift: noShift, label: "F4 / Shift+F4", help: "add / remove a player (bots drive players 2..8)",
			do: func(a *App) { a.changePlayers(+1) }},
		binding{group: "Players", keys: keys(ebiten.KeyF4), shift: withShift,
			do: func(a *App) { a.changePlayers(-1) }},

		binding{group: "Time", keys: keys(ebiten.KeyP), label: "P", help: "pause / resume",
			do: func(a *App) { a.paused = !a.paused }},
		binding{group: "Time", keys: keys(ebiten.KeyPeriod), repeat: true, label: ".", help: "single step (while paused)",
			do: func(a *App) { a.paused = true; a.stepOnce = true }},
		binding{group: "Time", keys: keys(ebiten.KeyComma), label: ",", help: "slow motion (¼ speed) on / off",
			do: func(a *App) { a.slow = !a.slow; a.say("slow motion %s", onOff(a.slow)) }},
		binding{group: "Time", keys: keys(ebiten.KeyF5), label: "F5", help: "reset: the world, the script and the right side start over",
			do: func(a *App) { a.reset() }},
		binding{group: "Time", keys: keys(ebiten.KeyQ), ctrl: true, label: "Ctrl+Q", help: "quit (a chord, so a stray key on stage cannot)",
			do: func(a *App) { a.quit = true }},
	)
	return t
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

func (a *App) selectEntry(i int) {
	if err := a.sess.SetStrategy(i); err != nil {
		a.err = err
		return
	}
	a.entry = i
	a.right.Reset()
	a.kbps.clear()
	a.say("%s", a.sess.Strategy().Name())
}

func (a *App) reset() {
	if err := a.restart(); err != nil {
		a.err = err
		return
	}
	a.say("reset")
}

// linkChoice is how one client's link conditions were chosen: a preset,
// or numbers adjusted away from it.
type linkChoice struct {
	preset int  // index into the link presets
	custom bool // link numbers adjusted away from the preset
}

// choiceOf is the choice a preset name (or "" for custom numbers) makes.
func choiceOf(name string) linkChoice {
	for p := link.Preset(0); p < link.NumPresets; p++ {
		if p.String() == name {
			return linkChoice{preset: int(p)}
		}
	}
	return linkChoice{custom: true}
}

// choice is client k's link choice; clients that joined later start with
// client 1's starting one.
func (a *App) choice(k int) *linkChoice {
	for len(a.links) <= k {
		a.links = append(a.links, choiceOf(a.opts.Preset))
	}
	return &a.links[k]
}

// The link keys act on the client shown: with several clients, each has
// links of its own (client 2 on mobile, client 3 on terrible).
func (a *App) cyclePreset(d int) {
	n := int(link.NumPresets)
	ch := a.choice(a.sess.Shown())
	ch.preset = (ch.preset + d + n) % n
	ch.custom = false
	a.sess.SetClientLink(a.sess.Shown(), link.Preset(ch.preset).Config())
	a.say("%snetwork: %s", a.clientPrefix(), a.linkName())
}

func (a *App) adjustLink(f func(*link.Config)) {
	c := a.sess.Link()
	f(&c)
	a.sess.SetClientLink(a.sess.Shown(), c)
	a.choice(a.sess.Shown()).custom = true
	a.say("%snetwork: %s", a.clientPrefix(), describeLink(c))
}

// clientPrefix names the client shown in a note, when there are several.
func (a *App) clientPrefix() string {
	if a.sess.NumClients() < 2 {
		return ""
	}
	return fmt.Sprintf("client %d ", a.sess.Shown()+1)
}

// cycleClient shows the next (dir +1) or previous client's screen.
func (a *App) cycleClient(dir int) {
	n := a.sess.NumClients()
	if n < 2 {
		a.say("one client: add players with F4 (or start with -players N)")
		return
	}
	k := ((a.sess.Shown()+dir)%n + n) % n
	if err := a.sess.SetShown(k); err != nil {
		a.err = err
		return
	}
	a.right.Reset()
	a.kbps.clear()
	a.say("showing %s", a.clientTitle(k))
}

// clientTitle describes client k: "client 2 · player 2 (push bot) · mobile".
func (a *App) clientTitle(k int) string {
	s := fmt.Sprintf("client %d", a.sess.ClientID(k)+1)
	_, rightDriven := a.sess.Strategy().(strategy.RightDriven)
	switch p := a.sess.ClientPlayer(k); {
	case p < 0:
		s += " · spectator"
	case a.sess.Role() == game.RoleRight && rightDriven:
		s += fmt.Sprintf(" · player %d (you)", p+1)
	case a.sess.Role() == game.RoleRight && p == 0:
		s += " · player 1 (the left's presenter)"
	case a.sess.Role() == game.RoleRight:
		s += fmt.Sprintf(" · player %d (a bot on the left)", p+1)
	case p == 0:
		s += " · player 1 (you)"
	default:
		if b, ok := a.sess.Bot(p); ok {
			s += fmt.Sprintf(" · player %d (%s bot)", p+1, b)
		}
	}
	return s + " · " + a.clientLinkName(k) + " link"
}

// changePlayers adds (dir +1) or removes (−1) a player live.
func (a *App) changePlayers(dir int) {
	if a.sess.Role() == game.RoleRight {
		a.say("the left sets the players")
		return
	}
	n := a.sess.NumPlayers() + dir
	if n < 1 || n > cubes.MaxPlayers {
		a.say("players: %d (1 to %d)", a.sess.NumPlayers(), cubes.MaxPlayers)
		return
	}
	if err := a.sess.SetPlayers(n); err != nil {
		a.err = err
		return
	}
	a.right.Reset()
	a.kbps.clear()
	if dir > 0 {
		b, _ := a.sess.Bot(n - 1)
		a.say("players: %d (player %d: %s bot)", n, n, b)
		return
	}
	a.say("players: %d", n)
}

func (a *App) outageKey(down bool) {
	if down {
		a.outageStart = a.ticks
		a.sess.HoldOutage(true)
		a.say("outage: every packet dropped")
		return
	}
	if a.outageStart < 0 {
		return
	}
	a.sess.HoldOutage(false)
	// A short tap still makes a full second of outage, long enough to see.
	if held := a.ticks - a.outageStart; held < tapOutage {
		a.sess.Outage(tapOutage - held)
	}
	a.outageStart = -1
}

// linkName names the current conditions: the preset, or "custom".
func (a *App) linkName() string { return a.clientLinkName(a.sess.Shown()) }

// clientLinkName names client k's link conditions.
func (a *App) clientLinkName(k int) string {
	if k == a.sess.Shown() {
		if src := a.sess.LinkSource(); src != "" {
			return "set by " + src
		}
	}
	ch := a.choice(k)
	if ch.custom {
		return "custom"
	}
	return link.Preset(ch.preset).String()
}

// describeLink writes the link's numbers compactly.
func describeLink(c link.Config) string {
	s := fmt.Sprintf("%.0f ms ±%.0f, %.1f%% loss", c.LatencyMs, c.JitterMs, c.LossPercent)
	if c.Burst.GoodToBadPercent > 0 {
		s += " + bursts"
	}
	if c.DuplicatePercent > 0 {
		s += fmt.Sprintf(", %.0f%% dup", c.DuplicatePercent)
	}
	if c.ReorderPercent > 0 {
		s += fmt.Sprintf(", %.0f%% reorder", c.ReorderPercent)
	}
	if c.BandwidthKbps > 0 {
		s += fmt.Sprintf(", cap %.0f kbit/s", c.BandwidthKbps)
	}
	if c.TCPLike {
		s += ", TCP-like"
	}
	return s
}
