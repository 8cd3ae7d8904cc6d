# Fuzzing (docs/hardening.md). `go test ./...` replays every seed and every
# committed finding under each package's testdata/fuzz; these targets run
# the engine itself, one target at a time (go test -fuzz takes one target
# and one package per run).
#
#   make fuzz              each target for FUZZTIME (default 60s)
#   make fuzz-ci           each target for FUZZTIME_CI (default 15s), as CI does
#   make fuzz FUZZTIME=10m FUZZFLAGS=-parallel=1
#
# A finding is written to the package's testdata/fuzz/<Target>/ and fails the
# run; fix the cause and commit the file as a regression case.

GO ?= go
FUZZTIME ?= 60s
FUZZTIME_CI ?= 15s
FUZZFLAGS ?=
# Minimizing each new interesting input may otherwise take a minute of a
# short run; 5s keeps the engine exploring.
MINIMIZE ?= -fuzzminimizetime=5s

# target:package, one per fuzz target.
FUZZ_TARGETS := \
	FuzzLoad:./gen/load \
	FuzzGenerate:./gen \
	FuzzPayloadString:./gen/golang/runtime \
	FuzzDecodePayload:./gen/golang/runtime \
	FuzzPayloadVariant:./examples/agenterr

.PHONY: fuzz fuzz-ci

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		name=$${t%%:*}; pkg=$${t#*:}; \
		echo "== $$name ($$pkg) for $(FUZZTIME)"; \
		$(GO) test -run='^$$' -fuzz="^$$name\$$" -fuzztime=$(FUZZTIME) $(MINIMIZE) $(FUZZFLAGS) $$pkg; \
	done

fuzz-ci:
	@set -e; for t in $(FUZZ_TARGETS); do \
		name=$${t%%:*}; pkg=$${t#*:}; \
		echo "== $$name ($$pkg) for $(FUZZTIME_CI)"; \
		$(GO) test -run='^$$' -fuzz="^$$name\$$" -fuzztime=$(FUZZTIME_CI) $(MINIMIZE) $(FUZZFLAGS) $$pkg; \
	done
