package launch

// The README's pictures are made by the app, each by the command written
// beside it. TestReadmePictures keeps them so:
//
//   - every picture under docs/ the README shows (but the bench's charts
//     under docs/bench/, which `go run ./cmd/bench -plots docs/bench`
//     draws) has a command beside it that writes exactly that file;
//   - each screenshot is remade at a quarter of its area (half its width
//     and height, smooth edges off) and compared with the committed one,
//     coarsely, outside the two 3D views: the top bar and the bottom
//     panel. A HUD change that forgets the pictures fails here; a change
//     in the physics (which moves cubes in the views) does not.
//
// With NETCUBES_DOCS=write it runs every command as written instead,
// remaking the pictures at full size (make docs).

import (
	"bufio"
	"fmt"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// docPicture is a picture of the README and the app's flags that make it.
type docPicture struct {
	file string   // docs/…
	args []string // the flags after `go run .`
	page string   // the page that shows it: README.md or docs/….md
	line int
}

var (
	docImage   = regexp.MustCompile(`!\[[^\]]*\]\(([^)]+\.(?:png|gif))\)`)
	docCommand = regexp.MustCompile("`go run \\. ([^`]*-(?:screenshot|video) (docs/[^` ]+))`")
)

// docPages are the pages a user reads: the README and the pages under
// docs/ it links to (not the design notes under docs/design/).
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, pages...)
}

// readmePictures returns the app-made pictures of the README and its
// pages with their commands, and the pictures shown that no command makes.
func readmePictures(t *testing.T) (pics []docPicture, orphans []string) {
	t.Helper()
	made := map[string]bool{}
	var shown []string
	for _, page := range docPages(t) {
		p, s := pagePictures(t, page)
		for _, pic := range p {
			if !made[pic.file] { // a picture shown twice is remade once
				pics = append(pics, pic)
			}
			made[pic.file] = true
		}
		shown = append(shown, s...)
	}
	for _, s := range shown {
		if !made[s] && !strings.HasPrefix(s, "docs/bench/") {
			orphans = append(orphans, s)
		}
	}
	return pics, orphans
}

// pagePictures reads one page: the pictures its commands make, and the
// pictures under docs/ it shows (as paths from the repository's root).
func pagePictures(t *testing.T, page string) (pics []docPicture, shown []string) {
	t.Helper()
	f, err := os.Open(page)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		for _, m := range docCommand.FindAllStringSubmatch(sc.Text(), -1) {
			pics = append(pics, docPicture{file: m[2], args: strings.Fields(m[1]), page: page, line: n})
		}
		for _, m := range docImage.FindAllStringSubmatch(sc.Text(), -1) {
			if strings.Contains(m[1], "://") {
				continue
			}
			if p := filepath.ToSlash(filepath.Join(filepath.Dir(page), m[1])); strings.HasPrefix(p, "docs/") {
				shown = append(shown, p)
			}
		}
	}
	return pics, shown
}

func TestReadmePictures(t *testing.T) {
	t.Chdir("../..") // the repository's root: the README and its pictures
	pics, orphans := readmePictures(t)
	for _, o := range orphans {
		t.Errorf("the README or a page under docs/ shows %s, but no `go run . … -screenshot %s` beside it says how it is made", o, o)
	}
	if len(pics) < 8 {
		t.Fatalf("found %d picture commands in the README, want the 9 pictures", len(pics))
	}
	if os.Getenv("NETCUBES_DOCS") == "write" {
		for _, p := range pics {
			t.Run(filepath.Base(p.file), func(t *testing.T) {
				t.Parallel()
				if out, err := runApp(t, nil, p.args...); err != nil {
					t.Fatalf("%s line %d: %v\n%s", p.page, p.line, err, out)
				}
				t.Logf("made %s", p.file)
			})
		}
		return
	}
	if testing.Short() {
		t.Skip("remakes the pictures")
	}
	for _, p := range pics {
		if !slices.Contains(p.args, "-screenshot") {
			continue // the clip: a video, its command checked above
		}
		t.Run(filepath.Base(p.file), func(t *testing.T) {
			t.Parallel() // the app runs in processes of its own
			checkPicture(t, p)
		})
	}
}

// checkPicture remakes p at half its size and compares the HUD.
func checkPicture(t *testing.T, p docPicture) {
	committed := loadPNG(t, p.file)
	w, h := committed.Bounds().Dx(), committed.Bounds().Dy()
	small := filepath.Join(t.TempDir(), "small.png")
	args := withFlag(p.args, "-screenshot", small)
	args = withFlag(args, "-width", strconv.Itoa(w))
	args = withFlag(args, "-height", strconv.Itoa(h))
	args = withFlag(args, "-antialias", "")
	args = append(args, "-antialias=false")
	if out, err := runApp(t, nil, args...); err != nil {
		t.Fatalf("%s line %d: %v\n%s", p.page, p.line, err, out)
	}
	remade := loadPNG(t, small)
	msg, counts := compareHUD(committed, remade)
	t.Logf("%s: blocks that differ: %s", p.file, counts)
	if msg != "" {
		t.Errorf("%s (%s line %d) no longer shows what the app draws: %s; remake it with make docs",
			p.file, p.page, p.line, msg)
	}
}

