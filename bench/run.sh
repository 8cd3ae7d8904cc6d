#!/usr/bin/env bash
# bench/run.sh runs every benchmark of BENCHMARKS.md and prints its tables:
#
#   stages   go test -bench of each errgen stage and of Generate beside the
#            floor (YAML into yaml.Node + go/format.Source of the output),
#            on synthetic catalogues of $SIZES variants
#   code     go test -bench of the generated code (examples/agenterr)
#   process  errgen generate as a built binary: median wall time and peak
#            memory on the synthetic catalogues and on errors.yaml
#   compile  go build and go vet of the generated package of $COMPILE_N
#            variants beside a plain baseline package of the same size (one
#            struct and five one-line methods a variant) and the API floor
#            (errgen's method set, every method a one-line constant)
#   instructions (not in the default parts; needs valgrind)
#            instructions the compiler executes for the generated package of
#            $COMPILE_N variants, its API floor, and copies of it with one part
#            made constant (measure ablate): what each part costs, counted
#            under callgrind so the figure does not move with machine load
#   runtime  (not in the default parts; needs valgrind) instructions the
#            compiler executes for the generated package of $RUNTIME_N variants
#            and for copies of it with one function of the runtime file
#            returning zero values (measure ablate-runtime): where the runtime's
#            fixed cost goes
#   hostile  errgen lint, and generate and compat where valid, on the catalogues of
#            synth.Hostile: the costliest shapes just under the caps (16 MiB,
#            750 000 values); wall time and peak memory
#
# It needs only the Go toolchain (benchstat is fetched through the module
# proxy at a pinned version). Usage, from anywhere in the repository:
#
#   bench/run.sh                      everything (about 20 minutes on 2 cores)
#   PARTS="code compile" bench/run.sh some parts only
#   COUNT=6 RUNS=5 SIZES="100 1000" bench/run.sh
#
# Raw results stay in $OUT (a new temporary folder unless set); compare two
# result folders with benchstat OLD/stages.txt NEW/stages.txt.
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)

GO=${GO:-go}
PARTS=${PARTS:-"stages code process compile hostile"}
COUNT=${COUNT:-10}          # go test -count
RUNS=${RUNS:-10}            # timed runs of each command
RUNS_LARGE=${RUNS_LARGE:-5} # timed runs of errgen generate at 10 000 variants and more
SIZES=${SIZES:-"100 1000 10000"}
COMPILE_N=${COMPILE_N:-1000}
RUNTIME_N=${RUNTIME_N:-8}   # variants of the package the runtime part counts
BENCHSTAT_VERSION=v0.0.0-20260908200009-22c9c6c9d4da # golang.org/x/perf
OUT=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/errgen-bench.XXXXXX")}

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/errgen-bench-work.XXXXXX")
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# The generated module declares go 1.23; build it with the local toolchain
# rather than fetching another.
export GOTOOLCHAIN=local

section() { printf '\n== %s\n\n' "$*"; }

section "machine"
"$GO" build -o "$work/bin/measure" ./bench/measure
"$GO" build -o "$work/bin/errgen" ./cmd/errgen
GOBIN="$work/bin" "$GO" install "golang.org/x/perf/cmd/benchstat@$BENCHSTAT_VERSION"
measure="$work/bin/measure"
errgen="$work/bin/errgen"
benchstat="$work/bin/benchstat"
"$measure" machine | tee "$OUT/machine.txt"
echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD 2>/dev/null || echo ' (with local changes)')" | tee -a "$OUT/machine.txt"
echo "results: $OUT"

has() { [[ " $PARTS " == *" $1 "* ]]; }

sizes_re=$(echo $SIZES | tr ' ' '|')

if has stages; then
	section "stages: go test -bench BenchmarkGen ./gen (count $COUNT)"
	"$GO" test -run '^$' -bench "^BenchmarkGen\$/^n=($sizes_re)\$" -benchmem -count "$COUNT" -timeout 0 ./gen | tee "$OUT/stages.txt"
	section "stages: every stage"
	"$benchstat" -col /stage -row /n "$OUT/stages.txt" | tee "$OUT/stages-table.txt"
	section "stages: generate against the floor"
	"$benchstat" -filter '/stage:(floor OR generate)' -col /stage -row /n "$OUT/stages.txt"
	for n in $SIZES; do
		"$measure" ratio "$OUT/stages.txt" "BenchmarkGen/n=$n/stage=generate" "BenchmarkGen/n=$n/stage=floor"
	done | tee "$OUT/stages-ratio.txt"
	if [[ " $SIZES " == *" 1000 "* && " $SIZES " == *" 10000 "* ]]; then
		echo "growth, 10 000 against 1 000 variants:"
		"$measure" ratio "$OUT/stages.txt" "BenchmarkGen/n=10000/stage=generate" "BenchmarkGen/n=1000/stage=generate" | tee -a "$OUT/stages-ratio.txt"
	fi
