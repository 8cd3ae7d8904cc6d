package compat_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/cli"
	"github.com/errgen/errgen/gen/compat"
	"github.com/errgen/errgen/gen/load"
	"github.com/errgen/errgen/gen/model"
)

// TestDiffGolden renders the review summary of testdata/diff (base.yaml
// against head.yaml, a realistic release) in each format and compares it
// with want.md, want.txt and want.json.
func TestDiffGolden(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "diff"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ format, golden string }{
		{"markdown", "want.md"},
		{"text", "want.txt"},
		{"json", "want.json"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			t.Setenv("NO_COLOR", "")
			got := runCLI(t, dir, "diff", "--format", tc.format, "--against", "base.yaml", "head.yaml")
			// The command must succeed and print nothing else.
			out, ok := strings.CutSuffix(got, "exit 0\n")
			if !ok || strings.Contains(out, "stderr: ") {
				t.Fatalf("errgen diff failed:\n%s", got)
			}
			golden := filepath.Join(dir, tc.golden)
			if *update {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), out); diff != "" {
				t.Errorf("errgen diff --format %s differs from %s (-want +got); run go test ./gen/compat -update to accept:\n%s", tc.format, tc.golden, diff)
			}
			if tc.format == "json" && !json.Valid([]byte(out)) {
				t.Error("the JSON report is not valid JSON")
			}
		})
	}
}

// TestDiffMarkdownEscapes checks that catalogue text cannot break the
// Markdown summary: every table row keeps its column count whatever the
// messages hold.
func TestDiffMarkdownEscapes(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "diff"))
	if err != nil {
		t.Fatal(err)
	}
	got := runCLI(t, dir, "diff", "--format", "markdown", "--against", "base.yaml", "head.yaml")
	cols := 0
	for _, line := range lines(got) {
		if !strings.HasPrefix(line, "|") {
			cols = 0
			continue
		}
		// Count the cell separators that are not escaped.
		n := strings.Count(line, "|") - strings.Count(line, `\|`)
		if cols == 0 {
			cols = n
		} else if n != cols {
			t.Errorf("row has %d separators, its table %d: %s", n, cols, line)
		}
	}
	if strings.Contains(got, "<b>") {
		t.Error("raw HTML from the catalogue reached the Markdown")
	}
	// The summary is posted as a comment: outside code spans, where GitHub
	// acts on nothing, no text may mention, reference or link.
	prose := strings.ReplaceAll(codeSpan.ReplaceAllString(got, ""), "&#8203;", "\u200b")
	for _, m := range live.FindAllString(prose, -1) {
		t.Errorf("live %q in the Markdown summary", m)
	}
	if !strings.Contains(got, "@&#8203;oncall") || !strings.Contains(got, "https:&#8203;//status") {
		t.Errorf("the doc with a mention and a URL is not in the summary:\n%s", got)
	}
}

var (
	codeSpan = regexp.MustCompile("(`+)[^`]*?(`+)")
	live     = regexp.MustCompile(`(?i)@[a-z0-9]|#[0-9]|\bgh-[0-9]|://|\bwww\.`)
)

// TestDiffColor checks when the text format is coloured: with --color
// always, never with --color never, and not on a pipe (as in tests).
func TestDiffColor(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "diff"))
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	for _, tc := range []struct {
		args    []string
		noColor string
		want    bool
	}{
		{[]string{"--color", "always"}, "", true},
		{[]string{"--color", "always"}, "1", true},
		{[]string{"--color", "never"}, "", false},
		{nil, "", false},
	} {
		t.Setenv("NO_COLOR", tc.noColor)
		var stdout, stderr bytes.Buffer
		args := append(append([]string{"diff"}, tc.args...), "--against", "base.yaml", "head.yaml")
		if code := cli.Run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("errgen %v: exit %d: %s", args, code, stderr.String())
		}
		if got := strings.Contains(stdout.String(), "\x1b["); got != tc.want {
			t.Errorf("errgen %v with NO_COLOR=%q: coloured %v, want %v", args, tc.noColor, got, tc.want)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := cli.Run([]string{"diff", "--color", "sometimes", "--against", "base.yaml", "head.yaml"}, &stdout, &stderr); code != cli.ExitUsage {
		t.Errorf("--color sometimes: exit %d, want %d", code, cli.ExitUsage)
	}
}

