package talk

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"netcubes/assets"
	"netcubes/catalog"
	"netcubes/cubes"
)

// TestBuiltinScriptsParseAsBefore: every script of assets/scripts reads
// the same through the track parser as through the script parser, with no
// command: old scripts play as they did.
func TestBuiltinScriptsParseAsBefore(t *testing.T) {
	for _, name := range assets.ScriptNames() {
		text, _ := assets.Script(name)
		old, err := cubes.ParseScript(name, strings.NewReader(text))
		if err != nil {
			t.Fatal(err)
		}
		tr, err := Parse(name, strings.NewReader(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tr.HasCommands() {
			t.Errorf("%s: commands %v %v", name, tr.Setup, tr.Events)
		}
		if tr.Length != old.Length || !reflect.DeepEqual(tr.Input.Ranges, old.Ranges) || !reflect.DeepEqual(tr.Input.Others, old.Others) {
			t.Errorf("%s: length %d ranges %d, want %d and %d", name, tr.Length, len(tr.Input.Ranges), old.Length, len(old.Ranges))
		}
		for f := range old.Length + 10 {
			for p := range cubes.MaxPlayers {
				if tr.InputAt(p, f) != old.PlayerInputAt(p, f) {
					t.Fatalf("%s: player %d frame %d: %v, want %v", name, p+1, f, tr.InputAt(p, f), old.PlayerInputAt(p, f))
				}
			}
		}
	}
}

// TestParseCommands: every command reads and writes back as it is written
// (its canonical form), at the time given.
func TestParseCommands(t *testing.T) {
	for _, c := range []struct{ line, at, cmd string }{
		{"12s strategy statesync", "720", "strategy statesync"},
		{"0:12 strategy 3", "720", "strategy statesync"},
		{"1:02.5 submode next", "3750", "submode next"},
		{"10 submode prev", "10", "submode prev"},
		{"10 key R", "10", "key R"},
		{"10 key shift+D", "10", "key shift+D"},
		{"10 key F8", "10", "key F8"},
		{"10 set level 9", "10", "set level 9"},
		{"10 set congestion-avoidance on", "10", "set congestion-avoidance on"},
		{"10 set smoothing adaptive", "10", "set smoothing adaptive"},
		{"10 preset terrible", "10", "preset terrible"},
		{"10 preset wifi client 2", "10", "preset Wi-Fi client 2"},
		{"10 link latency 100 loss 5", "10", "link latency 100 loss 5"},
		{"10 link up loss 10 jitter 25", "10", "link up loss 10 jitter 25"},
		{"10 link down latency 35 up latency 55", "10", "link down latency 35 up latency 55"},
		{"10 link latency +10 client 3", "10", "link latency +10 client 3"},
		{"10 link jitter -5", "10", "link jitter -5"},
		{"10 link cap 256", "10", "link cap 256"},
		{"10 link cap off", "10", "link cap 0"},
		{"10 link cap next", "10", "link cap next"},
		{"10 link corrupt prev", "10", "link corrupt prev"},
		{"10 link tcp toggle", "10", "link tcp toggle"},
		{"10 link tcp on mtu 1500 queue-ms 500 dup 5 reorder 5 reorder-extra 50", "10", "link tcp on mtu 1500 queue-ms 500 dup 5 reorder 5 reorder-extra 50"},
		{"10 link burst-in 0.5 burst-out 20 burst-loss 63 queue-bytes 4000", "10", "link burst-in 0.5 burst-out 20 burst-loss 63 queue-bytes 4000"},
		{"20s outage 1s", "1200", "outage 1s"},
		{"20s outage 90 client 2", "1200", "outage 1.5s client 2"},
		{"20s outage start", "1200", "outage start"},
		{"20s outage end client 1", "1200", "outage end client 1"},
		{"10 checksum on", "10", "checksum on"},
		{"10 players 3", "10", "players 3"},
		{"10 show client 2", "10", "show client 2"},
		{"10 ghost off", "10", "ghost off"},
		{"10 tint priority", "10", "tint priority"},
		{"10 offsets on", "10", "offsets on"},
		{"10 chart clear", "10", "chart clear"},
		{"10 help on", "10", "help on"},
		{"10 grid on", "10", "grid on"},
		{"10 grid off", "10", "grid off"},
		{`25s caption "watch the right catch up"`, "1500", `caption "watch the right catch up"`},
		{`25s caption 4s "one" 'two "quoted"'`, "1500", `caption 4s "one" 'two "quoted"'`},
		{`25s caption "# not a comment" # a comment`, "1500", `caption "# not a comment"`},
		{"10 caption off", "10", "caption off"},
		{"10 pause", "10", "pause"},
		{"10 pause 3s", "10", "pause 180"},
		{"10 slow on", "10", "slow on"},
		{"10 reset", "10", "reset"},
		{"10 scene", "10", "scene"},
		{"10 restart", "10", "restart"},
		{"10 play katamari", "10", "play katamari"},
		{"p2 10 play idle", "10", "p2 play idle"},
		{"10 p3 play off", "10", "p3 play off"},
	} {
		tr, err := Parse("t.txt", strings.NewReader(c.line))
		if err != nil {
			t.Errorf("%q: %v", c.line, err)
			continue
		}
		if len(tr.Events) != 1 {
			t.Errorf("%q: %d events", c.line, len(tr.Events))
			continue
		}
		e := tr.Events[0]
		if got := fmt.Sprint(e.At); got != c.at || e.Cmd.String() != c.cmd {
			t.Errorf("%q: at %s %q, want at %s %q", c.line, got, e.Cmd.String(), c.at, c.cmd)
		}
		// The canonical form reads back to itself.
		back, err := Parse("t.txt", strings.NewReader(c.at+" "+e.Cmd.String()))
		if err != nil || back.Events[0].Cmd.String() != c.cmd {
			t.Errorf("%q does not read back: %v", c.cmd, err)
		}
	}
}

// TestParseSetupAndTimes: setup lines, relative times, ranges in seconds,
// the length a track needs.
func TestParseSetupAndTimes(t *testing.T) {
	text := `# a talk
seed 7
players 2
bots push
strategy lockstep
preset mobile
link chosen
set level 9
ghost off
0-1s up katamari
p2 0:01-0:02 left
5s caption "hello"
+2s preset terrible
+0.5s outage 1s
`
	tr, err := Parse("talk.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	var setup []string
	for _, c := range tr.Setup {
		setup = append(setup, c.String())
	}
	if got := strings.Join(setup, "; "); got != "seed 7; players 2; bots push; strategy lockstep; preset mobile; link chosen; set level 9; ghost off" {
		t.Errorf("setup: %s", got)
	}
	var at []int
	for _, e := range tr.Events {
		at = append(at, e.At)
	}
	if !reflect.DeepEqual(at, []int{300, 420, 450}) {
		t.Errorf("times %v, want 300 420 450", at)
	}
	// A range to a time stops just before it (0-1s is frames 0-59), so
	// the next can start there.
	if r := tr.Input.Ranges[0]; r.From != 0 || r.To != 59 {
		t.Errorf("range %+v, want 0-59", r)
	}
	if r := tr.Input.Others[0][0]; r.From != 60 || r.To != 119 {
		t.Errorf("p2 range %+v, want 60-119", r)
	}
	chained, err := Parse("c.txt", strings.NewReader("0-1.5s up\n1.5s-4s left\n240-299 down\n"))
	if err != nil {
		t.Fatalf("ranges to a time do not chain: %v", err)
	}
	if in := chained.Input; in.InputAt(89) != (cubes.Input{Up: true}) || in.InputAt(90) != (cubes.Input{Left: true}) ||
		in.InputAt(239) != (cubes.Input{Left: true}) || in.InputAt(299) != (cubes.Input{Down: true}) {
		t.Errorf("chained ranges: %+v", in.Ranges)
	}
	// The caption at 5 s stays 5 s; the outage at 7.5 s lasts 1 s.
	if tr.Length != 600 {
		t.Errorf("length %d, want 600 (the caption's end)", tr.Length)
	}
}

// TestParseErrors pins the text of the errors: the file, the line, the
// word that is wrong and what was expected.
func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"0-59 jump", `t.txt:1: unknown key "jump" (keys: left right up down blow katamari, or - for none)`},
		{"60 jump", `t.txt:1: unknown command "jump" (commands: strategy submode key set preset link outage checksum players show ghost tint offsets chart help grid caption pause slow reset scene restart play seed bots end; or keys for a frame's input: left right up down blow katamari -)`},
		{"12x preset terrible", `t.txt:1: bad time "12x": want frames (720), seconds (12s) or minutes:seconds (0:12)`},
		{"1:75 preset lan", `t.txt:1: bad time "1:75": want frames (720), seconds (12s) or minutes:seconds (0:12)`},
		{"-5 up", `t.txt:1: bad time "-5": want frames (720), seconds (12s) or minutes:seconds (0:12)`},
		{"10 preset terrble", `t.txt:1: unknown preset "terrble" (presets: perfect, LAN, Wi-Fi, intercontinental, mobile, terrible, DSL, congested, asymmetric, bottleneck)`},
		{"10 strategy teleport", `t.txt:1: unknown strategy "teleport" (strategies: interpolation, compression, statesync, lockstep, predict, authority, rollback, or 1 to 7)`},
		{"10 set level 15", `t.txt:1: set level: level must be 1..14, got "15"`},
		// The lists are the catalog's: every setting and key a strategy has.
		{"10 set warp-speed on", `t.txt:1: unknown setting "warp-speed" (settings, the closest first: ` + closestNames("warp-speed", settingNames(catalog.All()), namesBytes) + `)`},
		{"10 set congestion-avoidance maybe", `t.txt:1: set congestion-avoidance "maybe": no press of F8 gives it (now "off")`},
		{"10 key Z", `t.txt:1: "Z" is no strategy's setting key (keys: ` + strings.Join(controlKeys(catalog.All()), " ") + `)`},
		{"10 link latency 9000", `t.txt:1: link latency "9000": want 0..5000 ms, or +N / -N`},
		{"10 link warp 5", `t.txt:1: unknown link figure "warp" (figures: latency jitter loss dup reorder reorder-extra burst-in burst-out burst-loss cap queue-ms queue-bytes mtu corrupt tcp; or down, up, both)`},
		{"10 link latency", `t.txt:1: link latency needs a value`},
		{"10 link tcp maybe", `t.txt:1: link tcp "maybe": want on, off or toggle`},
		{"10 outage 0", `t.txt:1: duration "0" is zero: want at least one frame`},
		{"10 outage 1s client 99", `t.txt:1: bad client "99": want 1 to 64`},
		{"10 players 9", `t.txt:1: bad players "9": want 1 to 8`},
		{"10 caption hello", `t.txt:1: caption: bad time "hello": want frames (720), seconds (12s) or minutes:seconds (0:12) (a duration, then the text in quotes)`},
		{`10 caption "a" "b" "c"`, `t.txt:1: want caption [DURATION] "line" ["second line"] (one or two lines in quotes), or caption off`},
		{`10 caption "unclosed`, `t.txt:1: unclosed quote "\"unclosed": want the text between two "`},
		{`10 caption "` + strings.Repeat("x", 121) + `"`, `t.txt:1: caption line "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"… (121 bytes) is 121 bytes: keep it under 120 to be read from the back`},
		{"10 seed 3", `t.txt:1: seed is a setup line: write it without a time, before the timeline`},
		{"caption \"x\"", `t.txt:1: caption needs a time: write it as "12s caption"`},
		{"10 preset lan\nseed 3", `t.txt:2: a line without a time ("seed") after the timeline started (line 1): setup lines go first`},
		{"20 preset lan\n10 preset wifi", `t.txt:2: "10" (0:00.2) comes before the command above it, at 0:00.3: want commands in time order`},
		{"10 play nothing-such", `t.txt:1: play: script "nothing-such" is neither built in (idle, katamari, push) nor a readable file: open nothing-such: no such file or directory`},
		{"10 tint rainbow", `t.txt:1: unknown tint "rainbow" (tints: interacting, priority, updated)`},
		{"10 show 2", `t.txt:1: want show client N, got "2"`},
		{"10 show player 2", `t.txt:1: show "player": want "show client N" (the client the right view shows)`},
		{"10 reset now", `t.txt:1: reset takes nothing after it, got "now"`},
		{"p2 10 preset lan", `t.txt:1: a player prefix "p2" goes with input ranges or play: want "p2 0-59 up" or "p2 12s play katamari"`},
		{"p9 0-59 up", `t.txt:1: bad player "p9": want p1 to p8`},
		{"10", `t.txt:1: time "10" has nothing after it: want keys (0-59 up) or a command (12s preset terrible)`},
		{"10 preset lan\nend 10", `t.txt:2: end "10" is not after the last command, at 0:00.2: want a larger N`},
		{"end 10\n5 up", `t.txt:2: nothing may follow the end line (line 1): want it last`},
		{"# nothing\n", `t.txt:1: empty script: want at least one frame range, such as "0-59 up", a timed command, or "end N"`},
		{"\xff\xfe1", `t.txt:1: the file is UTF-16 text: want UTF-8 (plain text)`},
		{"0-9 up\n5 down", `t.txt:2: range 5-5 overlaps or precedes the previous range, which ends at 9: want ranges in increasing order`},
	} {
		_, err := Parse("t.txt", strings.NewReader(c.text))
		got := "<nil>"
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.text, got, c.want)
		}
	}
}

