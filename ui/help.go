package ui

import (
	"fmt"
	"image"
	"math"
	"slices"
	"strings"

	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/vector"

	"netcubes/talk"
)

// Design note: the help overlay lists every key of the key table, grouped
// as the README lists them, in the band between the top bar and the bottom
// HUD, so it never covers the figures it explains. The table is long (every
// strategy's keys, the network, the players, the time): it is dealt into
// one to five columns, whichever lets the text be largest, and a column may
// break inside a group (the group's name is repeated at the top of the next
// column, "(cont.)"), so the columns come out even. Each column is as wide
// as its own keys and lines need. When every key does not fit at a size
// readable from a hall (readableHelp), the table is dealt into pages, the
// active strategy's keys first; H shows the next page, and every page is
// drawn at the same size.

// helpGroupGap is the space after each group of the help, in lines.
const helpGroupGap = 0.25

// maxHelpColumns is the most columns the help is dealt into.
const maxHelpColumns = 5

// helpRow is one key of the help in reading order, with where it stands in
// its group.
type helpRow struct {
	KeyHelp
	group       string
	first, last bool // the group's first and last row
}

// minHelpText is the smallest help text ever drawn, in pixels.
const minHelpText = 9

// readableHelp is the smallest help text worth showing in an h-pixel
// window: 1/50 of the height (14.4 px at 720p, 21.6 px at 1080p), about
// the HUD's small text (1/47.5) and half its key figures (1/24), so the
// keys read from where the figures do. When every key does not fit at
// that size, the help is dealt into pages (helpPages).
func readableHelp(h int) float64 { return math.Max(minHelpText, float64(h)/50) }

// helpRows flattens the help's groups into rows.
func helpRows() []helpRow { return rowsOf(helpGroups()) }

// rowsOf flattens groups into rows.
func rowsOf(groups []helpGroup) []helpRow {
	var rows []helpRow
	for _, g := range groups {
		for k, r := range g.rows {
			rows = append(rows, helpRow{KeyHelp: r, group: g.name, first: k == 0, last: k == len(g.rows)-1})
		}
	}
	return rows
}

// helpMetrics are the heights the help's layout adds up: a row, a group's
// heading, and the gap after a group.
type helpMetrics struct{ row, head, gap float64 }

// rowHeight is the height row r adds to its column: the row, its group's
// heading when it starts the group or the column, and the gap after its
// group's last row.
func (m helpMetrics) rowHeight(r helpRow, startsColumn bool) float64 {
	h := m.row
	if r.first || startsColumn {
		h += m.head
	}
	if r.last {
		h += m.gap
	}
	return h
}

// fillColumns deals rows into columns no taller than maxH, in order, and
// returns the first row of each column.
func fillColumns(rows []helpRow, m helpMetrics, maxH float64) []int {
	starts := []int{0}
	h := 0.0
	for i, r := range rows {
		add := m.rowHeight(r, h == 0)
		if h > 0 && h+add > maxH {
			starts = append(starts, i)
			h = m.rowHeight(r, true)
			continue
		}
		h += add
	}
	return starts
}

// splitRows deals rows into at most cols columns so that the tallest is as
// short as can be (to a twentieth of a pixel), and returns the first row of each
// column and that height.
func splitRows(rows []helpRow, m helpMetrics, cols int) ([]int, float64) {
	lo, hi := 0.0, 0.0
	for i, r := range rows {
		h := m.rowHeight(r, true)
		lo = math.Max(lo, h)
		hi += m.rowHeight(r, i == 0)
	}
	for hi-lo > 0.05 {
		mid := (lo + hi) / 2
		if len(fillColumns(rows, m, mid)) <= cols {
			hi = mid
		} else {
			lo = mid
		}
	}
	return fillColumns(rows, m, hi), hi
}

// helpPanel is where and how large the help overlay is drawn.
type helpPanel struct {
	rows   []helpRow // the rows shown
	rect   image.Rectangle
	starts []int   // the first row of each column
	size   float64 // the body text size
	// At size: each column's left edge from the panel's content, and its
	// widest key.
	colX, keyW     []float64
	keyGap, colGap float64
	pad, titleH    float64
	page, pages    int // the page shown (from 0) and how many there are
}

