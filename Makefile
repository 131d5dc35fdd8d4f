# The README's two commands: `make run` and `make test`.
# Both first make sure the system packages Ebitengine needs are installed.

GO ?= go
# Extra arguments for the app, e.g. make run ARGS="-script katamari".
ARGS ?=

# What Ebitengine needs to build and run on Linux (cgo, OpenGL, X11, ALSA).
APP_PACKAGES := libgl1-mesa-dev libxcursor-dev libxi-dev libxinerama-dev \
	libxrandr-dev libxxf86vm-dev libasound2-dev pkg-config
# What the tests add: a virtual display for everything that imports Ebitengine.
TEST_PACKAGES := xvfb xauth

STATICCHECK_VERSION := v0.7.0
BIN := $(CURDIR)/.bin
STATICCHECK := $(BIN)/staticcheck-$(STATICCHECK_VERSION)

# Without a display, run the tests inside a virtual X server.
XVFB := $(if $(DISPLAY),,xvfb-run -a -s "-screen 0 1920x1080x24")

.PHONY: run test deps test-deps fmt-check vet staticcheck gotest fuzz bench

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
# `go test` already replays). Targets are listed as package:Target.
FUZZTIME ?= 10s
FUZZ_TARGETS := ./net:FuzzReadStream ./net:FuzzSamplePacket ./net:FuzzAckHeader ./net:FuzzSnapshotPacket ./game:FuzzSnapshotReceive ./net:FuzzStateSyncPacket ./game:FuzzStateSyncReceive

fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "fuzz $$pkg $$name for $(FUZZTIME)"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	done
