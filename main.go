// Command netcubes shows how to network a physics simulation: a 901-cube
// world runs on a "left" sender and is rebuilt on a "right" receiver only from
// packets that crossed a simulated lossy link.
//
// This file stays thin: it parses flags, sets up the window and hands over to
// the game loop. Everything with logic in it lives in packages.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/text/v2"
	"golang.org/x/image/font/gofont/gobold"
)

// options are the command-line settings.
type options struct {
	screenshot string // PNG file to write after frames ticks, then exit
	frames     int    // ticks to run before the screenshot (0 = run until closed)
	width      int    // window width in device-independent pixels
	height     int    // window height in device-independent pixels
}

// usageError is a bad command line: main prints it on one line and exits
// with code 2, so a typo on stage gives a clear message, not a wall of text.
type usageError string

func (e usageError) Error() string { return string(e) }

func usagef(format string, args ...any) error { return usageError(fmt.Sprintf(format, args...)) }

// parseFlags reads the command line. -h prints the flag list to help and
// returns flag.ErrHelp.
func parseFlags(args []string, help io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("netcubes", flag.ContinueOnError)
	// The flag package prints its error followed by the whole usage; keep
	// errors to one line and show the usage only when asked for.
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.screenshot, "screenshot", "", "write a PNG of the screen to `FILE` after -frames ticks, then exit")
	fs.IntVar(&o.frames, "frames", 0, "number of 1/60 s ticks to run before -screenshot (or before exiting)")
	fs.IntVar(&o.width, "width", 1600, "window width in pixels")
	fs.IntVar(&o.height, "height", 900, "window height in pixels")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(help)
			fmt.Fprintln(help, "usage: netcubes [flags]")
			fs.PrintDefaults()
			return o, err
		}
		return o, usageError(err.Error())
	}
	switch {
	case fs.NArg() > 0:
		return o, usagef("unexpected argument %q", fs.Arg(0))
	case o.frames < 0:
		return o, usagef("-frames must be >= 0, got %d", o.frames)
	case o.screenshot != "" && o.frames == 0:
		return o, usagef("-screenshot needs -frames N with N > 0")
	case o.width < 320 || o.height < 240:
		return o, usagef("window must be at least 320x240, got %dx%d", o.width, o.height)
	}
	return o, nil
}

func main() {
	o, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "netcubes:", err)
		if _, ok := err.(usageError); ok {
			os.Exit(2)
		}
		os.Exit(1)
	}
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "netcubes:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	src, err := text.NewGoTextFaceSource(bytes.NewReader(gobold.TTF))
	if err != nil {
		return err
	}
	ebiten.SetWindowTitle("netcubes")
	ebiten.SetWindowSize(o.width, o.height)
	g := &titleGame{opts: o, font: src}
	if err := ebiten.RunGame(g); err != nil && !errors.Is(err, ebiten.Termination) {
		return err
	}
	return g.err
}

// titleGame draws the product title until the real app exists.
type titleGame struct {
	opts  options
	font  *text.GoTextFaceSource
	ticks int
	shot  bool // the screenshot has been written
	err   error
}

func (g *titleGame) Update() error {
	if g.err != nil {
		return g.err
	}
	if g.opts.frames > 0 && g.ticks >= g.opts.frames {
		// Ebitengine may run several ticks between two draws; hold here until
		// Draw has saved the screenshot of exactly this tick.
		if g.opts.screenshot == "" || g.shot {
			return ebiten.Termination
		}
		return nil
	}
	g.ticks++
	return nil
}

func (g *titleGame) Draw(screen *ebiten.Image) {
	screen.Fill(color.RGBA{0x1c, 0x22, 0x2b, 0xff})
	w, h := screen.Bounds().Dx(), screen.Bounds().Dy()
	face := &text.GoTextFace{Source: g.font, Size: float64(h) / 8}
	op := &text.DrawOptions{}
	op.GeoM.Translate(float64(w)/2, float64(h)/2)
	op.PrimaryAlign = text.AlignCenter
	op.SecondaryAlign = text.AlignCenter
	op.ColorScale.ScaleWithColor(color.RGBA{0xf0, 0xf0, 0xf0, 0xff})
	text.Draw(screen, "netcubes", face, op)
	if g.opts.screenshot != "" && g.ticks == g.opts.frames && !g.shot {
		g.err = savePNG(screen, g.opts.screenshot)
		g.shot = true
	}
}

func (g *titleGame) Layout(outsideWidth, outsideHeight int) (int, int) {
	return outsideWidth, outsideHeight
}

// savePNG writes the screen's pixels. It runs in Draw on the frame the
// screenshot was asked for; it reads the screen and never touches the game.
func savePNG(screen *ebiten.Image, path string) error {
	b := screen.Bounds()
	img := image.NewRGBA(b)
	screen.ReadPixels(img.Pix)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
