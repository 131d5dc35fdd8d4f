package ui

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"netcubes/link"
	"netcubes/render"
	"netcubes/render/scene"
	"netcubes/strategy"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// The HUD answers, from the back of the room: what am I looking at (top
// bar: strategy, settings, one line of explanation), what does the network
// do (bottom left), what does it cost (bottom middle: kbit/s, a 10 s graph
// against the budget, where the bits go), and how good is it (bottom right:
// error against the truth, and the packets crossing the link).

// articleTargetKbps is the bandwidth goal of the snapshot compression
// article, drawn as the budget line when a strategy has no budget of its own.
const articleTargetKbps = viewmodel.ArticleTargetKbps

// roleColours are the colours of the view model's roles.
var roleColours = [...]color.RGBA{
	viewmodel.RoleText:   colText,
	viewmodel.RoleDim:    colDim,
	viewmodel.RoleAccent: colAccent,
	viewmodel.RoleGood:   colGood,
	viewmodel.RoleBad:    colBad,
}

// roleColour is the colour of a role.
func roleColour(r viewmodel.Role) color.RGBA { return roleColours[r] }

var categoryColours = [wire.NumCategories]color.RGBA{
	wire.CategoryHeader:      {0x9a, 0xa4, 0xb4, 0xff},
	wire.CategoryAcks:        {0xb0, 0x8c, 0xff, 0xff},
	wire.CategoryInput:       {0x4f, 0xd1, 0xc5, 0xff},
	wire.CategoryIndices:     {0xff, 0xd1, 0x4a, 0xff},
	wire.CategoryFlags:       {0xff, 0x93, 0x4a, 0xff},
	wire.CategoryPosition:    {0x5c, 0xb8, 0xff, 0xff},
	wire.CategoryOrientation: {0x6c, 0xe0, 0x7a, 0xff},
	wire.CategoryVelocity:    {0xff, 0x7a, 0xb6, 0xff},
	wire.CategoryOther:       {0x5a, 0x62, 0x70, 0xff},
}

// hudLayout holds the faces, the strategy's settings as wrapped lines and
// the heights of the two bars for one frame.
type hudLayout struct {
	pad                                   float64
	bold, big, fig, reg, small, smallBold *text.GoTextFace
	caption                               *text.GoTextFace // the caption of what just happened
	modeLines                             []string
	alarm                                 string   // the strategy's alarm, the end of the last mode line (red)
	noteLines                             []string // the transient note, wrapped
	topH, botH                            int
	// compact drops the secondary lines (the RTT's explanation, the
	// packet counters, the clients line) so that a large text scale
	// shrinks the key figures as little as possible.
	compact bool
	cut     []string // key text that did not fit (a test wants none)
}

// maxNoteLines is how many lines a transient note may wrap to.
const maxNoteLines = 3

// hudMaxShare is the most of the window height the two bars may take: the
// presenter may enlarge the text, but the views must stay the picture.
const hudMaxShare = 0.5

// hudTallest is the height of the tallest HUD any strategy draws, both
// bars in compact form, in body-text lines (body sizes): measured with
// four players on four presets at 1280×720 and 1920×1080, text ×1.5 and
// ×2, after 90 ticks of each strategy, strategy 5 (2004 prediction) needs
// 18.6, rollback and authority 18.3, state sync 16.2, interpolation 14.6;
// with a little margin. TestOneTextSizeAcrossStrategies fails when a
// strategy outgrows it.
const hudTallest = 18.7

// layout sizes the HUD for a w×h screen: the views fill what the top bar
// and the bottom panel leave. The body text is 1/38 of the height times
// the text scale and the key figures 1.6 times that (1/24 of the height at
// scale 1, above the 1/25 the back row needs); when the bars would take
// more than hudMaxShare of the window, everything shrinks together.
//
// Before anything shrinks, the secondary lines go (compact): a presenter
// who asks for twice the text wants the figures twice as large, not the
// packet counters. The scale the figures really get is what scaleNote
// says after `=` and `-`.
//
// When even the compact layout does not fit, the body text is the largest
// whole pixel size that does (halving the interval between a size that
// fits and one that does not), so a larger scale never shows smaller text.
//
// The size depends only on the window and the asked scale: it is first
// capped at what the tallest strategy's bars allow (hudTallest), so a
// strategy that needs less room does not start larger than one that needs
// more (state sync showed ×2 at 720p, then strategy 5 with four players
// shrank to ×1: the text jumped on a key). Should some content still
// not fit, the size found holds for the whole run at this window size and
// asked scale: it only ever shrinks further, never grows back.
func (a *App) layout(w, h int) hudLayout {
	body := math.Min(a.fonts.size(h), math.Max(6, math.Floor(hudMaxShare*float64(h)/hudTallest)))
	lc := &a.laidOut
	capped := lc.w == w && lc.h == h && lc.body == body
	hi := body
	if capped {
		if l := a.layoutAt(w, h, lc.shown, true); l.fits(h) {
			return l
		}
		hi = lc.shown
	} else {
		if l := a.layoutAt(w, h, body, false); l.fits(h) {
			return l
		}
		if l := a.layoutAt(w, h, body, true); l.fits(h) {
			return l
		}
	}
	lo := math.Max(6, math.Floor(body*0.3))
	best := a.layoutAt(w, h, lo, true)
	for best.fits(h) && hi-lo > 1 {
		mid := math.Floor((lo + hi) / 2)
		if l := a.layoutAt(w, h, mid, true); l.fits(h) {
			lo, best = mid, l
		} else {
			hi = mid
		}
	}
	*lc = laidOut{w: w, h: h, body: body, shown: lo}
	return best
}

// laidOut remembers the size a shrunk layout found (App.layout).
type laidOut struct {
	w, h        int
	body, shown float64 // the size asked and the size that fitted
}