// TestDiffWaiversAsCompatJudgesThem: diff says of each waiver what compat
// says of it. At --tier json the rules above it are not checked, so their
// waivers are neither used nor unused; a break accepted by two waivers
// (one for its code, one for its family) uses both.
func TestDiffWaiversAsCompatJudgesThem(t *testing.T) {
	dir := t.TempDir()
	const base = `version: 1
package: agenterr
user_message: The request failed ({code}).
categories:
  other: Anything.
  input: Bad input.
families:
  - name: ToolError
    variants:
      - {name: Timeout, code: tool_timeout, num: 1, category: other, message: slow}
      - {name: Failed, code: tool_failed, num: 2, category: other, message: failed}
`
	head := strings.NewReplacer("category: other, message: slow", "category: input, message: slow, retryable: true", "package: agenterr", "package: tools").Replace(base) + `compat:
  - {rule: PACKAGE_RENAMED, reason: Named after the service.}
  - {rule: CATEGORY_CHANGED, code: tool_timeout, reason: Moved to input.}
  - {rule: RETRYABLE_CHANGED, code: tool_timeout, reason: Retried now.}
  - {rule: RETRYABLE_CHANGED, family: ToolError, reason: Every tool error is retried now.}
`
	writeBaseAndHead(t, dir, base, head)
	for _, tc := range []struct {
		tier string
		want []string
	}{
		{"json", []string{
			`CATEGORY_CHANGED "tool_timeout": "Moved to input." (not checked at tier json)`,
			`RETRYABLE_CHANGED "tool_timeout": "Retried now." (not checked at tier json)`,
			`RETRYABLE_CHANGED family "ToolError": "Every tool error is retried now." (not checked at tier json)`,
			`PACKAGE_RENAMED the catalogue: "Named after the service." (not checked at tier json)`,
		}},
		{"semantics", []string{
			`CATEGORY_CHANGED "tool_timeout": "Moved to input." (used)`,
			`RETRYABLE_CHANGED "tool_timeout": "Retried now." (used)`,
			`RETRYABLE_CHANGED family "ToolError": "Every tool error is retried now." (used)`,
			`PACKAGE_RENAMED the catalogue: "Named after the service." (not checked at tier semantics)`,
		}},
	} {
		got := runCLI(t, dir, "diff", "--format", "text", "--color", "never", "--tier", tc.tier, "--against", "base.yaml")
		for _, want := range tc.want {
			if !strings.Contains(got, "\n  "+want+"\n") {
				t.Errorf("diff --tier %s printed:\n%s\nwant a line:\n  %s", tc.tier, got, want)
			}
		}
		compat := runCLI(t, dir, "compat", "--tier", tc.tier, "--against", "base.yaml")
		if strings.Contains(compat, "matches no breaking change") || !strings.HasSuffix(compat, "exit 0\n") {
			t.Errorf("compat --tier %s, which diff must agree with, printed:\n%s", tc.tier, compat)
		}
	}
	got := runCLI(t, dir, "diff", "--format", "json", "--tier", "json", "--against", "base.yaml")
	var report struct{ Waivers []struct{ Judged, Used bool } }
	if err := json.Unmarshal([]byte(strings.TrimSuffix(got, "exit 0\n")), &report); err != nil || len(report.Waivers) != 4 {
		t.Fatalf("diff --format json: %v\n%s", err, got)
	}
	for _, w := range report.Waivers {
		if w.Judged || w.Used {
			t.Errorf("at --tier json a semantics waiver is %+v, want neither judged nor used", w)
		}
	}
}

