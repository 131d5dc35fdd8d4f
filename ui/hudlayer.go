package ui

// The HUD's two bars (the top bar and the bottom panel) are kept in a
// layer of their own from frame to frame, and a frame redraws only what
// changed in them.
//
// A tick changes a few of the bars' figures (kbit/s, the error, a counter)
// and the graph, the timeline and the bits bar; the strategy's name, its
// settings, the labels and the explanations stay. Drawing every run of
// text again each frame cost the HUD about a hundred and fifty draw calls
// (a run copied from its image, or a figure glyph by glyph) and a quarter
// of Draw. Now the bars are laid out as before, but what they would draw
// is recorded (a run of text, a filled rectangle, a mesh: an op) instead
// of drawn, and compared with the ops of the frame before:
//
//   - an op found unchanged, in the same order relative to the other
//     unchanged ops, draws nothing: its pixels are in the layer already;
//   - the pixels of an op that changed, came or went are dirty: each
//     dirty rectangle of the layer is filled with the backdrop again and
//     every op of this frame that touches it is drawn again, in order,
//     clipped to it;
//   - then the bar is copied onto the screen, at the place in the frame's
//     order where it was drawn directly before.
//
// The layer is opaque (the bars are drawn on the backdrop, and nothing
// else lies under them), so each pixel goes through the same arithmetic
// as when the ops were drawn straight onto the screen, and the copy is
// exact: the picture is the same pixels. Its texts are drawn glyph by
// glyph (glyphs.go), as text/v2 draws them, never from the text cache's
// images of whole runs. A pixel outside every dirty rectangle was drawn
// by the same ops in the same order in an earlier frame, so it is the
// same too; TestHUDLayerSamePixels compares a frame drawn through the
// layer with one drawn from scratch after figures, a strategy, the size
// and the text scale changed.
//
// An op reaching outside its bar (none does, but a glyph could) sends the
// whole bar to the screen directly for that frame. Everything else the
// HUD draws (the views' labels and captions, the legend, the note, the
// chart, the help) lies over the views and is drawn directly.

import (
	"bytes"
	"hash/maphash"
	"image"
	"image/color"
	"math"
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"

	"netcubes/render"
	"netcubes/render/scene"
)

// layerOpKind is what an op draws.
type layerOpKind uint8

const (
	opText layerOpKind = iota
	opRect
	opMesh
)

// layerOp is one drawing of a bar, recorded.
type layerOp struct {
	kind layerOpKind
	aa   bool            // a mesh's smooth edges
	box  image.Rectangle // the pixels it may touch
	hash uint64
	// A text: its bytes in the frame's text, its face, place and colour.
	s0, s1 int
	face   *text.GoTextFace
	x, y   float64
	col    color.RGBA
	// A rectangle: x, y, w, h (with col).
	rx, ry, rw, rh float32
	// A mesh: its vertices and indices in the frame's.
	v0, v1, i0, i1 int
}

// layerFrame is one frame's ops of a bar, with what they hold.
type layerFrame struct {
	ops   []layerOp
	text  []byte
	verts []scene.Vertex
	idx   []uint32
}

func (f *layerFrame) reset() {
	f.ops, f.text, f.verts, f.idx = f.ops[:0], f.text[:0], f.verts[:0], f.idx[:0]
}

// str is op's text.
func (f *layerFrame) str(op *layerOp) string {
	if op.s1 == op.s0 {
		return ""
	}
	return unsafe.String(&f.text[op.s0], op.s1-op.s0)
}

// layerRegion is one bar: where it is, this frame's ops and the last
// frame's (whose pixels the layer holds when valid).
type layerRegion struct {
	r         image.Rectangle
	cur, prev layerFrame
	valid     bool
}

// The two bars.
const (
	barTop = iota
	barBottom
	numBars
)

// hudLayer is the bars' layer (one draw goroutine, like texts).
type hudLayer struct {
	// Off draws the bars directly, as before the layer (the tests' frames
	// drawn from scratch).
	Off  bool
	img  *ebiten.Image
	bars [numBars]layerRegion
	rec  *layerRegion // the bar being recorded (nil: none)
	seed maphash.Seed
	// Scratch, kept from frame to frame.
	index   map[uint64]int32 // the last frame's ops by hash: the first
	next    []int32          // the next op of the same hash (-1: none)
	matched []bool
	dirty   []image.Rectangle
	subs    map[image.Rectangle]*ebiten.Image
	clip    image.Rectangle // the bar being finished
	white   *ebiten.Image
	op      ebiten.DrawImageOptions
	// Redrawn counts the ops drawn into the layer, and Whole the bars
	// drawn whole (first frames, a new size, an op outside its bar), for
	// the tests.
	Redrawn, Whole int
}

