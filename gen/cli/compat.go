package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/compat"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/load"
	"github.com/errgen/errgen/gen/model"
)

var compatCmd = &command{
	name:  "compat",
	args:  "--against BASE [--tier TIER] [--format text|json|github] [CATALOGUE]",
	short: "fail on breaking changes against an older catalogue",
	long: `Compat compares the catalogue (default errors.yaml) with an older version of
it, BASE, and reports every breaking change: a num that now identifies
another code, a variant removed without reserving its num and code, a
retryable error that stopped being retryable, a payload field removed, a Go
name changed, and more. Each finding prints as
FILE:LINE:COL: RULE_ID: message, pointing into the catalogue and naming
where the entry stood in BASE. Additions never fail.

BASE is a file, or git:REV[:PATH] to read PATH at revision REV with
git show (PATH is relative to the repository root and defaults to the
catalogue's own path), for example git:origin/main or git:HEAD~1.

A deliberate break is waived in the catalogue itself, so reviewers see the
waiver in the diff:

  compat:
    - rule: RETRYABLE_CHANGED
      code: tool_timeout
      reason: Timeouts are retried by the gateway now.

A waived break prints as a note and does not fail. A waiver naming an
unknown rule is an error; one that matches nothing is a warning.

The rules are grouped in tiers, each including the ones before it:
wire (nums and codes), json (the payload's shape), semantics (what an
error means), go (the generated Go API). --tier checks a tier and those
below it.

Rules (a note never fails):
` + ruleList() + `
Exit status 0 when nothing breaks, 1 on a breaking change or a problem
reading either catalogue, 2 on a usage error.`,
	run: runCompat,
}

// ruleList lists the rules for the help text, one a line.
func ruleList() string {
	var b strings.Builder
	for _, r := range compat.Rules {
		tier := r.Tier.String()
		if r.Severity == compat.Note {
			tier = "note"
		}
		fmt.Fprintf(&b, "  %-28s  %-9s  %s\n", r.ID, tier, r.Doc)
	}
	return b.String()
}

// tierFlag adds --tier to fs.
func tierFlag(fs *pflag.FlagSet) *string {
	return fs.String("tier", "go", "check rules of `TIER` and below: "+strings.Join(compat.TierNames(), ", "))
}

// parseTier reads the value of --tier, reporting a usage error.
func parseTier(e *env, c *command, s string) (compat.Tier, bool) {
	t, ok := compat.ParseTier(s)
	if !ok {
		fmt.Fprintf(e.stderr, "errgen %s: --tier must be one of %s, got %s\n", c.name, strings.Join(compat.TierNames(), ", "), diag.Quote(s))
	}
	return t, ok
}

// badFormat reports a --format value that is not one of formats.
func badFormat(e *env, c *command, got string, formats ...string) int {
	fmt.Fprintf(e.stderr, "errgen %s: --format must be one of %s, got %s\n", c.name, strings.Join(formats, ", "), diag.Quote(got))
	return ExitUsage
}

func runCompat(e *env, c *command, args []string) int {
	fs := flags(c, e)
	against := fs.String("against", "", "compare with `BASE`: a file, or git:REV[:PATH]")
	tierName := tierFlag(fs)
	format := fs.String("format", "text", "print findings as `FORMAT`: text, json or github (Actions annotations)")
	if st := parse(c, e, fs, args, 1); st >= 0 {
		return st
	}
	if *against == "" {
		fmt.Fprintf(e.stderr, "errgen compat: --against BASE is required\nusage: errgen compat %s\n", c.args)
		return ExitUsage
	}
	tier, ok := parseTier(e, c, *tierName)
	if !ok {
		return ExitUsage
	}
	switch *format {
	case "text", "json", "github":
	default:
		return badFormat(e, c, *format, "text", "json", "github")
	}
	path := catalogueArg(fs)
	head := loadCatalogue(e, path)
	if head == nil {
		return ExitProblems
	}
	base := loadBase(e, *against, path)
	if base == nil {
		return ExitProblems
	}
	findings, waiverDiags := compat.Waive(compat.Filter(compat.Compare(base, head), tier), head.Waivers, tier)

	var err error
	switch *format {
	case "json":
		err = writeFindingsJSON(e.stdout, findings)
		printDiags(e.stderr, waiverDiags)
	case "github":
		err = writeFindingsGitHub(e.stdout, findings, waiverDiags)
	default:
		for _, f := range findings {
			fmt.Fprintln(e.stdout, findingText(f))
		}
		printDiags(e.stderr, waiverDiags)
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "errgen: %v\n", err)
		return ExitProblems
	}
	breaking := 0
	for _, f := range findings {
		if f.Fails() {
			breaking++
		}
	}
	if breaking > 0 {
		fmt.Fprintf(e.stderr, "errgen: %s against %s; undo %s, or waive a deliberate one under compat: in %s\n",
			plural(breaking, "breaking change"), base.File, pick(breaking, "it", "them"), head.File)
	}
	if breaking > 0 || waiverDiags.HasErrors() {
		return ExitProblems
	}
	return ExitOK
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// findingText formats a finding as FILE:LINE:COL: RULE: message (base
// POS); a note or a waived break is marked "note:" and a waived one names
// its waiver.
func findingText(f compat.Finding) string {
	var b strings.Builder
	b.WriteString(f.Pos.String())
	b.WriteString(": ")
	if f.Severity == compat.Note || f.Waiver != nil {
		b.WriteString("note: ")
	}
	b.WriteString(f.Rule)
	b.WriteString(": ")
	b.WriteString(findingMessage(f))
	return b.String()
}

