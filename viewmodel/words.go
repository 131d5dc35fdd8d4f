package viewmodel

import "strconv"

// Plural writes a count with its unit, singular for exactly one: "1 tick",
// "3 ticks", "0 packets". The HUD's lines are read aloud on stage, where
// "1 ticks old" is noticed.
func Plural(n int, unit string) string {
	if n == 1 || n == -1 {
		return strconv.Itoa(n) + " " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}
