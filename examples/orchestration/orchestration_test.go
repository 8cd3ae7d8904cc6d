package orchestration_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/errgen/errgen/examples/orchestration"
)

// codes lists the codes of err's chain, outermost first.
func codes(err error) []string {
	var out []string
	for e := range orchestration.Chain(err) {
		out = append(out, string(e.Code()))
	}
	return out
}

// layers lists the layer of each catalogue error of err's chain,
// outermost first.
func layers(err error) []int {
	var out []int
	for e := range orchestration.Chain(err) {
		l, _ := orchestration.LayerOf(e)
		out = append(out, l)
	}
	return out
}

// The provider errors, and whether each is retryable: exactly the rate
// limit and the transient failure are.
var providerErrors = []struct {
	err       orchestration.ProviderError
	retryable bool
}{
	{&orchestration.TransientError{Message: "bad gateway", Status: 502}, true},
	{&orchestration.TransientError{Message: "connection reset"}, true}, // a network failure has no status
	{&orchestration.RateLimited{RetryAfter: 2 * time.Second}, true},
	{&orchestration.RateLimited{}, true}, // the provider gave no retry-after
	{&orchestration.InvalidRequest{Message: "messages: field required", Status: 400}, false},
	{&orchestration.InvalidRequest{Message: "unprocessable", Status: 422}, false},
	{&orchestration.ContentBlocked{Message: "blocked"}, false},
	{&orchestration.AuthFailed{Message: "invalid API key"}, false},
	{&orchestration.InvalidResponse{Message: "unexpected end of JSON input"}, false},
	{&orchestration.ProviderOther{Cause: errors.New("tls handshake failed")}, false},
	// A catch-all is never retryable, whatever it wraps.
	{&orchestration.ProviderOther{Cause: &orchestration.RateLimited{RetryAfter: time.Second}}, false},
}

// Each provider error is retryable, and classed, the same at every layer
// it propagates to: the operator's model error, then the orchestration or
// environment error that wraps the operator error.
func TestRetryabilityThroughLayers(t *testing.T) {
	for _, p := range providerErrors {
		model := &orchestration.ModelFailed{Cause: p.err}
		wrappers := []struct {
			name string
			err  error
		}{
			{"provider", p.err},
			{"operator", model},
			{"orchestration", &orchestration.OrchOperatorError{Cause: model}},
			{"environment", &orchestration.EnvOperatorError{Cause: model}},
			{"caller's wrap", fmt.Errorf("workflow wf-42: %w", &orchestration.OrchOperatorError{Cause: model})},
		}
		wantClass := orchestration.ClassTerminal
		if p.retryable {
			wantClass = orchestration.ClassRetryable
		}
		for _, w := range wrappers {
			if got := orchestration.IsRetryable(w.err); got != p.retryable {
				t.Errorf("%s at the %s layer: IsRetryable = %v, want %v", p.err.Code(), w.name, got, p.retryable)
			}
			if got := orchestration.ClassOf(w.err); got != wantClass {
				t.Errorf("%s at the %s layer: ClassOf = %s, want %s", p.err.Code(), w.name, got, wantClass)
			}
			if got := orchestration.RootCodeOf(w.err); p.err.Code() != orchestration.CodeProviderOther && got != p.err.Code() {
				t.Errorf("%s at the %s layer: RootCodeOf = %s, want the provider's code", p.err.Code(), w.name, got)
			}
		}
	}
}

// A catch-all is terminal even when it holds a retryable catalogue error;
// the error inside keeps its own class and retry-after.
func TestCatchAllIsTerminal(t *testing.T) {
	rate := &orchestration.RateLimited{RetryAfter: time.Second}
	other := &orchestration.OrchOther{Cause: &orchestration.OrchOperatorError{Cause: &orchestration.ModelFailed{Cause: rate}}}
	if orchestration.IsRetryable(other) || orchestration.ClassOf(other) != orchestration.ClassTerminal {
		t.Errorf("catch-all: IsRetryable = %v, ClassOf = %s; want false, terminal", orchestration.IsRetryable(other), orchestration.ClassOf(other))
	}
	if inner, ok := orchestration.AsOperatorError(other); !ok || !inner.Retryable() {
		t.Errorf("the operator error inside the catch-all: found %v, retryable %v; want found, retryable", ok, ok && inner.Retryable())
	}
	if wait, ok := orchestration.RetryAfterOf(other); !ok || wait != time.Second {
		t.Errorf("RetryAfterOf(catch-all) = %v, %v; want 1s, true", wait, ok)
	}
}

// The retryable provider errors are exactly those the catalogue marks so.
func TestRetryableProviderErrors(t *testing.T) {
	var got []string
	for _, info := range orchestration.All() {
		if info.Family == "ProviderError" && info.Retryable {
			got = append(got, string(info.Code))
		}
	}
	want := []string{"provider_transient", "provider_rate_limited"}
	if !slices.Equal(got, want) {
		t.Errorf("retryable provider errors = %v, want %v", got, want)
	}
}

