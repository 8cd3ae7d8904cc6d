package compat_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/compat"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/model"
)

func TestRulesTable(t *testing.T) {
	idRE := regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
	seen := map[string]bool{}
	last := compat.Wire
	for _, r := range compat.Rules {
		if !idRE.MatchString(r.ID) {
			t.Errorf("rule ID %q is not a waivable rule ID", r.ID)
		}
		if seen[r.ID] {
			t.Errorf("rule %s is listed twice", r.ID)
		}
		seen[r.ID] = true
		if r.Tier < last || r.Tier > compat.Go {
			t.Errorf("rule %s: tier %v out of order", r.ID, r.Tier)
		}
		last = r.Tier
		if !strings.HasSuffix(r.Doc, ".") || strings.Contains(r.Doc, "\n") {
			t.Errorf("rule %s: the doc must be one sentence on one line", r.ID)
		}
		if got, ok := compat.LookupRule(r.ID); !ok || got != r {
			t.Errorf("LookupRule(%s) = %v, %v", r.ID, got, ok)
		}
	}
	for _, name := range compat.TierNames() {
		if tier, ok := compat.ParseTier(name); !ok || tier.String() != name {
			t.Errorf("ParseTier(%q) = %v, %v", name, tier, ok)
		}
	}
	if _, ok := compat.ParseTier("wires"); ok {
		t.Error("ParseTier accepted an unknown tier")
	}
}

