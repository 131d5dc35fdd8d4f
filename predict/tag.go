package predict

import (
	"errors"
	"math"

	"github.com/go-gl/mathgl/mgl64"

	"netcubes/geom"
	"netcubes/strategy"
	"netcubes/wire"
)

// Design note: tags and lag compensation. A client "tags" the nearest
// other player as it sees it: a hit when that player is drawn within
// TagReach of its own. The tag is an input, so it crosses to the server in
// the client's input packet, with the input frame it goes with (repeated
// with the inputs until the server holds them), the player it names, and
// the time the client drew that player at (its view: how far before the
// tag's frame, in eighths of a tick). The server judges it when it steps
// that frame, both ways every time, so both agreement figures exist:
//
//   - without compensation, at its present: where the tagged player is
//     now, on the server;
//   - with compensation, "back in time": it rewinds the tagged player to
//     the view the tag names, which is the client's latency (the lead its
//     clock runs ahead, and the packets' way back) plus its interpolation
//     delay, from the history it keeps (truth.go), rebuilt as the client
//     decoded it (quantized, blended the same way), so a client that
//     interpolates sees its tag judged on the very pose it saw. The claim
//     is bounded: no further back than MaxRewindTicks (a cheater cannot
//     reach into the distant past) and never past the present.
//
// The tagging player is where the server has it at the tag's frame: a
// client whose own prediction was wrong sees another distance than the
// server judges. The verdicts come back in the server's packets (for a
// second after the judgement, repeated, so a lost packet loses none); the
// client counts the tags it saw as hits against the tags granted, both
// ways, and marks on screen a tag whose verdict (the one the presenter
// chose with C) disputes what it saw. A tag changes nothing in the world:
// it is a judgement, so the simulation and one player's runs stay as they
// were. Without other players the packets carry no tag field at all.

// Wire limits of tags.
const (
	// MaxTags is the most tags one input packet carries: a second of
	// inputs at one tag per TagCooldownTicks (15) holds 4.
	MaxTags = 4
	// MaxVerdicts is the most verdicts one server packet carries: the
	// tags judged in the last verdictWindow frames.
	MaxVerdicts = 4
	// maxViewBack bounds how far before its frame a tag may say the
	// client drew the tagged player, ticks (10 bits of eighths).
	maxViewBack = 127
	// verdictWindow is how many frames after the tag's frame its verdict
	// is repeated, ticks: 4 tags at most at the cooldown of 15.
	verdictWindow = 60
	// tagTimeout is how long a client waits for a verdict, ticks.
	tagTimeout = 120
	// tagRing is how many tags a client or a server remembers.
	tagRing = 16
)

// errTagOrder: tags or verdicts not in increasing frame order.
var errTagOrder = errors.New("predict: tags out of order")

// Tag is one tag in an input packet.
type Tag struct {
	Frame    int32 // the input frame it goes with
	Target   int32 // the player tagged (0-based)
	ViewBack int32 // eighths of a tick before Frame the client drew Target at
}

// TagList is the tags of an input packet, oldest first.
type TagList struct {
	N    int32
	Tags [MaxTags]Tag
}

// serialize reads or writes the list after the inputs of frames
// newest−count+1 .. newest: each tag names one of those frames (6 bits
// back from the newest), in increasing order, a player (3 bits) and its
// view (10 bits).
func (l *TagList) serialize(s wire.Stream, newest, count int32) error {
	reading := s.IsReading()
	s.SetCategory(wire.CategoryInput)
	n := l.N
	if err := wire.SerializeInt(s, &n, 0, MaxTags); err != nil {
		return err
	}
	if reading {
		l.N = 0
	}
	prev := int32(-1)
	for k := range n {
		t := &l.Tags[k]
		back := newest - t.Frame
		if err := wire.SerializeInt(s, &back, 0, min(count, MaxInputs)-1); err != nil {
			return err
		}
		if reading {
			t.Frame = newest - back
		}
		if t.Frame <= prev {
			return s.Fail(errTagOrder)
		}
		prev = t.Frame
		if err := wire.SerializeInt(s, &t.Target, 0, maxPlayerIndex); err != nil {
			return err
		}
		if err := wire.SerializeInt(s, &t.ViewBack, 0, maxViewBack*viewEighths); err != nil {
			return err
		}
		if reading {
			l.N = k + 1
		}
	}
	return nil
}

