package golang_test

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/golang"
	"github.com/errgen/errgen/gen/synth"
)

// TestEmitIsFormatted checks that every file Emit returns is exactly what
// gofmt makes of it. The emitter never formats: it writes gofmt's layout as
// it goes, and this, with errgen's golden files and the generate fuzzer, is
// what holds it to gofmt.
func TestEmitIsFormatted(t *testing.T) {
	ref, err := os.ReadFile("../../errors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string][]byte{"reference": ref, "layout": []byte(layoutCatalogue)}
	for _, n := range []int{1, 37, 250} {
		cases[fmt.Sprintf("synth%d", n)] = synth.Catalogue(n)
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			m, diags := gen.Parse("errors.yaml", src)
			if m == nil {
				t.Fatal(diags)
			}
			files, err := golang.Emit(m)
			if err != nil {
				t.Fatal(err)
			}
			for path, data := range files {
				formatted, err := format.Source(data)
				if err != nil {
					t.Fatalf("%s does not parse: %v", path, err)
				}
				if !bytes.Equal(formatted, data) {
					t.Errorf("%s is not gofmt-clean; first difference at byte %d", path, firstDiff(formatted, data))
				}
			}
		})
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// layoutCatalogue has what gofmt lays out in ways of its own: doc comments
// that go/doc/comment rewrites (lists, code blocks, headings, links), and
// names and texts long enough that a one-line function no longer fits in
// gofmt's 100 columns.
const layoutCatalogue = `version: 1
package: layout
categories:
  a_category_with_a_rather_long_name_for_the_layout_test: A long category.
  short: Short.
families:
  - name: AVeryLongFamilyNameThatPushesTheChainHelperPastOneHundredColumnsForSure
    doc: |-
      A family whose doc has a list:
        - first item
        - second item

      # A heading?

      And a code block:

          x := 1
          y := 2

      A link to [errors.As] and https://example.com/a_page, and a 1. numbered line.
      1. one
      2. two
    payload_type: long_error
    user_message: "A user message long enough that the one-line function that returns it cannot stay on one line ({code})."
    variants:
      - name: AVariantWithAVeryLongNameIndeedForTheLayoutTestToPushItsMethodHeadersFar
        code: a_variant_with_a_very_long_code_for_the_layout_test_to_push_lines_past_the_limit
        num: 1
        category: a_category_with_a_rather_long_name_for_the_layout_test
        doc: |-
          Indented lines:
          	tab indented
             three spaces
          - a list
          * another
          + and another
        message: "A message long enough that Error, returning it as a constant, cannot fit in one hundred columns."
        suppression_key: "{code}:{code}:a fixed suppression key that is long enough to wrap the function"
        retryable: true
        fields:
          - {name: the_first_field_with_a_long_name, type: string, payload: true, doc: "  indented field doc\n- list"}
          - {name: cause, type: error}
      - name: Short
        code: short
        num: 2
        category: short
        doc: Short.
        message: "short {x}"
        fields:
          - {name: x, type: duration, retry_after: true}
`

// TestGRPCReasonCase: the generated package reads the ErrorInfo reason of
// a code it does not know in the catalogue's own case, which the model
// says and the code file records beside the other gRPC tables.
func TestGRPCReasonCase(t *testing.T) {
	for codeCase, want := range map[string]string{"snake": "grpcReasonIsCode = false\n", "upper_snake": "grpcReasonIsCode = true\n"} {
		code := "late"
		if codeCase == "upper_snake" {
			code = "LATE"
		}
		src := "version: 1\npackage: p\ncode_case: " + codeCase + "\nuser_message: Failed ({code}).\nprojections: [grpc]\ngrpc: {domain: p.example.com}\n" +
			"categories: {other: Anything.}\nfamilies:\n  - name: PError\n    variants:\n      - {name: Late, code: " + code + ", num: 1, category: other, message: late}\n"
		m, diags := gen.Parse("errors.yaml", []byte(src))
		if m == nil {
			t.Fatal(diags)
		}
		files, err := golang.Emit(m)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(files[golang.CodeFile], []byte(want)) {
			t.Errorf("code_case %s: %s lacks %q", codeCase, golang.CodeFile, want)
		}
	}
}

// TestCategoryComments: a category's constant is commented with its
// description, its first word lowered only when it is an ordinary word;
// a name or an initialism keeps its capitals.
func TestCategoryComments(t *testing.T) {
	src := emitCode(t, `version: 1
package: p
user_message: Failed ({code}).
categories:
  vendor: OpenAI refused the call.
  io: I/O failed.
  gh: GitHub is down.
  plain: The tool ran too long.
  one: A tool failed.
  api: API limits.
families:
  - name: E
    variants:
      - {name: One, code: one, num: 1, category: vendor, message: a}
`)
	for _, want := range []string{
		"// CategoryVendor: OpenAI refused the call.", "// CategoryIo: I/O failed.", "// CategoryGh: GitHub is down.",
		"// CategoryPlain: the tool ran too long.", "// CategoryOne: a tool failed.", "// CategoryAPI: API limits.",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("errgen.go lacks %q", want)
		}
	}
}