// TestDiffPlacesEveryFinding: a finding about the whole catalogue sits
// beside the catalogue change it is about, and one about a family's
// reserved lists beside that list's change; none is left under "Other".
func TestDiffPlacesEveryFinding(t *testing.T) {
	dir := t.TempDir()
	const base = `version: 1
package: agenterr
user_message: The request failed ({code}).
projections: [mcp, problem, grpc, openai]
problem: {type_base: "https://errors.example.com/"}
grpc: {domain: agents.example.com}
attributes:
  - {name: owner, type: enum, values: [tools, models]}
categories:
  other: Anything.
  spare: Unused.
families:
  - name: ToolError
    grpc_code: UNAVAILABLE
    reserved: {nums: [9], codes: [tool_gone]}
    variants:
      - {name: Timeout, code: tool_timeout, num: 1, category: other, message: slow, attributes: {owner: tools}}
      - {name: Busy, code: tool_busy, num: 2, category: other, message: busy, attributes: {owner: tools}, subcodes: [{code: tool_busy_soft, doc: Soft.}]}
`
	head := strings.NewReplacer(
		", subcodes: [{code: tool_busy_soft, doc: Soft.}]", "",
		"package: agenterr", "package: tools",
		"projections: [mcp, problem, grpc, openai]", "projections: [mcp, problem, grpc]",
		"message: busy,", "message: busy, http_status: [503], grpc_code: NOT_FOUND, mcp_error: -32000,",
		"https://errors.example.com/", "https://errors.example.org/",
		"agents.example.com}", "tools.example.com, locale: en-GB}",
		"values: [tools, models]", "values: [tools]",
		"grpc_code: UNAVAILABLE", "grpc_code: INTERNAL",
		"reserved: {nums: [9], codes: [tool_gone]}", "reserved: {nums: [], codes: [tool_busy_soft]}",
		"  spare: Unused.\n", "",
	).Replace(base)
	writeBaseAndHead(t, dir, base, head)
	got := runCLI(t, dir, "diff", "--format", "json", "--against", "base.yaml")
	type change struct {
		Attribute string
		Findings  []struct{ Rule string }
	}
	var report struct {
		Catalogue []change
		Families  []struct {
			Changes  []change
			Variants []struct {
				Changes  []change
				Findings []struct{ Rule string }
			}
		}
		Other []struct{ Rule, Message string }
	}
	out, _, _ := strings.Cut(got, "stderr: ")
	if err := json.Unmarshal([]byte(strings.TrimSuffix(out, "exit 0\n")), &report); err != nil {
		t.Fatalf("diff --format json: %v\n%s", err, got)
	}
	// placed holds "LEVEL RULE ATTRIBUTE" for each finding beside a change.
	placed := map[string]bool{}
	for _, c := range report.Catalogue {
		for _, f := range c.Findings {
			placed["catalogue "+f.Rule+" "+c.Attribute] = true
		}
	}
	for _, fd := range report.Families {
		for _, c := range fd.Changes {
			for _, f := range c.Findings {
				placed["family "+f.Rule+" "+c.Attribute] = true
			}
		}
		for _, vd := range fd.Variants {
			for _, c := range vd.Changes {
				for _, f := range c.Findings {
					placed["variant "+f.Rule+" "+c.Attribute] = true
				}
			}
			for _, f := range vd.Findings {
				t.Errorf("%s is not beside a change of its variant", f.Rule)
			}
		}
	}
	for _, want := range []string{
		"catalogue PACKAGE_RENAMED package", "catalogue PROJECTION_REMOVED projections", "catalogue PROBLEM_TYPE_CHANGED problem type_base",
		"catalogue GRPC_CODE_CHANGED grpc domain", "catalogue ATTRIBUTE_REMOVED attribute owner",
		"catalogue CATEGORY_REMOVED category spare",
		"family GRPC_CODE_CHANGED grpc_code", "family RESERVED_REMOVED reserved nums", "family RESERVED_REMOVED reserved codes",
		"variant PROBLEM_STATUS_CHANGED http_status", "variant GRPC_CODE_CHANGED grpc_code", "variant MCP_KIND_CHANGED mcp_error",
		"variant INSTANCE_HINT_REMOVED subcodes",
	} {
		if !placed[want] {
			t.Errorf("no finding %q beside its change; placed: %v", want, placed)
		}
	}
	if len(report.Other) > 0 {
		t.Errorf("findings left under Other: %+v", report.Other)
	}
	// A change no rule reports is listed all the same.
	if !slices.ContainsFunc(report.Catalogue, func(c change) bool { return c.Attribute == "grpc locale" }) {
		t.Errorf("the changed gRPC locale is not listed: %+v", report.Catalogue)
	}
}

