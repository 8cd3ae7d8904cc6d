package agenterr_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
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

func Example_classification() {
	rate := &agenterr.RateLimited{Provider: "anthropic", RetryAfter: 2 * time.Second}
	// Provider errors are wrapped by operator errors, which are wrapped by
	// turn errors, which the caller may wrap again.
	turn := &agenterr.LLMFailed{Cause: &agenterr.ModelCallFailed{Operator: "react_loop", Cause: rate}}
	err := fmt.Errorf("run 42: %w", turn)

	fmt.Println(agenterr.CodeOf(err))      // the outermost catalogue error
	fmt.Println(agenterr.IsRetryable(err)) // taken from the cause, layer by layer
	fmt.Println(agenterr.ClassOf(err))
	wait, ok := agenterr.RetryAfterOf(err)
	fmt.Println(wait, ok)

	// Each layer matches its own family.
	if p, ok := agenterr.AsProviderError(err); ok {
		fmt.Println("provider:", p.Code())
	}
	var rl *agenterr.RateLimited
	fmt.Println(errors.As(err, &rl), rl.Provider)

	fmt.Println(agenterr.UserMessageOf(rate))
	fmt.Println(agenterr.IsRetryable(errors.New("not ours")), agenterr.ClassOf(nil))
	// Output:
	// llm_failed
	// true
	// retryable
	// 2s true
	// provider: rate_limited
	// true anthropic
	// The AI service is handling too many requests right now. Wait a moment, then try again.
	// false unknown
}

func Example_joined() {
	err := errors.Join(errors.New("cleanup failed"), &agenterr.MemoryUnavailable{Operation: "read", Cause: errors.New("database is locked")})
	fmt.Println(agenterr.CodeOf(err), agenterr.ClassOf(err))
	// Output:
	// memory_unavailable non_fatal
}

func ExampleLookup() {
	info, ok := agenterr.Lookup("content_mismatch")
	fmt.Println(ok, info.Num, info.Family, info.Name, info.SuppressRetry)
	info, _ = agenterr.LookupNum(1004)
	fmt.Println(info.Code)
	_, ok = agenterr.LookupNum(2013) // reserved: retired, never resolves
	fmt.Println(ok)
	info, _ = agenterr.LookupHTTPStatus(503)
	fmt.Println(info.Code, info.Retryable)
	fmt.Println(len(agenterr.All()))
	// Output:
	// true 1008 ToolError ContentMismatch true
	// tool_timeout
	// false
	// server_error true
	// 45
}

func ExampleDecodePayload() {
	// A payload from another service that shares the catalogue.
	sent := (&agenterr.ToolUnavailable{Tool: "browser", Reason: "restarting"}).AppendLLMPayload(nil)
	err, _ := agenterr.DecodePayload(sent)
	var tu *agenterr.ToolUnavailable
	fmt.Println(agenterr.CodeOf(err), agenterr.IsRetryable(err), errors.As(err, &tu), tu.Tool)

	// A newer service sends a code this catalogue does not know yet.
	newer := []byte(`{"type":"tool_error","category":"quota","code":"tool_quota","code_num":1010,"error":"quota exhausted","retryable":true,"suppress_retry":false,"quota":"daily"}`)
	err, _ = agenterr.DecodePayload(newer)
	fmt.Println(agenterr.CodeOf(err), agenterr.IsRetryable(err), err.Unwrap() == nil, strings.Contains(string(err.Raw), `"quota":"daily"`))
	// Output:
	// tool_unavailable true true browser
	// tool_quota true true true
}

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
	// Output:
	// {"level":"ERROR","msg":"tool failed","err":{"code":"tool_timeout","num":1004,"category":"timeout","tool":"terminal","seconds":30}}
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
