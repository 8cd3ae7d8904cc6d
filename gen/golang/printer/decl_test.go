package printer_test

import (
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/golang/printer"
)

// declTest is a table case: what to build and the declarations gofmt has
// for it. Each want is checked three ways: the printer writes it, gofmt
// leaves it as it is, and gofmt makes it again from the same text with
// every run of blanks in the code collapsed to one (so the columns are
// gofmt's own, not just a layout it keeps).
type declTest struct {
	name  string
	build func(f *printer.File)
	want  string
}

func runDecls(t *testing.T, tests []declTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diff(t, tt.want, decls(t, tt.build))
			diff(t, "package p\n\n"+tt.want, gofmt(t, collapse("package p\n\n"+tt.want)))
		})
	}
}

func structOf(fields ...printer.Field) func(f *printer.File) {
	return func(f *printer.File) { f.Struct("T", fields) }
}

// TestStruct pins the alignment of struct fields (go/printer's fieldList).
func TestStruct(t *testing.T) {
	runDecls(t, []declTest{{
		name:  "empty",
		build: structOf(),
		want:  "type T struct{}\n",
	}, {
		name:  "one field: no alignment, single blanks",
		build: structOf(printer.Field{Name: "A", Type: "int", Tag: `json:"a"`}),
		want:  "type T struct {\n\tA int `json:\"a\"`\n}\n",
	}, {
		name:  "one embedded field with a tag",
		build: structOf(printer.Field{Type: "io.Reader", Tag: `json:"r"`}),
		want:  "type T struct {\n\tio.Reader `json:\"r\"`\n}\n",
	}, {
		name: "names and types",
		build: structOf(
			printer.Field{Name: "A", Type: "int"},
			printer.Field{Name: "Bbbb", Type: "string"},
			printer.Field{Name: "C, D", Type: "bool"},
		),
		want: `type T struct {
	A    int
	Bbbb string
	C, D bool
}
`,
	}, {
		name: "tags",
		build: structOf(
			printer.Field{Name: "Tool", Type: "string", Tag: `json:"tool,omitempty"`},
			printer.Field{Name: "Seconds", Type: "uint64", Tag: `json:"seconds"`},
		),
		want: "type T struct {\n" +
			"\tTool    string `json:\"tool,omitempty\"`\n" +
			"\tSeconds uint64 `json:\"seconds\"`\n" +
			"}\n",
	}, {
		name: "a field without a tag splits the tag column",
		build: structOf(
			printer.Field{Name: "A", Type: "int", Tag: `json:"a"`},
			printer.Field{Name: "Bbbb", Type: "string"},
			printer.Field{Name: "C", Type: "int", Tag: `json:"c"`},
			printer.Field{Name: "Dd", Type: "bool", Tag: `json:"d"`},
		),
		want: "type T struct {\n" +
			"\tA    int `json:\"a\"`\n" +
			"\tBbbb string\n" +
			"\tC    int  `json:\"c\"`\n" +
			"\tDd   bool `json:\"d\"`\n" +
			"}\n",
	}, {
		name: "a one-line comment starts a new section",
		build: structOf(
			printer.Field{Name: "A", Type: "int"},
			printer.Field{Name: "Bbbb", Type: "string"},
			printer.Field{Doc: []string{"C is documented."}, Name: "C", Type: "int"},
			printer.Field{Name: "Dd", Type: "bool"},
		),
		want: `type T struct {
	A    int
	Bbbb string
	// C is documented.
	C  int
	Dd bool
}
`,
	}, {
		name: "multi-line comments, tags",
		build: structOf(
			printer.Field{Name: "A", Type: "int", Tag: `json:"a"`},
			printer.Field{Name: "Bbbb", Type: "string", Tag: `json:"b"`},
			printer.Field{Doc: []string{"C is documented", "", "at length."}, Name: "C", Type: "int", Tag: `json:"c"`},
			printer.Field{Doc: []string{"Dd too."}, Name: "Dd", Type: "bool", Tag: `json:"d"`},
			printer.Field{Name: "Eeeeee", Type: "map[string]int", Tag: `json:"e"`},
		),
		want: "type T struct {\n" +
			"\tA    int    `json:\"a\"`\n" +
			"\tBbbb string `json:\"b\"`\n" +
			"\t// C is documented\n" +
			"\t//\n" +
			"\t// at length.\n" +
			"\tC int `json:\"c\"`\n" +
			"\t// Dd too.\n" +
			"\tDd     bool           `json:\"d\"`\n" +
			"\tEeeeee map[string]int `json:\"e\"`\n" +
			"}\n",
	}, {
		name: "an embedded field's tag stands in the type column",
		build: structOf(
			printer.Field{Name: "A", Type: "int", Tag: `json:"a"`},
			printer.Field{Type: "Emb", Tag: `json:"e"`},
			printer.Field{Name: "Ccccc", Type: "int", Tag: `json:"c"`},
		),
		want: "type T struct {\n" +
			"\tA     int `json:\"a\"`\n" +
			"\tEmb   `json:\"e\"`\n" +
			"\tCcccc int `json:\"c\"`\n" +
			"}\n",
	}, {
		name: "an embedded field without a tag splits the name column",
		build: structOf(
			printer.Field{Name: "Aaaaaa", Type: "int"},
			printer.Field{Type: "Emb"},
			printer.Field{Name: "B", Type: "int"},
			printer.Field{Name: "Ccc", Type: "int"},
		),
		want: `type T struct {
	Aaaaaa int
	Emb
	B   int
	Ccc int
}
`,
	}, {
		name: "widths are runes",
		build: structOf(
			printer.Field{Name: "Ünï", Type: "Tÿpé", Tag: `json:"ü"`},
			printer.Field{Name: "Abcdef", Type: "int", Tag: `json:"a"`},
		),
		want: "type T struct {\n" +
			"\tÜnï    Tÿpé `json:\"ü\"`\n" +
			"\tAbcdef int  `json:\"a\"`\n" +
			"}\n",
	}, {
		name: "a tag that cannot be a raw string is quoted",
		build: structOf(
			printer.Field{Name: "A", Type: "int", Tag: "x:\"`\""},
			printer.Field{Name: "B", Type: "int", Tag: "x:\"\r\""},
		),
		want: "type T struct {\n" +
			"\tA int \"x:\\\"`\\\"\"\n" +
			"\tB int \"x:\\\"\\r\\\"\"\n" +
			"}\n",
	}})
}

