package gen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/build/constraint"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/model"
)

// Flags of FuzzGenerate: which optional keys the catalogue carries and how
// its values are written.
const (
	fPayload         = 1 << iota // the family has a payload_type
	fFamilyUser                  // the family has user_message: extra
	fRange                       // the family has nums: [1, 100000]
	fUser                        // the variant has user_message: extra
	fSuppression                 // the variant has suppression_key: extra
	fHints                       // suggested_tool, suggested_action, usage_hint: extra
	fRetryable                   // retryable: true
	fFromCause                   // retryable_from_cause: true
	fSuppressRetry               // suppress_retry: true
	fNonFatal                    // non_fatal: true
	fStatus                      // http_status: [num]
	fField2                      // a second field
	fPayload1                    // field 1 is a payload field
	fPayload2                    // field 2 is a payload field
	fRetryAfter2                 // field 2 is the retry_after field
	fExample1                    // field 1 has an example
	fExampleList                 // field 1's example is the list [example, extra]
	fRaw                         // names, codes and examples written as plain scalars
	fBlockDoc                    // docs written as literal blocks
	fFieldDoc                    // field 1 has doc
	fOtherFamily                 // a second family (a cause type: OtherFamily)
	fSecondVariant               // a second variant in the fuzzed family
	fTidy                        // names, codes, types and num made valid, so more catalogues pass the checker
	fRetryableField2             // field 2 is the retryable field
	fGRPCUnavailable             // the grpc projection, the family's grpc_code UNAVAILABLE
	fMapsTo                      // the family maps_to OtherFamily, whose target's retryable field is named as field 1
)

// FuzzGenerate splices fuzzed names, codes, numbers, messages, docs, field
// names, types and examples into a valid catalogue. For every catalogue
// the checker accepts, the generated package must be sound: gofmt-clean,
// parsed, marked as generated, free of directive-like lines and bidi
// controls, type-checked by go/types, and the same bytes on a second run.
// For every catalogue it rejects, every diagnostic is positioned inside
// the input.
func FuzzGenerate(f *testing.F) {
	for _, s := range generateSeeds {
		f.Add(s.pkg, s.category, s.family, s.variant, s.code, s.num, s.message, s.doc,
			s.field1, s.type1, s.field2, s.type2, s.example, s.extra, s.flags)
	}
	f.Fuzz(func(t *testing.T, pkg, category, family, variant, code string, num int,
		message, doc, field1, type1, field2, type2, example, extra string, flags uint32) {
		src := spliceCatalogue(pkg, category, family, variant, code, num, message, doc,
			field1, type1, field2, type2, example, extra, flags)
		m, diags := gen.Parse("errors.yaml", src)
		checkPositions(t, src, diags)
		if m == nil {
			if !diags.HasErrors() {
				t.Fatal("gen.Parse returned no model and no error")
			}
			return
		}
		for _, d := range diags {
			if d.Severity == diag.Error {
				t.Fatalf("gen.Parse returned a model with an error: %s", d)
			}
		}
		files, err := gen.Generate(m)
		if err != nil {
			t.Fatalf("the checker accepted a catalogue errgen cannot generate:\n%s\n%v", src, err)
		}
		checkGenerated(t, src, files)

		// A second run from scratch gives the same bytes.
		m2, _ := gen.Parse("errors.yaml", src)
		again, err := gen.Generate(m2)
		if err != nil {
			t.Fatal(err)
		}
		if len(again) != len(files) {
			t.Fatalf("second run: %d files, first run %d", len(again), len(files))
		}
		for i := range files {
			if files[i].Path != again[i].Path || !bytes.Equal(files[i].Data, again[i].Data) || files[i].CreateOnly != again[i].CreateOnly {
				t.Errorf("second run differs at %s", files[i].Path)
			}
		}
	})
}