// maxPlayerIndex is the largest 0-based player index on the wire.
const maxPlayerIndex = 7

// Verdict is the server's judgement of one tag.
type Verdict struct {
	Frame       int32 // the tag's frame
	WithComp    bool  // granted with lag compensation
	WithoutComp bool  // granted at the server's present
	Clamped     bool  // the view was further back than the server rewinds
}

// VerdictList is the verdicts of a server packet, oldest first.
type VerdictList struct {
	N int32
	V [MaxVerdicts]Verdict
}

// serialize reads or writes the list of a packet for frame f: each
// verdict's tag frame as 1..verdictWindow frames back from f, increasing.
func (l *VerdictList) serialize(s wire.Stream, f int32) error {
	reading := s.IsReading()
	s.SetCategory(wire.CategoryOther)
	n := l.N
	if err := wire.SerializeInt(s, &n, 0, MaxVerdicts); err != nil {
		return err
	}
	if reading {
		l.N = 0
	}
	prev := int32(math.MinInt32)
	for k := range n {
		v := &l.V[k]
		back := f - v.Frame
		if err := wire.SerializeInt(s, &back, 1, verdictWindow); err != nil {
			return err
		}
		if reading {
			v.Frame = f - back
		}
		if v.Frame <= prev {
			return s.Fail(errTagOrder)
		}
		prev = v.Frame
		for _, b := range []*bool{&v.WithComp, &v.WithoutComp, &v.Clamped} {
			if err := wire.SerializeBool(s, b); err != nil {
				return err
			}
		}
		if reading {
			l.N = k + 1
		}
	}
	return nil
}

// TagStats are the tag figures: the client's since the last reset, and
// the server's.
type TagStats struct {
	Tags       int // tags the client made
	SeenHits   int // of them, hits as the client saw them
	Verdicts   int // verdicts received
	GrantedOn  int // granted with lag compensation
	GrantedOff int // granted without
	// SeenHitsJudged is SeenHits among the tags with a verdict.
	SeenHitsJudged int
	// AgreeOn, AgreeOff: verdicts equal to what the client saw.
	AgreeOn, AgreeOff int
	NoVerdict         int     // tags whose verdict never came (timed out)
	LastViewBackMs    float64 // how far back the last tag's view was
	// Server side.
	Judged, Refused, Clamped int
}

// AgreementOn and AgreementOff are the agreement in percent (−1: no
// verdict yet).
func (t *TagStats) AgreementOn() float64  { return pct(t.AgreeOn, t.Verdicts) }
func (t *TagStats) AgreementOff() float64 { return pct(t.AgreeOff, t.Verdicts) }

func pct(a, n int) float64 {
	if n == 0 {
		return -1
	}
	return 100 * float64(a) / float64(n)
}

// clientTag is a tag the client made, waiting for its verdict.
type clientTag struct {
	frame    int // −1: empty
	target   int
	viewBack int32
	sawHit   bool
	tick     int        // the client's tick when it tagged
	drawn    mgl64.Vec3 // where the client drew the target
	resolved bool
}

// dispute is a disputed tag on screen.
type dispute struct {
	ticks  int
	at, to mgl64.Vec3 // where the client saw the target, where the server had it
}

// tagClient is the client's side of tags.
type tagClient struct {
	ring     [tagRing]clientTag
	next     int
	last     int // frame of the last tag (−1)
	request  bool
	disputes [4]dispute
}

func (t *tagClient) reset() {
	for k := range t.ring {
		t.ring[k].frame = -1
	}
	t.next, t.last, t.request = 0, -1, false
	t.disputes = [4]dispute{}
}

// RequestTag asks the client to tag at its next tick (the tag key).
func (st *Strategy) RequestTag() { st.tcli.request = true }