// A rate limit three layers down: every question is answered from the
// outermost error, and each layer is still there to inspect.
func TestLayering(t *testing.T) {
	rate := &orchestration.RateLimited{RetryAfter: 2 * time.Second}
	model := &orchestration.ModelFailed{Cause: rate}
	orch := &orchestration.OrchOperatorError{Cause: model}
	err := fmt.Errorf("workflow wf-42: %w", orch)

	// The orchestrator sees an orchestration error.
	if got := orchestration.CodeOf(err); got != orchestration.CodeOrchOperatorError {
		t.Errorf("CodeOf = %s, want orch_operator_error", got)
	}
	if got, want := codes(err), []string{"orch_operator_error", "operator_model", "provider_rate_limited"}; !slices.Equal(got, want) {
		t.Errorf("Chain codes = %v, want %v", got, want)
	}
	if got, want := layers(err), []int{0, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("Chain layers = %v, want %v", got, want)
	}
	if !orchestration.IsRetryable(err) || orchestration.ClassOf(err) != orchestration.ClassRetryable {
		t.Errorf("IsRetryable = %v, ClassOf = %s; want true, retryable", orchestration.IsRetryable(err), orchestration.ClassOf(err))
	}
	if wait, ok := orchestration.RetryAfterOf(err); !ok || wait != 2*time.Second {
		t.Errorf("RetryAfterOf = %v, %v; want 2s, true", wait, ok)
	}

	// errors.As finds each layer's variant, and the family helpers each
	// layer's error.
	var gotOrch *orchestration.OrchOperatorError
	var gotModel *orchestration.ModelFailed
	var gotRate *orchestration.RateLimited
	if !errors.As(err, &gotOrch) || gotOrch != orch {
		t.Errorf("errors.As did not find the orchestration error")
	}
	if !errors.As(err, &gotModel) || gotModel != model {
		t.Errorf("errors.As did not find the operator error")
	}
	if !errors.As(err, &gotRate) || gotRate.RetryAfter != 2*time.Second {
		t.Errorf("errors.As did not find the provider error with its retry-after")
	}
	if o, ok := orchestration.AsOrchError(err); !ok || o.Code() != orchestration.CodeOrchOperatorError {
		t.Errorf("AsOrchError = %v, %v; want the orchestration error", o, ok)
	}
	if o, ok := orchestration.AsOperatorError(err); !ok || o.Code() != orchestration.CodeModelFailed {
		t.Errorf("AsOperatorError = %v, %v; want the operator error", o, ok)
	}
	if p, ok := orchestration.AsProviderError(err); !ok || p.Code() != orchestration.CodeRateLimited {
		t.Errorf("AsProviderError = %v, %v; want the provider error", p, ok)
	}
	if _, ok := orchestration.AsEnvError(err); ok {
		t.Errorf("AsEnvError found an environment error in an orchestration chain")
	}
	if !errors.Is(err, &orchestration.RateLimited{}) || errors.Is(err, &orchestration.TransientError{}) {
		t.Errorf("errors.Is by code: rate limit %v, transient %v; want true, false",
			errors.Is(err, &orchestration.RateLimited{}), errors.Is(err, &orchestration.TransientError{}))
	}
	if l, _ := orchestration.LayerOf(err); l != 0 {
		t.Errorf("LayerOf = %d, want 0 (the outermost error's layer)", l)
	}

	// The environment propagates operator errors the same way.
	env := &orchestration.EnvOperatorError{Cause: model}
	if got, want := codes(env), []string{"env_operator_error", "operator_model", "provider_rate_limited"}; !slices.Equal(got, want) {
		t.Errorf("environment chain = %v, want %v", got, want)
	}
	if wait, ok := orchestration.RetryAfterOf(env); !ok || wait != 2*time.Second {
		t.Errorf("RetryAfterOf(environment) = %v, %v; want 2s, true", wait, ok)
	}
}

// The operator's own retryable and non-retryable variants decide for
// orchestrators without any detail being read.
func TestOperatorRetryDecision(t *testing.T) {
	tests := []struct {
		err       orchestration.OperatorError
		code      orchestration.Code // what Code() reports
		variant   orchestration.Code // the variant's code, which HasCode finds
		retryable bool
	}{
		{&orchestration.OperatorRetryable{Message: "lock held"}, orchestration.CodeOperatorRetryable, orchestration.CodeOperatorRetryable, true},
		{&orchestration.OperatorNonRetryable{Message: "out of tokens", Subcode: orchestration.CodeOperatorBudgetExceeded}, orchestration.CodeOperatorBudgetExceeded, orchestration.CodeOperatorNonRetryable, false},
		{&orchestration.OperatorNonRetryable{Message: "injected instruction", Subcode: orchestration.CodeOperatorSafetyViolation}, orchestration.CodeOperatorSafetyViolation, orchestration.CodeOperatorNonRetryable, false},
		{&orchestration.OperatorNonRetryable{Message: "empty query", Subcode: orchestration.CodeOperatorInvalidInput}, orchestration.CodeOperatorInvalidInput, orchestration.CodeOperatorNonRetryable, false},
		{&orchestration.OperatorNonRetryable{Message: "unspecified"}, orchestration.CodeOperatorNonRetryable, orchestration.CodeOperatorNonRetryable, false},
		{&orchestration.SubDispatchFailed{Operator: "researcher", Message: "no output"}, orchestration.CodeSubDispatchFailed, orchestration.CodeSubDispatchFailed, false},
		{&orchestration.ContextAssemblyFailed{Message: "scope missing"}, orchestration.CodeContextAssemblyFailed, orchestration.CodeContextAssemblyFailed, false},
		{&orchestration.OperatorOther{Cause: errors.New("panic in operator")}, orchestration.CodeOperatorOther, orchestration.CodeOperatorOther, false},
		// A model error without a provider error has nothing to say it is retryable.
		{&orchestration.ModelFailed{}, orchestration.CodeModelFailed, orchestration.CodeModelFailed, false},
	}
	for _, tt := range tests {
		orch := &orchestration.OrchOperatorError{Cause: tt.err}
		if got := tt.err.Code(); got != tt.code {
			t.Errorf("%v: Code() = %s, want %s", tt.err, got, tt.code)
		}
		if !orchestration.HasCode(orch, tt.variant) {
			t.Errorf("orchestration error wrapping %s: HasCode(%s) = false, want true", tt.code, tt.variant)
		}
		if got := orchestration.IsRetryable(orch); got != tt.retryable {
			t.Errorf("orchestration error wrapping %s: IsRetryable = %v, want %v", tt.code, got, tt.retryable)
		}
	}
}

