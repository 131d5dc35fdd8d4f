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
	opKeptMesh
)

// layerOp is one drawing of a bar, recorded.
type layerOp struct {
	kind layerOpKind
	aa   bool            // a mesh's smooth edges
	box  image.Rectangle // the pixels it may touch
	hash uint64
	// A text: its bytes in the frame's text, its face, place and colour.
	s0, s1 int
	face   text.Face
	pen    int32 // where it starts in its run, 1/64 px (−1: a whole run for text/v2)
	x, y   float64
	col    color.RGBA
	// A rectangle: x, y, w, h (with col).
	rx, ry, rw, rh float32
	// A mesh: its vertices and indices in the frame's.
	v0, v1, i0, i1 int
	// A kept mesh (the graph's): the mesh and what it was built from.
	kept *scene.Mesh
	key  graphKey
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
	key       barKey // what prev was drawn from
	content   []byte // and its content (barKey.content)
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

// barKey is what a bar was drawn from, as far as the layer can tell
// without drawing it (App.barKey): the same key, the same ops.
type barKey struct {
	app   *App   // the app drawing (the tests run two)
	stamp uint64 // App.stamp: Updates and changes of session (0: see content)
	aa    bool   // the meshes' smooth edges
	// content, when stamp is 0, is everything the bar draws, written
	// out: the same content, the same ops, whatever ticked. It may live in
	// a buffer the caller reuses: begin keeps a copy.
	content string
}

// begin starts recording bar k, whose place on dst is r, and returns the
// image its drawing goes to: the layer, or dst when the layer is off. A
// bar drawn from the same key at the same place in the last frame (a
// frame between two ticks) is copied onto dst at once, and begin returns
// nil: there is nothing to draw.
func (h *hudLayer) begin(dst *ebiten.Image, k int, r image.Rectangle, key barKey) *ebiten.Image {
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
	if b.r != r || b.key.app != key.app {
		b.r, b.valid = r, false
	}
	same := b.key.app == key.app && b.key.aa == key.aa && b.key.stamp == key.stamp &&
		(key.stamp != 0 || key.content != "" && string(b.content) == key.content)
	if b.valid && same {
		h.copyBar(dst, b)
		return nil
	}
	b.key = key
	b.content = append(b.content[:0], key.content...)
	b.key.content = "" // the copy is in b.content
	b.cur.reset()
	h.rec = b
	return h.img
}

// copyBar copies bar b from the layer onto dst, exactly (it is opaque).
func (h *hudLayer) copyBar(dst *ebiten.Image, b *layerRegion) {
	h.op = ebiten.DrawImageOptions{Blend: ebiten.BlendCopy}
	h.op.GeoM.Translate(float64(b.r.Min.X), float64(b.r.Min.Y))
	dst.DrawImage(h.sub(b.r), &h.op)
}

// recording reports whether drawing onto dst is to be recorded.
func (h *hudLayer) recording(dst *ebiten.Image) bool {
	return h.rec != nil && dst != nil && dst == h.img
}

// text records a run of text drawn with its top-left at (x, y).
func (h *hudLayer) text(s string, face text.Face, x, y float64, col color.RGBA) {
	gf, _ := face.(*text.GoTextFace)
	if gf == nil || gf.Direction != text.DirectionLeftToRight || !glyphsOf(gf).prepare(s, gf) {
		h.textOp(s, face, -1, x, y, col) // for text/v2, whole
		return
	}
	// One op a word, each at its pen in the run: a tick that changes one
	// figure of a line ("packets sent 31 · delivered 31 · lost 0") draws
	// that figure again, not the line.
	fg := glyphsOf(gf)
	pen, start, startPen := int32(0), 0, int32(0)
	for i, r := range s {
		if r == ' ' {
			if i > start {
				h.textOp(s[start:i], face, startPen, x, y, col)
			}
			start, startPen = i+1, pen+fg.rune(r).adv
		}
		pen += fg.rune(r).adv
	}
	if start < len(s) {
		h.textOp(s[start:], face, startPen, x, y, col)
	}
}

// textOp records a text op: s drawn as the part of a run at (x, y) that
// starts at pen (glyph by glyph), or with pen −1 a whole run for text/v2.
func (h *hudLayer) textOp(s string, face text.Face, pen int32, x, y float64, col color.RGBA) {
	gf, _ := face.(*text.GoTextFace)
	f := &h.rec.cur
	op := layerOp{kind: opText, face: face, pen: pen, x: x, y: y, col: col, s0: len(f.text)}
	f.text = append(f.text, s...)
	op.s1 = len(f.text)
	// Its box is found when it is needed: an op unchanged since the last
	// frame takes the box it had then (end).
	op.box = unknownBox
	op.hash = maphash.String(h.seed, s) ^ math.Float64bits(x)*0x9e3779b97f4a7c15 ^
		math.Float64bits(y)*0xc2b2ae3d27d4eb4f ^ uint64(uintptr(unsafe.Pointer(gf))) ^ uint64(pen)<<40
	f.ops = append(f.ops, op)
}

// unknownBox marks a text op's box as not found yet.
var unknownBox = image.Rect(math.MinInt32, math.MinInt32, math.MinInt32+1, math.MinInt32+1)

// textBox is the pixels text op op may touch: its glyphs' images, or
// generously around its advance when text/v2 draws it.
func textBox(f *layerFrame, op *layerOp) image.Rectangle {
	s, face, x, y := f.str(op), op.face, op.x, op.y
	if op.pen >= 0 {
		return glyphsOf(face.(*text.GoTextFace)).boundsAt(s, op.pen, x, y)
	}
	gf, _ := face.(*text.GoTextFace)
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

// keyedMesh records a mesh kept unchanged while its key is (the graph's):
// compared by its key, drawn from where it is kept; box holds its pixels.
func (h *hudLayer) keyedMesh(me *scene.Mesh, key graphKey, box image.Rectangle, aa bool) {
	if len(me.Indices) == 0 {
		return
	}
	op := layerOp{kind: opKeptMesh, aa: aa, kept: me, key: key, box: box}
	op.hash = math.Float64bits(key.yMax)*0x9e3779b97f4a7c15 ^ math.Float64bits(key.budget) ^ key.changes*0xc2b2ae3d27d4eb4f ^
		uint64(key.r.Min.X)<<48 ^ uint64(key.r.Min.Y)<<32 ^ uint64(key.r.Max.X)<<16 ^ uint64(key.r.Max.Y)
	if aa {
		op.hash = ^op.hash
	}
	f := &h.rec.cur
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
	if a.hash != b.hash || a.kind != b.kind || a.col != b.col {
		return false
	}
	switch a.kind {
	case opText:
		// The box follows from these.
		return a.face == b.face && a.pen == b.pen && a.x == b.x && a.y == b.y && fa.str(a) == fb.str(b)
	case opRect:
		return a.rx == b.rx && a.ry == b.ry && a.rw == b.rw && a.rh == b.rh
	case opKeptMesh:
		return a.aa == b.aa && a.kept == b.kept && a.key == b.key
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
	h.dirty, h.clip = h.dirty[:0], b.r
	if !b.valid {
		h.dirty = append(h.dirty, b.r)
		h.Whole++
	} else {
		h.diff(b)
	}
	for i := range b.cur.ops {
		if op := &b.cur.ops[i]; op.box == unknownBox {
			op.box = textBox(&b.cur, op)
		}
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
	h.widenForMeshes(b)
	for _, d := range h.dirty {
		sub := h.sub(d)
		sub.Fill(backdrop)
		for i := range b.cur.ops {
			op := &b.cur.ops[i]
			if !op.box.Overlaps(d) {
				continue
			}
			if op.kind == opMesh || op.kind == opKeptMesh {
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
	h.copyBar(dst, b)
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
			if op.box == unknownBox {
				op.box = textBox(cur, op)
			}
			h.addDirty(op.box)
			continue
		}
		h.matched[j], last = true, j
		op.box = prev.ops[j].box
	}
	for j := range prev.ops {
		if !h.matched[j] {
			h.addDirty(prev.ops[j].box)
		}
	}
}

// widenForMeshes makes every dirty rectangle that touches a mesh hold
// the whole mesh (see end), so that a mesh drawn whole while one of them
// is drawn again only draws over pixels filled again for it.
func (h *hudLayer) widenForMeshes(b *layerRegion) {
	for grown := true; grown; {
		grown = false
		for i := range b.cur.ops {
			op := &b.cur.ops[i]
			if op.kind != opMesh && op.kind != opKeptMesh {
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

// addDirty adds r to the dirty rectangles, merged with those it overlaps:
// they stay apart, so each pixel is filled and drawn again once.
func (h *hudLayer) addDirty(r image.Rectangle) {
	r = h.quantize(r)
	if r.Empty() {
		return
	}
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(h.dirty); i++ {
			if h.dirty[i].Overlaps(r) {
				r = r.Union(h.dirty[i])
				h.dirty[i] = h.dirty[len(h.dirty)-1]
				h.dirty = h.dirty[:len(h.dirty)-1]
				merged = true
				i--
			}
		}
	}
	h.dirty = append(h.dirty, r)
}

// quantize rounds r out to 16 pixels across, within the bar: a figure
// whose width changes by a few pixels dirties the same rectangle as
// before, so the layer's sub-images (sub) are few and kept. Lines stay
// where they are: rounding down too would draw the lines above and below
// again.
func (h *hudLayer) quantize(r image.Rectangle) image.Rectangle {
	const q = 16
	return image.Rect(r.Min.X&^(q-1), r.Min.Y, (r.Max.X+q-1)&^(q-1), r.Max.Y).Intersect(h.clip)
}

// draw draws op of frame f onto dst.
func (h *hudLayer) draw(dst *ebiten.Image, f *layerFrame, op *layerOp) {
	switch op.kind {
	case opText:
		if op.pen < 0 {
			texts.drawGlyphs(dst, f.str(op), op.face, op.x, op.y, op.col)
			return
		}
		glyphsOf(op.face.(*text.GoTextFace)).drawAt(dst, f.str(op), op.pen, op.x, op.y, &texts.op, colourScale(op.col))
	case opRect:
		// As vector.FillRect draws it (a white pixel scaled), without
		// making the colour an interface (an allocation).
		h.op = ebiten.DrawImageOptions{ColorScale: colourScale(op.col)}
		h.op.GeoM.Scale(float64(op.rw), float64(op.rh))
		h.op.GeoM.Translate(float64(op.rx), float64(op.ry))
		dst.DrawImage(h.whitePixel(), &h.op)
	case opKeptMesh:
		dst.DrawTriangles32(render.EbitenVertices(op.kept.Vertices), op.kept.Indices, h.whitePixel(),
			&ebiten.DrawTrianglesOptions{AntiAlias: op.aa})
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
