package ui

// The app in the two-process mode (a left or a right process): each
// process draws its own side full width. The left is the authority: the
// strategy, its settings, the simulated conditions and the time keys are
// pressed there and reach the right in control datagrams; on the right
// those keys only say so. The view keys (ghost, tints, help, text size,
// fullscreen) work on both, and where a strategy puts the presenter on the
// right (client-side prediction) the right's arrows drive the player.

import (
	"fmt"
	"image"
	"strings"

	"netcubes/udp"
)

// viewRects splits the screen between the views: side by side in one
// process, the process's own side full width in two.
func (a *App) viewRects(w, h, top, bottom int) (left, right image.Rectangle) {
	gap := max(4, w/300)
	switch hasLeft, hasRight := a.sess.Halves(); {
	case !hasRight:
		return image.Rect(0, top, w, h-bottom), image.Rectangle{}
	case !hasLeft:
		return image.Rectangle{}, image.Rect(0, top, w, h-bottom)
	}
	return image.Rect(0, top, w/2-gap/2, h-bottom), image.Rect(w/2+gap/2, top, w, h-bottom)
}

// leftDrives is the group of keys that only the left process takes.
func leftDrives(group string) bool {
	return group == "Strategy" || group == "Network" || group == "Time" || strings.Contains(group, "(")
}

// refuseOnRight says, on the right process, that a key belongs to the left.
func (a *App) refuseOnRight(b *binding) bool {
	if hasLeft, _ := a.sess.Halves(); hasLeft || !leftDrives(b.group) || b.ctrl {
		return false
	}
	a.say("the left drives this session: press %s on the left", b.label)
	return true
}

// netEvents shows what the connection reported this tick (a right
// connected, timed out, was refused) as notes.
func (a *App) netEvents() {
	for _, e := range a.sess.Events() {
		a.say("%s", e)
		if a.opts.NetLog != nil {
			fmt.Fprintln(a.opts.NetLog, "netcubes:", e)
		}
	}
	if cli := a.sess.Client(); cli != nil && cli.Status().GaveUp && a.err == nil {
		// The left refuses this right for good: end the run (the app
		// exits with udp.ExitRefused and the reason).
		a.err = udp.RefusedError{Refusal: cli.Status().Refusal}
	}
}

// netLines are the network column's lines about the real connection (empty
// in one process): who is connected over what, that the conditions named
// below are simulated on top of it, and the datagrams refused. A right
// shows the left's refusal, and how long its left has been silent.
func (a *App) netLines() (status string, refused string) {
	var d udp.Drops
	room, inRoom := a.roomStatus()
	switch srv, cli := a.sess.Server(), a.sess.Client(); {
	case inRoom && srv != nil:
		status, d = room, srv.Drops()
	case inRoom && cli != nil && cli.Status().State == udp.ClientConnected:
		status, d = room, cli.Drops()
	case srv != nil:
		if slot := srv.Slot(0); slot.Connected {
			status = fmt.Sprintf("real UDP, sealed: right at %v", slot.Addr)
		} else {
			status = fmt.Sprintf("real UDP: no right connected; waiting on %v (token %v)", srv.LocalAddr(), srv.Token())
		}
		d = srv.Drops()
	case cli != nil:
		st, r := cli.Status(), a.sess.Remote()
		switch {
		case st.State == udp.ClientConnected && r.Silent:
			status = fmt.Sprintf("real UDP: the left at %v silent for %.0f s", st.Server, float64(r.SilentTicks)/60)
		case st.State == udp.ClientConnected:
			status = fmt.Sprintf("real UDP, sealed: left at %v", st.Server)
		case st.GaveUp:
			status = r.Refusal + "; gave up"
		case r.Refusal != "":
			status = r.Refusal + "; asking again"
		default:
			// How many asks went out and how many answers came back: a
			// right that hears nothing sees that nothing comes back
			// (a firewall, a wrong address) rather than only waiting.
			c := cli.Counts()
			status = fmt.Sprintf("real UDP: connecting to the left at %v (%d datagrams sent, %d back)", a.opts.Connect, c.Sent, c.Arrived)
		}
		d = cli.Drops()
	default:
		return "", ""
	}
	if d.Total() > 0 {
		refused = "refused " + describeDrops(d)
	}
	return status, refused
}

// describeDrops writes the refused datagrams by reason, the non-zero ones.
func describeDrops(d udp.Drops) string {
	var parts []string
	add := func(n uint64, what string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, what))
		}
	}
	add(d.NotOurs, "not ours")
	add(d.WrongVersion, "wrong version")
	add(d.Forged, "failed authentication")
	add(d.Replayed, "replayed")
	add(d.Expired, "expired cookie")
	add(d.Stale, "stale connect")
	add(d.WrongAddress, "other address")
	add(d.Misdirected, "sent back or from elsewhere")
	add(d.Oversized, "oversized")
	add(d.Malformed, "malformed")
	add(d.NotConnected, "not in a session")
	add(d.Ignored, "denies ignored")
	add(d.QueueFull, "queue full")
	add(d.Unanswered, "unanswered (rate limit)")
	return fmt.Sprintf("%d datagrams: %s", d.Total(), strings.Join(parts, ", "))
}