// TestDiffPlacesRemovedFamilyReserved: a family removed with what it
// reserved is listed as removed, and the values it no longer reserves are
// shown under it, not under "Other".
func TestDiffPlacesRemovedFamilyReserved(t *testing.T) {
	dir := t.TempDir()
	const base = `version: 1
package: toolerr
user_message: The request failed ({code}).
categories:
  other: Anything.
families:
  - name: ToolError
    variants:
      - {name: Timeout, code: tool_timeout, num: 1, category: other, message: slow}
  - name: FileError
    reserved: {nums: [19], codes: [file_gone]}
    variants:
      - {name: ReadOnly, code: read_only, num: 11, category: other, message: read-only}
`
	head := base[:strings.Index(base, "  - name: FileError")]
	writeBaseAndHead(t, dir, base, head)
	got := runCLI(t, dir, "diff", "--format", "json", "--against", "base.yaml")
	var report struct {
		Families []struct {
			Name     string
			Status   string
			Findings []struct{ Rule, Message string }
		}
		Other []struct{ Rule, Message string }
	}
	out, _, _ := strings.Cut(got, "stderr: ")
	if err := json.Unmarshal([]byte(strings.TrimSuffix(out, "exit 0\n")), &report); err != nil {
		t.Fatalf("diff --format json: %v\n%s", err, got)
	}
	if len(report.Other) > 0 {
		t.Errorf("findings left under Other: %+v", report.Other)
	}
	i := slices.IndexFunc(report.Families, func(fd struct {
		Name     string
		Status   string
		Findings []struct{ Rule, Message string }
	}) bool {
		return fd.Name == "FileError"
	})
	if i < 0 || report.Families[i].Status != "removed" || len(report.Families[i].Findings) != 2 {
		t.Errorf("family FileError is not listed as removed with its 2 reserved values:\n%s", got)
	}
}

// TestDiffPlacesTakenBesideTheTaker: a finding about what another
// variant's change took from a variant (a match rule added ahead of its
// rule, an http_status more specific than its own) sits beside that
// change, or under the variant when it is new; the variant that lost
// something, unchanged itself, is not listed as changed.
func TestDiffPlacesTakenBesideTheTaker(t *testing.T) {
	dir := t.TempDir()
	const base = `version: 1
package: agenterr
user_message: The request failed ({code}).
classify: {fallback: Unknown}
categories:
  other: Anything.
families:
  - name: ToolError
    variants:
      - {name: Refused, code: refused, num: 1, category: other, message: "refused: {cause}", match: {contains: [refused]}, fields: [{name: cause, type: error}]}
      - {name: HookFailed, code: hook_failed, num: 2, category: other, message: "hook: {cause}", match: {contains: [hook]}, fields: [{name: cause, type: error}]}
      - {name: NetDown, code: net_down, num: 3, category: other, message: "down: {cause}", http_status: ["5xx"], match: {is: [context.DeadlineExceeded], contains: [network]}, fields: [{name: cause, type: error}]}
      - {name: ToolFailed, code: tool_failed, num: 4, category: other, message: "failed: {cause}", http_status: [502, 500], fields: [{name: cause, type: error}]}
      - {name: Unknown, code: unknown, num: 5, category: other, message: "unknown: {cause}", fields: [{name: cause, type: error}]}
`
	head := strings.NewReplacer(
		"match: {contains: [refused]}", "match: {is: [context.Canceled], contains: [refused, fail]}",
		"http_status: [502, 500]", "http_status: [502, 500, 503]",
		"      - {name: Unknown,", "      - {name: Offline, code: offline, num: 6, category: other, message: \"offline: {cause}\", match: {contains: [offline]}, fields: [{name: cause, type: error}]}\n      - {name: Unknown,",
	).Replace(base)
	head = strings.Replace(head, "      - {name: NetDown,", "      - {name: Unreachable, code: unreachable, num: 7, category: other, message: \"unreachable: {cause}\", match: {is: [fs.ErrNotExist]}, fields: [{name: cause, type: error}]}\n      - {name: NetDown,", 1)
	writeBaseAndHead(t, dir, base, head)
	got := runCLI(t, dir, "diff", "--format", "json", "--against", "base.yaml")
	type finding struct{ Rule, Code string }
	var report struct {
		Families []struct {
			Variants []struct {
				Status  string
				Code    string
				Changes []struct {
					Attribute string
					Findings  []finding
				}
				Findings []finding
			}
		}
	}
	out, _, _ := strings.Cut(got, "stderr: ")
	if err := json.Unmarshal([]byte(strings.TrimSuffix(out, "exit 0\n")), &report); err != nil {
		t.Fatalf("diff --format json: %v\n%s", err, got)
	}
	// placed holds "VARIANT ATTRIBUTE: RULE CODE" for each finding, with
	// ATTRIBUTE "-" for one under the variant itself.
	var placed, listed []string
	for _, fd := range report.Families {
		for _, vd := range fd.Variants {
			listed = append(listed, vd.Status+" "+vd.Code)
			for _, f := range vd.Findings {
				placed = append(placed, vd.Code+" -: "+f.Rule+" "+f.Code)
			}
			for _, c := range vd.Changes {
				for _, f := range c.Findings {
					placed = append(placed, vd.Code+" "+c.Attribute+": "+f.Rule+" "+f.Code)
				}
			}
		}
	}
	// Refused's new is rule is tried first; it takes from every other
	// variant's rules and statuses (net_down's is rule, statuses and
	// contains rule), and the new Unreachable's from Refused's.
	want := []string{
		"refused match: CLASSIFY_RULE_REMOVED hook_failed",
		"refused match: CLASSIFY_RULE_REMOVED net_down",
		"refused match: CLASSIFY_RULE_REMOVED net_down",
		"refused match: CLASSIFY_RULE_REMOVED net_down",
		"refused match: CLASSIFY_RULE_REMOVED tool_failed",
		"unreachable -: CLASSIFY_RULE_REMOVED refused",
		"tool_failed http_status: HTTP_STATUS_REMOVED net_down",
	}
	slices.Sort(placed)
	slices.Sort(want)
	if diff := cmp.Diff(want, placed); diff != "" {
		t.Errorf("findings placed (-want +got):\n%s\n%s", diff, got)
	}
	wantListed := []string{"changed refused", "added unreachable", "changed tool_failed", "added offline"}
	if diff := cmp.Diff(wantListed, listed); diff != "" {
		t.Errorf("variants listed (-want +got):\n%s", diff)
	}
}

