// Package clip writes a run's frames as an animated GIF with the standard
// library alone (image/gif), for slides and the README: no external tool.
//
// A GIF has one palette of at most 256 colours and delays in hundredths of
// a second. The writer keeps every Nth frame (every 3rd: 20 frames a
// second, 5 hundredths each) with its colours cut to 5 bits a channel,
// counts how often each colour appears over the whole clip, and at the end
// chooses 255 colours by median cut over those counts (the HUD's few flat
// colours and the shaded cubes both get what they need), plus one
// transparent colour: a frame stores only the rectangle that changed, and
// in it the pixels that did not change are transparent, so the file holds
// little more than what moved.
package clip

import (
	"bufio"
	"image"
	"image/color"
	"image/gif"
	"io"
	"os"
	"sort"
)

// bins is the number of 15-bit colours (5 bits a channel).
const bins = 1 << 15

// maxColours is how many colours a frame may have besides "unchanged"
// (transparent, the last palette entry).
const maxColours = 255

// GIF gathers frames for an animated GIF.
type GIF struct {
	w, h   int
	every  int
	frames [][]uint16 // kept frames, 15-bit colours
	hist   []int      // how often each 15-bit colour appears
}

// NewGIF starts a w×h GIF keeping every every-th frame (0: 3).
func NewGIF(w, h, every int) *GIF {
	if every <= 0 {
		every = 3
	}
	return &GIF{w: w, h: h, every: every, hist: make([]int, bins)}
}

// Add offers frame n (1-based, counted from the run's first); every
// Every-th is kept. img must be w×h.
func (g *GIF) Add(n int, img *image.RGBA) {
	if (n-1)%g.every != 0 || img.Rect.Dx() != g.w || img.Rect.Dy() != g.h {
		return
	}
	px := make([]uint16, g.w*g.h)
	for y := 0; y < g.h; y++ {
		row := img.Pix[y*img.Stride : y*img.Stride+g.w*4]
		for x := 0; x < g.w; x++ {
			c := to15(row[4*x], row[4*x+1], row[4*x+2])
			px[y*g.w+x] = c
			g.hist[c]++
		}
	}
	g.frames = append(g.frames, px)
}

func to15(r, g, b uint8) uint16 { return uint16(r>>3)<<10 | uint16(g>>3)<<5 | uint16(b>>3) }

// rgb15 is the centre of a 15-bit colour's cell.
func rgb15(c uint16) (r, g, b int) {
	return int(c>>10&31)<<3 | 4, int(c>>5&31)<<3 | 4, int(c&31)<<3 | 4
}

// Save writes the GIF to path.
func (g *GIF) Save(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	if err := g.Encode(bw); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Encode writes the GIF: the palette chosen over every frame, then each
// frame as the rectangle that changed since the one before, its unchanged
// pixels transparent.
func (g *GIF) Encode(w io.Writer) error {
	pal := medianCut(g.hist, maxColours)
	lut := nearest(pal)
	transparent := uint8(len(pal))
	pal = append(pal, color.RGBA{}) // the last entry: unchanged
	out := &gif.GIF{Config: image.Config{ColorModel: pal, Width: g.w, Height: g.h}}
	delay := (g.every*100 + 30) / 60 // hundredths of a second
	var prev []uint8
	for _, px := range g.frames {
		idx := make([]uint8, len(px))
		for i, c := range px {
			idx[i] = lut[c]
		}
		r := image.Rect(0, 0, g.w, g.h)
		if prev != nil {
			r = changed(prev, idx, g.w, g.h)
		}
		fr := image.NewPaletted(r, pal)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				i := y*g.w + x
				v := idx[i]
				if prev != nil && prev[i] == v {
					v = transparent
				}
				fr.Pix[(y-r.Min.Y)*fr.Stride+(x-r.Min.X)] = v
			}
		}
		out.Image = append(out.Image, fr)
		out.Delay = append(out.Delay, delay)
		out.Disposal = append(out.Disposal, gif.DisposalNone)
		prev = idx
	}
	if len(out.Image) == 0 {
		// No frame was kept: one black frame, so the file is a GIF.
		fr := image.NewPaletted(image.Rect(0, 0, g.w, g.h), pal)
		out.Image, out.Delay, out.Disposal = []*image.Paletted{fr}, []int{delay}, []byte{gif.DisposalNone}
	}
	return gif.EncodeAll(w, out)
}

