package toolruntime_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/errgen/errgen/examples/toolruntime"
)

// The tool runtime serialises its payload struct with these keys, in this
// order, leaving out the optional ones that are unset: type, category,
// code, code_num, error, retryable, suppress_retry, suppression_key, tool,
// suggested_tool, suggested_action, required_fields, usage_hint. errgen's
// payload has the same keys in the same order, so the bytes below are
// exactly what the runtime sends for the same error.

func Example() {
	err := &toolruntime.Timeout{Tool: "terminal", Seconds: 30}
	fmt.Println(string(err.AppendLLMPayload(nil)))
	fmt.Println(err.Code(), err.CodeNum(), err.Category(), err.Retryable(), err.SuppressRetry())
	// Output:
	// {"type":"tool_error","category":"timeout","code":"tool_timeout","code_num":1004,"error":"Execution timeout after 30s: terminal","retryable":true,"suppress_retry":false,"tool":"terminal"}
	// tool_timeout 1004 timeout true false
}

// A capability error names its own code and may carry its own suppression
// key, suggested tool and suggested action.
func Example_capabilityDenied() {
	err := &toolruntime.CapabilityDenied{
		Tool:                   "terminal",
		Subcode:                toolruntime.CodeMacosAutomationUnknown,
		Message:                "Automation consent could not be determined.",
		SuggestedTool:          "clarify",
		SuppressionKeyOverride: "terminal:macos_automation_unknown:notes",
		SuggestedAction:        "Open Notes.app, run /permissions bootstrap, then retry.",
	}
	fmt.Println(string(err.AppendLLMPayload(nil)))
	// Output:
	// {"type":"tool_error","category":"capability","code":"macos_automation_unknown","code_num":1007,"error":"Automation consent could not be determined.","retryable":false,"suppress_retry":true,"suppression_key":"terminal:macos_automation_unknown:notes","tool":"terminal","suggested_tool":"clarify","suggested_action":"Open Notes.app, run /permissions bootstrap, then retry."}
}

// The enriched payload: the caller echoes the tool schema's required
// fields and a one-line usage hint.
func Example_enriched() {
	p := (&toolruntime.InvalidArgs{Tool: "write_file", Message: "content is required"}).LLMPayload()
	p.RequiredFields = []string{"path", "content"}
	p.UsageHint = "content must be a non-null string"
	data, _ := json.Marshal(p)
	fmt.Println(string(data))
	// Output:
	// {"type":"tool_error","category":"arguments","code":"invalid_arguments","code_num":1002,"error":"Invalid arguments for write_file: content is required","retryable":false,"suppress_retry":true,"tool":"write_file","required_fields":["path","content"],"usage_hint":"content must be a non-null string"}
}

func ExampleBudgetExhausted() {
	err := &toolruntime.BudgetExhausted{Used: 90, Max: 90}
	recovery, _ := toolruntime.RecoveryOf(err)
	fmt.Println(err)
	fmt.Println(recovery)
	// Output:
	// Budget exhausted: 90/90 iterations
	// break_loop
}