// findingMessage is the finding's message with where it stood in base and,
// when waived, the waiver's reason.
func findingMessage(f compat.Finding) string {
	msg := f.Message
	if f.BasePos.IsValid() {
		msg += " (base " + f.BasePos.String() + ")"
	}
	if w := f.Waiver; w != nil {
		msg += "; waived at " + w.Pos.String() + ": " + diag.Quote(w.Reason)
	}
	return msg
}

func writeFindingsJSON(w io.Writer, findings []compat.Finding) error {
	if findings == nil {
		findings = []compat.Finding{}
	}
	data, err := json.MarshalIndent(findings, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// writeFindingsGitHub prints findings and waiver problems as GitHub
// Actions workflow commands, which the runner turns into annotations on
// the pull request's files: a break is an error, a note or a waived break
// a notice.
func writeFindingsGitHub(w io.Writer, findings []compat.Finding, waiverDiags diag.List) error {
	var b bytes.Buffer
	for _, f := range findings {
		kind, title := "error", f.Rule
		if f.Severity == compat.Note || f.Waiver != nil {
			kind = "notice"
		}
		if f.Waiver != nil {
			title += " (waived)"
		}
		b.WriteString(annotation(kind, f.Pos, title, findingMessage(f)))
	}
	for _, d := range waiverDiags {
		kind := "error"
		if d.Severity == diag.Warning {
			kind = "warning"
		}
		b.WriteString(annotation(kind, d.Pos, "compat waiver", d.Msg))
	}
	_, err := w.Write(b.Bytes())
	return err
}

// annotation formats one workflow command:
// ::KIND file=F,line=L,col=C,title=T::MESSAGE. Messages quote catalogue
// text, so they hold no line break; escaping them as the runner expects
// (% \r \n, and : , in properties) keeps any text from ending the command
// or starting another.
func annotation(kind string, pos diag.Pos, title, msg string) string {
	props := "file=" + escapeProperty(annotationPath(pos.File))
	if pos.IsValid() {
		props += fmt.Sprintf(",line=%d,col=%d", pos.Line, pos.Col)
	}
	props += ",title=" + escapeProperty(title)
	return "::" + kind + " " + props + "::" + escapeData(msg) + "\n"
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }

// annotationPath names a file for an annotation: relative to the
// repository checkout (GITHUB_WORKSPACE) when errgen runs below it, since
// that is how GitHub finds the file; as displayed otherwise.
func annotationPath(file string) string {
	ws := os.Getenv("GITHUB_WORKSPACE")
	if ws == "" {
		return file
	}
	abs, err := filepath.Abs(filepath.FromSlash(file))
	if err != nil {
		return file
	}
	if rel, err := filepath.Rel(ws, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return file
}

// loadBase reads and checks the catalogue to compare with: a file, or
// git:REV[:PATH]. It prints every problem; the model is nil when there was
// one. Warnings of the base are not printed: they are not the change's.
func loadBase(e *env, against, catalogue string) *model.Catalogue {
	var name string
	var src []byte
	if spec, ok := strings.CutPrefix(against, "git:"); ok {
		var err error
		name, src, err = gitShow(spec, catalogue)
		if err != nil {
			fmt.Fprintf(e.stderr, "errgen: base %s: %v\n", diag.Quote(against), err)
			return nil
		}
	} else {
		name = displayPath(against)
		var err error
		if src, err = readCatalogue(against); err != nil {
			fmt.Fprintf(e.stderr, "errgen: base: %v\n", err)
			return nil
		}
	}
	m, diags := gen.Parse(name, src)
	if m == nil {
		var errs diag.List
		for _, d := range diags {
			if d.Severity == diag.Error {
				errs = append(errs, d)
			}
		}
		printDiags(e.stderr, errs)
		fmt.Fprintf(e.stderr, "errgen: the base catalogue %s has errors; compare with a base that errgen accepts\n", name)
	}
	return m
}

// gitShow reads a catalogue at a git revision: spec is REV[:PATH]. PATH
// is relative to the repository root; without it, the catalogue's own
// path is used, found with git rev-parse --show-prefix. Git runs in the
// catalogue's folder. It returns the name diagnostics give the base,
// git:REV:PATH.
func gitShow(spec, catalogue string) (string, []byte, error) {
	rev, path, hasPath := strings.Cut(spec, ":")
	switch {
	case rev == "":
		return "", nil, errors.New("give a revision: git:REV or git:REV:PATH, such as git:origin/main")
	case strings.HasPrefix(rev, "-"):
		return "", nil, fmt.Errorf("revision %s must not start with -", diag.Quote(rev))
	case hasPath && path == "":
		return "", nil, errors.New("empty path after the revision; write git:REV or git:REV:PATH")
	}
	dir := filepath.Dir(catalogue)
	if !hasPath {
		prefix, err := git(dir, "rev-parse", "--show-prefix")
		if err != nil {
			return "", nil, err
		}
		path = strings.TrimSpace(string(prefix)) + filepath.Base(catalogue)
	}
	path = strings.TrimPrefix(filepath.ToSlash(path), "/")
	name := "git:" + rev + ":" + path
	if _, err := git(dir, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		hint := ""
		if strings.Contains(rev, "/") {
			hint = " (in CI, fetch the history first: actions/checkout with fetch-depth: 0)"
		}
		return "", nil, fmt.Errorf("unknown revision %s%s", diag.Quote(rev), hint)
	}
	// The base is a blob a pull request may have made as large as it
	// liked: ask its type and size before reading it, and read no more than
	// the loader's cap even then.
	obj := rev + ":" + path
	kind, err := git(dir, "cat-file", "-t", obj)
	if err != nil {
		return "", nil, err
	}
	if k := strings.TrimSpace(string(kind)); k != "blob" {
		return "", nil, fmt.Errorf("%s is a %s in git, not a file", diag.Quote(obj), k)
	}
	sizeText, err := git(dir, "cat-file", "-s", obj)
	if err != nil {
		return "", nil, err
	}
	size, err := strconv.ParseInt(strings.TrimSpace(string(sizeText)), 10, 64)
	if err != nil {
		return "", nil, fmt.Errorf("git cat-file -s %s: %v", diag.Quote(obj), err)
	}
	if size > load.MaxSize {
		return "", nil, fmt.Errorf("%s is %d bytes; a catalogue may be at most %d (16 MiB)", diag.Quote(obj), size, load.MaxSize)
	}
	src, err := gitCapped(dir, load.MaxSize, "cat-file", "blob", obj)
	if err != nil {
		return "", nil, err
	}
	return name, src, nil
}

// git runs git with args in dir and returns its output, at most 1 MiB of
// it; on failure the error holds the first line git printed.
func git(dir string, args ...string) ([]byte, error) {
	return gitCapped(dir, 1<<20, args...)
}

// gitCapped is git with a bound on the output it keeps: past max bytes the
// output is refused, and git, its pipe closed, stops.
func gitCapped(dir string, max int64, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C", "GIT_PAGER=cat")
	stderr := &cappedBuffer{max: 4 << 10}
	stdout := &cappedBuffer{max: max}
	cmd.Stderr, cmd.Stdout = stderr, stdout
	err := cmd.Run()
	if stdout.over {
		return nil, fmt.Errorf("git %s printed more than %d bytes", args[0], max)
	}
	if err == nil {
		return stdout.Bytes(), nil
	}
	if errors.Is(err, exec.ErrNotFound) {
		return nil, errors.New("git is not installed or not in PATH")
	}
	msg, _, _ := strings.Cut(strings.TrimSpace(string(stderr.Bytes())), "\n")
	if msg == "" {
		msg = err.Error()
	}
	return nil, fmt.Errorf("git %s: %s", args[0], strings.Trim(diag.Quote(msg), `"`))
}

// cappedBuffer keeps what is written to it up to max bytes; a write past
// that fails, which closes the pipe of the process writing.
type cappedBuffer struct {
	bytes.Buffer
	max  int64
	over bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	if int64(b.Len()+len(p)) > b.max {
		b.over = true
		return 0, errors.New("output too large")
	}
	return b.Buffer.Write(p)
}
