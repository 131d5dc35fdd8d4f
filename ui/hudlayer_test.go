package ui

import (
	"bytes"
	"fmt"
	"image"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// TestHUDLayerSamePixels: a frame whose bars come from the HUD's layer,
// where only what changed since the last frame was drawn again
// (hudlayer.go), is the same pixels as the same frame with the bars drawn
// from scratch, after each kind of change: figures changing with the
// ticks, a frame between two ticks, a strategy switched by its key (shown
// in the very next frame), the tint toggled, the window resized, the text
// scale changed, and smooth edges turned on (the meshes of the graph, the
// bits bar and the timeline). The frames' other texts are drawn directly,
// as a screenshot's, so the text cache's images play no part.
func TestHUDLayerSamePixels(t *testing.T) {
	if drawFrames == nil {
		inGame(t, "TestHUDLayerSamePixels")
		return
	}
	a := benchApp(t, 180)
	a.opts.Screenshot, a.opts.Frames = "not written", -1 // texts drawn directly
	defer func() { layer.Off = false }()
	screens := map[image.Point]*ebiten.Image{}
	// frame draws the app on a w×h screen through the layer, then from
	// scratch, and compares; it returns the pixels.
	frame := func(what string, w, h int) []byte {
		t.Helper()
		scr := screens[image.Pt(w, h)]
		if scr == nil {
			scr = ebiten.NewImage(w, h)
			screens[image.Pt(w, h)] = scr
		}
		// The views' first frame after a tick, a new size or smooth
		// edges turned on may differ from the next frame by a level in
		// a few pixels, which is not the layer's doing: the frame is
		// drawn once without the layer first, which leaves the layer as
		// it was.
		drawFrame(func(*ebiten.Image) {
			layer.Off = true
			a.Draw(scr)
		})
		var layered, scratch []byte
		redrawn := 0
		read := func(off bool, into *[]byte) func(*ebiten.Image) {
			return func(*ebiten.Image) {
				layer.Off = off
				before := layer.Redrawn
				a.Draw(scr)
				redrawn = layer.Redrawn - before
				*into = make([]byte, 4*w*h)
				scr.ReadPixels(*into)
			}
		}
		drawFrame(read(false, &layered))
		ops := redrawn
		drawFrame(read(true, &scratch))
		if !bytes.Equal(layered, scratch) {
			t.Fatalf("%s: the frame through the layer differs from the frame drawn from scratch in %d bytes (%s)",
				what, differing(layered, scratch), firstDiffering(layered, scratch, w))
		}
		t.Logf("%s: %d×%d, %d ops drawn again in the layer", what, w, h, ops)
		return layered
	}
	frame("first frame", 1280, 720)
	for i := range 4 {
		a.step()
		frame(fmt.Sprintf("tick %d", i+1), 1280, 720)
	}
	// Between two ticks nothing is drawn again.
	before := layer.Redrawn
	drawFrame(func(*ebiten.Image) {
		a.Draw(screens[image.Pt(1280, 720)])
	})
	if n := layer.Redrawn - before; n != 0 {
		t.Errorf("a frame between two ticks drew %d ops again in the layer", n)
	}
	old := frame("before the key", 1280, 720)
	a.handleKeysFrom(tap(ebiten.Key3))
	if now := frame("strategy 3, the very next frame", 1280, 720); bytes.Equal(old, now) {
		t.Fatal("switching to strategy 3 changed nothing on screen")
	}
	a.step()
	frame("strategy 3, a tick later", 1280, 720)
	a.handleKeysFrom(tap(ebiten.KeyT))
	a.step()
	frame("tint", 1280, 720)
	frame("resized", 1920, 1080)
	a.step()
	frame("resized, a tick later", 1920, 1080)
	a.fonts.scale = 0.8
	frame("text ×0.8", 1920, 1080)
	a.step()
	frame("text ×0.8, a tick later", 1920, 1080)
	a.setAntiAlias(true)
	a.step()
	frame("smooth edges", 1920, 1080)
	a.step()
	frame("smooth edges, a tick later", 1920, 1080)
	a.handleKeysFrom(tap(ebiten.Key7))
	a.step()
	frame("strategy 7", 1280, 720)
	a.step()
	frame("strategy 7, a tick later", 1280, 720)
}

// differing counts the bytes that differ.
func differing(a, b []byte) int {
	n := 0
	for i := range a {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}

// firstDiffering says where the first few differing pixels are, and their
// values.
func firstDiffering(a, b []byte, w int) string {
	s := ""
	for i, n := 0, 0; i+3 < len(a) && n < 6; i += 4 {
		if !bytes.Equal(a[i:i+4], b[i:i+4]) {
			s += fmt.Sprintf("(%d,%d) %v/%v ", i/4%w, i/4/w, a[i:i+4], b[i:i+4])
			n++
		}
	}
	return s
}
