// Package cli is the errgen command: it parses arguments, runs the
// pipeline and reports. Everything is reachable in-process through Run, so
// the tests exercise the real command without building a binary.
//
// A command is a flag set of its own and a function that returns an error:
// a usage error exits 2, any other error 1, and Run is the one place that
// prints errors and maps them to exit statuses.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/errgen/errgen/gen/compat"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/export"
	"github.com/errgen/errgen/gen/fsafe"
	"github.com/errgen/errgen/gen/registry"
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

// command is one subcommand. flags declares its flags on a flag set of its
// own and returns the function that runs it with what was parsed, so that
// help can list a command's flags without running it.
type command struct {
	name, args, short, long string
	// maxArgs is how many arguments the command takes after its flags;
	// -1 for any number.
	maxArgs int
	flags   func(fs *pflag.FlagSet) runFunc
}

// runFunc runs a command with its arguments (after the flags).
type runFunc func(ctx context.Context, e *env, args []string) error

// commands lists every subcommand in the order help shows them.
var commands []*command

func init() {
	commands = []*command{
		generateCmd, lintCmd, compatCmd, diffCmd, docsCmd, explainCmd, exportCmd, schemaCmd, versionCmd, helpCmd,
	}
}

// env is what a command runs with.
type env struct {
	stdout, stderr io.Writer
	// annotate, when set, makes warnings and notes GitHub Actions
	// workflow commands on stdout (compat --format github) instead of
	// plain lines on stderr.
	annotate bool
	// jsonProblems, when set, makes a failure also print as JSON on
	// stdout, written by it (compat and diff --format json, until their
	// output is written): a consumer that asked for JSON reads why the
	// run stopped.
	jsonProblems func(w io.Writer, diags diag.List) error
	// writeHook, when set, is the Hook of every fsafe.Batch the command
	// writes with: the tests' way to make a write fail.
	writeHook func(op fsafe.Op, path string) error
}

// warn prints the warnings of a catalogue that loaded.
func (e *env) warn(diags diag.List) {
	if e.annotate {
		compat.WriteDiagsGitHub(e.stdout, diags)
		return
	}
	printDiags(e.stderr, diags)
}

// note prints a remark about the run that is neither a finding nor a
// problem.
func (e *env) note(msg string) {
	if e.annotate {
		compat.WriteNoteGitHub(e.stdout, msg)
		return
	}
	fmt.Fprintf(e.stderr, "errgen: note: %s\n", msg)
}

// usageError is a wrong command line: Run prints it with the command's
// usage line and exits 2.
type usageError struct {
	cmd *command
	msg string
}

func (e *usageError) Error() string { return e.msg }

// usagef returns a usage error of the command that returns it.
func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// diagError is a list of diagnostics with at least one error, which Run
// prints one a line, positioned, without errgen's prefix.
type diagError struct{ list diag.List }

func (e *diagError) Error() string { return fmt.Sprintf("%d problems", len(e.list)) }

// baseError is a base catalogue that fails to load: its errors, printed
// as they were found, and the error that says they are the base's.
type baseError struct {
	list diag.List
	err  error
}

func (e *baseError) Error() string { return e.err.Error() }

// Main runs errgen as a process: like Run, with os.Args and an interrupt
// (Ctrl-C or SIGTERM) cancelling the command's context. A command stops
// promptly: while generate writes its temporary files, it removes them and
// leaves every file as it was; once every file is written, the renames
// that put them in place finish. A second interrupt stops errgen at once.
func Main(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // a second interrupt takes the default action
	}()
	return run(ctx, &env{stdout: os.Stdout, stderr: os.Stderr}, args)
}

// Run runs errgen with args (without the program name) and returns the exit
// status.
func Run(args []string, stdout, stderr io.Writer) int {
	return run(context.Background(), &env{stdout: stdout, stderr: stderr}, args)
}