// Tool errors reach orchestrators the same way: an operator maps them (into
// its catch-all) and the orchestration error wraps the operator's.
func TestToolErrorPropagation(t *testing.T) {
	tool := &orchestration.ToolExecutionFailed{Message: "exit status 1"}
	err := orchestration.OrchErrorFromOperatorError(orchestration.OperatorErrorFromToolError(tool))
	if got, want := codes(err), []string{"orch_operator_error", "operator_other", "tool_execution_failed"}; !slices.Equal(got, want) {
		t.Errorf("Chain codes = %v, want %v", got, want)
	}
	if got, want := layers(err), []int{0, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("Chain layers = %v, want %v", got, want)
	}
	if te, ok := orchestration.AsToolError(err); !ok || te != tool {
		t.Errorf("AsToolError = %v, %v; want the tool error", te, ok)
	}
	if orchestration.IsRetryable(err) {
		t.Errorf("IsRetryable = true, want false")
	}
	if _, ok := orchestration.RetryAfterOf(err); ok {
		t.Errorf("RetryAfterOf answered for a chain without a rate limit")
	}
}

// Each protocol has its own codes, nums and layer; each family's catch-all
// wraps any error.
func TestLayerCodes(t *testing.T) {
	foreign := errors.New("foreign")
	families := []struct {
		family string
		layer  int
		nums   [2]int
		codes  []string
		other  orchestration.Error // the catch-all, wrapping a foreign error
		as     func(error) bool
	}{
		{
			"ProviderError", 1, [2]int{1100, 1199},
			[]string{"provider_transient", "provider_rate_limited", "provider_invalid_request", "provider_content_blocked", "provider_auth_failed", "provider_invalid_response", "provider_other"},
			&orchestration.ProviderOther{Cause: foreign},
			func(err error) bool { _, ok := orchestration.AsProviderError(err); return ok },
		},
		{
			"ToolError", 1, [2]int{1200, 1299},
			[]string{"tool_not_found", "tool_execution_failed", "tool_invalid_input", "tool_other"},
			&orchestration.ToolOther{Cause: foreign},
			func(err error) bool { _, ok := orchestration.AsToolError(err); return ok },
		},
		{
			"OperatorError", 0, [2]int{100, 199},
			[]string{"operator_model", "operator_model_call", "operator_sub_dispatch", "operator_context_assembly", "operator_retryable", "operator_non_retryable", "operator_other"},
			&orchestration.OperatorOther{Cause: foreign},
			func(err error) bool { _, ok := orchestration.AsOperatorError(err); return ok },
		},
		{
			"OrchError", 0, [2]int{200, 299},
			[]string{"orch_operator_not_found", "orch_workflow_not_found", "orch_dispatch_failed", "orch_signal_failed", "orch_operator_error", "orch_other"},
			&orchestration.OrchOther{Cause: foreign},
			func(err error) bool { _, ok := orchestration.AsOrchError(err); return ok },
		},
		{
			"StateError", 0, [2]int{300, 399},
			[]string{"state_not_found", "state_write_failed", "state_serialization", "state_other"},
			&orchestration.StateOther{Cause: foreign},
			func(err error) bool { _, ok := orchestration.AsStateError(err); return ok },
		},
		{
			"EnvError", 0, [2]int{400, 499},
			[]string{"env_provision_failed", "env_isolation_violation", "env_credential_failed", "env_resource_exceeded", "env_operator_error", "env_other"},
			&orchestration.EnvOther{Cause: foreign},
			func(err error) bool { _, ok := orchestration.AsEnvError(err); return ok },
		},
	}
	total := 0
	for _, f := range families {
		var got []string
		for _, info := range orchestration.All() {
			if info.Family != f.family {
				continue
			}
			got = append(got, string(info.Code))
			if info.Num < f.nums[0] || info.Num > f.nums[1] {
				t.Errorf("%s: num %d outside %s's range %v", info.Code, info.Num, f.family, f.nums)
			}
		}
		total += len(got)
		slices.Sort(got)
		want := slices.Sorted(slices.Values(f.codes))
		if !slices.Equal(got, want) {
			t.Errorf("%s codes = %v, want %v", f.family, got, want)
		}
		if l, ok := orchestration.LayerOf(f.other); !ok || l != f.layer {
			t.Errorf("%s: LayerOf = %d, %v; want %d", f.family, l, ok, f.layer)
		}
		if !f.as(f.other) {
			t.Errorf("%s: the family helper does not find its catch-all %s", f.family, f.other.Code())
		}
		if f.other.CodeNum() != f.nums[1] {
			t.Errorf("%s: catch-all num %d, want %d (the end of the range)", f.family, f.other.CodeNum(), f.nums[1])
		}
		if !errors.Is(f.other, foreign) || f.other.Retryable() {
			t.Errorf("%s: the catch-all must wrap the foreign error (errors.Is %v) and not be retryable (%v)", f.family, errors.Is(f.other, foreign), f.other.Retryable())
		}
	}
	if total != len(orchestration.All()) {
		t.Errorf("the families hold %d codes, the catalogue %d", total, len(orchestration.All()))
	}
	// The permanent kinds are sub-codes of operator_non_retryable.
	for _, sub := range []orchestration.Code{orchestration.CodeOperatorBudgetExceeded, orchestration.CodeOperatorSafetyViolation, orchestration.CodeOperatorInvalidInput} {
		if info, ok := orchestration.Lookup(sub); !ok || info.Code != orchestration.CodeOperatorNonRetryable || info.Retryable {
			t.Errorf("Lookup(%s) = %s retryable %v, %v; want operator_non_retryable, not retryable", sub, info.Code, info.Retryable, ok)
		}
	}
}

