package agenterr_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/errgen/errgen/examples/agenterr"
)

// These examples use the generated package from outside, as an agent
// repository would: every API point a caller relies on appears here, and
// `go test` checks their output.

func Example() {
	err := &agenterr.ToolTimeout{Tool: "terminal", Seconds: 30}
	fmt.Println(err)
	fmt.Println(err.Code(), err.CodeNum(), err.Category())
	fmt.Println(err.Retryable(), err.SuppressRetry(), err.Class())
	fmt.Printf("%q\n", err.SuppressionKey()) // timeouts are not grouped

	// Repeats of an unavailable tool are keyed by tool, so the agent can
	// stop offering it to the model after the first failure.
	down := &agenterr.ToolUnavailable{Tool: "browser", Reason: "restarting"}
	fmt.Println(down.SuppressionKey(), down.SuppressRetry())
	// Output:
	// Execution timeout after 30s: terminal
	// tool_timeout 1004 timeout
	// true false retryable
	// ""
	// browser:tool_unavailable true
}

func Example_payload() {
	err := &agenterr.InvalidArguments{Tool: "read_file", Message: "path is required"}
	p := err.LLMPayload()
	// Enrich the payload with the tool's schema before the model sees it.
	p.RequiredFields = []string{"path"}
	p.UsageHint = "path must be a non-empty string"
	data, _ := json.Marshal(p)
	fmt.Println(string(data))

	// The same bytes, appended to a reused buffer without allocating.
	buf := err.AppendLLMPayload(make([]byte, 0, 512))
	fmt.Println(json.Valid(buf))
	// Output:
	// {"type":"tool_error","category":"arguments","code":"invalid_arguments","code_num":1002,"error":"Invalid arguments for read_file: path is required","retryable":false,"suppress_retry":true,"tool":"read_file","required_fields":["path"],"usage_hint":"path must be a non-empty string"}
	// true
}

// The user message never shows technical text: a wrapper without one of
// its own shows its cause's, and an error nothing speaks for shows the
// catalogue's default.
func Example_userMessage() {
	rate := &agenterr.RateLimited{Provider: "anthropic", RetryAfter: 2 * time.Second}
	fmt.Println(agenterr.UserMessageOf(rate))
	fmt.Println(agenterr.UserMessageOf(fmt.Errorf("run 42: %w", &agenterr.ModelCallFailed{Cause: rate})))
	fmt.Println(agenterr.UserMessageOf(&agenterr.ContextAssemblyFailed{Message: "nil map write at context.go:212"}))
	// Output:
	// The AI service is handling too many requests right now. Wait a moment, then try again.
	// The AI service is handling too many requests right now. Wait a moment, then try again.
	// Something went wrong on our side (context_assembly_failed). Please try again.
}

func Example_classification() {
	rate := &agenterr.RateLimited{Provider: "anthropic", RetryAfter: 2 * time.Second}
	// Provider errors are wrapped by operator errors, which are wrapped by
	// turn errors, which the caller may wrap again.
	turn := &agenterr.LLMFailed{Cause: &agenterr.ModelCallFailed{Operator: "react_loop", Cause: rate}}
	err := fmt.Errorf("run 42: %w", turn)

	fmt.Println(agenterr.CodeOf(err))      // the outermost catalogue error
	fmt.Println(agenterr.RootCodeOf(err))  // the innermost
	fmt.Println(agenterr.IsRetryable(err)) // taken from the cause, layer by layer
	fmt.Println(agenterr.ClassOf(err))
	wait, ok := agenterr.RetryAfterOf(err)
	fmt.Println(wait, ok)

	// Every catalogue error of the chain, outermost first.
	var codes []string
	for e := range agenterr.Chain(err) {
		codes = append(codes, e.Code().String())
	}
	fmt.Println(strings.Join(codes, " "))

	// Each layer matches its own family.
	if p, ok := agenterr.AsProviderError(err); ok {
		fmt.Println("provider:", p.Code())
	}
	var rl *agenterr.RateLimited
	fmt.Println(errors.As(err, &rl), rl.Provider)
	fmt.Println(agenterr.IsRetryable(errors.New("not ours")), agenterr.ClassOf(nil))
	// Output:
	// llm_failed
	// rate_limited
	// true
	// retryable
	// 2s true
	// llm_failed model_call_failed rate_limited
	// provider: rate_limited
	// true anthropic
	// false unknown
}