// fits reports whether the bars leave the views their share of h.
func (l *hudLayout) fits(h int) bool {
	return float64(l.topH+l.botH) <= hudMaxShare*float64(h)
}

// shownScale is the text scale the HUD is drawn at in a w×h window: the
// asked scale, or less when the bars would take more than hudMaxShare.
func (a *App) shownScale(w, h int) float64 {
	l := a.layout(w, h)
	return l.reg.Size / (float64(h) / 38)
}

func (a *App) layoutAt(w, h int, body float64, compact bool) hudLayout {
	l := hudLayout{
		pad:       math.Round(body * 0.5),
		bold:      a.fonts.face(a.fonts.bold, body),
		big:       a.fonts.face(a.fonts.bold, math.Round(body*1.25)),
		fig:       a.fonts.face(a.fonts.bold, math.Round(body*1.6)),
		reg:       a.fonts.face(a.fonts.regular, body),
		small:     a.fonts.face(a.fonts.regular, math.Round(body*0.8)),
		smallBold: a.fonts.face(a.fonts.bold, math.Round(body*0.8)),
		caption:   a.fonts.face(a.fonts.bold, math.Round(body*2)),
		compact:   compact,
	}
	hud := &a.hud
	titleW := measure(frameTexts.join(hud.Title, "   "), l.big)
	ps := frameTexts.listStart()
	for _, m := range hud.Mode {
		frameTexts.add(m)
	}
	if l.alarm = hud.Alarm; l.alarm != "" {
		frameTexts.add(l.alarm)
	}
	parts := frameTexts.listDone(ps)
	l.modeLines = wrapParts(parts, " · ", l.bold, float64(w)-l.pad*2-titleW, float64(w)-l.pad*2)
	for _, ln := range l.modeLines {
		if measure(ln, l.bold) > float64(w)-l.pad*2 {
			l.cut = append(l.cut, ln)
		}
	}
	if a.noteTicks > 0 {
		l.noteLines, l.cut = noteLines(a.note, l.bold, float64(w)-l.pad*4, l.cut)
	}
	l.topH = int(l.pad*2 + lineHeight(l.big) + lineHeight(l.bold)*float64(len(l.modeLines)-1) + lineHeight(l.small))
	hs, cut := a.drawBottom(nil, l, w, 0)
	l.cut = append(l.cut, cut...)
	l.botH = int(l.pad*2 + max(hs[0], hs[1], hs[2]))
	return l
}

func (a *App) drawHUD(dst *ebiten.Image, l hudLayout, lr, rr image.Rectangle) (legend image.Rectangle) {
	w, h := dst.Bounds().Dx(), dst.Bounds().Dy()
	pad, bold, smallBold := l.pad, l.bold, l.smallBold
	hud := &a.hud

	// Top bar: the strategy, its settings (wrapped, never cut), and a line
	// of explanation with the status at its right. Both bars are kept in a
	// layer from frame to frame: only what changed is drawn again, and
	// nothing between two ticks (hudlayer.go).
	if bar := layer.begin(dst, barTop, image.Rect(0, 0, w, l.topH), a.topBarKey(l, w)); bar != nil {
		a.drawTopBar(bar, l, w)
		layer.end(dst)
	}

	// View labels.
	if !lr.Empty() {
		a.drawViewLabel(dst, l, lr, hud.Left)
	}
	grid := len(a.strips) > 0 // rr is then the clients' cells, each labelled by the grid
	if !rr.Empty() && !grid {
		a.drawViewLabel(dst, l, rr, hud.Right)
		legend = a.drawOverlayLegend(dst, rr, l)
	}
	// The caption of what just happened, large, across the top of the
	// views; the off-field notes go under it.
	captionBottom := a.drawCaption(dst, l, lr, rr)
	// Where the field is, when a view's player has left it.
	for _, v := range []struct {
		r image.Rectangle
		m *viewmodel.View
	}{{lr, a.sess.LeftView()}, {rr, a.sess.RightView()}} {
		if v.r.Empty() || grid && v.r == rr {
			continue
		}
		if s, ok := offField(v.m); ok {
			s = fit(s, bold, float64(v.r.Dx())-pad*4)
			tw := measure(s, bold)
			x := float64(v.r.Min.X) + (float64(v.r.Dx())-tw)/2
			y := math.Max(float64(v.r.Min.Y)+lineHeight(smallBold)+pad*2.5, captionBottom+pad)
			panel(dst, image.Rect(int(x-pad), int(y-pad*0.5), int(x+tw+pad), int(y+lineHeight(bold)+pad*0.2)))
			label(dst, s, bold, x, y, colAccent)
		}
	}

	// Bottom panel: three columns.
	top := h - l.botH
	if bar := layer.begin(dst, barBottom, image.Rect(0, top, w, h), a.barKey()); bar != nil {
		a.drawBottom(bar, l, w, top)
		layer.end(dst)
	}
	// The track's caption, at the bottom of the views (above the legend).
	capRect := a.drawTrackCaption(dst, l, lr, rr, legend)
	if !capRect.Empty() {
		legend = capRect.Union(legend)
	}

	return legend
}

// drawTopBar draws the top bar: the strategy, its settings and the line of
// explanation with the status at its right.
func (a *App) drawTopBar(dst *ebiten.Image, l hudLayout, w int) {
	pad, bold, big, small := l.pad, l.bold, l.big, l.small
	hud := &a.hud
	x := pad
	x += label(dst, frameTexts.join(hud.Title, "   "), big, x, pad, colText)
	my := pad + (big.Size-bold.Size)*0.8
	for i, ln := range l.modeLines {
		if i > 0 {
			x = pad
			if i == 1 {
				my = pad + lineHeight(big)
			} else {
				my += lineHeight(bold)
			}
		}
		if l.alarm != "" && i == len(l.modeLines)-1 && strings.HasSuffix(ln, l.alarm) {
			// The alarm is not a setting: red, as the README promises.
			spans(dst, bold, x, my, span{strings.TrimSuffix(ln, l.alarm), colAccent}, span{l.alarm, colBad})
			continue
		}
		label(dst, ln, bold, x, my, colAccent)
	}
	explainY := pad + lineHeight(big) + lineHeight(bold)*float64(len(l.modeLines)-1)
	sw := 0.0
	for _, s := range hud.Status {
		sw += texts.width(s.Text, small)
	}
	sx := float64(w) - pad - sw
	for _, s := range hud.Status {
		sx += label(dst, s.Text, small, sx, explainY, roleColour(s.Role))
	}
	label(dst, fit(hud.Explain, small, float64(w)-pad*3-sw), small, pad, explainY, colDim)
}

