package load

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
	"golang.org/x/tools/txtar"

	"github.com/errgen/errgen/gen/diag"
)

// Columns are converted from the parser's characters to bytes by reading
// each line once, in the order the loader asks, so a line of a hundred
// thousand values costs its length, not its length per value. With the
// conversion restarted at each value, this line would be read about 10^10
// times.
func TestColumnsAreLinear(t *testing.T) {
	var src bytes.Buffer
	src.WriteString("version: 1\npackage: p\ncategories: {c: C.}\nfamilies:\n  - name: F\n    variants:\n      - {name: V, code: v, num: 1, category: c, message: m, http_status: [")
	for i := range 100_000 {
		fmt.Fprintf(&src, "\"é%d\", ", i)
	}
	src.WriteString("\"é\"]}\n")
	_, diags, text := load("errors.yaml", src.Bytes())
	if text == nil {
		t.Fatalf("not loaded: %v", diags)
	}
	// Two passes read positions: the check of every node, then the
	// loader.
	if text.scanned > 4*src.Len() {
		t.Errorf("converting columns stepped over %d characters of a %d-byte file", text.scanned, src.Len())
	}
	// And the columns are right: the last value's, in bytes.
	last := bytes.LastIndex(src.Bytes(), []byte(`"é"]`))
	line := bytes.LastIndexByte(src.Bytes()[:last], '\n')
	if got, want := text.byteCol(7, 1+len([]rune(string(src.Bytes()[line+1:last])))), last-line; got != want {
		t.Errorf("column of the last value = %d, want %d", got, want)
	}
}

// TestPrintableASCIIAlwaysAllowed holds the ASCII fast paths of scanText
// and checkRunes to badRune: every byte they let through is one badRune
// allows wherever it stands, and every byte they send to badRune is one it
// has a rule for or lets through itself.
func TestPrintableASCIIAlwaysAllowed(t *testing.T) {
	neighbours := []rune{utf8.RuneError, 'a', '\u200d', '\u26a0', '\ufe0f', ' '}
	for b := 0; b < 0x80; b++ {
		if !printableASCII(string(rune(b))) {
			continue
		}
		for _, prev := range neighbours {
			for _, next := range neighbours {
				for _, multiline := range []bool{false, true} {
					if why := badRune(rune(b), prev, next, multiline); why != "" {
						t.Errorf("byte %#x skips badRune, which says %q", b, why)
					}
				}
			}
		}
	}
	for _, s := range []string{"\x1f", "\x7f", "\t", "\n", "é", "a\x00b"} {
		if printableASCII(s) {
			t.Errorf("printableASCII(%q) = true", s)
		}
	}
	var l diag.List
	scanText("f.yaml", []byte("code: a\x7fb\n"), &l)
	if len(l) != 1 || l[0].Pos.Col != 8 {
		t.Errorf("scanText of DEL at column 8 = %v", l)
	}
}

// TestTraceValuesOverLines: the position of a byte inside a value is the
// byte of the text it comes from, however the value is written: plain,
// quoted or a block, on one line or several, with escapes, escaped line
// breaks, folds and empty lines. Each case's value holds one @, written
// in the text as @ or as an escape; the locator must give that spot.
func TestTraceValuesOverLines(t *testing.T) {
	for name, src := range map[string]string{
		"plain":                          "v: plain @ text\n",
		"plain over lines":               "v: plain text\n  continued\n   @ here\n",
		"plain after an empty line":      "v: plain\n\n  and @\n",
		"plain, trailing blanks":         "v: plain  \t\n    and @\n",
		"single-quoted":                  "v: 'it''s @'\n",
		"single-quoted over lines":       "v: 'it''s\n   a ''@'' here'\n",
		"double-quoted escapes":          "v: \"caf\\u00e9 \\t \\x40\"\n",
		"double-quoted over lines":       "v: \"one\n    two @\"\n",
		"escaped line break":             "v: \"one \\\n    two \\x40\"\n",
		"escaped break, first":           "v: \"\\\n      x \\u0040 y\"\n",
		"escaped break, empty lines":     "v: \"one\\\n\n   \\\n  @\"\n",
		"blanks before an escaped break": "v: \"one  \\\n  \\u0040\"\n",
		"literal":                        "v: |\n  one\n  two @\n",
		"literal, stripped":              "v: |-\n    one\n\n     @ more\n    two\nw: 1\n",
		"literal, kept":                  "v: |+\n  one @\n\n\nw: 1\n",
		"folded":                         "v: >-\n  folded\n  text @\n",
		"folded, empty lines":            "v: >\n\n  a\n\n  b\n\n    spaced\n  c @\n",
		"folded, comment in header":      "v: >- # a comment\n  one\n  two @\n",
		"CRLF":                           "v: plain\r\n  over @ lines\r\n",
		"in a flow mapping":              "v: {k: plain\n  over @ lines}\n",
		"after wide characters":          "v: \"é€\n  ⚠ \\x40\"\n",
	} {
		t.Run(name, func(t *testing.T) {
			text := newSource([]byte(src))
			node := scalar(t, src)
			at := strings.IndexByte(node.Value, '@')
			if at < 0 || strings.Count(node.Value, "@") != 1 {
				t.Fatalf("the value %q must hold one @", node.Value)
			}
			got := text.locator("f.yaml", node)(at)
			want := marker(src)
			if got.Line != want.line || got.Col != want.col {
				t.Errorf("value %q: @ at %d:%d, want %d:%d", node.Value, got.Line, got.Col, want.line, want.col)
			}
			checkTrace(t, text, node)
		})
	}
}

