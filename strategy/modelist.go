package strategy

import "fmt"

// ModeList is a second list of sub-modes a strategy offers on `[`/`]`
// beside its own (the original demo's modes beside today's build-up), and
// the key that switches between the two. Which mode of the list is shown
// (1..N; 0: the strategy's own sub-modes) is the strategy's setting; the
// list remembers the last one shown, so the key goes back to it.
type ModeList struct {
	N     int // modes in the list
	Shown int // the mode shown, 1..N, or 0
	Last  int // the last mode shown (0: none yet)
}

// Toggle is the mode the switch key goes to: back to the strategy's own
// sub-modes (0) from the list, or into the list at the last mode shown.
func (l *ModeList) Toggle() int {
	if l.Shown > 0 {
		return 0
	}
	return max(l.Last, 1)
}

// Step is the mode dir steps to from the shown one, wrapping, and
// remembers it as the last shown.
func (l *ModeList) Step(dir int) int {
	n := max(l.N, 1)
	l.Last = (l.Shown-1+dir%n+n)%n + 1
	return l.Last
}

// Control is the switch key: its value says which list `[`/`]` step
// (own names the strategy's own), and a press applies Toggle with set.
func (l *ModeList) Control(key, help, own string, set func(n int)) Control {
	return Control{Key: key, Label: "mode list", Help: help, Action: Toggle,
		Value: func() string {
			if l.Shown > 0 {
				return fmt.Sprintf("the original demo's modes (now %d of %d)", l.Shown, l.N)
			}
			return own
		},
		Do: func(int) { set(l.Toggle()) }}
}

// OriginalFlagName is the flag every strategy with a ModeList of the
// original demo's modes shares: each starts in its mode N.
const OriginalFlagName = "original"

// Flag is the list's -original flag: set puts the strategy in mode n. The
// strategies that have one share it (the usage is the first's, so it is
// the same text for all), and each checks n against its own list.
func (l *ModeList) Flag(set func(n int)) Flag {
	return IntFlag(OriginalFlagName, "start in the original demo's mode N (1-6) where a strategy has them: snapshot interpolation the snapshot demo's, compression the compression demo's, state sync the sync demo's (live: F2, then [ ])",
		1, max(l.N, 1), set)
}
