package game

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
)

// NumPlayers is the number of players in the left world.
func (s *Session) NumPlayers() int { return s.left.NumPlayers() }

// NumClients is the number of clients of the server.
func (s *Session) NumClients() int { return len(s.clients) }

// Shown is the client whose screen the right view shows (0-based).
func (s *Session) Shown() int { return s.shown }

// ClientID is client k's number in the session (0-based): k itself, but
// for a right process, whose one client is the slot its left gave it.
func (s *Session) ClientID(k int) int { return s.clients[k].id }

// ClientPlayer is the player client k owns (0-based), or −1 for a
// spectator.
func (s *Session) ClientPlayer(k int) int { return s.clients[k].player() }

// Bot is the bot driving player p (0-based, p ≥ 1).
func (s *Session) Bot(p int) (cubes.BotKind, bool) {
	if p < 1 || p > len(s.bots) {
		return 0, false
	}
	return s.bots[p-1].Kind, true
}

// SetShown makes the right view show client k's screen. Nothing about the
// simulation changes: every client runs every tick whichever is shown;
// the error figures start over for the new client.
func (s *Session) SetShown(k int) error {
	if k < 0 || k >= len(s.clients) {
		return fmt.Errorf("game: no client %d (%d clients)", k+1, len(s.clients))
	}
	if c := s.clients[k]; c.parked {
		c.parked = false // shown: it runs again (followSlots parks it when no longer shown)
		c.startOver(false)
	}
	if k != s.shown {
		s.shown = k
		s.errs.hasPrev = false
		s.errs.validTicks = 0
		s.finishView()
	}
	return nil
}

// Refresh refills the views and this tick's figures without stepping: the
// app calls it after a reset or a switch, so that what is drawn while
// paused is the new state, not an empty field.
func (s *Session) Refresh() {
	s.finishView()
	// A refresh follows a jump in what the right shows (another strategy,
	// another client shown, players added or removed): the next tick's
	// picture is not a pop against this one.
	s.errs.hasPrev = false
}

// finishView refills the views after the shown client changed between
// ticks, so what is drawn next is the new client's.
func (s *Session) finishView() { s.proc.refresh(s) }

// SetPlayers changes the number of players live (1..cubes.MaxPlayers): a
// new player drops in at its start, a removed one (the last) leaves the
// world. The left world carries on, every other cube where it is; the
// clients follow (one per player, unless the session was given a number
// of clients), and every client's strategy starts over from the new world,
// as after a switch of strategy. In the two-process mode only the left
// can (its rights follow: they take the slots' players), and its clients
// stay one per slot.
func (s *Session) SetPlayers(n int) error {
	follow, err := s.proc.setPlayers(s)
	if err != nil {
		return err
	}
	if n < 1 || n > cubes.MaxPlayers {
		return fmt.Errorf("game: %d players: want 1..%d", n, cubes.MaxPlayers)
	}
	if n == s.left.NumPlayers() {
		return nil
	}
	if err := s.resizeWorld(n); err != nil {
		return err
	}
	if follow {
		for len(s.clients) < n {
			s.addClient(len(s.clients))
		}
		s.clients = s.clients[:n]
		s.shown = min(s.shown, n-1)
	}
	s.resetNetwork()
	s.proc.refresh(s)
	return nil
}

// resizeWorld rebuilds the left world with n players: every cube both
// worlds have takes its place in the new one (the grid keeps its indices,
// each remaining player moves to its cube there), a new player drops in at
// its start; the history, the initial state and the bots follow.
func (s *Session) resizeWorld(n int) error {
	old := s.left
	wc := s.cfg.World
	wc.Players = n
	w, err := cubes.NewWorld(wc, s.cfg.Physics)
	if err != nil {
		return err
	}
	s.cfg.World = wc
	// The new world's initial state is what both sides start from now.
	s.initial = w.States(s.initial[:0])
	for i := 0; i < old.NumCubes(); i++ {
		j := i
		if p := old.PlayerOf(i); p >= 0 {
			if p >= n {
				continue // the player removed
			}
			j = w.PlayerCube(p)
		}
		_ = w.SetCube(j, old.Cube(i))
	}
	w.SetFrame(s.frame)
	s.left = w
	s.hist = newHistory(s.cfg.HistoryTicks, w.NumCubes())
	s.hist.record(s.frame, w)
	s.errs.prevErr = make([]mgl64.Vec3, w.NumCubes())
	s.setBots()
	return nil
}