func run(ctx context.Context, e *env, args []string) int {
	c, rest := generateCmd, args
	switch {
	case len(args) == 0:
	case args[0] == "-h" || args[0] == "--help":
		usage(e.stdout)
		return ExitOK
	case args[0] == "--version":
		c, rest = versionCmd, nil
	case strings.HasPrefix(args[0], "-"):
		// Flags without a command belong to the default command, so
		// `errgen --check` and `errgen -o dir` mean what they look like.
	default:
		c, rest = lookup(args[0]), args[1:]
		if c == nil {
			fmt.Fprintf(e.stderr, "errgen: unknown command %s%s\n", diag.Quote(args[0]), suggestCommand(args[0]))
			switch {
			case filepath.Base(args[0]) == registry.FileName:
				// generate takes one catalogue, not the registry.
				fmt.Fprintf(e.stderr, "to check that registry's catalogues: errgen lint %s\n", diag.Quote(args[0]))
			case looksLikeCatalogue(args[0]):
				// The default command takes flags only, as go generate
				// lines give them; a catalogue is named after the command.
				fmt.Fprintf(e.stderr, "to generate from that catalogue: errgen generate %s\n", diag.Quote(args[0]))
			}
			fmt.Fprintf(e.stderr, "usage: errgen <command> [flags]; run 'errgen --help' for the commands\n")
			return ExitUsage
		}
	}
	return report(e, execute(ctx, e, c, rest))
}