func TestToolErrorPayloadBytes(t *testing.T) {
	tests := []struct {
		name string
		err  toolruntime.ToolError
		want string
	}{
		{
			"not found",
			&toolruntime.NotFound{Name: "nonexistent"},
			`{"type":"tool_error","category":"resolution","code":"tool_not_found","code_num":1001,"error":"Unknown tool: nonexistent","retryable":false,"suppress_retry":false}`,
		},
		{
			"invalid arguments",
			&toolruntime.InvalidArgs{Tool: "read_file", Message: "path is required"},
			`{"type":"tool_error","category":"arguments","code":"invalid_arguments","code_num":1002,"error":"Invalid arguments for read_file: path is required","retryable":false,"suppress_retry":true,"tool":"read_file"}`,
		},
		{
			"unavailable",
			&toolruntime.Unavailable{Tool: "browser", Reason: "backend not running"},
			`{"type":"tool_error","category":"availability","code":"tool_unavailable","code_num":1003,"error":"Tool browser unavailable: backend not running","retryable":true,"suppress_retry":true,"suppression_key":"browser:tool_unavailable","tool":"browser"}`,
		},
		{
			"timeout",
			&toolruntime.Timeout{Tool: "terminal", Seconds: 30},
			`{"type":"tool_error","category":"timeout","code":"tool_timeout","code_num":1004,"error":"Execution timeout after 30s: terminal","retryable":true,"suppress_retry":false,"tool":"terminal"}`,
		},
		{
			"permission denied",
			&toolruntime.PermissionDenied{Message: "/etc/shadow"},
			`{"type":"tool_error","category":"permission","code":"permission_denied","code_num":1005,"error":"Permission denied: /etc/shadow","retryable":false,"suppress_retry":true,"suppression_key":"permission_denied"}`,
		},
		{
			"execution failed",
			&toolruntime.ExecutionFailed{Tool: "terminal", Message: "exit status 1"},
			`{"type":"tool_error","category":"execution","code":"execution_failed","code_num":1006,"error":"Execution failed in terminal: exit status 1","retryable":false,"suppress_retry":false,"tool":"terminal"}`,
		},
		{
			"capability denied, no hints",
			&toolruntime.CapabilityDenied{Tool: "terminal", Subcode: toolruntime.CodeMacosAutomationUnknown, Message: "Automation consent could not be determined."},
			`{"type":"tool_error","category":"capability","code":"macos_automation_unknown","code_num":1007,"error":"Automation consent could not be determined.","retryable":false,"suppress_retry":true,"suppression_key":"terminal:macos_automation_unknown","tool":"terminal"}`,
		},
		{
			"capability denied, every hint",
			&toolruntime.CapabilityDenied{
				Tool: "terminal", Subcode: toolruntime.CodeMacosAutomationUnknown,
				Message:                "Automation consent could not be determined.",
				SuggestedTool:          "clarify",
				SuppressionKeyOverride: "terminal:macos_automation_unknown:notes",
				SuggestedAction:        "Open Notes.app, run /permissions bootstrap, then retry.",
			},
			`{"type":"tool_error","category":"capability","code":"macos_automation_unknown","code_num":1007,"error":"Automation consent could not be determined.","retryable":false,"suppress_retry":true,"suppression_key":"terminal:macos_automation_unknown:notes","tool":"terminal","suggested_tool":"clarify","suggested_action":"Open Notes.app, run /permissions bootstrap, then retry."}`,
		},
		{
			"capability denied under its own code",
			&toolruntime.CapabilityDenied{Tool: "terminal", Message: "denied"},
			`{"type":"tool_error","category":"capability","code":"capability_denied","code_num":1007,"error":"denied","retryable":false,"suppress_retry":true,"suppression_key":"terminal:capability_denied","tool":"terminal"}`,
		},
		{
			"content mismatch",
			&toolruntime.ContentMismatch{Tool: "patch", Path: "src/main.rs", Message: "old_string not found in file"},
			`{"type":"tool_error","category":"content","code":"content_mismatch","code_num":1008,"error":"old_string not found in file","retryable":false,"suppress_retry":true,"suppression_key":"patch:content_mismatch:src/main.rs","tool":"patch"}`,
		},
		{
			"other",
			&toolruntime.Other{Message: "something went wrong"},
			`{"type":"tool_error","category":"other","code":"tool_error","code_num":1099,"error":"something went wrong","retryable":false,"suppress_retry":false}`,
		},
	}
	for _, tt := range tests {
		if got := string(tt.err.AppendLLMPayload(nil)); got != tt.want {
			t.Errorf("%s: AppendLLMPayload =\n  %s\nwant the runtime's bytes\n  %s", tt.name, got, tt.want)
		}
		data, err := json.Marshal(tt.err.LLMPayload())
		if err != nil {
			t.Errorf("%s: json.Marshal(LLMPayload()): %v, want no error", tt.name, err)
		} else if string(data) != tt.want {
			t.Errorf("%s: json.Marshal(LLMPayload()) =\n  %s\nwant the runtime's bytes\n  %s", tt.name, data, tt.want)
		}
	}
}

