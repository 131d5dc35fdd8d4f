package ui

import (
	"cmp"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"netcubes/game"
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
const articleTargetKbps = 256

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
	modeLines                             []string
	topH, botH                            int
	cut                                   []string // key text that did not fit (a test wants none)
}

// hudMaxShare is the most of the window height the two bars may take: the
// presenter may enlarge the text, but the views must stay the picture.
const hudMaxShare = 0.5

// layout sizes the HUD for a w×h screen: the views fill what the top bar
// and the bottom panel leave. The body text is 1/38 of the height times
// the text scale and the key figures 1.6 times that (1/24 of the height at
// scale 1, above the 1/25 the back row needs); when the bars would take
// more than hudMaxShare of the window, everything shrinks together.
func (a *App) layout(w, h int) hudLayout {
	body := a.fonts.size(h)
	var l hudLayout
	for range 12 {
		l = a.layoutAt(w, h, body)
		if float64(l.topH+l.botH) <= hudMaxShare*float64(h) {
			break
		}
		body = math.Floor(body * 0.92)
	}
	return l
}

func (a *App) layoutAt(w, h int, body float64) hudLayout {
	l := hudLayout{
		pad:       math.Round(body * 0.5),
		bold:      a.fonts.face(a.fonts.bold, body),
		big:       a.fonts.face(a.fonts.bold, math.Round(body*1.25)),
		fig:       a.fonts.face(a.fonts.bold, math.Round(body*1.6)),
		reg:       a.fonts.face(a.fonts.regular, body),
		small:     a.fonts.face(a.fonts.regular, math.Round(body*0.8)),
		smallBold: a.fonts.face(a.fonts.bold, math.Round(body*0.8)),
	}
	st := a.shownStrategy()
	titleW := measure(describeEntry(a.sess.StrategyIndex(), st)+"   ", l.big)
	l.modeLines = wrapParts(splitParts(st.Mode()), " · ", l.bold, float64(w)-l.pad*2-titleW, float64(w)-l.pad*2)
	for _, ln := range l.modeLines {
		if measure(ln, l.bold) > float64(w)-l.pad*2 {
			l.cut = append(l.cut, ln)
		}
	}
	l.topH = int(l.pad*2 + lineHeight(l.big) + lineHeight(l.bold)*float64(len(l.modeLines)-1) + lineHeight(l.small))
	hs, cut := a.drawBottom(nil, l, w, 0)
	l.cut = append(l.cut, cut...)
	l.botH = int(l.pad*2 + max(hs[0], hs[1], hs[2]))
	return l
}