// looksLikeCatalogue reports whether an argument given where a command
// goes names a file rather than a command.
func looksLikeCatalogue(arg string) bool {
	return strings.HasSuffix(arg, ".yaml") || strings.HasSuffix(arg, ".yml") || strings.ContainsAny(arg, `/\`)
}

// suggestCommand returns "; did you mean "lint"?" for a misspelt command
// (lnt, genrate, explian), or "" when no command is near.
func suggestCommand(name string) string {
	names := make([]string, 0, len(commands))
	for _, c := range commands {
		names = append(names, c.name)
	}
	if best := diag.Closest(name, names, 2); best != "" && len(name) > 2 {
		return "; did you mean " + diag.Quote(best) + "?"
	}
	return ""
}

// lookup returns the command named name, or nil.
func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// errHelp is returned by execute when -h asked for the command's help,
// which it printed.
var errHelp = errors.New("help")

// execute parses args with c's flags and runs it.
func execute(ctx context.Context, e *env, c *command, args []string) error {
	fs, runner := flagSet(c)
	if err := fs.Parse(args); err != nil {
		return &usageError{c, quoteFlagError(err)}
	}
	if help, _ := fs.GetBool("help"); help {
		commandHelp(e.stdout, c)
		return errHelp
	}
	if c.maxArgs >= 0 && fs.NArg() > c.maxArgs {
		return &usageError{c, "too many arguments: " + strings.Join(quoteAll(fs.Args()[c.maxArgs:]), " ")}
	}
	if slices.Contains(fs.Args(), "") {
		// An unset shell variable, most often: read as a path, it would
		// be the working folder's "" and fail as a file not found.
		return &usageError{c, `an empty argument ("") names nothing`}
	}
	if err := ctx.Err(); err != nil {
		return errInterrupted
	}
	err := runner(ctx, e, fs.Args())
	var u *usageError
	if errors.As(err, &u) && u.cmd == nil {
		u.cmd = c
	}
	var none *noCatalogueError
	if errors.As(err, &none) {
		none.line = func(path string) string { return commandLine(c, fs, path) }
	}
	return err
}

// commandLine is the command line of c as fs parsed it, its flags in the
// order c declares them and its values quoted, with the catalogue path
// given: to --catalogue for a command that takes it there, else after the
// arguments.
func commandLine(c *command, fs *pflag.FlagSet, path string) string {
	line := "errgen " + c.name
	fs.Visit(func(f *pflag.Flag) {
		if f.Name == "help" {
			return
		}
		name := "--" + f.Name
		if f.Shorthand != "" {
			name = "-" + f.Shorthand
		}
		switch {
		case f.Value.Type() == "bool" && f.Value.String() == "true":
			line += " " + name
		case f.Value.Type() == "bool":
			line += " " + name + "=" + f.Value.String()
		default:
			line += " " + name + " " + shellWord(f.Value.String())
		}
	})
	args := make([]string, 0, len(fs.Args())+1)
	for _, a := range fs.Args() {
		args = append(args, shellWord(a))
	}
	if strings.HasPrefix(path, "-") {
		// Not to be read as a flag.
		path = "./" + path
	}
	if fs.Lookup("catalogue") != nil {
		line += " --catalogue " + shellWord(path)
	} else {
		args = append(args, shellWord(path))
	}
	for _, a := range args {
		line += " " + a
	}
	return line
}

// shellWord quotes s as a word of a command line a shell runs as given:
// in double quotes, as diagnostics quote, when that keeps it as it is
// (printable ASCII without $, ` or !, which a shell reads inside double
// quotes), else in single quotes when it is plain printable text; a name
// that is not is quoted as diagnostics quote it, inert, not to be run.
func shellWord(s string) string {
	q := diag.Quote(s)
	switch {
	case q == strconv.Quote(s) && !strings.ContainsAny(s, "$`!"):
		return q
	case diag.Path(s) == s:
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return q
}

// flagSet returns c's flag set, which reports errors instead of exiting,
// with -h, and the function that runs c.
func flagSet(c *command) (*pflag.FlagSet, runFunc) {
	fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	runner := c.flags(fs)
	fs.BoolP("help", "h", false, "show this help")
	return fs, runner
}

// quoteFlagError makes a flag error safe to print: pflag quotes neither
// the flags nor the values it names.
func quoteFlagError(err error) string {
	return diag.Inert(err.Error())
}

// errInterrupted is returned by a command stopped by an interrupt.
var errInterrupted = errors.New("interrupted")

// report prints err as its kind says and returns the exit status.
func report(e *env, err error) int {
	var usage *usageError
	var diags *diagError
	switch {
	case err == nil, errors.Is(err, errHelp):
		return ExitOK
	case errors.As(err, &usage):
		fmt.Fprintf(e.stderr, "errgen %s: %s\n", usage.cmd.name, usage.msg)
		fmt.Fprintf(e.stderr, "usage: %s\n", usage.cmd.synopsis())
		return ExitUsage
	case e.jsonProblems != nil && !errors.Is(err, context.Canceled):
		var list diag.List
		var base *baseError
		switch {
		case errors.As(err, &diags):
			list = diags.list
		case errors.As(err, &base):
			list = base.list
			fallthrough
		default:
			// The line that says why, with no position.
			list = append(list, diag.Diagnostic{Severity: diag.Error, Msg: err.Error()})
		}
		e.jsonProblems(e.stdout, list)
		e.jsonProblems = nil
		return report(e, err)
	case errors.As(err, &diags):
		if e.annotate {
			// Annotations, as the catalogue's warnings are.
			compat.WriteDiagsGitHub(e.stdout, diags.list)
			return ExitProblems
		}
		printDiags(e.stderr, diags.list)
		return ExitProblems
	case errors.Is(err, context.Canceled):
		err = errInterrupted
	}
	fmt.Fprintf(e.stderr, "errgen: %v\n", err)
	return ExitProblems
}

// defaultUsage is how errgen runs without a command, as run reads its
// arguments: each form and what it is the same as.
var defaultUsage = [][2]string{
	{"errgen", "errgen generate errors.yaml"},
	{"errgen FLAG... [CATALOGUE]", "errgen generate FLAG... [CATALOGUE]"},
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "errgen turns an error catalogue (errors.yaml) into Go error types.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage:")
	for _, u := range defaultUsage {
		fmt.Fprintf(w, "  %-30s same as: %s\n", u[0], u[1])
	}
	fmt.Fprintln(w, "  errgen <command> [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Without a command, the first argument must be one of generate's flags")
	fmt.Fprintln(w, "for a catalogue to follow: errgen CATALOGUE reads CATALOGUE as a command.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.short)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'errgen help <command>' for a command's flags.")
	fmt.Fprintln(w, "Exit status: 0 success, 1 catalogue problems or stale output, 2 usage errors.")
}

// synopsis is the command's usage line: errgen, its name and its
// arguments, if it takes any.
func (c *command) synopsis() string {
	return strings.TrimSpace("errgen " + c.name + " " + c.args)
}

// commandHelp prints c's usage, description and flags.
func commandHelp(w io.Writer, c *command) {
	fs, _ := flagSet(c)
	fmt.Fprintf(w, "usage: %s\n\n%s\n", c.synopsis(), c.long)
	fmt.Fprintf(w, "\nFlags:\n%s", fs.FlagUsages())
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = diag.Quote(s)
	}
	return out
}

// displayPath is how diagnostics name a file: as the user wrote it, or
// relative to the working directory when that is shorter, like the Go
// toolchain: a catalogue of the registry beside the working folder is
// ../gateway/errors.yaml. A relative name that leaves the folder is used
// only when it names the same file, which a symbolic link on the way
// could change.
func displayPath(path string) string {
	if !filepath.IsAbs(path) {
		return filepath.ToSlash(filepath.Clean(path))
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && len(rel) < len(path) && (!strings.HasPrefix(rel, "..") || sameFile(rel, path)) {
			return filepath.ToSlash(rel)
		}
	}
	return path
}

// sameFile reports whether a and b name one file, or both name none.
func sameFile(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA != nil || errB != nil {
		return os.IsNotExist(errA) && os.IsNotExist(errB)
	}
	return os.SameFile(sa, sb)
}

// printDiags prints diagnostics one a line, at most maxPrinted of them,
// and then how many more there were, counted or kept.
func printDiags(w io.Writer, diags diag.List) {
	printed, more := 0, diags.Dropped()
	for _, d := range diags {
		switch {
		case d.Dropped > 0:
		case printed == maxPrinted:
			more++
		default:
			fmt.Fprintln(w, d.String())
			printed++
		}
	}
	if more > 0 {
		fmt.Fprintf(w, "errgen: %d more problems not shown\n", more)
	}
}

// catalogueArg returns the catalogue args name, or the default.
func catalogueArg(args []string) string {
	if len(args) > 0 {
		return args[0]
	}
	return DefaultCatalogue
}

var lintCmd = &command{
	name:    "lint",
	args:    "[CATALOGUE... | errgen.registry.yaml]",
	short:   "check catalogues and report every problem",
	maxArgs: -1,
	long: `Lint checks the catalogue (default errors.yaml) and prints every problem as
FILE:LINE:COL: message, sorted by position. Warnings are printed too but do
not fail. Exit status 1 when there is at least one error.

Given several catalogues, lint also checks them together: a code or a num
(reserved ones included) that two catalogues use is reported at the later
one, with the earlier one's position. A catalogue given twice, under any
spelling of its path, is a usage error. A catalogue's nums must lie in the
ranges of the nearest errgen.registry.yaml in its folder or above that
lists it, as for generate. With no argument in a folder that
holds errgen.registry.yaml (or given that file), lint checks every
catalogue the registry lists, together, with the registry's rules: each
catalogue's nums lie in its ranges, no two ranges overlap, and a catalogue
named errors.yaml under the folder that the registry does not list is
reported (a warning).`,
	flags: func(fs *pflag.FlagSet) runFunc {
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) == 1 && filepath.Base(args[0]) != registry.FileName {
				_, err := loadCatalogue(ctx, e, args[0])
				return err
			}
			set, err := catalogues(e, args)
			if err != nil {
				return err
			}
			_, err = set.check(ctx, e)
			return err
		}
	},
}

