//go:build !js

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"netcubes/ui"
	"netcubes/ui/launch"
)

// roomAddr is a room's address unless -addr says otherwise: every machine
// on the network.
const roomAddr = ":8080"

// runRoom builds the web folder and hosts a classroom on it (-room): the
// arguments left after the flags are the app's.
func runRoom(fs *flag.FlagSet, addr, dir string, build, ws, head bool, out io.Writer) error {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == "addr" })
	if !set {
		addr = roomAddr
	}
	if build {
		start := time.Now()
		if err := Build(dir, out); err != nil {
			return err
		}
		fmt.Fprintf(out, "built %s in %.1f s\n", dir, time.Since(start).Seconds())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := launch.HostRoom(ctx, launch.RoomOptions{Addr: addr, Static: handler(dir), ForceWebSocket: ws, Headless: head}, fs.Args(), out)
	var u ui.UsageError
	if errors.As(err, &u) {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	return err
}
