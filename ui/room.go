package ui

// The classroom (package room) on screen. On the host: the address to
// open, its QR code, and a table of every client (player, browser or bot,
// transport, RTT, loss, bandwidth). On a browser that joined: how it is
// connected, and over the WebSocket a large line on the lesson of TCP.

import (
	"fmt"
	"image"
	"image/color"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"netcubes/game"
	"netcubes/render"
	"netcubes/room"
	"netcubes/viewmodel"
	"netcubes/wire"
)

// Room is the classroom's part of the options.
type Room struct {
	// Transport is how this process joined a room (zero: it did not);
	// Fallback why it is not a data channel.
	Transport room.Transport
	Fallback  string
	// Host is the room this process hosts (nil: none); URL the address
	// to open, QR its QR code (true: a dark module).
	Host RoomHost
	URL  string
	QR   [][]bool
}

// RoomHost is what the screen reads of a hosted room (*room.Room).
type RoomHost interface {
	ForcesWebSocket() bool
	Open() int
	Peers() []room.Peer
	Counts() room.Counts
}

// tcpLesson is the large line a browser on the WebSocket shows.
const tcpLesson = "TCP: one lost packet holds back every later one"

// roomStatus is the network column's line about the real connection in a
// room (ok false: not in a room).
func (a *App) roomStatus() (string, bool) {
	r := a.opts.Room
	switch {
	case r.Host != nil:
		via := "data channels"
		if r.Host.ForcesWebSocket() {
			via = "WebSocket only (forced)"
		}
		return fmt.Sprintf("classroom at %s: %d browsers (%s)", r.URL, r.Host.Open(), via), true
	case r.Transport != 0:
		s := fmt.Sprintf("%s to the classroom at %s", r.Transport, a.opts.Connect)
		if r.Fallback != "" {
			s += " (" + r.Fallback + ")"
		}
		return s, true
	}
	return "", false
}

// drawRoom draws the room's panel over view r: on the host the address,
// its QR code and the clients; on a browser over TCP the lesson.
func (a *App) drawRoom(dst *ebiten.Image, l hudLayout, r image.Rectangle) {
	if r.Empty() {
		return
	}
	switch {
	case a.opts.Room.Host != nil:
		a.drawRoomHost(dst, l, r)
	case a.opts.Room.Transport == room.WebSocket:
		w := measure(tcpLesson, l.big)
		x := float64(r.Min.X) + (float64(r.Dx())-w)/2
		y := float64(r.Min.Y) + l.pad*2
		vector.FillRect(dst, float32(x-l.pad), float32(y-l.pad/2), float32(w+2*l.pad), float32(lineHeight(l.big)+l.pad),
			color.RGBA{90, 20, 20, 220}, false)
		label(dst, tcpLesson, l.big, x, y, colText)
	}
}

// roomHostPanel is where the host's table goes and what it holds.
type roomHostPanel struct {
	rows   []roomRow
	colW   [roomCols]float64
	module float64 // the QR code's module, pixels (0: no code)
	r      image.Rectangle
}

// roomHostLayout lays out the address, the QR code and the client table
// in the top right of the host's view r.
func (a *App) roomHostLayout(l hudLayout, r image.Rectangle) roomHostPanel {
	p := roomHostPanel{rows: a.roomRows(maxRoomRows(l, r, len(a.opts.Room.QR)))}
	lh := lineHeight(l.small)
	qr := a.opts.Room.QR
	// The QR code takes what the address and the table leave of the
	// view's height, up to 40 %; too small to scan (under 2 pixels a
	// module), it goes.
	if n := len(qr); n > 0 {
		free := float64(r.Dy()) - l.pad*5 - lineHeight(l.bold) - lh*float64(len(p.rows))
		p.module = float64(int(min(free, float64(r.Dy())*0.4)) / (n + 8))
		if p.module < 2 {
			p.module = 0
		}
	}
	qrSide := p.module * float64(len(qr)+8)
	tableW := 0.0
	for _, row := range p.rows {
		if len(row.cells) == 1 {
			tableW = max(tableW, measure(row.cells[0], l.small))
			continue
		}
		for i, c := range row.cells {
			p.colW[i] = max(p.colW[i], measure(c, l.small)+l.pad)
		}
	}
	sum := 0.0
	for _, w := range p.colW {
		sum += w
	}
	tableW = max(tableW, sum)
	urlW := measure("join: "+a.opts.Room.URL, l.bold)
	w := max(tableW, urlW, qrSide) + 2*l.pad
	h := l.pad*2 + lineHeight(l.bold) + qrSide + lh*float64(len(p.rows)) + l.pad
	x0 := float64(r.Max.X) - w - l.pad
	y0 := float64(r.Min.Y) + l.pad
	p.r = image.Rect(int(x0), int(y0), int(x0+w), int(y0+h))
	return p
}

