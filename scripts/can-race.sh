#!/usr/bin/env bash
# can-race.sh: exits 0 when this machine can build with the race
# detector, which on Linux needs cgo: a C compiler and the C library's
# headers (Debian: gcc and libc6-dev). make test's race phase runs only
# then, and says why not otherwise.
set -uo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if ! command -v "${CC:-gcc}" >/dev/null 2>&1; then
	echo "no C compiler (${CC:-gcc}): the race detector needs cgo"
	exit 1
fi
printf 'package main\n\n// int one(void) { return 1; }\nimport "C"\n\nfunc main() { _ = C.one() }\n' >"$dir/main.go"
printf 'module racecheck\n' >"$dir/go.mod"
if ! out=$(cd "$dir" && CGO_ENABLED=1 go build -race -o /dev/null . 2>&1); then
	echo "cgo cannot build here (the C library's headers? Debian: libc6-dev): the race detector needs it"
	echo "$out" | head -3
	exit 1
fi