// HTTP responses become provider errors: 5xx transient, 429 rate limited
// with its Retry-After, 401 and 403 auth failures, other 4xx invalid
// requests.
func TestHTTPStatuses(t *testing.T) {
	tests := []struct {
		status    int
		code      orchestration.Code
		retryable bool
	}{
		{500, orchestration.CodeTransientError, true},
		{503, orchestration.CodeTransientError, true},
		{599, orchestration.CodeTransientError, true},
		{429, orchestration.CodeRateLimited, true},
		{401, orchestration.CodeAuthFailed, false},
		{403, orchestration.CodeAuthFailed, false},
		{400, orchestration.CodeInvalidRequest, false},
		{404, orchestration.CodeInvalidRequest, false},
		{422, orchestration.CodeInvalidRequest, false},
	}
	for _, tt := range tests {
		err, ok := orchestration.FromHTTP(tt.status, nil)
		if !ok || err.Code() != tt.code || err.Retryable() != tt.retryable {
			t.Errorf("FromHTTP(%d) = %v, %v; want %s retryable %v", tt.status, err, ok, tt.code, tt.retryable)
		}
	}
	if _, ok := orchestration.FromHTTP(302, nil); ok {
		t.Errorf("FromHTTP(302) found an error, want none")
	}
}

// An orchestrator retries from the outermost error alone, waiting what the
// provider asked for.
func Example() {
	header := http.Header{}
	header.Set("Retry-After", "3")
	provider, _ := orchestration.FromHTTP(http.StatusTooManyRequests, header)
	op := orchestration.OperatorErrorFromProviderError(provider.(orchestration.ProviderError))
	err := error(orchestration.OrchErrorFromOperatorError(op))

	fmt.Println(err)
	fmt.Println(orchestration.CodeOf(err), orchestration.ClassOf(err), orchestration.IsRetryable(err))
	wait, retry := orchestration.RetryDelay(err, 1)
	fmt.Println("retry:", retry, "after", wait)
	for e := range orchestration.Chain(err) {
		layer, _ := orchestration.LayerOf(e)
		fmt.Printf("layer %d: %s\n", layer, e.Code())
	}

	// A 4xx client error never succeeds on retry, at any layer.
	bad := &orchestration.OrchOperatorError{Cause: &orchestration.ModelFailed{Cause: &orchestration.InvalidRequest{Message: "messages: field required", Status: 400}}}
	fmt.Println(orchestration.ClassOf(bad), orchestration.IsRetryable(bad))
	// Output:
	// operator failed: model error: provider rate limited the request (retry after 3000ms)
	// orch_operator_error retryable true
	// retry: true after 3s
	// layer 0: orch_operator_error
	// layer 0: operator_model
	// layer 1: provider_rate_limited
	// terminal false
}

// A permanent operator failure names its kind with a sub-code and is
// never retried.
func ExampleOperatorNonRetryable() {
	err := &orchestration.EnvOperatorError{Cause: &orchestration.OperatorNonRetryable{
		Message: "token budget spent",
		Subcode: orchestration.CodeOperatorBudgetExceeded,
	}}
	fmt.Println(err)
	fmt.Println(orchestration.RootCodeOf(err), orchestration.HasCode(err, orchestration.CodeOperatorNonRetryable), orchestration.IsRetryable(err))
	// Output:
	// operator failed: non-retryable operator error: token budget spent
	// operator_budget_exceeded true false
}

// familyCodes lists the codes of a family's variants, in catalogue order.
func familyCodes(family string) []orchestration.Code {
	var out []orchestration.Code
	for _, info := range orchestration.All() {
		if info.Family == family {
			out = append(out, info.Code)
		}
	}
	return out
}

// checkCovers reports every code of family that the test did not convert.
func checkCovers(t *testing.T, family string, seen map[orchestration.Code]bool) {
	t.Helper()
	for _, c := range familyCodes(family) {
		if !seen[c] {
			t.Errorf("%s: variant %s is not converted by the test", family, c)
		}
	}
}

