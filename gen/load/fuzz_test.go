package load_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/tools/txtar"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/load"
	"github.com/errgen/errgen/gen/synth"
)

// Bounds one input may cost. The engine's inputs are small (a few KiB), so
// anything near these is a blow-up, not a big catalogue: the reference
// catalogue (30 KB) loads in a few milliseconds and allocates a few MiB.
const (
	maxAllocBase  = 64 << 20
	maxAllocPerIn = 4096 // bytes allocated per input byte, on top of the base
)

// FuzzLoad feeds arbitrary bytes to the loader, the checker and the model
// builder (gen.Parse, which runs load.Load, and model.Resolve). For every input: no panic, bounded memory,
// every diagnostic positioned inside the input and free of control, bidi
// and line-break characters, and an accepted catalogue always builds.
func FuzzLoad(f *testing.F) {
	for _, src := range seedCatalogues(f) {
		f.Add(src)
	}
	for _, s := range hostileSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		before := allocated()
		m, diags := gen.Parse("errors.yaml", src)
		alloc := allocated() - before
		if limit := uint64(maxAllocBase + maxAllocPerIn*len(src)); alloc > limit {
			t.Errorf("gen.Parse of %d bytes allocated %d bytes (bound %d)", len(src), alloc, limit)
		}
		checkDiags(t, src, diags)
		if diags.HasErrors() != (m == nil) {
			t.Errorf("gen.Parse: errors %v but model nil %v", diags.HasErrors(), m == nil)
		}
		for _, d := range diags {
			if strings.Contains(d.Msg, "internal error") {
				t.Errorf("the checker accepted what the model cannot build: %s", d)
			}
		}
	})
}

// allocated is the number of bytes the process has allocated so far.
func allocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// checkDiags asserts that every diagnostic names errors.yaml at a line of
// src and a column of that line (or just past its end), and that its text
// cannot forge terminal escapes, CI commands or extra lines.
func checkDiags(t *testing.T, src []byte, diags diag.List) {
	t.Helper()
	lines := bytes.Split(src, []byte("\n"))
	if n := len(lines); n > 1 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	for _, d := range diags {
		p := d.Pos
		if p.File != "errors.yaml" {
			t.Errorf("diagnostic %q names file %q", d, p.File)
		}
		if p.Line < 1 || p.Line > len(lines) {
			t.Errorf("diagnostic %q: line %d outside the %d-line input", d, p.Line, len(lines))
			continue
		}
		if width := len(lines[p.Line-1]); p.Col < 1 || p.Col > width+1 {
			t.Errorf("diagnostic %q: column %d outside line %d of %d bytes", d, p.Col, p.Line, width)
		}
		if d.Message() == "" {
			t.Errorf("diagnostic at %s has no message", p)
		}
		if r, ok := unsafeRune(d.String()); ok {
			t.Errorf("diagnostic %q holds %U; user text must be quoted", d, r)
		}
	}
}

// unsafeRune returns the first rune of s that must never reach a terminal
// or CI log unescaped: C0 and C1 controls (ESC, CR, LF included), DEL,
// bidi controls, line separators and invalid UTF-8.
func unsafeRune(s string) (rune, bool) {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return r, true
		case r < 0x20 || r == 0x7F || (r >= 0x80 && r < 0xA0):
			return r, true
		case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x200E, r == 0x200F, r == 0x061C:
			return r, true
		case r == 0x2028 || r == 0x2029:
			return r, true
		}
	}
	return 0, false
}