// roomKeepOut is what the captions must not cover on the room host's view
// r: the table and the reported view's panel (none elsewhere).
func (a *App) roomKeepOut(l hudLayout, r image.Rectangle) (table, reported image.Rectangle) {
	if a.opts.Room.Host == nil || r.Empty() {
		return image.Rectangle{}, image.Rectangle{}
	}
	table = a.roomHostLayout(l, r).r
	return table, a.reportedLayout(l, r, table.Min.X).r
}

// drawRoomHost draws the address, the QR code and the client table in
// the top right of the host's view, and the shown client's view as it
// reported it in the bottom left.
func (a *App) drawRoomHost(dst *ebiten.Image, l hudLayout, r image.Rectangle) {
	p := a.roomHostLayout(l, r)
	lh := lineHeight(l.small)
	qr := a.opts.Room.QR
	qrSide := p.module * float64(len(qr)+8)
	x0, y0, w := float64(p.r.Min.X), float64(p.r.Min.Y), float64(p.r.Dx())
	panel(dst, p.r)
	y := y0 + l.pad
	label(dst, "join: "+a.opts.Room.URL, l.bold, x0+l.pad, y, colAccent)
	y += lineHeight(l.bold)
	if p.module > 0 {
		qx := x0 + (w-qrSide)/2
		vector.FillRect(dst, float32(qx), float32(y), float32(qrSide), float32(qrSide), color.White, false)
		for j, row := range qr {
			for i, dark := range row {
				if dark {
					vector.FillRect(dst, float32(qx+p.module*float64(i+4)), float32(y+p.module*float64(j+4)),
						float32(p.module), float32(p.module), color.Black, false)
				}
			}
		}
		y += qrSide + l.pad
	}
	for _, row := range p.rows {
		x := x0 + l.pad
		for i, c := range row.cells {
			label(dst, c, l.small, x, y, row.col)
			x += p.colW[i]
		}
		y += lh
	}
	a.drawReported(dst, l, r, p.r.Min.X)
}

// roomCols is the client table's columns: who and how it is connected,
// the host's figures of its link (from the acks), then its own figures
// as it reports them.
const roomCols = 10

var roomHeader = [roomCols]string{"client", "who", "via", "RTT", "loss", "kbit/s", "error", "lag", "ticks/s", "fps"}

type roomRow struct {
	cells []string // roomCols columns, or one line across
	col   color.RGBA
}

// maxRoomRows is how many client rows fit in view r under the address
// and a QR code of qr modules a side at 2 pixels a module (the smallest
// drawn): in a full room the table gives way to the code students join
// with.
func maxRoomRows(l hudLayout, r image.Rectangle, qr int) int {
	free := float64(r.Dy()) - l.pad*5 - lineHeight(l.bold) - float64(2*(qr+8))
	return max(4, int(free/lineHeight(l.small))-3)
}

