package headless

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"netcubes/catalog"
	"netcubes/cubes"
	"netcubes/game"
	"netcubes/udp"
	"netcubes/wire"
)

// TestRunServesARight runs a headless left for half a second of ticks while
// a right connects to it: the left steps its frames, says the right
// connected, and its status line names the right.
func TestRunServesARight(t *testing.T) {
	tok, _ := udp.NewToken()
	lcfg := udp.DefaultConfig()
	lcfg.MaxClients = 1
	lc, err := udp.Listen("127.0.0.1:0", tok, lcfg)
	if err != nil {
		t.Fatal(err)
	}
	defer lc.Close()
	cfg := game.DefaultConfig()
	cfg.Strategies, cfg.Role, cfg.Server = catalog.All(), game.RoleLeft, lc
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := udp.Dial(lc.LocalAddr().String(), tok, udp.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	// Before any right: no figures, "no right connected".
	if got := StatusLine(s); !strings.Contains(got, "no right connected") || strings.Contains(got, "kbit/s") || strings.Contains(got, "loss") {
		t.Errorf("status with no right: %s", got)
	}
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() { // the right's side, polled by hand on its own ticks
		defer close(stopped)
		for k := 0; ; k++ {
			select {
			case <-stop:
				return
			default:
			}
			rc.Poll(wire.Tick(k))
			time.Sleep(5 * time.Millisecond)
		}
	}()
	sc, _ := cubes.LoadScript("katamari")
	var out bytes.Buffer
	err = Run(context.Background(), s, Options{Script: sc, Frames: 30, StatusEvery: 100 * time.Millisecond}, &out)
	close(stop)
	<-stopped
	if err != nil {
		t.Fatal(err)
	}
	if s.Frame() != 30 {
		t.Errorf("ran %d frames, want 30", s.Frame())
	}
	text := out.String()
	if !strings.Contains(text, "a right joined from 127.0.0.1:") || !strings.Contains(text, "frame ") {
		t.Errorf("output:\n%s", text)
	}
	if line := StatusLine(s); !strings.Contains(line, " datagrams out, ") || strings.Contains(line, "socket 0 datagrams out") {
		t.Errorf("the socket's datagrams, after a right joined and 30 frames: %s", line)
	}
	if !strings.Contains(StatusLine(s), "right 1 (player 1) at 127.0.0.1:") {
		t.Errorf("status: %s", StatusLine(s))
	}
	// 30 frames, the right joining on the way: fewer packets judged than
	// a loss figure needs, so none is printed.
	if m := s.ClientMetrics(0); !m.LossMeasured() && !strings.Contains(StatusLine(s), "loss —") {
		t.Errorf("a loss figure with %d packets judged: %s", m.LossSamples, StatusLine(s))
	}
}

func TestRunRefusesARight(t *testing.T) {
	cfg := game.DefaultConfig()
	cfg.Strategies = catalog.All()
	s, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := Run(context.Background(), s, Options{Frames: 1}, &bytes.Buffer{}); err == nil {
		t.Error("ran a one-process session headless")
	}
}