// tagTick runs at the end of the client's tick: an asked-for or automatic
// tag, the timeouts, the dispute marks' clocks.
func (st *Strategy) tagTick(c *client, ctx strategy.Context) {
	t := &st.tcli
	for k := range t.disputes {
		if t.disputes[k].ticks > 0 {
			t.disputes[k].ticks--
		}
	}
	for k := range t.ring {
		g := &t.ring[k]
		if g.frame >= 0 && !g.resolved && c.tick-g.tick > tagTimeout {
			g.resolved = true
			st.stats.Tags.NoVerdict++
		}
	}
	req := t.request
	t.request = false
	n := c.w.NumPlayers()
	o := &st.oth
	if n < 2 || c.player < 0 || ctx.Thin() || o.nearest < 0 {
		return
	}
	cfg := &st.cfg.Others
	if t.last >= 0 && c.ct-t.last < cfg.TagCooldownTicks {
		return
	}
	d := &o.drawn[o.nearest]
	target := st.drawnPose(c, o.nearest).Position
	dist := geom.Len(target.Sub(st.drawnMe(c)))
	// A bot plays client 2.. in one process; a right process is a person
	// (its context has one input client).
	bot := ctx.Client() > 0 && ctx.InputClients() > 1
	auto := st.set.AutoTag == AutoTagAll || (st.set.AutoTag == AutoTagBots && bot)
	if !req && !(auto && dist <= cfg.AutoTagRange) {
		return
	}
	back := int32(math.Round((float64(c.ct) - d.at) * viewEighths))
	back = min(max(back, 0), maxViewBack*viewEighths)
	g := &t.ring[t.next]
	t.next = (t.next + 1) % len(t.ring)
	if g.frame >= 0 && !g.resolved {
		st.stats.Tags.NoVerdict++
	}
	*g = clientTag{frame: c.ct, target: o.nearest, viewBack: back, sawHit: dist <= cfg.TagReach,
		tick: c.tick, drawn: target}
	t.last = c.ct
	ts := &st.stats.Tags
	ts.Tags++
	if g.sawHit {
		ts.SeenHits++
	}
	ts.LastViewBackMs = float64(back) / viewEighths * 1000 / wire.TicksPerSecond
}

// fillTags puts the unresolved tags of frames oldest..newest in p.
func (st *Strategy) fillTags(p *InputPacket) {
	t := &st.tcli
	p.Tags.N = 0
	oldest := p.Newest - p.Count + 1
	for k := range len(t.ring) {
		g := &t.ring[(t.next+k)%len(t.ring)] // oldest first
		if g.frame < 0 || g.resolved || int32(g.frame) < oldest || int32(g.frame) > p.Newest {
			continue
		}
		if p.Tags.N == MaxTags {
			break
		}
		p.Tags.Tags[p.Tags.N] = Tag{Frame: int32(g.frame), Target: int32(g.target), ViewBack: g.viewBack}
		p.Tags.N++
	}
}

// takeVerdicts resolves the client's tags the server judged.
func (st *Strategy) takeVerdicts(c *client, l *VerdictList) {
	t := &st.tcli
	ts := &st.stats.Tags
	for k := range l.N {
		v := &l.V[k]
		for j := range t.ring {
			g := &t.ring[j]
			if g.frame != int(v.Frame) || g.resolved {
				continue
			}
			g.resolved = true
			ts.Verdicts++
			if g.sawHit {
				ts.SeenHitsJudged++
			}
			if v.WithComp {
				ts.GrantedOn++
			}
			if v.WithoutComp {
				ts.GrantedOff++
			}
			if v.WithComp == g.sawHit {
				ts.AgreeOn++
			}
			if v.WithoutComp == g.sawHit {
				ts.AgreeOff++
			}
			granted := v.WithoutComp
			if st.set.Compensate {
				granted = v.WithComp
			}
			if granted != g.sawHit {
				st.markDispute(c, g, v)
			}
		}
	}
}

