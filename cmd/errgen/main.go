// Command errgen turns an error catalogue (errors.yaml) into Go error types,
// checks catalogues, and guards their compatibility. Run errgen --help.
package main

import (
	"os"
	"runtime/debug"

	"github.com/errgen/errgen/gen/cli"
)

// memoryLimit is the soft limit errgen runs under unless GOMEMLIMIT is set
// (GOMEMLIMIT=off lifts it). errgen holds a catalogue's YAML tree, its
// model and the generated files at once; the limit makes the collector keep
// the heap near what is live rather than let it grow to twice that. Up to
// about 10 000 variants it costs no time; larger catalogues trade time for
// memory (BENCHMARKS.md).
const memoryLimit = 128 << 20

func main() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		debug.SetMemoryLimit(memoryLimit)
	}
	os.Exit(cli.Main(os.Args[1:]))
}
