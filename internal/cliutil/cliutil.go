// Package cliutil keeps the command lines of netcubes' programs (the app,
// the bench, the soak) to their rule: a bad value prints one short line and
// exits with code 2, whatever the value holds. Flags are input too: a value
// may be 60 kB long or hold a line break, and the message quoting it must
// still be one readable line.
package cliutil

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxMessageBytes bounds a message from OneLine.
const MaxMessageBytes = 300

// quoteBytes is how much of a value Quote keeps.
const quoteBytes = 40

// Quote writes a flag's value for an error message: quoted (line breaks
// and control characters escaped) and cut to its first few dozen bytes,
// with its length, when longer.
func Quote(v string) string { return QuoteCut(v, quoteBytes) }

// QuoteCut is Quote keeping at most n bytes of v (the script parser quotes
// a bad token the same way, shorter).
func QuoteCut(v string, n int) string {
	if len(v) <= n {
		return strconv.Quote(v)
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(v[cut]) {
		cut--
	}
	return strconv.Quote(v[:cut]) + "… (" + strconv.Itoa(len(v)) + " bytes)"
}

// OneLine makes msg one line: control characters (line breaks included)
// and invalid UTF-8 are escaped as Go writes them, and a message longer than
// MaxMessageBytes is cut there and ends in "…". Messages of the flag
// package quote the value as given, unbounded; this is the net under them.
func OneLine(msg string) string {
	var b strings.Builder
	for _, r := range msg {
		piece := string(r)
		switch {
		case r == utf8.RuneError:
			piece = `\ufffd`
		case unicode.IsControl(r):
			q := strconv.QuoteRune(r)
			piece = q[1 : len(q)-1]
		}
		if b.Len()+len(piece) > MaxMessageBytes {
			b.WriteString("…")
			break
		}
		b.WriteString(piece)
	}
	return b.String()
}
