package runpolicy_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/errgen/errgen/examples/runpolicy"
)

// The classification of the run policy, one row per failure, by source.
// The class names are the policy's: retryable, terminal, non-fatal,
// configurable (the deployment decides; terminal by default) and terminal
// with fallback.
type row struct {
	source string // the family: llm, tool, subagent, infrastructure, budget
	err    runpolicy.Error
	class  runpolicy.Class // the class before any class policy is set
	// configurable: the deployment's class policy decides the class.
	configurable bool
	// fallback: terminal for the call, but a fallback may serve it.
	fallback bool
	// returned: the failure goes back to the model as the tool result.
	returned bool
	// silent: non-fatal without a logged warning.
	silent bool
}

func matrix() []row {
	const (
		retryable = runpolicy.ClassRetryable
		terminal  = runpolicy.ClassTerminal
		nonFatal  = runpolicy.ClassNonFatal
	)
	return []row{
		// Model provider failures.
		{source: "llm", err: &runpolicy.RateLimited{RetryAfter: 2 * time.Second}, class: retryable},
		{source: "llm", err: &runpolicy.ServerError{Status: 500, Message: "Internal server error"}, class: retryable},
		{source: "llm", err: &runpolicy.ServerError{Status: 502}, class: retryable},
		{source: "llm", err: &runpolicy.ServerError{Status: 503}, class: retryable},
		{source: "llm", err: &runpolicy.LLMTimeout{Timeout: 60 * time.Second}, class: retryable},
		{source: "llm", err: &runpolicy.AuthError{Status: 401, Message: "Invalid API key"}, class: terminal},
		{source: "llm", err: &runpolicy.AuthError{Status: 403}, class: terminal},
		{source: "llm", err: &runpolicy.InvalidRequest{Message: "Model does not exist"}, class: terminal},
		{source: "llm", err: &runpolicy.CircuitOpen{Provider: "openai"}, class: terminal, fallback: true},
		// Tool failures.
		{source: "tool", err: &runpolicy.ValidationError{Tool: "read_file", Message: "path is required"}, class: nonFatal, returned: true},
		{source: "tool", err: &runpolicy.HandlerException{Tool: "http.fetch", Cause: errors.New("boom")}, class: terminal, configurable: true},
		{source: "tool", err: &runpolicy.ToolTimeout{Tool: "terminal", Timeout: 10 * time.Second}, class: terminal, configurable: true},
		{source: "tool", err: &runpolicy.PolicyDenied{Action: "shell.exec", Policy: "no-network"}, class: nonFatal, returned: true},
		// Subagent failures.
		{source: "subagent", err: &runpolicy.SubagentFailed{Subagent: "researcher", State: "failed"}, class: terminal, configurable: true},
		{source: "subagent", err: &runpolicy.SubagentTimeout{Subagent: "researcher", WallTime: 5 * time.Minute}, class: terminal, configurable: true},
		{source: "subagent", err: &runpolicy.JoinPolicyViolation{Subagent: "researcher", Policy: "all_required"}, class: terminal},
		// Infrastructure failures.
		{source: "infrastructure", err: &runpolicy.MemoryUnavailable{Message: "could not persist checkpoint"}, class: nonFatal},
		{source: "infrastructure", err: &runpolicy.TelemetryExportFailed{Exporter: "otel", Cause: errors.New("exporter timed out")}, class: nonFatal, silent: true},
		{source: "infrastructure", err: &runpolicy.QueuePushFailed{Queue: "runs", Cause: errors.New("redis connection refused")}, class: retryable},
		// Budget limits stop the run at once.
		{source: "budget", err: &runpolicy.MaxStepsExceeded{Steps: 51, Max: 50}, class: terminal},
		{source: "budget", err: &runpolicy.MaxToolCallsExceeded{Calls: 201, Max: 200}, class: terminal},
		{source: "budget", err: &runpolicy.MaxCostExceeded{CostUsd: 5.12, MaxUsd: 5}, class: terminal},
		{source: "budget", err: &runpolicy.MaxWallTimeExceeded{Elapsed: 601 * time.Second, Max: 10 * time.Minute}, class: terminal},
	}
}

