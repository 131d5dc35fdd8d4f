package launch

// The two-process mode on the command line: -role left with -listen, or
// -role right with -connect and -token, and -headless for a left without a
// window. The flags are checked when parsed (one line, exit 2); the socket
// is opened when the app runs.

import (
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"netcubes/game"
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
	truthKbps int
	// spectators lets rights beyond the players join to watch (the left
	// takes up to udp.MaxClients rights); off, they are refused once every
	// player has a right.
	spectators bool
	// keepTrying: a right refused for its token or version keeps asking
	// instead of exiting with udp.ExitRefused.
	keepTrying bool
	// join is a classroom to join as a right (join.go): the room's
	// address with its token, or the token alone in a page the room served.
	join      string
	websocket bool
}

// netFlags defines the flags on fs; the returned function checks them
// after parsing.
func netFlags(fs *flag.FlagSet) func() (netOptions, error) {
	role := fs.String("role", "", "run one side of a two-process session over UDP: left or right (default: both sides in this process)")
	listen := fs.String("listen", "", "with -role left: the `ADDR` to listen on, e.g. :40000 (nothing else is listened on)")
	connect := fs.String("connect", "", "with -role right: the left's `HOST:PORT`")
	token := fs.String("token", "", "the session's secret token: the left prints it, the right must give it (32 hex digits, the key every datagram is sealed with; the left draws one if not given)")
	head := fs.Bool("headless", false, "with -role left: no window, no display needed (a server); prints status lines")
	diag := fs.Int("diag-every", game.DefaultDiagEvery, "two processes: send the right the truth for its error figure every N ticks (0: never)")
	truth := fs.Int("truth-kbps", 0, "two processes: the left's budget for that truth, `KBITS` a second for all its rights together (0: none, every right every -diag-every ticks); beyond it each right gets it less often")
	spectators := fs.Bool("spectators", true, "with -role left: rights beyond the players join as spectators (up to 64 rights); -spectators=false refuses them")
	join := fs.String("join", "", "join a classroom as a player: the `ADDRESS` the room prints (http://HOST:PORT/?join=TOKEN); in the room's own web page, the token")
	ws := fs.Bool("websocket", false, "with -join: over the WebSocket (TCP) instead of a WebRTC data channel")
	keep := fs.Bool("keep-trying", false, "with -role right: keep asking a left that refuses the token or the version (by default the right exits with code 3 after 5 refusals over 5 s)")
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
		n.listen, n.connect, n.headless, n.diagEvery, n.spectators, n.keepTrying = *listen, *connect, *head, *diag, *spectators, *keep
		n.join, n.websocket, n.truthKbps = *join, *ws, *truth
		if n.join != "" {
			if n.role != game.RoleBoth || n.connect != "" || *token != "" {
				return n, usagef("-join joins a classroom by itself: no -role, -connect or -token")
			}
			n.role = game.RoleRight
		} else if n.websocket {
			return n, usagef("-websocket goes with -join")
		}
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
		case n.truthKbps < 0 || n.truthKbps > game.MaxTruthKbps:
			return n, usagef("-truth-kbps must be 0..%d, got %d", game.MaxTruthKbps, n.truthKbps)
		case n.role == game.RoleLeft && n.listen == "":
			return n, usagef("-role left needs -listen ADDR (e.g. -listen :40000)")
		case n.role == game.RoleRight && n.join == "" && (n.connect == "" || !n.hasToken):
			return n, usagef("-role right needs -connect HOST:PORT and -token (the left prints both)")
		case n.role != game.RoleLeft && (n.listen != "" || n.headless):
			return n, usagef("-listen and -headless go with -role left")
		case n.role != game.RoleRight && n.connect != "":
			return n, usagef("-connect goes with -role right")
		case n.role != game.RoleRight && n.keepTrying:
			return n, usagef("-keep-trying goes with -role right")
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
	if n.role == game.RoleLeft {
		tok := n.token
		if !n.hasToken {
			var err error
			if tok, err = udp.NewToken(); err != nil {
				return err
			}
		}
		// Each right takes the next free slot, and slot k's right has
		// player k+1 (player 1's right watches the presenter in strategies
		// 1-4, drives it in strategy 5); past the players, spectators.
		cfg.MaxClients = udp.MaxClients
		if !n.spectators {
			cfg.MaxClients = o.ui.Session.World.Players
		}
		srv, err := udp.Listen(n.listen, tok, cfg)
		if err != nil {
			return fmt.Errorf("listen on %s: %w", n.listen, err)
		}
		fmt.Fprintf(out, "netcubes left: listening on %v (UDP), token %v\n", srv.LocalAddr(), tok)
		hosts := rightHosts(srv.LocalAddr())
		fmt.Fprintf(out, "start the right with:\n  %s -role right -connect %s -token %v\n", selfCommand(), hosts[0], tok)
		if len(hosts) > 1 {
			fmt.Fprintf(out, "  (or -connect %s: whichever address of this machine the right reaches)\n", strings.Join(hosts[1:], ", "))
		}
		fmt.Fprintln(out, "keep the token secret: whoever has it can join")
		o.ui.Session.Role, o.ui.Session.Server, o.ui.Session.DiagEvery = n.role, srv, n.diagEvery
		o.ui.Session.TruthKbps = n.truthKbps
		return nil
	}
	if n.keepTrying {
		cfg.RefusalsToGiveUp = 0
	}
	if n.join != "" {
		return joinRoom(o, cfg, out)
	}
	cli, err := udp.Dial(n.connect, n.token, cfg)
	if err != nil {
		return fmt.Errorf("connect to %s: %w", n.connect, err)
	}
	fmt.Fprintf(out, "netcubes right: connecting to the left at %s (it keeps asking until the left answers)\n", n.connect)
	o.ui.Session.Role, o.ui.Session.Client, o.ui.Session.DiagEvery = n.role, cli, n.diagEvery
	o.ui.Connect = n.connect
	o.ui.NetLog = messages // refusals and the rest of the connection's events, on stderr too
	return nil
}

// rightHosts are the HOST:PORT a right can give -connect: the listening
// address itself when it is a concrete one (127.0.0.1, a LAN address),
// else this machine's addresses, non-loopback IPv4 first.
func rightHosts(a net.Addr) []string {
	ua, ok := a.(*net.UDPAddr)
	if !ok {
		return []string{a.String()}
	}
	port := strconv.Itoa(ua.Port)
	if !ua.IP.IsUnspecified() {
		return []string{net.JoinHostPort(ua.IP.String(), port)}
	}
	var v4, v6, loop []string
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, x := range addrs {
			ipn, ok := x.(*net.IPNet)
			if !ok || ipn.IP.IsLinkLocalUnicast() {
				continue
			}
			hp := net.JoinHostPort(ipn.IP.String(), port)
			switch {
			case ipn.IP.IsLoopback():
				loop = append(loop, hp)
			case ipn.IP.To4() != nil:
				v4 = append(v4, hp)
			default:
				v6 = append(v6, hp)
			}
		}
	}
	hosts := append(append(v4, v6...), loop...)
	if len(hosts) == 0 {
		hosts = []string{net.JoinHostPort("127.0.0.1", port)}
	}
	return hosts
}

// selfCommand is how this program was started, for the right's command
// line: "go run ." when it runs from go run's build cache, else the path
// it was started with.
func selfCommand() string {
	exe := os.Args[0]
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "go run ."
	}
	return exe
}