// markDispute puts a disputed tag on screen: where the client saw the
// target, and (in one process, where the server's history is at hand)
// where the server judged it.
func (st *Strategy) markDispute(c *client, g *clientTag, v *Verdict) {
	t := &st.tcli
	k := 0
	for j := range t.disputes {
		if t.disputes[j].ticks < t.disputes[k].ticks {
			k = j
		}
	}
	to := g.drawn
	at := float64(g.frame)
	if st.set.Compensate {
		at -= float64(float64(g.viewBack) / viewEighths)
	}
	if p, ok := st.truth.pose(at, g.target); ok {
		to = p
	}
	t.disputes[k] = dispute{ticks: st.cfg.Others.DisputeTicks, at: g.drawn, to: to}
}

// tagServer is the server's side of one client's tags.
type tagServer struct {
	have     [serverInputRing]int32 // the frame of the tag held in a slot (−1)
	tags     [serverInputRing]Tag
	last     int32 // the newest accepted tag's frame (−1)
	verdicts [MaxVerdicts]Verdict
	nv       int
}

func (s *tagServer) reset() {
	for k := range s.have {
		s.have[k] = -1
	}
	s.last, s.nv = -1, 0
}

// receive takes the tags of an input packet that reached the server
// before it steps frame now: a tag for a frame already simulated is judged
// at once, the others when their frame comes.
func (st *Strategy) receiveTags(ctx strategy.Context, l *TagList) {
	s := &st.tsrv
	now := int32(ctx.Frame())
	for k := range l.N {
		tg := l.Tags[k]
		slot := tg.Frame % serverInputRing
		if s.have[slot] == tg.Frame {
			continue // a redundant copy
		}
		me := ctx.Player()
		if me < 0 || int(tg.Target) >= ctx.Players() || int(tg.Target) == me ||
			(s.last >= 0 && tg.Frame-s.last < int32(st.cfg.Others.TagCooldownTicks)) {
			st.stats.Tags.Refused++
			continue
		}
		s.have[slot], s.tags[slot], s.last = tg.Frame, tg, tg.Frame
		if tg.Frame < now {
			st.judge(ctx, tg)
		}
	}
}

// judgeTags judges the tag of the frame the server is about to step.
func (st *Strategy) judgeTags(ctx strategy.Context) {
	s := &st.tsrv
	f := int32(ctx.Frame())
	if slot := f % serverInputRing; s.have[slot] == f {
		st.judge(ctx, s.tags[slot])
	}
}

// judge decides one tag both ways and keeps the verdict for the packets.
func (st *Strategy) judge(ctx strategy.Context, tg Tag) {
	cfg := &st.cfg.Others
	ts := &st.stats.Tags
	present := ctx.Frame()
	tagger, ok := st.truth.at(int(tg.Frame), ctx.Player())
	if !ok {
		ts.Refused++
		return
	}
	v := Verdict{Frame: tg.Frame}
	if now, ok := st.truth.at(present, int(tg.Target)); ok {
		v.WithoutComp = geom.Len(now.Position.Sub(tagger.Position)) <= cfg.TagReach
	}
	view := float64(tg.Frame) - float64(float64(tg.ViewBack)/viewEighths)
	if lo := float64(int(tg.Frame) - cfg.MaxRewindTicks); view < lo {
		view, v.Clamped = lo, true
		ts.Clamped++
	}
	view = math.Min(view, float64(present))
	if then, ok := st.truth.seen(view, int(tg.Target)); ok {
		v.WithComp = geom.Len(then.Position.Sub(tagger.Position)) <= cfg.TagReach
	}
	ts.Judged++
	s := &st.tsrv
	if s.nv == MaxVerdicts {
		copy(s.verdicts[:], s.verdicts[1:])
		s.nv--
	}
	s.verdicts[s.nv] = v
	s.nv++
}

// fillVerdicts puts the verdicts of the last verdictWindow frames in the
// packet for frame f.
func (st *Strategy) fillVerdicts(l *VerdictList, f int) {
	s := &st.tsrv
	l.N = 0
	for k := range s.nv {
		v := s.verdicts[k]
		if back := int32(f) - v.Frame; back >= 1 && back <= verdictWindow && (l.N == 0 || v.Frame > l.V[l.N-1].Frame) {
			l.V[l.N] = v
			l.N++
		}
	}
}
