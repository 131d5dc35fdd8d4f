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
// The table is written with plain fmt here, in its own function, so the
// bench's shared table type can take it over.

import (
	"fmt"
	"text/tabwriter"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/cubes"
	"netcubes/link"
	"netcubes/strategy"
)

// The scenario's phases, ticks.
const (
	landTicks  = 240 // both players drop, bounce and come to rest
	shoveTicks = 600 // you shove player 2
	botTicks   = 600 // the push bot shoves you
)

// shoveGoal is where you shove player 2 toward: east, off the grid.
var shoveGoal = mgl64.Vec3{30, 0, 0}

// othersPresets are the presets of the table.
var othersPresets = []link.Preset{link.PresetLAN, link.PresetIntercontinental, link.PresetMobile, link.PresetTerrible}

// pushFrames are the ticks where you shove player 2: the push distances
// are measured there.
var pushFrames = [2]int{landTicks, landTicks + shoveTicks}

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
	var rows [][]string
	for _, pr := range othersPresets {
		for m := OthersArrived; int(m) <= NumOthersModes; m++ {
			r, err := othersRun(pb, pr, m)
			if err != nil {
				return err
			}
			rows = append(rows, othersCells(pr, m, &r))
		}
	}
	if err := writeOthersTable(b, rows); err != nil {
		return err
	}
	return benchPassing(b, pb)
}

// The tags' own table: player 2 passes back and forth 5 m to the side of
// you, standing (cubes.Passer), never touching you; your client tags it
// whenever it is drawn within 1.5 × the reach, the reach 5.6 m so a pass's
// middle is a hit. Without contact your own prediction is exact, so what
// the verdicts disagree on is where player 2 was.
const (
	passTicks = 1200
	passLine  = 5.0
	passReach = 5.6
)

// passModes are the drawing modes of the tags' table.
var passModes = []OthersMode{OthersArrived, OthersInterpolate, OthersExtrapolate, OthersPredict}

func benchPassing(b strategy.Bench, pb strategy.PlayersBench) error {
	w := tabwriter.NewWriter(b.Out(), 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "\npreset\tother player drawn\ttags\tseen as hits\tgranted comp\tgranted no comp\tagree comp\tagree no comp\tview ms back\t")
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
			p.Offset = passLine
			left := run.Left()
			pb.PlayPlayers("other players", fmt.Sprintf("tags, %s, %s", pr, m), run, passTicks, func(f int, ins *cubes.Inputs) uint8 {
				ins[1] = p.Input(f, left.Cube(left.PlayerCube(1)).Position, left.Cube(left.PlayerCube(0)).Position)
				return 3
			}, nil)
			t := st.Stats().Tags
			fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%d\t%d\t%s\t%s\t%.0f\t\n", pr, m, t.Verdicts, t.SeenHitsJudged, t.GrantedOn, t.GrantedOff,
				pctCell(t.AgreementOn()), pctCell(t.AgreementOff()), t.LastViewBackMs)
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(b.Out(), "Tags on player 2 passing 5 m to the side of you, standing, for 20 s (reach 5.6 m); tags: verdicts received; granted: by the server")
	fmt.Fprintln(b.Out(), "with lag compensation (rewound to the view the tag names) and without (its present); agree: verdicts equal to what your client saw;")
	fmt.Fprintln(b.Out(), "view ms back: how far before the tag's frame the client drew player 2 (its lead, the latency and the interpolation delay).")
	return nil
}

// pctCell writes a percentage, or "–" when there is none.
func pctCell(v float64) string {
	if v < 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f %%", v)
}

// othersRun plays the scenario on preset pr with the other player drawn
// in mode m.
func othersRun(pb strategy.PlayersBench, pr link.Preset, m OthersMode) (othersRow, error) {
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
	pb.PlayPlayers("other players", fmt.Sprintf("%s, %s", pr, m), run, landTicks+shoveTicks+botTicks,
		func(f int, ins *cubes.Inputs) uint8 { return shove(st, &ram, f, ins) },
		func() { ep.tick(st, run.Frame(), &row) })
	ep.end(&row)
	row.o = st.OthersTotals()
	row.tags = st.Stats().Tags
	row.corrections = st.Stats().Corrections
	return row, nil
}

// shove is the scenario's keys at tick f: nothing while the players land;
// then yours, steering from what your client draws of both players; then
// the push bot's (the bots drive the players not given).
func shove(st *Strategy, ram *cubes.Rammer, f int, ins *cubes.Inputs) uint8 {
	switch {
	case f < landTicks:
		return 3
	case f < landTicks+shoveTicks:
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

func (e *pushEpisode) tick(st *Strategy, f int, row *othersRow) {
	me, ok1 := st.truth.at(f, 0)
	it, ok2 := st.truth.at(f, 1)
	d := &st.oth.drawn[1]
	touching := ok1 && ok2 && d.has && f >= pushFrames[0] && f < pushFrames[1] &&
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

// othersCells formats one row.
func othersCells(pr link.Preset, m OthersMode, r *othersRow) []string {
	return []string{
		pr.String(), m.String(),
		fmt.Sprintf("%.2f", r.o.ErrRMSCm), fmt.Sprintf("%.1f", r.o.ErrMaxCm),
		pastCell(r.o.PastMs), fmt.Sprintf("%.2f", r.o.JitterCm),
		fmt.Sprintf("%.1f", r.o.ContactSec), fmt.Sprintf("%.1f", r.o.ContactCorrPerSec),
		fmt.Sprintf("%.2f / %.2f", r.pushServer, r.pushSeen),
		fmt.Sprintf("%d (%d hits)", r.tags.Verdicts, r.tags.SeenHitsJudged),
		pctCell(r.tags.AgreementOn()), pctCell(r.tags.AgreementOff()),
	}
}

// pastCell writes a delay: positive in the past, "ahead" for negative.
func pastCell(ms float64) string {
	if ms < -0.5 {
		return fmt.Sprintf("%.0f ahead", -ms)
	}
	return fmt.Sprintf("%.0f", ms)
}

// writeOthersTable prints the table and what its columns mean.
func writeOthersTable(b strategy.Bench, rows [][]string) error {
	w := tabwriter.NewWriter(b.Out(), 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "preset\tother player drawn\terr RMS cm\terr max cm\tdrawn ms ago\tjitter cm/tick\tcontact s\tcorr/s in contact\tpushed m server / screen\ttags (seen hits)\tagree comp\tagree no comp\t")
	for _, r := range rows {
		for _, c := range r {
			fmt.Fprint(w, c, "\t")
		}
		fmt.Fprintln(w)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	out := b.Out()
	fmt.Fprintln(out, "2 players: you shove player 2 for 10 s (steering from your client's screen), then the push bot shoves you for 10 s; client 1 (yours) measured,")
	fmt.Fprintln(out, "client 2 thin. err: player 2 as drawn against the server's exact state at the frame")
	fmt.Fprintln(out, "it represents; drawn ms ago: the server's present minus that frame (ahead: predicted past it); jitter: RMS change of the drawn per-tick motion.")
	fmt.Fprintln(out, "contact: seconds the players touch on the server (both phases); corr/s: client 1's corrections per second of contact. pushed: during the first")
	fmt.Fprintln(out, "phase's contacts, how far player 2 moved on the server and on client 1's screen. tags: client 1 tags player 2 whenever it is drawn within 4.5 m")
	fmt.Fprintln(out, "(reach 3 m); agree: verdicts equal to what the client saw, the server judging with lag compensation (rewound to the view) and without (its present).")
	return nil
}