// TestInterface pins the layout of interfaces: members one tab in, not
// aligned, comments line for line.
func TestInterface(t *testing.T) {
	runDecls(t, []declTest{{
		name:  "empty",
		build: func(f *printer.File) { f.Interface("I", nil) },
		want:  "type I interface{}\n",
	}, {
		name: "members",
		build: func(f *printer.File) {
			f.Doc("ToolError is an error of a tool.")
			f.Interface("ToolError", []printer.Member{
				{Doc: []string{"Code returns the code.", "", "  It is stable."}, Text: "Code() Code"},
				{Text: "error"},
				{Text: "isToolError()"},
			})
		},
		want: `// ToolError is an error of a tool.
type ToolError interface {
	// Code returns the code.
	//
	//   It is stable.
	Code() Code
	error
	isToolError()
}
`,
	}})
}

// TestGroups pins the alignment of const and var groups (go/printer's
// valueSpec and keepTypeColumn).
func TestGroups(t *testing.T) {
	consts := func(specs ...printer.Spec) func(f *printer.File) {
		return func(f *printer.File) { f.Consts(specs) }
	}
	runDecls(t, []declTest{{
		name:  "empty",
		build: consts(),
		want:  "const ()\n",
	}, {
		name:  "one spec: not aligned",
		build: consts(printer.Spec{Name: "A", Type: "T", Value: "1"}),
		want:  "const (\n\tA T = 1\n)\n",
	}, {
		name: "names and values",
		build: consts(
			printer.Spec{Name: "A", Value: "1"},
			printer.Spec{Name: "Bbbb", Value: `"b"`},
		),
		want: `const (
	A    = 1
	Bbbb = "b"
)
`,
	}, {
		name: "types",
		build: consts(
			printer.Spec{Doc: []string{"CodeToolTimeout is a timeout."}, Name: "CodeToolTimeout", Type: "Code", Value: `"tool_timeout"`},
			printer.Spec{Name: "CodeX", Type: "OtherCode", Value: `"x"`},
		),
		want: `const (
	// CodeToolTimeout is a timeout.
	CodeToolTimeout Code      = "tool_timeout"
	CodeX           OtherCode = "x"
)
`,
	}, {
		name: "a spec without a type keeps the type column in a typed run",
		build: consts(
			printer.Spec{Name: "A", Type: "T", Value: "1"},
			printer.Spec{Name: "Bbb", Value: "2"},
			printer.Spec{Name: "C"},
			printer.Spec{Name: "Dd", Value: "3"},
			printer.Spec{Name: "Eeeee", Value: "4"},
		),
		want: `const (
	A   T = 1
	Bbb   = 2
	C
	Dd    = 3
	Eeeee = 4
)
`,
	}, {
		name: "a comment starts a section but not a run: an empty type column vanishes",
		build: consts(
			printer.Spec{Name: "A", Type: "T", Value: "1"},
			printer.Spec{Doc: []string{"Bbb is untyped."}, Name: "Bbb", Value: "2"},
			printer.Spec{Name: "Cc", Value: "3"},
		),
		want: `const (
	A T = 1
	// Bbb is untyped.
	Bbb = 2
	Cc  = 3
)
`,
	}, {
		name: "a comment starts a section: types realigned",
		build: consts(
			printer.Spec{Name: "A", Type: "T", Value: "1"},
			printer.Spec{Name: "Bbb", Value: "2"},
			printer.Spec{Doc: []string{"Cc is typed."}, Name: "Cc", Type: "Type", Value: "3"},
			printer.Spec{Name: "D", Value: "4"},
		),
		want: `const (
	A   T = 1
	Bbb   = 2
	// Cc is typed.
	Cc Type = 3
	D       = 4
)
`,
	}, {
		name: "iota",
		build: consts(
			printer.Spec{Name: "A", Type: "Code", Value: "iota"},
			printer.Spec{Name: "B"},
			printer.Spec{Name: "Cccc"},
		),
		want: `const (
	A Code = iota
	B
	Cccc
)
`,
	}, {
		name: "no size-ratio heuristic",
		build: consts(
			printer.Spec{Name: "A", Value: "1"},
			printer.Spec{Name: strings.Repeat("B", 80), Value: "2"},
		),
		want: "const (\n\tA" + strings.Repeat(" ", 80) + "= 1\n\t" + strings.Repeat("B", 80) + " = 2\n)\n",
	}, {
		name: "var group: a spec without a value",
		build: func(f *printer.File) {
			f.Vars([]printer.Spec{
				{Name: "A", Type: "T"},
				{Name: "Bbbbb", Type: "int", Value: "3"},
				{Name: "Cc", Value: "4"},
				{Name: "D, E", Value: "1, 2"},
			})
		},
		want: `var (
	A     T
	Bbbbb int = 3
	Cc        = 4
	D, E      = 1, 2
)
`,
	}, {
		name: "single specs",
		build: func(f *printer.File) {
			f.Const(printer.Spec{Doc: []string{"Max is the most."}, Name: "Max", Type: "int", Value: "10"})
			f.Doc("Min is the least.")
			f.Const(printer.Spec{Name: "Min", Value: "1"})
			f.VarSpec(printer.Spec{Name: "x", Type: "int"})
			f.VarSpec(printer.Spec{Name: "_", Type: "error", Value: "(*T)(nil)"})
		},
		want: `// Max is the most.
const Max int = 10

// Min is the least.
const Min = 1

var x int

var _ error = (*T)(nil)
`,
	}})
}