func (a *App) drawHUD(dst *ebiten.Image, l hudLayout, lr, rr image.Rectangle) {
	w, h := dst.Bounds().Dx(), dst.Bounds().Dy()
	pad, bold, big, small, smallBold := l.pad, l.bold, l.big, l.small, l.smallBold
	st := a.shownStrategy()
	m := a.sess.Metrics()

	// Top bar: the strategy, its settings (wrapped, never cut), and a line
	// of explanation with the status at its right.
	x := pad
	x += spans(dst, big, x, pad, span{describeEntry(a.sess.StrategyIndex(), st) + "   ", colText})
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
		label(dst, ln, bold, x, my, colAccent)
	}
	explainY := pad + lineHeight(big) + lineHeight(bold)*float64(len(l.modeLines)-1)
	var status []span
	if a.paused {
		status = append(status, span{"PAUSED  ", colBad})
	} else if a.slow {
		status = append(status, span{"SLOW ×¼  ", colAccent})
	}
	if a.scriptOn {
		f := a.sess.Frame() - a.scriptStart
		status = append(status, span{fmt.Sprintf("script %s %.1f/%.1f s  ", a.opts.Script.Name,
			float64(f)/wire.TicksPerSecond, float64(a.opts.Script.Length)/wire.TicksPerSecond), colDim})
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
	spans(dst, small, float64(w)-pad-sw, explainY, status...)
	label(dst, fit(st.Explain(), small, float64(w)-pad*3-sw), small, pad, explainY, colDim)

	// View labels.
	viewLabel := func(r image.Rectangle, title, sub string, c color.Color) {
		sub = fit(sub, smallBold, float64(r.Dx())-pad*4-measure(title+"  ", smallBold))
		tw, _ := text.Measure(title+"  "+sub, smallBold, 0)
		y := float64(r.Min.Y) + pad*0.5
		panel(dst, image.Rect(r.Min.X+int(pad), int(y), r.Min.X+int(pad*3+tw), int(y+lineHeight(smallBold)+pad)))
		spans(dst, smallBold, float64(r.Min.X)+pad*2, y+pad*0.5, span{title, c}, span{"  " + sub, colDim})
	}
	leftSub, rightSub := "the authoritative simulation you drive", "rebuilt only from packets"
	switch a.opts.Session.Role {
	case game.RoleLeft:
		leftSub = "the authoritative simulation, this process; the right is another"
	case game.RoleRight:
		rightSub = "rebuilt only from UDP datagrams; the left is another process"
	}
	if a.overlays.Ghost && m.Valid {
		rightSub += " · green: the truth where it differs"
	}
	leftTitle, rightTitle := "LEFT", "RIGHT"
	if rd, ok := a.sess.Strategy().(strategy.RightDriven); ok {
		// The right owns the player: the strategy names the two sides.
		leftTitle, leftSub, rightTitle, rightSub = rd.SideLabels()
	}
	if n := a.sess.NumClients(); n > 1 || a.sess.Role() == game.RoleRight && a.sess.NumPlayers() > 1 {
		// Several clients: the right is one client's screen; say whose.
		k := a.sess.Shown()
		id := a.sess.ClientID(k)
		rightTitle += fmt.Sprintf(" · CLIENT %d", id+1)
		rightSub = strings.TrimPrefix(a.clientTitle(k), fmt.Sprintf("client %d · ", id+1))
		if n > 1 {
			rightTitle += fmt.Sprintf(" of %d", n)
			rightSub += " · Tab: next"
			leftSub = fmt.Sprintf("the server: %d players, %d clients", a.sess.NumPlayers(), n)
		}
	}
	if !lr.Empty() {
		viewLabel(lr, leftTitle, leftSub, colText)
	}
	var legend image.Rectangle
	if !rr.Empty() {
		viewLabel(rr, rightTitle, rightSub, colText)
		legend = a.drawOverlayLegend(dst, rr, l)
	}
	// Where the field is, when a view's player has left it.
	for _, v := range []struct {
		r image.Rectangle
		m *viewmodel.View
	}{{lr, a.sess.LeftView()}, {rr, a.sess.RightView()}} {
		if v.r.Empty() || v.m.Player < 0 || v.m.Player >= len(v.m.Cubes) {
			continue
		}
		if s, ok := offField(v.m.Cubes[v.m.Player].Position); ok {
			s = fit(s, bold, float64(v.r.Dx())-pad*4)
			tw := measure(s, bold)
			x := float64(v.r.Min.X) + (float64(v.r.Dx())-tw)/2
			y := float64(v.r.Min.Y) + lineHeight(smallBold) + pad*2.5
			panel(dst, image.Rect(int(x-pad), int(y-pad*0.5), int(x+tw+pad), int(y+lineHeight(bold)+pad*0.2)))
			label(dst, s, bold, x, y, colAccent)
		}
	}

	// Bottom panel: three columns.
	top := h - l.botH
	a.drawBottom(dst, l, w, top)
	_ = m

	// A transient note above the bottom panel.
	if a.noteTicks > 0 {
		tw, th := text.Measure(a.note, bold, 0)
		x := float64(w)/2 - tw/2
		y := noteY(float64(top)-th-pad*2, x-pad, x+tw+pad, th, pad, legend)
		panel(dst, image.Rect(int(x-pad), int(y-pad*0.5), int(x+tw+pad), int(y+th+pad*0.5)))
		label(dst, a.note, bold, x, y, colAccent)
	}
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

// describeRTT writes the round trip the left measures from acks and, in
// one process, what it is made of: the link's share is known and the rest
// is ticks (a packet sent after the left's step is read at the right's
// next half-tick and its ack leaves with the next tick's ack packet), so
// even a 0 ms link measures 17 ms, one tick. The HUD says so rather than
// leave "RTT 17 ms" on a perfect link unexplained.
func describeRTT(m *viewmodel.Metrics, lc link.Config, oneProcess bool) (rtt, why string) {
	if !m.HasRTT {
		return "RTT —", ""
	}
	rtt = fmt.Sprintf("RTT %.0f ms", m.RTTms)
	if !oneProcess {
		return rtt, ""
	}
	ticks := int(math.Round((m.RTTms - 2*lc.LatencyMs) * wire.TicksPerSecond / 1000))
	if ticks < 0 {
		return rtt, ""
	}
	return rtt, fmt.Sprintf("RTT = 2 × %.0f ms on the link + %s (packets and acks leave once a tick)", lc.LatencyMs, viewmodel.Plural(ticks, "tick"))
}

// drawBottom writes the bottom panel's three columns onto dst, or only
// measures them when dst is nil, and returns each column's height and the
// key text that did not fit.
func (a *App) drawBottom(dst *ebiten.Image, l hudLayout, w, top int) (hs [3]float64, cut []string) {
	pad := l.pad
	y0 := float64(top) + pad
	bottom := float64(top+l.botH) - pad
	x1, x2 := math.Floor(float64(w)*0.30), math.Floor(float64(w)*0.66)
	cols := [3]colWriter{
		{dst: dst, x: pad, y: y0, w: x1 - pad},
		{dst: dst, x: x1 + pad*2, y: y0, w: x2 - x1 - pad*2},
		{dst: dst, x: x2 + pad*2, y: y0, w: float64(w) - x2 - pad*3},
	}
	m := a.sess.Metrics()
	a.networkColumn(&cols[0], l, m)
	a.bandwidthColumn(&cols[1], l, m, bottom)
	a.errorColumn(&cols[2], l, m, bottom)
	for i := range cols {
		hs[i] = cols[i].y - y0
		cut = append(cut, cols[i].cut...)
	}
	return hs, cut
}

// describeLoss is the loss key figure and, when it needs one, a note. The
// left measures loss from acks: a packet the right's acks never mention
// counts as lost. On a TCP-like link every packet arrives, some of them
// late behind a retransmission, and their acks can come too late for the
// ack window (measured: 5 % link loss read as 10-24 % over 20 s, with
// every packet delivered), so there the figure says "unacked" and a note
// says why it is not loss.
func describeLoss(m *viewmodel.Metrics, lc link.Config) (figure, note string) {
	if lc.TCPLike {
		return fmt.Sprintf("unacked %.1f %%", 100*m.Loss), "TCP-like: nothing is lost, acks come late"
	}
	return fmt.Sprintf("loss %.1f %%", 100*m.Loss), ""
}

// networkColumn: the conditions (preset, what is real in two processes),
// then the measured RTT and loss as key figures, then the counters.
func (a *App) networkColumn(c *colWriter, l hudLayout, m *viewmodel.Metrics) {
	lc := a.sess.Link()
	lw := c.lineAt(0, "Network ", l.bold, colDim, false)
	c.lineAt(lw, a.linkName(), l.bold, colAccent, false)
	c.y += lineHeight(l.bold)
	status, refused := a.netLines()
	if status != "" {
		// Two processes: what is real, and that the numbers below are
		// simulated on top of it.
		c.line(status, l.small, colAccent, false)
		c.line("simulated on top:", l.small, colDim, false)
	}
	// The numbers of a busy preset are long: drop to the small face rather
	// than run into the next column.
	desc := describeLink(lc)
	face := l.reg
	if measure(desc, l.reg) > c.w {
		face = l.small
	}
	c.line(desc, face, colText, false)
	rtt, why := describeRTT(m, lc, a.sess.Role() == game.RoleBoth)
	loss, lossNote := describeLoss(m, lc)
	c.figures("", []string{rtt, loss}, l.fig, colText)
	if why != "" {
		c.line(why, l.small, colDim, false)
	}
	if lossNote != "" {
		c.line(lossNote, l.small, colDim, false)
	}
	packets := fmt.Sprintf("packets sent %d · delivered %d · lost %d", m.PacketsSent, m.PacketsDelivered, m.PacketsLost)
	if a.sess.Role() == game.RoleRight {
		packets = fmt.Sprintf("packets received %d", m.PacketsReceived)
	}
	c.line(packets, l.small, colDim, false)
	switch {
	case a.sess.InOutage():
		c.line("OUTAGE: all packets lost", l.bold, colBad, false)
	case refused != "":
		c.line(refused, l.small, colBad, false)
	case m.Rejected > 0:
		c.line(viewmodel.Plural(int(m.Rejected), "packet")+" rejected by the decoder", l.small, colBad, false)
	}
}

// bandwidthColumn: kbit/s as the key figure, the strategy's own figures,
// the last 10 s against the budget and where the last second's bits went.
func (a *App) bandwidthColumn(c *colWriter, l hudLayout, m *viewmodel.Metrics, bottom float64) {
	st := a.shownStrategy()
	small := l.small
	budget, budgetName := float64(articleTargetKbps), "target"
	if b, ok := st.(strategy.Budgeted); ok {
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
	verb, facts := "sent", strategyFacts(st)
	if a.sess.Role() == game.RoleRight {
		// A right process receives; the sender's figures are the left's,
		// which its control datagrams carry.
		verb, facts = "received", a.sess.Remote().Facts
		if facts != "" {
			facts = "left: " + facts
		}
		if rf, ok := st.(strategy.RightFacts); ok {
			facts = rf.RightFacts()
		}
	}
	wk := c.lineAt(0, formatKbps(m.SentKbps), l.fig, kc, true)
	trailer := fmt.Sprintf("%s with headers · %s %s", verb, budgetName, formatKbps(budget))
	if measure("  "+trailer, small) <= c.w-wk {
		y := c.y
		c.y += l.fig.Size - small.Size
		c.lineAt(wk, "  "+trailer, small, colDim, false)
		c.y = y + lineHeight(l.fig)
	} else {
		c.y += lineHeight(l.fig)
		c.line(trailer, small, colDim, false)
	}
	if m.Clients > 1 {
		c.line(fmt.Sprintf("client %d's link · the server sends %s to %d clients", a.sess.Shown()+1,
			formatKbps(m.ServerSentKbps), m.Clients), small, colDim, false)
	}
	if facts != "" {
		c.line(facts, small, colText, false)
	}
	// Graph of the last 10 s (its labels on a line of their own above it,
	// so the line never runs through them), then the bits bar and its
	// legend (every category present, on two lines when one is not
	// enough): they take what the column has left, and at least three
	// lines for the graph.
	barH := math.Round(small.Size * 1.1)
	legendH := math.Round(lineHeight(small) * 2)
	labelH := lineHeight(small)
	minGraph := 3 * lineHeight(small)
	if c.dst == nil {
		c.y += labelH + minGraph + small.Size*0.4 + barH + legendH
		return
	}
	yMax := niceCeil(math.Max(budget*1.25, a.kbps.max()*1.1))
	labelRight(c.dst, formatKbps(yMax)+" at the top", small, c.x+c.w-2, c.y, colDim)
	label(c.dst, "last 10 s", small, c.x+2, c.y, colDim)
	g := image.Rect(int(c.x), int(c.y+labelH), int(c.x+c.w), int(bottom-barH-legendH-small.Size*0.4))
	a.mesh.graph(c.dst, g, a.kbps, yMax, budget)
	bar := image.Rect(g.Min.X, int(bottom-barH-legendH), g.Max.X, int(bottom-legendH))
	a.drawBitsBar(c.dst, bar, small, &m.SecondBits, bottom-legendH)
	c.y = bottom
}

// errorColumn: the error against the truth as the key figures (wrapped
// between RMS, max and angle, never cut), what it is measured against,
// and the packet timeline.
func (a *App) errorColumn(c *colWriter, l hudLayout, m *viewmodel.Metrics, bottom float64) {
	small := l.small
	if m.Valid {
		ec := colGood
		if m.PosMaxCm > 10 {
			ec = colBad
		} else if m.PosMaxCm > 2 {
			ec = colAccent
		}
		c.figures("Error ", []string{fmt.Sprintf("%.1f cm RMS", m.PosRMSCm), fmt.Sprintf("%.1f cm max", m.PosMaxCm), fmt.Sprintf("%.1f°", m.OrientMaxDeg)}, l.fig, ec)
		vs := fmt.Sprintf("vs. the left %.0f ms ago, the moment the right shows", m.DelayMs)
		switch {
		case m.ErrorOf != "":
			vs = m.ErrorOf
		case a.opts.Session.Role == game.RoleRight:
			vs = fmt.Sprintf("vs. the left's diagnostics (2 mm grid, outside the bandwidth) %.0f ms ago", m.DelayMs)
		}
		c.line(vs, small, colDim, false)
	} else {
		wait := "Error: waiting for the right to show something"
		if a.opts.Session.Role == game.RoleLeft {
			wait = "Error: measured on the right (its own process)"
		}
		c.line(wait, l.bold, colDim, false)
		c.y += lineHeight(small)
	}
	c.y += small.Size * 0.3
	if c.dst == nil {
		c.y += 3 * lineHeight(small)
		return
	}
	a.drawTimeline(c.dst, image.Rect(int(c.x), int(c.y), int(c.x+c.w), int(bottom)), small)
	c.y = bottom
}

// legendEntry is one category of the bits bar's legend, placed.
type legendEntry struct {
	text string
	cat  wire.Category
	x    float64 // from the legend's left edge
	line int     // 0 or 1
}

// bitsLegend lays out the bits bar's legend in width: every category on
// the bar, largest share first, on as many as two lines; on the second
// line the smallest shares drop their figure rather than be left out.
func bitsLegend(b *wire.Breakdown, face text.Face, width float64) []legendEntry {
	total := b.Total()
	var order []wire.Category
	for c := wire.Category(0); c < wire.NumCategories; c++ {
		if b.Bits(c) > 0 {
			order = append(order, c)
		}
	}
	slices.SortStableFunc(order, func(x, y wire.Category) int { return cmp.Compare(b.Bits(y), b.Bits(x)) })
	var out []legendEntry
	x, line := 0.0, 0
	for _, c := range order {
		s := fmt.Sprintf("■ %s %.0f%%  ", c, 100*float64(b.Bits(c))/float64(total))
		w := measure(s, face)
		if x+w > width && line == 0 {
			x, line = 0, 1
		}
		if x+w > width {
			s = "■ " + c.String() + "  "
			if w = measure(s, face); x+w > width {
				break
			}
		}
		out = append(out, legendEntry{text: s, cat: c, x: x, line: line})
		x += w
	}
	return out
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

// helpPanel is where and how large the help overlay is drawn.
type helpPanel struct {
	rect           image.Rectangle
	starts         []int   // the first group of each column
	size           float64 // the body text size
	keyW, colW     float64 // at size: the widest key, one column
	keyGap, colGap float64
	pad, titleH    float64
}

// helpLayout fits the key table into the band between the top bar and the
// bottom HUD (l's heights), so the panel never covers the figures it
// explains (the stage report: "Network perfect" and the RTT line showed
// through its edge): whole groups dealt into one to three columns,
// whichever lets the text be larger, shrunk only when even that does not
// fit. ok is false when there is no room at all.
func (a *App) helpLayout(w, h int, l hudLayout) (p helpPanel, ok bool) {
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
		hs[g] = hh + lh*float64(len(gr.rows)) + lh*helpGroupGap
		for _, k := range gr.rows {
			keyW = math.Max(keyW, measure(k.Key, keyFace))
			helpW = math.Max(helpW, measure(k.Help, txt))
		}
	}
	keyGap, colGap, pad := base*1.2, base*2.5, base*1.2
	colW := keyW + keyGap + helpW
	titleH := hh * 1.4
	bandTop, bandBot := l.topH, h-l.botH
	availW, availH := float64(w)*0.98, float64(bandBot-bandTop)*0.98
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
	if starts == nil || scale <= 0 {
		return p, false
	}
	x0 := math.Floor((float64(w) - contentW*scale) / 2)
	y0 := math.Floor(float64(bandTop) + (float64(bandBot-bandTop)-contentH*scale)/2)
	return helpPanel{
		rect:   image.Rect(int(x0), int(y0), int(x0+contentW*scale), int(y0+contentH*scale)),
		starts: starts, size: base * scale,
		keyW: keyW * scale, colW: colW * scale, keyGap: keyGap * scale, colGap: colGap * scale,
		pad: pad * scale, titleH: titleH * scale,
	}, true
}

// drawHelp draws every key of the key table in the panel helpLayout chose.
func (a *App) drawHelp(dst *ebiten.Image, l hudLayout) {
	w, h := dst.Bounds().Dx(), dst.Bounds().Dy()
	p, ok := a.helpLayout(w, h, l)
	if !ok {
		return
	}
	groups := helpGroups()
	size := p.size
	keyFace := a.fonts.face(a.fonts.bold, size)
	txt := a.fonts.face(a.fonts.regular, size)
	head := a.fonts.face(a.fonts.bold, size*1.1)
	lh, hh := lineHeight(txt), lineHeight(head)
	r := p.rect
	x0, y0 := float64(r.Min.X), float64(r.Min.Y)
	vector.FillRect(dst, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), colHelp, false)
	// An outline, so the panel's edge shows where it lies over the views.
	vector.StrokeRect(dst, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), float32(math.Max(1, size/10)), colGridDim, false)
	label(dst, "Keys  ·  H or F1 closes this", head, x0+p.pad, y0+p.pad, colText)
	top := y0 + p.pad + p.titleH
	col := -1
	var x, y float64
	for g, gr := range groups {
		if col+1 < len(p.starts) && g == p.starts[col+1] {
			col++
			x, y = x0+p.pad+float64(col)*(p.colW+p.colGap), top
		}
		label(dst, strings.ToUpper(gr.name), head, x, y, colAccent)
		y += hh
		for _, k := range gr.rows {
			label(dst, k.Key, keyFace, x, y, colText)
			label(dst, k.Help, txt, x+p.keyW+p.keyGap, y, colDim)
			y += lh
		}
		y += lh * helpGroupGap
	}
}

// helpGroupGap is the space after each group of the help, in lines: a
// quarter line still separates them, and with a dozen groups every tenth
// of a line counts at 1280 × 720 with the largest text.
const helpGroupGap = 0.25

// shownStrategy is the shown client's instance of the active strategy:
// its settings are the presenter's, its figures (stalls, desyncs, budget)
// its own.
func (a *App) shownStrategy() strategy.Strategy { return a.sess.ClientStrategy(a.sess.Shown()) }