func TestToolErrorEnrichedPayload(t *testing.T) {
	p := (&toolruntime.InvalidArgs{Tool: "read_file", Message: "path is required"}).LLMPayload()
	p.RequiredFields = []string{"path"}
	p.UsageHint = "content must be a non-null string"
	want := `{"type":"tool_error","category":"arguments","code":"invalid_arguments","code_num":1002,"error":"Invalid arguments for read_file: path is required","retryable":false,"suppress_retry":true,"tool":"read_file","required_fields":["path"],"usage_hint":"content must be a non-null string"}`
	data, err := json.Marshal(p)
	if err != nil || string(data) != want {
		t.Errorf("enriched payload = %s (err %v), want %s", data, err, want)
	}
	// Without enrichment neither key is sent.
	plain := string((&toolruntime.InvalidArgs{Tool: "read_file", Message: "path is required"}).AppendLLMPayload(nil))
	if wantPlain := `{"type":"tool_error","category":"arguments","code":"invalid_arguments","code_num":1002,"error":"Invalid arguments for read_file: path is required","retryable":false,"suppress_retry":true,"tool":"read_file"}`; plain != wantPlain {
		t.Errorf("plain payload = %s, want %s", plain, wantPlain)
	}
}

func TestToolErrorRules(t *testing.T) {
	tests := []struct {
		err                      toolruntime.ToolError
		code                     toolruntime.Code
		num                      int
		category                 toolruntime.Category
		retryable, suppressRetry bool
		class                    toolruntime.Class
		key                      string // suppression key, "" for none
		tool                     string // the payload's tool, "" for none
		message                  string
	}{
		{&toolruntime.NotFound{Name: "nonexistent"}, "tool_not_found", 1001, "resolution", false, false, toolruntime.ClassTerminal, "", "", "Unknown tool: nonexistent"},
		{&toolruntime.InvalidArgs{Tool: "read_file", Message: "path is required"}, "invalid_arguments", 1002, "arguments", false, true, toolruntime.ClassTerminal, "", "read_file", "Invalid arguments for read_file: path is required"},
		{&toolruntime.Unavailable{Tool: "browser", Reason: "backend not running"}, "tool_unavailable", 1003, "availability", true, true, toolruntime.ClassRetryable, "browser:tool_unavailable", "browser", "Tool browser unavailable: backend not running"},
		{&toolruntime.Timeout{Tool: "terminal", Seconds: 30}, "tool_timeout", 1004, "timeout", true, false, toolruntime.ClassRetryable, "", "terminal", "Execution timeout after 30s: terminal"},
		{&toolruntime.PermissionDenied{Message: "/etc/shadow"}, "permission_denied", 1005, "permission", false, true, toolruntime.ClassTerminal, "permission_denied", "", "Permission denied: /etc/shadow"},
		{&toolruntime.ExecutionFailed{Tool: "terminal", Message: "exit status 1"}, "execution_failed", 1006, "execution", false, false, toolruntime.ClassTerminal, "", "terminal", "Execution failed in terminal: exit status 1"},
		{&toolruntime.CapabilityDenied{Tool: "terminal", Message: "Automation consent could not be determined."}, "capability_denied", 1007, "capability", false, true, toolruntime.ClassTerminal, "terminal:capability_denied", "terminal", "Automation consent could not be determined."},
		{&toolruntime.CapabilityDenied{Tool: "terminal", Subcode: toolruntime.CodeMacosAutomationUnknown, Message: "Automation consent could not be determined."}, "macos_automation_unknown", 1007, "capability", false, true, toolruntime.ClassTerminal, "terminal:macos_automation_unknown", "terminal", "Automation consent could not be determined."},
		{&toolruntime.ContentMismatch{Tool: "patch", Path: "src/main.rs", Message: "old_string not found in file"}, "content_mismatch", 1008, "content", false, true, toolruntime.ClassTerminal, "patch:content_mismatch:src/main.rs", "patch", "old_string not found in file"},
		{&toolruntime.ContentMismatch{Tool: "write_file", Path: "README.md", Message: "file changed since it was read"}, "content_mismatch", 1008, "content", false, true, toolruntime.ClassTerminal, "write_file:content_mismatch:README.md", "write_file", "file changed since it was read"},
		{&toolruntime.Other{Message: "something went wrong"}, "tool_error", 1099, "other", false, false, toolruntime.ClassTerminal, "", "", "something went wrong"},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%T", tt.err)
		if got := tt.err.Code(); got != tt.code {
			t.Errorf("%s: Code() = %q, want %q", name, got, tt.code)
		}
		if got := tt.err.CodeNum(); got != tt.num {
			t.Errorf("%s: CodeNum() = %d, want %d", name, got, tt.num)
		}
		if got := tt.err.Category(); got != tt.category {
			t.Errorf("%s: Category() = %q, want %q", name, got, tt.category)
		}
		if got := tt.err.Retryable(); got != tt.retryable {
			t.Errorf("%s: Retryable() = %v, want %v", name, got, tt.retryable)
		}
		if got := tt.err.SuppressRetry(); got != tt.suppressRetry {
			t.Errorf("%s: SuppressRetry() = %v, want %v", name, got, tt.suppressRetry)
		}
		if got := tt.err.Class(); got != tt.class {
			t.Errorf("%s: Class() = %v, want %v", name, got, tt.class)
		}
		if got := tt.err.SuppressionKey(); got != tt.key {
			t.Errorf("%s: SuppressionKey() = %q, want %q", name, got, tt.key)
		}
		if got := tt.err.Error(); got != tt.message {
			t.Errorf("%s: Error() = %q, want %q", name, got, tt.message)
		}
		p := tt.err.LLMPayload()
		if p.Type != "tool_error" {
			t.Errorf("%s: payload type = %q, want tool_error", name, p.Type)
		}
		var tool string
		for _, f := range p.Fields {
			if f.Name == "tool" {
				if err := json.Unmarshal(f.Value, &tool); err != nil {
					t.Errorf("%s: payload tool %s: %v", name, f.Value, err)
				}
			}
		}
		if tool != tt.tool {
			t.Errorf("%s: payload tool = %q, want %q", name, tool, tt.tool)
		}
		if r, ok := toolruntime.RecoveryOf(tt.err); !ok || r != toolruntime.RecoveryReturnToModel {
			t.Errorf("%s: RecoveryOf = %q, %v, want return_to_model: tool errors go back to the model", name, r, ok)
		}
	}
}

