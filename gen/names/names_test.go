package names

import "testing"

func TestGo(t *testing.T) {
	for in, want := range map[string]string{
		"tool":           "Tool",
		"tool_id":        "ToolID",
		"url":            "URL",
		"http_status":    "HTTPStatus",
		"retry_after_ms": "RetryAfterMs",
		"llm_output":     "LLMOutput",
		"cost_usd":       "CostUsd",
		"a1_b2":          "A1B2",
		"type":           "Type",
		"func":           "Func",
	} {
		if got := Go(in); got != want {
			t.Errorf("Go(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCamel(t *testing.T) {
	for in, want := range map[string]string{
		"provider":       "provider",
		"status_code":    "statusCode",
		"retry_after":    "retryAfter",
		"original_error": "originalError",
		"retry_after_ms": "retryAfterMs",
		"tool_id":        "toolId",
		"http_status":    "httpStatus",
		"llm_output":     "llmOutput",
		"a_1b":           "a1b",
		"a1b":            "a1b",
		"a1_b2":          "a1B2",
		"id_8":           "id8",
		"type":           "type",
	} {
		if got := Camel(in); got != want {
			t.Errorf("Camel(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPredicates(t *testing.T) {
	for _, c := range []struct {
		name string
		fn   func(string) bool
		in   string
		want bool
	}{
		{"IsSnake", IsSnake, "retry_after", true},
		{"IsSnake", IsSnake, "Retry", false},
		{"IsSnake", IsSnake, "a__b", false},
		{"IsSnake", IsSnake, "a_", false},
		{"IsExported", IsExported, "ToolError", true},
		{"IsExported", IsExported, "toolError", false},
		{"IsExported", IsExported, "Tool_Error", false},
		{"IsExported", IsExported, "Élan", false},
		{"IsCode", IsCode, "tool_timeout", true},
		{"IsCode", IsCode, "Tool", false},
		{"IsPackage", IsPackage, "agenterr", true},
		{"IsPackage", IsPackage, "func", false},
		{"IsPackage", IsPackage, "main", false},
		{"IsPackage", IsPackage, "string", false},
		{"IsPackage", IsPackage, "agent_err", false},
	} {
		if got := c.fn(c.in); got != c.want {
			t.Errorf("%s(%q) = %v, want %v", c.name, c.in, got, c.want)
		}
	}
}

func TestHelperFamily(t *testing.T) {
	for _, family := range []string{"ToolError", "As", "Asset", "X"} {
		if got, ok := HelperFamily(FamilyHelper(family)); !ok || got != family {
			t.Errorf("HelperFamily(FamilyHelper(%q)) = %q, %v", family, got, ok)
		}
	}
	for _, name := range []string{"ToolError", "Xas", "aS"} {
		if got, ok := HelperFamily(name); ok {
			t.Errorf("HelperFamily(%q) = %q, true; it is no helper's name", name, got)
		}
	}
}
