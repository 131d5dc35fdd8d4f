package control

import (
	"sort"

	"netcubes/cubes"
	"netcubes/talk"
)

// Design note: the log. The director writes down everything that changes
// the run, as it happens: each command at the frame it was given (from
// the keys or from a track), every player's keys at every frame, and how
// long time stood still (pauses, single steps). Times are frames counted
// from the director's start, across resets of the world. The log is the
// recording (-record writes it as a track, its header being the command
// line's settings), and it is what going back in time re-simulates: a run
// rebuilt from the last restart before the moment and fed the log up to
// it is the same computation as the run the presenter saw.

// logRange holds one player's keys for frames From..To.
type logRange struct {
	From, To int
	In       cubes.Input
	// Given is true when the keys came from the presenter or a track, false
	// when a bot chose them: going back in time, a bot's frames are left
	// to the bot again, so its own state (the decision it holds between
	// decisions) is what it was.
	Given bool
}

// logEvent is a command in the log.
type logEvent struct {
	At  int
	Cmd talk.Command
	// Src is the index of the track event it came from, −1 for the
	// presenter's.
	Src int
}

// Log is what happened in a run.
type Log struct {
	events  []logEvent
	inputs  [cubes.MaxPlayers][]logRange
	frames  int // frames stepped
	changes int // changes so far (a save knows whether to write)
}

// Frames is the number of frames logged.
func (l *Log) Frames() int { return l.frames }

// Changes counts the changes to the log: a recording is saved again only
// when it changed.
func (l *Log) Changes() int { return l.changes }

func (l *Log) add(at int, c talk.Command, src int) {
	l.events = append(l.events, logEvent{At: at, Cmd: c, Src: src})
	l.changes++
}

// step logs one frame's keys of players 1..players (given: the players
// whose keys were given, a bit each).
func (l *Log) step(ins *cubes.Inputs, given uint8, players int) {
	f := l.frames
	l.frames++
	l.changes++
	for p := range min(players, cubes.MaxPlayers) {
		r := logRange{From: f, To: f, In: ins[p], Given: given&(1<<p) != 0}
		tr := &l.inputs[p]
		if n := len(*tr); n > 0 && (*tr)[n-1].To == f-1 && (*tr)[n-1].In == r.In && (*tr)[n-1].Given == r.Given {
			(*tr)[n-1].To = f
			continue
		}
		*tr = append(*tr, r)
	}
}

// inputAt is player p's keys at frame f, and whether they were given.
func (l *Log) inputAt(p, f int) (cubes.Input, bool) {
	tr := l.inputs[p]
	i := sort.Search(len(tr), func(i int) bool { return tr[i].To >= f })
	if i < len(tr) && tr[i].From <= f {
		return tr[i].In, tr[i].Given
	}
	return cubes.Input{}, false
}

// truncate forgets frames from f on and the events after the first keep.
func (l *Log) truncate(f, keep int) {
	l.changes++
	l.events = l.events[:keep]
	l.frames = f
	for p := range l.inputs {
		tr := l.inputs[p]
		i := sort.Search(len(tr), func(i int) bool { return tr[i].To >= f })
		if i < len(tr) && tr[i].From < f {
			tr[i].To = f - 1
			i++
		}
		l.inputs[p] = tr[:i]
	}
}

// script is the log's keys as a script: every player's, given or not (a
// recording replays a bot's keys as it pressed them).
func (l *Log) script(name string) *cubes.Script {
	s := &cubes.Script{Name: name, Length: max(l.frames, 1)}
	for p := range cubes.MaxPlayers {
		var rs []cubes.Range
		for _, r := range l.inputs[p] {
			if r.In == (cubes.Input{}) {
				continue
			}
			if n := len(rs); n > 0 && rs[n-1].To == r.From-1 && rs[n-1].Input == r.In {
				rs[n-1].To = r.To // a bot's run of keys the presenter's continued
				continue
			}
			rs = append(rs, cubes.Range{From: r.From, To: r.To, Input: r.In})
		}
		if p == 0 {
			s.Ranges = rs
		} else {
			s.Others[p-1] = rs
		}
	}
	return s
}
