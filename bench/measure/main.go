// Command measure is the helper of bench/run.sh: it writes the inputs of
// the process-level benchmarks and times commands, so the script needs
// nothing beyond the Go toolchain.
//
//	measure synth -n N -o DIR          write DIR/errors.yaml, a synthetic catalogue of N variants
//	measure baseline -n N -o DIR [-api]
//	                                   write the plain baseline package of the same N variants
//	measure hostile -o DIR             write the catalogues of synth.Hostile, at errgen's caps
//	measure calls -n N -o DIR          write four packages of N types with six one-line methods
//	                                   each, one per body form (see runCalls)
//	measure ablate -o DIR GENERATED  write copies of a generated package, each with one kind of
//	                                   method body (or the tables) made constant (see runAblate)
//	measure ablate-runtime -o DIR GENERATED
//	                                   write copies of a generated package, each with one function
//	                                   of its runtime file returning zero values (see runAblateRuntime)
//	measure time [-runs R] [-name NAME] [-exit N] [-quiet] SPEC...
//	                                   run each SPEC R times, interleaved, and report
//	measure ratio FILE NUM DEN         median ns/op of two benchmarks in FILE, and NUM/DEN
//	measure machine                    describe the machine
//
// A SPEC is LABEL=COMMAND, or LABEL@NONCE=COMMAND: before each run, the
// file NONCE (a .go file) is rewritten with a fresh constant, so go build
// and go vet redo the package's work while every dependency stays cached.
// The command is split on spaces.
//
// time prints one line per run in the format of go test -bench, so
// benchstat reads it (BenchmarkNAME/cmd=LABEL, with wall time as sec/op,
// CPU time as cpu-sec/op and the peak resident set of the process tree as
// peak-RSS-B/op), then a table of medians with the ratio of each command
// to the first.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/load"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/synth"
)

func main() {
	if len(os.Args) < 2 {
		usage()
	}
	var err error
	switch cmd, args := os.Args[1], os.Args[2:]; cmd {
	case "synth":
		err = runSynth(args)
	case "baseline":
		err = runBaseline(args)
	case "hostile":
		err = runHostile(args)
	case "calls":
		err = runCalls(args)
	case "ablate":
		err = runAblate(args)
	case "ablate-runtime":
		err = runAblateRuntime(args)
	case "time":
		err = runTime(args)
	case "ratio":
		err = runRatio(args)
	case "machine":
		err = runMachine()
	default:
		usage()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(1)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: measure synth|baseline|hostile|calls|ablate|ablate-runtime|time|ratio|machine ...")
	os.Exit(2)
}

func sizeAndDir(fs *flag.FlagSet, args []string) (int, string, error) {
	n := fs.Int("n", 1000, "number of variants")
	dir := fs.String("o", "", "output folder")
	if err := fs.Parse(args); err != nil {
		return 0, "", err
	}
	if *dir == "" || *n < 1 {
		return 0, "", fmt.Errorf("%s needs -n N (N >= 1) and -o DIR", fs.Name())
	}
	return *n, *dir, os.MkdirAll(*dir, 0o755)
}

// runHostile writes the catalogues of synth.Hostile, at errgen's caps, as
// DIR/NAME.yaml, and lists each as NAME OK|BROKEN.
func runHostile(args []string) error {
	fs := flag.NewFlagSet("hostile", flag.ContinueOnError)
	dir := fs.String("o", "", "output folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return fmt.Errorf("hostile needs -o DIR")
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	for _, in := range synth.Hostile(load.MaxValues) {
		if err := os.WriteFile(filepath.Join(*dir, in.Name+".yaml"), in.Src, 0o644); err != nil {
			return err
		}
		state := "BROKEN"
		if in.Valid {
			state = "OK"
		}
		fmt.Println(in.Name, state, len(in.Src))
	}
	return nil
}

func runSynth(args []string) error {
	n, dir, err := sizeAndDir(flag.NewFlagSet("synth", flag.ContinueOnError), args)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "errors.yaml"), synth.Catalogue(n), 0o644)
}