// rulesMarkdown is the rule table of docs/compat.md.
func rulesMarkdown() string {
	var b strings.Builder
	b.WriteString("| Rule | Tier | Reports |\n|---|---|---|\n")
	for _, r := range compat.Rules {
		tier := r.Tier.String()
		if r.Severity == compat.Note {
			tier += " (note)"
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", r.ID, tier, r.Doc)
	}
	return b.String()
}

// TestRulesDocumented keeps the rule table of docs/compat.md in step with
// compat.Rules; -update rewrites it.
func TestRulesDocumented(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "compat.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- rules:begin -->\n", "<!-- rules:end -->"
	doc := string(data)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q section", path, begin, end)
	}
	got, want := doc[i+len(begin):j], rulesMarkdown()
	if *update {
		if got != want {
			if err := os.WriteFile(path, []byte(doc[:i+len(begin)]+want+doc[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("the rule table of docs/compat.md is stale (-want +got); run go test ./gen/compat -update:\n%s", diff)
	}
}

func parse(t *testing.T, name, src string) *model.Catalogue {
	t.Helper()
	m, diags := gen.Parse(name, []byte(src))
	if m == nil {
		t.Fatalf("%s: %v", name, diags)
	}
	return m
}

const small = `version: 1
package: toolerr
categories:
  input: The caller sent something wrong.
families:
  - name: ToolError
    doc: Errors a tool returns to the agent.
    payload_type: tool_error
    variants:
      - name: NotFound
        code: not_found
        num: 1
        category: input
        message: "file {path} not found"
        fields:
          - name: path
            type: string
            payload: true
      - name: Denied
        code: denied
        num: 2
        category: input
        message: "denied"
`

func TestCompareIdentical(t *testing.T) {
	m := parse(t, "errors.yaml", small)
	if got := compat.Compare(m, m); len(got) != 0 {
		t.Errorf("a catalogue compared with itself: %v", got)
	}
}

// TestCompareSwap swaps two nums: each variant is renumbered and each num
// reassigned, reported in head order and deterministically.
func TestCompareSwap(t *testing.T) {
	base := parse(t, "base.yaml", small)
	headSrc := strings.Replace(strings.Replace(small, "num: 1\n", "num: X\n", 1), "num: 2\n", "num: 1\n", 1)
	head := parse(t, "errors.yaml", strings.Replace(headSrc, "num: X\n", "num: 2\n", 1))
	first := compat.Compare(base, head)
	var got []string
	for _, f := range first {
		got = append(got, fmt.Sprintf("%s %s %s %s", f.Pos, f.Rule, f.Code, f.BasePos))
	}
	// Each at the key that changed, the num: line of the code that took
	// the num, against the num: line that held it in base.
	want := []string{
		"errors.yaml:12:9 CODE_RENUMBERED not_found base.yaml:12:9",
		"errors.yaml:12:9 NUM_REASSIGNED not_found base.yaml:21:9",
		"errors.yaml:21:9 CODE_RENUMBERED denied base.yaml:21:9",
		"errors.yaml:21:9 NUM_REASSIGNED denied base.yaml:12:9",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
	for range 10 {
		if diff := cmp.Diff(first, compat.Compare(base, head)); diff != "" {
			t.Fatalf("Compare is not deterministic:\n%s", diff)
		}
	}
}

// TestFamilyGone reports a removal whose family is gone too at head's
// families: key, the list the family left.
func TestFamilyGone(t *testing.T) {
	base := parse(t, "base.yaml", small+`  - name: TurnError
    doc: Errors that end a turn.
    variants:
      - name: Interrupted
        code: interrupted
        num: 3
        category: input
        message: "interrupted"
`)
	head := parse(t, "errors.yaml", small)
	got := compat.Compare(base, head)
	if len(got) != 1 || got[0].Rule != compat.VariantRemovedUnreserved || got[0].Pos != (diag.Pos{File: "errors.yaml", Line: 5, Col: 1}) {
		t.Errorf("got %+v", got)
	}
	if !strings.Contains(got[0].Message, "under reserved of a family") {
		t.Errorf("message %q", got[0].Message)
	}
}

func TestWaive(t *testing.T) {
	findings := []compat.Finding{
		{Rule: compat.RetryableChanged, Tier: compat.Semantics, Severity: compat.Break, Code: "a"},
		{Rule: compat.RetryableChanged, Tier: compat.Semantics, Severity: compat.Break, Code: "b"},
		{Rule: compat.MessageReworded, Tier: compat.Semantics, Severity: compat.Note, Code: "a"},
		{Rule: compat.PayloadTypeChanged, Tier: compat.Wire, Severity: compat.Break, Family: "FsError", Codes: []string{"d", "e"}},
	}
	at := func(line int) diag.Pos { return diag.Pos{File: "errors.yaml", Line: line, Col: 5} }
	waivers := []model.Waiver{
		{Rule: compat.RetryableChanged, Code: "a", Reason: "deliberate", Pos: at(1)},
		{Rule: "RETRYABLE", Code: "b", Reason: "typo", Pos: at(2)},
		{Rule: compat.GoNameChanged, Code: "c", Reason: "above the tier", Pos: at(3)},
		{Rule: compat.CodeRenumbered, Code: "c", Reason: "unused", Pos: at(4)},
		// A break of a whole family is waived by naming the family.
		{Rule: compat.PayloadTypeChanged, Code: "e", Reason: "names a code", Pos: at(5)},
	}
	got, diags := compat.Waive(findings, waivers, compat.Semantics)
	if got[0].Waiver == nil || got[0].Waiver.Reason != "deliberate" || got[0].Fails() {
		t.Errorf("the break of a is not waived: %+v", got[0])
	}
	if got[1].Waiver != nil || !got[1].Fails() {
		t.Errorf("the break of b is waived: %+v", got[1])
	}
	if got[2].Waiver != nil || got[2].Fails() {
		t.Errorf("a note: %+v", got[2])
	}
	if findings[0].Waiver != nil {
		t.Error("Waive changed its argument")
	}
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.String())
	}
	// An unknown rule is lint's to report (CheckWaivers).
	want := []string{
		`errors.yaml:4:5: warning: compat waiver for CODE_RENUMBERED on "c" matches no breaking change against the base; remove it once the change has reached the base`,
		`errors.yaml:5:5: warning: compat waiver for PAYLOAD_TYPE_CHANGED on "e" matches no breaking change against the base: the PAYLOAD_TYPE_CHANGED break is of family "FsError" as a whole; waive it with family: FsError instead of the code`,
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("waiver problems (-want +got):\n%s", diff)
	}
}

// TestWaiveCodeOfAWaivedFamily: a waiver naming a code of a family-wide
// break that a waiver of the family accepts, before or after it, is only
// not needed; it is not told to name the family, which is named already.
func TestWaiveCodeOfAWaivedFamily(t *testing.T) {
	findings := []compat.Finding{
		{Rule: compat.PayloadTypeChanged, Tier: compat.Wire, Severity: compat.Break, Family: "FsError", Codes: []string{"d", "e"}},
	}
	at := func(line int) diag.Pos { return diag.Pos{File: "errors.yaml", Line: line, Col: 5} }
	code := model.Waiver{Rule: compat.PayloadTypeChanged, Code: "e", Reason: "names a code", Pos: at(1)}
	family := model.Waiver{Rule: compat.PayloadTypeChanged, Family: "FsError", Reason: "the family", Pos: at(2)}
	const want = `errors.yaml:1:5: warning: compat waiver for PAYLOAD_TYPE_CHANGED on "e" matches no breaking change against the base; remove it once the change has reached the base`
	for _, waivers := range [][]model.Waiver{{code, family}, {family, code}} {
		got, diags := compat.Waive(findings, waivers, compat.Semantics)
		if got[0].Waiver == nil || got[0].Waiver.Family != "FsError" || got[0].Fails() {
			t.Errorf("the family's break is not waived by the family: %+v", got[0])
		}
		var msgs []string
		for _, d := range diags {
			msgs = append(msgs, d.String())
		}
		if diff := cmp.Diff([]string{want}, msgs); diff != "" {
			t.Errorf("waiver problems (-want +got):\n%s", diff)
		}
	}
}

func TestFilter(t *testing.T) {
	var findings []compat.Finding
	for _, r := range compat.Rules {
		findings = append(findings, compat.Finding{Rule: r.ID, Tier: r.Tier, Severity: r.Severity})
	}
	for _, tier := range []compat.Tier{compat.Wire, compat.JSON, compat.Semantics, compat.Go} {
		for _, f := range compat.Filter(findings, tier) {
			if f.Tier > tier {
				t.Errorf("tier %v kept %s of tier %v", tier, f.Rule, f.Tier)
			}
		}
	}
	if got := len(compat.Filter(findings, compat.Go)); got != len(compat.Rules) {
		t.Errorf("tier go kept %d of %d", got, len(compat.Rules))
	}
}

// rules returns the rule of each finding, by code; a finding about a
// whole family counts for each code it lists, as "RULE (family)".
func rules(findings []compat.Finding) map[string][]string {
	out := map[string][]string{}
	for _, f := range findings {
		if f.Code == "" && len(f.Codes) > 0 {
			for _, c := range f.Codes {
				out[c] = append(out[c], f.Rule+" (family)")
			}
			continue
		}
		out[f.Code] = append(out[f.Code], f.Rule)
	}
	return out
}

// families is a catalogue of two families, A (a1, a2) and B (b1), with the
// family lines replaceable.
const families = `version: 1
package: fam
categories:
  c: A category.
families:
  - name: A
    variants:
      - {name: A1, code: a1, num: 1, category: c, message: "a1"}
      - {name: A2, code: a2, num: 2, category: c, message: "a2"}
  - name: B
    variants:
      - {name: B1, code: b1, num: 3, category: c, message: "b1"}
`

// TestComparePayloadTypeAdded: a family that starts to send a payload
// breaks nobody; one that stops, or changes its type, does.
func TestComparePayloadTypeAdded(t *testing.T) {
	base := parse(t, "base.yaml", families)
	added := parse(t, "errors.yaml", strings.Replace(families, "  - name: A\n", "  - name: A\n    payload_type: a_error\n", 1))
	if got := compat.Compare(base, added); len(got) != 0 {
		t.Errorf("adding a payload_type: %v", got)
	}
	// One finding, at the family, for both its variants.
	got := compat.Compare(added, base)
	if want := map[string][]string{"a1": {compat.PayloadTypeChanged + " (family)"}, "a2": {compat.PayloadTypeChanged + " (family)"}}; len(got) != 1 || !cmp.Equal(rules(got), want) {
		t.Errorf("removing a payload_type: %v", rules(got))
	}
}

// TestCompareFamilyRename: a family is renamed only when a new family holds
// exactly what is left of it; variants that move anywhere else moved
// family.
func TestCompareFamilyRename(t *testing.T) {
	base := parse(t, "base.yaml", families)
	for _, tc := range []struct {
		name, head string
		want       map[string][]string
	}{
		{"renamed", strings.Replace(families, "name: A\n", "name: C\n", 1),
			// One finding at the family for both its variants.
			map[string][]string{"a1": {compat.GoNameChanged + " (family)"}, "a2": {compat.GoNameChanged + " (family)"}}},
		{"moved into a family of the base", `version: 1
package: fam
categories:
  c: A category.
families:
  - name: A
    variants:
      - {name: A3, code: a3, num: 4, category: c, message: "a3"}
  - name: B
    variants:
      - {name: A1, code: a1, num: 1, category: c, message: "a1"}
      - {name: A2, code: a2, num: 2, category: c, message: "a2"}
      - {name: B1, code: b1, num: 3, category: c, message: "b1"}
`,
			// A keeps only a new variant; a1 and a2 are B's now.
			map[string][]string{"a1": {compat.FamilyChanged}, "a2": {compat.FamilyChanged}}},
		{"its family gone, moved into a family of the base", `version: 1
package: fam
categories:
  c: A category.
families:
  - name: B
    variants:
      - {name: A1, code: a1, num: 1, category: c, message: "a1"}
      - {name: A2, code: a2, num: 2, category: c, message: "a2"}
      - {name: B1, code: b1, num: 3, category: c, message: "b1"}
`,
			// B was in the base: A was not renamed to B.
			map[string][]string{"a1": {compat.FamilyChanged}, "a2": {compat.FamilyChanged}}},
		{"its family gone, moved into an emptied family of the base", `version: 1
package: fam
categories:
  c: A category.
families:
  - name: B
    reserved: {nums: [3], codes: [b1]}
    variants:
      - {name: A1, code: a1, num: 1, category: c, message: "a1"}
      - {name: A2, code: a2, num: 2, category: c, message: "a2"}
`,
			// B holds exactly what is left of A, but B is B: A was not
			// renamed to it.
			map[string][]string{"a1": {compat.FamilyChanged}, "a2": {compat.FamilyChanged}}},
		{"a new family with more than A held", strings.Replace(strings.Replace(families,
			"  - name: B\n    variants:\n", "", 1), "name: A\n", "name: C\n", 1),
			// C holds A's variants and B's: neither family was renamed.
			map[string][]string{"a1": {compat.FamilyChanged}, "a2": {compat.FamilyChanged}, "b1": {compat.FamilyChanged}}},
		{"split in two", strings.Replace(families,
			"      - {name: A2,", "  - name: D\n    variants:\n      - {name: A2,", 1),
			// A keeps a1; a2 moved to the new D.
			map[string][]string{"a2": {compat.FamilyChanged}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			head := parse(t, "errors.yaml", tc.head)
			if got := rules(compat.Compare(base, head)); !cmp.Equal(got, tc.want) {
				t.Errorf("findings %v, want %v", got, tc.want)
			}
		})
	}
}

// TestDiffFamilyFinding: diff shows the one finding of a family rename
// beside the family's name change, not once per variant.
func TestDiffFamilyFinding(t *testing.T) {
	base := parse(t, "base.yaml", families)
	head := parse(t, "errors.yaml", strings.Replace(families, "name: A\n", "name: C\n", 1))
	findings := compat.Compare(base, head)
	r := compat.Diff(base, head, findings, compat.Go)
	var c *compat.FamilyDiff
	for _, fd := range r.Families {
		if fd.Name == "C" {
			c = fd
		}
	}
	if c == nil {
		t.Fatalf("no family C in the report: %+v", r.Families)
	}
	if len(c.Changes) == 0 || c.Changes[0].Attr != "name" || len(c.Changes[0].Findings) != 1 || c.Changes[0].Findings[0].Rule != compat.GoNameChanged {
		t.Errorf("the rename's finding is not on the family's name change: %+v", c.Changes)
	}
	if len(c.Variants) != 0 || len(r.Other) != 0 || r.Breaking != 1 {
		t.Errorf("variants %+v, other %+v, breaking %d; want the family's one finding only", c.Variants, r.Other, r.Breaking)
	}
}

// TestDiffFamilyGRPCCodeFollowsProjection: a family's gRPC code is shown
// only where the catalogue selects the grpc projection; one that drops it
// leaves the family with none, not the default code.
func TestDiffFamilyGRPCCodeFollowsProjection(t *testing.T) {
	const withGRPC = `version: 1
package: p
projections: [grpc]
grpc: {domain: p.example.com}
categories: {other: Anything.}
families:
  - name: A
    grpc_code: NOT_FOUND
    variants:
      - {name: A1, code: a1, num: 1, category: other, message: a1}
`
	without := strings.NewReplacer("projections: [grpc]\n", "", "grpc: {domain: p.example.com}\n", "", "    grpc_code: NOT_FOUND\n", "").Replace(withGRPC)
	for _, tc := range []struct {
		name, base, head string
		want             []compat.Change
	}{
		{"dropped", withGRPC, without, []compat.Change{{Attr: "grpc_code", Before: "NOT_FOUND"}}},
		{"selected", without, withGRPC, []compat.Change{{Attr: "grpc_code", After: "NOT_FOUND"}}},
		{"default selected", without, strings.Replace(withGRPC, "    grpc_code: NOT_FOUND\n", "", 1),
			[]compat.Change{{Attr: "grpc_code", After: "UNKNOWN"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base, head := parse(t, "base.yaml", tc.base), parse(t, "errors.yaml", tc.head)
			r := compat.Diff(base, head, compat.Compare(base, head), compat.Go)
			var got []compat.Change
			for _, fd := range r.Families {
				got = append(got, fd.Changes...)
			}
			if !cmp.Equal(got, tc.want, cmpopts.EquateEmpty()) {
				t.Errorf("family changes %+v, want %+v", got, tc.want)
			}
		})
	}
}