// seedCatalogues returns the repository's catalogues: the reference
// catalogue, every catalogue of testdata/lint and testdata/gen, and a small
// synthetic one.
func seedCatalogues(tb testing.TB) [][]byte {
	tb.Helper()
	root := filepath.Join("..", "..")
	ref, err := os.ReadFile(filepath.Join(root, "errors.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	out := [][]byte{ref, synth.Catalogue(3), synth.Catalogue(12)}
	for _, dir := range []string{"lint", "gen"} {
		paths, err := filepath.Glob(filepath.Join(root, "testdata", dir, "*.txtar"))
		if err != nil || len(paths) == 0 {
			tb.Fatalf("no catalogues in testdata/%s: %v", dir, err)
		}
		for _, p := range paths {
			ar, err := txtar.ParseFile(p)
			if err != nil {
				tb.Fatal(err)
			}
			for _, f := range ar.Files {
				if f.Name == "errors.yaml" {
					out = append(out, f.Data)
				}
			}
		}
	}
	return out
}

// hostileSeeds are small inputs aimed at the loader's refusals and at the
// YAML parser's corners.
var hostileSeeds = []string{
	"",
	"version: 1\npackage: p\nprojections: [grpc]\ngrpc: {domain: a.b}\ncategories: {c: C.}\nfamilies:\n  - {name: A, grpc_code: UNAVAILABLE, variants: [{name: B, code: b, num: 1, category: c, message: m, retryable: yes, fields: [{name: t, type: bool, retryable: [true]}, {name: u, type: B, retryable: null, sensitive: true}]}, 7]}\n",
	"version: 1\npackage: p\ncategories: {c: C.}\nfamilies:\n  - {name: A, maps_to: {family: A2}, variants: [{name: B, code: b, num: 1, category: c, message: m, fields: [{name: t, type: string, sensitive: true}]}]}\n  - {name: A2, variants: [{name: C, code: c, num: 2, category: c, message: m, fields: [{name: e, type: error}, {name: t, type: bool, retryable: true, sensitive: true}]}]}\n",
	"\n",
	"\xef\xbb\xbf",
	"\xef\xbb\xbfversion: 1\n",
	"version: 1\r\npackage: x\r\n",
	"version: 1\rpackage: x\r",
	"v\x00e\x00r\x00s\x00i\x00o\x00n\x00:\x00 \x001\x00\n\x00",
	"\xff\xfev\x00:\x00 \x001\x00\n\x00",
	"\x00\x00\xfe\xff\x00\x00\x00v",
	"version: 1\npackage: x\ncategories:\n\tc: d\nfamilies:\n\t- name: F\n",
	"a: &a [x, x]\nb: &b [*a, *a]\nc: &c [*b, *b]\nd: [*c, *c]\n",
	"<<: {a: 1}\n",
	"version: !!str 1\n",
	"version: 0x10\npackage: \"\\e[31m\"\n",
	"package: \"\\u202e\"\n",
	"package: \"a\\nb\"\n",
	"\tversion: 1\n",
	"version: 1\n---\nversion: 2\n",
	"---\n...\n---\n",
	"%YAML 1.2\n%YAML 1.2\n---\n",
	"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
	"{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{",
	"- - - - - - - - - - - - - - - - - - - - x\n",
	"key: \"unterminated\n",
	"key: 'unterminated\n",
	"key: |\n  text\n\tmore\n",
	"version: 99999999999999999999\n",
	"version: -0\n",
	"? [a, b]\n: c\n",
	"version: 1\nversion: 1\n",
	"families:\n  - name: A\n    variants:\n      - {name: B, code: b, num: 1, category: c, message: \"{\"}\n",
	"\x1b]0;title\x07",
	"::error::forged\n",
	"version: 1\npackage: x\ncategories: {c: d}\nfamilies: [{name: F, variants: [{name: V, code: v, num: 1, category: c, message: m}]}]\n",
	// Syntax errors placed at a token (syntaxColumn, charColumn) or
	// after a quoted value left open above (openAbove): quotes, brackets
	// and stray characters after a byte order mark, multi-byte text,
	// tabs and CRs, on line 1 and below.
	"\"\n",
	"a: '\n'\n'\n",
	"\xef\xbb\xbfversion: \"1\npackage: demo\n",
	"version: 1\n--- \"x: 1\n",
	"a: \"x\\\"\n",
	"? \"a\n: b\n",
	"a:\n  - \"x\n  - \"y\n",
	"a: \"x\ny\" z\n",
	"a: 1\r\nb: \"x\r\nc: 'y\r\nd: \"z\" w\r\n",
	"version: 1\nfamilies:\n  - name: A\n   '  doc: x\n    message: \"it's\"\n",
	"a: [[1, 2], [\xc3\xa9, 4\nb: 1\n",
	"a: [1,\n  [2, 3],\n  4\nb: 1\n",
	"a: {b: \xc3\xa9, c: \"d}\ne: \"f\"\n",
	"a: [\xc3\xa9, >]\nb: {c: |}\n",
	"p\xc3\xa0ckage: ? x\n",
	"a: |\xc3\xa9\n  x\n",
	"a:\t\"b\nc: \"d\" @e\n",
	"a: \"x\" \"y\" 'z' \"\n",
	"a: [{b: c, d: e}, {f: g h: i}]\n",
	"a: [{b: c}, {d: e]\n",
	"a: [[1, 2], [[3] [4]]]\n",
	"a: [1,\n  [2, 3]\n  [4]\n",
}

// TestLoadBounds feeds the loader inputs far larger than the fuzzer's: a
// file one byte over the cap, a file at the cap, deep nesting, a syntax
// error at the end of a large file (which the loader narrows down by
// parsing prefixes of the file), and catalogues of nearly MaxValues values
// in the shapes that cost most per value. Each is refused or accepted as
// it should be, with a bounded number of diagnostics and bounded
// allocation. Time is not asserted: TestColumnsAreLinear holds the one
// conversion that could grow with a line's length, and a blow-up shows as
// the test binary's timeout.
func TestLoadBounds(t *testing.T) {
	if testing.Short() {
		t.Skip("loads files of up to 16 MiB")
	}
	valid := synth.Catalogue(20)
	atCap := append(bytes.Repeat([]byte("# padding padding padding padding\n"), (load.MaxSize-len(valid))/34), valid...)
	bigBroken := append(synth.Catalogue(2000), "  - [unclosed\n"...)
	cases := []struct {
		name string
		src  []byte
		ok   bool
	}{
		{"over the cap", make([]byte, load.MaxSize+1), false},
		{"at the cap", atCap, true},
		{"deep flow nesting", bytes.Repeat([]byte("["), 1<<20), false},
		{"deep block nesting", bytes.Repeat([]byte("- "), 1<<16), false},
		{"syntax error at the end", bigBroken, false},
		{"values past the cap", append(bytes.Repeat([]byte("- 1\n"), load.MaxValues), "- 1\n"...), false},
	}
	for _, in := range synth.Hostile(load.MaxValues) {
		cases = append(cases, struct {
			name string
			src  []byte
			ok   bool
		}{in.Name, in.Src, in.Valid})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := allocated()
			m, diags := gen.Parse("errors.yaml", tc.src)
			alloc := allocated() - before
			if (m != nil) != tc.ok {
				t.Errorf("model %v, want %v; diagnostics: %.300v", m != nil, tc.ok, diags)
			}
			if len(diags) > 2*diag.MaxProblems+1 {
				t.Errorf("%d diagnostics; lists are capped at %d", len(diags), diag.MaxProblems)
			}
			// What a catalogue at the caps allocates in all, at most
			// 1 KiB a value; its peak (BENCHMARKS.md) is far lower.
			if limit := uint64(maxAllocBase + 32*len(tc.src) + 1024*load.MaxValues); alloc > limit {
				t.Errorf("gen.Parse of %d bytes allocated %d MiB (bound %d MiB)", len(tc.src), alloc>>20, limit>>20)
			}
			t.Logf("%d bytes: %d diagnostics, %d MiB allocated; first %.200v", len(tc.src), len(diags), alloc>>20, diags[:min(1, len(diags))])
			checkDiags(t, tc.src, diags)
		})
	}
}