// widestHelpTitle is as wide as the panel's title can be: the panel is
// at least that wide.
const widestHelpTitle = "Keys  ·  page 8 of 8  ·  H or F1: next page"

// contSuffix marks a group's heading repeated at the top of a column.
const contSuffix = " (cont.)"

// helpLayout fits the help's shown page into the band between the top bar
// and the bottom HUD (l's heights): the rows dealt into whichever number
// of columns lets the text be larger, shrunk only when even that does not
// fit. ok is false when there is no room at all.
func (a *App) helpLayout(w, h int, l hudLayout) (p helpPanel, ok bool) {
	pages := a.helpPages(w, h, l)
	k := min(a.helpPage, len(pages)-1)
	// Every page at one size: the pages' smallest, so H does not make
	// the text jump.
	p, ok = a.helpLayoutOf(pages[k], w, h, l, a.helpBottom(h, l), a.helpCache.size)
	p.page, p.pages = k, len(pages)
	return p, ok
}

// helpPages deals the key table into pages that each show at a readable
// size (readableHelp): one page when every key fits; else the active
// strategy's keys come first (what the presenter needs now), then the
// common keys, then the other strategies', as many groups to a page as
// stay readable (a group larger than a page gets a page of its own).
func (a *App) helpPages(w, h int, l hudLayout) [][]helpRow {
	// Dealing measures every page several times: once per window, text
	// size, band and strategy, not once a frame.
	key := helpPagesKey{w, h, l.topH, h - l.botH, helpBase(l), a.sess.StrategyIndex()}
	if a.helpCache.pages != nil && a.helpCache.key == key {
		return a.helpCache.pages
	}
	pages, size := a.dealHelpPages(w, h, l)
	a.helpCache = helpPagesCache{key, pages, size}
	return pages
}

// helpPagesKey is what the help's pages depend on.
type helpPagesKey struct {
	w, h, top, bottom int
	size              float64
	strategy          int
}

// helpPagesCache holds the last pages dealt.
type helpPagesCache struct {
	key   helpPagesKey
	pages [][]helpRow
	size  float64 // the largest size every page fits at
}

// dealHelpPages is helpPages without the cache; size is the largest text
// size every page fits at.
func (a *App) dealHelpPages(w, h int, l hudLayout) (pages [][]helpRow, size float64) {
	floor := readableHelp(h)
	// Dealt as if the tallest note showed, so a note coming or going
	// does not re-deal the pages under the presenter's eyes.
	bot := h - l.botH - int(math.Ceil(lineHeight(l.bold)*maxNoteLines+l.pad*2.5))
	all := helpGroups()
	most := helpBase(l)
	if p, ok := a.helpLayoutOf(rowsOf(all), w, h, l, bot, most); ok && p.size >= floor {
		return [][]helpRow{rowsOf(all)}, p.size
	}
	other := a.otherFamilies()
	active := a.sess.Strategy().Family() + " ("
	var mine, common, rest []helpGroup
	for _, g := range all {
		switch {
		case other[g.name]:
			rest = append(rest, g)
		case strings.HasPrefix(g.name, active):
			mine = append(mine, g)
		default:
			common = append(common, g)
		}
	}
	var cur []helpGroup
	for _, g := range slices.Concat(mine, common, rest) {
		try := append(slices.Clone(cur), g)
		if p, ok := a.helpLayoutOf(rowsOf(try), w, h, l, bot, most); len(cur) > 0 && (!ok || p.size < floor) {
			pages = append(pages, rowsOf(cur))
			try = []helpGroup{g}
		}
		cur = try
	}
	pages = append(pages, rowsOf(cur))
	size = most
	for _, pg := range pages {
		if p, ok := a.helpLayoutOf(pg, w, h, l, bot, most); ok {
			size = math.Min(size, p.size)
		}
	}
	return pages, size
}

// helpBase is the help's largest text size: the HUD's small text as shown
// (the asked scale capped as the HUD's is, so the help is not larger than
// the figures it explains).
func helpBase(l hudLayout) float64 { return l.reg.Size * 0.8 }