// TestDiffPlacesARuleTakenByAStatus: a new http_status Classify tries
// before a contains rule takes what matches both; the finding sits beside
// the status, and the variant whose rule lost, unchanged, is not listed.
func TestDiffPlacesARuleTakenByAStatus(t *testing.T) {
	dir := t.TempDir()
	const base = `version: 1
package: p
user_message: Failed ({code}).
classify: {fallback: Other}
categories:
  other: Anything.
families:
  - name: E
    variants:
      - {name: Reset, code: reset, num: 1, category: other, message: "reset: {cause}", match: {contains: [connection reset]}, fields: [{name: cause, type: error}]}
      - {name: Other, code: other, num: 2, category: other, message: "failed: {cause}", fields: [{name: cause, type: error}]}
`
	writeBaseAndHead(t, dir, base, strings.Replace(base, `message: "failed: {cause}",`, `message: "failed: {cause}", http_status: [502],`, 1))
	got := runCLI(t, dir, "diff", "--format", "text", "--color", "never", "--against", "base.yaml")
	want := `E
  ~ other (2)
      http_status: none → "502"
        BREAKING CLASSIFY_RULE_REMOVED: foreign errors that match contains "connection reset" no longer classify as "reset"`
	if !strings.Contains(got, want) || strings.Contains(got, "~ reset") {
		t.Errorf("diff does not place the finding beside the status that took the rule; want:\n%s\ngot:\n%s", want, got)
	}
	// A variant that gains a status and a rule: the finding about what its
	// new rule took is beside the rule, not the status.
	writeBaseAndHead(t, dir, base, strings.Replace(base, `message: "failed: {cause}",`, `message: "failed: {cause}", http_status: [502], match: {is: [context.Canceled]},`, 1))
	got = runCLI(t, dir, "diff", "--format", "text", "--color", "never", "--against", "base.yaml")
	want = `      match: none → "is context.Canceled"
        BREAKING CLASSIFY_RULE_REMOVED: foreign errors that match contains "connection reset" no longer classify as "reset" when they also match is context.Canceled`
	if !strings.Contains(got, want) {
		t.Errorf("diff does not place the finding beside the rule that took it; want:\n%s\ngot:\n%s", want, got)
	}
}

