package game

import "netcubes/link"

// What the tests of package game (and game_test) ask a session that
// nothing else does.

// ClientLink returns client k's conditions left → right.
func (s *Session) ClientLink(k int) link.Config { return s.clients[k].link.Down }

// SetClientLink changes client k's conditions only, both directions alike.
func (s *Session) SetClientLink(k int, c link.Config) { s.SetClientLinks(k, link.Symmetric(c)) }
