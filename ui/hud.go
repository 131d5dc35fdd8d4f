package ui

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"netcubes/game"
	"netcubes/net"
	"netcubes/render/scene"
)

// The HUD answers, from the back of the room: what am I looking at (top
// bar: strategy, settings, one line of explanation), what does the network
// do (bottom left), what does it cost (bottom middle: kbit/s, a 10 s graph
// against the budget, where the bits go), and how good is it (bottom right:
// error against the truth, and the packets crossing the link).

// articleTargetKbps is the bandwidth goal of the snapshot compression
// article, drawn as the budget line when a strategy has no budget of its own.
const articleTargetKbps = 256

// budgeted is implemented by strategies with a bandwidth limit.
type budgeted interface{ BudgetKbps() (float64, bool) }

var categoryColours = [net.NumCategories]color.RGBA{
	net.CategoryHeader:      {0x9a, 0xa4, 0xb4, 0xff},
	net.CategoryAcks:        {0xb0, 0x8c, 0xff, 0xff},
	net.CategoryInput:       {0x4f, 0xd1, 0xc5, 0xff},
	net.CategoryIndices:     {0xff, 0xd1, 0x4a, 0xff},
	net.CategoryFlags:       {0xff, 0x93, 0x4a, 0xff},
	net.CategoryPosition:    {0x5c, 0xb8, 0xff, 0xff},
	net.CategoryOrientation: {0x6c, 0xe0, 0x7a, 0xff},
	net.CategoryVelocity:    {0xff, 0x7a, 0xb6, 0xff},
	net.CategoryOther:       {0x5a, 0x62, 0x70, 0xff},
}

// hudLayout holds the faces and the heights of the two bars for one frame.
type hudLayout struct {
	pad                              float64
	bold, big, reg, small, smallBold *text.GoTextFace
	topH, botH                       int
}

// layout sizes the HUD for a w×h screen: the views fill what the top bar
// and the bottom panel leave.
func (a *App) layout(w, h int) hudLayout {
	// The bars take about 12.7 lines of body text; capping the size at
	// h/28 keeps them under 45 % of the screen however far the presenter
	// enlarges the text, so the views never shrink to a strip.
	body := math.Min(a.fonts.size(h), math.Floor(float64(h)/28))
	l := hudLayout{
		pad:       math.Round(body * 0.5),
		bold:      a.fonts.face(a.fonts.bold, body),
		big:       a.fonts.face(a.fonts.bold, math.Round(body*1.25)),
		reg:       a.fonts.face(a.fonts.regular, body),
		small:     a.fonts.face(a.fonts.regular, math.Round(body*0.8)),
		smallBold: a.fonts.face(a.fonts.bold, math.Round(body*0.8)),
	}
	l.topH = int(l.pad*2 + lineHeight(l.big) + lineHeight(l.small))
	l.botH = int(l.pad*2 + lineHeight(l.reg)*6.2)
	return l
}