// TestDiffPlacesANarrowedStatusBesideTheLoser: a variant that dropped its
// specific entry loses that status by its own change, shown beside it; a
// status another variant took by widening its range is shown beside that.
func TestDiffPlacesANarrowedStatusBesideTheLoser(t *testing.T) {
	dir := t.TempDir()
	const base = `version: 1
package: p
user_message: Failed ({code}).
categories:
  other: Anything.
families:
  - name: E
    variants:
      - {name: Unavailable, code: unavailable, num: 1, category: other, message: unavailable, http_status: ["5xx", 503]}
      - {name: Overloaded, code: overloaded, num: 2, category: other, message: overloaded, http_status: ["500-509"]}
`
	writeBaseAndHead(t, dir, base, strings.NewReplacer(`["5xx", 503]`, `["5xx"]`, `"500-509"`, `"500-510"`).Replace(base))
	got := runCLI(t, dir, "diff", "--format", "text", "--color", "never", "--against", "base.yaml")
	want := `  ~ unavailable (1)
      http_status: "5xx, 503" → "5xx"
        BREAKING HTTP_STATUS_REMOVED: "unavailable" no longer stands for http_status 503: its http_status dropped the entry more specific than "overloaded"'s, which now takes it in LookupHTTPStatus and FromHTTP (base base.yaml:9:95)
  ~ overloaded (2)
      http_status: "500-509" → "500-510"
        BREAKING HTTP_STATUS_REMOVED: "unavailable" no longer stands for http_status 510: the more specific http_status of "overloaded" takes it in LookupHTTPStatus and FromHTTP (base base.yaml:9:95)`
	if !strings.Contains(got, want) {
		t.Errorf("diff places the findings otherwise; want:\n%s\ngot:\n%s", want, got)
	}
}

// oneVariant resolves a catalogue of one family and one variant, written
// as a flow mapping, with the top-level keys top beside the required ones.
func oneVariant(t *testing.T, top, variant string) *model.Catalogue {
	t.Helper()
	m, diags := gen.Parse("errors.yaml", []byte("version: 1\npackage: agenterr\n"+top+
		"user_message: The request failed ({code}).\ncategories:\n  other: Anything.\nfamilies:\n  - name: ToolError\n    variants:\n      - "+variant+"\n"))
	if m == nil {
		t.Fatal(diags)
	}
	return m
}

// TestDiffProjectionSettingsOnlyWhereSelected: a projection's settings
// (the problem status, the gRPC domain) are listed only where a side
// selects the projection: a new catalogue (an empty base) that selects
// none lists no problem status, though its model holds the default.
func TestDiffProjectionSettingsOnlyWhereSelected(t *testing.T) {
	head := oneVariant(t, "", "{name: Timeout, code: tool_timeout, num: 1, category: other, message: slow}")
	report := compat.Diff(&model.Catalogue{File: "base.yaml"}, head, nil, compat.Go)
	for _, c := range report.Catalogue {
		if strings.HasPrefix(c.Attr, "problem") || strings.HasPrefix(c.Attr, "grpc") {
			t.Errorf("a change of %s listed where neither side selects its projection: %+v", c.Attr, c)
		}
	}
}

// TestNewCatalogueHasNoCodeCaseChange: a new catalogue (an empty base)
// in upper_snake has no code case to change from: compat finds nothing,
// and diff lists its code_case as added, not as changed from snake.
func TestNewCatalogueHasNoCodeCaseChange(t *testing.T) {
	head := oneVariant(t, "code_case: upper_snake\n", "{name: Timeout, code: TOOL_TIMEOUT, num: 1, category: other, message: slow}")
	base := &model.Catalogue{File: "base.yaml"}
	if got := compat.Compare(base, head); len(got) != 0 {
		t.Errorf("compat of a new upper_snake catalogue: %v", got)
	}
	for _, c := range compat.Diff(base, head, nil, compat.Go).Catalogue {
		if c.Attr == "code_case" && (c.Before != "" || c.After != "upper_snake" || len(c.Findings) > 0) {
			t.Errorf("diff of a new upper_snake catalogue: %+v", c)
		}
	}
}

// TestDiffShowsAUnitChange: a duration field's unit is part of what diff
// shows of the field, so UNIT_CHANGED stands under the change it is about.
func TestDiffShowsAUnitChange(t *testing.T) {
	cat := func(unit string) *model.Catalogue {
		return oneVariant(t, "", `{name: Timeout, code: tool_timeout, num: 1, category: other, message: "slow: {wait}", fields: [{name: wait, type: duration`+unit+`}]}`)
	}
	base, head := cat(""), cat(", unit: s")
	report := compat.Diff(base, head, compat.Compare(base, head), compat.Go)
	var got []string
	for _, fd := range report.Families {
		for _, vd := range fd.Variants {
			for _, c := range vd.Changes {
				for _, f := range c.Findings {
					got = append(got, c.Before+" → "+c.After+": "+f.Rule)
				}
			}
		}
	}
	if want := "wait duration in ms → wait duration in s: UNIT_CHANGED"; strings.Join(got, "\n") != want {
		t.Errorf("diff of a unit change: %q, want %q", got, want)
	}
}

