package main

// The two-process mode on the command line: -role left with -listen, or
// -role right with -connect and -token, and -headless for a left without a
// window. The flags are checked when parsed (one line, exit 2); the socket
// is opened when the app runs.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"netcubes/game"
	"netcubes/headless"
	"netcubes/udp"
)

// netOptions are the two-process flags.
type netOptions struct {
	role      game.Role
	listen    string
	connect   string
	token     udp.Token
	hasToken  bool
	headless  bool
	diagEvery int
}

// netFlags defines the flags on fs; the returned function checks them
// after parsing.
func netFlags(fs *flag.FlagSet) func() (netOptions, error) {
	role := fs.String("role", "", "run one side of a two-process session over UDP: left or right (default: both sides in this process)")
	listen := fs.String("listen", "", "with -role left: the `ADDR` to listen on, e.g. :40000 (nothing else is listened on)")
	connect := fs.String("connect", "", "with -role right: the left's `HOST:PORT`")
	token := fs.String("token", "", "the session's token: the left prints it, the right must give it (16 hex digits; the left draws one if not given)")
	head := fs.Bool("headless", false, "with -role left: no window, no display needed (a server); prints status lines")
	diag := fs.Int("diag-every", game.DefaultDiagEvery, "two processes: send the right the truth for its error figure every N ticks (0: never)")
	return func() (netOptions, error) {
		var n netOptions
		switch *role {
		case "":
			n.role = game.RoleBoth
		case "left":
			n.role = game.RoleLeft
		case "right":
			n.role = game.RoleRight
		default:
			return n, usagef("-role must be left or right, got %q", *role)
		}
		n.listen, n.connect, n.headless, n.diagEvery = *listen, *connect, *head, *diag
		if *token != "" {
			t, err := udp.ParseToken(*token)
			if err != nil {
				return n, usagef("-token: %v", err)
			}
			n.token, n.hasToken = t, true
		}
		switch {
		case n.diagEvery < 0 || n.diagEvery > 600:
			return n, usagef("-diag-every must be 0..600 ticks, got %d", n.diagEvery)
		case n.role == game.RoleLeft && n.listen == "":
			return n, usagef("-role left needs -listen ADDR (e.g. -listen :40000)")
		case n.role == game.RoleRight && (n.connect == "" || !n.hasToken):
			return n, usagef("-role right needs -connect HOST:PORT and -token (the left prints both)")
		case n.role != game.RoleLeft && (n.listen != "" || n.headless):
			return n, usagef("-listen and -headless go with -role left")
		case n.role != game.RoleRight && n.connect != "":
			return n, usagef("-connect goes with -role right")
		case n.role == game.RoleBoth && n.hasToken:
			return n, usagef("-token goes with -role left or right")
		}
		return n, nil
	}
}

// openNetwork opens the process's socket and fills the session's
// two-process settings. The left prints how to start its right.
func openNetwork(o *options, out io.Writer) error {
	n := o.net
	if n.role == game.RoleBoth {
		return nil
	}
	cfg := udp.DefaultConfig()
	var conn *udp.Conn
	var err error
	if n.role == game.RoleLeft {
		tok := n.token
		if !n.hasToken {
			if tok, err = udp.NewToken(); err != nil {
				return err
			}
		}
		if conn, err = udp.Listen(n.listen, tok, cfg); err != nil {
			return fmt.Errorf("listen on %s: %w", n.listen, err)
		}
		fmt.Fprintf(out, "netcubes left: listening on %v, token %v\n", conn.LocalAddr(), tok)
		port := 0
		if ua, ok := conn.LocalAddr().(*net.UDPAddr); ok {
			port = ua.Port
		}
		fmt.Fprintf(out, "start the right with: netcubes -role right -connect HOST:%d -token %v\n", port, tok)
	} else {
		if conn, err = udp.Dial(n.connect, n.token, cfg); err != nil {
			return fmt.Errorf("connect to %s: %w", n.connect, err)
		}
		fmt.Fprintf(out, "netcubes right: connecting to %s\n", n.connect)
	}
	o.ui.Session.Role, o.ui.Session.Net, o.ui.Session.DiagEvery = n.role, conn, n.diagEvery
	o.ui.Connect = n.connect
	return nil
}

// runHeadless runs the left without a window until SIGINT or SIGTERM (or
// -frames ticks).
func runHeadless(o options) error {
	cfg := o.ui.Session
	cfg.Epoch = 1
	s, err := game.New(cfg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	defer o.ui.Session.Net.Close()
	fmt.Fprintln(os.Stdout, "no window (-headless): Ctrl+C stops")
	return headless.Run(ctx, s, headless.Options{Script: o.ui.Script, Frames: o.ui.Frames, StatusEvery: 5 * time.Second}, os.Stdout)
}