// roomRows is the client table: a header, then a row per client (the
// players, then the spectators a right is watching as; the one Tab shows
// marked), at most limit of them around the shown one, then the room's
// refusals.
func (a *App) roomRows(limit int) []roomRow {
	rows := []roomRow{{roomHeader[:], colDim}}
	srv := a.sess.Server()
	var ks []int
	for k := range a.sess.NumClients() {
		if k < a.sess.NumPlayers() || k == a.sess.Shown() || srv != nil && srv.Slot(k).Connected {
			ks = append(ks, k)
		}
	}
	first := 0
	if len(ks) > limit {
		// A window of limit rows that holds the shown client.
		for i, k := range ks {
			if k == a.sess.Shown() {
				first = min(max(0, i-limit/2), len(ks)-limit)
			}
		}
	}
	for _, k := range ks[first:min(len(ks), first+limit)] {
		rows = append(rows, a.roomRow(k))
	}
	if hidden := len(ks) - min(len(ks), limit); hidden > 0 {
		rows = append(rows, roomRow{[]string{fmt.Sprintf("… %d more not shown (Tab goes through every client)", hidden)}, colDim})
	}
	c := a.opts.Room.Host.Counts()
	if c.BadToken+c.Full+c.Malformed+c.Busy > 0 {
		rows = append(rows, roomRow{[]string{fmt.Sprintf("refused: %d wrong token · %d full · %d malformed · %d too fast",
			c.BadToken, c.Full, c.Malformed, c.Busy)}, colBad})
	}
	return rows
}

// roomRow is client k's row.
func (a *App) roomRow(k int) roomRow {
	who, tr := a.clientWho(k)
	name := fmt.Sprintf("player %d", k+1)
	if k >= a.sess.NumPlayers() {
		name = fmt.Sprintf("watch %d", k+1-a.sess.NumPlayers())
	}
	cells := []string{name, who, tr, "-", "-", "-", "-", "-", "-", "-"}
	if who == "browser" || who == "app" {
		m := a.sess.ClientMetrics(k)
		if m.HasRTT {
			cells[3] = fmt.Sprintf("%.0f ms", m.RTTms)
		}
		cells[4], cells[5] = fmt.Sprintf("%.0f %%", m.Loss*100), fmt.Sprintf("%.0f", m.SentKbps)
		copy(cells[6:], reportCells(a.sess.ClientReport(k)))
	}
	col := colText
	if who != "browser" && who != "app" {
		col = colDim
	}
	if k == a.sess.Shown() {
		// Tab picks the client whose figures the HUD below shows, and
		// whose view the panel draws.
		cells[0], col = "▸ "+name, colAccent
	}
	return roomRow{cells, col}
}

// clientWho says who is in client k's slot (a browser, the desktop app,
// a bot or nobody) and over what.
func (a *App) clientWho(k int) (who, via string) {
	who, via = "bot", "-"
	if srv := a.sess.Server(); srv != nil && k < srv.MaxClients() {
		if slot := srv.Slot(k); slot.Connected {
			who, via = "app", "UDP"
			for _, p := range a.opts.Room.Host.Peers() {
				if p.Addr == slot.Addr {
					who, via = "browser", p.Transport.Short()
				}
			}
			return who, via
		}
	}
	if _, ok := a.sess.Bot(k); !ok || k >= a.sess.NumPlayers() {
		who = "-"
	}
	return who, via
}

// reportStale is when a client's report is too old to stand as current:
// it sends three a second.
const reportStale = 2 * wire.TicksPerSecond

// reportCells are the error, lag, ticks/s and fps columns of a report.
func reportCells(c game.ClientReport) []string {
	cells := []string{"-", "-", "-", "-"}
	switch {
	case !c.Has:
		cells[0] = "no report"
		return cells
	case c.AgeTicks > reportStale:
		cells[0] = fmt.Sprintf("silent %.0f s", float64(c.AgeTicks)/wire.TicksPerSecond)
		return cells
	}
	if c.HasError {
		cells[0] = fmt.Sprintf("%.1f cm", c.ErrRMSCm)
	}
	if c.HasDelay {
		cells[1] = fmt.Sprintf("%.0f ms", c.LagMs)
	}
	if c.HasRates {
		cells[2], cells[3] = fmt.Sprintf("%.0f", c.TPS), fmt.Sprintf("%.0f", c.FPS)
	}
	return cells
}

