package predict

// The "other players" section of the bench: two players shoving each
// other, per way of drawing the other player and per preset. After both
// players land (4 s: their drop bounces them a few metres), for 10 s you
// run into player 2 again and again to shove it east (cubes.Rammer),
// steering from what your client draws, as a person at the keyboard of a
// lagged client does; then for 10 s player 2 is the push bot
// (cubes.BotPush), which chases you and runs into you. A recorded script
// cannot do this with the 2004 client: the client runs ahead of the server
// by a lead that depends on the link, so recorded keys reach the server
// shifted and the players meet elsewhere or not at all.
//
// Client 1 (yours) is measured; client 2 is thin (it sends its player's
// inputs and simulates nothing). Client 1 tags on its own (AutoTagAll)
// whenever player 2 is drawn within 1.5 × the reach, so the tags fall
// around the reach's edge, where the verdicts can disagree.
//
// Both tables are the bench's shared table type: printed, and drawn with
// -plots (the error and jitter of the other player by drawing mode; the
// tags' agreement with and without lag compensation).

import (
	"fmt"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/strategy"
	"netcubes/wire"
)

// othersTimeline is the scenarios' phases, in ticks: the shoving
// scenario's (land, shove, bot) and the tags' (pass).
type othersTimeline struct {
	land  int // both players drop, bounce and come to rest
	shove int // you shove player 2
	bot   int // the push bot shoves you
	pass  int // player 2 passes to the side of you
}

// othersTimelineIn is the timeline of a bench held to n ticks (-frames; 0:
// not held): the landing takes at most half of n (at least 1 s: the
// players still bounce, the figures are not the scenario's), then the
// shove and bot phases share the rest, the passing has it; what follows
// the landing has at least 3 s (a pass past you and its tags).
func othersTimelineIn(n int) (othersTimeline, bool) {
	t := othersTimeline{land: 240, shove: 600, bot: 600, pass: 1200}
	if n <= 0 || n >= t.land+t.shove+t.bot {
		return t, false
	}
	t.land = min(t.land, max(n/2, wire.TicksPerSecond))
	rest := max(n-t.land, 3*wire.TicksPerSecond)
	t.shove, t.bot, t.pass = rest/2, rest-rest/2, min(t.land+rest, t.pass)
	return t, true
}

// squeezedOthersNote is the line under a table of a squeezed run.
const squeezedOthersNote = "Squeezed into the run's ticks (-frames): the landing and the phases after it shortened; these figures are not the full scenario's."

// shoveGoal is where you shove player 2 toward: east, off the grid.
var shoveGoal = mgl64.Vec3{30, 0, 0}

// othersPresets are the presets of the table.
var othersPresets = []link.Preset{link.PresetLAN, link.PresetIntercontinental, link.PresetMobile, link.PresetTerrible}

// othersRow is one run's figures.
type othersRow struct {
	o                    OthersStats
	tags                 TagStats
	corrections          uint64
	pushServer, pushSeen float64 // m
}

func benchOthers(b strategy.Bench) error {
	pb, ok := b.(strategy.PlayersBench)
	if !ok {
		fmt.Fprintln(b.Out(), "(this bench runs one player only)")
		return nil
	}
	tl, squeezed := othersTimelineIn(b.FrameLimit())
	t := othersTable()
	for _, pr := range othersPresets {
		for m := OthersArrived; int(m) <= NumOthersModes; m++ {
			r, err := othersRun(pb, tl, pr, m)
			if err != nil {
				return err
			}
			t.Add(othersCells(pr, m, &r)...)
		}
	}
	if squeezed {
		t.Note(squeezedOthersNote)
	}
	if err := b.Print(t); err != nil {
		return err
	}
	return benchPassing(b, pb, tl, squeezed)
}

// The tags' own table: player 2 passes back and forth 5 m to the side of
// you, standing (cubes.Passer), never touching you; your client tags it
// whenever it is drawn within 1.5 × the reach, the reach 5.6 m so a pass's
// middle is a hit. Without contact your own prediction is exact, so what
// the verdicts disagree on is where player 2 was.
const (
	passLine  = 5.0
	passReach = 5.6
)

// passModes are the drawing modes of the tags' table.
var passModes = []OthersMode{OthersArrived, OthersInterpolate, OthersExtrapolate, OthersPredict}

