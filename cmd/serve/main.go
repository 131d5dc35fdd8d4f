//go:build !js

// Command serve builds netcubes for web browsers and serves it locally.
//
//	go run ./cmd/serve                    # build web/ and serve it on http://127.0.0.1:8080/
//	go run ./cmd/serve -serve=false       # only build the folder (make web)
//	go run ./cmd/serve -addr :8080        # serve the page to every machine on the network
//	go run ./cmd/serve -room              # host a classroom: browsers join this world as players
//	go run ./cmd/serve -room -- -players 4 -bots push  # the app's flags after --
//
// The folder it builds is static (the app as WebAssembly, the page around
// it, Go's wasm_exec.js, the README and docs/ rendered to HTML with their
// pictures) and any static web host can serve it
// as it is; netcubes.wasm.gz beside netcubes.wasm is the same file
// compressed, for hosts that serve precompressed files (this one does).
// The page's address takes the app's flags: /?strategy=statesync&preset=mobile.
//
// It is a tool of the machine that serves the page, never built for the
// browser itself (hence the build constraint on its files), so that
// GOOS=js GOARCH=wasm go build ./... builds the rest.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "serve:", err)
		if errors.Is(err, errUsage) {
			os.Exit(2)
		}
		os.Exit(1)
	}
}

var errUsage = errors.New("usage")

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(out)
	addr := fs.String("addr", "127.0.0.1:8080", "address to serve on; 127.0.0.1 is this machine only, :8080 every machine that can reach it")
	dir := fs.String("dir", "build/web", "the folder to build and serve")
	build := fs.Bool("build", true, "build the folder first (the Go toolchain compiles the app for js/wasm)")
	serve := fs.Bool("serve", true, "serve the folder (false: build it and stop)")
	hostRoom := fs.Bool("room", false, "host a classroom: browsers that open the printed address join this world as players (default address :8080; the app's flags after --)")
	ws := fs.Bool("websocket", false, "with -room: browsers join over the WebSocket (TCP), never a data channel: head-of-line blocking on a real network")
	head := fs.Bool("headless", false, "with -room: no window (a server); status lines every 5 s")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *hostRoom {
		return runRoom(fs, *addr, *dir, *build, *ws, *head, out)
	}
	if *ws || *head {
		return fmt.Errorf("%w: -websocket and -headless go with -room", errUsage)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q", errUsage, fs.Arg(0))
	}
	if *build {
		start := time.Now()
		if err := Build(*dir, out); err != nil {
			return err
		}
		fmt.Fprintf(out, "built %s in %.1f s\n", *dir, time.Since(start).Seconds())
	}
	if !*serve {
		return nil
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "serving %s on http://%s/ (Ctrl+C stops)\n", *dir, displayAddr(ln.Addr()))
	srv := newServer(*dir)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// displayAddr is an address a browser on this machine can open: a server
// listening on every interface is reached at 127.0.0.1 here.
func displayAddr(a net.Addr) string {
	ta, ok := a.(*net.TCPAddr)
	if !ok || !ta.IP.IsUnspecified() {
		return a.String()
	}
	return fmt.Sprintf("127.0.0.1:%d", ta.Port)
}