func TestCodeNumTable(t *testing.T) {
	want := map[int]toolruntime.Code{
		1001: "tool_not_found", 1002: "invalid_arguments", 1003: "tool_unavailable",
		1004: "tool_timeout", 1005: "permission_denied", 1006: "execution_failed",
		1007: "capability_denied", 1008: "content_mismatch", 1099: "tool_error",
	}
	names := map[int]string{
		1001: "NotFound", 1002: "InvalidArgs", 1003: "Unavailable", 1004: "Timeout",
		1005: "PermissionDenied", 1006: "ExecutionFailed", 1007: "CapabilityDenied",
		1008: "ContentMismatch", 1099: "Other",
	}
	for num, code := range want {
		info, ok := toolruntime.LookupNum(num)
		if !ok || info.Code != code || info.Name != names[num] || info.Family != "ToolError" {
			t.Errorf("LookupNum(%d) = %s %s %s %v, want ToolError %s %s", num, info.Family, info.Name, info.Code, ok, names[num], code)
		}
		back, ok := toolruntime.Lookup(code)
		if !ok || back.Num != num {
			t.Errorf("Lookup(%q).Num = %d (%v), want %d", code, back.Num, ok, num)
		}
	}
	var tools int
	for _, info := range toolruntime.All() {
		if info.Family == "ToolError" {
			tools++
			if _, ok := want[info.Num]; !ok {
				t.Errorf("ToolError has num %d (%s), which the runtime's table does not list", info.Num, info.Code)
			}
		}
	}
	if tools != len(want) {
		t.Errorf("ToolError has %d variants, want %d", tools, len(want))
	}
	// The sub-code resolves to the capability variant and its num.
	if info, ok := toolruntime.Lookup("macos_automation_unknown"); !ok || info.Num != 1007 {
		t.Errorf("Lookup(macos_automation_unknown) = %d, %v, want 1007", info.Num, ok)
	}
}

