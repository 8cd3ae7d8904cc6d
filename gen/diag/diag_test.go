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

func TestSortDropsEchoesOfFilesWithErrors(t *testing.T) {
	var l List
	l.Echof("b.yaml", Pos{File: "a.yaml", Line: 3, Col: 1}, "the catalogue b.yaml imports has errors")
	l.Echof("c.yaml", Pos{File: "a.yaml", Line: 4, Col: 1}, "the catalogue c.yaml imports has errors")
	l.Warnf(Pos{File: "c.yaml", Line: 1, Col: 1}, "a warning of c.yaml")
	l.Errorf(Pos{File: "b.yaml", Line: 9, Col: 2}, "what is wrong in b.yaml")
	got := l.Sort()
	var lines []string
	for _, d := range got {
		lines = append(lines, d.String())
	}
	want := "a.yaml:4:1: the catalogue c.yaml imports has errors\n" +
		"b.yaml:9:2: what is wrong in b.yaml\n" +
		"c.yaml:1:1: warning: a warning of c.yaml"
	if strings.Join(lines, "\n") != want {
		t.Errorf("Sort kept:\n%s\nwant (b.yaml's own error and the echo of c.yaml, which has only a warning):\n%s", strings.Join(lines, "\n"), want)
	}
	if alone := (List{l[0]}).Sort(); len(alone) != 1 {
		t.Errorf("an echo without the errors it repeats was dropped")
	}
	var chain List
	chain.Echof("b.yaml", Pos{File: "a.yaml", Line: 1, Col: 1}, "b has errors")
	chain.Echof("c.yaml", Pos{File: "b.yaml", Line: 1, Col: 1}, "c has errors")
	chain.Errorf(Pos{File: "c.yaml", Line: 1, Col: 1}, "what is wrong in c.yaml")
	if got := chain.Sort(); len(got) != 1 || got[0].Pos.File != "c.yaml" {
		t.Errorf("a chain of echoes kept %v, want only c.yaml's error", got)
	}
}
