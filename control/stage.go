package control

import (
	"fmt"

	"netcubes/link"
	"netcubes/strategy"
	"netcubes/viewmodel"
)

// The stage is what the presenter sees besides the session: the names of
// the clients' links, the overlays, the caption of the track. It is part
// of a run (rebuilt with it when the director goes back in time).

// LinkChoice is how one client's link conditions were chosen: a preset, or
// numbers adjusted away from it.
type LinkChoice struct {
	Preset link.Preset
	Custom bool // numbers adjusted away from the preset
}

// ChoiceOf is the choice a preset name makes ("" or an unknown name:
// custom numbers).
func ChoiceOf(name string) LinkChoice {
	if p, ok := link.PresetByName(name); ok && name != "" {
		return LinkChoice{Preset: p}
	}
	return LinkChoice{Custom: true}
}

// Name is the choice as the HUD names it: the preset, or "custom".
func (c LinkChoice) Name() string {
	if c.Custom {
		return "custom"
	}
	return c.Preset.String()
}

// View is what the overlays show (the keys G, T, E, F3, H; -show).
type View struct {
	NoGhost bool // the ghost (the left's true pose on the right) is off
	Tint    int  // index into talk.TintNames
	Offsets bool // state sync's smoothing offsets as lines
	Chart   bool // the comparison chart
	Help    bool // the key list
	Grid    bool // the grid: the server and up to four clients at once
}

// Caption is a track's caption on screen.
type Caption struct {
	Lines []string
	Left  int // frames it stays
	Age   int // frames it has been up
}

// stage is the presenter's side of a run.
type stage struct {
	links   []LinkChoice // each client's
	def     LinkChoice   // the conditions new clients start on
	view    View
	caption Caption
}

// clone copies the stage (its slices too).
func (s stage) clone() stage {
	s.links = append([]LinkChoice(nil), s.links...)
	s.caption.Lines = append([]string(nil), s.caption.Lines...)
	return s
}

// choice is client k's link choice; a client beyond the list starts on
// the default one.
func (s *stage) choice(k int) *LinkChoice {
	for len(s.links) <= k {
		s.links = append(s.links, s.def)
	}
	return &s.links[k]
}

// LinkName names client k's link as the HUD does: the preset, "custom",
// or "set by lockstep mode 3" when a strategy's mode chose it.
func (r *run) LinkName(k int) string {
	if k == r.sess.Shown() {
		if src := r.sess.LinkSource(); src != "" {
			return "set by " + src
		}
	}
	return r.st.choice(k).Name()
}

// ClientTitle describes client k: "client 2 · player 2 (push bot) ·
// mobile link".
func (r *run) ClientTitle(k int) string {
	s := r.sess
	t := fmt.Sprintf("client %d", s.ClientID(k)+1)
	_, rightDriven := s.Strategy().(strategy.RightDriven)
	switch p := s.ClientPlayer(k); {
	case p < 0:
		t += " · spectator"
	case s.PlayersElsewhere() && rightDriven:
		t += fmt.Sprintf(" · player %d (you)", p+1)
	case s.PlayersElsewhere() && p == 0:
		t += " · player 1 (the left's presenter)"
	case s.PlayersElsewhere():
		t += fmt.Sprintf(" · player %d (a bot on the left)", p+1)
	case p == 0:
		t += " · player 1 (you)"
	default:
		if b, ok := s.Bot(p); ok {
			t += fmt.Sprintf(" · player %d (%s bot)", p+1, b)
		}
	}
	return t + " · " + r.LinkName(k) + " link"
}

// shownNow is what the right is showing, as the comparison chart tells
// showings apart.
func (r *run) shownNow() viewmodel.Shown {
	st := r.sess.Strategy()
	s := viewmodel.Shown{Entry: r.sess.StrategyIndex(), Name: st.Name(), Mode: st.Mode(),
		Link: r.LinkName(r.sess.Shown()), Conditions: DescribeLink(r.sess.Link())}
	if _, chose := st.(strategy.LinkChooser); chose && r.sess.LinkSource() != "" {
		s.Link = "" // the strategy's mode names the conditions it chose
	}
	return s
}

// DescribeLinks writes a path's numbers: once when both directions are
// the same, else each ("down 35 ms …; up 55 ms …").
func DescribeLinks(p link.Pair) string {
	if p.IsSymmetric() {
		return DescribeLink(p.Down)
	}
	return "down " + DescribeLink(p.Down) + "; up " + DescribeLink(p.Up)
}

// DescribeLink writes the link's numbers compactly.
func DescribeLink(c link.Config) string {
	s := fmt.Sprintf("%.0f ms ±%.0f, %.1f%% loss", c.LatencyMs, c.JitterMs, c.LossPercent)
	if c.Burst.GoodToBadPercent > 0 {
		s += " + bursts"
	}
	if c.DuplicatePercent > 0 {
		s += fmt.Sprintf(", %.0f%% dup", c.DuplicatePercent)
	}
	if c.ReorderPercent > 0 {
		s += fmt.Sprintf(", %.0f%% reorder", c.ReorderPercent)
	}
	if c.BandwidthKbps > 0 {
		s += fmt.Sprintf(", cap %.0f kbit/s", c.BandwidthKbps)
	}
	if c.CorruptPercent > 0 {
		s += fmt.Sprintf(", %g%% damaged", c.CorruptPercent)
	}
	if c.TCPLike {
		s += ", TCP-like"
	}
	return s
}

// Series is a fixed-length history of one value per frame, oldest first:
// the HUD's graph of the last 10 s of bandwidth.
type Series struct {
	v    []float64
	head int // index of the next write
	n    int // samples written, up to len(v)
	// changes counts the Pushes and Clears: a drawing of the series is
	// still right while it has not moved (the HUD's graph keeps its mesh).
	changes uint64
}

// NewSeries keeps n samples.
func NewSeries(n int) *Series { return &Series{v: make([]float64, n)} }

// Push adds a sample, dropping the oldest when full.
func (s *Series) Push(x float64) {
	s.v[s.head] = x
	s.head = (s.head + 1) % len(s.v)
	s.n = min(s.n+1, len(s.v))
	s.changes++
}

// Changes counts the changes to the series so far (Push and Clear).
func (s *Series) Changes() uint64 { return s.changes }

// At returns the i-th sample, 0 = oldest kept.
func (s *Series) At(i int) float64 {
	start := (s.head - s.n + len(s.v)) % len(s.v)
	return s.v[(start+i)%len(s.v)]
}

// Len is the number of samples kept; Cap how many it can keep.
func (s *Series) Len() int { return s.n }
func (s *Series) Cap() int { return len(s.v) }

// Max is the largest sample kept (0 when none).
func (s *Series) Max() float64 {
	m := 0.0
	for i := 0; i < s.n; i++ {
		m = max(m, s.At(i))
	}
	return m
}

// Clear forgets every sample.
func (s *Series) Clear() { s.head, s.n = 0, 0; s.changes++ }
