# errgen's own build. `make generate` runs errgen on the repository's
# errors.yaml; `make test` runs every test, and is what CI runs.

GO ?= go
# Inside errgen's own repository errgen runs from source; in yours it is
# `go tool errgen`.
ERRGEN ?= $(GO) run ./cmd/errgen
# The branch a change is compared with. A clone without origin/main (an
# export, a first commit) compares with HEAD, which cannot break.
BASE ?= $(shell git rev-parse -q --verify origin/main >/dev/null 2>&1 && echo origin/main || echo HEAD)
# compat's findings as GitHub annotations in GitHub Actions, else as text.
COMPAT_FORMAT ?= $(if $(GITHUB_ACTIONS),github,text)

.PHONY: all generate test vet fmt-check tidy-check check lint build errors-check errors-diff

all: test

# The main job: regenerate examples/agenterr from errors.yaml.
generate:
	$(GO) generate ./examples/...

build:
	$(GO) build -o bin/errgen ./cmd/errgen

lint:
	$(ERRGEN) lint errors.yaml

# The examples with a catalogue of their own, one per agent framework.
EXAMPLES := $(patsubst %/errors.yaml,%,$(wildcard examples/*/errors.yaml))

# The CI recipe of the README, run on this repository's own catalogue:
# fail when the generated package or its docs are stale, and on a breaking
# change against $(BASE).
errors-check:
	$(ERRGEN) generate --check -o examples/agenterr --docs ERRORS.md errors.yaml
	@set -e; for d in $(EXAMPLES); do \
		echo "$(ERRGEN) generate --check -o $$d --docs ERRORS.md $$d/errors.yaml"; \
		$(ERRGEN) generate --check -o $$d --docs ERRORS.md $$d/errors.yaml; \
	done
	$(ERRGEN) compat --format $(COMPAT_FORMAT) --against git:$(BASE) errors.yaml

# The review summary of a catalogue's change, for a pull request.
CATALOGUE ?= errors.yaml
errors-diff:
	$(ERRGEN) diff --format markdown --against git:$(BASE) $(CATALOGUE)

check: errors-check

fmt-check:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "not gofmt-clean:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# go.mod and go.sum say exactly what the code imports.
tidy-check:
	$(GO) mod tidy -diff

# Every test: formatting, tidy modules, vet, the catalogue, staleness, the unit, golden
# and end-to-end tests (which build and test the generated packages), and a
# short run of each fuzz target.
test: fmt-check tidy-check vet lint errors-check
	$(GO) test ./...
	$(MAKE) fuzz-ci

# Fuzzing (docs/hardening.md). `go test ./...` replays every seed and every
# committed finding under each package's testdata/fuzz; these targets run
# the engine itself, one target at a time (go test -fuzz takes one target
# and one package per run).
#
#   make fuzz              each target for FUZZTIME (default 60s)
#   make fuzz-ci           each target for a fixed number of executions, as CI does
#   make fuzz FUZZTIME=10m FUZZFLAGS=-parallel=1
#
# A finding is written to the package's testdata/fuzz/<Target>/ and fails the
# run; fix the cause and commit the file as a regression case.
#
# fuzz-ci counts executions (-fuzztime=Nx) instead of timing the run: with a
# duration, Go 1.26's fuzzing coordinator can report "context deadline
# exceeded" as a failure at the end of the run, with no input written
# (golang/go#75804, fixed in Go 1.27). A count has no deadline to race. The
# counts take about 15 s each on a 2-core machine.

FUZZTIME ?= 60s
FUZZFLAGS ?=
# Minimizing each new interesting input may otherwise take a minute of a
# short run; 5s keeps the engine exploring.
MINIMIZE ?= -fuzzminimizetime=5s

# target:package:executions in CI, one per fuzz target.
FUZZ_TARGETS := \
	FuzzLoad:./gen/load:100000 \
	FuzzGenerate:./gen:1000 \
	FuzzPayloadString:./gen/golang/runtime:250000 \
	FuzzDecodePayload:./gen/golang/runtime:250000 \
	FuzzSensitive:./gen/golang/runtime:15000 \
	FuzzScrubber:./gen/golang/runtime:5000 \
	FuzzProjectionDecoders:./gen/golang/runtime:60000 \
	FuzzPayloadVariant:./examples/agenterr:30000

.PHONY: fuzz fuzz-ci

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		name=$${t%%:*}; rest=$${t#*:}; pkg=$${rest%%:*}; \
		echo "== $$name ($$pkg) for $(FUZZTIME)"; \
		$(GO) test -run='^$$' -fuzz="^$$name\$$" -fuzztime=$(FUZZTIME) $(MINIMIZE) $(FUZZFLAGS) $$pkg; \
	done

fuzz-ci:
	@set -e; for t in $(FUZZ_TARGETS); do \
		name=$${t%%:*}; rest=$${t#*:}; pkg=$${rest%%:*}; count=$${rest#*:}; \
		echo "== $$name ($$pkg) for $$count executions"; \
		$(GO) test -run='^$$' -fuzz="^$$name\$$" -fuzztime=$${count}x $(MINIMIZE) $(FUZZFLAGS) $$pkg; \
	done

# Benchmarks (BENCHMARKS.md): errgen's stages against the floor, the
# generated code, errgen generate as a process, and the compile cost of its
# output against a plain baseline package.
#
#   make bench                          everything, as BENCHMARKS.md reports it
#   make bench BENCH_PARTS="code"       stages, code, process, compile and/or hostile
#   make bench BENCH_PARTS=instructions the compiler's work on each part of the generated
#                                       package, counted under valgrind (not in the default)
#   make bench BENCH_PARTS=runtime      the same for each function of the runtime file
#   make bench BENCH_COUNT=6 BENCH_SIZES="100 1000"
#
# Raw results go to BENCH_OUT (a new temporary folder by default).

BENCH_PARTS ?= stages code process compile hostile
BENCH_COUNT ?= 10
BENCH_RUNS ?= 10
BENCH_SIZES ?= 100 1000 10000
BENCH_OUT ?=

.PHONY: bench

bench:
	GO="$(or $(GO),go)" PARTS="$(BENCH_PARTS)" COUNT="$(BENCH_COUNT)" RUNS="$(BENCH_RUNS)" \
		SIZES="$(BENCH_SIZES)" $(if $(BENCH_OUT),OUT="$(BENCH_OUT)") bench/run.sh
