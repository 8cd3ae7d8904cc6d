package schema_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/compat"
	"github.com/errgen/errgen/gen/load"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/names"
	"github.com/errgen/errgen/gen/schema"
)

const schemaID = "https://errgen.dev/schema/v1/errors.schema.json"

// compile compiles the embedded schema.
func compile(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema.JSON()))
	if err != nil {
		t.Fatalf("schema.json is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaID, doc); err != nil {
		t.Fatalf("adding schema: %v", err)
	}
	sch, err := c.Compile(schemaID)
	if err != nil {
		t.Fatalf("schema does not compile: %v", err)
	}
	return sch
}

// fromYAML decodes a catalogue into the values a JSON document would hold:
// mappings become map[string]any, sequences []any.
func fromYAML(t *testing.T, src string) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal([]byte(src), &v); err != nil {
		t.Fatalf("YAML: %v", err)
	}
	return jsonValue(v)
}

func jsonValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			v[k] = jsonValue(x)
		}
		return v
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[fmt.Sprint(k)] = jsonValue(x)
		}
		return out
	case []any:
		for i, x := range v {
			v[i] = jsonValue(x)
		}
		return v
	}
	return v
}

func TestReferenceCatalogue(t *testing.T) {
	sch := compile(t)
	src, err := os.ReadFile("../../errors.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(fromYAML(t, string(src))); err != nil {
		t.Errorf("errors.yaml does not validate:\n%v", err)
	}
}

// TestExampleCatalogues: every example's catalogue validates, as the
// reference catalogue does (TestReferenceCatalogue, with every projection).
func TestExampleCatalogues(t *testing.T) {
	sch := compile(t)
	paths, err := filepath.Glob("../../examples/*/errors.yaml")
	if err != nil || len(paths) < 5 {
		t.Fatalf("want the examples' catalogues, got %v (%v)", paths, err)
	}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(fromYAML(t, string(src))); err != nil {
			t.Errorf("%s does not validate:\n%v", p, err)
		}
	}
}

// TestRegistryCatalogues: the catalogues of testdata/registry validate,
// among them one whose cause is a family of another catalogue
// (gateway.ProviderError) and decides whether it is retryable.
func TestRegistryCatalogues(t *testing.T) {
	sch := compile(t)
	for _, pkg := range []string{"tools", "gateway", "orchestrator"} {
		src, err := os.ReadFile("../../testdata/registry/" + pkg + "/errors.yaml")
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(fromYAML(t, string(src))); err != nil {
			t.Errorf("%s/errors.yaml does not validate:\n%v", pkg, err)
		}
	}
}

// base is a small valid catalogue; the cases below break it one way each.
const base = `version: 1
package: demo
categories:
  io: Input and output.
families:
  - name: DemoError
    doc: Demo errors.
    payload_type: demo_error
    user_message: "Something failed ({code})."
    nums: [1, 99]
    variants:
      - name: Broken
        code: broken
        num: 1
        category: io
        doc: A thing broke.
        message: "broken {path}"
        retryable: true
        http_status: [503]
        fields:
          - name: path
            type: string
            payload: true
            example: a/b
`

// edit returns base with old replaced by new, failing if old is missing.
func edit(t *testing.T, old, new string) string {
	t.Helper()
	if !strings.Contains(base, old) {
		t.Fatalf("base has no %q", old)
	}
	return strings.Replace(base, old, new, 1)
}

// parseErrors reports whether errgen refuses src.
func parseErrors(src string) bool {
	_, diags := gen.Parse("errors.yaml", []byte(src))
	return diags.HasErrors()
}