// sourceOf names the family of the outermost catalogue error in err.
func sourceOf(err error) string {
	if _, ok := runpolicy.AsLLMError(err); ok {
		return "llm"
	}
	if _, ok := runpolicy.AsToolError(err); ok {
		return "tool"
	}
	if _, ok := runpolicy.AsSubagentError(err); ok {
		return "subagent"
	}
	if _, ok := runpolicy.AsInfraError(err); ok {
		return "infrastructure"
	}
	if _, ok := runpolicy.AsBudgetError(err); ok {
		return "budget"
	}
	return ""
}

func TestClassificationMatrix(t *testing.T) {
	for _, r := range matrix() {
		code := r.err.Code()
		// The caller usually sees the error wrapped.
		wrapped := fmt.Errorf("run 42: %w", r.err)
		if got := sourceOf(wrapped); got != r.source {
			t.Errorf("%s: failure source %q, want %q", code, got, r.source)
		}
		if got := r.err.Class(); got != r.class {
			t.Errorf("%s: Class() = %s, want %s", code, got, r.class)
		}
		if got := runpolicy.ClassOf(wrapped); got != r.class {
			t.Errorf("%s: ClassOf(wrapped) = %s, want %s", code, got, r.class)
		}
		if got, want := runpolicy.IsRetryable(wrapped), r.class == runpolicy.ClassRetryable; got != want {
			t.Errorf("%s: IsRetryable = %v, want %v (class %s)", code, got, want, r.class)
		}
		info, ok := runpolicy.Lookup(code)
		if !ok {
			t.Fatalf("%s: Lookup found nothing", code)
		}
		if info.Class != r.class || info.Configurable != r.configurable {
			t.Errorf("%s: catalogue entry class %s configurable %v, want class %s configurable %v", code, info.Class, info.Configurable, r.class, r.configurable)
		}
		if got, _ := runpolicy.FallbackOf(wrapped); got != r.fallback {
			t.Errorf("%s: FallbackOf = %v, want %v", code, got, r.fallback)
		}
		if got, _ := runpolicy.ReturnedToModelOf(wrapped); got != r.returned {
			t.Errorf("%s: ReturnedToModelOf = %v, want %v", code, got, r.returned)
		}
		if got, _ := runpolicy.SilentOf(wrapped); got != r.silent {
			t.Errorf("%s: SilentOf = %v, want %v", code, got, r.silent)
		}
		// Only a retryable failure is retried, whatever its source.
		if _, got := runpolicy.RetryDelay(wrapped, 1); got != (r.class == runpolicy.ClassRetryable) {
			t.Errorf("%s: RetryDelay retries %v, want %v (class %s)", code, got, !got, r.class)
		}
	}
}

// Every variant of the catalogue is in the matrix, so a new one cannot go
// unclassified.
func TestMatrixCoversCatalogue(t *testing.T) {
	seen := map[runpolicy.Code]bool{}
	for _, r := range matrix() {
		seen[r.err.Code()] = true
	}
	for _, info := range runpolicy.All() {
		if !seen[info.Code] {
			t.Errorf("%s (num %d) is not in the classification matrix", info.Code, info.Num)
		}
	}
	if got, want := len(seen), len(runpolicy.All()); got != want {
		t.Errorf("matrix covers %d codes, the catalogue has %d", got, want)
	}
}

// resetPolicy gives every configurable variant its default class back when
// the test ends.
func resetPolicy(t *testing.T) {
	t.Helper()
	t.Cleanup(func() {
		if err := runpolicy.SetClassPolicy(nil); err != nil {
			t.Errorf("restoring the default class policy: %v", err)
		}
	})
}

func TestConfigurableClasses(t *testing.T) {
	resetPolicy(t)
	for _, r := range matrix() {
		if !r.configurable {
			continue
		}
		code := r.err.Code()
		for _, class := range []runpolicy.Class{runpolicy.ClassRetryable, runpolicy.ClassNonFatal, runpolicy.ClassTerminal} {
			if err := runpolicy.SetClassPolicy(runpolicy.ClassPolicy{code: class}); err != nil {
				t.Fatalf("SetClassPolicy(%s: %s): %v", code, class, err)
			}
			wrapped := fmt.Errorf("step 3: %w", r.err)
			if got := runpolicy.ClassOf(wrapped); got != class {
				t.Errorf("%s with policy %s: ClassOf = %s, want %s", code, class, got, class)
			}
			if got, want := runpolicy.IsRetryable(wrapped), class == runpolicy.ClassRetryable; got != want {
				t.Errorf("%s with policy %s: IsRetryable = %v, want %v", code, class, got, want)
			}
			// The retry schedule follows the deployment's class.
			if _, got := runpolicy.RetryDelay(wrapped, 1); got != (class == runpolicy.ClassRetryable) {
				t.Errorf("%s with policy %s: RetryDelay retries %v, want %v", code, class, got, !got)
			}
		}
		// A policy that does not name the code gives it its default back.
		if err := runpolicy.SetClassPolicy(nil); err != nil {
			t.Fatal(err)
		}
		if got := r.err.Class(); got != r.class {
			t.Errorf("%s after reset: Class() = %s, want the default %s", code, got, r.class)
		}
	}
}