// spliceCatalogue writes the fuzzed values into a catalogue that is valid
// when they are.
func spliceCatalogue(pkg, category, family, variant, code string, num int,
	message, doc, field1, type1, field2, type2, example, extra string, flags uint32) []byte {
	has := func(bit uint32) bool { return flags&bit != 0 }
	if has(fTidy) {
		pkg = "p" + strings.Map(keep("abcdefghijklmnopqrstuvwxyz0123456789"), strings.ToLower(pkg))
		family = "F" + strings.Map(keep(alnum), family)
		variant = "V" + strings.Map(keep(alnum), variant)
		category, code = snake("c", category), snake("c", code)
		field1, field2 = snake("f", field1), snake("g", field2)
		types := append([]string{"error"}, model.ScalarTypes...)
		if has(fOtherFamily) {
			types = append(types, "OtherFamily")
		}
		if !slices.Contains(types, type1) {
			type1 = types[len(type1)%len(types)]
		}
		if !slices.Contains(types, type2) {
			type2 = types[len(type2)%len(types)]
		}
		num = 1 + int(uint(num)%99990)
	}
	// name writes a name, code or example: quoted, or as it stands.
	name := func(s string) string {
		if has(fRaw) {
			return s
		}
		return yamlQuote(s)
	}
	docText := func(s string, indent int) string {
		if !has(fBlockDoc) {
			return yamlQuote(s)
		}
		pad := strings.Repeat(" ", indent+2)
		return "|-\n" + pad + strings.ReplaceAll(s, "\n", "\n"+pad)
	}
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("version: 1\n")
	w("package: %s\n", name(pkg))
	if has(fGRPCUnavailable) {
		w("projections: [grpc]\n")
		w("grpc: {domain: fuzz.example.com}\n")
	}
	w("categories:\n")
	w("  %s: A fuzzed category.\n", name(category))
	if has(fOtherFamily) {
		w("  other: Another category.\n")
	}
	w("families:\n")
	w("  - name: %s\n", name(family))
	w("    doc: %s\n", docText(doc, 4))
	if has(fPayload) {
		w("    payload_type: fuzz_error\n")
	}
	if has(fFamilyUser) {
		w("    user_message: %s\n", yamlQuote(extra))
	}
	if has(fRange) {
		w("    nums: [1, 100000]\n")
	}
	if has(fGRPCUnavailable) {
		w("    grpc_code: UNAVAILABLE\n")
	}
	if has(fMapsTo) {
		w("    maps_to: {family: OtherFamily, default: OtherTarget}\n")
	}
	w("    variants:\n")
	w("      - name: %s\n", name(variant))
	w("        code: %s\n", name(code))
	w("        num: %d\n", num)
	w("        category: %s\n", name(category))
	w("        doc: %s\n", docText(doc, 8))
	w("        message: %s\n", yamlQuote(message))
	if has(fUser) {
		w("        user_message: %s\n", yamlQuote(extra))
	}
	if has(fSuppression) {
		w("        suppression_key: %s\n", yamlQuote(extra))
	}
	if has(fHints) {
		w("        suggested_tool: %s\n", yamlQuote(extra))
		w("        suggested_action: %s\n", yamlQuote(extra))
		w("        usage_hint: %s\n", yamlQuote(extra))
	}
	for _, k := range []struct {
		bit uint32
		key string
	}{{fRetryable, "retryable"}, {fFromCause, "retryable_from_cause"}, {fSuppressRetry, "suppress_retry"}, {fNonFatal, "non_fatal"}} {
		if has(k.bit) {
			w("        %s: true\n", k.key)
		}
	}
	if has(fStatus) {
		w("        http_status: [%d]\n", num)
	}
	w("        fields:\n")
	w("          - name: %s\n", name(field1))
	w("            type: %s\n", name(type1))
	if has(fFieldDoc) {
		w("            doc: %s\n", docText(doc, 12))
	}
	if has(fPayload1) {
		w("            payload: true\n")
	}
	if has(fExample1) {
		if has(fExampleList) {
			w("            example: [%s, %s]\n", yamlQuote(example), yamlQuote(extra))
		} else {
			w("            example: %s\n", name(example))
		}
	}
	if has(fField2) {
		w("          - name: %s\n", name(field2))
		w("            type: %s\n", name(type2))
		if has(fPayload2) {
			w("            payload: true\n")
		}
		if has(fRetryAfter2) {
			w("            retry_after: true\n")
		}
		if has(fRetryableField2) {
			w("            retryable: true\n")
		}
	}
	if has(fSecondVariant) {
		w("      - name: FuzzSecond\n")
		w("        code: fuzz_second\n")
		w("        num: 99999\n")
		w("        category: %s\n", name(category))
		w("        message: \"second {code}\"\n")
	}
	if has(fOtherFamily) {
		w("  - name: OtherFamily\n")
		w("    variants:\n")
		w("      - {name: OtherVariant, code: other_variant, num: 100001, category: other, message: \"other {code}\"}\n")
		if has(fMapsTo) {
			w("      - name: OtherTarget\n")
			w("        code: other_target\n")
			w("        num: 100002\n")
			w("        category: other\n")
			w("        message: \"other {code}\"\n")
			w("        fields:\n")
			w("          - {name: other_cause, type: error}\n")
			w("          - {name: %s, type: bool, retryable: true}\n", name(field1))
		}
	}
	return []byte(b.String())
}

const alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"

// keep returns a strings.Map function that drops every rune not in set.
func keep(set string) func(rune) rune {
	return func(r rune) rune {
		if strings.ContainsRune(set, r) {
			return r
		}
		return -1
	}
}

// snake turns s into a snake_case name starting with prefix.
func snake(prefix, s string) string {
	words := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !strings.ContainsRune("abcdefghijklmnopqrstuvwxyz0123456789", r)
	})
	return strings.Join(append([]string{prefix}, words...), "_")
}

// yamlQuote writes s as a YAML double-quoted scalar (JSON's string syntax is
// a subset of it). Invalid UTF-8 becomes U+FFFD, as json.Marshal does.
func yamlQuote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		panic(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// checkPositions asserts that every diagnostic lies inside src.
func checkPositions(t *testing.T, src []byte, diags diag.List) {
	t.Helper()
	lines := bytes.Split(src, []byte("\n"))
	if n := len(lines); n > 1 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	for _, d := range diags {
		p := d.Pos
		if p.Line < 1 || p.Line > len(lines) {
			t.Errorf("diagnostic %q: line %d outside the %d-line input", d, p.Line, len(lines))
			continue
		}
		if width := len(lines[p.Line-1]); p.Col < 1 || p.Col > width+1 {
			t.Errorf("diagnostic %q: column %d outside line %d of %d bytes", d, p.Col, p.Line, width)
		}
	}
}

// checkGenerated holds the generated files to the soundness rules.
func checkGenerated(t *testing.T, src []byte, files []gen.File) {
	t.Helper()
	fset := token.NewFileSet()
	var goFiles []*ast.File
	for _, f := range files {
		if !path.IsAbs(f.Path) && (path.Clean(f.Path) != f.Path || strings.HasPrefix(f.Path, "../") || strings.Contains(f.Path, "\\")) {
			t.Errorf("unsafe output path %q", f.Path)
		}
		if !utf8.Valid(f.Data) {
			t.Errorf("%s is not valid UTF-8", f.Path)
		}
		for i, line := range strings.Split(string(f.Data), "\n") {
			trimmed := strings.TrimLeft(line, " \t")
			// The runtime, which holds no catalogue text, keeps some of its
			// functions out of line on purpose.
			own := f.Path == "errgen_runtime.go" && line == "//go:noinline"
			if !own && (strings.HasPrefix(trimmed, "//go:") || strings.HasPrefix(trimmed, "//line")) {
				t.Errorf("%s:%d: directive-like line %q", f.Path, i+1, line)
			}
			for _, r := range line {
				if isBidi(r) || r == 0x2028 || r == 0x2029 || (r < 0x20 && r != '\t') || r == 0x7F || (r >= 0x80 && r < 0xA0) || r == 0xFEFF {
					t.Errorf("%s:%d: hostile character %U in output", f.Path, i+1, r)
				}
			}
		}
		if strings.HasSuffix(f.Path, ".golden.json") {
			if !json.Valid(f.Data) {
				t.Errorf("%s is not valid JSON:\n%s", f.Path, f.Data)
			}
			continue
		}
		if !strings.HasSuffix(f.Path, ".go") {
			t.Errorf("unexpected output file %s", f.Path)
			continue
		}
		if formatted, err := format.Source(f.Data); err != nil || !bytes.Equal(formatted, f.Data) {
			t.Errorf("%s is not gofmt-clean (err %v)", f.Path, err)
		}
		af, err := parser.ParseFile(fset, f.Path, f.Data, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s does not parse: %v\ncatalogue:\n%s", f.Path, err, src)
		}
		if !ast.IsGenerated(af) {
			t.Errorf("%s is not recognised as generated", f.Path)
		}
		checkPlatforms(t, f, af)
		goFiles = append(goFiles, af)
	}
	if err := typeCheck(fset, goFiles); err != nil {
		t.Fatalf("generated package does not type-check: %v\ncatalogue:\n%s", err, src)
	}
}

// checkPlatforms fails when a Go tool could read any comment of a generated
// file as a build constraint, which vet refuses ("misplaced +build
// comment") and gofmt turns into a real //go:build line, and checks that
// the go command builds the file for two platforms, as it must.
func checkPlatforms(t *testing.T, f gen.File, af *ast.File) {
	t.Helper()
	for _, g := range af.Comments {
		for _, c := range g.List {
			for _, line := range strings.Split(c.Text, "\n") {
				if constraint.IsGoBuild(line) || constraint.IsPlusBuild(line) {
					t.Errorf("%s: comment line %q is a build constraint", f.Path, line)
				}
			}
		}
	}
	for _, goos := range []string{"linux", "windows"} {
		ctxt := build.Default
		ctxt.GOOS, ctxt.GOARCH, ctxt.CgoEnabled = goos, "amd64", false
		ctxt.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(f.Data)), nil }
		if ok, err := ctxt.MatchFile("/generated", path.Base(f.Path)); err != nil || !ok {
			t.Errorf("%s is not built for GOOS=%s (err %v)", f.Path, goos, err)
		}
	}
}

