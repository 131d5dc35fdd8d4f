package talk

import (
	"fmt"
	"strings"

	"netcubes/internal/cliutil"
)

// quoteBytes is how much of a bad word an error message quotes.
const quoteBytes = 32

// quote writes a word for an error message: quoted and cut short, so a
// huge bad word cannot make a huge message.
func quote(w string) string { return cliutil.QuoteCut(w, quoteBytes) }

// word is one word of a line; quoted is true for a "quoted string", which
// is text (a caption's line) and never a keyword.
type word struct {
	s      string
	quoted bool
}

// splitWords splits a line into words: runs of non-space characters, or
// text in double or single quotes (which may hold spaces and '#'). A '#'
// outside quotes starts a comment.
func splitWords(line string) ([]word, error) {
	var out []word
	i := 0
	for i < len(line) {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f':
			i++
		case c == '#':
			return out, nil
		case c == '"' || c == '\'':
			end := strings.IndexByte(line[i+1:], c)
			if end < 0 {
				return nil, fmt.Errorf("unclosed quote %s: want the text between two %c", quote(line[i:]), c)
			}
			out = append(out, word{s: line[i+1 : i+1+end], quoted: true})
			i += end + 2
		default:
			j := i
			for j < len(line) && !strings.ContainsRune(" \t\r\v\f#\"'", rune(line[j])) {
				j++
			}
			out = append(out, word{s: line[i:j]})
			i = j
		}
	}
	return out, nil
}

// plain returns the words' text.
func plain(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.s
	}
	return out
}

// quoteText writes a caption's line for a track file: in double quotes,
// or single quotes when it holds a double quote.
func quoteText(s string) string {
	if strings.ContainsRune(s, '"') {
		return "'" + s + "'"
	}
	return `"` + s + `"`
}
