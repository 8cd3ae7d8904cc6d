# errgen's own build. `make generate` runs errgen on the repository's
# errors.yaml; `make test` runs every test, and is what CI runs.

GO ?= go
ERRGEN := $(GO) run ./cmd/errgen

.PHONY: all generate test vet fmt-check check lint build

all: test

# The main job: regenerate examples/agenterr from errors.yaml.
generate:
	$(GO) generate ./examples/...

build:
	$(GO) build -o bin/errgen ./cmd/errgen

lint:
	$(ERRGEN) lint errors.yaml

# Fails when the generated example package is stale.
check:
	$(ERRGEN) generate --check -o examples/agenterr errors.yaml

fmt-check:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "not gofmt-clean:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

# Every test: formatting, vet, the catalogue, staleness, the unit, golden
# and end-to-end tests (which build and test the generated packages), and a
# short run of each fuzz target.
test: fmt-check vet lint check
	$(GO) test ./...
	$(MAKE) fuzz-ci

-include fuzz.mk
-include bench.mk