// nextHelpPage is what H does: open the help on its first page, then show
// the next page, and close after the last.
func (a *App) nextHelpPage() {
	if !a.d.View().Help {
		a.helpPage = 0
		a.d.Do(talk.Command{Op: talk.OpHelp, On: true})
		return
	}
	if a.winH > 0 && a.helpPage+1 < len(a.helpPages(a.winW, a.winH, a.layout(a.winW, a.winH))) {
		a.helpPage++
		return
	}
	a.helpPage = 0
	a.d.Do(talk.Command{Op: talk.OpHelp, On: false})
}

// otherFamilies are the help headings of the strategy families that are
// not active.
func (a *App) otherFamilies() map[string]bool {
	list := a.sess.Strategies()
	active := a.sess.StrategyIndex()
	other := map[string]bool{}
	for _, f := range families(list) {
		if !slices.Contains(f.members, active) {
			other[f.heading()] = true
		}
	}
	return other
}

// helpLayoutOf fits rows into the band (see helpLayout).
func (a *App) helpLayoutOf(rows []helpRow, w, h int, l hudLayout, bandBot int, most float64) (p helpPanel, ok bool) {
	// Measure at the base size; every length scales with the font size.
	base := most
	keyFace := a.fonts.face(a.fonts.bold, base)
	txt := a.fonts.face(a.fonts.regular, base)
	head := a.fonts.face(a.fonts.bold, base*1.1)
	m := helpMetrics{row: lineHeight(txt), head: lineHeight(head)}
	m.gap = m.row * helpGroupGap
	keyGap, colGap, pad := base*1.2, base*2, base*1.2
	titleH := m.head * 1.4
	bandTop := l.topH
	availW, availH := float64(w)*0.98, float64(bandBot-bandTop)*0.98
	var best helpPanel
	var scale, contentW, contentH float64
	for cols := 1; cols <= maxHelpColumns && cols <= len(rows); cols++ {
		starts, tallest := splitRows(rows, m, cols)
		colX, keyW, width := columnWidths(rows, starts, func(r helpRow, heading string) (float64, float64) {
			hw := measure(r.Help, txt)
			if heading != "" {
				hw = math.Max(hw, measure(heading, head))
			}
			return measure(r.Key, keyFace), hw
		}, keyGap, colGap)
		cw := math.Max(width, measure(widestHelpTitle, head)) + 2*pad
		ch := tallest + titleH + 2*pad
		sc := math.Min(1, math.Min(availW/cw, availH/ch))
		if sc > scale+1e-9 {
			best = helpPanel{rows: rows, starts: starts, colX: colX, keyW: keyW}
			scale, contentW, contentH = sc, cw, ch
		}
	}
	if best.starts == nil || scale <= 0 {
		return p, false
	}
	// Text does not grow exactly in proportion to its size (glyphs snap
	// to pixels): measure again at the size drawn, smaller still when the
	// lines would run past the panel's edge (at 1080p the longest rows ran
	// past it).
	for range 12 {
		sz := base * scale
		kf, tf, hf := a.fonts.face(a.fonts.bold, sz), a.fonts.face(a.fonts.regular, sz), a.fonts.face(a.fonts.bold, sz*1.1)
		colX, keyW, width := columnWidths(rows, best.starts, func(r helpRow, heading string) (float64, float64) {
			hw := measure(r.Help, tf)
			if heading != "" {
				hw = math.Max(hw, measure(heading, hf))
			}
			return measure(r.Key, kf), hw
		}, keyGap*scale, colGap*scale)
		best.colX, best.keyW = colX, keyW
		cw := math.Max(width, measure(widestHelpTitle, hf)) + 2*pad*scale
		if cw <= availW {
			contentW = cw / scale
			break
		}
		// Small text narrows in steps of whole pixels per glyph, not in
		// proportion: step down at least 2 %.
		scale *= math.Min(0.98, availW/cw*0.995)
	}
	x0 := math.Floor((float64(w) - contentW*scale) / 2)
	y0 := math.Floor(float64(bandTop) + (float64(bandBot-bandTop)-contentH*scale)/2)
	best.rect = image.Rect(int(x0), int(y0), int(x0+contentW*scale), int(y0+contentH*scale))
	best.size = base * scale
	best.keyGap, best.colGap, best.pad, best.titleH = keyGap*scale, colGap*scale, pad*scale, titleH*scale
	return best, true
}

