package jsonschema

import (
	"path/filepath"
	"testing"
)

const specs = "../golang/runtime/testdata/specs"

// TestRefuses: documents that break the published schemas are refused,
// and the ones that keep them are accepted, so the tests that validate
// projections against them can fail.
func TestRefuses(t *testing.T) {
	mcp, problem := filepath.Join(specs, "mcp-2025-11-25.schema.json"), filepath.Join(specs, "problem-details.schema.json")
	for _, c := range []struct {
		file, def, doc string
		ok             bool
	}{
		{mcp, "CallToolResult", `{"content":[{"type":"text","text":"{}"}],"isError":true}`, true},
		{mcp, "CallToolResult", `{"content":[{"type":"text","text":"x"}],"structuredContent":{"a":1},"isError":true}`, true},
		{mcp, "CallToolResult", `{"isError":true}`, false},
		{mcp, "CallToolResult", `{"content":[{"type":"text"}],"isError":true}`, false},
		{mcp, "CallToolResult", `{"content":[],"isError":"yes"}`, false},
		{mcp, "CallToolResult", `{"content":[{"type":"sound","text":"x"}]}`, false},
		{mcp, "Error", `{"code":-32602,"message":"x","data":{}}`, true},
		{mcp, "Error", `{"message":"x"}`, false},
		{mcp, "Error", `{"code":1.5,"message":"x"}`, false},
		{problem, "Problem", `{"type":"about:blank","status":500,"title":"t","detail":"d","code":"x"}`, true},
		{problem, "Problem", `{"status":700}`, false},
		{problem, "Problem", `{"title":5}`, false},
	} {
		problems, err := Validate(c.file, c.def, []byte(c.doc))
		if err != nil {
			t.Fatalf("%s %s: %v", c.def, c.doc, err)
		}
		if got := len(problems) == 0; got != c.ok {
			t.Errorf("%s accepts %s: %v, want %v (%v)", c.def, c.doc, got, c.ok, problems)
		}
	}
}