// Codes are typed constants, so a typo does not compile; errors.Is matches
// a variant by its code.
func Example_codes() {
	err := fmt.Errorf("step 3: %w", &agenterr.ModelCallFailed{Cause: &agenterr.AuthFailed{Provider: "openai"}})
	fmt.Println(agenterr.CodeOf(err) == agenterr.CodeModelCallFailed)
	fmt.Println(agenterr.HasCode(err, agenterr.CodeAuthFailed), agenterr.HasCode(err, agenterr.CodeRateLimited))
	fmt.Println(errors.Is(err, &agenterr.AuthFailed{}), errors.Is(err, &agenterr.RateLimited{}))
	switch agenterr.RootCodeOf(err) {
	case agenterr.CodeAuthFailed:
		fmt.Println("ask for a new API key")
	}
	// Output:
	// true
	// true false
	// true false
	// ask for a new API key
}

func Example_joined() {
	err := errors.Join(errors.New("cleanup failed"), &agenterr.MemoryUnavailable{Operation: "read", Cause: errors.New("database is locked")})
	fmt.Println(agenterr.CodeOf(err), agenterr.ClassOf(err))
	// Output:
	// memory_unavailable non_fatal
}

func ExampleLookup() {
	info, ok := agenterr.Lookup(agenterr.CodeContentMismatch)
	fmt.Println(ok, info.Num, info.Family, info.Name, info.SuppressRetry)
	info, _ = agenterr.LookupNum(1004)
	fmt.Println(info.Code)
	_, ok = agenterr.LookupNum(2013) // reserved: retired, never resolves
	fmt.Println(ok)
	fmt.Println(len(agenterr.All()))
	data, _ := json.Marshal(info)
	fmt.Println(string(data))
	// Output:
	// true 1008 ToolError ContentMismatch true
	// tool_timeout
	// false
	// 45
	// {"name":"ToolTimeout","family":"ToolError","code":"tool_timeout","num":1004,"category":"timeout","class":"retryable","retryable":true,"retryable_from_cause":false,"suppress_retry":false,"configurable":false,"payload_type":"tool_error","message":"Execution timeout after {seconds}s: {tool}","doc":"The tool did not finish within its time limit."}
}

// An HTTP response becomes the catalogue error that stands for its status,
// with the provider's Retry-After, and the status in its http_status field.
func ExampleFromHTTP() {
	header := http.Header{}
	header.Set("Retry-After", "7")
	err, _ := agenterr.FromHTTP(http.StatusTooManyRequests, header)
	wait, _ := agenterr.RetryAfterOf(err)
	fmt.Println(err.Code(), err.Retryable(), wait)
	err, _ = agenterr.FromHTTP(http.StatusBadGateway, nil) // covered by "5xx"
	fmt.Println(err.Code(), err.(*agenterr.ServerError).Status)
	info, _ := agenterr.LookupHTTPStatus(404)
	fmt.Println(info.Code)
	// Output:
	// rate_limited true 7s
	// server_error 502
	// model_not_found
}

// Any catalogue error crosses a service boundary: json.Marshal writes its
// wire form, its causes nested, and DecodePayload restores the exact
// variants in the other service.
func ExampleDecodePayload() {
	sent, _ := json.Marshal(&agenterr.ModelCallFailed{Operator: "react_loop", Cause: &agenterr.RateLimited{Provider: "anthropic", RetryAfter: 1500 * time.Millisecond}})
	fmt.Println(string(sent))

	remote, _ := agenterr.DecodePayload(sent)
	var mc *agenterr.ModelCallFailed
	fmt.Println(errors.As(remote, &mc), mc.Operator, agenterr.RootCodeOf(remote))
	wait, _ := agenterr.RetryAfterOf(remote)
	fmt.Println(wait)
	// The decoded error stands as the cause of a local one.
	local := &agenterr.LLMFailed{Cause: mc}
	fmt.Println(agenterr.IsRetryable(local))

	// A newer service sends a code this catalogue does not know yet.
	newer := []byte(`{"type":"tool_error","category":"quota","code":"tool_quota","code_num":1010,"error":"quota exhausted","retryable":true,"suppress_retry":false,"quota":"daily"}`)
	remote, _ = agenterr.DecodePayload(newer)
	fmt.Println(agenterr.CodeOf(remote), agenterr.IsRetryable(remote), remote.Unwrap() == nil, strings.Contains(string(remote.Raw), `"quota":"daily"`))

	// A known code with another number means the services disagree.
	_, err := agenterr.DecodePayload([]byte(`{"category":"rate_limit","code":"rate_limited","code_num":2999,"error":"x","retryable":true,"suppress_retry":false}`))
	fmt.Println(err)
	// Output:
	// {"category":"model","code":"model_call_failed","code_num":3001,"error":"model call failed in operator react_loop: provider anthropic rate limited the request; retry after 1500ms","retryable":true,"suppress_retry":false,"operator":"react_loop","cause":{"category":"rate_limit","code":"rate_limited","code_num":2001,"error":"provider anthropic rate limited the request; retry after 1500ms","retryable":true,"suppress_retry":false,"provider":"anthropic","retry_after":1500}}
	// true react_loop rate_limited
	// 1.5s
	// true
	// tool_quota true true true
	// agenterr: code "rate_limited" has code_num 2999 in the payload, but 2001 in this catalogue
}

