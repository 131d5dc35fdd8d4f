# The README's two commands: `make run` and `make test`; `make web` builds the
# browser version. On Linux both first make sure the system libraries
# Ebitengine loads are installed; macOS and Windows need none.

GO ?= go
# Ebitengine v2.10 is pure Go on Linux: it loads OpenGL, X11 and ALSA at run
# time (purego's dlopen), so the build needs no C compiler and no -dev
# packages. Building without cgo keeps it that way.
export CGO_ENABLED := 0
# Extra arguments for the app, e.g. make run ARGS="-script katamari".
ARGS ?=

UNAME := $(shell uname -s 2>/dev/null)

# The shared libraries Ebitengine opens at run time on Linux: OpenGL (with
# Mesa's drivers, which include the software renderer a virtual display
# uses), the X11 client libraries, and ALSA for sound (optional: without it
# the app runs silent).
APP_PACKAGES := libgl1 libglx-mesa0 libgl1-mesa-dri libegl1 libx11-6 \
	libxcursor1 libxext6 libxi6 libxinerama1 libxrandr2 libxrender1 libasound2

# The tests open windows: where there is no display (Linux without
# $DISPLAY: a server, CI) they run inside a virtual X server. macOS and
# Windows always have one, and so does a Linux desktop session.
# -noreset: by default an X server resets itself each time its last client
# leaves, and a window that opens during the reset fails ("failed to open
# display"). The tests start and stop many app processes, so without it one
# of them, now and then, finds the server resetting.
NEED_XVFB := $(if $(filter Linux,$(UNAME)),$(if $(DISPLAY),,yes))
XVFB := $(if $(NEED_XVFB),xvfb-run -a -s "-screen 0 1920x1080x24 -noreset")
TEST_PACKAGES := $(if $(NEED_XVFB),xvfb xauth)
# The browser test drives a headless Chromium; without one it is skipped
# (and where the package cannot be installed, the test command goes on).
BROWSER_PACKAGES := chromium

STATICCHECK_VERSION := v0.7.0
BIN := $(CURDIR)/.bin
# Every phase of `make test` runs through testrun, which prints what it does
# and its time, and at least one line every 45 s (the tests every 30 s).
TESTRUN := $(BIN)/testrun
export TESTRUN_LOG := $(BIN)/test-phases.log
PHASE = @$(TESTRUN) phase

# The platforms `make test` proves the app compiles for, besides this one.
CROSS_TARGETS := darwin/amd64 darwin/arm64 windows/amd64 js/wasm

.PHONY: run test test-phases deps test-deps fmt-check vet staticcheck gotest portable race browser cross fuzz fuzz-long soak tour web serve room docs

run: deps
	$(GO) run . $(ARGS)

# The phases in order, then a table of their times (also when one failed).
test:
	@mkdir -p $(BIN) && rm -f $(TESTRUN_LOG)
	@$(MAKE) --no-print-directory test-phases; rc=$$?; \
		if [ -x $(TESTRUN) ]; then $(TESTRUN) summary; fi; exit $$rc

test-phases: $(TESTRUN) test-deps fmt-check vet staticcheck gotest portable race browser cross fuzz

$(TESTRUN): tools/testrun/*.go
	@mkdir -p $(BIN)
	$(GO) build -o $@ ./tools/testrun

deps:
	@scripts/ensure-packages.sh $(APP_PACKAGES)

test-deps: $(TESTRUN)
	$(PHASE) packages scripts/ensure-packages.sh $(APP_PACKAGES) $(TEST_PACKAGES) --optional $(BROWSER_PACKAGES)

fmt-check: $(TESTRUN)
	$(PHASE) gofmt sh -c 'out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi'

vet: $(TESTRUN)
	$(PHASE) vet $(GO) vet ./...

# Pinned, and built once: go run caches the executable.
staticcheck: $(TESTRUN)
	$(PHASE) staticcheck $(GO) run honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION) ./...

# go test's own limit is 10 minutes a package; a machine shared with other
# work can take longer than that for the root package without anything
# being stuck, so the limit is wider (a test that hangs still ends the run).
gotest: $(TESTRUN)
	$(PHASE) tests $(XVFB) $(TESTRUN) gotest -timeout 25m -skip '^TestBrowser' ./...

# The packages with an amd64 assembly kernel, built and tested without it
# (the purego tag): the Go loops are what arm64 and the browser run.
portable: $(TESTRUN)
	$(PHASE) portable $(TESTRUN) gotest -tags purego ./physics ./wire/arith

# The parallel paths (the server's sends to many clients, the players'
# machines of one process) under the race detector, briefly (-short): the
# determinism tests see wrong bits, the detector sees two cores touching
# the same memory. It needs cgo (a C compiler and the C library's headers);
# without them the phase says so and passes (scripts/can-race.sh).
RACE_TESTS := TestParallelSendsSameBits|TestParallelRightsSameBits|TestReversedRightsFindShared|TestRightTiming
race: $(TESTRUN)
	$(PHASE) race sh -c 'if scripts/can-race.sh; then CGO_ENABLED=1 $(TESTRUN) gotest -race -short -run "$(RACE_TESTS)" ./game; \
		else echo "race detector skipped"; fi'

# The browser test builds the web folder itself (go test cannot see that
# input change, hence -count=1).
browser: $(TESTRUN)
	$(PHASE) browser $(TESTRUN) gotest -count=1 -run '^TestBrowser' ./cmd/serve

cross: $(TESTRUN)
	$(PHASE) cross-compile sh -c 'for p in $(CROSS_TARGETS); do echo "build for $$p"; \
		GOOS=$${p%/*} GOARCH=$${p#*/} $(GO) build -trimpath -o /dev/null . || exit 1; done'