func (a *App) drawHUD(dst *ebiten.Image, l hudLayout, lr, rr image.Rectangle) {
	w, h := dst.Bounds().Dx(), dst.Bounds().Dy()
	pad, bold, big, reg, small, smallBold := l.pad, l.bold, l.big, l.reg, l.small, l.smallBold
	st := a.sess.Strategy()
	m := a.sess.Metrics()

	// Top bar.
	x := pad
	x += spans(dst, big, x, pad, span{entries[a.entry].label + "  " + entries[a.entry].name, colText})
	label(dst, fit("   "+st.Mode(), bold, float64(w)-pad-x), bold, x, pad+(big.Size-bold.Size)*0.8, colAccent)
	// Status at the right of the bar, the explanation in what it leaves.
	var status []span
	if a.paused {
		status = append(status, span{"PAUSED  ", colBad})
	} else if a.slow {
		status = append(status, span{"SLOW ×¼  ", colAccent})
	}
	if a.scriptOn {
		f := a.sess.Frame() - a.scriptStart
		status = append(status, span{fmt.Sprintf("script %s %.1f/%.1f s  ", a.opts.Script.Name,
			float64(f)/net.TicksPerSecond, float64(a.opts.Script.Length)/net.TicksPerSecond), colDim})
	}
	if a.recorder != nil {
		status = append(status, span{"● REC  ", colBad})
	}
	status = append(status, span{"H help", colAccent})
	sw := 0.0
	for _, s := range status {
		ww, _ := text.Measure(s.s, small, 0)
		sw += ww
	}
	spans(dst, small, float64(w)-pad-sw, pad+lineHeight(big), status...)
	label(dst, fit(st.Explain(), small, float64(w)-pad*3-sw), small, pad, pad+lineHeight(big), colDim)

	// View labels.
	viewLabel := func(r image.Rectangle, title, sub string, c color.Color) {
		sub = fit(sub, smallBold, float64(r.Dx())-pad*4-measure(title+"  ", smallBold))
		tw, _ := text.Measure(title+"  "+sub, smallBold, 0)
		y := float64(r.Min.Y) + pad*0.5
		panel(dst, image.Rect(r.Min.X+int(pad), int(y), r.Min.X+int(pad*3+tw), int(y+lineHeight(smallBold)+pad)))
		spans(dst, smallBold, float64(r.Min.X)+pad*2, y+pad*0.5, span{title, c}, span{"  " + sub, colDim})
	}
	viewLabel(lr, "LEFT", "the authoritative simulation you drive", colText)
	rightSub := "rebuilt only from packets"
	if a.overlays.Ghost && m.Valid {
		rightSub += " · green: the truth where it differs"
	}
	viewLabel(rr, "RIGHT", rightSub, colText)

	// Bottom panel: three columns.
	top := h - l.botH
	c1 := image.Rect(int(pad), top+int(pad), int(float64(w)*0.30), h-int(pad))
	c2 := image.Rect(c1.Max.X+int(pad*2), c1.Min.Y, int(float64(w)*0.66), c1.Max.Y)
	c3 := image.Rect(c2.Max.X+int(pad*2), c1.Min.Y, w-int(pad), c1.Max.Y)
	a.drawNetworkColumn(dst, c1, bold, reg, small, m)
	a.drawBandwidthColumn(dst, c2, big, small, m, st)
	a.drawErrorColumn(dst, c3, bold, reg, small, m)

	// A transient note above the bottom panel.
	if a.noteTicks > 0 {
		tw, th := text.Measure(a.note, bold, 0)
		x := float64(w)/2 - tw/2
		y := float64(top) - th - pad*2
		panel(dst, image.Rect(int(x-pad), int(y-pad*0.5), int(x+tw+pad), int(y+th+pad*0.5)))
		label(dst, a.note, bold, x, y, colAccent)
	}
}

func (a *App) drawNetworkColumn(dst *ebiten.Image, r image.Rectangle, bold, reg, small *text.GoTextFace, m *game.Metrics) {
	x, y := float64(r.Min.X), float64(r.Min.Y)
	link := a.sess.Link()
	spans(dst, bold, x, y, span{"Network ", colDim}, span{a.linkName(), colAccent})
	y += lineHeight(bold)
	// The numbers of a busy preset are long: drop to the small face rather
	// than run into the next column.
	desc := describeLink(link)
	face := reg
	if measure(desc, reg) > float64(r.Dx()) {
		face = small
		desc = fit(desc, small, float64(r.Dx()))
	}
	label(dst, desc, face, x, y+(reg.Size-face.Size)*0.8, colText)
	y += lineHeight(reg)
	rtt := "RTT —"
	if m.HasRTT {
		rtt = fmt.Sprintf("RTT %.0f ms", m.RTTms)
	}
	label(dst, fit(rtt+fmt.Sprintf("  ·  measured loss %.1f %%", 100*m.Loss), reg, float64(r.Dx())), reg, x, y, colText)
	y += lineHeight(reg)
	label(dst, fit(fmt.Sprintf("packets sent %d · delivered %d · lost %d", m.PacketsSent, m.PacketsDelivered, m.PacketsLost), small, float64(r.Dx())), small, x, y, colDim)
	y += lineHeight(small)
	if a.sess.InOutage() {
		label(dst, "OUTAGE: every packet is dropped", bold, x, y, colBad)
	} else if m.Rejected > 0 {
		label(dst, fmt.Sprintf("%d packets rejected by the decoder", m.Rejected), small, x, y, colBad)
	}
}

