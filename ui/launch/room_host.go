//go:build !js

package launch

// Hosting a classroom (cmd/serve -room): the web page and the room's
// endpoints on one HTTP server, the left of a two-process session on the
// room's hub, and the host's screen (or, -headless, status lines).

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	qrcode "github.com/yeqown/go-qrcode/v2"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/headless"
	"netcubes/room"
	"netcubes/udp"
	"netcubes/wire"
)

// RoomOptions are the room's own settings (the app's flags set the rest).
type RoomOptions struct {
	// Addr is the HTTP address: ":8080" for every machine on the network.
	Addr string
	// Static serves the web page (the built web folder).
	Static http.Handler
	// ForceWebSocket refuses data channels: every browser joins over TCP.
	ForceWebSocket bool
	// Headless runs the session without a window, printing status lines.
	Headless bool
	// Ready, when set, gets the page's address once the room serves it.
	Ready func(url string)
	// OnRoom, when set, gets the room once it is open (tests read its
	// counts).
	OnRoom func(*room.Room)
	// OnTick, when set, is called after every headless tick, on the
	// goroutine that steps the session (tests read the world there).
	OnTick func(*game.Session)
}

// roomDefaults come before the host's own flags (which override them):
// eight players, the strategy in which each client drives its own player
// (predicting only its player: a replay of the whole world costs a
// browser 9-17 ms a tick, the player alone microseconds), the truth for a browser's error figure every 6 ticks (a ninth of the
// every-tick diagnostics' 4.3 Mbit/s a browser) within 2 Mbit/s for the
// whole room (64 browsers at every 6 ticks would take 46 Mbit/s: each
// gets it every 2.3 s instead).
var roomDefaults = []string{"-players", "8", "-strategy", "predict", "-predict-scope", "player", "-diag-every", "6", "-truth-kbps", "2000"}

// HostRoom runs a classroom until ctx is done or the host's window closes.
func HostRoom(ctx context.Context, ro RoomOptions, args []string, out io.Writer) error {
	o, err := parseFlags(append(append([]string(nil), roomDefaults...), args...), out)
	if err != nil {
		return err
	}
	if o.net.role != game.RoleBoth {
		return usagef("the room is the left of its session: no -role, -listen, -connect or -join")
	}
	tok, err := udp.NewToken()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", ro.Addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	ta := ln.Addr().(*net.TCPAddr)
	rcfg := room.DefaultConfig()
	rcfg.Token, rcfg.ForceWebSocket, rcfg.Loopback = tok, ro.ForceWebSocket, ta.IP.IsLoopback()
	if ta.Port != 0 {
		rcfg.UDPPort = ta.Port // one number for both: TCP for the page, UDP for the data channels
	}
	rm, err := room.New(rcfg)
	if err != nil {
		return err
	}
	defer rm.Close()
	ucfg := udp.DefaultConfig()
	ucfg.MaxClients = udp.MaxClients
	srv, err := udp.Serve(rm.Hub(), tok, ucfg)
	if err != nil {
		return err
	}
	defer srv.Close()
	hs := &http.Server{Handler: rm.Handler(ro.Static), ReadHeaderTimeout: 10 * time.Second,
		WriteTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 16 << 10}
	go hs.Serve(ln)
	defer hs.Close()

	hosts := rightHosts(&net.UDPAddr{IP: ta.IP, Port: ta.Port})
	url := "http://" + hosts[0] + "/?join=" + tok.String()
	fmt.Fprintf(out, "netcubes classroom: open %s\n", url)
	for _, h := range hosts[1:] {
		fmt.Fprintf(out, "  (or http://%s/?join=%v: whichever address of this machine the browsers reach)\n", h, tok)
	}
	fmt.Fprintf(out, "data channels on UDP port %v, the page and the WebSocket fallback on TCP port %d\n",
		rm.UDPAddr().(*net.UDPAddr).Port, ta.Port)
	if ro.ForceWebSocket {
		fmt.Fprintln(out, "every browser joins over the WebSocket (TCP): -websocket")
	}
	fmt.Fprintln(out, "the token in the address is the room's key: whoever has the address can join")
	if ro.OnRoom != nil {
		ro.OnRoom(rm)
	}
	if ro.Ready != nil {
		ro.Ready(url)
	}

	o.ui.Session.Role, o.ui.Session.Server, o.ui.Session.DiagEvery = game.RoleLeft, srv, o.net.diagEvery
	o.ui.Session.TruthKbps = o.net.truthKbps
	o.ui.Room.Host, o.ui.Room.URL, o.ui.Room.QR = rm, url, qrBitmap(url)
	if ro.Headless {
		return hostHeadless(ctx, o, ro, out)
	}
	o.net.role = game.RoleLeft // run() opens nothing more: the room is open
	return runOpen(o)
}

// hostHeadless steps the room's session 60 times a second until ctx is
// done (or -frames ticks), with a status line every 5 s.
func hostHeadless(ctx context.Context, o options, ro RoomOptions, out io.Writer) error {
	cfg := o.ui.Session
	cfg.Epoch = 1
	s, err := game.New(cfg)
	if err != nil {
		return err
	}
	tick := time.NewTicker(time.Second / wire.TicksPerSecond)
	defer tick.Stop()
	status := time.NewTicker(5 * time.Second)
	defer status.Stop()
	for n := 0; o.ui.Frames == 0 || n < o.ui.Frames; {
		select {
		case <-ctx.Done():
			return nil
		case <-status.C:
			fmt.Fprintln(out, headless.StatusLine(s))
		case <-tick.C:
			s.Step(cubes.Input{})
			for _, e := range s.Events() {
				fmt.Fprintln(out, e)
			}
			if ro.OnTick != nil {
				ro.OnTick(s)
			}
			n++
		}
	}
	return nil
}

// qrBitmap is url's QR code, true for a dark module (nil if it cannot be
// made: the address is still printed and shown).
func qrBitmap(url string) [][]bool {
	q, err := qrcode.NewWith(url, qrcode.WithErrorCorrectionLevel(qrcode.ErrorCorrectionMedium))
	if err != nil {
		return nil
	}
	var w bitmapWriter
	if err := q.Save(&w); err != nil {
		return nil
	}
	return w.bits
}

// bitmapWriter keeps the QR code's modules (qrcode.Writer).
type bitmapWriter struct{ bits [][]bool }

func (w *bitmapWriter) Write(m qrcode.Matrix) error {
	w.bits = m.Bitmap()
	if len(w.bits) == 0 {
		return errors.New("empty QR code")
	}
	return nil
}

func (w *bitmapWriter) Close() error { return nil }