// One policy switches several classes at once, and touches nothing else.
func TestClassPolicyForADeployment(t *testing.T) {
	resetPolicy(t)
	policy := runpolicy.ClassPolicy{
		runpolicy.CodeToolTimeout:      runpolicy.ClassRetryable,
		runpolicy.CodeHandlerException: runpolicy.ClassNonFatal,
		runpolicy.CodeSubagentFailed:   runpolicy.ClassNonFatal,
	}
	if err := runpolicy.SetClassPolicy(policy); err != nil {
		t.Fatal(err)
	}
	for _, r := range matrix() {
		want := r.class
		if c, ok := policy[r.err.Code()]; ok {
			want = c
		}
		if got := runpolicy.ClassOf(r.err); got != want {
			t.Errorf("%s under the deployment's policy: ClassOf = %s, want %s", r.err.Code(), got, want)
		}
	}
}

// Only configurable failures take a class from the policy; a policy that
// names any other code is refused whole and changes nothing.
func TestClassPolicyRefusesFixedClasses(t *testing.T) {
	resetPolicy(t)
	for _, r := range matrix() {
		if r.configurable {
			continue
		}
		err := runpolicy.SetClassPolicy(runpolicy.ClassPolicy{
			runpolicy.CodeToolTimeout: runpolicy.ClassRetryable,
			r.err.Code():              runpolicy.ClassNonFatal,
		})
		if err == nil {
			t.Errorf("SetClassPolicy accepted a class for %s, which is not configurable", r.err.Code())
		}
		if got := runpolicy.ClassOf(&runpolicy.ToolTimeout{}); got != runpolicy.ClassTerminal {
			t.Errorf("a refused policy changed tool_timeout to %s, want it left terminal", got)
		}
	}
	if err := runpolicy.SetClassPolicy(runpolicy.ClassPolicy{runpolicy.CodeToolTimeout: runpolicy.ClassUnknown}); err == nil {
		t.Errorf("SetClassPolicy accepted the class unknown, want it refused")
	}
}

// What the runtime does with a failure, decided from the catalogue alone.
type action string

const (
	retry          action = "retry with backoff"
	useFallback    action = "try the fallback"
	stop           action = "stop and report"
	returnToModel  action = "return to the model"
	logAndContinue action = "log a warning and continue"
	continueQuiet  action = "continue silently"
)

func decide(err error) action {
	switch runpolicy.ClassOf(err) {
	case runpolicy.ClassRetryable:
		return retry
	case runpolicy.ClassNonFatal:
		if back, _ := runpolicy.ReturnedToModelOf(err); back {
			return returnToModel
		}
		if silent, _ := runpolicy.SilentOf(err); silent {
			return continueQuiet
		}
		return logAndContinue
	}
	if fallback, _ := runpolicy.FallbackOf(err); fallback {
		return useFallback
	}
	return stop
}

