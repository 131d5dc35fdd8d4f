package scene

import (
	"math"

	"github.com/go-gl/mathgl/mgl64"
)

// The camera follows the player from behind and above, as in the original
// demo: it sits at the player's position plus an offset in the direction
// (0, −11, +5) and looks at a point just above the player. It eases after
// its goal by a fixed fraction per tick instead of snapping, so a tumbling
// player does not shake the whole picture.
//
// Framing: the original's fixed 12 m distance leaves the katamari ball a
// quarter of the view wide and most of the frame a uniform grid. Here the
// distance follows the action: FrameRadius times the ball's radius (the
// player and the cubes stuck to it) plus FrameSpeed seconds of the
// player's speed, between MinDistance and MaxDistance, eased much more
// slowly than the position (DistanceEase) so the picture breathes instead
// of pumping, and both views, following worlds that agree, frame alike.

// CameraConfig holds the camera's tunables.
type CameraConfig struct {
	Offset     mgl64.Vec3 // eye position relative to the player, metres; (0, −11, 5) in the original
	LookAbove  float64    // the eye looks this far above the player centre, metres
	Ease       float64    // fraction of the remaining distance covered per 1/60 s tick; 1 snaps, small is floaty
	FovYDeg    float64    // vertical field of view, degrees
	Near, Far  float64    // clip distances, metres; Near also bounds how close geometry may come
	MinEyeZ    float64    // the eye never goes below this height, metres
	ZoomFactor float64    // multiplies Offset; 1 = original framing

	// Framing (see the file comment). AutoFrame off keeps the original's
	// fixed distance, |Offset| × ZoomFactor.
	AutoFrame                bool
	FrameRadius              float64 // distance per metre of ball radius (the ball's share of the view grows as it falls)
	FrameSpeed               float64 // seconds of the player's speed added to the distance: room to see where it goes
	MinDistance, MaxDistance float64 // metres from the eye to the player
	DistanceEase             float64 // fraction of the distance change per tick; small is steady
}

// DefaultCameraConfig is the original demo's framing.
func DefaultCameraConfig() CameraConfig {
	return CameraConfig{
		Offset:     mgl64.Vec3{0, -11, 5},
		LookAbove:  0.5,
		Ease:       0.08,
		FovYDeg:    50,
		Near:       0.1,
		Far:        200,
		MinEyeZ:    1,
		ZoomFactor: 1,

		AutoFrame:    true,
		FrameRadius:  3.4,
		FrameSpeed:   0.5,
		MinDistance:  7,
		MaxDistance:  16,
		DistanceEase: 0.02,
	}
}

// Camera is the eye position and look-at target of one view.
type Camera struct {
	Eye, Target mgl64.Vec3
	Distance    float64 // eye to player, metres, as eased
	last        mgl64.Vec3
	started     bool
}

// FrameDistance is the distance the camera aims for: the ball's radius
// (metres) and the player's speed (m/s) scaled and clamped by cfg.
func FrameDistance(radius, speed float64, cfg CameraConfig) float64 {
	d := cfg.FrameRadius*radius + cfg.FrameSpeed*speed
	return min(max(d, cfg.MinDistance), cfg.MaxDistance)
}

// Follow moves the camera one tick toward framing player, whose ball has
// the given radius (metres; see FrameDistance). The first call snaps, so a
// new session does not fly in from the origin.
func (c *Camera) Follow(player mgl64.Vec3, radius float64, cfg CameraConfig) {
	dist := cfg.Offset.Len() * cfg.ZoomFactor
	if cfg.AutoFrame {
		speed := 0.0
		if c.started {
			speed = player.Sub(c.last).Len() * 60 // one tick is 1/60 s
		}
		goal := FrameDistance(radius, speed, cfg) * cfg.ZoomFactor
		if c.started {
			dist = c.Distance + (goal-c.Distance)*cfg.DistanceEase
		} else {
			dist = goal
		}
	}
	c.Distance, c.last = dist, player
	eye := player.Add(cfg.Offset.Normalize().Mul(dist))
	eye[2] = math.Max(eye[2], cfg.MinEyeZ)
	target := player.Add(mgl64.Vec3{0, 0, cfg.LookAbove})
	if !c.started {
		c.Eye, c.Target, c.started = eye, target, true
		return
	}
	c.Eye = c.Eye.Add(eye.Sub(c.Eye).Mul(cfg.Ease))
	c.Target = c.Target.Add(target.Sub(c.Target).Mul(cfg.Ease))
}

// Snap makes the next Follow jump straight to its goal (after a reset).
func (c *Camera) Snap() { c.started = false }

// Viewport is the screen rectangle a view is drawn into, in pixels.
type Viewport struct{ X, Y, W, H float64 }