// runBaseline writes the package a service would write by hand for the
// same catalogue: one struct per variant with the same fields, and five
// one-line methods. It is what errgen's compile cost is compared with.
//
// With -api, each variant has instead the method set errgen's API requires
// (its family interface, LogValue, Unwrap for a cause, and the sealing
// method), every method a one-line constant: the least any generator of
// that API could compile.
func runBaseline(args []string) error {
	fs := flag.NewFlagSet("baseline", flag.ContinueOnError)
	api := fs.Bool("api", false, "give each variant errgen's method set, with constant bodies")
	n, dir, err := sizeAndDir(fs, args)
	if err != nil {
		return err
	}
	m, diags := gen.Parse("errors.yaml", synth.Catalogue(n))
	if m == nil {
		return fmt.Errorf("synthetic catalogue: %v", diags)
	}
	var b strings.Builder
	b.WriteString("// Package baseline is the plain package errgen's output is compared with.\npackage baseline\n\nimport (\n\t\"log/slog\"\n\t\"time\"\n)\n\nvar (\n\t_ time.Duration\n\t_ slog.Value\n)\n\n")
	if *api {
		b.WriteString("type Payload struct{ Code string }\n\ntype Code string\n\ntype Category string\n\ntype Class int\n\n")
	}
	types := map[string]string{
		"string": "string", "bool": "bool", "int": "int", "int64": "int64", "uint64": "uint64",
		"float64": "float64", "duration": "time.Duration", "strings": "[]string", "error": "error",
	}
	for _, v := range m.Variants {
		fmt.Fprintf(&b, "// %s is the error %s.\ntype %s struct {\n", v.Name, v.Code, v.Name)
		for _, f := range v.Fields {
			t, ok := types[f.Type.Name]
			if !ok {
				t = "error" // a cause of another family
			}
			fmt.Fprintf(&b, "\t%s %s\n", f.GoName, t)
		}
		b.WriteString("}\n\n")
		typed := func(t string) string {
			if *api {
				return t
			}
			return "string"
		}
		fmt.Fprintf(&b, "func (*%s) Code() %s { return %q }\n", v.Name, typed("Code"), v.Code)
		fmt.Fprintf(&b, "func (*%s) CodeNum() int { return %d }\n", v.Name, v.Num)
		fmt.Fprintf(&b, "func (*%s) Category() %s { return %q }\n", v.Name, typed("Category"), v.Category.Name)
		fmt.Fprintf(&b, "func (*%s) Retryable() bool { return %t }\n", v.Name, v.Retry.Retryable)
		fmt.Fprintf(&b, "func (*%s) Error() string { return %q }\n", v.Name, v.Message.Text)
		if *api {
			fmt.Fprintf(&b, "func (*%s) is%s() {}\n", v.Name, v.Family.Name)
			fmt.Fprintf(&b, "func (*%s) SuppressRetry() bool { return %t }\n", v.Name, v.SuppressRetry)
			fmt.Fprintf(&b, "func (*%s) SuppressionKey() string { return %q }\n", v.Name, text(v.SuppressionKey))
			fmt.Fprintf(&b, "func (*%s) Class() Class { return %d }\n", v.Name, v.Class())
			fmt.Fprintf(&b, "func (*%s) UserMessage() string { return %q }\n", v.Name, text(v.UserMessage.Template))
			fmt.Fprintf(&b, "func (*%s) LogValue() slog.Value { return slog.Value{} }\n", v.Name)
			if v.Family.HasPayload() {
				fmt.Fprintf(&b, "func (*%s) LLMPayload() *Payload { return nil }\n", v.Name)
				fmt.Fprintf(&b, "func (*%s) AppendLLMPayload(dst []byte) []byte { return dst }\n", v.Name)
			}
			fmt.Fprintf(&b, "func (*%s) MarshalJSON() ([]byte, error) { return nil, nil }\n", v.Name)
			fmt.Fprintf(&b, "func (*%s) Is(target error) bool { return false }\n", v.Name)
			if v.Cause != nil {
				fmt.Fprintf(&b, "func (e *%s) Unwrap() error { return e.%s }\n", v.Name, v.Cause.GoName)
			}
		}
		b.WriteString("\n")
	}
	return os.WriteFile(filepath.Join(dir, "baseline.go"), []byte(b.String()), 0o644)
}