func TestAccepts(t *testing.T) {
	sch := compile(t)
	cases := map[string]string{
		"base": base,
		"jitter and a float example written as YAML reads them": edit(t, "    nums: [1, 99]\n", "    nums: [1, 99]\n    retry: {max_retries: 2, jitter: .5}\n") + "          - name: ratio\n            type: float64\n            example: 1.\n",
		"extras": strings.Replace(base, "package: demo\n", "package: demo\nuser_message: Something failed ({code}).\n", 1) + `
  - name: WrapError
    doc: >-
      Errors that wrap others,
      over two lines.
    nums: [100, 199]
    reserved:
      nums: [150]
      codes: [retired]
    variants:
      - name: Wrapped
        code: wrapped
        num: 101
        category: io
        doc: Wraps a demo error.
        message: "wrapped: {cause} {{literal}}"
        user_message: Try again later.
        retryable_from_cause: true
        suppress_retry: true
        suppression_key: "{code}:{delay}"
        fields:
          - name: cause
            type: DemoError
          - name: delay
            type: duration
            retry_after: true
            example: 1m30s
          - name: zero
            type: duration
            example: 0
          - name: names
            type: strings
            example: [a, b]
          - name: ratio
            type: float64
            example: 0.5
          - name: count
            type: uint64
            example: 3
          - name: ok
            type: bool
            example: false
      - name: Quiet
        code: quiet
        num: 102
        category: io
        message: "quiet {err}"
        user_message: The assistant carries on.
        non_fatal: true
        http_status: [5xx, "400-403"]
        fields:
          - name: err
            type: error
            example: 42
          - name: wait
            type: duration
            unit: s
            example: 3s
compat:
  - rule: NUM_REASSIGNED
    code: quiet
    reason: Renumbered before the first release.
  - rule: GO_NAME_CHANGED
    family: DemoError
    reason: Renamed before the first release.
  - rule: PACKAGE_RENAMED
    reason: Named after the service before the first release.
`,
	}
	// What errgen accepts the schema must accept too.
	withRetry := func(base string) string {
		return strings.Replace(cases["base"], "package: demo\n", "package: demo\nretry: {base: "+base+", cap: 10s}\n", 1)
	}
	cases["retry base in microseconds"] = withRetry("1000us")
	cases["retry base without a leading digit"] = withRetry(".5s")
	cases["retry base with a sign"] = withRetry("+1s")
	cases["empty subcodes"] = strings.Replace(cases["base"], "        num: 1\n", "        num: 1\n        subcodes: []\n", 1)
	cases["type_base percent-escaped, with a port"] = strings.Replace(cases["base"], "package: demo\n",
		"package: demo\nprojections: [problem]\nproblem: {type_base: \"https://example.com:8443/%C3%A9/errors#\"}\n", 1)
	cases["type_base with an @ in its path and an upper-case scheme"] = strings.Replace(cases["base"], "package: demo\n",
		"package: demo\nprojections: [problem]\nproblem: {type_base: \"HTTPS://example.com/@team/errors/\"}\n", 1)
	cases["match with an empty is beside contains"] = strings.Replace(cases["base"], "package: demo\n", "package: demo\nclassify: {fallback: Broken}\n", 1) +
		"        match: {is: [], contains: [broke]}\n" +
		"      - {name: Other, code: other, num: 2, category: io, message: \"other {cause}\", fields: [{name: cause, type: error}], match: {is: [context.Canceled], contains: []}}\n"
	cases["match with an empty is beside contains"] = strings.Replace(cases["match with an empty is beside contains"],
		"            example: a/b\n", "            example: a/b\n          - name: cause\n            type: error\n", 1)
	cases["grpc, problem and mcp settings with their projections"] = strings.Replace(cases["base"], "package: demo\n",
		"package: demo\nprojections: [grpc, problem, mcp]\ngrpc: {domain: demo.example.com}\nproblem: {type_base: \"https://example.com/e/\"}\n", 1) +
		"        grpc_code: UNAVAILABLE\n        mcp_error: -2147483648\n"
	cases["a payload key as a field's name where the family has no payload_type"] = strings.NewReplacer(
		"    payload_type: demo_error\n", "", "            payload: true\n", "", "- name: path", "- name: suggested_tool", "{path}", "{suggested_tool}").Replace(cases["base"])
	cases["attribute defaults of each type"] = strings.Replace(cases["base"], "families:\n",
		"attributes:\n  - {name: a, type: bool, default: true}\n  - {name: b, type: int, default: -2147483648}\n  - {name: c, type: enum, values: [x, \"y\"], default: x}\n  - {name: d, type: string, default: \"3\"}\nfamilies:\n", 1)
	cases["attribute values of each type, text empty or with a tab"] = strings.Replace(cases["base"], "families:\n",
		"attributes:\n  - {name: a, type: bool, default: true}\n  - {name: b, type: int, default: 1}\n  - {name: c, type: enum, values: [x], default: x}\n  - {name: d, type: string, default: \"\\tx\"}\nfamilies:\n", 1) +
		"        attributes: {a: false, b: -2, c: x, d: \"\"}\n"
	cases["joiners between letters, an emoji's presentation selector, other planes"] = strings.NewReplacer(
		"doc: A thing broke.", `doc: "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645, \u0915\u094d\u200d\u0937 \u26a0\ufe0f \U0001F600"`,
		`"broken {path}"`, `"broken \u26a0\ufe0f {path} \U0001D11E"`).Replace(cases["base"])
	cases["255 fields"] = cases["base"] + manyFields(254)
	cases["examples at the ends of their integer types"] = cases["base"] +
		"          - {name: a, type: int, example: -2147483648}\n          - {name: b, type: int, example: 2147483647}\n" +
		"          - {name: c, type: int64, example: -9223372036854775808}\n          - {name: d, type: int64, example: 9223372036854775807}\n" +
		"          - {name: e, type: uint64, example: 0}\n          - {name: f, type: uint64, example: 18446744073709551615}\n"
	withProblem := func(src string) string {
		return strings.Replace(src, "package: demo\n", "package: demo\nprojections: [problem]\nproblem: {type_base: \"https://example.com/e/\"}\n", 1)
	}
	members := "          - {name: title, type: string, payload: true}\n          - {name: status, type: int, payload: true}\n" +
		"      - {name: Other, code: other, num: 2, category: io, message: other, fields: [{name: detail, type: string}, {name: instance, type: string, payload: false}]}\n"
	cases["problem members as payload fields without the problem projection"] = cases["base"] + members
	cases["problem members as fields outside the payload, with the problem projection"] = withProblem(cases["base"] + strings.ReplaceAll(members, ", payload: true}", "}"))
	cases["a problem member as a field of a family without payload_type, with the problem projection"] = withProblem(strings.NewReplacer(
		"    payload_type: demo_error\n", "", "            payload: true\n", "").Replace(cases["base"])) + "          - {name: title, type: string, payload: false}\n"
	cases["empty required_fields where the family has no payload_type"] = strings.NewReplacer("    payload_type: demo_error\n", "", "            payload: true\n", "",
		"        retryable: true\n", "        retryable: true\n        required_fields: []\n").Replace(cases["base"])
	cases["an http_status field on an int, sent in the payload"] = cases["base"] + "          - {name: status, type: int, payload: true, http_status: true, example: 503}\n"
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			if err := sch.Validate(fromYAML(t, src)); err != nil {
				t.Errorf("schema rejects a valid catalogue:\n%v", err)
			}
			if _, diags := gen.Parse("errors.yaml", []byte(src)); len(diags) > 0 {
				t.Errorf("errgen refuses the case itself, so it proves nothing:\n%v", diags)
			}
		})
	}
}