// Operators map every provider error into their model error, which keeps
// the provider error as its cause and is retryable exactly when it is.
func TestOperatorErrorFromProviderError(t *testing.T) {
	seen := map[orchestration.Code]bool{}
	for _, p := range providerErrors {
		seen[p.err.Code()] = true
		op := orchestration.OperatorErrorFromProviderError(p.err)
		model, ok := op.(*orchestration.ModelFailed)
		if !ok {
			t.Errorf("%s: converted into %T, want *ModelFailed", p.err.Code(), op)
			continue
		}
		if model.Cause != p.err {
			t.Errorf("%s: the model error's cause is %v, want the provider error itself", p.err.Code(), model.Cause)
		}
		if !errors.Is(op, p.err) {
			t.Errorf("%s: errors.Is does not reach the provider error", p.err.Code())
		}
		if got, ok := orchestration.AsProviderError(op); !ok || got != p.err {
			t.Errorf("%s: AsProviderError = %v, %v; want the provider error", p.err.Code(), got, ok)
		}
		if got := op.Retryable(); got != p.retryable {
			t.Errorf("%s: the model error's Retryable() = %v, want %v (the provider error's)", p.err.Code(), got, p.retryable)
		}
		gotWait, gotOK := orchestration.RetryAfterOf(op)
		wantWait, wantOK := orchestration.RetryAfterOf(p.err)
		if gotWait != wantWait || gotOK != wantOK {
			t.Errorf("%s: RetryAfterOf(converted) = %v, %v; want %v, %v", p.err.Code(), gotWait, gotOK, wantWait, wantOK)
		}
	}
	checkCovers(t, "ProviderError", seen)

	// errors.As reaches the provider error's own type, with its fields.
	var rate *orchestration.RateLimited
	op := orchestration.OperatorErrorFromProviderError(&orchestration.RateLimited{RetryAfter: 2 * time.Second})
	if !errors.As(op, &rate) || rate.RetryAfter != 2*time.Second {
		t.Errorf("errors.As did not find the rate limit with its retry-after in %v", op)
	}
	// A foreign error inside the catch-all stays reachable.
	foreign := errors.New("tls handshake failed")
	if op := orchestration.OperatorErrorFromProviderError(&orchestration.ProviderOther{Cause: foreign}); !errors.Is(op, foreign) || op.Retryable() {
		t.Errorf("catch-all: errors.Is(foreign) = %v, Retryable() = %v; want true, false", errors.Is(op, foreign), op.Retryable())
	}
	if op := orchestration.OperatorErrorFromProviderError(nil); op != nil {
		t.Errorf("OperatorErrorFromProviderError(nil) = %v, want nil", op)
	}
	if op := orchestration.OperatorErrorFromProviderError((*orchestration.RateLimited)(nil)); op != nil {
		t.Errorf("OperatorErrorFromProviderError(typed nil) = %v, want nil", op)
	}
}

// Operators pass every tool error on in their catch-all, which keeps it as
// its cause and is never retryable.
func TestOperatorErrorFromToolError(t *testing.T) {
	tools := []orchestration.ToolError{
		&orchestration.ToolNotFound{Tool: "web_search"},
		&orchestration.ToolExecutionFailed{Message: "exit status 1"},
		&orchestration.ToolInvalidInput{Message: "path: required"},
		&orchestration.ToolOther{Cause: errors.New("permission denied")},
	}
	seen := map[orchestration.Code]bool{}
	for _, tool := range tools {
		seen[tool.Code()] = true
		op := orchestration.OperatorErrorFromToolError(tool)
		other, ok := op.(*orchestration.OperatorOther)
		if !ok {
			t.Errorf("%s: converted into %T, want *OperatorOther", tool.Code(), op)
			continue
		}
		if other.Cause != tool || !errors.Is(op, tool) {
			t.Errorf("%s: the catch-all's cause is %v, want the tool error", tool.Code(), other.Cause)
		}
		if got, ok := orchestration.AsToolError(op); !ok || got != tool {
			t.Errorf("%s: AsToolError = %v, %v; want the tool error", tool.Code(), got, ok)
		}
		if orchestration.IsRetryable(op) {
			t.Errorf("%s: the converted error is retryable, want terminal", tool.Code())
		}
		if got, want := layers(op), []int{0, 1}; !slices.Equal(got, want) {
			t.Errorf("%s: layers = %v, want %v", tool.Code(), got, want)
		}
	}
	checkCovers(t, "ToolError", seen)

	var notFound *orchestration.ToolNotFound
	if !errors.As(orchestration.OperatorErrorFromToolError(tools[0]), &notFound) || notFound.Tool != "web_search" {
		t.Errorf("errors.As did not find the tool-not-found error with its tool name")
	}
	if op := orchestration.OperatorErrorFromToolError(nil); op != nil {
		t.Errorf("OperatorErrorFromToolError(nil) = %v, want nil", op)
	}
}