// TestUserMessageDocOfASubcodedWrapper: the doc of UserMessage of a
// variant whose cause answers first names the fallback as the code renders
// it: with sub-codes, the instance's code, not the variant's.
func TestUserMessageDocOfASubcodedWrapper(t *testing.T) {
	src := emitCode(t, `version: 1
package: p
user_message: Failed ({code}).
categories:
  a: A.
families:
  - name: E
    variants:
      - name: Wrapper
        code: wrapper
        num: 1
        category: a
        message: "w: {cause}"
        subcodes: [{code: wrapper_x, doc: X.}]
        fields: [{name: cause, type: error}]
      - {name: Plain, code: plain, num: 2, category: a, message: "p: {cause}", fields: [{name: cause, type: error}]}
`)
	for _, want := range []string{
		"// UserMessage returns the user message of the cause when it is an error of\n// the catalogue, else it renders \"Failed ({code}).\".\nfunc (e *Wrapper) UserMessage() string",
		"// UserMessage returns the user message of the cause when it is an error of\n// the catalogue, else \"Failed (plain).\".\nfunc (e *Plain) UserMessage() string",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("errgen.go lacks\n%s", want)
		}
	}
}

// TestHTTPStatusFieldDoc: the comment of an http_status field says what
// sets it, and says nothing of the kind when the variant has no
// http_status list (lint warns), as then nothing does.
func TestHTTPStatusFieldDoc(t *testing.T) {
	src := emitCode(t, `version: 1
package: p
user_message: Failed ({code}).
categories:
  a: A.
families:
  - name: E
    variants:
      - name: Listed
        code: listed
        num: 1
        category: a
        message: "status {status}"
        http_status: [5xx]
        fields: [{name: status, type: int, http_status: true}]
      - name: Unlisted
        code: unlisted
        num: 2
        category: a
        message: "status {code_seen}"
        fields: [{name: code_seen, type: int, http_status: true}]
`)
	if want := "\t// FromHTTP sets it to the HTTP status.\n\tStatus int\n"; !strings.Contains(src, want) {
		t.Errorf("errgen.go lacks\n%s", want)
	}
	if strings.Contains(src, "sets it to the HTTP status.\n\tCodeSeen int\n") {
		t.Errorf("the http_status field of a variant without http_status is said to be set:\n%s", src[strings.Index(src, "type Unlisted struct"):][:200])
	}
}

// TestClassifyDocOfAnHTTPStatusField: Classify's comment says it sets no
// field but the cause only when no variant it matches by status has an
// http_status field, which it fills.
func TestClassifyDocOfAnHTTPStatusField(t *testing.T) {
	src := `version: 1
package: p
user_message: Failed ({code}).
classify: {fallback: Other}
categories:
  a: A.
families:
  - name: E
    variants:
      - name: Server
        code: server
        num: 1
        category: a
        message: "status {status}: {cause}"
        http_status: [5xx]
        fields: [{name: cause, type: error}, {name: status, type: int, http_status: true}]
      - {name: Other, code: other, num: 2, category: a, message: "o: {cause}", fields: [{name: cause, type: error}]}
`
	for flag, want := range map[string]string{
		", http_status: true": "left unset, but for the http_status field of a variant matched by status,\n// which holds that status. It returns nil for nil.\nfunc Classify",
		"":                    ". Its other fields are\n// left unset. It returns nil for nil.\nfunc Classify",
	} {
		if code := emitCode(t, strings.Replace(src, ", http_status: true", flag, 1)); !strings.Contains(code, want) {
			t.Errorf("flag %q: errgen.go lacks\n%s", flag, want)
		}
	}
}

// emitCode returns errgen.go of the catalogue src, which must resolve.
func emitCode(t *testing.T, src string) string {
	t.Helper()
	m, diags := gen.Parse("errors.yaml", []byte(src))
	if m == nil {
		t.Fatal(diags)
	}
	files, err := golang.Emit(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(files[golang.CodeFile])
}