func (a *App) drawBandwidthColumn(dst *ebiten.Image, r image.Rectangle, big, small *text.GoTextFace, m *game.Metrics, st game.Strategy) {
	x, y := float64(r.Min.X), float64(r.Min.Y)
	budget, budgetName := float64(articleTargetKbps), "article's target"
	if b, ok := st.(budgeted); ok {
		var on bool
		budget, on = b.BudgetKbps()
		budgetName = "budget"
		if !on {
			budgetName = "budget (not kept)"
		}
	}
	kc := colGood
	if m.SentKbps > budget*1.02 {
		kc = colBad
	}
	w := spans(dst, big, x, y, span{formatKbps(m.SentKbps), kc})
	label(dst, fit(fmt.Sprintf("  sent, headers included · %s %s", budgetName, formatKbps(budget)), small, float64(r.Dx())-w), small, x+w, y+big.Size-small.Size, colDim)
	y += lineHeight(big)
	if facts := strategyFacts(st); facts != "" {
		label(dst, fit(facts, small, float64(r.Dx())), small, x, y, colText)
		y += lineHeight(small)
	}
	// Graph of the last 10 s.
	barH := int(small.Size * 1.1)
	legendH := int(lineHeight(small))
	g := image.Rect(int(x), int(y), r.Max.X, r.Max.Y-barH-legendH-int(small.Size*0.4))
	yMax := niceCeil(math.Max(budget*1.25, a.kbps.max()*1.1))
	a.mesh.graph(dst, g, a.kbps, yMax, budget)
	labelRight(dst, formatKbps(yMax), small, float64(g.Max.X)-2, float64(g.Min.Y), colDim)
	label(dst, "last 10 s", small, float64(g.Min.X)+2, float64(g.Min.Y), colDim)
	// Where the bits of the last second went.
	bar := image.Rect(g.Min.X, r.Max.Y-barH-legendH, g.Max.X, r.Max.Y-legendH)
	a.drawBitsBar(dst, bar, small, &m.SecondBits, float64(r.Max.Y-legendH))
}