// reportedPanel is where the reported view's panel goes and what it holds.
type reportedPanel struct {
	lines  []string // wrapped
	textH  int
	vh     int // the view's height under the text (0: none)
	r      image.Rectangle
	v      *viewmodel.View
	hasAny bool // a panel at all
}

// reportedLayout lays out, in the bottom left of the host's view r (left
// of x1, where the table is), the view the shown client reported, under a
// line that says whose it is, how old and what it is made of; its top
// stays below the view's label and the caption of what just happened.
func (a *App) reportedLayout(l hudLayout, r image.Rectangle, x1 int) reportedPanel {
	k := a.sess.Shown()
	who, _ := a.clientWho(k)
	name := fmt.Sprintf("player %d", k+1)
	if k >= a.sess.NumPlayers() {
		name = fmt.Sprintf("watcher %d", k+1-a.sess.NumPlayers())
	}
	c := a.sess.ClientReport(k)
	v, ok := a.sess.ReportView(k)
	var lines []string
	switch {
	case who == "bot":
		lines = []string{fmt.Sprintf("Tab: %s: a bot drives it on the host, no client's view to show", name)}
	case who != "browser" && who != "app":
		lines = []string{fmt.Sprintf("Tab: %s: no client in this slot, no view to show", name)}
	case !c.Has:
		lines = []string{fmt.Sprintf("Tab: %s (%s) has not reported its view yet", name, who)}
	case !c.HasView:
		lines = []string{fmt.Sprintf("Tab: %s (%s) reports no view: it has no truth to compare it with yet (none with -diag-every 0)", name, who)}
	case !ok:
		lines = []string{fmt.Sprintf("Tab: %s (%s) shows a frame the host's history does not hold (older than %.0f s, or ahead of the host)", name, who,
			float64(a.sess.HistoryTicks())/wire.TicksPerSecond)}
	default:
		when := fmt.Sprintf("the server %.0f ms in the past", c.LagMs)
		rest := "the rest from the host's history of that frame"
		if c.AnyFrame {
			// The 2004 client: its player ahead, the rest behind.
			when = "no single frame (its player ahead, the rest behind)"
			rest = fmt.Sprintf("the rest from the host's history %.0f ms before the report (its newest truth)", c.BackMs)
		}
		lines = []string{
			fmt.Sprintf("%s's view, reported %.1f s ago: %s", name, float64(c.AgeTicks)/wire.TicksPerSecond, when),
			fmt.Sprintf("%d cubes as it drew them, %s (within 1 cm)", c.Sent, rest),
		}
		if c.Unsent > 0 {
			lines[1] += fmt.Sprintf("; %d more off by over 1 cm did not fit", c.Unsent)
		}
	}
	if c.Refused+c.Early > 0 {
		// Reports the host did not take, so a silent client is explained.
		lines = append(lines, fmt.Sprintf("reports: %d taken · %d malformed · %d too frequent", c.Taken, c.Refused, c.Early))
	}
	if c.Ahead > 0 {
		lines = append(lines, fmt.Sprintf("%d of its reports came from more than 2 s ahead of the host's clock: the host ticks slower than real time", c.Ahead))
	}
	var p reportedPanel
	lh := lineHeight(l.small)
	w := min(int(float64(r.Dx())*0.42), x1-r.Min.X-int(2*l.pad))
	if w < 50 {
		return p
	}
	for _, s := range lines {
		p.lines = append(p.lines, wrapParts(strings.Fields(s), " ", l.small, float64(w)-2*l.pad, float64(w)-2*l.pad)...)
	}
	p.textH = int(lh*float64(len(p.lines)) + 2*l.pad)
	// Below the view's label and the caption of what just happened, with
	// room above it for a note (left of the table, where a tall table
	// leaves no other place).
	top := captionBandBottom(l, r) + roomNoteReserve(l)
	if _, captioned := a.d.Caption(); ok && c.HasView && !captioned {
		// A track's caption takes the view's place while it shows: the
		// table leaves it no other room on most screens.
		p.vh, p.v = max(min(w*9/16, r.Max.Y-int(l.pad)-p.textH-int(top+l.pad)), 0), v
	}
	h := p.textH + p.vh
	x0, y0 := r.Min.X+int(l.pad), r.Max.Y-int(l.pad)-h
	p.r, p.hasAny = image.Rect(x0, y0, x0+w, y0+h), true
	return p
}

