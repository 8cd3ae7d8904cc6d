package load

import (
	"bytes"
	"fmt"
	"testing"
	"unicode/utf8"

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