func TestCapabilityHints(t *testing.T) {
	base := toolruntime.CapabilityDenied{Tool: "terminal", Subcode: toolruntime.CodeMacosAutomationUnknown, Message: "Automation consent could not be determined."}

	plain := base
	p := plain.LLMPayload()
	if p.SuggestedTool != "" || p.SuggestedAction != "" {
		t.Errorf("without hints: suggested_tool %q, suggested_action %q, want both unset", p.SuggestedTool, p.SuggestedAction)
	}
	if got := plain.SuppressionKey(); got != "terminal:macos_automation_unknown" {
		t.Errorf("without an override: SuppressionKey() = %q, want the default {tool}:{code}, terminal:macos_automation_unknown", got)
	}

	hinted := base
	hinted.SuggestedTool = "clarify"
	hinted.SuppressionKeyOverride = "terminal:macos_automation_unknown:notes"
	hinted.SuggestedAction = "Open Notes.app, run /permissions bootstrap, then retry."
	p = hinted.LLMPayload()
	if p.SuggestedTool != "clarify" {
		t.Errorf("suggested_tool = %q, want clarify", p.SuggestedTool)
	}
	if p.SuggestedAction != "Open Notes.app, run /permissions bootstrap, then retry." {
		t.Errorf("suggested_action = %q, want the instance's", p.SuggestedAction)
	}
	if got := hinted.SuppressionKey(); got != "terminal:macos_automation_unknown:notes" {
		t.Errorf("SuppressionKey() = %q, want the override terminal:macos_automation_unknown:notes", got)
	}
	if p.SuppressionKey != "terminal:macos_automation_unknown:notes" {
		t.Errorf("payload suppression_key = %q, want the override", p.SuppressionKey)
	}

	// The capability error is found by its variant's code whatever code it
	// reports, and the payload comes back as the same error.
	err := fmt.Errorf("run: %w", &hinted)
	if !toolruntime.HasCode(err, toolruntime.CodeCapabilityDenied) || !errors.Is(err, &toolruntime.CapabilityDenied{}) {
		t.Errorf("HasCode/errors.Is(capability_denied) = false, want true for an instance with a sub-code")
	}
	remote, derr := toolruntime.DecodePayload(hinted.AppendLLMPayload(nil))
	var back *toolruntime.CapabilityDenied
	if derr != nil || !errors.As(remote, &back) {
		t.Fatalf("DecodePayload: %v, want a *CapabilityDenied", derr)
	}
	if back.Subcode != toolruntime.CodeMacosAutomationUnknown || back.SuggestedTool != "clarify" || back.SuppressionKeyOverride != hinted.SuppressionKeyOverride || back.SuggestedAction != hinted.SuggestedAction || back.Tool != "terminal" {
		t.Errorf("decoded %+v, want the sub-code and every hint back", *back)
	}
}

// Hints exist on the capability variant only: the runtime's builder methods
// leave every other variant unchanged.
func TestHintsOnlyOnCapability(t *testing.T) {
	for _, info := range toolruntime.All() {
		if info.Family != "ToolError" {
			continue
		}
		if info.SuggestedTool != "" || info.SuggestedAction != "" || info.UsageHint != "" || len(info.RequiredFields) != 0 {
			t.Errorf("%s has static hints %+v, want none: the runtime sets hints per instance", info.Code, info)
		}
	}
}

