package diag

import (
	"strings"
	"testing"
)

func TestQuoteHidesWorkflowCommands(t *testing.T) {
	for in, want := range map[string]string{
		"plain":           `"plain"`,
		"##[error]forged": `"#\x23[error]forged"`,
		"a ##[group]b":    `"a #\x23[group]b"`,
		"::error::x":      `"::error::x"`, // starts with a quote: not a command
		"tag\U000E0041x":  `"tag\U000e0041x"`,
		"zero\u200bwidth": `"zero\u200bwidth"`,
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestPathQuotesOnlyWhatCouldAct(t *testing.T) {
	for in, want := range map[string]string{
		"errors.yaml":          "errors.yaml",
		"dir with space/e.yml": "dir with space/e.yml",
		" ::error::x.yaml":     `" ::error::x.yaml"`,
		"a##[error]b.yaml":     `"a#\x23[error]b.yaml"`,
		"soft\u00adhyphen":     `"soft\u00adhyphen"`,
	} {
		if got := Path(in); got != want {
			t.Errorf("Path(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestInert(t *testing.T) {
	for in, want := range map[string]string{
		"\tfunc F() {}":              "\tfunc F() {}",
		"x := \"é\"":                 "x := \"é\"",
		"\x1b[31mred":                `\x1b[31mred`,
		"a\rb":                       `a\x0db`,
		"::error::forged":            `:\x3aerror::forged`,
		"  ::warning::forged":        `  :\x3awarning::forged`,
		"text ##[error]forged":       `text #\x23[error]forged`,
		"bad \xff byte":              `bad \xff byte`,
		"\u202eevil":                 `\u202eevil`,
		"hidden\U000E0069\U000E0067": `hidden\U000e0069\U000e0067`,
	} {
		got := Inert(in)
		if got != want {
			t.Errorf("Inert(%q) = %q, want %q", in, got, want)
		}
		if strings.HasPrefix(strings.TrimLeft(got, " \t"), "::") || strings.Contains(got, "##[") {
			t.Errorf("Inert(%q) = %q still holds a command", in, got)
		}
	}
}

func TestInvisible(t *testing.T) {
	for _, r := range []rune{0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF, 0x00AD, 0xE0001, 0xE0041, 0xE007F, 0x202E, 0x2066, 0x180E, 0xFE0F} {
		if !Invisible(r) {
			t.Errorf("Invisible(%U) = false", r)
		}
	}
	for _, r := range []rune{'a', ' ', 'é', '世', 0x1F600, 0x2028} {
		if Invisible(r) {
			t.Errorf("Invisible(%U) = true", r)
		}
	}
}