// barKey is what the HUD's bars are drawn from, as far as the layer can
// tell without drawing them: they change only in an Update (a tick, a
// key), and with smooth edges (their meshes).
func (a *App) barKey() barKey { return barKey{app: a, stamp: a.stamp, aa: a.mesh.antiAlias} }

// topBarKey is the top bar's key: what it draws, written out, which a tick
// seldom changes (the strategy, its settings, the line of explanation).
func (a *App) topBarKey(l hudLayout, w int) barKey {
	b := a.topKey[:0]
	for _, f := range []*text.GoTextFace{l.big, l.bold, l.small} {
		b = binary.LittleEndian.AppendUint64(b, uint64(uintptr(unsafe.Pointer(f))))
	}
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(l.pad))
	b = binary.LittleEndian.AppendUint64(b, uint64(w))
	hud := &a.hud
	b = append(append(b, hud.Title...), 1)
	for _, s := range l.modeLines {
		b = append(append(b, s...), 0)
	}
	b = append(append(b, l.alarm...), 1)
	for _, s := range hud.Status {
		b = append(append(b, s.Text...), 0, byte(s.Role))
	}
	b = append(append(b, 1), hud.Explain...)
	a.topKey = b
	return barKey{app: a, aa: a.mesh.antiAlias, content: unsafe.String(unsafe.SliceData(b), len(b))}
}

// drawViewLabel draws a view's label at the top-left of r: its title and
// what it shows, cut to the view's width (the player it names gets its
// colour's swatch, as every label does).
func (a *App) drawViewLabel(dst *ebiten.Image, l hudLayout, r image.Rectangle, v viewmodel.ViewLabel) {
	pad, smallBold := l.pad, l.smallBold
	sub := fit(v.Sub, smallBold, float64(r.Dx())-pad*4-measure(frameTexts.join(v.Title, "  "), smallBold))
	tw := measure(frameTexts.join(v.Title, "  ", sub), smallBold)
	y := float64(r.Min.Y) + pad*0.5
	panel(dst, image.Rect(r.Min.X+int(pad), int(y), r.Min.X+int(pad*3+tw), int(y+lineHeight(smallBold)+pad)))
	x := float64(r.Min.X) + pad*2
	x += label(dst, v.Title, smallBold, x, y+pad*0.5, colText)
	label(dst, frameTexts.join("  ", sub), smallBold, x, y+pad*0.5, colDim)
}

// noteLines wraps a transient note into at most maxNoteLines lines of
// width; what would run past them is cut with "…" and added to cut (a
// test wants every sub-mode's note whole).
func noteLines(note string, face *text.GoTextFace, width float64, cut []string) ([]string, []string) {
	lines := wrapWords(note, face, width)
	for i, ln := range lines {
		if measure(ln, face) > width {
			cut = append(cut, ln)
			lines[i] = fit(ln, face, width)
		}
	}
	if len(lines) > maxNoteLines {
		cut = append(cut, strings.Join(lines[maxNoteLines-1:], " "))
		lines = append(lines[:maxNoteLines-1], fit(strings.Join(lines[maxNoteLines-1:], " "), face, width))
	}
	return lines, cut
}

// drawTrackCaption draws the track's caption, one or two lines of large
// text, centred at the bottom of the views: clear of the figures (in the
// bottom panel), of the views' labels (at their top), of the caption of
// what just happened (under the labels), of the overlay legend (it goes
// above it) and of the comparison chart (over the left view: the caption
// then keeps to the right view). It returns where it is (empty: none).
func (a *App) drawTrackCaption(dst *ebiten.Image, l hudLayout, lr, rr, legend image.Rectangle) image.Rectangle {
	c, ok := a.d.Caption()
	if !ok {
		return image.Rectangle{}
	}
	tc, ok := a.trackCaptionLayout(c.Lines, l, lr, rr, legend)
	if !ok {
		return image.Rectangle{}
	}
	panel(dst, tc.r)
	for i, ln := range tc.lines {
		label(dst, ln, tc.face, tc.x[i], tc.y+float64(i)*tc.lh, colText)
	}
	return tc.r
}

// trackCaption is where a track's caption goes.
type trackCaption struct {
	lines []string // as drawn: the caption's lines, wrapped where even the smallest face is too wide
	face  *text.GoTextFace
	x     []float64 // each line's left
	y, lh float64   // the first line's top, the line height
	r     image.Rectangle
}

// trackCaptionLayout places a caption's lines (see drawTrackCaption); ok
// is false when there are no views to put it on.
func (a *App) trackCaptionLayout(in []string, l hudLayout, lr, rr, legend image.Rectangle) (tc trackCaption, ok bool) {
	views := lr.Union(rr)
	if a.chart && !rr.Empty() {
		views = rr
	}
	if views.Empty() {
		return tc, false
	}
	if !a.roomTable.Empty() {
		return a.roomCaptionLayout(in, l, views), true
	}
	tc = a.placeCaption(in, l, views, legend, a.captionStrips)
	// Below the labels and the caption of what just happened.
	top := float64(views.Min.Y) + lineHeight(l.smallBold) + l.pad*2.5 + l.caption.Size*1.15 + l.pad*0.4
	if (!clearOf(tc.r, a.captionStrips) || float64(tc.r.Min.Y) < top) && !lr.Empty() {
		// The grid: lifted above the bottom row's strips it would
		// cover the top row's; the server's view has no strip.
		tc = a.placeCaption(in, l, lr, legend, a.captionStrips)
	}
	return tc, true
}