// manyFields returns n more fields for base's variant, each named apart.
func manyFields(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "          - name: f%d\n            type: string\n", i)
	}
	return b.String()
}

func TestRejects(t *testing.T) {
	sch := compile(t)
	problem := edit(t, "package: demo\n", "package: demo\nprojections: [problem]\nproblem: {type_base: \"https://example.com/e/\"}\n")
	cases := []struct{ name, src string }{
		{"wrong version", edit(t, "version: 1", "version: 2")},
		{"version missing", edit(t, "version: 1\n", "")},
		{"unknown key", edit(t, "        num: 1\n", "        num: 1\n        colour: red\n")},
		{"bad code pattern", edit(t, "code: broken", "code: Broken-Code")},
		{"num as string", edit(t, "num: 1", `num: "1"`)},
		{"num zero", edit(t, "num: 1", "num: 0")},
		{"missing message", edit(t, "        message: \"broken {path}\"\n", "")},
		{"bad field type", edit(t, "type: string", "type: text")},
		{"nums of three items", edit(t, "nums: [1, 99]", "nums: [1, 50, 99]")},
		{"nums start at zero", edit(t, "nums: [1, 99]", "nums: [0, 99]")},
		{"retryable as string", edit(t, "retryable: true", `retryable: "true"`)},
		{"retryable and non_fatal", edit(t, "retryable: true", "retryable: true\n        non_fatal: true")},
		{"http_status 700", edit(t, "http_status: [503]", "http_status: [700]")},
		{"http_status twice", edit(t, "http_status: [503]", "http_status: [503, 503]")},
		{"http_status class 6xx", edit(t, "http_status: [503]", `http_status: ["6xx"]`)},
		{"http_status as a word", edit(t, "http_status: [503]", `http_status: ["teapot"]`)},
		{"http_status a status given as text", edit(t, "http_status: [503]", `http_status: ["503"]`)},
		{"grpc domain label past 63 characters", edit(t, "package: demo\n", "package: demo\nprojections: [grpc]\ngrpc: {domain: "+strings.Repeat("a", 64)+".example.com}\n")},
		{"unit unknown", edit(t, "            payload: true\n", "            payload: true\n            unit: minutes\n")},
		{"field name CamelCase", edit(t, "- name: path", "- name: FilePath")},
		{"field name is a method", edit(t, "- name: path", "- name: code")},
		{"field name is a method spelt letter by letter", edit(t, "- name: path", "- name: marshal_j_s_o_n")},
		{"field name is a log key", edit(t, "- name: path", "- name: remote")},
		{"family name lower-case", edit(t, "name: DemoError", "name: demoError")},
		{"package keyword", edit(t, "package: demo", "package: func")},
		{"package upper-case", edit(t, "package: demo", "package: Demo")},
		{"categories empty", edit(t, "categories:\n  io: Input and output.", "categories: {}")},
		{"category description blank", edit(t, "io: Input and output.", `io: " "`)},
		{"families empty", base[:strings.Index(base, "families:")] + "families: []\n"},
		{"variants missing", base[:strings.Index(base, "    variants:")]},
		{"unclosed placeholder", edit(t, `"broken {path}"`, `"broken {path"`)},
		{"message spans lines", edit(t, `"broken {path}"`, `"broken\n{path}"`)},
		{"message blank", edit(t, `"broken {path}"`, `"  "`)},
		{"bidi control in doc", edit(t, "A thing broke.", `"A thing \u202ebroke."`)},
		{"zero-width space in doc", edit(t, "A thing broke.", `"A thing\u200bbroke."`)},
		{"soft hyphen in a message", edit(t, `"broken {path}"`, `"bro\u00adken {path}"`)},
		{"tag characters in doc", edit(t, "A thing broke.", `"A thing broke.\U000E0041\U000E0042"`)},
		{"noncharacter in a category's description", edit(t, "io: Input and output.", `io: "Input \uFDD0"`)},
		{"noncharacter of another plane in doc", edit(t, "A thing broke.", `"A thing \U0001FFFE"`)},
		{"variation selector in a message", edit(t, `"broken {path}"`, `"broken\uFE01 {path}"`)},
		{"word joiner in a waiver's reason", base + "compat:\n  - {rule: NUM_REASSIGNED, code: broken, reason: \"Re\u2060numbered.\"}\n"},
		{"family template uses a field", edit(t, `"Something failed ({code})."`, `"Failed at {path}."`)},
		{"payload field reuses a payload key", strings.ReplaceAll(base, "path", "type")},
		{"field of a payload family reuses a payload key", edit(t, "          - name: path\n", "          - name: suggested_tool\n            type: string\n          - name: path\n")},
		{"payload on a cause", edit(t, "type: string", "type: error")},
		{"retry_after on a string", edit(t, "payload: true", "retry_after: true")},
		{"http_status on a string", edit(t, "payload: true", "http_status: true")},
		{"two http_status fields", base + "          - {name: status, type: int, http_status: true}\n          - {name: code_seen, type: int, http_status: true}\n"},
		{"http_status field sensitive", base + "          - {name: status, type: int, http_status: true, sensitive: true}\n"},
		{"int example is text", edit(t, "type: string\n            payload: true\n            example: a/b", "type: int\n            example: five")},
		{"bool example quoted", edit(t, "type: string\n            payload: true\n            example: a/b", "type: bool\n            example: \"true\"")},
		{"duration example not a duration", edit(t, "type: string\n            payload: true\n            example: a/b", "type: duration\n            example: soon")},
		{"strings example not a list", edit(t, "type: string\n            payload: true\n            example: a/b", "type: strings\n            example: a")},
		{"family cause with example", edit(t, "type: string\n            payload: true\n            example: a/b", "type: DemoError\n            example: x")},
		{"two causes", edit(t, "type: string\n            payload: true\n            example: a/b", "type: error\n          - name: other\n            type: error")},
		{"retryable_from_cause without cause", edit(t, "retryable: true", "retryable_from_cause: true")},
		{"payload field without payload_type", edit(t, "    payload_type: demo_error\n", "")},
		{"suggested_tool on payload-less family", strings.Replace(edit(t, "    payload_type: demo_error\n", ""), "            payload: true\n", "", 1) + "        suggested_tool: clarify\n"},
		{"reserved num zero", edit(t, "    variants:", "    reserved:\n      nums: [0]\n    variants:")},
		{"reserved code bad", edit(t, "    variants:", "    reserved:\n      codes: [Old]\n    variants:")},
		{"compat rule lower-case", base + "compat:\n  - rule: num_changed\n    code: broken\n    reason: Because.\n"},
		{"compat without reason", base + "compat:\n  - rule: NUM_REASSIGNED\n    code: broken\n"},
		{"compat with code and family", base + "compat:\n  - rule: NUM_REASSIGNED\n    code: broken\n    family: DemoError\n    reason: Both.\n"},
		{"compat with neither code nor family", base + "compat:\n  - rule: NUM_REASSIGNED\n    reason: Neither.\n"},
		{"catalogue user_message uses a field", edit(t, "package: demo\n", "package: demo\nuser_message: \"{path} failed\"\n")},
		{"catalogue user_message spans lines", edit(t, "package: demo\n", "package: demo\nuser_message: \"a\\nb {code}\"\n")},
		{"type_base with a space", edit(t, "package: demo\n", "package: demo\nprojections: [problem]\nproblem: {type_base: \"https://x.example/a b/\"}\n")},
		{"type_base not ASCII", edit(t, "package: demo\n", "package: demo\nprojections: [problem]\nproblem: {type_base: \"https://x.example/\u00e9/\"}\n")},
		{"type_base with a # before its end", edit(t, "package: demo\n", "package: demo\nprojections: [problem]\nproblem: {type_base: \"https://x.example/a#b/\"}\n")},
		{"match with no rule", edit(t, "package: demo\n", "package: demo\nclassify: {fallback: Broken}\n") + "          - name: cause\n            type: error\n        match: {is: [], contains: []}\n"},
		{"required_fields with a Unicode space", edit(t, "retryable: true", "retryable: true\n        required_fields: [\"file\u2003path\"]")},
		{"required_fields with a line break", edit(t, "retryable: true", "retryable: true\n        required_fields: [\"file\\npath\"]")},
		{"unit on a string field", edit(t, "            payload: true\n", "            payload: true\n            unit: s\n")},
		{"mcp_error beyond 32 bits", edit(t, "package: demo\n", "package: demo\nprojections: [mcp]\n") + "        mcp_error: 2147483648\n"},
		{"mcp_error without mcp", edit(t, "package: demo\n", "package: demo\nprojections: [grpc]\ngrpc: {domain: demo.example.com}\n") + "        mcp_error: -32602\n"},
		{"grpc section without grpc", edit(t, "package: demo\n", "package: demo\ngrpc: {domain: demo.example.com}\n")},
		{"grpc_code without grpc", edit(t, "    nums: [1, 99]\n", "    nums: [1, 99]\n    grpc_code: UNAVAILABLE\n")},
		{"variant grpc_code without grpc", edit(t, "package: demo\n", "package: demo\nprojections: [mcp]\n") + "        grpc_code: UNAVAILABLE\n"},
		{"problem section without problem", edit(t, "package: demo\n", "package: demo\nprojections: [grpc]\ngrpc: {domain: demo.example.com}\nproblem: {type_base: \"https://example.com/e/\"}\n")},
		{"bool attribute default 1", edit(t, "families:\n", "attributes:\n  - {name: a, type: bool, default: 1}\nfamilies:\n")},
		{"int attribute default quoted", edit(t, "families:\n", "attributes:\n  - {name: a, type: int, default: \"3\"}\nfamilies:\n")},
		{"int attribute default beyond 32 bits", edit(t, "families:\n", "attributes:\n  - {name: a, type: int, default: 2147483648}\nfamilies:\n")},
		{"string attribute default a number", edit(t, "families:\n", "attributes:\n  - {name: a, type: string, default: 3}\nfamilies:\n")},
		{"enum attribute default true", edit(t, "families:\n", "attributes:\n  - {name: a, type: enum, values: [x, \"y\"], default: true}\nfamilies:\n")},
		{"string attribute default over two lines", edit(t, "families:\n", "attributes:\n  - {name: a, type: string, default: \"x\\ny\"}\nfamilies:\n")},
		{"string attribute default with a bidi control", edit(t, "families:\n", "attributes:\n  - {name: a, type: string, default: \"x\\u202ey\"}\nfamilies:\n")},
		{"attribute value over two lines", edit(t, "families:\n", "attributes:\n  - {name: a, type: string, default: x}\nfamilies:\n") + "        attributes: {a: \"x\\ny\"}\n"},
		{"attribute value with a control character", edit(t, "families:\n", "attributes:\n  - {name: a, type: string, default: x}\nfamilies:\n") + "        attributes: {a: \"x\\u0007\"}\n"},
		{"type_base without a host", edit(t, "package: demo\n", "package: demo\nprojections: [problem]\nproblem: {type_base: \"https://:80/\"}\n")},
		{"type_base with two #", edit(t, "package: demo\n", "package: demo\nprojections: [problem]\nproblem: {type_base: \"https://x.example/#a#\"}\n")},
		{"type_base with a bad escape", edit(t, "package: demo\n", "package: demo\nprojections: [problem]\nproblem: {type_base: \"https://x.example/%zz/\"}\n")},
		{"type_base with brackets in its path", edit(t, "package: demo\n", "package: demo\nprojections: [problem]\nproblem: {type_base: \"https://x.example/[a]/\"}\n")},
		{"required_fields without payload_type", strings.Replace(edit(t, "    payload_type: demo_error\n", ""), "            payload: true\n", "", 1) + "        required_fields: [a]\n"},
		{"instance hint suggested_tool without payload_type", strings.Replace(edit(t, "    payload_type: demo_error\n", ""), "            payload: true\n", "", 1) + "        instance_hints: [suggested_tool]\n"},
		{"instance hint suggested_action without payload_type", strings.Replace(edit(t, "    payload_type: demo_error\n", ""), "            payload: true\n", "", 1) + "        instance_hints: [suggested_action]\n"},
		{"retryable_from_cause and non_fatal", edit(t, "retryable: true", "retryable_from_cause: true\n        non_fatal: true") + "          - name: cause\n            type: error\n"},
		{"configurable and retryable_from_cause", edit(t, "retryable: true", "retryable_from_cause: true\n        configurable: true") + "          - name: cause\n            type: error\n"},
		{"code too long", edit(t, "code: broken", "code: "+strings.Repeat("b", 244))},
		{"sensitive family cause", base + "          - name: cause\n            type: DemoError\n            sensitive: true\n"},
		{"grpc projection without its section", edit(t, "package: demo\n", "package: demo\nprojections: [grpc]\n")},
		{"problem projection without its section", edit(t, "package: demo\n", "package: demo\nprojections: [problem, mcp]\n")},
		{"match without classify", base + "          - name: cause\n            type: error\n        match: {is: [context.Canceled]}\n"},
		{"256 fields", base + manyFields(255)},
		{"int example beyond 32 bits", base + "          - name: count\n            type: int\n            example: 1099511627776\n"},
		{"int example just beyond 32 bits", base + "          - name: count\n            type: int\n            example: 2147483648\n"},
		{"int example just below 32 bits", base + "          - name: count\n            type: int\n            example: -2147483649\n"},
		{"int64 example beyond 64 bits", base + "          - name: count\n            type: int64\n            example: 9223372036854775808\n"},
		{"int64 example below 64 bits", base + "          - name: count\n            type: int64\n            example: -10000000000000000000\n"},
		{"uint64 example beyond 64 bits", base + "          - name: count\n            type: uint64\n            example: 18446744073709551616\n"},
		{"payload field named title with problem", problem + "          - name: title\n            type: string\n            payload: true\n"},
		{"payload field named status with problem", problem + "          - name: status\n            type: int\n            payload: true\n"},
		{"payload field named detail with problem", problem + "          - name: detail\n            type: string\n            payload: true\n"},
		{"payload field named instance with problem", problem + "          - name: instance\n            type: string\n            payload: true\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !parseErrors(c.src) {
				t.Fatalf("errgen accepts the case, so the schema must too; fix the case:\n%s", c.src)
			}
			if err := sch.Validate(fromYAML(t, c.src)); err == nil {
				t.Errorf("schema accepts a catalogue errgen refuses:\n%s", c.src)
			}
		})
	}
}

