package render

import (
	"image"
	"runtime"
	"sync"
	"sync/atomic"

	"netcubes/viewmodel"
)

// A view's triangles depend on nothing the other view touches, so on a
// machine with more than one core the app builds the right view's on a
// second core while the left view is built and drawn on the first
// (Prepare, then the two Draws). The triangles are the same bits
// whichever goroutine builds them: only the wall time of a frame falls,
// not the CPU it costs. In WebAssembly, and wherever Go runs one thread at
// a time (GOMAXPROCS 1), Prepare does nothing and Draw builds as before.

// preparer is the one goroutine that builds prepared views, started by
// the first Prepare. It is kept for the process's life: starting a
// goroutine every frame would allocate its closure every frame.
var preparer struct {
	once sync.Once
	jobs chan *View
}

// preparedBuild is a build handed to the preparer: what it is built from,
// and whose it is (state).
type preparedBuild struct {
	key   builtKey
	rect  image.Rectangle
	m     *viewmodel.View
	ghost *viewmodel.View
	ov    Overlays
	// state is prepIdle, prepQueued (handed over, not started: whichever
	// of the preparer and Draw claims it first builds it), prepBuilding
	// (the preparer's) or prepBuilt (the builder holds it: the store that
	// says so orders the build before Draw's use of it).
	state atomic.Int32
}

const (
	prepIdle int32 = iota
	prepQueued
	prepBuilding
	prepBuilt
)

// Prepare starts building the view's triangles for a Draw with the same
// rectangle, view models and overlays, on another core; Draw waits for
// them. The caller promises not to change the view, nor the view models,
// until that Draw (Tick, Reset and Build wait for a prepared build
// first). Nothing is started when the last frame's triangles will serve
// (Stamp), when nothing would be drawn, when Go runs one thread at a time,
// or when the preparer is busy with another view: Draw then does as it
// always did. If the preparer has not started the build when Draw needs
// it (no core was free for it), Draw builds it itself rather than wait.
func (v *View) Prepare(rect image.Rectangle, m, ghost *viewmodel.View, ov Overlays) {
	p := &v.prep
	if p.state.Load() != prepIdle || rect.Empty() || len(m.Cubes) == 0 || runtime.GOMAXPROCS(0) < 2 {
		return
	}
	key := v.keyOf(rect, m, ghost, ov)
	if v.Stamp != 0 && key == v.built {
		return
	}
	preparer.once.Do(func() {
		preparer.jobs = make(chan *View, 1)
		go prepareViews(preparer.jobs)
	})
	p.key, p.rect, p.m, p.ghost, p.ov = key, rect, m, ghost, ov
	p.state.Store(prepQueued)
	select {
	case preparer.jobs <- v:
	default:
		// Busy (or an earlier hand-over of this view, which Draw took
		// back, is still queued: the preparer may claim this one through
		// it, which is as good).
	}
}

// prepareViews builds each view handed over that is still unclaimed.
func prepareViews(jobs <-chan *View) {
	for v := range jobs {
		p := &v.prep
		if !p.state.CompareAndSwap(prepQueued, prepBuilding) {
			continue // Draw took it back
		}
		v.build(p.rect, p.m, p.ghost, p.ov)
		p.state.Store(prepBuilt)
	}
}

// spinYield is how many looks at a build under way wait takes before it
// lets other goroutines run between looks (some hundreds of microseconds).
const spinYield = 1 << 18

// wait waits for a prepared build the preparer has started, and reports
// whether the builder now holds it (built from v.prep.key). A build not
// started yet is taken back: the caller builds. A build under way is
// waited for by looking at its state until it is done, a fraction of a
// millisecond: sleeping instead (on a channel, a lock) made the runtime
// allocate now and then in Draw (a waiting goroutine's record moving from
// one processor's cache to the other's, a thread to take over the main
// thread's processor), and a sleeping main thread can wake late on a busy
// machine.
func (v *View) wait() bool {
	p := &v.prep
	if p.state.Load() == prepIdle || p.state.CompareAndSwap(prepQueued, prepIdle) {
		return false
	}
	for i := 0; p.state.Load() != prepBuilt; i++ {
		if i >= spinYield {
			// Long: the preparer may be waiting for this processor
			// (the other one busy with the collector, say).
			runtime.Gosched()
		}
	}
	p.state.Store(prepIdle)
	return true
}