// clearOf reports whether r covers none of rs.
func clearOf(r image.Rectangle, rs []image.Rectangle) bool {
	for _, s := range rs {
		if r.Overlaps(s) {
			return false
		}
	}
	return true
}

// placeCaption places a caption's lines at the bottom of views, above the
// legend and above any of strips (the grid's figure strips) it would
// cover.
func (a *App) placeCaption(in []string, l hudLayout, views, legend image.Rectangle, strips []image.Rectangle) trackCaption {
	width := float64(views.Dx()) - l.pad*6
	f := l.caption
	for _, ln := range in {
		if g := captionFace(a, l, ln, width); g.Size < f.Size {
			f = g
		}
	}
	// A line still too wide at the smallest face (large text on a small
	// window) wraps between words rather than lose its end.
	lh := f.Size * 1.2
	tw := 0.0
	var lines []string
	for _, ln := range in {
		for _, part := range wrapWords(ln, f, width) {
			part = fit(part, f, width) // a single word wider than the views
			lines = append(lines, part)
			tw = math.Max(tw, measure(part, f))
		}
	}
	th := lh * float64(len(lines))
	x := float64(views.Min.X) + (float64(views.Dx())-tw)/2
	bottom := float64(views.Max.Y) - l.pad*1.5
	if !legend.Empty() && x+tw+l.pad > float64(legend.Min.X) && x-l.pad < float64(legend.Max.X) {
		bottom = math.Min(bottom, float64(legend.Min.Y)-l.pad)
	}
	rect := func(bottom float64) image.Rectangle {
		return image.Rect(int(x-l.pad*1.5), int(bottom-th-l.pad*0.6), int(x+tw+l.pad*1.5), int(bottom+l.pad*0.4))
	}
	// Lifted above each strip it covers, lowest first (the bottom row's).
	for range strips {
		moved := false
		for _, s := range strips {
			if rect(bottom).Overlaps(s) {
				bottom = math.Min(bottom, float64(s.Min.Y)-l.pad*0.6)
				moved = true
			}
		}
		if !moved {
			break
		}
	}
	y := bottom - th
	xs := make([]float64, len(lines))
	for i, ln := range lines {
		xs[i] = float64(views.Min.X) + (float64(views.Dx())-measure(ln, f))/2
	}
	return trackCaption{lines: lines, face: f, x: xs, y: y, lh: lh, r: rect(bottom)}
}

// captionColour is the caption's colour by the kind of its event: red for
// what is broken (a desync, an outage), yellow for a wait, white for the
// rest.
func captionColour(k strategy.EventKind) color.RGBA {
	switch k {
	case strategy.EventDesync, strategy.EventOutage:
		return colBad
	case strategy.EventStall, strategy.EventLate:
		return colAccent
	}
	return colText
}

// captionFace is the caption's face for a line of text in width: twice
// the body text (1/19 of the window's height at text scale 1, for the back
// row), smaller when the line is longer than the window is wide, never
// below the key figures' size.
func captionFace(a *App, l hudLayout, s string, width float64) *text.GoTextFace {
	f := l.caption
	if w := measure(s, f); w > width {
		f = a.fonts.face(a.fonts.bold, math.Max(l.fig.Size, math.Floor(f.Size*width/w)))
	}
	return f
}

// drawCaption draws the caption of what just happened (the session's Captions) on
// one line across the top of the views, and returns the y under it (the
// top of the views when there is none).
func (a *App) drawCaption(dst *ebiten.Image, l hudLayout, lr, rr image.Rectangle) float64 {
	views := lr.Union(rr)
	top := float64(views.Min.Y)
	c, ok := a.captions.Current()
	if !ok || views.Empty() {
		return top
	}
	if !a.roomTable.Empty() {
		// The room host: left of the client table.
		views.Max.X = max(views.Min.X+1, a.roomTable.Min.X-int(l.pad))
	}
	width := float64(views.Dx()) - l.pad*4
	f := captionFace(a, l, c.Text, width)
	s := fit(c.Text, f, width)
	tw := measure(s, f)
	x := float64(views.Min.X) + (float64(views.Dx())-tw)/2
	y := top + lineHeight(l.smallBold) + l.pad*2.5
	panel(dst, image.Rect(int(x-l.pad), int(y-l.pad*0.4), int(x+tw+l.pad), int(y+f.Size*1.15+l.pad*0.4)))
	label(dst, s, f, x, y, captionColour(c.Kind))
	return y + f.Size*1.15 + l.pad*0.4
}

// drawOverlayLegend says, in the right view's bottom-left corner, what the
// overlays that are on mean: the T tint (a colour scale needs its key), the
// E offsets and how many ghosts are drawn.
// noteY is where the transient note's text starts: y, or above the overlay
// legend when the note's panel (x0..x1, th high) would overlap it.
func noteY(y, x0, x1, th, pad float64, legend image.Rectangle) float64 {
	if legend.Empty() || x1 <= float64(legend.Min.X) || x0 >= float64(legend.Max.X) ||
		y+th+pad*0.5 <= float64(legend.Min.Y) {
		return y
	}
	return float64(legend.Min.Y) - th - pad*1.5
}