// TestWriteReadsBack: a track written and read back is the same track.
func TestWriteReadsBack(t *testing.T) {
	text := `seed 3
players 2
strategy compression
preset asymmetric
link down latency 20 up loss 3 client 2
set level 9
tint updated
0-59 -
60-119 up katamari
p2 10-20 left
0 caption 3s "first" "second"
30 key F8
30 link cap next
31 outage 1s client 1
+1s players 1
end 400
`
	tr, err := Parse("w.txt", strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := tr.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Parse("w.txt", &buf)
	if err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if canonical(back) != canonical(tr) {
		t.Errorf("read back:\n%s\nwant:\n%s", canonical(back), canonical(tr))
	}
}

// canonical writes what a track means: its setup, events, ranges, length.
func canonical(t *Track) string {
	var b strings.Builder
	for _, c := range t.Setup {
		fmt.Fprintln(&b, c.String())
	}
	for _, e := range t.Events {
		fmt.Fprintln(&b, e.At, e.Cmd.String())
	}
	fmt.Fprintln(&b, t.Input.Ranges, t.Input.Others, t.Length)
	return b.String()
}

// FuzzParseTrack feeds the track parser any bytes: it returns a track or
// one short line naming the file, never panics, and a track it returns
// writes out and reads back the same.
func FuzzParseTrack(f *testing.F) {
	for _, name := range Names() {
		text, _ := builtin(name)
		f.Add([]byte(text))
	}
	f.Add([]byte("seed 3\nstrategy 2\n0-59 up\n1s caption 2s \"a\" 'b'\n+1s link down cap next up tcp toggle\nend 300"))
	f.Add([]byte("\ufeff0-59 up\r\n60 blow\r\n1:00.5 preset lan client 2\r\n"))
	f.Add([]byte("p2 0-9 up\np2 5s play idle\n10 set level 9\n10 key shift+D\n"))
	f.Add([]byte("10 outage start\n11 outage end\n12 pause\n13 slow on\n14 restart"))
	f.Add([]byte("0-1.5s up\n1.5s-0:04 left katamari\n240-299 down\n5s caption off\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ParseWith("f.txt", bytes.NewReader(data), fuzzLoader)
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "f.txt:") || strings.Contains(msg, "\n") || len(msg) > 600 {
				t.Fatalf("error is not one short line naming the file: %q", msg)
			}
			return
		}
		if tr.Length <= 0 || tr.Length > MaxFrames {
			t.Fatalf("length %d", tr.Length)
		}
		var buf bytes.Buffer
		if _, err := tr.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := ParseWith("f.txt", &buf, fuzzLoader)
		if err != nil {
			t.Fatalf("written track does not read back: %v\n%s", err, buf.String())
		}
		if canonical(back) != canonical(tr) {
			t.Fatalf("read back:\n%s\nwant:\n%s", canonical(back), canonical(tr))
		}
	})
}

// fuzzLoader plays the built-in scripts only: a fuzzer must not read
// files.
func fuzzLoader(name string) (*cubes.Script, error) {
	if text, ok := assets.Script(name); ok {
		return cubes.ParseScript(name, strings.NewReader(text))
	}
	return nil, fmt.Errorf("no script %q", name)
}

// TestClosestNames: a mistyped setting is answered with the nearest names
// first, and the list stays one short line however many settings the
// strategies have.
func TestClosestNames(t *testing.T) {
	names := settingNames(catalog.All())
	got := closestNames("lockstep-modb", names, namesBytes)
	if !strings.HasPrefix(got, "lockstep-mode lockstep-delay ") {
		t.Errorf("closest to lockstep-modb: %s", got)
	}
	if len(got) > namesBytes+len(" … and 100 more") || !strings.Contains(got, "more") {
		t.Errorf("%d bytes, want at most about %d and a count of the rest: %s", len(got), namesBytes, got)
	}
	if got := closestNames("b", []string{"c", "bb", "a"}, 100); got != "c bb a" {
		t.Errorf("ties keep their order: %s", got)
	}
}