// TestVar pins composite literal vars.
func TestVar(t *testing.T) {
	runDecls(t, []declTest{{
		name:  "empty",
		build: func(f *printer.File) { f.Var("infos", "[...]Info", nil) },
		want:  "var infos = [...]Info{}\n",
	}, {
		name: "elements",
		build: func(f *printer.File) {
			f.Doc("infos describes the variants.")
			f.Var("infos", "[...]Info", []string{`{Name: "ToolTimeout", Num: 1004}`, `{Name: "X", Num: 1}`})
		},
		want: `// infos describes the variants.
var infos = [...]Info{
	{Name: "ToolTimeout", Num: 1004},
	{Name: "X", Num: 1},
}
`,
	}})
}

// TestKeyedVar pins the alignment of keyed elements, with go/printer's
// size-ratio heuristic (exprList).
func TestKeyedVar(t *testing.T) {
	keyed := func(kvs ...printer.KeyValue) func(f *printer.File) {
		return func(f *printer.File) { f.KeyedVar("m", "map[string]int", kvs) }
	}
	long := func(c string, n int) string { return `"` + strings.Repeat(c, n-2) + `"` }
	runDecls(t, []declTest{{
		name:  "empty",
		build: keyed(),
		want:  "var m = map[string]int{}\n",
	}, {
		name:  "one element: not aligned",
		build: keyed(printer.KeyValue{Key: `"a"`, Value: "1"}),
		want:  "var m = map[string]int{\n\t\"a\": 1,\n}\n",
	}, {
		name:  "small keys align",
		build: keyed(printer.KeyValue{Key: `"a"`, Value: "1"}, printer.KeyValue{Key: `"bbbb"`, Value: "2"}, printer.KeyValue{Key: `"é"`, Value: "3"}),
		want:  "var m = map[string]int{\n\t\"a\":    1,\n\t\"bbbb\": 2,\n\t\"é\":    3,\n}\n",
	}, {
		// 3 then 77: ratio 25.7 ≥ 2.5, break; 3 after 3 and 77: ratio
		// 3/sqrt(3·77) = 0.197 ≤ 0.4, break; 4 after 3: both small, align.
		name: "a key out of proportion breaks the section",
		build: keyed(
			printer.KeyValue{Key: `"a"`, Value: "1"},
			printer.KeyValue{Key: long("b", 77), Value: "2"},
			printer.KeyValue{Key: `"c"`, Value: "3"},
			printer.KeyValue{Key: `"dd"`, Value: "4"},
		),
		want: "var m = map[string]int{\n" +
			"\t\"a\": 1,\n" +
			"\t" + long("b", 77) + ": 2,\n" +
			"\t\"c\":  3,\n" +
			"\t\"dd\": 4,\n" +
			"}\n",
	}, {
		// 59 then 80: ratio 1.36, aligned although both are over 40.
		name: "long keys in proportion align",
		build: keyed(
			printer.KeyValue{Key: long("a", 59), Value: "1"},
			printer.KeyValue{Key: long("b", 80), Value: "2"},
			printer.KeyValue{Key: `"c"`, Value: "3"},
		),
		want: "var m = map[string]int{\n" +
			"\t" + long("a", 59) + ":" + strings.Repeat(" ", 22) + "1,\n" +
			"\t" + long("b", 80) + ": 2,\n" +
			"\t\"c\": 3,\n" +
			"}\n",
	}, {
		// The geometric mean is of the keys since the last section break:
		// 39 after 30, 30 and 100 (a break) is 0.39 of 100, a break,
		// though only 0.87 of the mean of all three.
		name: "the mean restarts at each section break",
		build: keyed(
			printer.KeyValue{Key: long("a", 30), Value: "1"},
			printer.KeyValue{Key: long("b", 30), Value: "2"},
			printer.KeyValue{Key: long("c", 100), Value: "3"},
			printer.KeyValue{Key: long("d", 39), Value: "4"},
			printer.KeyValue{Key: long("e", 39), Value: "5"},
		),
		want: "var m = map[string]int{\n" +
			"\t" + long("a", 30) + ": 1,\n" +
			"\t" + long("b", 30) + ": 2,\n" +
			"\t" + long("c", 100) + ": 3,\n" +
			"\t" + long("d", 39) + ": 4,\n" +
			"\t" + long("e", 39) + ": 5,\n" +
			"}\n",
	}, {
		// 41 after 16 and 100: 100 is a break, so the mean is 100 and
		// 41 is in proportion with it.
		name: "a key in proportion with the section joins it",
		build: keyed(
			printer.KeyValue{Key: long("a", 16), Value: "1"},
			printer.KeyValue{Key: long("b", 100), Value: "2"},
			printer.KeyValue{Key: long("c", 41), Value: "3"},
		),
		want: "var m = map[string]int{\n" +
			"\t" + long("a", 16) + ": 1,\n" +
			"\t" + long("b", 100) + ": 2,\n" +
			"\t" + long("c", 41) + ":" + strings.Repeat(" ", 60) + "3,\n" +
			"}\n",
	}})
}

// TestDecls pins the separation of declarations, Type, Comment and Raw.
func TestDecls(t *testing.T) {
	runDecls(t, []declTest{{
		name: "one blank line between declarations",
		build: func(f *printer.File) {
			f.Type("Code", "string")
			f.Type("Alias", "= Code")
			f.Doc("Num is a number.")
			f.Type("Num", "int")
		},
		want: `type Code string

type Alias = Code

// Num is a number.
type Num int
`,
	}, {
		name: "a comment between declarations is not a doc comment",
		build: func(f *printer.File) {
			f.Comment("infos describes   ", "  - not a list", "+build x")
			f.Type("Code", "string")
		},
		want: `// infos describes
//   - not a list
// \+build x

type Code string
`,
	}, {
		name: "raw",
		build: func(f *printer.File) {
			f.Raw("func x() {\n\tprintln()\n}\n\n")
			f.Raw("\n")
			f.Comment()
			f.Doc("y is documented.")
			f.Raw("func y() {}")
			f.Raw("// z has its own doc.\nvar z = 1")
		},
		want: `func x() {
	println()
}

// y is documented.
func y() {}

// z has its own doc.
var z = 1
`,
	}})
}
