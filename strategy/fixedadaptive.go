package strategy

// FixedVsAdaptive is the bench table that compares a playout delay fixed as
// the article fixes it with the adaptive one (package adapt), on every
// preset: the latency the right shows and the share of a failure the delay
// is there to prevent (a snapshot buffer starved, a state update applied
// late), each way, the adaptive delay at the run's end, the jitter it
// measured, and a verdict. Snapshots and state sync each have one; the
// comparison and its verdict are the same logic, written here once.
type FixedVsAdaptive struct {
	t *Table
	// less and more end the verdict when the adaptive delay shows later
	// with fewer failures, or sooner with more ("starves less").
	less, more    string
	better, total int
}

// NewFixedVsAdaptive starts the table: failure heads the failure's columns
// ("starved", "late packets"), end is the column of the adaptive delay at
// the run's end, less and more the verdict's words for fewer and more
// failures ("starves less", "starves more").
func NewFixedVsAdaptive(failure string, end Column, less, more string) *FixedVsAdaptive {
	t := NewTable(Column{Head: "preset"},
		Column{Head: "fixed: latency ms", Unit: "ms"}, Column{Head: "fixed: " + failure, Unit: "%"},
		Column{Head: "adaptive: latency ms", Unit: "ms"}, Column{Head: "adaptive: " + failure, Unit: "%"},
		end, Column{Head: "jitter σ ms", Unit: "ms"}, Column{Head: "adaptive is"})
	return &FixedVsAdaptive{t: t, less: less, more: more}
}

// Add is one preset's two runs, fixed ([0]) and adaptive ([1]): the mean
// latency in ms and the failures' share (0..1); end is the adaptive
// delay at the end, sigmaMs the jitter it measured.
func (f *FixedVsAdaptive) Add(preset string, latency, failed [2]float64, end Cell, sigmaMs float64) {
	verdict, ok := f.verdict(latency, failed)
	f.total++
	if ok {
		f.better++
	}
	f.t.Add(Text(preset), Num(latency[0], "%.0f"), Num(100*failed[0], "%.2f %%"),
		Num(latency[1], "%.0f"), Num(100*failed[1], "%.2f %%"), end, Num(sigmaMs, "%.1f"), Text(verdict))
}

// verdict says how the adaptive run compares, and whether it is at least
// as good on both figures.
func (f *FixedVsAdaptive) verdict(lat, failed [2]float64) (string, bool) {
	switch {
	case lat[1] == lat[0] && failed[1] == failed[0]:
		return "the same", true
	case lat[1] <= lat[0] && failed[1] <= failed[0]:
		return "better on both", true
	case lat[1] > lat[0] && failed[1] < failed[0]:
		return "later, " + f.less, false
	case lat[1] < lat[0] && failed[1] > failed[0]:
		return "sooner, " + f.more, false
	}
	return "worse", false
}

// Better is how many of the rows so far the adaptive delay is at least as
// good on both figures in, of total.
func (f *FixedVsAdaptive) Better() (n, total int) { return f.better, f.total }

// Table is the table, for its notes and to print.
func (f *FixedVsAdaptive) Table() *Table { return f.t }

// Chart draws the two figures fixed against adaptive, preset by preset:
// names the two runs' names, failureLabel the failure panel's label.
func (f *FixedVsAdaptive) Chart(file, title string, names []string, failureLabel string) Chart {
	c := f.t.Columns
	return Chart{
		File: file, Title: title,
		X: []string{"preset"}, Bars: true, Names: names,
		Panels: []Panel{
			{Ys: []string{c[1].Head, c[3].Head}, Label: "latency the right shows"},
			{Ys: []string{c[2].Head, c[4].Head}, Label: failureLabel},
		},
	}
}