fi

if has code; then
	section "code: go test -bench . ./examples/agenterr (count $COUNT)"
	"$GO" test -run '^$' -bench . -benchmem -count "$COUNT" ./examples/agenterr | tee "$OUT/code.txt"
	section "code: classification, chains and lookups"
	"$benchstat" -filter '.name:(Classify OR Chain OR Lookup)' "$OUT/code.txt"
	section "code: payload, encoding/json against errgen"
	"$benchstat" -filter .name:Payload -col /enc -row /case "$OUT/code.txt" | tee "$OUT/code-payload.txt"
fi

if has process; then
	section "process: errgen generate (median of $RUNS runs, $RUNS_LARGE at 10 000 and more)"
	: >"$OUT/process.txt"
	mkdir -p "$work/ref"
	cp errors.yaml "$work/ref/errors.yaml"
	"$errgen" generate "$work/ref/errors.yaml" # the first run writes the golden files
	"$measure" time -runs "$RUNS" -name Process/catalogue=reference "errgen=$errgen generate $work/ref/errors.yaml" | tee -a "$OUT/process.txt"
	for n in $SIZES; do
		runs=$RUNS
		((n >= 10000)) && runs=$RUNS_LARGE
		"$measure" synth -n "$n" -o "$work/synth$n"
		"$errgen" generate "$work/synth$n/errors.yaml"
		"$measure" time -runs "$runs" -name "Process/catalogue=synth$n" "errgen=$errgen generate $work/synth$n/errors.yaml" | tee -a "$OUT/process.txt"
	done
	section "process: summary"
	"$benchstat" -col /cmd -row /catalogue "$OUT/process.txt"
fi

