package ui

import (
	"image"
	"strings"
	"testing"

	"netcubes/catalog"
	"netcubes/game"
	"netcubes/room"
	"netcubes/talk"
)

// fakeRoom is a hosted room with nobody in it, for the host's layout.
type fakeRoom struct{}

func (fakeRoom) ForcesWebSocket() bool { return false }
func (fakeRoom) Open() int             { return 0 }
func (fakeRoom) Peers() []room.Peer    { return nil }
func (fakeRoom) Counts() room.Counts   { return room.Counts{} }

// TestRoomHostCaptionsClearOfTheTable: on the room host's screen (one
// view, eight players, the address, a QR code and the client table in
// the top right, the reported view in the bottom left), at the three
// projector sizes and text scales, every caption of the built-in tracks
// is whole, inside the view, below its label and the caption of what
// happened, and covers neither the table nor the reported view (as laid
// out, and at its tallest, with a view); the reported view leaves the
// label alone, and the caption of what happened has room left of the
// table.
func TestRoomHostCaptionsClearOfTheTable(t *testing.T) {
	captions := trackCaptions(t)
	cfg := game.DefaultConfig()
	cfg.Strategies = catalog.All()
	cfg.World.Players = 8
	qr := make([][]bool, 33)
	for j := range qr {
		qr[j] = make([]bool, 33)
	}
	a, err := NewApp(Options{Session: cfg, NoAudio: true,
		Room: Room{Host: fakeRoom{}, URL: "http://192.168.100.200:8080/?join=3f9a2b7c4d5e6f708192a3b4c5d6e7f8", QR: qr}})
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range stageSizes {
		for _, scale := range stageScales {
			a.fonts.scale = scale
			a.laidOut = laidOut{}
			a.buildHUD()
			w, h := sz[0], sz[1]
			l := a.layout(w, h)
			lr, rr := a.viewRects(w, h, l.topH, l.botH)
			view := lr.Union(rr) // the host shows only the server's world
			a.d.Do(talk.Command{Op: talk.OpCaption, N: 0})
			table, rep := a.roomKeepOut(l, view)
			band := int(captionBandBottom(l, view))
			label := view.Min.Y + int(l.pad*1.5+lineHeight(l.smallBold))
			if rep.Min.Y < band || table.Empty() {
				t.Errorf("%dx%d scale %v: the reported view at %v reaches above the label and the caption of what happened (to %d); table %v", w, h, scale, rep, band, table)
			}
			if free := table.Min.X - view.Min.X; free < view.Dx()/4 {
				t.Errorf("%dx%d scale %v: %d pixels left of the table %v for the caption of what happened", w, h, scale, free, table)
			}
			for _, long := range []bool{false, true} {
				for _, c := range captions {
					a.d.Do(talk.Command{Op: talk.OpCaption, N: 120, Lines: c})
					a.roomTable, a.roomReported = a.roomKeepOut(l, view)
					if long {
						// A report of three lines, as a browser's.
						a.roomReported.Min.Y -= int(2 * lineHeight(l.small))
					}
					tc, ok := a.trackCaptionLayout(c, l, view, image.Rectangle{}, image.Rectangle{})
					switch {
					case !ok:
						t.Fatalf("%dx%d: no place for a caption", w, h)
					case strings.Join(tc.lines, " ") != strings.Join(c, " "):
						t.Errorf("%dx%d scale %v: %q drawn as %q", w, h, scale, c, tc.lines)
					case !tc.r.In(view) || tc.r.Min.Y < label:
						t.Errorf("%dx%d scale %v: caption %q at %v outside the view %v or over its label (to %d)", w, h, scale, c[0], tc.r, view, label)
					case tc.r.Overlaps(a.roomTable) || tc.r.Overlaps(a.roomReported) && !a.roomCaptioned:
						t.Errorf("%dx%d scale %v: caption %q at %v covers the table %v or the reported view %v", w, h, scale, c[0], tc.r, a.roomTable, a.roomReported)
					}
				}
			}
			a.roomTable, a.roomReported = image.Rectangle{}, image.Rectangle{}
		}
	}
}