// TestDiffNumsAsWritten: a family's num range reads as the catalogue
// writes it, with nothing for the quoting to escape.
func TestDiffNumsAsWritten(t *testing.T) {
	dir := t.TempDir()
	const base = `version: 1
package: agenterr
user_message: The request failed ({code}).
categories:
  other: Anything.
families:
  - name: ToolError
    nums: [1000, 1099]
    variants:
      - {name: Timeout, code: tool_timeout, num: 1000, category: other, message: slow}
`
	head := strings.Replace(base, "[1000, 1099]", "[1000, 1199]", 1)
	writeBaseAndHead(t, dir, base, head)
	got := runCLI(t, dir, "diff", "--against", "base.yaml")
	if !strings.Contains(got, `nums: "[1000, 1099]" → "[1000, 1199]"`) {
		t.Errorf("diff of a num range:\n%s", got)
	}
}

// writeBaseAndHead writes base.yaml and errors.yaml into dir.
func writeBaseAndHead(t *testing.T, dir, base, head string) {
	t.Helper()
	for name, data := range map[string]string{"base.yaml": base, "errors.yaml": head} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestDiffCodeCaseIsOneChange: a catalogue whose code_case changed lists
// that one change; its classify fallback and reserved codes, spelled anew
// with every other code, are not changes of their own.
func TestDiffCodeCaseIsOneChange(t *testing.T) {
	cat := func(codeCase string, recase func(string) string) *model.Catalogue {
		m, diags := gen.Parse("errors.yaml", []byte(recase("version: 1\npackage: agenterr\ncode_case: "+codeCase+"\nuser_message: The request failed ({code}).\n"+
			"classify: {fallback: Unknown}\ncategories:\n  other: Anything.\nfamilies:\n  - name: ToolError\n    reserved: {codes: [tool_gone]}\n    variants:\n"+
			"      - {name: Unknown, code: unknown, num: 1, category: other, message: unknown, fields: [{name: err, type: error}]}\n")))
		if m == nil {
			t.Fatal(diags)
		}
		return m
	}
	upper := func(s string) string {
		return strings.NewReplacer("code: unknown", "code: UNKNOWN", "[tool_gone]", "[TOOL_GONE]").Replace(s)
	}
	base, head := cat("snake", func(s string) string { return s }), cat("upper_snake", upper)
	report := compat.Diff(base, head, compat.Compare(base, head), compat.Go)
	var got []string
	for _, c := range report.Catalogue {
		got = append(got, c.Attr)
	}
	for _, fd := range report.Families {
		for _, c := range fd.Changes {
			got = append(got, fd.Name+" "+c.Attr)
		}
	}
	if want := []string{"code_case"}; !slices.Equal(got, want) {
		t.Errorf("diff of a code_case change lists %q, want %q", got, want)
	}
}

// TestFindingJSONKeys: a finding in JSON (compat --format json, and each
// finding of diff's report) has exactly the keys docs/compat.md lists,
// every one present whatever the finding is about, so a reader can hold
// it to that shape.
func TestFindingJSONKeys(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "compat.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "`--format json` prints one array")
	if !ok {
		t.Fatal("docs/compat.md no longer describes --format json")
	}
	table, _, _ = strings.Cut(table, "\n\n`--format github`")
	var want []string
	for _, m := range regexp.MustCompile("(?m)^\\| (`[a-z]+`(?:, `[a-z]+`)*) \\|").FindAllStringSubmatch(table, -1) {
		for _, k := range strings.Split(m[1], ", ") {
			want = append(want, strings.Trim(k, "`"))
		}
	}
	slices.Sort(want)
	if len(want) < 10 {
		t.Fatalf("found only the keys %v in docs/compat.md", want)
	}
	for _, f := range []compat.Finding{
		{Rule: compat.RetryableChanged, Code: "a", Family: "F", Message: "m"},
		{Rule: compat.AttributeChanged, Code: "a", Family: "F", Attribute: "layer", Message: "m"},
		{Rule: compat.AttributeRemoved, Attribute: "layer", Codes: []string{"a"}, Message: "m"},
	} {
		data, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]any
		if err := json.Unmarshal(data, &obj); err != nil {
			t.Fatal(err)
		}
		var got []string
		for k := range obj {
			got = append(got, k)
		}
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: the keys of %s differ from docs/compat.md's (-docs +json):\n%s", f.Rule, data, diff)
		}
	}
}

