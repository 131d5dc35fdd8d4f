// Package talk is the talk-track language: a run of netcubes written as a
// file that plays the same way every time. It parses a track (ParseWith, Load),
// prints one (Track.WriteTo, Command.String) and checks every word against
// the strategies' own settings; playing one, taking the presenter's keys,
// recording and going back in time are package control's.
//
// # The language
//
// A track is plain text, one line each, "#" starts a comment. It is a
// superset of the script format of package cubes: every old script (frame
// ranges of player keys, "end N") is a track.
//
//	# setup: lines without a time, before the timeline, as flags would
//	seed 7
//	players 3
//	bots push,gather
//	strategy statesync
//	preset mobile              # or: preset wifi client 2
//	link chosen                # the link the strategy's mode chooses (lockstep)
//	set level 9                # any strategy flag, or a setting's name
//	ghost off
//
//	# the timeline: TIME COMMAND, in time order
//	0 play katamari            # player 1's keys from a script (p2 play push …)
//	0-1.5s up katamari         # keys for a range of frames (0-89 up: frames)
//	12s preset terrible
//	0:20 outage 1s             # or: outage start … outage end
//	+5s caption 4s "watch the right catch up" "second line"
//	30s link latency 100 loss 5        # any figure: latency jitter loss dup
//	31s link up loss 10                # reorder reorder-extra burst-in burst-out
//	32s link cap 256                   # burst-loss cap queue-ms queue-bytes mtu
//	33s link latency +10 client 2      # corrupt tcp; down/up/both; +N / -N
//	40s strategy lockstep
//	40s set lockstep-mode 6
//	41s key F8                 # a press of a strategy's key (key shift+D)
//	42s submode next
//	50s pause 3s               # pause alone waits for P
//	55s slow on
//	1:00 players 2
//	1:00 show client 2
//	1:02 grid on               # the server and up to four clients at once
//	1:05 tint priority         # ghost, offsets, chart on|off|clear, help
//	1:10 checksum on
//	1:20 reset                 # the world over (F5); scene (Home); restart
//	end 1:30
//
// Times are frames (720), seconds (12s, 12.5s) or minutes:seconds (0:12,
// 1:02.5), or "+5s" after the command before. A range to a time
// ("0-1.5s") stops just before it, so the next starts there; a range of
// frames ("0-89") keeps its last frame, as scripts always have. Every
// error names the file, the line and the word, and says what was wanted:
// "talk.txt:12: unknown preset "terrble" (presets: perfect, LAN, …)".
package talk