// drawOverlayLegend draws the legend and returns where (empty: none).
func (a *App) drawOverlayLegend(dst *ebiten.Image, rr image.Rectangle, l hudLayout) image.Rectangle {
	rv := a.sess.RightView()
	var lines []string
	var scale bool
	switch a.overlays.Tint {
	case render.TintPriority:
		if rv.HasPriority {
			lines = append(lines, "tint: priority, low → high (sent first)")
			scale = true
		} else {
			lines = append(lines, "tint: priority (this strategy has none)")
		}
	case render.TintUpdated:
		lines = append(lines, "tint: flash = updated this tick")
	}
	if a.overlays.ErrorOffsets && rv.HasErrorOffsets {
		lines = append(lines, fmt.Sprintf("orange lines: smoothing offsets, drawn ×%d", render.OffsetScale))
	}
	if a.overlays.Ghost {
		if n, drawn := a.right.GhostCounts(); n > drawn {
			lines = append(lines, fmt.Sprintf("green: the %d cubes farthest from the truth (of %d off)", drawn, n))
		}
	}
	if len(lines) == 0 {
		return image.Rectangle{}
	}
	small, pad := l.small, l.pad
	w := 0.0
	for _, s := range lines {
		w = math.Max(w, measure(s, small))
	}
	barH := 0.0
	if scale {
		barH = small.Size
	}
	h := lineHeight(small)*float64(len(lines)) + barH + pad
	x := float64(rr.Min.X) + pad
	y := float64(rr.Max.Y) - pad - h
	box := image.Rect(int(x), int(y), int(x+w+pad*2), int(y+h+pad*0.5))
	panel(dst, box)
	ty := y + pad*0.5
	for _, s := range lines {
		label(dst, s, small, x+pad, ty, colText)
		ty += lineHeight(small)
	}
	if scale {
		// The tint's own colours, left to right.
		p := &a.right.Palette
		const steps = 24
		sw := float32(w) / steps
		for k := 0; k < steps; k++ {
			c := scene.Mix(p.PriorityLow, p.PriorityHigh, float32(k)/(steps-1))
			vector.FillRect(dst, float32(x+pad)+float32(k)*sw, float32(ty), sw+1, float32(barH*0.8),
				color.RGBA{uint8(c.R * 255), uint8(c.G * 255), uint8(c.B * 255), 255}, false)
		}
	}
	return box
}

// drawBottom writes the bottom panel's three columns onto dst, or only
// measures them when dst is nil, and returns each column's height and the
// key text that did not fit.
func (a *App) drawBottom(dst *ebiten.Image, l hudLayout, w, top int) (hs [3]float64, cut []string) {
	hs, cut, _ = a.columns(dst, l, w, top, false)
	return hs, cut
}

// bottomColumns is drawBottom, with every text each column wrote.
func (a *App) bottomColumns(dst *ebiten.Image, l hudLayout, w, top int) (hs [3]float64, cut []string, texts [3][]string) {
	return a.columns(dst, l, w, top, true)
}

// columns is drawBottom, with every text each column wrote when record is
// set.
func (a *App) columns(dst *ebiten.Image, l hudLayout, w, top int, record bool) (hs [3]float64, cut []string, texts [3][]string) {
	pad := l.pad
	y0 := float64(top) + pad
	bottom := float64(top+l.botH) - pad
	x1, x2 := math.Floor(float64(w)*0.30), math.Floor(float64(w)*0.66)
	cols := [3]colWriter{
		{dst: dst, x: pad, y: y0, w: x1 - pad, record: record},
		{dst: dst, x: x1 + pad*2, y: y0, w: x2 - x1 - pad*2, record: record},
		{dst: dst, x: x2 + pad*2, y: y0, w: float64(w) - x2 - pad*3, record: record},
	}
	hud := &a.hud
	a.networkColumn(&cols[0], l, &hud.Net, bottom)
	a.bandwidthColumn(&cols[1], l, &hud.Band, &a.facts.Metrics, bottom)
	a.errorColumn(&cols[2], l, &hud.Err)
	for i := range cols {
		hs[i] = cols[i].y - y0
		cut = append(cut, cols[i].cut...)
		texts[i] = cols[i].texts
	}
	return hs, cut, texts
}

// networkColumn: the conditions (preset, what is real in two processes),
// then the measured RTT and loss as key figures, the counters, and the
// packet timeline.
func (a *App) networkColumn(c *colWriter, l hudLayout, n *viewmodel.Network, bottom float64) {
	if n.Restored {
		// Leaving a strategy that chose the link brought the presenter's
		// back: say so where the link is named, for a moment.
		c.line("link restored: "+n.LinkName, l.bold, colGood, false)
	} else {
		lw := c.lineAt(0, "Network ", l.bold, colDim, false)
		c.lineAt(lw, n.LinkName, l.bold, colAccent, false)
		c.y += lineHeight(l.bold)
	}
	if n.Status != "" {
		// Two processes: what is real, and that the numbers below are
		// simulated on top of it.
		// Wrapped, not cut: a refusal says what to do at its end.
		for _, s := range wrapWords(n.Status, l.small, c.w) {
			c.line(s, l.small, colAccent, false)
		}
		c.line("simulated on top:", l.small, colDim, false)
	}
	// The numbers of a busy preset are long: drop to the small face rather
	// than run into the next column.
	if !l.compact {
		for _, desc := range n.Descs {
			face := l.reg
			if measure(desc, l.reg) > c.w {
				face = l.small
			}
			c.line(desc, face, colText, false)
		}
	}
	figs := []string{n.RTT, n.Loss}
	if n.Loss == "" {
		figs = figs[:1] // no client: one line says so
	}
	c.figures("", figs, l.fig, colText)
	tail, lossTail := n.RTTTail, n.LossTail
	if l.compact {
		// The lessons stay; their explanations go.
		tail, lossTail = "", ""
	}
	if n.RTTWhy != "" {
		c.lesson(n.RTTWhy, tail, l.small, colDim)
	}
	if n.LossNote != "" {
		c.lesson(n.LossNote, lossTail, l.small, colDim)
	}
	if !l.compact {
		c.line(n.Packets, l.small, colDim, false)
	}
	if n.Corrupt.Text != "" {
		c.line(n.Corrupt.Text, l.small, roleColour(n.Corrupt.Role), false)
	}
	if n.Alarm.Text != "" {
		face := l.small
		if n.Outage {
			face = l.bold
		}
		c.line(n.Alarm.Text, face, roleColour(n.Alarm.Role), false)
	}
	moreLines(c, l, n.More)
	// The packets crossing the link, in what the column has left (at
	// least three lines; two in the compact layout).
	lines := 3.0
	if l.compact {
		lines = 2
	}
	c.y += l.small.Size * 0.3
	if c.dst == nil {
		c.y += lines * lineHeight(l.small)
		return
	}
	a.drawTimeline(c.dst, image.Rect(int(c.x), int(c.y), int(c.x+c.w), int(bottom)), l.small)
	c.y = bottom
}