var schemaCmd = &command{
	name:  "schema",
	args:  "[--export]",
	short: "print the JSON Schema of the catalogue format",
	long: `Schema prints the JSON Schema of catalogue format v1. Editors that speak the
YAML language server complete and check errors.yaml with it, given a first
line such as:

  # yaml-language-server: $schema=errors.schema.json

Write it beside the catalogue with: errgen schema > errors.schema.json

With --export it prints the JSON Schema of errgen export's output instead.`,
	flags: func(fs *pflag.FlagSet) runFunc {
		exported := fs.Bool("export", false, "print the JSON Schema of errgen export's output instead")
		return func(ctx context.Context, e *env, args []string) error {
			if *exported {
				_, err := e.stdout.Write(export.Schema())
				return err
			}
			_, err := e.stdout.Write(schema.JSON())
			return err
		}
	},
}

var versionCmd = &command{
	name:  "version",
	args:  "",
	short: "print errgen's version",
	long:  `Version prints the module version errgen was built from.`,
	flags: func(fs *pflag.FlagSet) runFunc {
		return func(ctx context.Context, e *env, args []string) error {
			_, err := fmt.Fprintf(e.stdout, "errgen %s\n", version())
			return err
		}
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
	name:    "help",
	args:    "[COMMAND]",
	short:   "show help for errgen or one command",
	maxArgs: 1,
	long:    `Help shows errgen's commands, or one command's usage and flags.`,
	flags: func(fs *pflag.FlagSet) runFunc {
		return func(ctx context.Context, e *env, args []string) error {
			if len(args) == 0 {
				usage(e.stdout)
				return nil
			}
			c := lookup(args[0])
			if c == nil {
				return usagef("unknown command %s%s", diag.Quote(args[0]), suggestCommand(args[0]))
			}
			commandHelp(e.stdout, c)
			return nil
		}
	},
}
