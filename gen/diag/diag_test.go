package diag

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestPosQuotesHostileFileNames(t *testing.T) {
	for file, want := range map[string]string{
		"errors.yaml":              "errors.yaml:3:7",
		"api/v1/errors.yaml":       "api/v1/errors.yaml:3:7",
		"my errors (copy).yaml":    "my errors (copy).yaml:3:7",
		"erreurs-é.yaml":           "erreurs-é.yaml:3:7",
		"\x1b[31mred.yaml":         `"\x1b[31mred.yaml":3:7`,
		"a\n::error::forged.yaml":  `"a\n::error::forged.yaml":3:7`,
		"::error::forged.yaml":     `"::error::forged.yaml":3:7`,
		"a\rb.yaml":                `"a\rb.yaml":3:7`,
		"\u202eevil.yaml":          `"\u202eevil.yaml":3:7`,
		"\xffbad.yaml":             `"\xffbad.yaml":3:7`,
		"line\u2028separator.yaml": `"line\u2028separator.yaml":3:7`,
	} {
		if got := (Pos{File: file, Line: 3, Col: 7}).String(); got != want {
			t.Errorf("Pos{%q}.String() = %s, want %s", file, got, want)
		}
	}
	if got := (Pos{File: "\x1b.yaml"}).String(); got != `"\x1b.yaml"` {
		t.Errorf("a whole-file position = %s", got)
	}
}

func TestSortOrdersAndDropsRepeats(t *testing.T) {
	a := Diagnostic{Pos: Pos{File: "a.yaml", Line: 2, Col: 1}, Msg: "second"}
	b := Diagnostic{Pos: Pos{File: "a.yaml", Line: 1, Col: 9}, Msg: "first"}
	c := Diagnostic{Pos: Pos{File: "a.yaml", Line: 1, Col: 9}, Msg: "first, another"}
	w := Diagnostic{Pos: Pos{File: "a.yaml", Line: 2, Col: 1}, Severity: Warning, Msg: "second"}
	got := List{a, b, a, c, b, w}.Sort()
	want := List{b, c, a, w}
	if len(got) != len(want) {
		t.Fatalf("Sort = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("Sort()[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}

// A list keeps MaxProblems diagnostics and counts the rest in one more,
// which is an error as soon as one dropped problem is; joined lists sort
// into one count, after the kept diagnostics of the file.
func TestListIsCapped(t *testing.T) {
	var l List
	for i := range MaxProblems + 3 {
		l.Warnf(Pos{File: "a.yaml", Line: i + 2, Col: 1}, "warning %d", i)
	}
	if len(l) != MaxProblems+1 || l.Dropped() != 3 || l.HasErrors() {
		t.Fatalf("after %d warnings: %d kept, %d dropped, errors %v", MaxProblems+3, len(l), l.Dropped(), l.HasErrors())
	}
	l.Errorf(Pos{File: "a.yaml", Line: 9, Col: 9}, "an error")
	if l.Dropped() != 4 || !l.HasErrors() {
		t.Fatalf("a dropped error: %d dropped, errors %v", l.Dropped(), l.HasErrors())
	}
	want := "a.yaml:1:1: 4 more problems not reported; fix the ones reported first"
	if got := l[len(l)-1].String(); got != want {
		t.Errorf("count = %q, want %q", got, want)
	}
	var other List
	for range MaxProblems + 2 {
		other.Warnf(Pos{File: "a.yaml", Line: 1, Col: 1}, "again")
	}
	joined := append(l, other...).Sort()
	if n := joined.Dropped(); n != 6 {
		t.Errorf("joined lists drop %d, want 6", n)
	}
	last := joined[len(joined)-1]
	if last.Dropped != 6 || last.Severity != Error {
		t.Errorf("last of the joined list = %+v, want the one count of 6, an error", last)
	}
	if joined[len(joined)-2].Dropped != 0 {
		t.Errorf("two counts in the joined list")
	}
}

// InertJSON escapes what a terminal or a runner would act on, and the JSON
// still decodes to exactly the same text.
func TestInertJSON(t *testing.T) {
	for _, s := range []string{"plain", "é and ⚠", "\u202eevil", "zero\u200bwidth", "\U000e0049tag", "##[error]x", "a\u2028b", "#[ok] ## [ok]"} {
		raw, err := json.Marshal(map[string]string{"k": s})
		if err != nil {
			t.Fatal(err)
		}
		got := InertJSON(raw)
		var back map[string]string
		if err := json.Unmarshal(got, &back); err != nil || back["k"] != s {
			t.Errorf("InertJSON(%s) = %s, decodes to %q (%v)", raw, got, back["k"], err)
		}
		if strings.Contains(string(got), "##[") || strings.ContainsFunc(string(got), Invisible) {
			t.Errorf("InertJSON(%s) = %s, not inert", raw, got)
		}
		if isPlainLine(s) && !bytes.Equal(got, raw) {
			t.Errorf("plain %q changed: %s", s, got)
		}
	}
}
