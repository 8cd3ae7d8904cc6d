// Command errgen turns an error catalogue (errors.yaml) into Go error types,
// checks catalogues, and guards their compatibility. Run errgen --help.
package main

import (
	"os"

	"github.com/errgen/errgen/gen/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