// captionBandBottom is the y under view r's label and the caption of what
// just happened (drawn under it).
func captionBandBottom(l hudLayout, r image.Rectangle) float64 {
	return float64(r.Min.Y) + lineHeight(l.smallBold) + l.pad*2.5 + l.caption.Size*1.15 + l.pad*0.4
}

// drawReported draws the reported view's panel (reportedLayout).
func (a *App) drawReported(dst *ebiten.Image, l hudLayout, r image.Rectangle, x1 int) {
	p := a.reportedLayout(l, r, x1)
	if !p.hasAny || a.roomCaptioned {
		return
	}
	panel(dst, p.r)
	y := float64(p.r.Min.Y) + l.pad
	for _, s := range p.lines {
		label(dst, s, l.small, float64(p.r.Min.X)+l.pad, y, colText)
		y += lineHeight(l.small)
	}
	y = float64(p.r.Min.Y + p.textH)
	if p.vh > 0 {
		if a.reportV == nil {
			a.reportV = render.NewView()
			a.reportV.AntiAlias = a.left.AntiAlias
			a.reportV.Tick(p.v)
		}
		a.reportV.Draw(dst, image.Rect(p.r.Min.X, int(y), p.r.Max.X, int(y)+p.vh), p.v, nil, render.Overlays{})
	}
}

// roomView is the view the room's panel goes over: the process's own.
func roomView(lr, rr image.Rectangle) image.Rectangle {
	if lr.Empty() {
		return rr
	}
	return lr
}

// roomCaptionLayout places a track's caption on the room host's view:
// in the free area that takes it at the largest size, of three: below
// the table and right of the reported view, above the reported view and
// left of the table, and between the two; below the view's label and
// the caption of what just happened in every case.
func (a *App) roomCaptionLayout(in []string, l hudLayout, views image.Rectangle) trackCaption {
	top := int(captionBandBottom(l, views))
	t, rp := a.roomTable, a.roomReported
	right := views.Min.X
	if !rp.Empty() {
		right = rp.Max.X + int(l.pad)
	}
	bottom := views.Max.Y
	if !rp.Empty() {
		bottom = rp.Min.Y - int(l.pad)
	}
	areas := []image.Rectangle{
		image.Rect(right, max(top, t.Max.Y+int(l.pad)), views.Max.X, views.Max.Y),
		image.Rect(views.Min.X, top, t.Min.X-int(l.pad), bottom),
		image.Rect(right, top, t.Min.X-int(l.pad), views.Max.Y),
	}
	var best trackCaption
	found := false
	for _, ar := range areas {
		if ar.Dx() < 50 || ar.Dy() < 20 {
			continue
		}
		tc := a.placeCaption(in, l, ar, image.Rectangle{}, nil)
		if !tc.r.In(ar) || !clearOf(tc.r, []image.Rectangle{t, rp}) {
			continue
		}
		if !found || tc.face.Size > best.face.Size {
			best, found = tc, true
		}
	}
	a.roomCaptioned = !found
	if !found {
		// No free area takes it (a small window, a tall table, a long
		// report): left of the table, where the reported view was, which
		// gives way while the caption shows (drawReported).
		best = a.placeCaption(in, l, image.Rect(views.Min.X, top, max(views.Min.X+50, t.Min.X-int(l.pad)), views.Max.Y), image.Rectangle{}, nil)
	}
	return best
}

// roomNoteReserve is the height the reported view leaves above it for a
// key's note: two lines of its face.
func roomNoteReserve(l hudLayout) float64 {
	return 2*lineHeight(l.bold) + 3*l.pad
}