// TestDiffJSONProblems: errgen diff --format json on a catalogue or base
// that fails to load prints its problems as one object, {"problems": [...]},
// which no report has a key of, holding the objects compat --format json
// prints for the same pair; the text on standard error and the exit
// status are those of the text format. A usage error prints no JSON.
func TestDiffJSONProblems(t *testing.T) {
	for _, name := range []string{"232-head-has-errors-json", "233-base-has-errors-json"} {
		t.Run(name, func(t *testing.T) {
			ar, err := txtar.ParseFile(filepath.Join("..", "..", "testdata", "compat", name+".txtar"))
			if err != nil {
				t.Fatal(err)
			}
			dir := writePair(t, ar)
			t.Chdir(dir)
			run := func(args ...string) (int, string, string) {
				var stdout, stderr bytes.Buffer
				code := cli.Run(args, &stdout, &stderr)
				return code, stdout.String(), stderr.String()
			}
			_, compatOut, _ := run("compat", "--against", "base.yaml", "--format", "json")
			var want []map[string]any
			if err := json.Unmarshal([]byte(compatOut), &want); err != nil || len(want) == 0 {
				t.Fatalf("compat --format json printed no problems (%v):\n%s", err, compatOut)
			}
			textCode, _, textErr := run("diff", "--against", "base.yaml")
			code, stdout, stderr := run("diff", "--against", "base.yaml", "--format", "json")
			var got map[string][]map[string]any
			if err := json.Unmarshal([]byte(stdout), &got); err != nil {
				t.Fatalf("diff --format json printed no JSON object (%v):\n%s", err, stdout)
			}
			if diff := cmp.Diff(map[string][]map[string]any{"problems": want}, got); diff != "" {
				t.Errorf("diff --format json's problems differ from compat's (-want +got):\n%s", diff)
			}
			if code != 1 || textCode != 1 || stderr != textErr {
				t.Errorf("diff --format json exited %d with on standard error:\n%s\nwant exit 1 and, as the text format prints:\n%s", code, stderr, textErr)
			}
		})
	}
	var stdout, stderr bytes.Buffer
	if code := cli.Run([]string{"diff", "--format", "json"}, &stdout, &stderr); code != cli.ExitUsage || stdout.Len() != 0 {
		t.Errorf("diff --format json without --against exited %d, printing:\n%s", code, stdout.String())
	}
}

// TestDiffEntries: each attribute of a registry entry that changed is one
// change, in the registry's order of keys; an entry that did not change
// is left out.
func TestDiffEntries(t *testing.T) {
	reg := func(src string) []*ast.RegistryEntry {
		t.Helper()
		r, diags := load.LoadRegistry("errgen.registry.yaml", []byte(src))
		if r == nil || diags.HasErrors() {
			t.Fatalf("registry: %v", diags)
		}
		return r.Catalogues
	}
	base := reg(`version: 1
catalogues:
  - {path: a/errors.yaml, owner: team-a, docs: a/ERRORS.md, nums: [[1, 99]]}
  - {path: b/errors.yaml, owner: team-b, nums: [[100, 199]]}
`)
	head := reg(`version: 1
catalogues:
  - {path: ./a/errors.yaml, owner: team-x, docs: a/CODES.md, nums: [[1, 99]]}
  - {path: b/errors.yaml, owner: team-b, nums: [[100, 199]]}
`)
	got := compat.DiffEntries([]compat.EntryPair{{Base: base[0], Head: head[0], Name: "a/errors.yaml"}, {Base: base[1], Head: head[1], Name: "b/errors.yaml"}})
	want := []compat.EntryDiff{{Path: "a/errors.yaml", Status: compat.Changed, Changes: []compat.Change{
		{Attr: "owner", Before: "team-a", After: "team-x", Findings: []compat.Finding{}},
		{Attr: "docs", Before: "a/ERRORS.md", After: "a/CODES.md", Findings: []compat.Finding{}},
	}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("DiffEntries (-want +got):\n%s", diff)
	}
}
