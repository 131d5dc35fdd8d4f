package ui

// The HUD joins, wraps and cuts its texts while it lays them out, every
// frame: "0.3 cm RMS" + " · " + "3.3 cm max" to measure whether both fit
// on a line, each line of a wrapped note, a figure cut with "…". Made with
// + or fmt.Sprintf each is an allocation, a few hundred a frame; here they
// are written into buffers kept from frame to frame and emptied when a
// frame starts (App.Draw), so once the buffers have grown to what a frame
// needs, a frame allocates nothing for them.
//
// A string or list made here lives until the next frame starts: nothing
// may keep one longer (the text cache keeps a copy of a text it keeps;
// text/v2 is only given copies).

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

type frameText struct {
	b    []byte   // the frame's texts, end to end
	list []string // the frame's lists of texts, end to end
}

// frameTexts is the one drawing goroutine's (like texts).
var frameTexts frameText

// reset empties the buffers; what was made from them must be gone.
func (f *frameText) reset() {
	f.b = f.b[:0]
	f.list = f.list[:0]
}

// start is where a text starts to be written.
func (f *frameText) start() int { return len(f.b) }

// done is the text written since start.
func (f *frameText) done(start int) string {
	if len(f.b) == start {
		return ""
	}
	// A larger buffer, when the text did not fit, is a new array: the
	// texts made before stay in the old one, which they keep alive.
	return unsafe.String(&f.b[start], len(f.b)-start)
}

// join is the parts end to end.
func (f *frameText) join(parts ...string) string {
	s := f.start()
	for _, p := range parts {
		f.b = append(f.b, p...)
	}
	return f.done(s)
}

// float is strconv.FormatFloat(v, 'f', prec, 64) followed by tail.
func (f *frameText) float(v float64, prec int, tail string) string {
	s := f.start()
	f.b = strconv.AppendFloat(f.b, v, 'f', prec, 64)
	f.b = append(f.b, tail...)
	return f.done(s)
}

// cut is s's first n bytes followed by tail.
func (f *frameText) cut(s string, n int, tail string) string {
	st := f.start()
	f.b = append(f.b, s[:n]...)
	f.b = append(f.b, tail...)
	return f.done(st)
}

// listStart is where a list starts to be written.
func (f *frameText) listStart() int { return len(f.list) }

// add appends s to the list being written.
func (f *frameText) add(s string) { f.list = append(f.list, s) }

// listDone is the list written since start; appending to it copies it.
func (f *frameText) listDone(start int) []string {
	return f.list[start:len(f.list):len(f.list)]
}

// split is strings.Split(s, sep), as a frame list.
func (f *frameText) split(s, sep string) []string {
	st := f.listStart()
	for {
		i := strings.Index(s, sep)
		if i < 0 {
			break
		}
		f.add(s[:i])
		s = s[i+len(sep):]
	}
	f.add(s)
	return f.listDone(st)
}

// fields is strings.Fields(s), as a frame list.
func (f *frameText) fields(s string) []string {
	st := f.listStart()
	for len(s) > 0 {
		i := strings.IndexFunc(s, unicode.IsSpace)
		if i < 0 {
			f.add(s)
			break
		}
		if i > 0 {
			f.add(s[:i])
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		s = s[i+n:]
	}
	return f.listDone(st)
}
