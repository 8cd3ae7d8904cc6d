# Benchmarks (BENCHMARKS.md): errgen's stages against the floor, the
# generated code, errgen generate as a process, and the compile cost of its
# output against a plain baseline package.
#
#   make bench                          everything, as BENCHMARKS.md reports it
#   make bench BENCH_PARTS="code"       stages, code, process, compile and/or hostile
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