func isBidi(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C
}

// The standard library is type-checked from source once per process and
// shared by every iteration.
var (
	importMu sync.Mutex
	stdlib   types.Importer
)

// typeCheck type-checks the generated files (the code, the runtime and the
// generated test, which share one package) and returns the first error.
func typeCheck(fset *token.FileSet, files []*ast.File) error {
	importMu.Lock()
	defer importMu.Unlock()
	if stdlib == nil {
		stdlib = importer.ForCompiler(token.NewFileSet(), "source", nil)
	}
	var first error
	conf := types.Config{
		Importer: stdlib,
		Error: func(err error) {
			if first == nil {
				first = err
			}
		},
	}
	_, _ = conf.Check(files[0].Name.Name, fset, files, nil)
	return first
}

type generateSeed struct {
	pkg, category, family, variant, code string
	num                                  int
	message, doc, field1, type1, field2  string
	type2, example, extra                string
	flags                                uint32
}

const nastyText = "100% of %s %v %%!(EXTRA) {{braces}} \"quoted\" 'single' `tick` \ttab\t é 日本 😀 //go:generate x */ <b>&amp;</b> back\\slash"

const nastyDoc = "A doc that tries to end its comment: */ and /*\n//go:generate rm -rf /\n//line evil.go:1\n\tgo:build ignore\n\n`backticks` and \"quotes\" and 100% and {{braces}}\n   indented Non-ASCII: héllo, 日本語, emoji 😀.\n// Code generated by hand. DO NOT EDIT.\npackage main\n+build linux\n  +build ignore\n//go:build windows"

