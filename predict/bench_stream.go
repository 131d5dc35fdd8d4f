package predict

import (
	"fmt"
	"math"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// benchStream: the article's own server (step 6, a time stream per
// player) against the fixed tick that replaced it (step 5's server, the
// client predicting its player alone, as in step 6), two players (a bot
// pushes player 2) on four links; then the speed hack and the clamp.
func benchStream(b strategy.Bench) error {
	pb, ok := b.(strategy.PlayersBench)
	if !ok {
		_, err := fmt.Fprintln(b.Out(), "(the article's server section needs a bench of several players)")
		return err
	}
	t := strategy.NewTable(
		strategy.Column{Head: "server"},
		strategy.Column{Head: "link"},
		strategy.Column{Head: "speed"},
		strategy.Column{Head: "P1 time ms", Unit: "ms"},
		strategy.Column{Head: "P2 time ms", Unit: "ms"},
		strategy.Column{Head: "frames a tick"},
		strategy.Column{Head: "player jitter cm/tick", Unit: "cm"},
		strategy.Column{Head: "pushed jitter cm/tick", Unit: "cm"},
		strategy.Column{Head: "P1 path m/s", Unit: "m/s"},
		strategy.Column{Head: "clamped/s", Unit: "1/s"},
		strategy.Column{Head: "corrections/s", Unit: "1/s"},
	)
	type row struct {
		mode  Mode
		pr    link.Preset
		speed Speed
	}
	var rows []row
	for _, pr := range []link.Preset{link.PresetLAN, link.PresetIntercontinental, link.PresetMobile, link.PresetTerrible} {
		rows = append(rows, row{Katamari, pr, SpeedHonest}, row{ArticleServer, pr, SpeedHonest})
	}
	rows = append(rows, row{Katamari, link.PresetMobile, SpeedHack}, row{ArticleServer, link.PresetMobile, SpeedHack},
		row{ArticleServer, link.PresetMobile, SpeedHackClamped}, row{ArticleServer, link.PresetMobile, SpeedClamped})
	frames := 1200
	if l := b.FrameLimit(); l > 0 {
		frames = min(frames, l)
	}
	for _, r := range rows {
		cells, err := streamRun(pb, r.mode, r.pr, r.speed, frames)
		if err != nil {
			return err
		}
		t.Add(cells...)
	}
	t.Note(fmt.Sprintf("Two players, %d ticks: player 1 on the katamari spiral (its client predicts it alone, steps 5 and 6 alike), a bot pushing player 2;", frames))
	t.Note("the server: the fixed tick (step 5's: the client runs ahead, input n arrives before frame n) or the article's (step 6: each player advanced")
	t.Note("as its inputs arrive). P1/P2 time: each player's time against the server's (step 6; negative: behind), mean; frames a tick: the fewest")
	t.Note("and most frames a player advanced in one tick; jitter: RMS second difference of the positions on the server, per tick (the players'")
	t.Note("cubes; the moving grid cubes they push); P1 path: player 1's path on the server per second; speed: the presenter's client honest or")
	t.Note("stamping 25 % more inputs than ticks pass (a speed hack), and the server clamping each player's time to real time + 100 ms.")
	t.Charts = []strategy.Chart{{
		File: "prediction-article-server", Title: "The 2004 article's own server against the fixed tick: the players move in bursts",
		X: []string{"link", "speed"}, Series: "server", Bars: true,
		Panels: []strategy.Panel{
			{Y: "player jitter cm/tick", Label: "players' jitter"},
			{Y: "pushed jitter cm/tick", Label: "cubes' jitter"},
			{Y: "P1 path m/s", Label: "P1 speed"},
		},
	}}
	return b.Print(t)
}

// streamRun plays one row of benchStream and returns its cells.
func streamRun(pb strategy.PlayersBench, mode Mode, pr link.Preset, speed Speed, frames int) ([]strategy.Cell, error) {
	st := New(DefaultConfig())
	set := ModeSettings(mode)
	set.Speed = speed
	st.SetSettings(set)
	run, err := pb.NewPlayersRun(strategy.PlayersConfig{Players: 2, Links: []link.Config{pr.Config()},
		Bots: []cubes.BotKind{cubes.BotPush}, Thin: true}, st)
	if err != nil {
		return nil, err
	}
	left := run.Left()
	sp := cubes.DefaultSpiral()
	var off [2]float64
	var offN, jitN int
	var pj, cj, path float64
	lo, hi := math.MaxInt, 0
	prev := left.Cube(cubes.Player).Position
	name := fmt.Sprintf("%s, %s, %s", mode, pr, speed)
	pb.PlayPlayers("the article's server", name, run, frames, func(f int, ins *cubes.Inputs) uint8 {
		ins[0] = sp.Input(f, left.Cube(cubes.Player).Position)
		return 1
	}, func() {
		p := left.Cube(cubes.Player).Position
		path += p.Sub(prev).Len()
		prev = p
		f := st.Stats().Stream
		if f.On[0] && f.On[1] {
			off[0] += f.OffsetMs[0]
			off[1] += f.OffsetMs[1]
			lo, hi = min(lo, f.MinAdv[0], f.MinAdv[1]), max(hi, f.MaxAdv[0], f.MaxAdv[1])
			offN++
		}
		if f.HasJitter && run.Frame()%wire.TicksPerSecond == 0 {
			pj += f.PlayerJitterCm * f.PlayerJitterCm
			cj += f.PushedJitterCm * f.PushedJitterCm
			jitN++
		}
	})
	ss := st.Stats()
	secs := float64(frames) / wire.TicksPerSecond
	server, t1, t2, adv := "fixed tick (5)", strategy.Text("-"), strategy.Text("-"), strategy.Text("1")
	if mode.streams() {
		server = "the article's (6)"
		n := float64(max(offN, 1))
		t1, t2 = strategy.Num(off[0]/n, "%.0f"), strategy.Num(off[1]/n, "%.0f")
		adv = strategy.Textf("%d-%d", lo, hi)
	}
	jn := float64(max(jitN, 1))
	return []strategy.Cell{strategy.Text(server), strategy.Text(pr.String()), strategy.Text(speed.String()), t1, t2, adv,
		strategy.Num(math.Sqrt(pj/jn), "%.1f"), strategy.Num(math.Sqrt(cj/jn), "%.1f"), strategy.Num(path/secs, "%.2f"),
		strategy.Num(float64(ss.ClampedFrames)/secs, "%.1f"), strategy.Num(float64(ss.Corrections)/secs, "%.1f")}, nil
}
