// Package cli is the errgen command: it parses arguments, runs the
// pipeline and reports. Everything is reachable in-process through Run, so
// the tests exercise the real command without building a binary.
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/spf13/pflag"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/fsafe"
	"github.com/errgen/errgen/gen/load"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/schema"
)

// Exit statuses.
const (
	ExitOK       = 0 // success
	ExitProblems = 1 // catalogue problems, stale output, or a failed write
	ExitUsage    = 2 // the command line is wrong
)

// DefaultCatalogue is the catalogue a command reads when given none.
const DefaultCatalogue = "errors.yaml"

// maxPrinted bounds how many diagnostics one run prints.
const maxPrinted = 100

// command is one subcommand.
type command struct {
	name, args, short, long string
	run                     func(e *env, c *command, args []string) int
}

// commands lists every subcommand in the order help shows them.
var commands []*command

func init() {
	commands = []*command{
		generateCmd, lintCmd, compatCmd, diffCmd, docsCmd, explainCmd, schemaCmd, versionCmd, helpCmd,
	}
}

// env is what a command runs with.
type env struct {
	stdout, stderr io.Writer
	// interrupted, when set, reports whether the user asked to stop; the
	// writer checks it between files.
	interrupted func() bool
}

// Run runs errgen with args (without the program name) and returns the exit
// status.
func Run(args []string, stdout, stderr io.Writer) int {
	return run(&env{stdout: stdout, stderr: stderr, interrupted: func() bool { return false }}, args)
}

func run(e *env, args []string) int {
	if len(args) == 0 {
		return generateCmd.run(e, generateCmd, nil)
	}
	switch first := args[0]; {
	case first == "-h" || first == "--help":
		usage(e.stdout)
		return ExitOK
	case first == "--version":
		return versionCmd.run(e, versionCmd, nil)
	case strings.HasPrefix(first, "-"):
		// Flags without a command belong to the default command, so
		// `errgen --check` and `errgen -o dir` mean what they look like.
		return generateCmd.run(e, generateCmd, args)
	}
	for _, c := range commands {
		if c.name == args[0] {
			return c.run(e, c, args[1:])
		}
	}
	fmt.Fprintf(e.stderr, "errgen: unknown command %s\n", diag.Quote(args[0]))
	fmt.Fprintf(e.stderr, "usage: errgen <command> [flags]; run 'errgen --help' for the commands\n")
	return ExitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "errgen turns an error catalogue (errors.yaml) into Go error types.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	fmt.Fprintln(w, "  errgen [generate flags]        same as: errgen generate errors.yaml")
	fmt.Fprintln(w, "  errgen <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.short)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'errgen help <command>' for a command's flags.")
	fmt.Fprintln(w, "Exit status: 0 success, 1 catalogue problems or stale output, 2 usage errors.")
}

// flags returns a flag set for c that reports errors instead of exiting.
func flags(c *command, e *env) *pflag.FlagSet {
	fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	return fs
}

// parse parses args into fs; it returns the exit status to stop with, or
// -1 to go on. -h prints the command's help.
func parse(c *command, e *env, fs *pflag.FlagSet, args []string, maxArgs int) int {
	help := fs.BoolP("help", "h", false, "show this help")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(e.stderr, "errgen %s: %v\n", c.name, err)
		fmt.Fprintf(e.stderr, "usage: errgen %s %s\n", c.name, c.args)
		return ExitUsage
	}
	if *help {
		commandHelp(e.stdout, c, fs)
		return ExitOK
	}
	if fs.NArg() > maxArgs {
		fmt.Fprintf(e.stderr, "errgen %s: too many arguments: %s\n", c.name, strings.Join(quoteAll(fs.Args()[maxArgs:]), " "))
		fmt.Fprintf(e.stderr, "usage: errgen %s %s\n", c.name, c.args)
		return ExitUsage
	}
	return -1
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = diag.Quote(s)
	}
	return out
}

func commandHelp(w io.Writer, c *command, fs *pflag.FlagSet) {
	fmt.Fprintf(w, "usage: errgen %s %s\n\n%s\n", c.name, c.args, c.long)
	if fs != nil && fs.HasFlags() {
		fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
	}
}

