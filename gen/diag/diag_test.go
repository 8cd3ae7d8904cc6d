package diag

import "testing"

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