// Projector maps world points to the screen for one camera and viewport.
type Projector struct {
	viewProj mgl64.Mat4
	eye      mgl64.Vec3
	vp       Viewport
	near     float64
	focal    float64 // the larger of the projection's x and y scale factors
	// The viewport's edges in float32 pixels, for allOffscreen.
	x0, y0, x1, y1 float32
}

// NewProjector builds the view and perspective matrices (OpenGL
// conventions, z up in the world).
func NewProjector(c Camera, cfg CameraConfig, vp Viewport) Projector {
	view := mgl64.LookAtV(c.Eye, c.Target, mgl64.Vec3{0, 0, 1})
	proj := mgl64.Perspective(mgl64.DegToRad(cfg.FovYDeg), vp.W/vp.H, cfg.Near, cfg.Far)
	p := Projector{viewProj: proj.Mul4(view), eye: c.Eye, near: cfg.Near, focal: max(proj[0], proj[5])}
	p.setViewport(vp)
	return p
}

// setViewport sets the viewport and its edges in float32 pixels.
func (p *Projector) setViewport(vp Viewport) {
	p.vp = vp
	p.x0, p.y0 = float32(vp.X), float32(vp.Y)
	p.x1, p.y1 = float32(vp.X+vp.W), float32(vp.Y+vp.H)
}

// Clip transforms a world point into homogeneous clip space.
func (p *Projector) Clip(w mgl64.Vec3) mgl64.Vec4 {
	return p.viewProj.Mul4x1(mgl64.Vec4{w[0], w[1], w[2], 1})
}

// ClipDir transforms a world direction (w = 0) into clip space. Because the
// projection is linear before the divide by w, the clip coordinates of
// centre ± axes are Clip(centre) ± ClipDir(axis): a cube's eight corners
// cost four matrix products instead of eight.
func (p *Projector) ClipDir(d mgl64.Vec3) mgl64.Vec4 {
	m := &p.viewProj
	return mgl64.Vec4{
		m[0]*d[0] + m[4]*d[1] + m[8]*d[2],
		m[1]*d[0] + m[5]*d[1] + m[9]*d[2],
		m[2]*d[0] + m[6]*d[1] + m[10]*d[2],
		m[3]*d[0] + m[7]*d[1] + m[11]*d[2],
	}
}

// clipPoint is Clip written into out (w·1 is w exactly, so the sums are
// Clip's).
func (p *Projector) clipPoint(out *mgl64.Vec4, w *mgl64.Vec3) {
	m := &p.viewProj
	x, y, z := w[0], w[1], w[2]
	out[0] = m[0]*x + m[4]*y + m[8]*z + m[12]
	out[1] = m[1]*x + m[5]*y + m[9]*z + m[13]
	out[2] = m[2]*x + m[6]*y + m[10]*z + m[14]
	out[3] = m[3]*x + m[7]*y + m[11]*z + m[15]
}

// clipDirs is ClipDir of three directions, written into out.
func (p *Projector) clipDirs(out *[3]mgl64.Vec4, d *[3]mgl64.Vec3) {
	m := &p.viewProj
	for i := range d {
		x, y, z := d[i][0], d[i][1], d[i][2]
		out[i] = mgl64.Vec4{
			m[0]*x + m[4]*y + m[8]*z,
			m[1]*x + m[5]*y + m[9]*z,
			m[2]*x + m[6]*y + m[10]*z,
			m[3]*x + m[7]*y + m[11]*z,
		}
	}
}

// sphereOffscreen reports whether a sphere with clip-space centre c and
// radius r (metres) surely lies outside the viewport grown by margin (a
// fraction of its size) or straddles the near plane. False means "draw it
// and look closer". The sphere's screen radius in normalised device units
// is at most r·max(P00, P11)/w.
func (p *Projector) sphereOffscreen(c mgl64.Vec4, r, margin float64) bool {
	if c[3] < p.near+r {
		return false
	}
	rr := r * p.focal / c[3]
	x, y := c[0]/c[3], c[1]/c[3]
	lim := 1 + 2*margin + rr
	return x > lim || x < -lim || y > lim || y < -lim
}

// offscreen reports whether the segment from a to b, drawn width pixels
// wide, lies wholly beyond one edge of the viewport (and so draws nothing).
func (p *Projector) offscreen(a, b Point, width float32) bool {
	// allOffscreen of the two points, written out (two thousand grid
	// pieces a view).
	x0, y0 := p.x0-width, p.y0-width
	x1, y1 := p.x1+width, p.y1+width
	return a.X < x0 && b.X < x0 || a.X > x1 && b.X > x1 ||
		a.Y < y0 && b.Y < y0 || a.Y > y1 && b.Y > y1
}

// hexOffscreen is allOffscreen of a shadow's six points with no margin,
// written without its closures: the test stops at the first point
// inside every edge, which for a shadow in the view is the first.
func (p *Projector) hexOffscreen(q *[6]Point) bool {
	left, right, above, below := true, true, true, true
	for i := range q {
		x, y := q[i].X, q[i].Y
		left, right = left && x < p.x0, right && x > p.x1
		above, below = above && y < p.y0, below && y > p.y1
		if !(left || right || above || below) {
			return false
		}
	}
	return true
}