// generateSeeds cover every field type, every optional key, names that are
// Go keywords or predeclared identifiers before conversion, and text full of
// format verbs, braces, quotes, backticks, tabs, non-ASCII and directives.
var generateSeeds = []generateSeed{
	{"fuzz", "input", "ToolError", "NotFound", "not_found", 1, "file {path} not found", "Doc.", "path", "string", "size", "int", "a.txt", "", 0},
	{"fuzz", "input", "ToolError", "NotFound", "not_found", 1, "file {path}: {size}", "Doc.", "path", "string", "size", "int64", "a.txt", "hint", fPayload | fUser | fSuppression | fHints | fField2 | fPayload1 | fPayload2 | fExample1},
	{"fuzz", "net", "ProviderError", "RateLimited", "rate_limited", 429, "rate limited, retry after {retry_after}", "Doc.", "provider", "string", "retry_after", "duration", "openai", "", fRetryable | fStatus | fField2 | fRetryAfter2 | fExample1 | fRange},
	{"fuzz", "net", "TurnError", "Failed", "failed", 7, "failed: {cause}", "Doc.", "note", "bool", "cause", "OtherFamily", "true", "", fRaw | fExample1 | fField2 | fOtherFamily | fFromCause},
	{"fuzz", "net", "TurnError", "Failed", "failed", 7, "failed: {cause} {note}", "Doc.", "note", "uint64", "cause", "error", "18446744073709551615", "", fRaw | fExample1 | fField2 | fNonFatal},
	{"fuzz", "budget", "Budget", "CostExceeded", "cost_exceeded", 4010, "cost {cost} of {limit}", "Doc.", "cost", "float64", "limit", "float64", "1e308", "", fRaw | fExample1 | fField2 | fPayload | fPayload1 | fPayload2},
	{"fuzz", "budget", "Budget", "Missing", "missing", 3, "missing {names}", "Doc.", "names", "strings", "extra", "strings", "a\"b", "<c&d>", fExample1 | fExampleList | fField2 | fPayload | fPayload1 | fSuppressRetry | fSecondVariant},
	{"nasty", "weird", "Nasty", "Percent", "percent", 1, nastyText + " {value}", nastyDoc, "value", "string", "type", "string", nastyText, nastyText, fPayload | fUser | fSuppression | fHints | fPayload1 | fExample1 | fBlockDoc | fFieldDoc | fField2 | fFamilyUser},
	{"nasty", "weird", "Nasty", "Percent", "percent", 1, "{value}", nastyDoc, "value", "string", "go", "int", nastyText, "", fPayload | fPayload1 | fExample1 | fFieldDoc},
	{"kw", "weird", "Keyword", "Keywordish", "keywordish", 2, "{type} {func}", "Doc.", "type", "string", "func", "bool", "", "", fField2},
	{"kw", "weird", "Keyword", "Keywordish", "keywordish", 2, "{string} {nil}", "Doc.", "string", "string", "nil", "bool", "", "", fField2},
	{"kw", "weird", "Keyword", "Keywordish", "keywordish", 2, "{true} {map}", "Doc.", "true", "bool", "map", "strings", "", "", fField2},
	{"kw", "weird", "Keyword", "Keywordish", "keywordish", 2, "{int} {error}", "Doc.", "int", "int", "error", "error", "", "", fField2},
	// Tidied: any text becomes valid names, so the rest is what is fuzzed.
	{"Pkg!", "Cat egory", "fam-ily", "vari ant", "Code-1", -7, "{f} and {g_field} 100%", nastyDoc, "--", "?", "field", "int", "x", "y", fTidy | fField2 | fPayload | fPayload1 | fBlockDoc},
	{"", "", "", "", "", 0, "{code}", "Doc.", "", "bool", "", "OtherFamily", "", "", fTidy | fOtherFamily | fField2 | fRaw | fFromCause},
	// A field that decides retryability: with gRPC's UNAVAILABLE, with a
	// conversion into a target whose retryable field has field 1's name
	// (of another type, sensitive, or the same), beside the other keys
	// that would decide.
	{"fuzz", "model", "ModelError", "CallFailed", "call_failed", 101, "call failed: {cause}", "Doc.", "cause", "error", "transient", "bool", "", "", fField2 | fRetryableField2 | fGRPCUnavailable | fPayload | fPayload2 | fOtherFamily | fSecondVariant},
	{"fuzz", "model", "ModelError", "CallFailed", "call_failed", 101, "call failed {again}", "Doc.", "again", "bool", "transient", "bool", "false", "", fField2 | fRetryableField2 | fMapsTo | fOtherFamily | fExample1},
	{"fuzz", "model", "ModelError", "CallFailed", "call_failed", 101, "call failed", "Doc.", "again", "string", "transient", "bool", "x", "", fField2 | fRetryableField2 | fMapsTo | fOtherFamily | fExample1 | fStatus},
	{"fuzz", "model", "ModelError", "CallFailed", "call_failed", 101, "call failed", "Doc.", "again", "bool", "transient", "duration", "", "", fField2 | fRetryableField2 | fRetryAfter2 | fRetryable | fNonFatal | fGRPCUnavailable},
	{"", "", "", "", "", 0, "{code}", "Doc.", "", "bool", "", "bool", "", "", fTidy | fOtherFamily | fField2 | fRetryableField2 | fMapsTo | fGRPCUnavailable | fPayload | fPayload1},
	// Rejected: keyword and predeclared package names, names the generated
	// package or its test declares, hostile text.
	{"func", "input", "F", "V", "v", 1, "m {x}", "Doc.", "x", "string", "", "", "", "", 0},
	{"string", "input", "F", "V", "v", 1, "m {x}", "Doc.", "x", "string", "", "", "", "", 0},
	{"init", "input", "F", "V", "v", 1, "m {x}", "Doc.", "x", "string", "", "", "", "", 0},
	{"fuzz", "input", "F", "TestErrgenGolden", "v", 1, "m {x}", "Doc.", "x", "string", "", "", "", "", 0},
	{"fuzz", "input", "F", "Payload", "v", 1, "m {x}", "Doc.", "x", "string", "", "", "", "", 0},
	{"fuzz", "input", "F", "V", "v", 1, "m {x}", "Doc.", "error", "string", "", "", "", "", 0},
	{"fuzz", "input", "F", "V", "v", 1, "\x1b[31m {x}", "\u202e", "x", "string", "", "", "", "", 0},
	{"fuzz", "input", "F", "V", "v", 1, "m {x}\n::error::forged", "Doc.", "x", "string", "", "", "", "", 0},
	{"fuzz", "input", "F", "V", "v", 1, "{x", "Doc.", "x", "string", "", "", "", "", 0},
	{"fuzz", "input", "F", "V", "v", 1, "m", "Doc.", "x", "float64", "", "", "NaN", "", fRaw | fExample1},
}