var layer hudLayer

// begin starts recording bar k, whose place on dst is r, and returns the
// image its drawing goes to: the layer, or dst when the layer is off.
func (h *hudLayer) begin(dst *ebiten.Image, k int, r image.Rectangle) *ebiten.Image {
	if h.Off || r.Empty() {
		return dst
	}
	if h.img == nil || h.img.Bounds() != dst.Bounds() {
		if h.img == nil {
			h.seed = maphash.MakeSeed()
		}
		if h.img != nil {
			h.img.Deallocate()
		}
		h.img = ebiten.NewImage(dst.Bounds().Dx(), dst.Bounds().Dy())
		h.subs = nil
		for i := range h.bars {
			h.bars[i].valid = false
		}
	}
	b := &h.bars[k]
	if b.r != r {
		b.r, b.valid = r, false
	}
	b.cur.reset()
	h.rec = b
	return h.img
}

// recording reports whether drawing onto dst is to be recorded.
func (h *hudLayer) recording(dst *ebiten.Image) bool {
	return h.rec != nil && dst != nil && dst == h.img
}

// text records a run of text drawn with its top-left at (x, y).
func (h *hudLayer) text(s string, face text.Face, x, y float64, col color.RGBA) {
	gf, _ := face.(*text.GoTextFace)
	f := &h.rec.cur
	op := layerOp{kind: opText, face: gf, x: x, y: y, col: col, s0: len(f.text)}
	f.text = append(f.text, s...)
	op.s1 = len(f.text)
	op.box = textBox(s, face, gf, x, y)
	op.hash = maphash.String(h.seed, s) ^ math.Float64bits(x)*0x9e3779b97f4a7c15 ^
		math.Float64bits(y)*0xc2b2ae3d27d4eb4f ^ uint64(uintptr(unsafe.Pointer(gf)))
	f.ops = append(f.ops, op)
}

// textBox is the pixels a run drawn at (x, y) may touch: its glyphs'
// images, or generously around its advance when text/v2 draws it.
func textBox(s string, face text.Face, gf *text.GoTextFace, x, y float64) image.Rectangle {
	if gf != nil && gf.Direction == text.DirectionLeftToRight {
		fg := glyphsOf(gf)
		if fg.prepare(s, gf) {
			return fg.bounds(s, x, y)
		}
	}
	w := texts.width(s, face)
	m := 8.0
	if gf != nil {
		m += gf.Size
	}
	return image.Rect(int(math.Floor(x-m)), int(math.Floor(y-m)), int(math.Ceil(x+w+m)), int(math.Ceil(y+2*m)))
}

// rect records a filled rectangle.
func (h *hudLayer) rect(x, y, w, hh float32, col color.RGBA) {
	f := &h.rec.cur
	op := layerOp{kind: opRect, rx: x, ry: y, rw: w, rh: hh, col: col}
	op.box = image.Rect(int(math.Floor(float64(x))), int(math.Floor(float64(y))),
		int(math.Ceil(float64(x+w))), int(math.Ceil(float64(y+hh))))
	op.hash = uint64(math.Float32bits(x))<<32 ^ uint64(math.Float32bits(y)) ^
		(uint64(math.Float32bits(w))<<32^uint64(math.Float32bits(hh)))*0x9e3779b97f4a7c15 ^
		uint64(col.R)<<24 ^ uint64(col.G)<<16 ^ uint64(col.B)<<8 ^ uint64(col.A)
	f.ops = append(f.ops, op)
}

// mesh records a mesh's triangles.
func (h *hudLayer) mesh(me *scene.Mesh, aa bool) {
	if len(me.Indices) == 0 {
		return
	}
	f := &h.rec.cur
	op := layerOp{kind: opMesh, aa: aa, v0: len(f.verts), i0: len(f.idx)}
	f.verts = append(f.verts, me.Vertices...)
	f.idx = append(f.idx, me.Indices...)
	op.v1, op.i1 = len(f.verts), len(f.idx)
	x0, y0 := float32(math.Inf(1)), float32(math.Inf(1))
	x1, y1 := float32(math.Inf(-1)), float32(math.Inf(-1))
	for _, i := range me.Indices {
		v := &me.Vertices[i]
		x0, y0, x1, y1 = min(x0, v.DstX), min(y0, v.DstY), max(x1, v.DstX), max(y1, v.DstY)
	}
	// Smooth edges may tint the pixel beyond a vertex.
	m := 1.0
	op.box = image.Rect(int(math.Floor(float64(x0)-m)), int(math.Floor(float64(y0)-m)),
		int(math.Ceil(float64(x1)+m)), int(math.Ceil(float64(y1)+m)))
	op.hash = maphash.Bytes(h.seed, meshBytes(f, &op))
	if aa {
		op.hash = ^op.hash
	}
	f.ops = append(f.ops, op)
}