func benchPassing(b strategy.Bench, pb strategy.PlayersBench, tl othersTimeline, squeezed bool) error {
	tab := strategy.NewTable(strategy.Column{Head: "preset"}, strategy.Column{Head: "other player drawn"},
		strategy.Column{Head: "tags"}, strategy.Column{Head: "seen as hits"},
		strategy.Column{Head: "granted comp"}, strategy.Column{Head: "granted no comp"},
		strategy.Column{Head: "agree comp", Unit: "%"}, strategy.Column{Head: "agree no comp", Unit: "%"},
		strategy.Column{Head: "view ms back", Unit: "ms"})
	for _, pr := range othersPresets {
		for _, m := range passModes {
			c := DefaultConfig()
			c.Others.TagReach, c.Others.AutoTagRange = passReach, 1.5*passReach
			st := New(c)
			set := st.Settings()
			set.Others, set.AutoTag = m, AutoTagAll
			st.SetSettings(set)
			run, err := pb.NewPlayersRun(strategy.PlayersConfig{Players: 2, Links: []link.Config{pr.Config()}, Thin: true}, st)
			if err != nil {
				return err
			}
			p := cubes.NewPasser()
			p.Offset, p.Start = passLine, tl.land
			left := run.Left()
			pb.PlayPlayers("other players", fmt.Sprintf("tags, %s, %s", pr, m), run, tl.pass, func(f int, ins *cubes.Inputs) uint8 {
				ins[1] = p.Input(f, left.Cube(left.PlayerCube(1)).Position, left.Cube(left.PlayerCube(0)).Position)
				return 3
			}, nil)
			t := st.Stats().Tags
			tab.Add(strategy.Text(pr.String()), strategy.Text(m.String()), strategy.Int(t.Verdicts), strategy.Int(t.SeenHitsJudged),
				strategy.Int(t.GrantedOn), strategy.Int(t.GrantedOff), pctCell(t.AgreementOn()), pctCell(t.AgreementOff()),
				strategy.Num(t.LastViewBackMs, "%.0f"))
		}
	}
	tab.Note("Tags on player 2 passing 5 m to the side of you, standing, for 20 s (reach 5.6 m); tags: verdicts received; granted: by the server")
	tab.Note("with lag compensation (rewound to the view the tag names) and without (its present); agree: verdicts equal to what your client saw;")
	tab.Note("view ms back: how far before the tag's frame the client drew player 2 (its lead, the latency and the interpolation delay).")
	if squeezed {
		tab.Note(squeezedOthersNote)
	}
	tab.Charts = []strategy.Chart{{
		File: "other-players-tags", Title: "Tags judged by the server: agreement with what the client saw, with and without lag compensation",
		X: []string{"preset"}, Series: "other player drawn", Bars: true,
		Panels: []strategy.Panel{
			{Y: "agree comp", Label: "agreement, lag compensation on"},
			{Y: "agree no comp", Label: "agreement, lag compensation off"},
		},
	}}
	fmt.Fprintln(b.Out())
	return b.Print(tab)
}

// othersRun plays the scenario on preset pr with the other player drawn
// in mode m.
func othersRun(pb strategy.PlayersBench, tl othersTimeline, pr link.Preset, m OthersMode) (othersRow, error) {
	st := New(DefaultConfig())
	set := st.Settings()
	set.Others, set.AutoTag = m, AutoTagAll
	st.SetSettings(set)
	run, err := pb.NewPlayersRun(strategy.PlayersConfig{Players: 2, Links: []link.Config{pr.Config()},
		Bots: []cubes.BotKind{cubes.BotPush}, Thin: true}, st)
	if err != nil {
		return othersRow{}, err
	}
	var row othersRow
	var ep pushEpisode
	ram := cubes.NewRammer(shoveGoal)
	pb.PlayPlayers("other players", fmt.Sprintf("%s, %s", pr, m), run, tl.land+tl.shove+tl.bot,
		func(f int, ins *cubes.Inputs) uint8 { return shove(st, tl, &ram, f, ins) },
		func() { ep.tick(st, tl, run.Frame(), &row) })
	ep.end(&row)
	row.o = st.OthersTotals()
	row.tags = st.Stats().Tags
	row.corrections = st.Stats().Corrections
	return row, nil
}

// shove is the scenario's keys at tick f: nothing while the players land;
// then yours, steering from what your client draws of both players; then
// the push bot's (the bots drive the players not given).
func shove(st *Strategy, tl othersTimeline, ram *cubes.Rammer, f int, ins *cubes.Inputs) uint8 {
	switch {
	case f < tl.land:
		return 3
	case f < tl.land+tl.shove:
		c := &st.cli
		if d := &st.oth.drawn[1]; d.has {
			ins[0] = ram.Input(f, st.drawnMe(c), st.drawnPose(c, 1).Position)
		}
		return 3
	}
	return 1
}

// pushEpisode follows the contacts of the push phase: the distance player
// 2 moved during each, on the server and on client 1's screen.
type pushEpisode struct {
	in               bool
	server, seen     mgl64.Vec3 // player 2 at the episode's start
	lastSrv, lastSee mgl64.Vec3
}

