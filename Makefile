# errgen's own build. `make generate` runs errgen on the repository's
# errors.yaml; `make test` runs every test, and is what CI runs.

GO ?= go
# Inside errgen's own repository errgen runs from source; in yours it is
# `go tool errgen`.
ERRGEN ?= $(GO) run ./cmd/errgen
# The branch a change is compared with. A clone without origin/main (an
# export, a first commit) compares with HEAD, which cannot break.
BASE ?= $(shell git rev-parse -q --verify origin/main >/dev/null 2>&1 && echo origin/main || echo HEAD)

.PHONY: all generate test vet fmt-check tidy-check check lint build errors-check errors-diff

all: test

# The main job: regenerate examples/agenterr from errors.yaml.
generate:
	$(GO) generate ./examples/...

build:
	$(GO) build -o bin/errgen ./cmd/errgen

lint:
	$(ERRGEN) lint errors.yaml

# The CI recipe of the README, run on this repository's own catalogue:
# fail when the generated package or its docs are stale, and on a breaking
# change against $(BASE).
errors-check:
	$(ERRGEN) generate --check -o examples/agenterr --docs ERRORS.md errors.yaml
	$(ERRGEN) compat --against git:$(BASE) errors.yaml

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

-include fuzz.mk
-include bench.mk