// displayPath is how diagnostics name a file: as the user wrote it, or
// relative to the working directory when it lies below it, like the Go
// toolchain.
func displayPath(path string) string {
	if !filepath.IsAbs(path) {
		return filepath.ToSlash(filepath.Clean(path))
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return path
}

// loadCatalogue reads and checks a catalogue, printing every diagnostic.
// The model is nil when the catalogue has errors.
func loadCatalogue(e *env, path string) *model.Catalogue {
	name := displayPath(path)
	src, err := readCatalogue(path)
	if err != nil {
		fmt.Fprintf(e.stderr, "errgen: %v\n", err)
		return nil
	}
	m, diags := gen.Parse(name, src)
	printDiags(e.stderr, diags)
	return m
}

// readCatalogue reads a catalogue file as errgen reads every file a pull
// request can change (fsafe): never through a symlink, never a FIFO or a
// device, never more than the loader's cap.
func readCatalogue(path string) ([]byte, error) {
	data, err := fsafe.ReadFile(path, load.MaxSize)
	var tooLarge *fsafe.TooLargeError
	if errors.As(err, &tooLarge) {
		return nil, fmt.Errorf("%s is %d bytes; a catalogue may be at most %d (16 MiB)", diag.Path(path), tooLarge.Size, load.MaxSize)
	}
	return data, err
}

func printDiags(w io.Writer, diags diag.List) {
	for i, d := range diags {
		if i == maxPrinted {
			fmt.Fprintf(w, "errgen: %d more problems not shown\n", len(diags)-maxPrinted)
			break
		}
		fmt.Fprintln(w, d.String())
	}
}

// catalogueArg returns the catalogue a command names, or the default.
func catalogueArg(fs *pflag.FlagSet) string {
	if fs.NArg() > 0 {
		return fs.Arg(0)
	}
	return DefaultCatalogue
}

var lintCmd = &command{
	name:  "lint",
	args:  "[CATALOGUE]",
	short: "check a catalogue and report every problem",
	long: `Lint checks the catalogue (default errors.yaml) and prints every problem as
FILE:LINE:COL: message, sorted by position. Warnings are printed too but do
not fail. Exit status 1 when there is at least one error.`,
	run: func(e *env, c *command, args []string) int {
		fs := flags(c, e)
		if st := parse(c, e, fs, args, 1); st >= 0 {
			return st
		}
		if loadCatalogue(e, catalogueArg(fs)) == nil {
			return ExitProblems
		}
		return ExitOK
	},
}

var schemaCmd = &command{
	name:  "schema",
	args:  "",
	short: "print the JSON Schema of the catalogue format",
	long: `Schema prints the JSON Schema of catalogue format v1. Editors that speak the
YAML language server complete and check errors.yaml with it, given a first
line such as:

  # yaml-language-server: $schema=errors.schema.json`,
	run: func(e *env, c *command, args []string) int {
		fs := flags(c, e)
		if st := parse(c, e, fs, args, 0); st >= 0 {
			return st
		}
		if _, err := e.stdout.Write(schema.JSON()); err != nil {
			fmt.Fprintf(e.stderr, "errgen: %v\n", err)
			return ExitProblems
		}
		return ExitOK
	},
}

var versionCmd = &command{
	name:  "version",
	args:  "",
	short: "print errgen's version",
	long:  `Version prints the module version errgen was built from.`,
	run: func(e *env, c *command, args []string) int {
		fs := flags(c, e)
		if st := parse(c, e, fs, args, 0); st >= 0 {
			return st
		}
		fmt.Fprintf(e.stdout, "errgen %s\n", version())
		return ExitOK
	},
}

// version is the module version from the build info: a tag such as v1.2.0
// when installed with go install or go get -tool, (devel) in a checkout.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

var helpCmd = &command{
	name:  "help",
	args:  "[COMMAND]",
	short: "show help for errgen or one command",
	long:  `Help shows errgen's commands, or one command's usage and flags.`,
	run: func(e *env, c *command, args []string) int {
		if len(args) == 0 {
			usage(e.stdout)
			return ExitOK
		}
		for _, c := range commands {
			if c.name == args[0] {
				// Build the command's flag set so its flags are listed.
				return c.run(e, c, []string{"--help"})
			}
		}
		fmt.Fprintf(e.stderr, "errgen help: unknown command %s\n", diag.Quote(args[0]))
		return ExitUsage
	},
}