# Each fuzz target runs for FUZZTIME on top of its seed corpus (which
# `go test` already replays), FUZZJOBS targets at a time with one worker
# each (testrun fuzz). Targets are listed as package:Target; every reader of
# bytes from outside has one: the bit streams and packets, the strategies'
# receive paths and the session's two read paths (through strategy/strategytest),
# the UDP datagram header and handler, the two-process right's state
# messages, the script parser and the recording, the app's flags and the web
# page's address. FUZZMINIMIZE bounds the shrinking of each new interesting
# input, which otherwise stalls a short run for seconds at a time.
FUZZTIME ?= 4s
FUZZMINIMIZE ?= 100x
FUZZJOBS ?= 2
FUZZ_TARGETS := ./wire:FuzzReadStream ./wire:FuzzSamplePacket ./wire:FuzzAckHeader ./wire/arith:FuzzArith \
	./snapshot:FuzzSnapshotPacket ./snapshot:FuzzSnapshotReceive ./snapshot:FuzzReadChallenge \
	./replication:FuzzStateSyncPacket ./statesync:FuzzStateSyncReceive \
	./predict:FuzzPredictInputPacket ./predict:FuzzPredictServerPacket ./predict:FuzzPredictReceive \
	./predict:FuzzPredictInputPacketPlayers ./predict:FuzzPredictServerPacketPlayers ./predict:FuzzPredictReceivePlayers \
	./game:FuzzSessionReceive ./game:FuzzSessionReceiveBack ./game:FuzzSessionPlayers \
	./cubes:FuzzParseScript ./cubes:FuzzRecording ./talk:FuzzParseTrack \
	./udp:FuzzHandshake ./udp:FuzzOpen ./game:FuzzRightReadsState ./lockstep:FuzzInputPacket \
	./adapt:FuzzEstimator ./ui/launch:FuzzParseFlags ./ui/launch:FuzzWebArgs \
	./rollback:FuzzRollbackPackets ./rollback:FuzzRollbackReceive \
	./udp:FuzzConnecting \
	./authority:FuzzAuthorityPacket ./authority:FuzzAuthorityReceive \
	./statesync:FuzzJoinBlock \
	./room:FuzzReadJoin ./room:FuzzReadAnswer ./room:FuzzHub \
	./physics:FuzzDecodeSaved ./transfer:FuzzPieceAndAck \
	./statesync:FuzzJoinPieces \
	./game:FuzzReadReport \
	./snapshot:FuzzLevel14Packet \
	./predict:FuzzPredictJoinPieces \
	./wire/arith:FuzzReplayKernel \
	./physics:FuzzLaneKernel \
	./physics:FuzzTailKernel

fuzz: $(TESTRUN)
	$(PHASE) fuzz $(TESTRUN) fuzz -time $(FUZZTIME) -minimize $(FUZZMINIMIZE) -jobs $(FUZZJOBS) $(FUZZ_TARGETS)

# The same targets for longer (not part of `make test`): FUZZLONG each.
FUZZLONG ?= 5m
fuzz-long: $(TESTRUN)
	$(MAKE) fuzz FUZZTIME=$(FUZZLONG)

# A long headless run of every strategy with rotating settings and presets,
# printing ticks, NaN count, largest error and memory every 30 s (not part
# of `make test`): make soak SOAK=20m.
SOAK ?= 20m
soak:
	$(GO) run ./cmd/soak -duration $(SOAK)

# The built-in tour played to its end headless, a line per caption (not
# part of `make test`, which plays its first 40 s): the talk's end-to-end
# smoke test.
tour:
	$(GO) run ./cmd/soak -track tour

# The browser version: a folder of static files any web server can serve
# (make web), or served here on http://127.0.0.1:8080/ (make serve; ADDR=:8080
# serves every machine on the network).
WEBDIR ?= build/web
web:
	$(GO) run ./cmd/serve -serve=false -dir $(WEBDIR)

serve:
	$(GO) run ./cmd/serve -dir $(WEBDIR) $(if $(ADDR),-addr $(ADDR))

# A classroom: the web page and one world that every browser opening the
# printed address joins as a player (ADDR defaults to :8080; ARGS are the
# app's flags, e.g. ARGS="-players 4 -bots push").
room:
	$(GO) run ./cmd/serve -dir $(WEBDIR) -room $(if $(ADDR),-addr $(ADDR)) $(if $(ARGS),-- $(ARGS))

# The README's pictures, each remade by the command written beside it in
# the README (TestReadmePictures reads them there; without
# NETCUBES_DOCS=write it remakes them and compares the HUD with the
# committed pictures), then the bench's charts (the whole bench: minutes).
docs: deps
	@scripts/ensure-packages.sh $(TEST_PACKAGES)
	$(XVFB) env NETCUBES_DOCS=write $(GO) test -count=1 -run TestReadmePictures -timeout 30m ./ui/launch
	$(GO) run ./cmd/bench -plots docs/bench
