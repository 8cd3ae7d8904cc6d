package load

import (
	"bytes"
	"fmt"
	"testing"
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