// meshBytes is an op's vertices and indices as bytes (for hashing and
// comparing).
func meshBytes(f *layerFrame, op *layerOp) []byte {
	vs := f.verts[op.v0:op.v1]
	b := unsafe.Slice((*byte)(unsafe.Pointer(&vs[0])), len(vs)*int(unsafe.Sizeof(vs[0])))
	return b
}

func meshIndexBytes(f *layerFrame, op *layerOp) []byte {
	is := f.idx[op.i0:op.i1]
	return unsafe.Slice((*byte)(unsafe.Pointer(&is[0])), len(is)*4)
}

// same reports whether op a of frame fa draws what op b of frame fb does.
func same(fa *layerFrame, a *layerOp, fb *layerFrame, b *layerOp) bool {
	if a.hash != b.hash || a.kind != b.kind || a.box != b.box || a.col != b.col {
		return false
	}
	switch a.kind {
	case opText:
		return a.face == b.face && a.x == b.x && a.y == b.y && fa.str(a) == fb.str(b)
	case opRect:
		return a.rx == b.rx && a.ry == b.ry && a.rw == b.rw && a.rh == b.rh
	}
	return a.aa == b.aa && bytes.Equal(meshBytes(fa, a), meshBytes(fb, b)) &&
		bytes.Equal(meshIndexBytes(fa, a), meshIndexBytes(fb, b))
}

// end finishes the bar being recorded: the layer's pixels of what changed
// are drawn again, and the bar is copied onto dst.
func (h *hudLayer) end(dst *ebiten.Image) {
	b := h.rec
	if b == nil {
		return
	}
	h.rec = nil
	for i := range b.cur.ops {
		if !b.cur.ops[i].box.In(b.r) {
			// Something reaches out of the bar: drawn directly, as it
			// would be without the layer, and the bar starts over.
			for j := range b.cur.ops {
				h.draw(dst, &b.cur, &b.cur.ops[j])
			}
			b.valid = false
			b.cur, b.prev = b.prev, b.cur
			h.Whole++
			return
		}
	}
	h.dirty, h.clip = h.dirty[:0], b.r
	if !b.valid {
		h.dirty = append(h.dirty, b.r)
		h.Whole++
	} else {
		h.diff(b)
	}
	h.widenForMeshes(b)
	for _, d := range h.dirty {
		sub := h.sub(d)
		sub.Fill(backdrop)
		for i := range b.cur.ops {
			op := &b.cur.ops[i]
			if !op.box.Overlaps(d) {
				continue
			}
			if op.kind == opMesh {
				// A mesh is drawn onto the whole layer, as onto the
				// screen: its dirty rectangle holds all its pixels
				// (widenForMeshes), and it leaves the others as they
				// are. Smooth edges are drawn on an image twice as
				// large as the destination, then halved, and drawn
				// onto a sub-image their pixels come out a level apart
				// from the same mesh drawn onto the screen; and
				// Ebitengine keeps a vertex buffer per destination
				// image, so the layer's grows once.
				h.draw(h.img, &b.cur, op)
			} else {
				h.draw(sub, &b.cur, op)
			}
			h.Redrawn++
		}
	}
	b.valid = true
	b.cur, b.prev = b.prev, b.cur
	h.op = ebiten.DrawImageOptions{Blend: ebiten.BlendCopy}
	h.op.GeoM.Translate(float64(b.r.Min.X), float64(b.r.Min.Y))
	dst.DrawImage(h.sub(b.r), &h.op)
}