// Every operator error propagates into an orchestration error, which keeps
// it as its cause and is retryable exactly when it is.
func TestOrchErrorFromOperatorError(t *testing.T) {
	foreign := errors.New("unexpected operator state")
	ops := []struct {
		err       orchestration.OperatorError
		retryable bool
	}{
		{orchestration.OperatorErrorFromProviderError(&orchestration.RateLimited{RetryAfter: 2 * time.Second}), true},
		{orchestration.OperatorErrorFromProviderError(&orchestration.TransientError{Message: "bad gateway", Status: 502}), true},
		{orchestration.OperatorErrorFromProviderError(&orchestration.InvalidRequest{Message: "messages: field required", Status: 400}), false},
		{&orchestration.SubDispatchFailed{Operator: "researcher", Message: "no output"}, false},
		{&orchestration.ContextAssemblyFailed{Message: "history scope not found"}, false},
		{&orchestration.OperatorRetryable{Message: "lock held by another turn"}, true},
		{&orchestration.OperatorNonRetryable{Message: "token budget spent", Subcode: orchestration.CodeOperatorBudgetExceeded}, false},
		{&orchestration.OperatorOther{Cause: foreign}, false},
		{&orchestration.ModelCallFailed{Cause: foreign, Transient: true}, true},
		{&orchestration.ModelCallFailed{Cause: foreign}, false},
	}
	seen := map[orchestration.Code]bool{}
	for _, o := range ops {
		code := o.err.Code()
		seen[code] = true
		if info, ok := orchestration.Lookup(code); ok {
			seen[info.Code] = true // a sub-code counts for its variant
		}
		orch := orchestration.OrchErrorFromOperatorError(o.err)
		wrapper, ok := orch.(*orchestration.OrchOperatorError)
		if !ok {
			t.Errorf("%s: converted into %T, want *OrchOperatorError", code, orch)
			continue
		}
		if wrapper.Cause != o.err || !errors.Is(orch, o.err) {
			t.Errorf("%s: the orchestration error's cause is %v, want the operator error", code, wrapper.Cause)
		}
		if got, ok := orchestration.AsOperatorError(orch); !ok || got != o.err {
			t.Errorf("%s: AsOperatorError = %v, %v; want the operator error", code, got, ok)
		}
		if got := orchestration.IsRetryable(orch); got != o.retryable {
			t.Errorf("%s: IsRetryable(converted) = %v, want %v", code, got, o.retryable)
		}
		wantClass := orchestration.ClassTerminal
		if o.retryable {
			wantClass = orchestration.ClassRetryable
		}
		if got := orch.Class(); got != wantClass {
			t.Errorf("%s: Class() of the converted error = %s, want %s", code, got, wantClass)
		}
	}
	checkCovers(t, "OperatorError", seen)

	// Two conversions take a provider error up to the orchestrator.
	err := orchestration.OrchErrorFromOperatorError(orchestration.OperatorErrorFromProviderError(&orchestration.RateLimited{RetryAfter: 2 * time.Second}))
	if got, want := codes(err), []string{"orch_operator_error", "operator_model", "provider_rate_limited"}; !slices.Equal(got, want) {
		t.Errorf("Chain codes = %v, want %v", got, want)
	}
	if wait, ok := orchestration.RetryAfterOf(err); !ok || wait != 2*time.Second {
		t.Errorf("RetryAfterOf = %v, %v; want 2s, true", wait, ok)
	}
	if !errors.Is(orchestration.OrchErrorFromOperatorError(&orchestration.OperatorOther{Cause: foreign}), foreign) {
		t.Errorf("errors.Is does not reach the foreign error inside the operator's catch-all")
	}
	if orch := orchestration.OrchErrorFromOperatorError(nil); orch != nil {
		t.Errorf("OrchErrorFromOperatorError(nil) = %v, want nil", orch)
	}
}

// half fixes the jitter's random number at the middle, so that a delay is
// exactly the backoff.
func half() float64 { return 0.5 }

// up converts a provider error up to the orchestrator, as an operator and
// the orchestration layer do.
func up(p orchestration.ProviderError) orchestration.OrchError {
	return orchestration.OrchErrorFromOperatorError(orchestration.OperatorErrorFromProviderError(p))
}

// The retry middleware's policy is the orchestration errors': errgen's
// default schedule, as the design gives none.
func TestRetryPolicy(t *testing.T) {
	err := up(&orchestration.TransientError{Message: "bad gateway", Status: 502})
	p, ok := orchestration.RetryPolicyOf(err)
	want := orchestration.RetryPolicy{MaxRetries: 3, Base: time.Second, Cap: 10 * time.Second, Jitter: 0.2}
	if !ok || p != want {
		t.Fatalf("RetryPolicyOf = %+v, %v; want %+v, true", p, ok, want)
	}
	for n, want := range []time.Duration{time.Second, 2 * time.Second, 4 * time.Second} {
		if d, ok := p.Delay(err, n+1, half); !ok || d != want {
			t.Errorf("Delay after failure %d = %v, %v; want %v, true", n+1, d, ok, want)
		}
	}
	if d, ok := p.Delay(err, 4, half); ok {
		t.Errorf("Delay after failure 4 = %v, true; want no retry past max_retries 3", d)
	}
	// The jitter spreads a delay by up to 20 %, and the cap bounds it.
	if d, _ := p.Delay(err, 1, func() float64 { return 0 }); d != 800*time.Millisecond {
		t.Errorf("Delay with the lowest jitter = %v, want 800ms", d)
	}
	if d := p.Backoff(5, 0.5); d != 10*time.Second {
		t.Errorf("Backoff(5) = %v, want the 10s cap", d)
	}
	for range 100 {
		if d, ok := orchestration.RetryDelay(err, 2); !ok || d < 1600*time.Millisecond || d > 2400*time.Millisecond {
			t.Fatalf("RetryDelay(failure 2) = %v, %v; want 2s ±20%%", d, ok)
		}
	}

	// Only orchestration errors have a policy: the middleware retries what
	// the orchestrator sees, not the layers below, and not the environment.
	model := orchestration.OperatorErrorFromProviderError(&orchestration.TransientError{Status: 503})
	for _, e := range []error{
		&orchestration.TransientError{Status: 503},
		model,
		&orchestration.EnvOperatorError{Cause: model},
		errors.New("foreign"),
	} {
		if p, ok := orchestration.RetryPolicyOf(e); ok {
			t.Errorf("RetryPolicyOf(%v) = %+v, want none", e, p)
		}
		if d, ok := orchestration.RetryDelay(e, 1); ok {
			t.Errorf("RetryDelay(%v) = %v, true; want no retry", e, d)
		}
	}
}