// allOffscreen reports whether every point lies more than margin pixels
// beyond the same edge of the viewport: a convex shape through them then
// draws nothing. Each edge's test stops at the first point inside it,
// which for a shape in the view is the first point.
func (p *Projector) allOffscreen(pts []Point, margin float32) bool {
	x0, y0 := p.x0-margin, p.y0-margin
	x1, y1 := p.x1+margin, p.y1+margin
	return allX(pts, func(x float32) bool { return x < x0 }) ||
		allX(pts, func(x float32) bool { return x > x1 }) ||
		allY(pts, func(y float32) bool { return y < y0 }) ||
		allY(pts, func(y float32) bool { return y > y1 })
}

// allX reports whether past holds for every point's x.
func allX(pts []Point, past func(float32) bool) bool {
	for _, q := range pts {
		if !past(q.X) {
			return false
		}
	}
	return true
}

// allY reports whether past holds for every point's y.
func allY(pts []Point, past func(float32) bool) bool {
	for _, q := range pts {
		if !past(q.Y) {
			return false
		}
	}
	return true
}

// quadOffscreen is allOffscreen of four points with no margin (a face or
// a ground tile), written out.
func (p *Projector) quadOffscreen(q *[4]Point) bool {
	return q[0].X < p.x0 && q[1].X < p.x0 && q[2].X < p.x0 && q[3].X < p.x0 ||
		q[0].X > p.x1 && q[1].X > p.x1 && q[2].X > p.x1 && q[3].X > p.x1 ||
		q[0].Y < p.y0 && q[1].Y < p.y0 && q[2].Y < p.y0 && q[3].Y < p.y0 ||
		q[0].Y > p.y1 && q[1].Y > p.y1 && q[2].Y > p.y1 && q[3].Y > p.y1
}

// A point's outcode says which edges of the viewport it lies beyond:
// a shape whose points' codes share a bit lies wholly past that edge
// (quadOffscreen's test, with each point compared once however many
// shapes share it). outBehind marks a point behind the near plane, which
// has no place on screen.
const (
	outLeft uint8 = 1 << iota
	outRight
	outAbove
	outBelow
	outBehind
)

// outcode is q's outcode (no margin).
func (p *Projector) outcode(q Point) uint8 {
	var c uint8
	if q.X < p.x0 {
		c |= outLeft
	}
	if q.X > p.x1 {
		c |= outRight
	}
	if q.Y < p.y0 {
		c |= outAbove
	}
	if q.Y > p.y1 {
		c |= outBelow
	}
	return c
}

// InFront reports whether a clip-space point lies beyond the near plane.
// With an OpenGL perspective matrix the clip w is the distance along the
// view direction, so the near plane is w = near.
func (p *Projector) InFront(c mgl64.Vec4) bool { return c[3] >= p.near }

// ToScreen divides by w and maps normalised device coordinates to pixels
// (y grows downward on screen). c must be in front of the near plane.
func (p *Projector) ToScreen(c mgl64.Vec4) Point {
	x := c[0] / c[3]
	y := c[1] / c[3]
	return Point{
		X: float32(p.vp.X + (x+1)/2*p.vp.W),
		Y: float32(p.vp.Y + (1-y)/2*p.vp.H),
	}
}

// screenOf is ToScreen of *c, for the hot loops: the same arithmetic
// without copying the point (in WebAssembly every copy is loads and
// stores to memory).
func (p *Projector) screenOf(c *mgl64.Vec4) Point {
	x := c[0] / c[3]
	y := c[1] / c[3]
	return Point{
		X: float32(p.vp.X + (x+1)/2*p.vp.W),
		Y: float32(p.vp.Y + (1-y)/2*p.vp.H),
	}
}

// project maps a world point to the screen; ok is false behind the near plane.
func (p *Projector) project(w mgl64.Vec3) (pt Point, ok bool) {
	c := p.Clip(w)
	if !p.InFront(c) {
		return Point{}, false
	}
	return p.ToScreen(c), true
}

// clipNear cuts a convex clip-space polygon to the part in front of the near
// plane (one step of Sutherland–Hodgman clipping) and appends the result to
// dst. Interpolating in clip space is exact because the projection is linear
// there, before the divide by w.
func (p *Projector) clipNear(dst, poly []mgl64.Vec4) []mgl64.Vec4 {
	n := len(poly)
	for i := 0; i < n; i++ {
		a, b := poly[i], poly[(i+1)%n]
		ina, inb := p.InFront(a), p.InFront(b)
		if ina {
			dst = append(dst, a)
		}
		if ina != inb {
			t := (p.near - a[3]) / (b[3] - a[3])
			dst = append(dst, a.Add(b.Sub(a).Mul(t)))
		}
	}
	return dst
}
