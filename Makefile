# The README's two commands: `make run` and `make test`.
# Both first make sure the system libraries Ebitengine loads are installed.

GO ?= go
# Ebitengine v2.10 is pure Go on Linux: it loads OpenGL, X11 and ALSA at run
# time (purego's dlopen), so the build needs no C compiler and no -dev
# packages. Building without cgo keeps it that way.
export CGO_ENABLED := 0
# Extra arguments for the app, e.g. make run ARGS="-script katamari".
ARGS ?=

# The shared libraries Ebitengine opens at run time on Linux: OpenGL (with
# Mesa's drivers, which include the software renderer a virtual display
# uses), the X11 client libraries, and ALSA for sound (optional: without it
# the app runs silent).
APP_PACKAGES := libgl1 libglx-mesa0 libgl1-mesa-dri libegl1 libx11-6 \
	libxcursor1 libxext6 libxi6 libxinerama1 libxrandr2 libxrender1 libasound2
# What the tests add: a virtual display for everything that imports Ebitengine.
TEST_PACKAGES := xvfb xauth

STATICCHECK_VERSION := v0.7.0
BIN := $(CURDIR)/.bin
STATICCHECK := $(BIN)/staticcheck-$(STATICCHECK_VERSION)

# Without a display, run the tests inside a virtual X server.
XVFB := $(if $(DISPLAY),,xvfb-run -a -s "-screen 0 1920x1080x24")

.PHONY: run test deps test-deps fmt-check vet staticcheck gotest fuzz fuzz-long soak bench

run: deps
	$(GO) run . $(ARGS)

test: deps test-deps fmt-check vet staticcheck gotest fuzz

deps:
	@scripts/ensure-packages.sh $(APP_PACKAGES)

test-deps:
	@scripts/ensure-packages.sh $(TEST_PACKAGES)

fmt-check:
	@out=$$(gofmt -l .); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	@echo "gofmt: ok"

vet:
	$(GO) vet ./...

$(STATICCHECK):
	@mkdir -p $(BIN)
	GOBIN=$(BIN) $(GO) install honnef.co/go/tools/cmd/staticcheck@$(STATICCHECK_VERSION)
	@mv $(BIN)/staticcheck $(STATICCHECK)

staticcheck: $(STATICCHECK)
	$(STATICCHECK) ./...

gotest:
	$(XVFB) $(GO) test ./...

# Each fuzz target runs for a bounded time on top of its seed corpus (which
# `go test` already replays). Targets are listed as package:Target; every
# reader of bytes from outside has one: the bit streams and packets, the
# strategies' receive paths and the session's two read paths (through
# internal/fuzzutil), the UDP datagram header and handler, the two-process
# right's state messages, the script parser and the recording, the app's flags.
# FUZZTIME bounds each (21 targets × 10 s keep `make test` near 5 minutes on
# 2 cores); FUZZMINIMIZE bounds the shrinking of each new interesting input,
# which otherwise stalls a short run for seconds at a time.
FUZZTIME ?= 10s
FUZZMINIMIZE ?= 100x
FUZZ_TARGETS := ./wire:FuzzReadStream ./wire:FuzzSamplePacket ./wire:FuzzAckHeader ./wire/arith:FuzzArith \
	./snapshot:FuzzSnapshotPacket ./snapshot:FuzzSnapshotReceive ./snapshot:FuzzReadChallenge \
	./statesync:FuzzStateSyncPacket ./statesync:FuzzStateSyncReceive \
	./predict:FuzzPredictInputPacket ./predict:FuzzPredictServerPacket ./predict:FuzzPredictReceive \
	./predict:FuzzPredictInputPacketPlayers ./predict:FuzzPredictServerPacketPlayers ./predict:FuzzPredictReceivePlayers \
	./game:FuzzSessionReceive ./game:FuzzSessionReceiveBack ./game:FuzzSessionPlayers \
	./cubes:FuzzParseScript ./cubes:FuzzRecording \
	./udp:FuzzHandshake ./udp:FuzzOpen ./game:FuzzRightReadsState ./lockstep:FuzzInputPacket \
	.:FuzzParseFlags

# Go 1.26's fuzz coordinator can report its own end-of-time deadline as a
# failure, "context deadline exceeded" with no failing input written
# (go.dev/issue/75804, fixed in Go 1.27): that alone is not a failure here.
fuzz:
	@log=$$(mktemp); trap 'rm -f $$log' EXIT; \
	for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$pkg $$name for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) $$pkg >$$log 2>&1; \
		rc=$$?; cat $$log; \
		if [ $$rc -ne 0 ]; then \
			if grep -q 'context deadline exceeded' $$log && ! grep -q 'Failing input written' $$log; then \
				echo "fuzz: $$name stopped at its deadline with no failing input (go.dev/issue/75804): passed"; \
			else exit 1; fi; \
		fi; \
	done

# The same targets for longer (not part of `make test`): FUZZLONG each.
FUZZLONG ?= 5m
fuzz-long:
	$(MAKE) fuzz FUZZTIME=$(FUZZLONG)

# A long headless run of every strategy with rotating settings and presets,
# printing ticks, NaN count, largest error and memory every 30 s (not part
# of `make test`): make soak SOAK=20m.
SOAK ?= 20m
soak:
	$(GO) run ./cmd/soak -duration $(SOAK)
