//go:build !js

package launch

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/headless"
)

// runHeadless runs the left without a window until SIGINT or SIGTERM (or
// -frames ticks). A signal ends it with stoppedError, so main exits with
// 128 + the signal's number, as the app does.
func runHeadless(o options) error {
	cfg := o.ui.Session
	cfg.Epoch = 1
	s, err := game.New(cfg)
	if err != nil {
		return err
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, stopSignals...)
	defer signal.Stop(sigs)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopped := make(chan syscall.Signal, 1)
	done := make(chan struct{})
	go func() {
		select {
		case sg := <-sigs:
			sig, _ := sg.(syscall.Signal)
			stopped <- sig
			cancel()
		case <-done:
		}
	}()
	defer o.ui.Session.Server.Close()
	fmt.Fprintln(os.Stdout, "no window (-headless): Ctrl+C stops")
	var keys *cubes.Script
	if o.ui.Track != nil {
		keys = o.ui.Track.Input // a script of keys only (parseFlags refuses commands here)
	}
	err = headless.Run(ctx, s, headless.Options{Script: keys, Frames: o.ui.Frames, StatusEvery: 5 * time.Second}, os.Stdout)
	close(done)
	select {
	case sig := <-stopped:
		if err == nil {
			err = stoppedError{sig}
		}
	default:
	}
	return err
}