// bandwidthColumn: kbit/s as the key figure, the strategy's own figures,
// the last 10 s against the budget and where the last second's bits went.
func (a *App) bandwidthColumn(c *colWriter, l hudLayout, b *viewmodel.Bandwidth, m *viewmodel.Metrics, bottom float64) {
	small := l.small
	wk := c.lineAt(0, b.Kbps, l.fig, roleColour(b.KbpsRole), true)
	if trailer := frameTexts.join("  ", b.Trailer); measure(trailer, small) <= c.w-wk {
		y := c.y
		c.y += l.fig.Size - small.Size
		c.lineAt(wk, trailer, small, colDim, false)
		c.y = y + lineHeight(l.fig)
	} else {
		c.y += lineHeight(l.fig)
		if !l.compact {
			c.line(b.Trailer, small, colDim, false)
		}
	}
	if b.Clients != "" && !l.compact {
		c.line(b.Clients, small, colDim, false)
	}
	if len(b.KeyParts) > 0 {
		c.figuresLed(frameTexts.join(b.KeyLead, " "), small, b.KeyParts, l.fig, colText)
	}
	if len(b.Facts) > 0 {
		// The strategy's own figures carry its lesson (the cubes state
		// sync never sends, lockstep's stall time): every part is kept,
		// wrapped between parts.
		c.figures("", b.Facts, small, colText)
	}
	moreLines(c, l, b.More)
	// Graph of the last 10 s (its labels on a line of their own above it,
	// so the line never runs through them), then the bits bar and its
	// legend (every category present, on as many lines as the widest
	// case needs, so the panel does not jump): they take what the column
	// has left, and at least three lines for the graph.
	budget := b.Budget
	barH := math.Round(small.Size * 1.1)
	legendH := math.Round(lineHeight(small) * float64(legendLines(&m.SecondBits, small, c.w)))
	labelH := lineHeight(small)
	minGraph := 3 * lineHeight(small)
	if l.compact {
		// The graph's scale line goes (the budget line still shows).
		labelH, minGraph = 0, 2*lineHeight(small)
	}
	if c.dst == nil {
		c.y += labelH + minGraph + small.Size*0.4 + barH + legendH
		return
	}
	yMax := niceCeil(math.Max(budget*1.25, a.kbps.Max()*1.1))
	if !l.compact {
		labelRight(c.dst, frameKbps(yMax, " at the top"), small, c.x+c.w-2, c.y, colDim)
		label(c.dst, "last 10 s", small, c.x+2, c.y, colDim)
	}
	g := image.Rect(int(c.x), int(c.y+labelH), int(c.x+c.w), int(bottom-barH-legendH-small.Size*0.4))
	a.mesh.graph(c.dst, g, a.kbps, yMax, budget)
	bar := image.Rect(g.Min.X, int(bottom-barH-legendH), g.Max.X, int(bottom-legendH))
	a.drawBitsBar(c.dst, bar, small, &m.SecondBits, bottom-legendH)
	c.y = bottom
}

// errorColumn: the error against the truth as the key figures (wrapped
// between RMS, max and angle, never cut), how far in the past the right
// shows the left and the error against the left now (key figures too:
// the lag is half of the truth). The column is measured as if the figures
// were there, so the panel does not jump when they appear. (The packet
// timeline is the network column's: the error's figures need the room.)
func (a *App) errorColumn(c *colWriter, l hudLayout, e *viewmodel.ErrorFigures) {
	y0 := c.y
	errorFigures(c, l, e)
	moreLines(c, l, e.More)
	if c.dst == nil && e.State == viewmodel.ErrorWaiting {
		// Reserve the place the figures will take.
		probe := colWriter{x: c.x, y: y0, w: c.w}
		pe := viewmodel.BuildError(&viewmodel.Metrics{Valid: true, HasNow: true, DelayMs: 100}, true, true)
		errorFigures(&probe, l, &pe)
		c.y = math.Max(c.y, probe.y)
		c.cut = append(c.cut, probe.cut...)
	}
}

// moreLines writes a column's further lines, small, each cut to the
// column's width.
func moreLines(c *colWriter, l hudLayout, more []viewmodel.Span) {
	for _, s := range more {
		c.line(s.Text, l.small, roleColour(s.Role), false)
	}
}

// errorFigures writes the error column's figures (errorColumn).
func errorFigures(c *colWriter, l hudLayout, e *viewmodel.ErrorFigures) {
	small := l.small
	switch e.State {
	case viewmodel.ErrorShown:
		c.figures("Error ", e.Parts, l.fig, roleColour(e.Role))
		if e.Of != "" {
			c.lesson(e.Of, "", small, colDim)
			return
		}
		// The lag, the other half of the truth, as large as the error:
		// the words small, the figure large.
		c.figuresLed(e.LagLead, l.bold, []string{e.Lag}, l.fig, roleColour(e.LagRole))
		if len(e.NowParts) > 0 {
			// The RMS is the lesson; the max follows when it fits on the
			// line (a second line of it would squeeze the views).
			lead := "vs. the left now "
			parts := e.NowParts[:1]
			if len(e.NowParts) > 1 && measure(lead, l.bold)+measure(frameTexts.join(e.NowParts[0], " · ", e.NowParts[1]), l.fig) <= c.w {
				parts = e.NowParts[:2]
			}
			c.figuresLed(lead, l.bold, parts, l.fig, roleColour(e.NowRole))
		}
		if e.Note != "" && !l.compact {
			c.line(e.Note, small, colDim, false)
		}
	case viewmodel.ErrorMeasuring:
		c.figures("Error ", e.Parts, l.fig, colDim)
		c.lesson(e.Of, "", small, colDim)
	default:
		c.lesson(e.Waiting, e.WaitingTail, l.bold, colDim)
	}
}