// schemaDoc is the schema decoded as plain JSON values.
func schemaDoc(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(schema.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// object returns the object at path in the schema document.
func object(t *testing.T, doc map[string]any, path ...string) map[string]any {
	t.Helper()
	cur := doc
	for _, p := range path {
		next, ok := cur[p].(map[string]any)
		if !ok {
			t.Fatalf("schema has no object at /%s", strings.Join(path, "/"))
		}
		cur = next
	}
	return cur
}

func sortedKeys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestKeysMatchLoader(t *testing.T) {
	doc := schemaDoc(t)
	for kind, keys := range load.Keys {
		path := []string{"$defs", kind, "properties"}
		if kind == "catalogue" {
			path = []string{"properties"}
		}
		got := sortedKeys(object(t, doc, path...))
		want := slices.Sorted(slices.Values(keys))
		if !slices.Equal(got, want) {
			t.Errorf("/%s: schema has keys %v, the loader accepts %v", strings.Join(path, "/"), got, want)
		}
		if kind != "catalogue" {
			if ap, ok := object(t, doc, "$defs", kind)["additionalProperties"].(bool); !ok || ap {
				t.Errorf("/$defs/%s must set additionalProperties: false", kind)
			}
		}
	}
}

// strs returns the strings of the JSON array at v.
func strs(t *testing.T, v any) []string {
	t.Helper()
	list, ok := v.([]any)
	if !ok {
		t.Fatalf("want a JSON array, got %T", v)
	}
	var out []string
	for _, x := range list {
		out = append(out, x.(string))
	}
	return out
}

func sameSet(a, b []string) bool {
	return slices.Equal(slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b)))
}