// drawBitsBar draws the bits per category as a stacked bar with a legend
// of the largest shares under it.
func (a *App) drawBitsBar(dst *ebiten.Image, r image.Rectangle, small *text.GoTextFace, b *net.Breakdown, legendY float64) {
	total := b.Total()
	if total == 0 {
		label(dst, "no packets in the last second", small, float64(r.Min.X), float64(r.Min.Y), colDim)
		return
	}
	x := float32(r.Min.X)
	wTotal := float32(r.Dx())
	for c := net.Category(0); c < net.NumCategories; c++ {
		bw := wTotal * float32(b.Bits(c)) / float32(total)
		if bw <= 0 {
			continue
		}
		a.mesh.mesh.Polygon([]scene.Point{{X: x, Y: float32(r.Min.Y)}, {X: x + bw, Y: float32(r.Min.Y)},
			{X: x + bw, Y: float32(r.Max.Y)}, {X: x, Y: float32(r.Max.Y)}}, rgba(categoryColours[c]))
		x += bw
	}
	a.mesh.flush(dst)
	// Legend: categories by share, largest first, while they fit.
	var order []net.Category
	for c := net.Category(0); c < net.NumCategories; c++ {
		if b.Bits(c) > 0 {
			order = append(order, c)
		}
	}
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && b.Bits(order[j]) > b.Bits(order[j-1]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	lx := float64(r.Min.X)
	for _, c := range order {
		s := fmt.Sprintf("■ %s %.0f%%  ", c, 100*float64(b.Bits(c))/float64(total))
		tw, _ := text.Measure(s, small, 0)
		if lx+tw > float64(r.Max.X) {
			break
		}
		label(dst, s, small, lx, legendY, categoryColours[c])
		lx += tw
	}
}

func (a *App) drawErrorColumn(dst *ebiten.Image, r image.Rectangle, bold, reg, small *text.GoTextFace, m *game.Metrics) {
	x, y := float64(r.Min.X), float64(r.Min.Y)
	if m.Valid {
		ec := colGood
		if m.PosMaxCm > 10 {
			ec = colBad
		} else if m.PosMaxCm > 2 {
			ec = colAccent
		}
		ew := spans(dst, bold, x, y, span{"Error ", colDim})
		label(dst, fit(fmt.Sprintf("%.1f cm RMS · %.1f cm max · %.1f°", m.PosRMSCm, m.PosMaxCm, m.OrientMaxDeg), bold, float64(r.Dx())-ew), bold, x+ew, y, ec)
		y += lineHeight(bold)
		label(dst, fit(fmt.Sprintf("vs. the left %.0f ms ago, the moment the right shows", m.DelayMs), small, float64(r.Dx())), small, x, y, colDim)
	} else {
		label(dst, fit("Error: waiting for the right to show something", bold, float64(r.Dx())), bold, x, y, colDim)
		y += lineHeight(bold)
	}
	y += lineHeight(small) + small.Size*0.3
	tl := image.Rect(int(x), int(y), r.Max.X, r.Max.Y)
	a.drawTimeline(dst, tl, small)
}

// timelineTicks is the span of the packet timeline.
const timelineSpan = 2 * net.TicksPerSecond

// drawTimeline draws the last two seconds of packets as lines from the
// left lane (sent) to the right lane (arrived): green delivered, white
// still in flight, red lost, orange dropped by an outage or a full queue;
// a blue mark on the left lane means the left has its ack.
func (a *App) drawTimeline(dst *ebiten.Image, r image.Rectangle, small *text.GoTextFace) {
	a.timeline = a.sess.Timeline(a.timeline[:0])
	now := a.sess.Frame()
	lw, _ := text.Measure("right ", small, 0)
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
	for _, p := range a.timeline {
		if now-p.Sent > timelineSpan {
			continue
		}
		xs := xAt(float64(p.Sent))
		from := scene.Point{X: xs, Y: yTop}
		switch p.Fate {
		case net.FateDelivered:
			me.Line(from, scene.Point{X: xAt(float64(p.Arrival)), Y: yBot}, 1.5, rgba(colGood))
		case net.FateInFlight:
			u := float32(1)
			if p.Arrival > p.Sent {
				u = float32(now-p.Sent) / float32(p.Arrival-p.Sent)
			}
			u = min(1, max(0, u))
			end := scene.Point{X: xs + (xAt(float64(p.Arrival))-xs)*u, Y: yTop + (yBot-yTop)*u}
			me.Line(from, end, 1.5, rgba(colText))
		case net.FateLost:
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
	a.mesh.flush(dst)
}

// measure is the width of s in face.
func measure(s string, face text.Face) float64 {
	w, _ := text.Measure(s, face, 0)
	return w
}

// fit shortens s with an ellipsis until it is at most width wide.
func fit(s string, face text.Face, width float64) string {
	if measure(s, face) <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && measure(string(r)+"…", face) > width {
		r = r[:len(r)-1]
	}
	return string(r) + "…"
}

// formatKbps writes a bandwidth with a sensible unit.
func formatKbps(k float64) string {
	if k >= 1000 {
		return fmt.Sprintf("%.2f Mbit/s", k/1000)
	}
	return fmt.Sprintf("%.0f kbit/s", k)
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

// splitColumns deals whole groups of heights hs, in order, into cols
// columns so that the tallest column is as short as possible. It returns
// the index of the first group of each column and that tallest height.
// There are a handful of groups, so trying every split is cheap.
func splitColumns(hs []float64, cols int) ([]int, float64) {
	best, bestH := []int(nil), math.Inf(1)
	starts := make([]int, cols)
	var try func(c, from int)
	try = func(c, from int) {
		starts[c] = from
		if c == cols-1 {
			tallest, col := 0.0, 0
			sum := 0.0
			for g := range hs {
				if col+1 < cols && g == starts[col+1] {
					tallest, sum, col = math.Max(tallest, sum), 0, col+1
				}
				sum += hs[g]
			}
			tallest = math.Max(tallest, sum)
			if tallest < bestH {
				best, bestH = append([]int(nil), starts...), tallest
			}
			return
		}
		for next := from + 1; next <= len(hs)-(cols-1-c); next++ {
			try(c+1, next)
		}
	}
	try(0, 0)
	return best, bestH
}

// drawHelp draws every key of the key table over the views, in a panel
// sized to its text: whole groups dealt into one to three columns,
// whichever lets the text be larger, and the text shrunk only when even
// that does not fit the screen.
func (a *App) drawHelp(dst *ebiten.Image) {
	w, h := dst.Bounds().Dx(), dst.Bounds().Dy()
	groups := helpGroups()
	// Measure at the base size; every length scales with the font size.
	base := a.fonts.size(h) * 0.8
	keyFace := a.fonts.face(a.fonts.bold, base)
	txt := a.fonts.face(a.fonts.regular, base)
	head := a.fonts.face(a.fonts.bold, base*1.1)
	lh, hh := lineHeight(txt), lineHeight(head)
	keyW, helpW := 0.0, 0.0
	hs := make([]float64, len(groups))
	for g, gr := range groups {
		hs[g] = hh + lh*float64(len(gr.rows)) + lh*0.4
		for _, k := range gr.rows {
			keyW = math.Max(keyW, measure(k.Key, keyFace))
			helpW = math.Max(helpW, measure(k.Help, txt))
		}
	}
	keyGap, colGap, pad := base*1.2, base*2.5, base*1.2
	colW := keyW + keyGap + helpW
	title := "Keys  ·  H or F1 closes this"
	titleH := hh * 1.4
	availW, availH := float64(w)*0.96, float64(h)*0.94
	var starts []int
	var scale, contentW, contentH float64
	for cols := 1; cols <= 3 && cols <= len(groups); cols++ {
		st, tallest := splitColumns(hs, cols)
		cw := float64(cols)*colW + float64(cols-1)*colGap + 2*pad
		ch := tallest + titleH + 2*pad
		sc := math.Min(1, math.Min(availW/cw, availH/ch))
		if sc > scale+1e-9 {
			starts, scale, contentW, contentH = st, sc, cw, ch
		}
	}
	if starts == nil {
		return
	}
	// Draw at the chosen size.
	size := base * scale
	keyFace = a.fonts.face(a.fonts.bold, size)
	txt = a.fonts.face(a.fonts.regular, size)
	head = a.fonts.face(a.fonts.bold, size*1.1)
	lh, hh = lineHeight(txt), lineHeight(head)
	x0 := (float64(w) - contentW*scale) / 2
	y0 := (float64(h) - contentH*scale) / 2
	r := image.Rect(int(x0), int(y0), int(x0+contentW*scale), int(y0+contentH*scale))
	vector.FillRect(dst, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), colHelp, false)
	// An outline, so the panel's edge shows where it lies over the HUD.
	vector.StrokeRect(dst, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), float32(math.Max(1, size/10)), colGridDim, false)
	label(dst, title, head, x0+pad*scale, y0+pad*scale, colText)
	top := y0 + pad*scale + titleH*scale
	col := -1
	var x, y float64
	for g, gr := range groups {
		if col+1 < len(starts) && g == starts[col+1] {
			col++
			x, y = x0+pad*scale+float64(col)*(colW+colGap)*scale, top
		}
		label(dst, strings.ToUpper(gr.name), head, x, y, colAccent)
		y += hh
		for _, k := range gr.rows {
			label(dst, k.Key, keyFace, x, y, colText)
			label(dst, k.Help, txt, x+(keyW+keyGap)*scale, y, colDim)
			y += lh
		}
		y += lh * 0.4
	}
}
