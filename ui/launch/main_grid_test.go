package launch

import (
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"testing"

	"netcubes/render/scene"
)

// TestGridScreenshots runs the app with the grid on (-show grid), four
// players on per-client links, at the three stage sizes, and checks the
// picture: its size, cubes in the server's view and in each of the four
// client cells, and each player's colour swatch beside its cell's label
// (the legend of player colours), in that cell. That no figure is cut is
// TestGridFiguresNeverCut's (package ui), which lays the same grid out
// at these sizes. The PNGs are kept in $NETCUBES_SHOTS when set.
func TestGridScreenshots(t *testing.T) {
	dir := os.Getenv("NETCUBES_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	pal := scene.DefaultPalette()
	for _, sz := range [][2]int{{1920, 1080}, {1600, 900}, {1280, 720}} {
		w, h := sz[0], sz[1]
		t.Run(fmt.Sprintf("%dx%d", w, h), func(t *testing.T) {
			t.Parallel() // each is a process of its own
			path := filepath.Join(dir, fmt.Sprintf("grid-%dx%d.png", w, h))
			out, err := runApp(t, nil, "-mute", "-antialias=false", "-strategy", "statesync", "-players", "4",
				"-preset", "lan,intercontinental,mobile,terrible", "-show", "grid", "-script", "katamari",
				"-frames", "240", "-width", fmt.Sprint(w), "-height", fmt.Sprint(h), "-screenshot", path)
			if err != nil {
				t.Fatalf("app failed: %v\n%s", err, out)
			}
			img := loadPNG(t, path)
			if got := img.Bounds().Size(); got != image.Pt(w, h) {
				t.Fatalf("screenshot is %v, want %dx%d", got, w, h)
			}
			// The views' band: the server on the left third, the four
			// clients two by two on the right.
			top, bottom := h/10, h*6/10
			mid := (top + bottom) / 2
			server := image.Rect(0, top, w/3-8, bottom)
			cells := []image.Rectangle{
				image.Rect(w/3+8, top, w*2/3-8, mid), image.Rect(w*2/3+8, top, w, mid),
				image.Rect(w/3+8, mid, w*2/3-8, bottom), image.Rect(w*2/3+8, mid, w, bottom),
			}
			if _, grey, _ := cubePixels(img, server); grey < 200 {
				t.Errorf("the server's view has %d grey cube pixels", grey)
			}
			for i, c := range cells {
				if _, grey, _ := cubePixels(img, c); grey < 50 {
					t.Errorf("client %d's cell has %d grey cube pixels", i+1, grey)
				}
				if n := swatchPixels(img, c, pal.PlayerColor(uint8(i+1))); n < 20 {
					t.Errorf("client %d's cell: %d pixels of player %d's swatch", i+1, n, i+1)
				}
			}
		})
	}
}

// swatchPixels counts the pixels of r exactly in c (a swatch is filled
// flat; the cubes are shaded).
func swatchPixels(img image.Image, r image.Rectangle, c scene.RGBA) int {
	want := color.RGBA{uint8(c.R * 255), uint8(c.G * 255), uint8(c.B * 255), 255}
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if color.RGBAModel.Convert(img.At(x, y)) == want {
				n++
			}
		}
	}
	return n
}