// spellings returns the snake_case names that may become the Go name m: its
// words in lower case, each word in capitals (an initialism) also spelt
// letter by letter.
func spellings(m string) []string {
	var words []string
	start := 0
	for i := 1; i < len(m); i++ {
		upper := func(j int) bool { return m[j] >= 'A' && m[j] <= 'Z' }
		if upper(i) && (!upper(i-1) || i+1 < len(m) && !upper(i+1)) {
			words = append(words, m[start:i])
			start = i
		}
	}
	words = append(words, m[start:])
	out := []string{""}
	for _, w := range words {
		forms := []string{strings.ToLower(w)}
		if len(w) > 1 && strings.ToUpper(w) == w {
			forms = append(forms, strings.Join(strings.Split(strings.ToLower(w), ""), "_"))
		}
		var next []string
		for _, o := range out {
			for _, f := range forms {
				if o != "" {
					f = o + "_" + f
				}
				next = append(next, f)
			}
		}
		out = next
	}
	return out
}

// TestListsMatchChecker keeps the schema's name lists in step with the
// checker's.
func TestListsMatchChecker(t *testing.T) {
	doc := schemaDoc(t)
	field := object(t, doc, "$defs", "field")

	types := strs(t, object(t, field, "properties", "type")["anyOf"].([]any)[0].(map[string]any)["enum"])
	if want := append(slices.Clone(model.ScalarTypes), "error"); !sameSet(types, want) {
		t.Errorf("field types: schema %v, checker %v", types, want)
	}

	// Every snake_case name whose Go name is a generated method is refused
	// (an initialism such as LLM spelt as one word or letter by letter), and
	// every key a log value starts with.
	forbidden := strs(t, object(t, field, "properties", "name", "not")["enum"])
	var want []string
	for _, k := range model.LogKeys {
		if !slices.Contains(model.Methods, names.Go(k)) {
			want = append(want, k)
		}
	}
	for _, m := range model.Methods {
		for _, n := range spellings(m) {
			if names.Go(n) == m {
				want = append(want, n)
			}
		}
	}
	if !sameSet(forbidden, want) {
		t.Errorf("the schema refuses field names %v; the names that become generated methods are %v", forbidden, want)
	}

	members := strs(t, object(t, doc, "$defs", "problemMember")["enum"])
	if !sameSet(members, model.ProblemMembers) {
		t.Errorf("RFC 9457 members: schema %v, checker %v", members, model.ProblemMembers)
	}

	if got := object(t, doc, "$defs", "problemWaitMember")["const"]; got != model.ProblemWaitMember {
		t.Errorf("problem wait member: schema %v, checker %v", got, model.ProblemWaitMember)
	}

	payloadKeys := strs(t, object(t, doc, "$defs", "payloadKey")["enum"])
	if !sameSet(payloadKeys, model.PayloadKeys) {
		t.Errorf("payload keys: schema %v, checker %v", payloadKeys, model.PayloadKeys)
	}

	if got := object(t, doc, "$defs", "grpc", "properties", "locale")["pattern"]; got != names.LocalePattern {
		t.Errorf("grpc locale pattern: schema %v, checker %v", got, names.LocalePattern)
	}

	scope := strs(t, object(t, doc, "$defs", "goName", "not")["enum"])
	if !sameSet(scope, model.PackageScope) {
		t.Errorf("reserved Go names: schema %v, generator %v", scope, model.PackageScope)
	}

	// Every package name the schema refuses by name, the checker refuses,
	// and the other way round for the names that match the pattern.
	refused := strs(t, object(t, doc, "properties", "package", "not")["enum"])
	for _, n := range refused {
		if names.IsPackage(n) {
			t.Errorf("the schema refuses package %q, the checker accepts it", n)
		}
	}
	candidates := append(slices.Clone(names.Predeclared), "main", "init", "documentation", "break", "func", "type", "errors", "tools")
	for _, n := range candidates {
		if !names.IsPackage(n) && !slices.Contains(refused, n) {
			t.Errorf("the checker refuses package %q, the schema does not list it", n)
		}
	}
}

func TestDocsCopy(t *testing.T) {
	docs, err := os.ReadFile("../../docs/errors.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(docs, schema.JSON()) {
		t.Errorf("docs/errors.schema.json differs from the embedded schema; run: go run ./cmd/errgen schema > docs/errors.schema.json")
	}
}

// TestWholeCatalogueRules: the rules the schema lets a waiver name without
// a code or a family are the ones compat reports about the whole
// catalogue.
func TestWholeCatalogueRules(t *testing.T) {
	var doc struct {
		Defs map[string]struct {
			Then struct {
				Properties struct {
					Rule struct{ Enum []string }
				}
			}
		} `json:"$defs"`
	}
	if err := json.Unmarshal(schema.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Defs["compat"].Then.Properties.Rule.Enum
	if diff := cmp.Diff(compat.WholeCatalogueRules, got); diff != "" {
		t.Errorf("the schema's rules for a waiver without code or family differ from compat's (-compat +schema):\n%s", diff)
	}
}