// diff fills h.dirty with the rectangles of b's ops that changed since the
// last frame: an op of this frame matches an op of the last that draws
// the same, if the matches keep their order; the boxes of the ops left
// unmatched on either side are dirty.
func (h *hudLayer) diff(b *layerRegion) {
	prev, cur := &b.prev, &b.cur
	if h.index == nil {
		h.index = map[uint64]int32{}
	}
	clear(h.index)
	h.next = h.next[:0]
	h.matched = h.matched[:0]
	for range prev.ops {
		h.next = append(h.next, -1)
		h.matched = append(h.matched, false)
	}
	// Each hash's ops, chained in order (built backwards).
	for i := len(prev.ops) - 1; i >= 0; i-- {
		if j, ok := h.index[prev.ops[i].hash]; ok {
			h.next[i] = j
		}
		h.index[prev.ops[i].hash] = int32(i)
	}
	last := int32(-1)
	for i := range cur.ops {
		op := &cur.ops[i]
		j, ok := h.index[op.hash]
		for ok && j >= 0 && (j <= last || h.matched[j] || !same(cur, op, prev, &prev.ops[j])) {
			j = h.next[j]
		}
		if !ok || j < 0 {
			h.addDirty(op.box)
			continue
		}
		h.matched[j], last = true, j
	}
	for j := range prev.ops {
		if !h.matched[j] {
			h.addDirty(prev.ops[j].box)
		}
	}
}

// widenForMeshes makes every dirty rectangle that touches a mesh hold
// the whole mesh (see end).
func (h *hudLayer) widenForMeshes(b *layerRegion) {
	for grown := true; grown; {
		grown = false
		for i := range b.cur.ops {
			op := &b.cur.ops[i]
			if op.kind != opMesh {
				continue
			}
			for _, d := range h.dirty {
				if d.Overlaps(op.box) && !op.box.In(d) {
					h.addDirty(op.box)
					grown = true
					break
				}
			}
		}
	}
}

// addDirty adds r to the dirty rectangles, merging those it overlaps (a
// pixel is drawn again once). Rectangles are rounded out to 16 pixels, so
// a figure whose width changes by a few pixels dirties the same rectangle
// as before (Ebitengine keeps a sub-image per rectangle it was asked for).
func (h *hudLayer) addDirty(r image.Rectangle) {
	const q = 16
	r = image.Rect(r.Min.X&^(q-1), r.Min.Y&^(q-1), (r.Max.X+q-1)&^(q-1), (r.Max.Y+q-1)&^(q-1)).Intersect(h.clip)
	if r.Empty() {
		return
	}
	for {
		merged := false
		for i := 0; i < len(h.dirty); i++ {
			if h.dirty[i].Overlaps(r) {
				r = r.Union(h.dirty[i])
				h.dirty[i] = h.dirty[len(h.dirty)-1]
				h.dirty = h.dirty[:len(h.dirty)-1]
				merged = true
				i--
			}
		}
		if !merged {
			break
		}
	}
	h.dirty = append(h.dirty, r)
}

// draw draws op of frame f onto dst.
func (h *hudLayer) draw(dst *ebiten.Image, f *layerFrame, op *layerOp) {
	switch op.kind {
	case opText:
		texts.drawGlyphs(dst, f.str(op), op.face, op.x, op.y, op.col)
	case opRect:
		// As vector.FillRect draws it (a white pixel scaled), without
		// making the colour an interface (an allocation).
		h.op = ebiten.DrawImageOptions{ColorScale: colourScale(op.col)}
		h.op.GeoM.Scale(float64(op.rw), float64(op.rh))
		h.op.GeoM.Translate(float64(op.rx), float64(op.ry))
		dst.DrawImage(h.whitePixel(), &h.op)
	case opMesh:
		dst.DrawTriangles32(render.EbitenVertices(f.verts[op.v0:op.v1]), f.idx[op.i0:op.i1], h.whitePixel(),
			&ebiten.DrawTrianglesOptions{AntiAlias: op.aa})
	}
}

// sub is the layer's sub-image r. The layer keeps them: Ebitengine keeps
// a sub-image a second after its last use, and a new one is two heap
// allocations (the image, and its vertex buffer when first drawn on). The
// dirty rectangles are few and mostly the same from tick to tick.
func (h *hudLayer) sub(r image.Rectangle) *ebiten.Image {
	if s := h.subs[r]; s != nil {
		return s
	}
	if h.subs == nil || len(h.subs) >= maxLayerSubs {
		h.subs = map[image.Rectangle]*ebiten.Image{}
	}
	s := h.img.SubImage(r).(*ebiten.Image)
	h.subs[r] = s
	return s
}

// maxLayerSubs is how many sub-images the layer keeps before it starts
// over.
const maxLayerSubs = 256

// whitePixel is a white pixel inside a white image (so that sampling it
// never reaches a neighbour), as vector.FillRect's.
func (h *hudLayer) whitePixel() *ebiten.Image {
	if h.white == nil {
		img := ebiten.NewImage(3, 3)
		img.Fill(color.White)
		h.white = img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
	}
	return h.white
}
