package ui

import (
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"

	"netcubes/control"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/talk"
	"netcubes/wire"
)

// Link knob steps of the keys L, U and K.
const (
	latencyStepMs = 10
	jitterStepMs  = 5
	lossStep      = 1.0 // percent
)

// linkKey is a binding's change of a figure of the shown client's link.
func linkKey(f link.Field, kind link.EditKind, v float64) func(a *App) {
	return func(a *App) { a.d.AdjustLink(link.Edit{Field: f, Kind: kind, Value: v}) }
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
			do: func(a *App) { a.d.CyclePreset(+1) }},
		binding{group: "Network", keys: keys(ebiten.KeyN), shift: withShift, label: "Shift+N", help: "previous network preset",
			do: func(a *App) { a.d.CyclePreset(-1) }},
		binding{group: "Network", keys: keys(ebiten.KeyL), shift: noShift, repeat: true, label: "L / Shift+L", help: fmt.Sprintf("latency +%d / −%d ms (one way)", latencyStepMs, latencyStepMs),
			do: linkKey(link.FieldLatency, link.EditAdd, latencyStepMs)},
		binding{group: "Network", keys: keys(ebiten.KeyL), shift: withShift, repeat: true,
			do: linkKey(link.FieldLatency, link.EditAdd, -latencyStepMs)},
		binding{group: "Network", keys: keys(ebiten.KeyU), shift: noShift, repeat: true, label: "U / Shift+U", help: fmt.Sprintf("jitter +%d / −%d ms", jitterStepMs, jitterStepMs),
			do: linkKey(link.FieldJitter, link.EditAdd, jitterStepMs)},
		binding{group: "Network", keys: keys(ebiten.KeyU), shift: withShift, repeat: true,
			do: linkKey(link.FieldJitter, link.EditAdd, -jitterStepMs)},
		binding{group: "Network", keys: keys(ebiten.KeyK), shift: noShift, repeat: true, label: "K / Shift+K", help: "packet loss +1 / −1 %",
			do: linkKey(link.FieldLoss, link.EditAdd, lossStep)},
		binding{group: "Network", keys: keys(ebiten.KeyK), shift: withShift, repeat: true,
			do: linkKey(link.FieldLoss, link.EditAdd, -lossStep)},
		binding{group: "Network", keys: keys(ebiten.KeyF7), shift: noShift, label: "F7 / Shift+F7", help: "bandwidth cap: off, 2048 … 64 kbit/s (a bottleneck queue)",
			do: linkKey(link.FieldCap, link.EditNext, 0)},
		binding{group: "Network", keys: keys(ebiten.KeyF7), shift: withShift,
			do: linkKey(link.FieldCap, link.EditPrev, 0)},
		binding{group: "Network", keys: keys(ebiten.KeyF10), shift: noShift, label: "F10 / Shift+F10", help: "corruption: a bit flipped in 0 / 1 / 5 / 20 % of packets",
			do: linkKey(link.FieldCorrupt, link.EditNext, 0)},
		binding{group: "Network", keys: keys(ebiten.KeyF10), shift: withShift,
			do: linkKey(link.FieldCorrupt, link.EditPrev, 0)},
		binding{group: "Network", keys: keys(ebiten.KeyF12), label: "F12", help: "checksum (CRC-32C) on every packet on / off",
			do: func(a *App) { a.d.Do(talk.Command{Op: talk.OpChecksum, On: !a.sess.Checksum()}) }},
		binding{group: "Network", keys: keys(ebiten.KeyY), label: "Y", help: "TCP-like link on/off (in order, lost packets resent late)",
			do: linkKey(link.FieldTCP, link.EditToggle, 0)},
		binding{group: "Network", keys: keys(ebiten.KeyX), label: "X", help: "outage: drop every packet while held (a tap drops 1 s)",
			hold: func(a *App, down bool) { a.d.OutageKey(down) }},

		binding{group: "Show", keys: keys(ebiten.KeyG), label: "G", help: "ghost: the left's true pose as a wireframe on the right",
			do: func(a *App) { a.d.Do(talk.Command{Op: talk.OpGhost, On: a.d.View().NoGhost}) }},
		binding{group: "Show", keys: keys(ebiten.KeyT), label: "T", help: "tint: interacting / priority / updated this tick",
			do: func(a *App) {
				next := (a.d.View().Tint + 1) % len(talk.TintNames)
				a.d.Do(talk.Command{Op: talk.OpTint, Name: talk.TintNames[next]})
			}},
		binding{group: "Show", keys: keys(ebiten.KeyE), label: "E", help: "smoothing error offsets as lines",
			do: func(a *App) { a.d.Do(talk.Command{Op: talk.OpOffsets, On: !a.d.View().Offsets}) }},
		binding{group: "Show", keys: keys(ebiten.KeyF3), shift: noShift, label: "F3 / Shift+F3", help: "chart of bandwidth against error, per setting shown / clear it",
			do: func(a *App) {
				kind := talk.ChartOn
				if a.d.View().Chart {
					kind = talk.ChartOff
				}
				a.d.Do(talk.Command{Op: talk.OpChart, Kind: kind})
			}},
		binding{group: "Show", keys: keys(ebiten.KeyF3), shift: withShift,
			do: func(a *App) { a.d.Do(talk.Command{Op: talk.OpChart, Kind: talk.ChartClear}) }},
		binding{group: "Show", keys: keys(ebiten.KeyH, ebiten.KeyF1), label: "H or F1", help: "this help; again: its next page, then closed",
			do: func(a *App) { a.nextHelpPage() }},
		binding{group: "Show", keys: keys(ebiten.KeyEqual, ebiten.KeyNumpadAdd), label: "= / -", help: "text larger / smaller",
			do: func(a *App) { a.textScale(+1) }},
		binding{group: "Show", keys: keys(ebiten.KeyMinus, ebiten.KeyNumpadSubtract),
			do: func(a *App) { a.textScale(-1) }},
		binding{group: "Show", keys: keys(ebiten.KeyF11), label: "F11 or Alt+Enter", help: "fullscreen",
			do: func(a *App) { ebiten.SetFullscreen(!ebiten.IsFullscreen()) }},
		binding{group: "Show", keys: keys(ebiten.KeyEnter), alt: true,
			do: func(a *App) { ebiten.SetFullscreen(!ebiten.IsFullscreen()) }},
		binding{group: "Show", keys: keys(ebiten.KeyF9), label: "F9", help: "smooth edges (anti-aliasing) on / off",
			do: func(a *App) { a.setAntiAlias(!a.left.AntiAlias); a.say("smooth edges %s", onOff(a.left.AntiAlias)) }},
		binding{group: "Show", keys: keys(ebiten.KeyM), label: "M", help: "mute / unmute sound",
			do: func(a *App) { a.say("%s", a.snd.toggleMute(probeAudio)) }},

		binding{group: "Players", keys: keys(ebiten.KeyTab), shift: noShift, label: "Tab / Shift+Tab", help: "show the next / previous client's screen on the right (in the grid: the next page of four; on a classroom's host: the view it reported)",
			do: func(a *App) {
				if !a.gridTab(+1) {
					a.d.CycleClient(+1)
				}
			}},
		binding{group: "Players", keys: keys(ebiten.KeyTab), shift: withShift,
			do: func(a *App) {
				if !a.gridTab(-1) {
					a.d.CycleClient(-1)
				}
			}},
		binding{group: "Players", keys: keys(ebiten.KeyDigit0), label: "0", help: "grid: the server and up to four clients at once, each with its figures (Tab pages past four)",
			do: func(a *App) { a.toggleGrid() }},
		binding{group: "Players", keys: keys(ebiten.KeyF4), shift: noShift, label: "F4 / Shift+F4", help: "add / remove a player (bots drive players 2..8)",
			do: func(a *App) { a.d.ChangePlayers(+1) }},
		binding{group: "Players", keys: keys(ebiten.KeyF4), shift: withShift,
			do: func(a *App) { a.d.ChangePlayers(-1) }},

		binding{group: "Time", keys: keys(ebiten.KeyP), label: "P", help: "pause / resume (a script's pause too)",
			do: func(a *App) { a.d.TogglePause() }},
		binding{group: "Time", keys: keys(ebiten.KeyPeriod), repeat: true, label: ".", help: "single step (while paused)",
			do: func(a *App) { a.d.StepOnce() }},
		binding{group: "Time", keys: keys(ebiten.KeyComma), label: ",", help: "slow motion (¼ speed) on / off",
			do: func(a *App) { a.d.SetSlow(!a.d.Slow()) }},
		binding{group: "Time", keys: keys(ebiten.KeyBackspace), label: "Backspace", help: "back 5 s (re-simulated, then it plays on)",
			do: func(a *App) { a.d.Back(backTicks) }},
		binding{group: "Time", keys: keys(ebiten.KeyPageUp), label: "PageUp / PageDown", help: "to the script's previous / next caption",
			do: func(a *App) { a.d.PrevCaption() }},
		binding{group: "Time", keys: keys(ebiten.KeyPageDown),
			do: func(a *App) { a.d.NextCaption() }},
		binding{group: "Time", keys: keys(ebiten.KeyF5), label: "F5", help: "reset: world, right side and script start over (taken over: its scene)",
			do: func(a *App) { a.d.Restart() }},
		binding{group: "Time", keys: keys(ebiten.KeyHome), label: "Home", help: "scene: F5, with this strategy's settings and link as at start",
			do: func(a *App) { a.d.Scene() }},
		binding{group: "Time", keys: keys(ebiten.KeyQ), ctrl: true, label: "Ctrl+Q", help: "quit (a chord, so a stray key on stage cannot)",
			do: func(a *App) { a.quit = true }},
	)
	return t
}

// backTicks is how far Backspace goes back: 5 s.
const backTicks = 5 * wire.TicksPerSecond

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// linkName names the shown client's link conditions.
func (a *App) linkName() string { return a.d.LinkName(a.sess.Shown()) }

// describeLink writes the link's numbers compactly.
func describeLink(c link.Config) string { return control.DescribeLink(c) }
