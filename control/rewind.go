package control

import (
	"fmt"
	"sort"
	"time"

	"netcubes/cubes"
	"netcubes/game"
	"netcubes/talk"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Design note: going back in time. A session is a server world, its
// clients' links (with their random generators and packets in flight) and
// every client's strategy state (baselines, jitter buffers, predicted
// worlds, caches shared between clients): there is no general copy of all
// that, and the world's own save and restore (cubes.World) holds only the
// left. So the director goes back by re-simulating: from the last moment
// the whole session was built anew (its start, a reset, a scene, a
// restart — a restart point keeps what it was built from) it builds the
// same session again and feeds it the log, commands and keys, frame by
// frame, up to the moment asked. That is the very computation the
// presenter saw, so it lands on the same state bit for bit; its cost is
// the frames since the restart point (a talk track resets the world at
// each chapter, which keeps it to one chapter). The app spreads the work
// over its ticks (WorkBudget a tick) and keeps drawing the run it leaves
// until the new one is there.

// restartPoint is a moment a run was built anew: what to build it from,
// and the run's state right after.
type restartPoint struct {
	at, event int // the log frame; the log events applied by then
	cfg       game.Config
	snaps     []snap
	after     []talk.Command
	choices   []LinkChoice
	st        stage
	compare   *viewmodel.Comparison
}

// addPoint keeps the current run as a restart point (event: the log events
// applied so far).
func (d *Director) addPoint(event int) {
	r := d.cur
	d.points = append(d.points, restartPoint{at: r.at, event: event, cfg: r.cfg, snaps: r.snaps,
		after: r.after, choices: r.choices, st: r.st.clone(), compare: r.compare.Clone()})
}

// job is a jump in time under way: back (a run being rebuilt to frame
// target) or forward (the current run stepped to it).
type job struct {
	back   bool
	r      *run
	next   int // back: the next log event to apply
	target int
	from   int // the frame the jump started from
}

func (j *job) what() string {
	if j.back {
		return "going back"
	}
	return "going forward"
}

// Jump says what a jump in time under way is doing ("going back to 4:37")
// and how far it has got (0..1); ok is false when there is none.
func (d *Director) Jump() (what string, done float64, ok bool) {
	j := d.job
	if j == nil {
		return "", 0, false
	}
	at := d.cur.at
	start := j.from // forward: the current run, stepped from here
	if j.back {
		at = j.r.at
		start = d.pointFor(j.target).at
	}
	done = 1
	if j.target > start {
		done = float64(at-start) / float64(j.target-start)
	}
	return fmt.Sprintf("%s to %s", j.what(), talk.Clock(j.target-d.trackOrigin())), done, true
}

// trackOrigin is the log frame times are told from: the track's frame 0,
// or the start.
func (d *Director) trackOrigin() int {
	if d.tr != nil {
		return d.trStart
	}
	return 0
}

// WorkBudget bounds the time a tick spends on a jump in time (0: a jump
// is done within the call that asks for it).
func (d *Director) SetWorkBudget(b time.Duration) { d.budget = b }

// pointFor is the last restart point at or before frame t.
func (d *Director) pointFor(t int) *restartPoint {
	i := sort.Search(len(d.points), func(i int) bool { return d.points[i].at > t }) - 1
	return &d.points[max(i, 0)]
}

// Back goes back n frames (no further than the presenter's last restart).
func (d *Director) Back(n int) { d.GoTo(d.cur.at - n) }

// GoTo goes back to log frame t: the run as it was when t frames had been
// stepped, before the commands of frame t (but after a reset of the world
// at t, which a restart point keeps); the track, if it was playing then,
// plays on from there, and the log forgets what came after.
func (d *Director) GoTo(t int) {
	if d.job != nil {
		// Not dropped without a word: one jump at a time.
		d.say("%s: a moment", d.job.what())
		return
	}
	t = max(t, d.presenterT)
	if t >= d.cur.at {
		d.say("already at the start: %s", talk.Clock(d.cur.at-d.trackOrigin()))
		return
	}
	p := d.pointFor(t)
	r := &run{d: d, st: p.st.clone(), compare: p.compare.Clone(), kbps: NewSeries(10 * wire.TicksPerSecond), at: p.at}
	if err := r.build(p.cfg, p.snaps); err != nil {
		d.say("cannot go back: %v", err)
		return
	}
	r.after, r.choices = p.after, p.choices
	for _, c := range p.after {
		r.apply(&c, modeSetup)
	}
	d.job = &job{back: true, r: r, next: p.event, target: t, from: d.cur.at}
	d.work()
}

// NextCaption goes forward to the track's next caption, fast.
func (d *Director) NextCaption() {
	if d.job != nil {
		d.say("%s: a moment", d.job.what())
		return
	}
	if !d.trOn {
		d.say("no script playing: nothing to skip to")
		return
	}
	f := d.cur.at - d.trStart
	for _, at := range d.tr.Captions() {
		if at > f {
			d.job = &job{target: d.trStart + at, from: d.cur.at}
			d.work()
			return
		}
	}
	d.say("no caption after %s", talk.Clock(f))
}

// PrevCaption goes back to the start of the caption on screen, or of the
// one before when this one has been up less than a second.
func (d *Director) PrevCaption() {
	for i := len(d.log.events) - 1; i >= 0; i-- {
		e := d.log.events[i]
		if e.At < d.presenterT {
			break
		}
		if e.Cmd.Op == talk.OpCaption && e.Cmd.Lines != nil && e.At < d.cur.at-wire.TicksPerSecond {
			d.GoTo(e.At)
			return
		}
	}
	d.say("no caption before this one")
}

// work goes on with the jump under way, within the budget.
func (d *Director) work() {
	j := d.job
	start := time.Now()
	for {
		if j.back {
			if d.resimStep(j) {
				d.finishBack(j)
				return
			}
		} else if d.forwardStep(j) {
			d.job = nil
			d.say("on to %s", talk.Clock(d.cur.at-d.trackOrigin()))
			return
		}
		if d.budget > 0 && time.Since(start) >= d.budget {
			return
		}
	}
}

// resimStep applies the log's commands of the rebuilt run's frame and
// steps it; it reports whether the target is reached (before its
// commands).
func (d *Director) resimStep(j *job) bool {
	r := j.r
	ev := d.log.events
	for j.next < len(ev) && ev[j.next].At <= r.at && r.at < j.target {
		c := ev[j.next].Cmd
		j.next++
		switch c.Op {
		case talk.OpPause, talk.OpSlow, talk.OpPlay:
			continue // time, not the run
		}
		r.apply(&c, modeResim)
	}
	if r.at >= j.target {
		return true
	}
	var ins cubes.Inputs
	var given uint8
	for p := range r.sess.NumPlayers() {
		in, g := d.log.inputAt(p, r.at)
		if g {
			ins[p] = in
			given |= 1 << p
		}
	}
	r.step(&ins, given)
	if d.OnStep != nil {
		d.OnStep(true)
	}
	return false
}

// finishBack puts the rebuilt run on screen and the log back to its frame.
func (d *Director) finishBack(j *job) {
	t := j.target
	d.job = nil
	d.cur = j.r
	d.gen++
	d.log.truncate(t, j.next)
	for len(d.points) > 1 {
		p := d.points[len(d.points)-1]
		if p.at < t || p.at == t && p.event <= j.next {
			break
		}
		d.points = d.points[:len(d.points)-1]
	}
	d.held, d.hold = 0, 0
	d.outageDown = -1
	if d.tr == nil {
		d.say("back to %s", talk.Clock(t))
		return
	}
	f := t - d.trStart
	// It was playing at t unless it had not begun, had ended, or the
	// presenter had taken over by then.
	on := f < d.tr.Length && (d.trStopped < 0 || t < d.trStopped)
	d.trOn = on
	if !on {
		d.say("back to %s", talk.Clock(f))
		return
	}
	d.trStopped = -1
	// The track's next event: after the last one the log applied in this
	// playing of it, and not before the frame.
	next := sort.Search(len(d.tr.Events), func(i int) bool { return d.tr.Events[i].At >= f })
	for i := j.next - 1; i >= 0 && d.log.events[i].At >= d.trStart; i-- {
		if src := d.log.events[i].Src; src >= 0 {
			next = max(next, src+1)
			break
		}
	}
	d.trNext = next
	d.say("back to %s · the script plays on", talk.Clock(f))
}

// forwardStep steps the current run one frame towards the target, with
// the track's commands and keys and no pause; it reports whether the
// target is reached.
func (d *Director) forwardStep(j *job) bool {
	if d.cur.at >= j.target || !d.trOn {
		return true
	}
	for !d.applyDue() {
		d.hold = 0
	}
	d.flushHeld()
	d.stepLive(cubes.Input{})
	return d.cur.at >= j.target
}