// legendEntry is one category of the bits bar's legend, placed.
type legendEntry struct {
	text string
	cat  wire.Category
	x    float64 // from the legend's left edge
	line int     // 0 or 1
}

// maxLegendLines is how many lines the bits bar's legend may take.
const maxLegendLines = 3

// bitsLegend lays out the bits bar's legend in width: every category on
// the bar, largest share first, each with its share, on as many as
// maxLegendLines lines; on the last line the smallest shares drop their
// figure rather than be left out.
func bitsLegend(b *wire.Breakdown, face text.Face, width float64) []legendEntry {
	total := b.Total()
	var buf [wire.NumCategories]wire.Category
	order := buf[:0]
	for c := wire.Category(0); c < wire.NumCategories; c++ {
		if b.Bits(c) > 0 {
			order = append(order, c)
		}
	}
	slices.SortStableFunc(order, func(x, y wire.Category) int { return cmp.Compare(b.Bits(y), b.Bits(x)) })
	out := legendScratch[:0]
	x, line := 0.0, 0
	for _, c := range order {
		s := frameTexts.join("■ ", c.String(), " ", frameTexts.float(100*float64(b.Bits(c))/float64(total), 0, "%  "))
		w := measure(s, face)
		if x+w > width && line < maxLegendLines-1 {
			x, line = 0, line+1
		}
		if x+w > width {
			s = frameTexts.join("■ ", c.String(), "  ")
			if w = measure(s, face); x+w > width {
				break
			}
		}
		out = append(out, legendEntry{text: s, cat: c, x: x, line: line})
		x += w
	}
	legendScratch = out
	return out
}

// legendScratch holds the frame's legend (bitsLegend), kept from frame to
// frame.
var legendScratch []legendEntry

// legendLines is how many lines the legend of b's categories needs in
// width with the widest share each ("100%"), so the panel keeps its height
// while the shares change (it changes only when a category comes or goes).
func legendLines(b *wire.Breakdown, face text.Face, width float64) int {
	n := 1
	x := 0.0
	for c := wire.Category(0); c < wire.NumCategories; c++ {
		if b.Bits(c) == 0 {
			continue
		}
		w := measure(frameTexts.join("■ ", c.String(), " 100%  "), face)
		if x+w > width && x > 0 {
			x, n = 0, n+1
		}
		x += w
	}
	return min(n, maxLegendLines)
}

// drawBitsBar draws the bits per category as a stacked bar with a legend
// of the largest shares under it.
func (a *App) drawBitsBar(dst *ebiten.Image, r image.Rectangle, small *text.GoTextFace, b *wire.Breakdown, legendY float64) {
	total := b.Total()
	if total == 0 {
		label(dst, "no packets in the last second", small, float64(r.Min.X), float64(r.Min.Y), colDim)
		return
	}
	x := float32(r.Min.X)
	wTotal := float32(r.Dx())
	for c := wire.Category(0); c < wire.NumCategories; c++ {
		bw := wTotal * float32(b.Bits(c)) / float32(total)
		if bw <= 0 {
			continue
		}
		a.mesh.mesh.Polygon([]scene.Point{{X: x, Y: float32(r.Min.Y)}, {X: x + bw, Y: float32(r.Min.Y)},
			{X: x + bw, Y: float32(r.Max.Y)}, {X: x, Y: float32(r.Max.Y)}}, rgba(categoryColours[c]))
		x += bw
	}
	a.mesh.flush(dst)
	for _, e := range bitsLegend(b, small, float64(r.Dx())) {
		label(dst, e.text, small, float64(r.Min.X)+e.x, legendY+float64(e.line)*lineHeight(small), categoryColours[e.cat])
	}
}

// timelineTicks is the span of the packet timeline.
const timelineSpan = 2 * wire.TicksPerSecond

