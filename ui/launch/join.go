package launch

// Joining a classroom (-join): the room's address and token, a data
// channel or a WebSocket to it (package room), and the session's right on
// it, as over UDP.

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"netcubes/game"
	"netcubes/room"
	"netcubes/udp"
)

// pageOrigin is the address of the page the app runs in ("" outside a
// browser): there, -join needs only the token.
var pageOrigin = func() string { return "" }

// joinTarget reads -join: an address with ?join=TOKEN, or a token alone in
// the room's own page.
func joinTarget(v string) (base string, tok udp.Token, err error) {
	if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
		u, perr := url.Parse(v)
		if perr != nil || u.Host == "" {
			return "", tok, usagef("-join: %q is not an address", v)
		}
		t := u.Query().Get("join")
		if t == "" {
			return "", tok, usagef("-join: the address has no ?join=TOKEN (the room prints the whole address)")
		}
		v, base = t, u.Scheme+"://"+u.Host
	} else if base = pageOrigin(); base == "" {
		return "", tok, usagef("-join: give the whole address the room prints (http://HOST:PORT/?join=TOKEN)")
	}
	if tok, err = udp.ParseToken(v); err != nil {
		return "", tok, usagef("-join: the token: %v", err)
	}
	return base, tok, nil
}

// joinTimeout bounds the join: signalling, the data channel opening, or
// the WebSocket after it.
const joinTimeout = 30 * time.Second

// joinRoom connects to the room and makes this process its right.
func joinRoom(o *options, cfg udp.Config, out io.Writer) error {
	n := o.net
	base, tok, err := joinTarget(n.join)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "netcubes: joining the classroom at %s\n", base)
	ctx, cancel := context.WithTimeout(context.Background(), joinTimeout)
	defer cancel()
	conn, err := room.Dial(ctx, base, tok, room.DialOptions{ForceWebSocket: n.websocket})
	if err != nil {
		return err
	}
	cli, err := udp.DialOn(conn, room.ServerAddr, tok, cfg)
	if err != nil {
		conn.Close()
		return err
	}
	o.ui.Session.Role, o.ui.Session.Client, o.ui.Session.DiagEvery = game.RoleRight, cli, n.diagEvery
	o.ui.Connect = base
	o.ui.Room.Transport = conn.Transport()
	o.ui.Room.Fallback = conn.Fallback()
	o.ui.NetLog = messages
	return nil
}