func (e *pushEpisode) tick(st *Strategy, tl othersTimeline, f int, row *othersRow) {
	me, ok1 := st.truth.at(f, 0)
	it, ok2 := st.truth.at(f, 1)
	d := &st.oth.drawn[1]
	touching := ok1 && ok2 && d.has && f >= tl.land && f < tl.land+tl.shove &&
		me.Position.Sub(it.Position).Len() < contactDistance
	if touching {
		seen := st.drawnPose(&st.cli, 1).Position
		if !e.in {
			e.in, e.server, e.seen = true, it.Position, seen
		}
		e.lastSrv, e.lastSee = it.Position, seen
		return
	}
	e.end(row)
}

// end closes an episode.
func (e *pushEpisode) end(row *othersRow) {
	if !e.in {
		return
	}
	e.in = false
	flat := func(v mgl64.Vec3) float64 { return mgl64.Vec2{v[0], v[1]}.Len() }
	row.pushServer += flat(e.lastSrv.Sub(e.server))
	row.pushSeen += flat(e.lastSee.Sub(e.seen))
}

// othersCells are one row's cells.
func othersCells(pr link.Preset, m OthersMode, r *othersRow) []strategy.Cell {
	return []strategy.Cell{
		strategy.Text(pr.String()), strategy.Text(m.String()),
		strategy.Num(r.o.ErrRMSCm, "%.2f"), strategy.Num(r.o.ErrMaxCm, "%.1f"),
		{Value: r.o.PastMs, Text: pastCell(r.o.PastMs)}, strategy.Num(r.o.JitterCm, "%.2f"),
		strategy.Num(r.o.ContactSec, "%.1f"), strategy.Num(r.o.ContactCorrPerSec, "%.1f"),
		strategy.Num(r.pushServer, "%.2f"), strategy.Num(r.pushSeen, " / %.2f"),
		strategy.Int(r.tags.Verdicts), strategy.Textf(" (%d hits)", r.tags.SeenHitsJudged),
		pctCell(r.tags.AgreementOn()), pctCell(r.tags.AgreementOff()),
	}
}

// pctCell is a percentage, or "–" when there is none.
func pctCell(v float64) strategy.Cell {
	if v < 0 {
		return strategy.Text("–")
	}
	return strategy.Num(v, "%.0f %%")
}

// pastCell writes a delay: positive in the past, "ahead" for negative.
func pastCell(ms float64) string {
	if ms < -0.5 {
		return fmt.Sprintf("%.0f ahead", -ms)
	}
	return fmt.Sprintf("%.0f", ms)
}

// othersTable is the table's columns, what they mean, and its chart: the
// error of the other player as drawn and its jitter, by drawing mode, on
// each preset (LAN: nearly no lag; terrible: the most).
func othersTable() *strategy.Table {
	t := strategy.NewTable(strategy.Column{Head: "preset"}, strategy.Column{Head: "other player drawn"},
		strategy.Column{Head: "err RMS cm", Unit: "cm"}, strategy.Column{Head: "err max cm", Unit: "cm"},
		strategy.Column{Head: "drawn ms ago", Unit: "ms"}, strategy.Column{Head: "jitter cm/tick", Unit: "cm"},
		strategy.Column{Head: "contact s", Unit: "s"}, strategy.Column{Head: "corr/s in contact", Unit: "/s"},
		strategy.Column{Head: "pushed m server / screen", Unit: "m"}, strategy.Column{Head: "pushed m screen", Unit: "m", Join: true},
		strategy.Column{Head: "tags (seen hits)"}, strategy.Column{Head: "seen hits", Join: true},
		strategy.Column{Head: "agree comp", Unit: "%"}, strategy.Column{Head: "agree no comp", Unit: "%"})
	t.Note("2 players: you shove player 2 for 10 s (steering from your client's screen), then the push bot shoves you for 10 s; client 1 (yours) measured,")
	t.Note("client 2 thin. err: player 2 as drawn against the server's exact state at the frame")
	t.Note("it represents; drawn ms ago: the server's present minus that frame (ahead: predicted past it); jitter: RMS change of the drawn per-tick motion.")
	t.Note("contact: seconds the players touch on the server (both phases); corr/s: client 1's corrections per second of contact. pushed: during the first")
	t.Note("phase's contacts, how far player 2 moved on the server and on client 1's screen. tags: client 1 tags player 2 whenever it is drawn within 4.5 m")
	t.Note("(reach 3 m); agree: verdicts equal to what the client saw, the server judging with lag compensation (rewound to the view) and without (its present).")
	t.Charts = []strategy.Chart{{
		File: "other-players", Title: "How a client draws the other player: error and jitter by drawing mode and network (how far back: see the table)",
		X: []string{"preset"}, Series: "other player drawn", Bars: true,
		Panels: []strategy.Panel{
			{Y: "err RMS cm", Label: "error at the frame shown, RMS", Log: true},
			{Y: "jitter cm/tick", Label: "drawn jitter per tick", Log: true},
		},
	}}
	return t
}
