package ui

// The classroom (package room) on screen. On the host: the address to
// open, its QR code, and a table of every client (player, browser or bot,
// transport, RTT, loss, bandwidth). On a browser that joined: how it is
// connected, and over the WebSocket a large line on the lesson of TCP.

import (
	"fmt"
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"netcubes/room"
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

// drawRoomHost draws the address, the QR code and the client table in
// the top right of the host's view.
func (a *App) drawRoomHost(dst *ebiten.Image, l hudLayout, r image.Rectangle) {
	rows := a.roomRows()
	lh := lineHeight(l.small)
	qr := a.opts.Room.QR
	// The QR code takes what the address and the table leave of the
	// view's height, up to 40 %; too small to scan (under 2 pixels a
	// module), it goes.
	module := 0.0
	if n := len(qr); n > 0 {
		free := float64(r.Dy()) - l.pad*5 - lineHeight(l.bold) - lh*float64(len(rows))
		module = float64(int(min(free, float64(r.Dy())*0.4)) / (n + 8))
		if module < 2 {
			module = 0
		}
	}
	qrSide := module * float64(len(qr)+8)
	var colW [6]float64
	tableW := 0.0
	for _, row := range rows {
		if len(row.cells) == 1 {
			tableW = max(tableW, measure(row.cells[0], l.small))
			continue
		}
		for i, c := range row.cells {
			colW[i] = max(colW[i], measure(c, l.small)+l.pad)
		}
	}
	tableW = max(tableW, colW[0]+colW[1]+colW[2]+colW[3]+colW[4]+colW[5])
	urlW := measure("join: "+a.opts.Room.URL, l.bold)
	w := max(tableW, urlW, qrSide) + 2*l.pad
	h := l.pad*2 + lineHeight(l.bold) + qrSide + lh*float64(len(rows)) + l.pad
	x0 := float64(r.Max.X) - w - l.pad
	y0 := float64(r.Min.Y) + l.pad
	panel(dst, image.Rect(int(x0), int(y0), int(x0+w), int(y0+h)))
	y := y0 + l.pad
	label(dst, "join: "+a.opts.Room.URL, l.bold, x0+l.pad, y, colAccent)
	y += lineHeight(l.bold)
	if module > 0 {
		qx := x0 + (w-qrSide)/2
		vector.FillRect(dst, float32(qx), float32(y), float32(qrSide), float32(qrSide), color.White, false)
		for j, row := range qr {
			for i, dark := range row {
				if dark {
					vector.FillRect(dst, float32(qx+module*float64(i+4)), float32(y+module*float64(j+4)),
						float32(module), float32(module), color.Black, false)
				}
			}
		}
		y += qrSide + l.pad
	}
	for _, row := range rows {
		x := x0 + l.pad
		for i, c := range row.cells {
			label(dst, c, l.small, x, y, row.col)
			x += colW[i]
		}
		y += lh
	}
}

type roomRow struct {
	cells []string // six columns, or one line across
	col   color.RGBA
}

// roomRows is the client table: a header, then a row per client of the
// session (players first; the one Tab shows marked), then the room's
// refusals.
func (a *App) roomRows() []roomRow {
	rows := []roomRow{{[]string{"client", "who", "transport", "RTT", "loss", "kbit/s"}, colDim}}
	srv := a.sess.Server()
	peers := a.opts.Room.Host.Peers()
	for k := range a.sess.NumClients() {
		who, tr := "bot", "-"
		if srv != nil && k < srv.MaxClients() {
			if slot := srv.Slot(k); slot.Connected {
				who = "browser"
				for _, p := range peers {
					if p.Addr == slot.Addr {
						tr = p.Transport.Short()
					}
				}
			}
		}
		name := fmt.Sprintf("player %d", k+1)
		if k >= a.sess.NumPlayers() {
			name = fmt.Sprintf("watch %d", k+1-a.sess.NumPlayers())
		}
		if who == "bot" {
			if _, ok := a.sess.Bot(k); !ok || k >= a.sess.NumPlayers() {
				who = "-"
			}
		}
		m := a.sess.ClientMetrics(k)
		rtt := "-"
		if m.HasRTT && who == "browser" {
			rtt = fmt.Sprintf("%.0f ms", m.RTTms)
		}
		loss, kbps := "-", "-"
		if who == "browser" {
			loss, kbps = fmt.Sprintf("%.0f %%", m.Loss*100), fmt.Sprintf("%.0f", m.SentKbps)
		}
		col := colText
		if who != "browser" {
			col = colDim
		}
		if k == a.sess.Shown() {
			// Tab picks the client whose figures the HUD below shows.
			name, col = "▸ "+name, colAccent
		}
		rows = append(rows, roomRow{[]string{name, who, tr, rtt, loss, kbps}, col})
	}
	c := a.opts.Room.Host.Counts()
	if c.BadToken+c.Full+c.Malformed+c.Busy > 0 {
		rows = append(rows, roomRow{[]string{fmt.Sprintf("refused: %d wrong token · %d full · %d malformed · %d too fast",
			c.BadToken, c.Full, c.Malformed, c.Busy)}, colBad})
	}
	return rows
}

// roomView is the view the room's panel goes over: the process's own.
func roomView(lr, rr image.Rectangle) image.Rectangle {
	if lr.Empty() {
		return rr
	}
	return lr
}