// Every variant logs as a group with its text, code, class and fields;
// LogAttr finds the catalogue error inside any wrap.
func Example_slog() {
	logger := slog.New(slog.NewJSONHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	logger.Error("tool failed", "err", &agenterr.ToolTimeout{Tool: "terminal", Seconds: 30})
	logger.Error("turn failed", agenterr.LogAttr(fmt.Errorf("turn 3: %w", &agenterr.ToolNotFound{Name: "web.search2"})))
	// Output:
	// {"level":"ERROR","msg":"tool failed","err":{"error":"Execution timeout after 30s: terminal","code":"tool_timeout","num":1004,"category":"timeout","class":"retryable","retryable":true,"tool":"terminal","seconds":30}}
	// {"level":"ERROR","msg":"turn failed","error":{"error":"turn 3: Unknown tool: web.search2 (available: )","code":"tool_not_found","num":1001,"category":"resolution","class":"terminal","retryable":false,"name":"web.search2","available":null}}
}

func ExamplePayload_AppendJSON() {
	// Payloads are valid JSON for any text, exactly as encoding/json writes it.
	err := &agenterr.ContentMismatch{Tool: "patch", Path: "a<b>&\u2028.go", Message: "old_string \"x\" not found"}
	var buf bytes.Buffer
	buf.Write(err.AppendLLMPayload(nil))
	fmt.Println(json.Valid(buf.Bytes()), strings.Contains(buf.String(), `a\u003cb\u003e\u0026\u2028.go`))
	// Output:
	// true true
}

// A variant with sub-codes carries one num and several codes: an instance
// selects its sub-code, which its payload and Code report; errors.Is and
// HasCode still find it by the variant's code.
func Example_subcodes() {
	err := fmt.Errorf("open terminal: %w", &agenterr.CapabilityDenied{
		Tool: "terminal", Capability: "automation", Message: "consent not determined",
		Subcode: agenterr.CodeMacosAutomationUnknown,
	})
	te, _ := agenterr.AsToolError(err)
	fmt.Println(agenterr.CodeOf(err), errors.Is(err, &agenterr.CapabilityDenied{}), agenterr.HasCode(err, agenterr.CodeCapabilityDenied))
	fmt.Println(string(te.AppendLLMPayload(nil)))
	in, _ := agenterr.Lookup(agenterr.CodeMacosAutomationUnknown)
	fmt.Println(in.Code, in.Num)
	// Output:
	// macos_automation_unknown true true
	// {"type":"tool_error","category":"capability","code":"macos_automation_unknown","code_num":1007,"error":"Capability automation denied for terminal: consent not determined","retryable":false,"suppress_retry":true,"suppression_key":"terminal:macos_automation_unknown","tool":"terminal","suggested_tool":"clarify","suggested_action":"Ask the user to grant the missing permission in the system settings, then retry once."}
	// capability_denied 1007
}

// An instance may override the hints its variant lets it: the payload and
// SuppressionKey use them, and fall back to the catalogue's otherwise.
func Example_instanceHints() {
	e := &agenterr.CapabilityDenied{
		Tool: "terminal", Capability: "automation",
		SuggestedTool: "open_settings", SuppressionKeyOverride: "macos:automation",
	}
	p := e.LLMPayload()
	fmt.Println(p.SuggestedTool, "|", p.SuggestedAction)
	fmt.Println(e.SuppressionKey())
	// Output:
	// open_settings | Ask the user to grant the missing permission in the system settings, then retry once.
	// macos:automation
}

// A variant's required_fields start the payload's; the caller may still
// replace them.
func Example_requiredFields() {
	p := (&agenterr.ContentMismatch{Tool: "patch", Path: "src/main.rs"}).LLMPayload()
	fmt.Println(p.RequiredFields)
	p.RequiredFields = []string{"path", "patch"}
	fmt.Println(p.RequiredFields)
	// Output:
	// [path old_string new_string]
	// [path patch]
}

// A deployment sets the class of the catalogue's configurable variants once
// at start-up; codes that are not configurable are refused.
func ExampleSetClassPolicy() {
	defer agenterr.SetClassPolicy(nil)
	err := &agenterr.PolicyDenied{Tool: "shell.exec", Policy: "no-network"}
	fmt.Println(agenterr.ClassOf(err))
	if err := agenterr.SetClassPolicy(agenterr.ClassPolicy{agenterr.CodePolicyDenied: agenterr.ClassTerminal}); err != nil {
		fmt.Println(err)
	}
	fmt.Println(agenterr.ClassOf(err))
	fmt.Println(agenterr.SetClassPolicy(agenterr.ClassPolicy{agenterr.CodeToolTimeout: agenterr.ClassTerminal}))
	fmt.Println(agenterr.ClassOf(err))
	// Output:
	// non_fatal
	// terminal
	// agenterr: class policy: "tool_timeout" is not configurable; its class is retryable
	// terminal
}

// The catalogue's own attributes are typed lookups through any wrapping.
func ExampleTurnHandlingOf() {
	for _, err := range []error{
		fmt.Errorf("step: %w", &agenterr.ToolTimeout{Tool: "web.search"}),
		&agenterr.MemoryUnavailable{},
		&agenterr.TelemetryExportFailed{},
		&agenterr.RateLimited{},
		errors.New("not a catalogue error"),
	} {
		handling, ok := agenterr.TurnHandlingOf(err)
		layer, _ := agenterr.LayerOf(err)
		fmt.Printf("%q %q %v\n", handling, layer, ok)
	}
	// Output:
	// "return_to_model" "tool" true
	// "log_and_degrade" "agent" true
	// "silent" "agent" true
	// "propagate" "model" true
	// "" "" false
}

// ExampleRetryDelay: a transient provider failure is retried with the
// designs' backoff, a provider's retry-after replaces it, and an error of
// a family without a policy, or a permanent one, is not retried.
func ExampleRetryDelay() {
	half := func() float64 { return 0.5 } // no jitter
	server := &agenterr.ServerError{Provider: "openai", Status: 503}
	p, _ := agenterr.RetryPolicyOf(server)
	for failures := 1; failures <= 4; failures++ {
		d, ok := p.Delay(server, failures, half)
		fmt.Println(failures, d, ok)
	}
	limited := fmt.Errorf("turn 3: %w", &agenterr.RateLimited{Provider: "openai", RetryAfter: 30 * time.Second})
	d, ok := agenterr.RetryDelay(limited, 1)
	fmt.Println(d, ok)
	_, ok = agenterr.RetryDelay(&agenterr.AuthFailed{Provider: "openai"}, 1)
	fmt.Println(ok)
	_, ok = agenterr.RetryDelay(&agenterr.QueuePushFailed{Queue: "runs"}, 1)
	fmt.Println(ok)
	_, ok = agenterr.RetryPolicyOf(&agenterr.ToolTimeout{Tool: "web.search"})
	fmt.Println(ok)
	// Output:
	// 1 1s true
	// 2 2s true
	// 3 4s true
	// 4 0s false
	// 30s true
	// false
	// true
	// false
}

// ExampleClassOf: the classes the designs give tool failures. A validation
// error and a policy denial go back to the model and the run carries on
// (non-fatal); a tool that is down is retried.
func ExampleClassOf() {
	for _, err := range []error{
		&agenterr.InvalidArguments{Tool: "read_file", Message: "path is required"},
		&agenterr.PolicyDenied{},
		&agenterr.ToolUnavailable{Tool: "web.search"},
	} {
		fmt.Println(agenterr.CodeOf(err), agenterr.ClassOf(err))
	}
	// Output:
	// invalid_arguments non_fatal
	// policy_denied non_fatal
	// tool_unavailable retryable
}