// withFlag sets flag name's value in args ("" removes the flag; a
// "-name=value" form is removed too).
func withFlag(args []string, name, value string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		switch {
		case args[i] == name:
			i++ // and its value
			continue
		case strings.HasPrefix(args[i], name+"="):
			continue
		}
		out = append(out, args[i])
	}
	if value != "" {
		out = append(out, name, value)
	}
	return out
}

// hudGrid is the number of blocks across the picture the HUD is compared
// in; each block's mean colour is compared.
const hudGrid = 24

// compareHUD compares the HUD of two pictures of the same aspect: the
// rows above and below the 3D views (found in the committed picture),
// block by block. It returns what differs, or "", and the counts.
func compareHUD(committed, remade image.Image) (msg, counts string) {
	top, bottom := viewRows(committed)
	if top < 0 {
		return "no 3D view found in the committed picture", ""
	}
	ch := committed.Bounds().Dy()
	bands := []struct {
		name   string
		y0, y1 float64 // fractions of the height
		rows   int
	}{
		{"the top bar", 0, float64(top) / float64(ch), 1},
		{"the bottom panel", float64(bottom) / float64(ch), 1, 6},
	}
	var diffs, all []string
	for _, b := range bands {
		if b.y1-b.y0 < 0.02 {
			continue
		}
		bad := 0
		for r := 0; r < b.rows; r++ {
			for c := 0; c < hudGrid; c++ {
				fy0 := b.y0 + (b.y1-b.y0)*float64(r)/float64(b.rows)
				fy1 := b.y0 + (b.y1-b.y0)*float64(r+1)/float64(b.rows)
				fx0, fx1 := float64(c)/hudGrid, float64(c+1)/hudGrid
				if colourDistance(meanColour(committed, fx0, fy0, fx1, fy1), meanColour(remade, fx0, fy0, fx1, fy1)) > hudBlockTolerance {
					bad++
				}
			}
		}
		limit := b.rows * hudGrid * hudBadShare / 100
		all = append(all, fmt.Sprintf("%s %d of %d", b.name, bad, b.rows*hudGrid))
		if bad > limit {
			diffs = append(diffs, fmt.Sprintf("%s differs in %d of %d blocks (at most %d may)", b.name, bad, b.rows*hudGrid, limit))
		}
	}
	return strings.Join(diffs, "; "), strings.Join(all, ", ")
}

// The tolerances: a block differs when its mean colour moved by more than
// hudBlockTolerance (of 255, summed over R, G, B), and a band fails when
// more than hudBadShare % of its blocks differ. Text at half size is
// drawn with other glyph sizes and its figures change with the physics;
// a panel moved to another column or a new row changes far more.
const (
	hudBlockTolerance = 45
	hudBadShare       = 5
)

// viewRows finds the 3D views' rows in a picture: from the first row at
// a quarter of the width that has the sky's blue to the last that is not
// the HUD's dark backdrop below it. top is −1 when there is no sky.
func viewRows(img image.Image) (top, bottom int) {
	b := img.Bounds()
	x := b.Min.X + b.Dx()/4
	top = -1
	for y := b.Min.Y; y < b.Max.Y; y++ {
		r, g, bl := rgb(img.At(x, y))
		if top < 0 && bl > 170 && bl > r+40 && g > 120 {
			top = y
		}
		if top >= 0 && r+g+bl < 150 && y > top+b.Dy()/5 {
			return top - b.Min.Y, y - b.Min.Y
		}
	}
	return top, b.Dy()
}

func rgb(c color.Color) (r, g, b int) {
	R, G, B, _ := c.RGBA()
	return int(R >> 8), int(G >> 8), int(B >> 8)
}

// meanColour is the mean colour of the fractional rectangle of img.
func meanColour(img image.Image, fx0, fy0, fx1, fy1 float64) [3]float64 {
	b := img.Bounds()
	x0, x1 := b.Min.X+int(fx0*float64(b.Dx())), b.Min.X+int(fx1*float64(b.Dx()))
	y0, y1 := b.Min.Y+int(fy0*float64(b.Dy())), b.Min.Y+int(fy1*float64(b.Dy()))
	var sum [3]float64
	n := 0
	for y := y0; y < max(y1, y0+1); y++ {
		for x := x0; x < max(x1, x0+1); x++ {
			r, g, bl := rgb(img.At(x, y))
			sum[0] += float64(r)
			sum[1] += float64(g)
			sum[2] += float64(bl)
			n++
		}
	}
	for i := range sum {
		sum[i] /= float64(n)
	}
	return sum
}

func colourDistance(a, b [3]float64) float64 {
	d := 0.0
	for i := range a {
		d += max(a[i]-b[i], b[i]-a[i])
	}
	return d
}