// TestTraceFallsBackToTheStart: a value whose bytes cannot be placed in
// its text exactly is reported at its start.
func TestTraceFallsBackToTheStart(t *testing.T) {
	for name, src := range map[string]string{
		"indentation indicator": "v: |2\n    one @\n",
		"folded, indicator":     "v: >-1\n  one @\n",
	} {
		t.Run(name, func(t *testing.T) {
			node := scalar(t, src)
			got := newSource([]byte(src)).locator("f.yaml", node)(strings.IndexByte(node.Value, '@'))
			if got.Line != 1 || got.Col != 4 {
				t.Errorf("value %q: @ at %d:%d, want the value's start 1:4", node.Value, got.Line, got.Col)
			}
		})
	}
}

// scalar parses src, a mapping, and returns the scalar value of its key v
// (or of the first key of the mapping v holds).
func scalar(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatal(err)
	}
	n := doc.Content[0].Content[1]
	if n.Kind == yaml.MappingNode {
		n = n.Content[1]
	}
	return n
}

// marker is where the text holds the value's @: the @ itself, or the
// backslash of the escape that stands for it.
func marker(src string) spot {
	at := strings.IndexByte(src, '@')
	for _, esc := range []string{`\x40`, `\u0040`} {
		if i := strings.Index(src, esc); i >= 0 {
			at = i
		}
	}
	line := strings.Count(src[:at], "\n") + 1
	return spot{line, at - (strings.LastIndexByte(src[:at], '\n') + 1) + 1}
}

// checkTrace holds every byte of the value to a spot of the text that can
// stand for it, in order: the same byte, the backslash of an escape, or
// for a space or a line feed a line's end or start.
func checkTrace(t *testing.T, text *source, n *yaml.Node) {
	t.Helper()
	spots := text.trace(n.Line, n.Column, n.Style, n.Value)
	if len(spots) != len(n.Value)+1 {
		t.Fatalf("value %q is not traced: %v", n.Value, spots)
	}
	for k := range len(n.Value) {
		at, b := spots[k], n.Value[k]
		line := text.line(at.line)
		if k > 0 && (at.line < spots[k-1].line || at.line == spots[k-1].line && at.col < spots[k-1].col) {
			t.Errorf("value %q: byte %d at %d:%d, before byte %d", n.Value, k, at.line, at.col, k-1)
		}
		switch {
		case at.col <= len(line) && (line[at.col-1] == b || line[at.col-1] == '\\'):
		case (b == ' ' || b == '\n') && (at.col == 1 || at.col > len(bytes.TrimRight(line, " \t"))):
		default:
			t.Errorf("value %q: byte %d (%q) at %d:%d, which holds %q", n.Value, k, b, at.line, at.col, line[min(at.col-1, len(line)):])
		}
	}
}

// TestTraceEveryValue holds the trace of every scalar of the repository's
// catalogues (the lint cases, the examples, the reference) to checkTrace:
// each byte of each value at a spot of the text that can stand for it.
func TestTraceEveryValue(t *testing.T) {
	var files [][]byte
	cases, _ := filepath.Glob("../../testdata/lint/*.txtar")
	for _, p := range cases {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name == "errors.yaml" {
				files = append(files, f.Data)
			}
		}
	}
	catalogues, _ := filepath.Glob("../../examples/*/errors.yaml")
	for _, p := range append(catalogues, "../../errors.yaml") {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, data)
	}
	if len(files) < 100 {
		t.Fatalf("only %d catalogues found", len(files))
	}
	traced := 0
	for _, src := range files {
		var doc yaml.Node
		if yaml.Unmarshal(src, &doc) != nil {
			continue
		}
		text := newSource(src)
		var walk func(n *yaml.Node)
		walk = func(n *yaml.Node) {
			if n.Kind == yaml.ScalarNode && n.Style&yaml.TaggedStyle == 0 && n.Tag != "!!null" {
				if text.trace(n.Line, n.Column, n.Style, n.Value) != nil {
					checkTrace(t, text, n)
					traced++
				}
			}
			for _, c := range n.Content {
				walk(c)
			}
		}
		walk(&doc)
	}
	if traced < 10_000 {
		t.Errorf("only %d values traced", traced)
	}
}
