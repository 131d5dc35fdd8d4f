#!/usr/bin/env bash
# app-memory.sh [STRATEGY...]: the app's memory per strategy, under a virtual
# display. For each strategy (default: every one of the catalog) it runs
#
#   netcubes -strategy S -script katamari -frames $FRAMES -antialias=false -mute
#
# (FRAMES=7200 by default: two minutes of ticks), samples the resident set
# (VmRSS in /proc/PID/status) every second, and reads the live heap from the
# Go runtime's own trace (GODEBUG=gctrace=1: the heap left after each
# collection). It prints one line per strategy: the resident set at the
# first sample after ten seconds and at the peak, the live heap's range and
# the number of collections;
# then where the peak's resident set lies (from /proc/PID/smaps): the Go
# heap's arenas (the anonymous mappings below 0x700000000000, where the Go
# runtime reserves them; the C libraries map theirs near 0x7f...), the shared
# libraries' pages (the GL driver: Mesa and LLVM for a virtual display),
# the C heap ([heap]: the driver's malloc) and the other anonymous memory
# (the driver's buffers, Go's stacks and metadata).
#
#   scripts/app-memory.sh                 # every strategy
#   FRAMES=3600 scripts/app-memory.sh predict compression
#   GOMEMLIMIT=96MiB scripts/app-memory.sh  # the app under a soft memory limit
#
# The environment reaches the app (GOMEMLIMIT, GOGC). Run it on a quiet
# machine: the frames are drawn by software OpenGL, 7200 take two minutes at
# best and much longer on a busy one (the memory figures do not change).
set -euo pipefail

FRAMES=${FRAMES:-7200}
cd "$(dirname "$0")/.."
bin=$(mktemp -d)/netcubes
trap 'rm -rf "$(dirname "$bin")"' EXIT
CGO_ENABLED=0 go build -o "$bin" .

strategies=("$@")
if [ ${#strategies[@]} -eq 0 ]; then
	strategies=(interpolation compression statesync lockstep predict)
fi

# smapsSplit PID: the resident MB of the Go arenas, libraries, C heap, rest.
smapsSplit() {
	awk '
		/^[0-9a-f]+-[0-9a-f]+ / {
			split($1, r, "-"); addr = r[1]; name = $6
			kind = "anon"
			if (name == "[heap]") kind = "cheap"
			else if (name ~ /^\//) kind = "lib"
			else if (name == "" && length(addr) <= 12 && !(length(addr) == 12 && substr(addr, 1, 1) >= "7")) kind = "go"
			next
		}
		/^Rss:/ { kb[kind] += $2 }
		END { printf "%.0f %.0f %.0f %.0f", kb["go"] / 1024, kb["lib"] / 1024, kb["cheap"] / 1024, kb["anon"] / 1024 }
	' "/proc/$1/smaps" 2>/dev/null || echo "- - - -"
}

printf '%-14s %8s %10s %10s %14s %5s   %s\n' strategy seconds 'RSS@10s MB' 'RSS max MB' 'live heap MB' GCs 'at the peak: Go arenas / libraries / C heap / other anon MB'
for s in "${strategies[@]}"; do
	trace=$(mktemp)
	GODEBUG=gctrace=1 xvfb-run -a -s "-screen 0 1920x1080x24" \
		"$bin" -strategy "$s" -script katamari -frames "$FRAMES" -antialias=false -mute \
		>/dev/null 2>"$trace" &
	runner=$!
	start=$SECONDS
	first=0 peak=0 split="- - - -"
	while kill -0 "$runner" 2>/dev/null; do
		# The app is xvfb-run's grandchild: find it by its path.
		pid=$(pgrep -f "^$bin " | head -n1 || true)
		if [ -n "$pid" ] && [ -r "/proc/$pid/status" ]; then
			kb=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
			kb=${kb:-0}
			if [ "$kb" -gt "$peak" ]; then
				peak=$kb
				split=$(smapsSplit "$pid")
			fi
			if [ "$first" -eq 0 ] && [ $((SECONDS - start)) -ge 10 ]; then first=$kb; fi
		fi
		sleep 1
	done
	wait "$runner" || true
	# gctrace lines: "gc N @T s P%: ... A->B->C MB, ..."; C is the live heap.
	live=$(grep -o '[0-9]*->[0-9]*->[0-9]* MB' "$trace" | awk -F'->' '{sub(/ MB/, "", $3); print $3}' |
		sort -n | awk 'NR==1 {min=$1} {max=$1} END {if (NR) printf "%d - %d", min, max; else print "-"}' || true)
	gcs=$(grep -c '^gc [0-9]' "$trace" || true)
	printf '%-14s %8d %10d %10d %14s %5d   %s\n' "$s" $((SECONDS - start)) "$((first / 1024))" "$((peak / 1024))" "$live" "${gcs:-0}" "$split"
	rm -f "$trace"
done
