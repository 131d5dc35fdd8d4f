package ui

// The HUD has to be readable from the back of a lecture hall on a
// projector: large text (about 1/38 of the window height by default,
// scalable with - and =), light text on translucent dark panels over the 3D
// views, and a small set of colours that keep one meaning each.

import (
	"bytes"
	"image/color"
	"math"

	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/goregular"
)

var (
	colText     = color.RGBA{0xf2, 0xf4, 0xf7, 0xff}
	colDim      = color.RGBA{0xaa, 0xb4, 0xc2, 0xff}
	colAccent   = color.RGBA{0xff, 0xc8, 0x3c, 0xff} // settings the presenter can change
	colGood     = color.RGBA{0x5c, 0xd6, 0x7a, 0xff}
	colBad      = color.RGBA{0xff, 0x5a, 0x4f, 0xff}
	colPanel    = color.RGBA{0x10, 0x14, 0x1c, 0xc8} // translucent, over the 3D views
	colHelp     = color.RGBA{0x14, 0x19, 0x22, 0xf4} // nearly opaque: the help is read, not glanced at
	colBackdrop = color.RGBA{0x16, 0x1b, 0x24, 0xff} // the bars above and below the views
	colBudget   = color.RGBA{0xff, 0x5a, 0x4f, 0xff}
	colGraph    = color.RGBA{0x5c, 0xb8, 0xff, 0xff}
	colGridDim  = color.RGBA{0x50, 0x5a, 0x68, 0xff}
)

// fonts holds the typefaces and caches faces per pixel size.
type fonts struct {
	regular, bold, mono *text.GoTextFaceSource
	scale               float64 // user text scale, 1 = default
	faces               map[faceKey]*text.GoTextFace
}

type faceKey struct {
	src *text.GoTextFaceSource
	px  float64
}

func loadFonts() (*fonts, error) {
	f := &fonts{scale: 1}
	var err error
	for _, x := range []struct {
		dst **text.GoTextFaceSource
		ttf []byte
	}{{&f.regular, goregular.TTF}, {&f.bold, gobold.TTF}, {&f.mono, gomono.TTF}} {
		if *x.dst, err = text.NewGoTextFaceSource(bytes.NewReader(x.ttf)); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// size is the body text size in pixels for a window of height h.
func (f *fonts) size(h int) float64 {
	return math.Round(float64(h) / 38 * f.scale)
}

// face is src at px pixels, made once per size (the HUD asks for a dozen
// faces a frame; nobody changes one).
func (f *fonts) face(src *text.GoTextFaceSource, px float64) *text.GoTextFace {
	k := faceKey{src, px}
	if fc, ok := f.faces[k]; ok {
		return fc
	}
	if f.faces == nil {
		f.faces = map[faceKey]*text.GoTextFace{}
	}
	fc := &text.GoTextFace{Source: src, Size: px}
	f.faces[k] = fc
	return fc
}
