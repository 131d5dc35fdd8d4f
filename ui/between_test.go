package ui

import (
	"bytes"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"
)

// TestBetweenTicksSamePixels: a frame drawn between two ticks, which
// reuses the views' triangles and the graph's mesh, is the same pixels as
// the frame drawn right after the tick, which built them (texts drawn
// directly, as a screenshot's, so the text cache's timing plays no part).
func TestBetweenTicksSamePixels(t *testing.T) {
	if drawFrames == nil {
		inGame(t, "TestBetweenTicksSamePixels")
		return
	}
	a := benchApp(t, 180)
	a.opts.Screenshot, a.opts.Frames = "not written", -1 // texts drawn directly
	var built, reused []byte
	read := func(into *[]byte) func(*ebiten.Image) {
		return func(screen *ebiten.Image) {
			a.Draw(screen)
			b := screen.Bounds()
			*into = make([]byte, 4*b.Dx()*b.Dy())
			screen.ReadPixels(*into)
		}
	}
	for range 3 {
		a.step()
		drawFrame(read(&built))
		drawFrame(read(&reused))
		if !bytes.Equal(built, reused) {
			n := 0
			for i := range built {
				if built[i] != reused[i] {
					n++
				}
			}
			t.Fatalf("a frame between two ticks differs from the frame before it in %d bytes", n)
		}
	}
}
