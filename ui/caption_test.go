package ui

import (
	"image"
	"strings"
	"testing"

	"netcubes/talk"
)

// TestTrackCaptionsClearOfTheHUD: every caption of the built-in tracks, at
// the three projector sizes and text scales, is drawn whole (a line too
// long wraps, none is cut with "…"), inside the views, under the views' labels and the caption of
// what just happened, above the bottom panel's figures, and above the
// overlay legend when it would cover it.
func TestTrackCaptionsClearOfTheHUD(t *testing.T) {
	captions := trackCaptions(t)
	f, sess := newTestApp(t, "interpolation")
	for _, sz := range stageSizes {
		for _, scale := range stageScales {
			f.scale = scale
			a := layoutApp(t, f, sess)
			w, h := sz[0], sz[1]
			l := a.layout(w, h)
			lr, rr := a.viewRects(w, h, l.topH, l.botH)
			views := lr.Union(rr)
			// The labels' band and the caption of what happened under it.
			labels := float64(views.Min.Y) + l.pad*1.5 + lineHeight(l.smallBold)
			happened := float64(views.Min.Y) + lineHeight(l.smallBold) + l.pad*2.5 + l.caption.Size*1.15 + l.pad*0.4
			legend := image.Rect(rr.Min.X+int(l.pad), rr.Max.Y-int(4*lineHeight(l.small)), rr.Min.X+rr.Dx()/3, rr.Max.Y-int(l.pad))
			for _, lg := range []image.Rectangle{{}, legend} {
				for _, c := range captions {
					tc, ok := a.trackCaptionLayout(c, l, lr, rr, lg)
					if !ok {
						t.Fatalf("%dx%d: no place for a caption", w, h)
					}
					if got, want := strings.Join(tc.lines, " "), strings.Join(c, " "); got != want {
						t.Errorf("%dx%d scale %v: %q drawn as %q", w, h, scale, want, tc.lines)
					}
					r := tc.r
					switch {
					case !r.In(views):
						t.Errorf("%dx%d scale %v: caption %q at %v outside the views %v", w, h, scale, c[0], r, views)
					case float64(r.Min.Y) < labels || float64(r.Min.Y) < happened:
						t.Errorf("%dx%d scale %v: caption %q at %v covers the labels (to %.0f) or the caption of what happened (to %.0f)",
							w, h, scale, c[0], r, labels, happened)
					case r.Max.Y > h-l.botH:
						t.Errorf("%dx%d scale %v: caption %q at %v runs into the figures (from %d)", w, h, scale, c[0], r, h-l.botH)
					case r.Overlaps(lg):
						t.Errorf("%dx%d scale %v: caption %q at %v covers the legend %v", w, h, scale, c[0], r, lg)
					}
				}
			}
		}
	}
}

// trackCaptions are every caption of the built-in tracks.
func trackCaptions(t *testing.T) [][]string {
	t.Helper()
	var captions [][]string
	for _, n := range talk.Names() {
		tr, err := talk.Load(n)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range tr.Events {
			if e.Cmd.Op == talk.OpCaption && e.Cmd.Lines != nil {
				captions = append(captions, e.Cmd.Lines)
			}
		}
	}
	if len(captions) < 20 {
		t.Fatalf("%d captions in the built-in tracks: the tour has more", len(captions))
	}
	return captions
}

// TestGridCaptionsClearOfStrips: in the grid of four clients, at the three
// projector sizes and text scales, every caption of the built-in tracks
// stays inside the views, below the labels, and covers no cell's strip of
// figures (it sat at the bottom of the views, over the bottom row's) nor
// its label.
func TestGridCaptionsClearOfStrips(t *testing.T) {
	captions := trackCaptions(t)
	a := newGridApp(t, "predict", 4)
	for range 30 {
		a.step()
	}
	for _, sz := range stageSizes {
		for _, scale := range stageScales {
			a.fonts.scale = scale
			a.laidOut = laidOut{}
			w, h := sz[0], sz[1]
			l := a.layout(w, h)
			server, cells, _ := a.gridLayout(l, w, h)
			var rr image.Rectangle
			for _, c := range cells {
				rr = rr.Union(c.r)
			}
			a.captionStrips = captionKeepOut(l, cells)
			views := server.Union(rr)
			labels := float64(views.Min.Y) + l.pad*1.5 + lineHeight(l.smallBold)
			for _, c := range captions {
				tc, ok := a.trackCaptionLayout(c, l, server, rr, image.Rectangle{})
				if !ok {
					t.Fatalf("%dx%d: no place for a caption", w, h)
				}
				if !tc.r.In(views) || float64(tc.r.Min.Y) < labels {
					t.Errorf("%dx%d scale %v: caption %q at %v outside the views %v or over the labels (to %.0f)", w, h, scale, c[0], tc.r, views, labels)
				}
				for k, s := range a.captionStrips {
					if tc.r.Overlaps(s) {
						t.Errorf("%dx%d scale %v: caption %q at %v covers client %d's strip or label %v", w, h, scale, c[0], tc.r, k/2+1, s)
					}
				}
			}
		}
	}
}
