package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

// progress draws a one-line progress bar on stderr while the bench runs,
// only when stderr is a terminal, so logs and CI output stay clean.
type progress struct {
	w       io.Writer
	enabled bool
	label   string
	total   int
	last    int // last percentage drawn
}

func newProgress(w io.Writer, want bool) *progress {
	p := &progress{w: w}
	if f, ok := w.(*os.File); ok && want {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.enabled = true
		}
	}
	return p
}

func (p *progress) start(label string, total int) {
	p.label, p.total, p.last = label, total, -1
	p.step(0)
}

func (p *progress) step(n int) {
	if !p.enabled || p.total == 0 {
		return
	}
	pct := n * 100 / p.total
	if pct == p.last {
		return
	}
	p.last = pct
	const width = 30
	fill := pct * width / 100
	fmt.Fprintf(p.w, "\r%-44.44s [%s%s] %3d%%", p.label, strings.Repeat("#", fill), strings.Repeat(".", width-fill), pct)
}

func (p *progress) done() {
	if p.enabled {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", 90))
	}
}