// A provider's retry-after, found through every layer, replaces the
// backoff, even past the cap.
func TestRetryAfterPrecedence(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want time.Duration
	}{
		{"orchestration", up(&orchestration.RateLimited{RetryAfter: 3 * time.Second}), 3 * time.Second},
		{"caller's wrap", fmt.Errorf("workflow wf-42: %w", up(&orchestration.RateLimited{RetryAfter: 3 * time.Second})), 3 * time.Second},
		{"past the cap", up(&orchestration.RateLimited{RetryAfter: 30 * time.Second}), 30 * time.Second},
		{"below the backoff", up(&orchestration.RateLimited{RetryAfter: 500 * time.Millisecond}), 500 * time.Millisecond},
	}
	for _, tt := range tests {
		for n := 1; n <= 3; n++ {
			if d, ok := orchestration.RetryDelay(tt.err, n); !ok || d != tt.want {
				t.Errorf("%s: RetryDelay(failure %d) = %v, %v; want %v, true", tt.name, n, d, ok, tt.want)
			}
		}
		if d, ok := orchestration.RetryDelay(tt.err, 4); ok {
			t.Errorf("%s: RetryDelay(failure 4) = %v, true; want no retry past max_retries", tt.name, d)
		}
	}
	// Without a retry-after (zero: the provider did not say), the backoff.
	err := up(&orchestration.RateLimited{})
	p, _ := orchestration.RetryPolicyOf(err)
	if d, ok := p.Delay(err, 2, half); !ok || d != 2*time.Second {
		t.Errorf("rate limit without retry-after: Delay(failure 2) = %v, %v; want 2s, true", d, ok)
	}
}

// Terminal errors are not retried, whatever their chain holds.
func TestTerminalNotRetried(t *testing.T) {
	rate := &orchestration.RateLimited{RetryAfter: time.Second}
	terminal := []error{
		up(&orchestration.InvalidRequest{Message: "messages: field required", Status: 400}),
		up(&orchestration.AuthFailed{Message: "invalid API key"}),
		up(&orchestration.ContentBlocked{Message: "blocked"}),
		up(&orchestration.InvalidResponse{Message: "unexpected end of JSON input"}),
		// A catch-all is terminal, though the rate limit inside has a retry-after.
		up(&orchestration.ProviderOther{Cause: rate}),
		&orchestration.OrchOther{Cause: up(rate)},
		orchestration.OrchErrorFromOperatorError(&orchestration.OperatorNonRetryable{Message: "token budget spent", Subcode: orchestration.CodeOperatorBudgetExceeded}),
		orchestration.OrchErrorFromOperatorError(orchestration.OperatorErrorFromToolError(&orchestration.ToolExecutionFailed{Message: "exit status 1"})),
		&orchestration.OperatorNotFound{Operator: "summarizer"},
		&orchestration.WorkflowNotFound{Workflow: "wf-42"},
	}
	for _, err := range terminal {
		p, ok := orchestration.RetryPolicyOf(err)
		if !ok {
			t.Errorf("%s: no retry policy, want the orchestration errors'", orchestration.CodeOf(err))
		}
		for n := 1; n <= 3; n++ {
			if d, ok := p.Delay(err, n, half); ok {
				t.Errorf("%s: Delay(failure %d) = %v, true; want no retry", orchestration.CodeOf(err), n, d)
			}
			if d, ok := orchestration.RetryDelay(err, n); ok {
				t.Errorf("%s: RetryDelay(failure %d) = %v, true; want no retry", orchestration.CodeOf(err), n, d)
			}
		}
	}
	if _, ok := orchestration.RetryDelay(nil, 1); ok {
		t.Errorf("RetryDelay(nil) retries, want not")
	}
}

// statusError is a foreign error from an HTTP client that reports the
// response's status.
type statusError struct{ status int }

func (e *statusError) Error() string   { return fmt.Sprintf("unexpected response: HTTP %d", e.status) }
func (e *statusError) StatusCode() int { return e.status }