func TestAgentError(t *testing.T) {
	tests := []struct {
		err       toolruntime.AgentError
		code      toolruntime.Code
		num       int
		message   string
		retryable bool
		recovery  toolruntime.Recovery
	}{
		{&toolruntime.LLM{Message: "upstream returned 500"}, "llm_error", 2001, "LLM API error: upstream returned 500", false, toolruntime.RecoveryPropagate},
		{&toolruntime.ToolExecution{Tool: "terminal", Message: "exit status 2"}, "tool_execution_failed", 2002, "Tool execution failed: terminal — exit status 2", false, toolruntime.RecoveryReturnToModel},
		{&toolruntime.ContextLimit{Used: 131072, Limit: 128000}, "context_limit_exceeded", 2003, "Context limit exceeded: 131072/128000 tokens", false, toolruntime.RecoveryPropagate},
		{&toolruntime.BudgetExhausted{Used: 90, Max: 90}, "budget_exhausted", 2004, "Budget exhausted: 90/90 iterations", false, toolruntime.RecoveryBreakLoop},
		{&toolruntime.Interrupted{}, "interrupted", 2005, "Interrupted by user", false, toolruntime.RecoveryBreakLoop},
		{&toolruntime.Config{Message: "missing api_key"}, "config_error", 2006, "Configuration error: missing api_key", false, toolruntime.RecoveryPropagate},
		{&toolruntime.Database{Message: "database is locked"}, "database_error", 2007, "Database error: database is locked", false, toolruntime.RecoveryPropagate},
		{&toolruntime.IO{Cause: errors.New("file not found")}, "io_error", 2008, "IO error: file not found", false, toolruntime.RecoveryPropagate},
		{&toolruntime.Serde{Cause: errors.New("expected value at line 1 column 1")}, "serialization_error", 2009, "Serialization error: expected value at line 1 column 1", false, toolruntime.RecoveryPropagate},
		{&toolruntime.RateLimited{Provider: "openai", RetryAfterMs: 1500 * time.Millisecond}, "rate_limited", 2010, "Provider rate limited: retry after 1500ms", true, toolruntime.RecoveryBackoff},
		{&toolruntime.CompressionFailed{Message: "summary model unavailable"}, "compression_failed", 2011, "Context compression failed: summary model unavailable", false, toolruntime.RecoveryPropagate},
		{&toolruntime.APIRefusal{Message: "content policy"}, "api_refusal", 2012, "API refusal: content policy", false, toolruntime.RecoveryPropagate},
		{&toolruntime.MalformedToolCall{Message: "arguments are not valid JSON"}, "malformed_tool_call", 2013, "Malformed tool call from LLM: arguments are not valid JSON", false, toolruntime.RecoveryPropagate},
		{&toolruntime.Plugin{Plugin: "git", Message: "hook crashed"}, "plugin_error", 2014, "Plugin error in git: hook crashed", false, toolruntime.RecoveryPropagate},
		{&toolruntime.GatewayDelivery{Platform: "telegram", Message: "chat not found"}, "gateway_delivery_failed", 2015, "Gateway delivery failed to telegram: chat not found", false, toolruntime.RecoveryPropagate},
		{&toolruntime.Migration{Message: "version 7 failed"}, "migration_error", 2016, "Migration error: version 7 failed", false, toolruntime.RecoveryPropagate},
		{&toolruntime.Security{Message: "path escapes the workspace"}, "security_violation", 2017, "Security violation: path escapes the workspace", false, toolruntime.RecoveryPropagate},
		{&toolruntime.Validation{Message: "empty prompt"}, "validation_error", 2018, "Validation error: empty prompt", false, toolruntime.RecoveryPropagate},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%T", tt.err)
		if got := tt.err.Error(); got != tt.message {
			t.Errorf("%s: Error() = %q, want %q", name, got, tt.message)
		}
		if tt.err.Code() != tt.code || tt.err.CodeNum() != tt.num {
			t.Errorf("%s: code %s/%d, want %s/%d", name, tt.err.Code(), tt.err.CodeNum(), tt.code, tt.num)
		}
		if got := tt.err.Retryable(); got != tt.retryable {
			t.Errorf("%s: Retryable() = %v, want %v", name, got, tt.retryable)
		}
		if got, ok := toolruntime.RecoveryOf(fmt.Errorf("loop: %w", tt.err)); !ok || got != tt.recovery {
			t.Errorf("%s: RecoveryOf = %q (%v), want %q", name, got, ok, tt.recovery)
		}
	}
	if n := len(tests); n != 18 {
		t.Errorf("AgentError table has %d variants, want the runtime's 18", n)
	}
}

