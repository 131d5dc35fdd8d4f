// Package headless runs the left of a two-process session without a
// window: the authority on a server, with no display and no Ebitengine
// window system. A ticker paces the session at 60 ticks a second of wall
// time (the only wall clock in netcubes: it decides when a tick happens,
// never what happens in it); the script, when there is one, is the
// presenter's input. Every few seconds it prints a status line, and it says
// when a right joins, leaves or times out. It exits when ctx is done (the
// caller turns a signal into the app's exit status).
package headless

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/wire"
)

// Options configure a headless run.
type Options struct {
	// Script plays from frame 0 (and loops, so a server keeps showing
	// something); nil steps with no input.
	Script *cubes.Script
	// StatusEvery is how often a status line is printed (0: never).
	StatusEvery time.Duration
	// Frames stops after this many ticks (0: until ctx is done).
	Frames int
}

// Run steps s until ctx is done (or Frames ticks), writing events and
// status lines to out. s must be a left-process session (one with a Server).
func Run(ctx context.Context, s *game.Session, o Options, out io.Writer) error {
	if s.Server() == nil {
		return fmt.Errorf("headless: runs the left; this session is the %s", s.Role())
	}
	tick := time.NewTicker(time.Second / wire.TicksPerSecond)
	defer tick.Stop()
	var status <-chan time.Time
	if o.StatusEvery > 0 {
		st := time.NewTicker(o.StatusEvery)
		defer st.Stop()
		status = st.C
	}
	for n := 0; o.Frames == 0 || n < o.Frames; {
		select {
		case <-ctx.Done():
			return nil
		case <-status:
			fmt.Fprintln(out, StatusLine(s))
		case <-tick.C:
			in := cubes.Input{}
			if o.Script != nil && o.Script.Length > 0 {
				in = o.Script.InputAt(s.Frame() % o.Script.Length)
			}
			s.Step(in)
			n++
			for _, e := range s.Events() {
				fmt.Fprintln(out, e)
			}
		}
	}
	return nil
}

// StatusLine is one line about the session: frame, strategy, players,
// and every connected right with its bandwidth, RTT and loss, then the
// socket's datagrams both ways and the refused ones. With no right connected it says so instead of
// figures that would have nobody behind them.
func StatusLine(s *game.Session) string {
	srv := s.Server()
	var b strings.Builder
	fmt.Fprintf(&b, "frame %d · %s", s.Frame(), s.Strategy().Name())
	if s.NumPlayers() > 1 {
		fmt.Fprintf(&b, " · %d players", s.NumPlayers())
	}
	c := srv.Counts()
	refused := fmt.Sprintf("socket %d datagrams out, %d in · refused %d datagrams", c.Sent, c.Arrived, srv.Drops().Total())
	if srv.Clients() == 0 {
		return b.String() + " · no right connected · " + refused
	}
	for k := range s.NumClients() {
		slot := srv.Slot(k)
		if !slot.Connected {
			continue
		}
		m := s.ClientMetrics(k)
		rtt := "RTT —"
		if m.HasRTT {
			rtt = fmt.Sprintf("RTT %.0f ms", m.RTTms)
		}
		who := "a spectator"
		if p := s.ClientPlayer(k); p >= 0 {
			who = fmt.Sprintf("player %d", p+1)
		}
		loss := "loss —"
		if m.LossMeasured() {
			loss = fmt.Sprintf("loss %.1f %%", 100*m.Loss)
		}
		fmt.Fprintf(&b, " · right %d (%s) at %v: sent %.1f kbit/s · back %.1f kbit/s · %s · %s",
			k+1, who, slot.Addr, m.SentKbps, m.AckKbps, rtt, loss)
	}
	return b.String() + " · " + refused
}