func TestDecisionFlow(t *testing.T) {
	tests := []struct {
		err  error
		want action
	}{
		{&runpolicy.RateLimited{RetryAfter: 2 * time.Second}, retry},
		{&runpolicy.QueuePushFailed{Queue: "runs"}, retry},
		{&runpolicy.CircuitOpen{Provider: "openai"}, useFallback},
		{&runpolicy.AuthError{Status: 401}, stop},
		{&runpolicy.JoinPolicyViolation{Policy: "all_required"}, stop},
		{&runpolicy.HandlerException{Tool: "http.fetch"}, stop},
		{&runpolicy.ValidationError{Tool: "read_file"}, returnToModel},
		{&runpolicy.PolicyDenied{Action: "shell.exec"}, returnToModel},
		{&runpolicy.MemoryUnavailable{}, logAndContinue},
		{&runpolicy.TelemetryExportFailed{Exporter: "otel"}, continueQuiet},
		{&runpolicy.MaxCostExceeded{}, stop},
		{errors.New("not a catalogue error"), stop},
	}
	for _, tt := range tests {
		if got := decide(tt.err); got != tt.want {
			t.Errorf("decide(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

// The run's failure policy: under fail, a budget limit ends the run in its
// run_state; under degrade, a degradable limit ends it degraded.
type failurePolicy int

const (
	fail failurePolicy = iota
	degrade
)

func runStateAfter(err error, p failurePolicy) (runpolicy.RunState, bool) {
	state, ok := runpolicy.RunStateOf(err)
	if !ok {
		return "", false
	}
	if p == degrade {
		if d, _ := runpolicy.DegradableOf(err); d {
			return runpolicy.RunStateDegraded, true
		}
	}
	return state, true
}

func TestBudgetLimits(t *testing.T) {
	tests := []struct {
		err       runpolicy.BudgetError
		limit     string
		onFail    runpolicy.RunState
		onDegrade runpolicy.RunState
	}{
		{&runpolicy.MaxStepsExceeded{Steps: 51, Max: 50}, "max_steps", runpolicy.RunStateFailed, runpolicy.RunStateDegraded},
		{&runpolicy.MaxToolCallsExceeded{Calls: 201, Max: 200}, "max_tool_calls", runpolicy.RunStateFailed, runpolicy.RunStateDegraded},
		{&runpolicy.MaxCostExceeded{CostUsd: 5.12, MaxUsd: 5}, "max_total_cost_usd", runpolicy.RunStateFailed, runpolicy.RunStateFailed},
		{&runpolicy.MaxWallTimeExceeded{Elapsed: 601 * time.Second, Max: 10 * time.Minute}, "max_wall_time_s", runpolicy.RunStateInterrupted, runpolicy.RunStateInterrupted},
	}
	for _, tt := range tests {
		err := fmt.Errorf("run 42: %w", tt.err)
		code := tt.err.Code()
		if got, ok := runpolicy.LimitOf(err); !ok || got != tt.limit {
			t.Errorf("%s: LimitOf = %q, %v; want %q, true", code, got, ok, tt.limit)
		}
		if got, ok := runStateAfter(err, fail); !ok || got != tt.onFail {
			t.Errorf("%s under the fail policy: run state %q, %v; want %q", code, got, ok, tt.onFail)
		}
		if got, ok := runStateAfter(err, degrade); !ok || got != tt.onDegrade {
			t.Errorf("%s under the degrade policy: run state %q, %v; want %q", code, got, ok, tt.onDegrade)
		}
		// The run is stopped immediately: never retried, never carried on from.
		if got := runpolicy.ClassOf(err); got != runpolicy.ClassTerminal {
			t.Errorf("%s: ClassOf = %s, want terminal", code, got)
		}
		if got := tt.err.Category(); got != runpolicy.CategoryBudget {
			t.Errorf("%s: category %s, want budget", code, got)
		}
	}
	// Only budget limits name a limit; the run state lookup answers for
	// every catalogue error (failed by default) and for nothing else.
	if got, _ := runpolicy.LimitOf(&runpolicy.AuthError{}); got != "" {
		t.Errorf("auth_error: LimitOf = %q, want empty", got)
	}
	if _, ok := runpolicy.RunStateOf(errors.New("foreign")); ok {
		t.Errorf("RunStateOf answered for an error outside the catalogue")
	}
}

func TestHTTPStatuses(t *testing.T) {
	tests := []struct {
		status    int
		code      runpolicy.Code
		retryable bool
	}{
		{http.StatusTooManyRequests, runpolicy.CodeRateLimited, true},
		{http.StatusInternalServerError, runpolicy.CodeServerError, true},
		{http.StatusBadGateway, runpolicy.CodeServerError, true},
		{http.StatusServiceUnavailable, runpolicy.CodeServerError, true},
		{http.StatusUnauthorized, runpolicy.CodeAuthError, false},
		{http.StatusForbidden, runpolicy.CodeAuthError, false},
		{http.StatusBadRequest, runpolicy.CodeInvalidRequest, false},
	}
	for _, tt := range tests {
		err, ok := runpolicy.FromHTTP(tt.status, nil)
		if !ok {
			t.Errorf("FromHTTP(%d) found no error, want %s", tt.status, tt.code)
			continue
		}
		if err.Code() != tt.code || err.Retryable() != tt.retryable {
			t.Errorf("FromHTTP(%d) = %s retryable %v, want %s retryable %v", tt.status, err.Code(), err.Retryable(), tt.code, tt.retryable)
		}
	}
	if _, ok := runpolicy.FromHTTP(http.StatusGatewayTimeout, nil); ok {
		t.Errorf("FromHTTP(504) found an error; the policy lists 500, 502 and 503 only")
	}
	header := http.Header{}
	header.Set("Retry-After", "2")
	err, _ := runpolicy.FromHTTP(http.StatusTooManyRequests, header)
	if wait, ok := runpolicy.RetryAfterOf(err); !ok || wait != 2*time.Second {
		t.Errorf("RetryAfterOf(429 with Retry-After: 2) = %v, %v; want 2s, true", wait, ok)
	}
}

// A run's handler decides from the class alone, whatever wraps the error.
func Example() {
	for _, err := range []error{
		&runpolicy.RateLimited{RetryAfter: 2 * time.Second},
		&runpolicy.CircuitOpen{Provider: "openai"},
		&runpolicy.AuthError{Status: 401, Message: "Invalid API key"},
		&runpolicy.PolicyDenied{Action: "shell.exec", Policy: "no-network"},
		&runpolicy.TelemetryExportFailed{Exporter: "otel", Cause: errors.New("exporter timed out")},
		fmt.Errorf("run 42: %w", &runpolicy.QueuePushFailed{Queue: "runs", Cause: errors.New("redis connection refused")}),
	} {
		fmt.Printf("%-9s %-26s %v\n", runpolicy.ClassOf(err), decide(err), err)
	}
	// Output:
	// retryable retry with backoff         rate limit exceeded, retry after 2s
	// terminal  try the fallback           circuit breaker open for provider openai
	// terminal  stop and report            provider rejected the credentials (HTTP 401): Invalid API key
	// non_fatal return to the model        action shell.exec denied by policy no-network
	// non_fatal continue silently          telemetry export via otel failed: exporter timed out
	// retryable retry with backoff         run 42: push to queue runs failed: redis connection refused
}

// Tool timeouts are terminal by default; a deployment that wants them
// retried says so once at start-up.
func ExampleSetClassPolicy() {
	err := &runpolicy.ToolTimeout{Tool: "terminal", Timeout: 10 * time.Second}
	fmt.Println(err, "->", runpolicy.ClassOf(err))

	if e := runpolicy.SetClassPolicy(runpolicy.ClassPolicy{runpolicy.CodeToolTimeout: runpolicy.ClassRetryable}); e != nil {
		fmt.Println(e)
	}
	fmt.Println(err, "->", runpolicy.ClassOf(err))

	// Classes the policy fixes cannot be switched.
	fmt.Println(runpolicy.SetClassPolicy(runpolicy.ClassPolicy{runpolicy.CodeAuthError: runpolicy.ClassRetryable}))

	_ = runpolicy.SetClassPolicy(nil) // back to the defaults
	fmt.Println(err, "->", runpolicy.ClassOf(err))
	// Output:
	// tool terminal exceeded 10s timeout -> terminal
	// tool terminal exceeded 10s timeout -> retryable
	// runpolicy: class policy: "auth_error" is not configurable; its class is terminal
	// tool terminal exceeded 10s timeout -> terminal
}

// A budget limit stops the run; its attributes say how the run ends.
func ExampleRunStateOf() {
	for _, err := range []error{
		&runpolicy.MaxStepsExceeded{Steps: 51, Max: 50},
		&runpolicy.MaxToolCallsExceeded{Calls: 201, Max: 200},
		&runpolicy.MaxCostExceeded{CostUsd: 5.12, MaxUsd: 5},
		&runpolicy.MaxWallTimeExceeded{Elapsed: 601 * time.Second, Max: 10 * time.Minute},
	} {
		limit, _ := runpolicy.LimitOf(err)
		onFail, _ := runStateAfter(err, fail)
		onDegrade, _ := runStateAfter(err, degrade)
		fmt.Printf("%-18s fail: %-11s degrade: %s\n", limit, onFail, onDegrade)
	}
	// Output:
	// max_steps          fail: failed      degrade: degraded
	// max_tool_calls     fail: failed      degrade: degraded
	// max_total_cost_usd fail: failed      degrade: failed
	// max_wall_time_s    fail: interrupted degrade: interrupted
}

// A validation error goes back to the model as the tool result, so it can
// correct its arguments; the run carries on.
func ExampleValidationError_LLMPayload() {
	err := &runpolicy.ValidationError{Tool: "read_file", Message: "path is required"}
	data, _ := json.Marshal(err.LLMPayload())
	fmt.Println(string(data))
	// Output:
	// {"type":"tool_error","category":"validation","code":"validation_error","code_num":201,"error":"invalid arguments for read_file: path is required","retryable":false,"suppress_retry":false,"tool":"read_file"}
}

// half fixes the jitter's random number at the middle, so that a delay is
// exactly the backoff.
func half() float64 { return 0.5 }

// defaultPolicy is errgen's default retry policy, which the catalogue
// keeps: the policy says "exponential backoff" and names no numbers.
var defaultPolicy = runpolicy.RetryPolicy{MaxRetries: 3, Base: time.Second, Cap: 10 * time.Second, Jitter: 0.2}

// Every source has the same policy: retry with exponential backoff.
func TestRetryPolicy(t *testing.T) {
	for _, r := range matrix() {
		if p, ok := runpolicy.RetryPolicyOf(fmt.Errorf("run 42: %w", r.err)); !ok || p != defaultPolicy {
			t.Errorf("%s: RetryPolicyOf = %+v, %v; want %+v, true", r.err.Code(), p, ok, defaultPolicy)
		}
	}
	for _, err := range []error{
		&runpolicy.ServerError{Status: 503, Message: "Service unavailable"},
		&runpolicy.LLMTimeout{Timeout: 60 * time.Second},
		fmt.Errorf("run 42: %w", &runpolicy.QueuePushFailed{Queue: "runs", Cause: errors.New("redis connection refused")}),
		&runpolicy.RateLimited{}, // the provider gave no retry-after
	} {
		code := runpolicy.CodeOf(err)
		p, _ := runpolicy.RetryPolicyOf(err)
		for n, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
			if d, ok := p.Delay(err, n+1, half); !ok || d != want {
				t.Errorf("%s: Delay after failure %d = %v, %v; want %v, true", code, n+1, d, ok, want)
			}
		}
		if d, ok := p.Delay(err, 4, half); ok {
			t.Errorf("%s: Delay after failure 4 = %v, true; want no retry past max_retries 3", code, d)
		}
		// The jitter spreads each delay by up to 20 %.
		if d, _ := p.Delay(err, 3, func() float64 { return 0 }); d != 3200*time.Millisecond {
			t.Errorf("%s: Delay after failure 3 with the lowest jitter = %v, want 3.2s", code, d)
		}
		for range 100 {
			if d, ok := runpolicy.RetryDelay(err, 1); !ok || d < 800*time.Millisecond || d > 1200*time.Millisecond {
				t.Fatalf("%s: RetryDelay(failure 1) = %v, %v; want 1s ±20%%", code, d, ok)
			}
		}
	}
	// The backoff doubles up to the cap.
	if got := defaultPolicy.Backoff(5, 0.5); got != 10*time.Second {
		t.Errorf("Backoff(5) = %v, want the 10s cap", got)
	}
	// A failure that is not a catalogue error has no policy: wrap it in the
	// variant of its source first.
	if _, ok := runpolicy.RetryDelay(errors.New("redis connection refused"), 1); ok {
		t.Errorf("RetryDelay retries a foreign error, want not")
	}
	if _, ok := runpolicy.RetryPolicyOf(errors.New("redis connection refused")); ok {
		t.Errorf("RetryPolicyOf answered for a foreign error")
	}
}

// The provider's "retry after 2s" replaces the backoff, through any wrap,
// and even past the cap.
func TestRetryAfterPrecedence(t *testing.T) {
	header := http.Header{}
	header.Set("Retry-After", "30")
	fromHTTP, _ := runpolicy.FromHTTP(http.StatusTooManyRequests, header)
	tests := []struct {
		name string
		err  error
		want time.Duration
	}{
		{"rate limit", &runpolicy.RateLimited{RetryAfter: 2 * time.Second}, 2 * time.Second},
		{"wrapped", fmt.Errorf("step 3: %w", fmt.Errorf("run 42: %w", &runpolicy.RateLimited{RetryAfter: 2 * time.Second})), 2 * time.Second},
		{"past the cap", fmt.Errorf("run 42: %w", fromHTTP), 30 * time.Second},
	}
	for _, tt := range tests {
		for n := 1; n <= 3; n++ {
			if d, ok := runpolicy.RetryDelay(tt.err, n); !ok || d != tt.want {
				t.Errorf("%s: RetryDelay(failure %d) = %v, %v; want %v, true", tt.name, n, d, ok, tt.want)
			}
		}
		if d, ok := runpolicy.RetryDelay(tt.err, 4); ok {
			t.Errorf("%s: RetryDelay(failure 4) = %v, true; want no retry past max_retries", tt.name, d)
		}
	}
}

// Terminal and non-fatal failures are never retried, and neither is a
// configurable one unless the deployment makes it retryable.
func TestOnlyRetryableFailuresRetried(t *testing.T) {
	resetPolicy(t)
	for _, r := range matrix() {
		if r.class == runpolicy.ClassRetryable {
			continue
		}
		err := fmt.Errorf("run 42: %w", r.err)
		p, _ := runpolicy.RetryPolicyOf(err)
		for n := 1; n <= 3; n++ {
			if d, ok := p.Delay(err, n, half); ok {
				t.Errorf("%s (%s): Delay(failure %d) = %v, true; want no retry", r.err.Code(), r.class, n, d)
			}
			if d, ok := runpolicy.RetryDelay(err, n); ok {
				t.Errorf("%s (%s): RetryDelay(failure %d) = %v, true; want no retry", r.err.Code(), r.class, n, d)
			}
		}
	}
	// The deployment makes tool timeouts retryable: they take the backoff.
	if err := runpolicy.SetClassPolicy(runpolicy.ClassPolicy{runpolicy.CodeToolTimeout: runpolicy.ClassRetryable}); err != nil {
		t.Fatal(err)
	}
	timeout := &runpolicy.ToolTimeout{Tool: "terminal", Timeout: 10 * time.Second}
	p, _ := runpolicy.RetryPolicyOf(timeout)
	if d, ok := p.Delay(timeout, 2, half); !ok || d != 2*time.Second {
		t.Errorf("retryable tool timeout: Delay(failure 2) = %v, %v; want 2s, true", d, ok)
	}
	if d, ok := runpolicy.RetryDelay(&runpolicy.HandlerException{Tool: "http.fetch"}, 1); ok {
		t.Errorf("handler exception, still terminal: RetryDelay = %v, true; want no retry", d)
	}
}

// A retryable failure is retried with exponential backoff, at most three
// times; a rate limit waits what the provider asked for.
func ExampleRetryPolicy_Delay() {
	err := fmt.Errorf("run 42: %w", &runpolicy.ServerError{Status: 503, Message: "Service unavailable"})
	p, _ := runpolicy.RetryPolicyOf(err)
	for failures := 1; failures <= 4; failures++ {
		d, retry := p.Delay(err, failures, func() float64 { return 0.5 })
		fmt.Println(failures, retry, d)
	}
	d, retry := runpolicy.RetryDelay(&runpolicy.RateLimited{RetryAfter: 2 * time.Second}, 1)
	fmt.Println("rate limited:", retry, d)
	_, retry = runpolicy.RetryDelay(&runpolicy.AuthError{Status: 401, Message: "Invalid API key"}, 1)
	fmt.Println("auth error:", retry)
	// Output:
	// 1 true 1s
	// 2 true 2s
	// 3 true 4s
	// 4 false 0s
	// rate limited: true 2s
	// auth error: false
}

// Durations are written in whole seconds: a timeout's remainder is
// dropped, a retry-after's rounds up, never a shorter wait.
func TestWholeSeconds(t *testing.T) {
	limited := &runpolicy.RateLimited{RetryAfter: 1500 * time.Millisecond}
	if got, want := limited.Error(), "rate limit exceeded, retry after 2s"; got != want {
		t.Errorf("rate limit of 1.5s: Error() = %q, want %q", got, want)
	}
	if wire, _ := json.Marshal(limited); !strings.Contains(string(wire), `"retry_after":2}`) {
		t.Errorf("rate limit of 1.5s: wire form %s, want retry_after 2", wire)
	}
	timeout := &runpolicy.LLMTimeout{Timeout: 1500 * time.Millisecond}
	if got, want := timeout.Error(), "request timed out after 1s"; got != want {
		t.Errorf("timeout of 1.5s: Error() = %q, want %q", got, want)
	}
}