// drawTimeline draws the last two seconds of packets as lines from the
// left lane (sent) to the right lane (arrived): green delivered, white
// still in flight, red lost, orange dropped by an outage or a full queue;
// a blue mark on the left lane means the left has its ack.
func (a *App) drawTimeline(dst *ebiten.Image, r image.Rectangle, small *text.GoTextFace) {
	hud := &a.hud
	now := hud.Frame
	lw := texts.width("right ", small)
	x0 := float32(float64(r.Min.X) + lw)
	x1 := float32(r.Max.X)
	yTop := float32(r.Min.Y) + float32(small.Size)*0.6
	yBot := float32(r.Max.Y) - float32(small.Size)*0.6
	label(dst, "left", small, float64(r.Min.X), float64(yTop)-small.Size*0.6, colDim)
	label(dst, "right", small, float64(r.Min.X), float64(yBot)-small.Size*0.6, colDim)
	xAt := func(f float64) float32 {
		return x1 - (x1-x0)*float32((float64(now)-f)/timelineSpan)
	}
	me := &a.mesh.mesh
	lane := rgba(colGridDim)
	me.Line(scene.Point{X: x0, Y: yTop}, scene.Point{X: x1, Y: yTop}, 1, lane)
	me.Line(scene.Point{X: x0, Y: yBot}, scene.Point{X: x1, Y: yBot}, 1, lane)
	mid := (yTop + yBot) / 2
	for _, p := range hud.Timeline {
		if now-p.Sent > timelineSpan {
			continue
		}
		xs := xAt(float64(p.Sent))
		from := scene.Point{X: xs, Y: yTop}
		switch p.Fate {
		case link.FateDelivered:
			me.Line(from, scene.Point{X: xAt(float64(p.Arrival)), Y: yBot}, 1.5, rgba(colGood))
		case link.FateInFlight:
			u := float32(1)
			if p.Arrival > p.Sent {
				u = float32(now-p.Sent) / float32(p.Arrival-p.Sent)
			}
			u = min(1, max(0, u))
			end := scene.Point{X: xs + (xAt(float64(p.Arrival))-xs)*u, Y: yTop + (yBot-yTop)*u}
			me.Line(from, end, 1.5, rgba(colText))
		case link.FateLost:
			me.Line(from, scene.Point{X: xs + 3, Y: mid}, 1.5, rgba(colBad))
			me.Line(scene.Point{X: xs, Y: mid - 3}, scene.Point{X: xs + 6, Y: mid + 3}, 1.5, rgba(colBad))
			me.Line(scene.Point{X: xs, Y: mid + 3}, scene.Point{X: xs + 6, Y: mid - 3}, 1.5, rgba(colBad))
		default: // outage, full queue, oversize
			me.Line(from, scene.Point{X: xs + 2, Y: (yTop + mid) / 2}, 1.5, rgba(colAccent))
		}
		if p.Acked {
			me.Line(scene.Point{X: xs, Y: yTop - 4}, scene.Point{X: xs, Y: yTop}, 3, scene.RGBA{R: 0.36, G: 0.6, B: 1, A: 1})
		}
	}
	a.drawFrameLane(yBot, x0, xAt)
	a.mesh.flush(dst)
}

// drawFrameLane marks, under the timeline's right lane, the frames of a
// machine that runs ahead of its inputs (strategy.FrameLane): green where
// every input was in hand, orange where it simulated on predicted ones
// (what a rollback may still change).
func (a *App) drawFrameLane(y, x0 float32, xAt func(float64) float32) {
	hud := &a.hud
	if !hud.HasLane {
		return
	}
	final, present := hud.LaneFinal, hud.LanePresent
	me := &a.mesh.mesh
	y += 4
	from := float64(hud.Frame - timelineSpan)
	clampX := func(f float64) float32 { return max(x0, xAt(f)) }
	if float64(final) > from {
		me.Line(scene.Point{X: clampX(from), Y: y}, scene.Point{X: clampX(float64(final)), Y: y}, 3, rgba(colGood))
	}
	if present > final {
		me.Line(scene.Point{X: clampX(float64(final)), Y: y}, scene.Point{X: clampX(float64(present)), Y: y}, 3, rgba(colAccent))
	}
}

// measure is the width of s in face.
func measure(s string, face text.Face) float64 {
	return texts.width(s, face) + float64(playerMentions(s))*swatchSize(face)
}

// fit shortens s with an ellipsis until it is at most width wide.
func fit(s string, face text.Face, width float64) string {
	if measure(s, face) <= width {
		return s
	}
	n := len(s)
	for n > 0 && measure(frameTexts.cut(s, n, "…"), face) > width {
		_, size := utf8.DecodeLastRuneInString(s[:n])
		n -= size
	}
	return frameTexts.cut(s, n, "…")
}

// frameKbps writes a bandwidth with a sensible unit ("212 kbit/s", "1.02
// Mbit/s") followed by tail, as a frame text.
func frameKbps(k float64, tail string) string {
	if k >= 1000 {
		return frameTexts.float(k/1000, 2, frameTexts.join(" Mbit/s", tail))
	}
	return frameTexts.float(k, 0, frameTexts.join(" kbit/s", tail))
}

// niceCeil rounds up to 1, 2 or 5 times a power of ten, for graph scales.
func niceCeil(x float64) float64 {
	if x <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= x {
			return m * p
		}
	}
	return 10 * p
}

// helpGroup is one heading of the help overlay and its keys.
type helpGroup struct {
	name string
	rows []KeyHelp
}

func helpGroups() []helpGroup {
	var gs []helpGroup
	for _, k := range KeyTable() {
		if k.Key == "" {
			continue
		}
		if len(gs) == 0 || gs[len(gs)-1].name != k.Group {
			gs = append(gs, helpGroup{name: k.Group})
		}
		gs[len(gs)-1].rows = append(gs[len(gs)-1].rows, k)
	}
	return gs
}

// drawNote draws the transient note above the bottom panel, wrapped
// between words, clear of the legend and the track's caption (avoid). It
// is drawn last, over the chart and the views, so a note is never hidden.
func (a *App) drawNote(dst *ebiten.Image, l hudLayout, avoid image.Rectangle) {
	w := dst.Bounds().Dx()
	top := dst.Bounds().Dy() - l.botH
	bold, pad := l.bold, l.pad
	legend := avoid
	if a.noteTicks > 0 && len(l.noteLines) > 0 {
		tw := 0.0
		for _, ln := range l.noteLines {
			tw = math.Max(tw, measure(ln, bold))
		}
		th := lineHeight(bold)*float64(len(l.noteLines)-1) + bold.Size
		mid := float64(w) / 2
		if !a.roomTable.Empty() {
			// The room host: left of the client table, above the
			// reported view, where it fits.
			if free := float64(a.roomTable.Min.X) - pad; tw+2*pad <= free {
				mid = free / 2
				if !a.roomCaptioned {
					legend = legend.Union(a.roomReported)
				}
			}
		}
		x := mid - tw/2
		y := noteY(float64(top)-th-pad*2, x-pad, x+tw+pad, th, pad, legend)
		panel(dst, image.Rect(int(x-pad), int(y-pad*0.5), int(x+tw+pad), int(y+th+pad*0.5)))
		for i, ln := range l.noteLines {
			label(dst, ln, bold, mid-measure(ln, bold)/2, y+float64(i)*lineHeight(bold), colAccent)
		}
	}
}