// Classify turns a foreign error from a provider call into the provider
// error it stands for, holding it as its cause; what fits no named variant
// goes to the catch-all.
func TestClassify(t *testing.T) {
	tests := []struct {
		name      string
		err       error
		code      orchestration.Code
		retryable bool
	}{
		{"context deadline", context.DeadlineExceeded, orchestration.CodeTransientError, true},
		{"wrapped deadline", fmt.Errorf("POST /v1/messages: %w", context.DeadlineExceeded), orchestration.CodeTransientError, true},
		{"network timeout", &net.DNSError{Err: "i/o timeout", Name: "api.example.com", IsTimeout: true}, orchestration.CodeTransientError, true},
		{"deadline of a connection", fmt.Errorf("read: %w", os.ErrDeadlineExceeded), orchestration.CodeTransientError, true},
		{"connection refused", errors.New("dial tcp 10.0.0.7:443: connect: connection refused"), orchestration.CodeTransientError, true},
		{"connection reset, any case", errors.New("read tcp 10.0.0.7:443: Connection Reset by peer"), orchestration.CodeTransientError, true},
		{"unknown host", errors.New("dial tcp: lookup api.example.com: no such host"), orchestration.CodeTransientError, true},
		{"503", &statusError{503}, orchestration.CodeTransientError, true},
		{"500", &statusError{500}, orchestration.CodeTransientError, true},
		{"599", &statusError{599}, orchestration.CodeTransientError, true},
		{"429", &statusError{429}, orchestration.CodeRateLimited, true},
		{"wrapped 429", fmt.Errorf("completion: %w", &statusError{429}), orchestration.CodeRateLimited, true},
		{"401", &statusError{401}, orchestration.CodeAuthFailed, false},
		{"403", &statusError{403}, orchestration.CodeAuthFailed, false},
		{"400", &statusError{400}, orchestration.CodeInvalidRequest, false},
		{"404", &statusError{404}, orchestration.CodeInvalidRequest, false},
		{"422", &statusError{422}, orchestration.CodeInvalidRequest, false},
		// The fallback: the catch-all, never retryable.
		{"302", &statusError{302}, orchestration.CodeProviderOther, false},
		{"anything else", errors.New("tls handshake failed"), orchestration.CodeProviderOther, false},
		{"canceled", context.Canceled, orchestration.CodeProviderOther, false},
	}
	for _, tt := range tests {
		got := orchestration.Classify(tt.err)
		if got == nil {
			t.Errorf("%s: Classify = nil, want %s", tt.name, tt.code)
			continue
		}
		if got.Code() != tt.code || got.Retryable() != tt.retryable {
			t.Errorf("%s: Classify = %s retryable %v, want %s retryable %v", tt.name, got.Code(), got.Retryable(), tt.code, tt.retryable)
		}
		if _, ok := got.(orchestration.ProviderError); !ok {
			t.Errorf("%s: Classify returned %T, want a provider error", tt.name, got)
		}
		// The foreign error is the cause, reachable through errors.Is and
		// errors.As.
		if u, ok := got.(interface{ Unwrap() error }); !ok || u.Unwrap() != tt.err {
			t.Errorf("%s: the classified error does not hold the foreign error as its cause", tt.name)
		}
		if !errors.Is(got, tt.err) {
			t.Errorf("%s: errors.Is does not reach the foreign error", tt.name)
		}
		var se *statusError
		if errors.As(tt.err, &se) {
			var got2 *statusError
			if !errors.As(got, &got2) || got2 != se {
				t.Errorf("%s: errors.As does not reach the HTTP client's error", tt.name)
			}
		}
	}

	// Classify sets the cause and, matching by status, the status the
	// design's variant carries; the message is the caller's to fill. A
	// network failure has no status.
	if tr, ok := orchestration.Classify(&statusError{503}).(*orchestration.TransientError); !ok || tr.Status != 503 || tr.Message != "" {
		t.Errorf("Classify(503) = %#v, want a TransientError with its cause and status 503 set", tr)
	}
	if ir, ok := orchestration.Classify(&statusError{422}).(*orchestration.InvalidRequest); !ok || ir.Status != 422 {
		t.Errorf("Classify(422) = %#v, want an InvalidRequest with status 422", ir)
	}
	if tr, ok := orchestration.Classify(context.DeadlineExceeded).(*orchestration.TransientError); !ok || tr.Status != 0 {
		t.Errorf("Classify(context.DeadlineExceeded) = %#v, want a TransientError without a status", tr)
	}
	// A catalogue error in the chain is already classified.
	own := up(&orchestration.RateLimited{RetryAfter: time.Second})
	if got := orchestration.Classify(fmt.Errorf("workflow wf-42: %w", own)); got != own {
		t.Errorf("Classify(wrapped catalogue error) = %v, want the catalogue error itself", got)
	}
	if got := orchestration.Classify(nil); got != nil {
		t.Errorf("Classify(nil) = %v, want nil", got)
	}
}

// A foreign error, classified and converted up the layers, is retried
// exactly when the design says the provider error is.
func TestClassifiedErrorsThroughLayers(t *testing.T) {
	tests := []struct {
		err   error
		retry bool
		wait  time.Duration // the first delay, with the jitter fixed
	}{
		{&statusError{503}, true, time.Second},
		{&statusError{429}, true, time.Second}, // a foreign 429 carries no retry-after
		{context.DeadlineExceeded, true, time.Second},
		{&statusError{400}, false, 0},
		{&statusError{401}, false, 0},
		{errors.New("tls handshake failed"), false, 0},
	}
	for _, tt := range tests {
		p, ok := orchestration.AsProviderError(orchestration.Classify(tt.err))
		if !ok {
			t.Errorf("%v: Classify gave no provider error", tt.err)
			continue
		}
		err := up(p)
		policy, _ := orchestration.RetryPolicyOf(err)
		if d, ok := policy.Delay(err, 1, half); ok != tt.retry || d != tt.wait {
			t.Errorf("%v through the layers: Delay(failure 1) = %v, %v; want %v, %v", tt.err, d, ok, tt.wait, tt.retry)
		}
		if !errors.Is(err, tt.err) {
			t.Errorf("%v: errors.Is does not reach the foreign error from the orchestration layer", tt.err)
		}
	}
}

// An operator classifies the error of a provider call, converts it, and the
// orchestrator's retry middleware follows the policy.
func ExampleClassify() {
	foreign := fmt.Errorf("POST /v1/messages: %w", context.DeadlineExceeded)
	provider := orchestration.Classify(foreign).(orchestration.ProviderError)
	fmt.Println(provider.Code(), provider.Retryable(), errors.Is(provider, context.DeadlineExceeded))

	err := orchestration.OrchErrorFromOperatorError(orchestration.OperatorErrorFromProviderError(provider))
	fmt.Println(codes(err))
	p, _ := orchestration.RetryPolicyOf(err)
	for failures := 1; failures <= 4; failures++ {
		d, retry := p.Delay(err, failures, func() float64 { return 0.5 })
		fmt.Println(failures, retry, d)
	}
	// Output:
	// provider_transient true true
	// [orch_operator_error operator_model provider_transient]
	// 1 true 1s
	// 2 true 2s
	// 3 true 4s
	// 4 false 0s
}