// changed is the smallest rectangle holding every pixel that differs
// between a and b (one pixel when none does: a GIF frame is never empty).
func changed(a, b []uint8, w, h int) image.Rectangle {
	x0, y0, x1, y1 := w, h, -1, -1
	for y := 0; y < h; y++ {
		row := y * w
		for x := 0; x < w; x++ {
			if a[row+x] != b[row+x] {
				x0, x1 = min(x0, x), max(x1, x)
				y0, y1 = min(y0, y), max(y1, y)
			}
		}
	}
	if x1 < 0 {
		return image.Rect(0, 0, 1, 1)
	}
	return image.Rect(x0, y0, x1+1, y1+1)
}

// box is a set of 15-bit colours being cut.
type box struct {
	cols  []uint16
	count int
}

// medianCut chooses at most n colours for the histogram: the box with the
// most pixels is cut across its widest channel where half its pixels lie
// on either side, until there are n boxes; each colour is its box's
// average, weighted by count.
func medianCut(hist []int, n int) color.Palette {
	var all []uint16
	total := 0
	for c, k := range hist {
		if k > 0 {
			all = append(all, uint16(c))
			total += k
		}
	}
	if len(all) == 0 {
		return color.Palette{color.RGBA{0, 0, 0, 255}}
	}
	boxes := []box{{cols: all, count: total}}
	for len(boxes) < n {
		// The box with the most pixels that can still be cut.
		bi := -1
		for i, b := range boxes {
			if len(b.cols) > 1 && (bi < 0 || b.count > boxes[bi].count) {
				bi = i
			}
		}
		if bi < 0 {
			break
		}
		a, b := cut(boxes[bi], hist)
		boxes[bi] = a
		boxes = append(boxes, b)
	}
	pal := make(color.Palette, 0, len(boxes))
	for _, b := range boxes {
		var sr, sg, sb, sn int
		for _, c := range b.cols {
			r, g, bl := rgb15(c)
			k := hist[c]
			sr, sg, sb, sn = sr+r*k, sg+g*k, sb+bl*k, sn+k
		}
		pal = append(pal, color.RGBA{uint8(sr / sn), uint8(sg / sn), uint8(sb / sn), 255})
	}
	return pal
}

// cut splits a box across its widest channel at the median pixel.
func cut(b box, hist []int) (box, box) {
	lo, hi := [3]int{255, 255, 255}, [3]int{}
	for _, c := range b.cols {
		r, g, bl := rgb15(c)
		for k, v := range [3]int{r, g, bl} {
			lo[k], hi[k] = min(lo[k], v), max(hi[k], v)
		}
	}
	ch := 0
	for k := 1; k < 3; k++ {
		if hi[k]-lo[k] > hi[ch]-lo[ch] {
			ch = k
		}
	}
	shift := uint(10 - 5*ch)
	sort.Slice(b.cols, func(i, j int) bool {
		vi, vj := b.cols[i]>>shift&31, b.cols[j]>>shift&31
		if vi != vj {
			return vi < vj
		}
		return b.cols[i] < b.cols[j]
	})
	half, run := b.count/2, 0
	at := 1
	for i, c := range b.cols[:len(b.cols)-1] {
		run += hist[c]
		if run >= half {
			at = i + 1
			break
		}
	}
	a := box{cols: b.cols[:at]}
	z := box{cols: b.cols[at:]}
	for _, c := range a.cols {
		a.count += hist[c]
	}
	z.count = b.count - a.count
	return a, z
}

// nearest maps every 15-bit colour to its closest palette entry.
func nearest(pal color.Palette) []uint8 {
	ps := make([][3]int, len(pal))
	for i, p := range pal {
		q := p.(color.RGBA)
		ps[i] = [3]int{int(q.R), int(q.G), int(q.B)}
	}
	lut := make([]uint8, bins)
	for c := range bins {
		r, g, b := rgb15(uint16(c))
		best, bd := 0, 1<<30
		for i, q := range ps {
			dr, dg, db := r-q[0], g-q[1], b-q[2]
			if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bd {
				best, bd = i, d
			}
		}
		lut[c] = uint8(best)
	}
	return lut
}