if has compile; then
	section "compile: go build and go vet, $COMPILE_N variants, errgen against the baseline (median of $RUNS runs)"
	mod="$work/compile"
	mkdir -p "$mod/generated" "$mod/baseline" "$mod/apifloor"
	printf 'module example.com/bench\n\ngo 1.23\n' >"$mod/go.mod"
	"$measure" synth -n "$COMPILE_N" -o "$mod/generated"
	"$errgen" generate "$mod/generated/errors.yaml"
	"$measure" baseline -n "$COMPILE_N" -o "$mod/baseline"
	# The API floor: the method set errgen's API requires, every method a
	# one-line constant; the least any generator of this API compiles.
	"$measure" baseline -api -n "$COMPILE_N" -o "$mod/apifloor"
	wc -lc "$mod"/generated/*.go "$mod"/baseline/*.go "$mod"/apifloor/*.go
	(
		cd "$mod"
		# A cache of its own, warmed by the first (untimed) run of each
		# command, holds the standard library; the nonce file then makes
		# every timed run redo the package and only the package.
		export GOCACHE="$work/gocache" GOFLAGS=-mod=mod
		"$measure" time -runs "$RUNS" -name "Compile/n=$COMPILE_N/op=build" \
			"baseline@baseline/zz_nonce.go=$GO build ./baseline" \
			"apifloor@apifloor/zz_nonce.go=$GO build ./apifloor" \
			"errgen@generated/zz_nonce.go=$GO build ./generated"
		"$measure" time -runs "$RUNS" -name "Compile/n=$COMPILE_N/op=vet" \
			"baseline@baseline/zz_nonce.go=$GO vet ./baseline" \
			"apifloor@apifloor/zz_nonce.go=$GO vet ./apifloor" \
			"errgen@generated/zz_nonce.go=$GO vet ./generated"
	) | tee "$OUT/compile.txt"
	section "compile: summary"
	"$benchstat" -col /cmd -row /op "$OUT/compile.txt"
fi

# need_valgrind: the instructions and runtime parts count under callgrind;
# each checks first, before it builds anything.
need_valgrind() {
	command -v valgrind >/dev/null || {
		echo "the instructions and runtime parts need valgrind (Debian: apt-get install valgrind)" >&2
		exit 1
	}
}

# count_setup DIR: the import configuration that lets count compile the
# generated package in DIR as go build would.
count_setup() {
	cfg="$1.importcfg"
	(cd "$1" && "$GO" list -export -deps -f '{{if .Export}}packagefile {{.ImportPath}}={{.Export}}{{end}}' .) >"$cfg"
	compile="$("$GO" env GOTOOLDIR)/compile"
}

# count DIR LABEL: run the compiler on the package in DIR as go build
# would, on one thread (-c=1), without the collector's pacing
# (GOGC=off) or preemption signals, which callgrind cannot follow, and
# without RDTSCP, which the Go runtime's cputicks uses where the processor
# has it and which valgrind 3.19 cannot run (the compiler dies of SIGILL);
# print LABEL and the instructions it executed.
count() {
	local files n
	files=$(ls "$1"/*.go | grep -v '_test\.go$')
	n=$(GOGC=off GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$compile" -o "$1.a" -p example.com/bench/pkg -lang=go1.23 -complete -c=1 -nolocalimports \
		-importcfg "$cfg" -pack $files 2>&1 | sed -n 's/.*Collected : //p')
	[[ -n $n ]] || { echo "callgrind gave no count for $1" >&2; return 1; }
	echo "$2 $n"
}

# count_all OUTFILE LABEL=DIR...: count each package, two at a time (the
# counts do not depend on what else runs), into OUTFILE in the order given.
count_all() {
	local out=$1 k spec
	shift
	local specs=("$@")
	for ((k = 0; k < ${#specs[@]}; k += 2)); do
		spec=${specs[k]}
		count "${spec#*=}" "${spec%%=*}" >"$out.$k" &
		if ((k + 1 < ${#specs[@]})); then
			spec=${specs[k + 1]}
			count "${spec#*=}" "${spec%%=*}" >"$out.$((k + 1))" &
		fi
		wait
	done
	for ((k = 0; k < ${#specs[@]}; k++)); do cat "$out.$k" && rm "$out.$k"; done >"$out"
}

# counted_packages NAME N ABLATE: in $work/NAME, the generated package of
# N synthetic variants, its API floor and the copies measure ABLATE writes
# of it, ready to count; sets specs to LABEL=DIR for count_all, the floor
# first, then the package, then each copy.
counted_packages() {
	need_valgrind
	local mod="$work/$1" d
	mkdir -p "$mod/generated" "$mod/apifloor"
	printf 'module example.com/bench\n\ngo 1.23\n' >"$mod/go.mod"
	"$measure" synth -n "$2" -o "$mod/generated"
	"$errgen" generate "$mod/generated/errors.yaml"
	"$measure" baseline -api -n "$2" -o "$mod/apifloor"
	"$measure" "$3" -o "$mod/without" "$mod/generated"
	count_setup "$mod/generated"
	specs=("apifloor=$mod/apifloor" "errgen=$mod/generated")
	for d in $(ls "$mod/without"); do specs+=("$d=$mod/without/$d"); done
}

if has instructions; then
	section "instructions: the compiler's work on each part of the generated package, $COMPILE_N variants"
	counted_packages instructions "$COMPILE_N" ablate
	count_all "$OUT/instructions.txt" "${specs[@]}"
	# Each part's cost is the package's count less its copy without it.
	awk 'NR == 1 { floor = $2; printf "%-18s %16s %8s\n", "package or part", "instructions", "/ floor"; printf "%-18s %16.0f %8.3f\n", $1, $2, 1; next }
		NR == 2 { pkg = $2; printf "%-18s %16.0f %8.3f\n", $1, $2, $2 / floor; next }
		{ printf "  %-16s %16.0f %8.3f\n", $1, pkg - $2, (pkg - $2) / floor }' "$OUT/instructions.txt" | tee "$OUT/instructions-table.txt"
fi

if has runtime; then
	section "runtime: the compiler's work on each function of the runtime file, $RUNTIME_N variants"
	counted_packages runtime "$RUNTIME_N" ablate-runtime
	count_all "$OUT/runtime.txt" "${specs[@]}"
	# The runtime file's cost is the package's count less its API floor's;
	# each function's, the package's less its copy's, largest first.
	{
		awk 'NR == 1 { floor = $2 } NR == 2 { printf "%-30s %14.0f\n", "package less its API floor", $2 - floor }
			NR == 2 { pkg = $2 } NR > 2 { sum += pkg - $2 } END { printf "%-30s %14.0f\n", "sum of the functions", sum }' "$OUT/runtime.txt"
		awk 'NR == 2 { pkg = $2 } NR > 2 { printf "  %-28s %14.0f\n", $1, pkg - $2 }' "$OUT/runtime.txt" | sort -k2,2nr
	} | tee "$OUT/runtime-table.txt"
fi

if has hostile; then
	section "hostile: catalogues at the caps (median of $RUNS_LARGE runs; target: at most 256 MiB and 5 s each)"
	: >"$OUT/hostile.txt"
	"$measure" hostile -o "$work/hostile" | while read -r name state size; do
		file="$work/hostile/$name.yaml"
		if [[ $state == OK ]]; then
			# compat holds two catalogues at once: the file against itself.
			"$measure" time -runs "$RUNS_LARGE" -quiet -name "Hostile/input=$name" \
				"lint=$errgen lint $file" "generate=$errgen generate $file" \
				"compat=$errgen compat --against $file $file"
		else
			"$measure" time -runs "$RUNS_LARGE" -quiet -exit 1 -name "Hostile/input=$name" "lint=$errgen lint $file"
		fi
	done | tee -a "$OUT/hostile.txt"
	section "hostile: summary"
	"$benchstat" -col /cmd -row /input "$OUT/hostile.txt"
fi

section "done"
echo "raw results: $OUT"