// The I/O and JSON variants are built from the error they wrap, which
// stays reachable.
func TestAgentErrorFromCauses(t *testing.T) {
	ioErr := errors.New("file not found")
	err := error(&toolruntime.IO{Cause: ioErr})
	if !errors.Is(err, ioErr) {
		t.Errorf("errors.Is(IO, cause) = false, want true")
	}
	var jsonErr error = json.Unmarshal([]byte("bad json"), new(any))
	serde := &toolruntime.Serde{Cause: jsonErr}
	if want := "Serialization error: " + jsonErr.Error(); serde.Error() != want {
		t.Errorf("Serde.Error() = %q, want %q", serde.Error(), want)
	}
	var syntax *json.SyntaxError
	if !errors.As(serde, &syntax) {
		t.Errorf("errors.As(Serde, *json.SyntaxError) = false, want the wrapped JSON error")
	}
}

func TestRateLimitedBackoff(t *testing.T) {
	err := fmt.Errorf("turn 4: %w", &toolruntime.RateLimited{Provider: "openai", RetryAfterMs: 1500 * time.Millisecond})
	if !toolruntime.IsRetryable(err) || toolruntime.ClassOf(err) != toolruntime.ClassRetryable {
		t.Errorf("rate limit: IsRetryable %v, class %v, want retryable", toolruntime.IsRetryable(err), toolruntime.ClassOf(err))
	}
	if d, ok := toolruntime.RetryAfterOf(err); !ok || d != 1500*time.Millisecond {
		t.Errorf("RetryAfterOf = %v, %v, want 1.5s", d, ok)
	}
	wire, _ := json.Marshal(&toolruntime.RateLimited{Provider: "openai", RetryAfterMs: 1500 * time.Millisecond})
	want := `{"category":"rate_limit","code":"rate_limited","code_num":2010,"error":"Provider rate limited: retry after 1500ms","retryable":true,"suppress_retry":false,"provider":"openai","retry_after_ms":1500}`
	if string(wire) != want {
		t.Errorf("wire form = %s, want %s", wire, want)
	}
}

// Where the runtime's bytes and errgen's differ, these pin what errgen
// produces (docs/examples/toolruntime.md, "Not expressed").
func TestWhereBytesDiffer(t *testing.T) {
	// A capability code the catalogue does not declare falls back to the
	// variant's code; the runtime would send "sandbox_unavailable".
	c := &toolruntime.CapabilityDenied{Tool: "terminal", Subcode: "sandbox_unavailable", Message: "no sandbox"}
	if c.Code() != toolruntime.CodeCapabilityDenied || c.SuppressionKey() != "terminal:capability_denied" {
		t.Errorf("undeclared sub-code: Code %q key %q, want capability_denied and terminal:capability_denied", c.Code(), c.SuppressionKey())
	}
	// An empty tool is left out; the runtime sends "tool":"".
	if got, want := string((&toolruntime.Timeout{Seconds: 5}).AppendLLMPayload(nil)), `{"type":"tool_error","category":"timeout","code":"tool_timeout","code_num":1004,"error":"Execution timeout after 5s: ","retryable":true,"suppress_retry":false}`; got != want {
		t.Errorf("empty tool: %s, want %s", got, want)
	}
	// HTML characters and U+2028 are escaped as encoding/json escapes them;
	// the runtime's serializer writes them as they are.
	if got, want := string((&toolruntime.Other{Message: "a<b>&\u2028"}).AppendLLMPayload(nil)), `{"type":"tool_error","category":"other","code":"tool_error","code_num":1099,"error":"a\u003cb\u003e\u0026\u2028","retryable":false,"suppress_retry":false}`; got != want {
		t.Errorf("escaping: %s, want %s", got, want)
	}
	// An empty override means "no override", and an empty required_fields
	// is left out; the runtime sends "suppression_key":"" and "required_fields":[].
	e := &toolruntime.CapabilityDenied{Tool: "terminal", Message: "m"}
	p := e.LLMPayload()
	p.RequiredFields = []string{}
	data, _ := json.Marshal(p)
	if want := `{"type":"tool_error","category":"capability","code":"capability_denied","code_num":1007,"error":"m","retryable":false,"suppress_retry":true,"suppression_key":"terminal:capability_denied","tool":"terminal"}`; string(data) != want {
		t.Errorf("empty override and required_fields: %s, want %s", data, want)
	}
}
