package render

import (
	"image"
	"runtime"
	"sync"

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
// and done, which the preparer signals when the builder holds it.
type preparedBuild struct {
	key     builtKey
	rect    image.Rectangle
	m       *viewmodel.View
	ghost   *viewmodel.View
	ov      Overlays
	pending bool // handed over and not yet waited for
	done    chan struct{}
}

// Prepare starts building the view's triangles for a Draw with the same
// rectangle, view models and overlays, on another core; Draw waits for
// them. The caller promises not to change the view, nor the view models,
// until that Draw (Tick, Reset and Build wait for a prepared build
// first). Nothing is started when the last frame's triangles will serve
// (Stamp), when nothing would be drawn, when Go runs one thread at a time,
// or when the preparer is busy with another view: Draw then does as it
// always did.
func (v *View) Prepare(rect image.Rectangle, m, ghost *viewmodel.View, ov Overlays) {
	if v.prep.pending || rect.Empty() || len(m.Cubes) == 0 || runtime.GOMAXPROCS(0) < 2 {
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
	if v.prep.done == nil {
		v.prep.done = make(chan struct{}, 1)
	}
	p := &v.prep
	p.key, p.rect, p.m, p.ghost, p.ov = key, rect, m, ghost, ov
	select {
	case preparer.jobs <- v:
		p.pending = true
	default: // busy: Draw builds
	}
}

// prepareViews builds each view handed over and says when it is done.
func prepareViews(jobs <-chan *View) {
	for v := range jobs {
		p := &v.prep
		v.build(p.rect, p.m, p.ghost, p.ov)
		p.done <- struct{}{}
	}
}

// wait waits for a prepared build, if one was started, and reports
// whether the builder now holds one (built from v.prep.key).
func (v *View) wait() bool {
	if !v.prep.pending {
		return false
	}
	<-v.prep.done
	v.prep.pending = false
	return true
}