// callForms are the bodies runCalls compares, by the folder each goes to:
// what a generated method costs the compiler depending on whether it
// passes its receiver to a function of the package, passes only
// constants, or returns a constant. The callee is kept out of line, as
// errgen's runtime entry points are.
var callForms = []struct{ dir, recv, body, callee string }{
	{"receiver-any", "e ", "return call(e, %d, %d)", "func call(e any, i, k int) string { return fmt.Sprint(e, i, k) }"},
	{"receiver-pointer", "e ", "return call(unsafe.Pointer(e), %d, %d)", "func call(e unsafe.Pointer, i, k int) string { return fmt.Sprint(uintptr(e), i, k) }"},
	{"constants-only", "", "return call(%d, %d)", "func call(i, k int) string { return fmt.Sprint(i, k) }"},
	{"constant", "", `return "%d.%d"`, "func call() string { return fmt.Sprint() }"},
}

// runCalls writes one package per call form: n struct types of two
// fields, each with six methods of that form.
func runCalls(args []string) error {
	fs := flag.NewFlagSet("calls", flag.ContinueOnError)
	n, dir, err := sizeAndDir(fs, args)
	if err != nil {
		return err
	}
	for _, form := range callForms {
		name := strings.ReplaceAll(form.dir, "-", "")
		var b strings.Builder
		fmt.Fprintf(&b, "// Package %s holds one-line methods of one body form.\npackage %s\n\nimport (\n\t\"fmt\"\n\t\"unsafe\"\n)\n\nvar _ unsafe.Pointer\n\n//go:noinline\n%s\n", name, name, form.callee)
		for i := range n {
			fmt.Fprintf(&b, "\ntype T%d struct {\n\tA string\n\tB int\n}\n\n", i)
			for k := range 6 {
				body := fmt.Sprintf(form.body, i, k)
				fmt.Fprintf(&b, "func (%s*T%d) M%d() string { %s }\n", form.recv, i, k, body)
			}
		}
		sub := filepath.Join(dir, form.dir)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(sub, name+".go"), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// ablations are the parts of a generated package runAblate takes out one
// at a time, so that what each costs the compiler is the difference
// between the package and its copy: the methods of each kind that hand
// the variant to the runtime (body and its constant stand-in), then the
// tables the runtime reads. A method whose body no longer uses its
// receiver loses the receiver's name too, as in the API floor.
var ablations = []struct {
	name   string
	body   *regexp.Regexp
	stub   string
	tables []string
}{
	{name: "Error", body: regexp.MustCompile(`return messageText\(e\)`), stub: `return ""`},
	{name: "SuppressionKey", body: regexp.MustCompile(`return keyText\(e\)`), stub: `return ""`},
	{name: "LLMPayload", body: regexp.MustCompile(`return newPayload\(e\)`), stub: `return nil`},
	{name: "AppendLLMPayload", body: regexp.MustCompile(`return appendPayload\(dst, e\)`), stub: `return dst`},
	{name: "LogValue", body: regexp.MustCompile(`return logValue\(e\)`), stub: `return slog.Value{}`},
	{name: "MarshalJSON", body: regexp.MustCompile(`return marshalWire\(e\)`), stub: `return nil, nil`},
	{name: "Is", body: regexp.MustCompile(`return isCode\(target, \d+\)`), stub: `return false`},
	{name: "tables", tables: []string{"infos", "forms", "variantTypes"}},
}

var (
	oneLineMethodRE = regexp.MustCompile(`(?m)^func \(e (\*\w+)\)(.*\{ )(.*)( \})$`)
	receiverUseRE   = regexp.MustCompile(`\be\b`)
)

// runAblate writes, for each entry of ablations, DIR/NAME: a copy of the
// generated package's Go files (tests left out) with that part made
// constant. It fails when a part is not found, so a change to the
// emitter's output cannot leave the comparison measuring nothing.
func runAblate(args []string) error {
	fs := flag.NewFlagSet("ablate", flag.ContinueOnError)
	dir := fs.String("o", "", "output folder")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || fs.NArg() != 1 {
		return fmt.Errorf("ablate needs -o DIR and the folder of a generated package")
	}
	files, err := filepath.Glob(filepath.Join(fs.Arg(0), "*.go"))
	if err != nil {
		return err
	}
	srcs := map[string]string{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		srcs[filepath.Base(f)] = string(data)
	}
	main, ok := srcs["errgen.go"]
	if !ok {
		return fmt.Errorf("%s has no errgen.go", fs.Arg(0))
	}
	for _, a := range ablations {
		out, n := main, 0
		if a.body != nil {
			out = a.body.ReplaceAllStringFunc(out, func(string) string { n++; return a.stub })
			out = oneLineMethodRE.ReplaceAllStringFunc(out, func(m string) string {
				g := oneLineMethodRE.FindStringSubmatch(m)
				if receiverUseRE.MatchString(g[3]) {
					return m
				}
				return "func (" + g[1] + ")" + g[2] + g[3] + g[4]
			})
		}
		for _, name := range a.tables {
			if out, err = emptyTable(out, name); err != nil {
				return err
			}
			n++
		}
		if n == 0 {
			return fmt.Errorf("ablate %s: no method body matched; the generated code changed", a.name)
		}
		sub := filepath.Join(*dir, a.name)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return err
		}
		for name, src := range srcs {
			if name == "errgen.go" {
				src = out
			}
			if err := os.WriteFile(filepath.Join(sub, name), []byte(src), 0o644); err != nil {
				return err
			}
		}
		fmt.Printf("%s: %d made constant\n", a.name, n)
	}
	return nil
}

// emptyTable turns "var NAME = [...]T{ one line an entry }" into
// "var NAME [n]T": the same type, the entries left zero.
func emptyTable(src, name string) (string, error) {
	re := regexp.MustCompile(`(?ms)^var ` + regexp.QuoteMeta(name) + ` = \[\.\.\.\](\w+)\{\n(.*?)^\}\n`)
	m := re.FindStringSubmatchIndex(src)
	if m == nil {
		return "", fmt.Errorf("ablate tables: no table %s; the generated code changed", name)
	}
	n := strings.Count(src[m[4]:m[5]], "\n")
	return src[:m[0]] + fmt.Sprintf("var %s [%d]%s\n", name, n, src[m[2]:m[3]]) + src[m[1]:], nil
}

type spec struct {
	label, nonce string
	argv         []string
	wall, cpu    []time.Duration
	rss          int64
}

func parseSpec(s string) (*spec, error) {
	head, cmd, ok := strings.Cut(s, "=")
	if !ok || strings.TrimSpace(cmd) == "" {
		return nil, fmt.Errorf("spec %q is not LABEL=COMMAND or LABEL@NONCE=COMMAND", s)
	}
	label, nonce, _ := strings.Cut(head, "@")
	return &spec{label: label, nonce: nonce, argv: strings.Fields(cmd)}, nil
}

var packageRE = regexp.MustCompile(`(?m)^package (\w+)`)

// writeNonce rewrites path with a constant no earlier run has seen.
func writeNonce(path string, run int) error {
	dir := filepath.Dir(path)
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	pkg := ""
	for _, f := range files {
		if f == path || strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if m := packageRE.FindSubmatch(data); m != nil {
			pkg = string(m[1])
			break
		}
	}
	if pkg == "" {
		return fmt.Errorf("no Go package in %s", dir)
	}
	src := fmt.Sprintf("package %s\n\nconst benchNonce = \"%d-%d\"\n", pkg, time.Now().UnixNano(), run)
	return os.WriteFile(path, []byte(src), 0o644)
}

func runTime(args []string) error {
	fs := flag.NewFlagSet("time", flag.ContinueOnError)
	runs := fs.Int("runs", 5, "runs of each command")
	name := fs.String("name", "Process", "benchmark name of the result lines")
	warm := fs.Int("warmup", 1, "untimed runs of each command first")
	exit := fs.Int("exit", 0, "the exit status each command must end with (1 for errgen on a broken catalogue)")
	quiet := fs.Bool("quiet", false, "discard what the commands print")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var specs []*spec
	for _, a := range fs.Args() {
		s, err := parseSpec(a)
		if err != nil {
			return err
		}
		specs = append(specs, s)
	}
	if len(specs) == 0 || *runs < 1 {
		return fmt.Errorf("time needs -runs 1 or more and at least one LABEL=COMMAND")
	}
	for i := -*warm; i < *runs; i++ {
		// Interleave the commands run by run, so a burst of load on a
		// shared machine hits all of them alike.
		for _, s := range specs {
			if s.nonce != "" {
				if err := writeNonce(s.nonce, i); err != nil {
					return err
				}
			}
			cmd := exec.Command(s.argv[0], s.argv[1:]...)
			cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
			if *quiet {
				cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
			}
			start := time.Now()
			err := cmd.Run()
			if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != *exit {
				return fmt.Errorf("%s: %v, want exit status %d", strings.Join(s.argv, " "), err, *exit)
			}
			wall := time.Since(start)
			if i < 0 {
				continue
			}
			st := cmd.ProcessState
			cpu := st.UserTime() + st.SystemTime()
			rss := maxRSS(st)
			s.wall, s.cpu = append(s.wall, wall), append(s.cpu, cpu)
			s.rss = max(s.rss, rss)
			fmt.Printf("Benchmark%s/cmd=%s 1 %d ns/op %d cpu-ns/op %d peak-RSS-B/op\n", *name, s.label, wall.Nanoseconds(), cpu.Nanoseconds(), rss)
		}
	}
	fmt.Printf("\n# %-22s %12s %12s %12s %14s %10s %10s\n", "command", "median wall", "min wall", "median CPU", "peak RSS", "wall/1st", "CPU/1st")
	base := specs[0]
	for _, s := range specs {
		fmt.Printf("# %-22s %12s %12s %12s %10.1f MiB %10.2f %10.2f\n", s.label,
			round(median(s.wall)), round(slices.Min(s.wall)), round(median(s.cpu)), float64(s.rss)/(1<<20),
			float64(median(s.wall))/float64(median(base.wall)), float64(median(s.cpu))/float64(median(base.cpu)))
	}
	return nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

func round(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// runRatio prints the median ns/op of two benchmarks of a go test -bench
// output and their ratio. Names are given without the -GOMAXPROCS suffix.
func runRatio(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("usage: measure ratio FILE NUM DEN")
	}
	f, err := os.Open(args[0])
	if err != nil {
		return err
	}
	defer f.Close()
	vals := map[string][]float64{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := fields[0]
		if i := strings.LastIndex(name, "-"); i > 0 {
			if _, err := strconv.Atoi(name[i+1:]); err == nil {
				name = name[:i]
			}
		}
		for i := 2; i+1 < len(fields); i += 2 {
			if fields[i+1] == "ns/op" {
				if v, err := strconv.ParseFloat(fields[i], 64); err == nil {
					vals[name] = append(vals[name], v)
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	med := func(name string) (float64, error) {
		v := vals[name]
		if len(v) == 0 {
			return 0, fmt.Errorf("no %s in %s", name, args[0])
		}
		slices.Sort(v)
		if n := len(v); n%2 == 1 {
			return v[n/2], nil
		}
		return (v[len(v)/2-1] + v[len(v)/2]) / 2, nil
	}
	num, err := med(args[1])
	if err != nil {
		return err
	}
	den, err := med(args[2])
	if err != nil {
		return err
	}
	fmt.Printf("%-50s %14s  (n=%d)\n%-50s %14s  (n=%d)\n%-50s %14.2f\n",
		args[1], time.Duration(num), len(vals[args[1]]), args[2], time.Duration(den), len(vals[args[2]]), "ratio", num/den)
	return nil
}

func runMachine() error {
	fmt.Printf("go: %s %s/%s, GOMAXPROCS %d, NumCPU %d\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0), runtime.NumCPU())
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, "model name") {
				_, model, _ := strings.Cut(line, ":")
				fmt.Printf("cpu: %s\n", strings.TrimSpace(model))
				break
			}
		}
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		line, _, _ := strings.Cut(string(data), "\n")
		fmt.Printf("memory: %s\n", strings.Join(strings.Fields(line)[1:], " "))
	}
	if data, err := os.ReadFile("/proc/loadavg"); err == nil {
		fmt.Printf("load average (1, 5, 15 min): %s\n", strings.Join(strings.Fields(string(data))[:3], " "))
	}
	return nil
}

// text is a template's text, "" for none.
func text(t *model.Template) string {
	if t == nil {
		return ""
	}
	return t.Text
}
