package clip

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"testing"
)

// scene draws frame n of a test clip: a grey field, a fixed "HUD" bar of
// flat colours, and a red square and a shaded blue square that move.
func scene(n, w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	draw.Draw(img, img.Rect, &image.Uniform{color.RGBA{0x20, 0x24, 0x2c, 0xff}}, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(0, h-12, w, h), &image.Uniform{color.RGBA{0xff, 0xd1, 0x4a, 0xff}}, image.Point{}, draw.Src)
	draw.Draw(img, image.Rect(n%w, 10, n%w+8, 18), &image.Uniform{color.RGBA{0xe0, 0x30, 0x30, 0xff}}, image.Point{}, draw.Src)
	for y := 0; y < 10; y++ {
		for x := 0; x < 10; x++ {
			img.Set((2*n+x)%w, 30+y, color.RGBA{0x20, 0x40, uint8(0x80 + 12*y), 0xff})
		}
	}
	return img
}

// TestGIFDecodes: the GIF the writer makes decodes with image/gif, has one
// frame for every third, their delays, and every frame, composed as a
// viewer does (each drawn over the last, transparent pixels kept), is the
// scene within the 5-bit quantization and the palette.
func TestGIFDecodes(t *testing.T) {
	const w, h, n = 64, 48, 30
	g := NewGIF(w, h, 3)
	for i := 1; i <= n; i++ {
		g.Add(i, scene(i, w, h))
	}
	var buf bytes.Buffer
	if err := g.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	out, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatalf("the GIF does not decode: %v", err)
	}
	if len(out.Image) != n/3 || out.Config.Width != w || out.Config.Height != h {
		t.Fatalf("%d frames of %d×%d, want %d of %d×%d", len(out.Image), out.Config.Width, out.Config.Height, n/3, w, h)
	}
	canvas := image.NewRGBA(image.Rect(0, 0, w, h))
	for k, fr := range out.Image {
		if out.Delay[k] != 5 {
			t.Errorf("frame %d: delay %d, want 5 hundredths", k, out.Delay[k])
		}
		draw.Draw(canvas, fr.Rect, fr, fr.Rect.Min, draw.Over)
		want := scene(3*k+1, w, h)
		worst := 0
		for i := 0; i < len(want.Pix); i += 4 {
			for c := range 3 {
				d := int(canvas.Pix[i+c]) - int(want.Pix[i+c])
				worst = max(worst, d, -d)
			}
		}
		if worst > 12 {
			t.Fatalf("frame %d: a channel off by %d", k, worst)
		}
		if k > 0 && fr.Rect == canvas.Rect {
			t.Errorf("frame %d is stored whole: only what changed should be", k)
		}
	}
}
