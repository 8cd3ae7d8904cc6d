package docs_test

import (
	"strings"
	"testing"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/docs"
)

// tableCatalogue puts pipes and backslashes, escaped ones included, into
// every text of the catalogue that reaches a cell of the reference's
// tables: a category's description, an attribute's default and doc, a
// message, a field's doc.
const tableCatalogue = `version: 1
package: toolerr
user_message: The tool failed ({code}).
categories:
  timeout: 'ran \| past | its \\| limit\'
attributes:
  - {name: layer, type: string, default: 'a \| b | c \\| d', doc: 'which \| layer | here'}
families:
  - name: ToolError
    variants:
      - name: ToolTimeout
        code: tool_timeout
        num: 1004
        category: timeout
        message: 'timeout \| after | {seconds}s \\| end\'
        fields:
          - {name: seconds, type: uint64, doc: 'a \| doc | here\'}
`

// TestTablesKeepTheirColumns: no catalogue text splits a cell of the
// reference's tables, and each cell reads as the catalogue's text. Rows
// are split as GitHub's cmark-gfm and goldmark split them: at a pipe that
// no backslash stands before; a backslash before a pipe is then removed,
// before the cell's inlines are read. A code span must therefore hold the
// pipe as \| (a backslash of the text before it stays), and text escapes
// every backslash and pipe.
func TestTablesKeepTheirColumns(t *testing.T) {
	m, diags := gen.Parse("errors.yaml", []byte(tableCatalogue))
	if m == nil {
		t.Fatalf("the catalogue does not resolve: %v", diags)
	}
	out, err := docs.Render(m)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"Category":  {"timeout", `ran \| past | its \\| limit\`},
		"Attribute": {"layer", "string", `a \| b | c \\| d`, `which \| layer | here`},
		"Code":      {"[`tool_timeout`](#tool_timeout)", "1004", "timeout", "no", "no", `timeout \| after | {seconds}s \\| end\`},
		"Field":     {"seconds", "uint64", "no", `a \| doc | here\`},
	}
	lines := strings.Split(string(out), "\n")
	for i := 0; i+2 < len(lines); i++ {
		if !strings.HasPrefix(lines[i+1], "|---") {
			continue
		}
		head := cells(lines[i])
		rows, ok := want[head[0]]
		if !ok {
			t.Errorf("a table the test does not know: %s", lines[i])
			continue
		}
		delete(want, head[0])
		row := cells(lines[i+2])
		if len(row) != len(head) {
			t.Errorf("table %s: row %q has %d cells, its header %d", head[0], lines[i+2], len(row), len(head))
			continue
		}
		for j, c := range row {
			if got := readCell(c); got != rows[j] {
				t.Errorf("table %s, column %s: the cell %q reads %q, want %q", head[0], head[j], c, got, rows[j])
			}
		}
	}
	for head := range want {
		t.Errorf("no table %s in the reference:\n%s", head, out)
	}
}

// cells splits a table row into its cells' text as a GFM table parser
// does: at every pipe no backslash stands before, without the outer pipes;
// then \| becomes |.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	row = strings.TrimPrefix(row, "|")
	if strings.HasSuffix(row, "|") && !strings.HasSuffix(row, `\|`) {
		row = row[:len(row)-1]
	}
	var out []string
	start := 0
	for i := 0; i < len(row); i++ {
		if row[i] == '|' && (i == 0 || row[i-1] != '\\') {
			out = append(out, row[start:i])
			start = i + 1
		}
	}
	out = append(out, row[start:])
	for i, c := range out {
		out[i] = strings.ReplaceAll(strings.TrimSpace(c), `\|`, "|")
	}
	return out
}

// readCell is the text a cell shows, for the shapes the reference writes:
// a whole code span shows what it holds, as it is; other text drops the
// backslash of each backslash escape. Links and spans inside text are
// left as they are.
func readCell(c string) string {
	if n := len(c) - len(strings.TrimLeft(c, "`")); n > 0 && strings.HasSuffix(c, c[:n]) && len(c) > 2*n && !strings.Contains(c[n:len(c)-n], c[:n]) {
		s := c[n : len(c)-n]
		if len(s) > 2 && s[0] == ' ' && s[len(s)-1] == ' ' {
			s = s[1 : len(s)-1]
		}
		return s
	}
	var b strings.Builder
	for i := 0; i < len(c); i++ {
		if c[i] == '\\' && i+1 < len(c) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c[i+1]) >= 0 {
			i++
		}
		b.WriteByte(c[i])
	}
	return b.String()
}