// helpBottom is the bottom of the band the help may take: above the
// bottom HUD, and above the transient note while one shows, so a key
// pressed with the help open says what it did without covering its rows.
func (a *App) helpBottom(h int, l hudLayout) int {
	bot := h - l.botH
	if a.noteTicks > 0 && len(l.noteLines) > 0 {
		th := lineHeight(l.bold)*float64(len(l.noteLines)-1) + l.bold.Size
		bot -= int(math.Ceil(th + l.pad*2.5))
	}
	return bot
}

// heading is the group heading drawn above row i when it starts column
// (start) or its group: "" for none.
func heading(rows []helpRow, i int, startsColumn bool) string {
	r := rows[i]
	switch {
	case r.first:
		return strings.ToUpper(r.group)
	case startsColumn:
		return strings.ToUpper(r.group) + contSuffix
	}
	return ""
}

// columnWidths lays out the columns that start at the rows in starts: each
// column's left edge and widest key, and the total width, each column as
// wide as its own keys, lines and headings need (size gives a row's key
// and line widths, the line's including its heading's).
func columnWidths(rows []helpRow, starts []int, size func(r helpRow, heading string) (key, line float64), keyGap, colGap float64) (colX, keyW []float64, width float64) {
	for c, from := range starts {
		to := len(rows)
		if c+1 < len(starts) {
			to = starts[c+1]
		}
		kw, lw := 0.0, 0.0
		for i := from; i < to; i++ {
			k, l := size(rows[i], heading(rows, i, i == from))
			kw, lw = math.Max(kw, k), math.Max(lw, l)
		}
		if c > 0 {
			width += colGap
		}
		colX = append(colX, width)
		keyW = append(keyW, kw)
		width += kw + keyGap + lw
	}
	return colX, keyW, width
}

func (a *App) drawHelp(dst *ebiten.Image, l hudLayout) {
	w, h := dst.Bounds().Dx(), dst.Bounds().Dy()
	p, ok := a.helpLayout(w, h, l)
	if !ok {
		return
	}
	rows := p.rows
	size := p.size
	keyFace := a.fonts.face(a.fonts.bold, size)
	txt := a.fonts.face(a.fonts.regular, size)
	head := a.fonts.face(a.fonts.bold, size*1.1)
	lh, hh := lineHeight(txt), lineHeight(head)
	r := p.rect
	x0, y0 := float64(r.Min.X), float64(r.Min.Y)
	vector.FillRect(dst, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), colHelp, false)
	// An outline, so the panel's edge shows where it lies over the views.
	vector.StrokeRect(dst, float32(r.Min.X), float32(r.Min.Y), float32(r.Dx()), float32(r.Dy()), float32(math.Max(1, size/10)), colGridDim, false)
	title := "Keys  ·  H or F1 closes this"
	if p.pages > 1 {
		next := "H or F1: next page"
		if p.page == p.pages-1 {
			next = "H or F1 closes this"
		}
		title = fmt.Sprintf("Keys  ·  page %d of %d  ·  %s", p.page+1, p.pages, next)
	}
	label(dst, title, head, x0+p.pad, y0+p.pad, colText)
	top := y0 + p.pad + p.titleH
	col := -1
	var x, y float64
	for i, row := range rows {
		starts := col+1 < len(p.starts) && i == p.starts[col+1]
		if starts {
			col++
			x, y = x0+p.pad+p.colX[col], top
		}
		if hd := heading(rows, i, starts); hd != "" {
			label(dst, hd, head, x, y, colAccent)
			y += hh
		}
		label(dst, row.Key, keyFace, x, y, colText)
		label(dst, row.Help, txt, x+p.keyW[col]+p.keyGap, y, colDim)
		y += lh
		if row.last {
			y += lh * helpGroupGap
		}
	}
}
