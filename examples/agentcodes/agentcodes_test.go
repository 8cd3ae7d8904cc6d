package agentcodes_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/errgen/errgen/examples/agentcodes"
)

// These tests hold the framework's rules: its agent codes and which of
// them are retryable, the user-friendly messages, the mappings of the model
// and tool layers' codes into the agent's, the keyword classification of
// provider errors, and the backoff schedule with the provider's
// retry-after first.

func TestAgentCodes(t *testing.T) {
	want := []agentcodes.Code{
		"PROVIDER_NOT_CONFIGURED", "PROVIDER_NOT_SUPPORTED", "AUTHENTICATION_ERROR", "RATE_LIMITED",
		"MODEL_NOT_FOUND", "CONTEXT_LENGTH_EXCEEDED", "NETWORK_ERROR", "TIMEOUT", "INVALID_RESPONSE",
		"VALIDATION_ERROR", "IO_ERROR", "CONFIG_ERROR", "PERMISSION_DENIED", "NOT_FOUND",
		"LLM_ASSIST_REQUIRED", "MAX_ITERATIONS_EXCEEDED", "TOOL_EXECUTION_ERROR", "INITIALIZATION_ERROR", "UNKNOWN",
	}
	var got, retryable []agentcodes.Code
	for _, in := range agentcodes.All() {
		if in.Family != "AgentError" {
			continue
		}
		got = append(got, in.Code)
		if in.Retryable {
			retryable = append(retryable, in.Code)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("agent codes = %v\nwant %v", got, want)
	}
	if want := []agentcodes.Code{"RATE_LIMITED", "NETWORK_ERROR", "TIMEOUT"}; !slices.Equal(retryable, want) {
		t.Errorf("retryable agent codes = %v, want exactly %v", retryable, want)
	}
}

func TestUserMessages(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{&agentcodes.AuthenticationError{Cause: errors.New("401")}, "The AI provider did not accept your API key. Check your API key in settings."},
		{&agentcodes.NetworkError{Cause: errors.New("ECONNREFUSED 127.0.0.1:443")}, "Cannot connect to the AI provider. Check your internet connection."},
		// Technical text never reaches the user: a code without a message
		// of its own reads the catalogue's sentence.
		{&agentcodes.Unknown{Cause: errors.New("TypeError: x is undefined")}, "Something went wrong (UNKNOWN). Please try again."},
	} {
		if got := agentcodes.UserMessageOf(c.err); got != c.want {
			t.Errorf("UserMessageOf(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}

func TestLayerMappings(t *testing.T) {
	sdk := errors.New("sdk failure")
	for _, c := range []struct {
		from agentcodes.LLMError
		want agentcodes.Code
	}{
		{&agentcodes.LLMProviderNotConfigured{Cause: sdk}, "PROVIDER_NOT_CONFIGURED"},
		{&agentcodes.LLMProviderNotSupported{Cause: sdk}, "PROVIDER_NOT_SUPPORTED"},
		{&agentcodes.LLMAuthenticationError{Cause: sdk}, "AUTHENTICATION_ERROR"},
		{&agentcodes.LLMRateLimited{Cause: sdk}, "RATE_LIMITED"},
		{&agentcodes.LLMModelNotFound{Cause: sdk}, "MODEL_NOT_FOUND"},
		{&agentcodes.LLMContextLengthExceeded{Cause: sdk}, "CONTEXT_LENGTH_EXCEEDED"},
		{&agentcodes.LLMTimeout{Cause: sdk}, "TIMEOUT"},
		{&agentcodes.LLMNetworkError{Cause: sdk}, "NETWORK_ERROR"},
		{&agentcodes.LLMInvalidResponse{Cause: sdk}, "INVALID_RESPONSE"},
		{&agentcodes.LLMUnknown{Cause: sdk}, "UNKNOWN"},
	} {
		got := agentcodes.AgentErrorFromLLMError(c.from)
		if got.Code() != c.want || !errors.Is(got, c.from) || !errors.Is(got, sdk) {
			t.Errorf("AgentErrorFromLLMError(%T) = %s %v, want %s holding the original", c.from, got.Code(), got, c.want)
		}
	}
	for _, c := range []struct {
		from agentcodes.ToolError
		want agentcodes.Code
	}{
		{&agentcodes.ToolValidationError{}, "VALIDATION_ERROR"},
		{&agentcodes.ToolIOError{}, "IO_ERROR"},
		{&agentcodes.ToolConfigError{}, "CONFIG_ERROR"},
		{&agentcodes.ToolPermissionDenied{}, "PERMISSION_DENIED"},
		{&agentcodes.ToolNotFound{}, "NOT_FOUND"},
		{&agentcodes.ToolLLMAssistRequired{}, "LLM_ASSIST_REQUIRED"},
		{&agentcodes.ToolRateLimited{}, "RATE_LIMITED"},
		{&agentcodes.ToolTimeout{}, "TIMEOUT"},
		// A tool failure the table does not name is a tool execution error.
		{&agentcodes.ToolFailed{}, "TOOL_EXECUTION_ERROR"},
	} {
		if got := agentcodes.AgentErrorFromToolError(c.from); got.Code() != c.want {
			t.Errorf("AgentErrorFromToolError(%T) = %s, want %s", c.from, got.Code(), c.want)
		}
	}
	// The provider's metadata travels with the code: provider, model,
	// status and retry-after are carried over, the SDK error is the cause.
	limited := &agentcodes.LLMRateLimited{Provider: "openai", Model: "gpt-4o", StatusCode: 429, RetryAfter: 20 * time.Second, Cause: sdk}
	got, ok := agentcodes.AgentErrorFromLLMError(limited).(*agentcodes.RateLimited)
	want := agentcodes.RateLimited{Provider: "openai", Model: "gpt-4o", StatusCode: 429, RetryAfter: 20 * time.Second, Cause: limited}
	if !ok || *got != want {
		t.Errorf("AgentErrorFromLLMError(rate limit) = %#v, want %#v", got, want)
	}
	tool, _ := agentcodes.AgentErrorFromToolError(&agentcodes.ToolTimeout{Tool: "web_search", Cause: sdk}).(*agentcodes.Timeout)
	if tool == nil || tool.Tool != "web_search" {
		t.Errorf("a tool timeout lost its tool: %#v", tool)
	}
}

// sdkError is a provider SDK's error: a message and an HTTP status.
type sdkError struct {
	status int
	msg    string
}

func (e *sdkError) Error() string   { return e.msg }
func (e *sdkError) StatusCode() int { return e.status }

func TestKeywordMapping(t *testing.T) {
	for _, c := range []struct {
		err  error
		want agentcodes.Code
	}{
		{errors.New("Invalid API key provided"), "LLM_AUTHENTICATION_ERROR"},
		{errors.New("401 Unauthorized"), "LLM_AUTHENTICATION_ERROR"},
		{errors.New("Rate limit reached for gpt-4o"), "LLM_RATE_LIMITED"},
		{errors.New("status 429"), "LLM_RATE_LIMITED"},
		{errors.New("Request timeout"), "LLM_TIMEOUT"},
		{errors.New("network socket disconnected"), "LLM_NETWORK_ERROR"},
		{errors.New("connect ECONNREFUSED 127.0.0.1:443"), "LLM_NETWORK_ERROR"},
		{errors.New("something else entirely"), "LLM_UNKNOWN"},
		// Beyond the keywords: Go's own conditions and the SDK's status.
		{fmt.Errorf("invoke: %w", context.DeadlineExceeded), "LLM_TIMEOUT"},
		{&sdkError{http.StatusNotFound, "The model does not exist"}, "LLM_MODEL_NOT_FOUND"},
		{&sdkError{http.StatusTooManyRequests, "slow down"}, "LLM_RATE_LIMITED"},
		{errors.New("This model's maximum context length is 128000 tokens"), "LLM_CONTEXT_LENGTH_EXCEEDED"},
		{errors.New("request timed out"), "LLM_TIMEOUT"},
		// A status decides before keywords: the design, reading only the
		// text, would say authentication (docs/examples/agentcodes.md).
		{&sdkError{http.StatusTooManyRequests, "Invalid API key"}, "LLM_RATE_LIMITED"},
	} {
		got := agentcodes.Classify(c.err)
		if got == nil || got.Code() != c.want || !errors.Is(got, c.err) {
			t.Errorf("Classify(%q) = %v, want %s holding the original", c.err, got, c.want)
		}
	}
	// Classified, then mapped: the agent's code, retryable as it should be.
	agent := agentcodes.AgentErrorFromLLMError(agentcodes.Classify(errors.New("rate limit exceeded")).(agentcodes.LLMError))
	if agent.Code() != "RATE_LIMITED" || !agentcodes.IsRetryable(agent) {
		t.Errorf("classified and mapped: %s, retryable %v", agent.Code(), agentcodes.IsRetryable(agent))
	}
}

func TestBackoff(t *testing.T) {
	err := &agentcodes.NetworkError{Cause: errors.New("ECONNRESET")}
	p, ok := agentcodes.RetryPolicyOf(err)
	if !ok || p.MaxRetries != 3 || p.Base != time.Second || p.Cap != 10*time.Second || p.Jitter != 0.2 {
		t.Fatalf("RetryPolicyOf = %+v, %v; want 3 retries, base 1000ms, cap 10000ms, ±20%%", p, ok)
	}
	noJitter := func() float64 { return 0.5 }
	// Attempt 0 is the call itself; retry n waits base×2^(n-1).
	for n, want := range []time.Duration{1: 1000 * time.Millisecond, 2: 2000 * time.Millisecond, 3: 4000 * time.Millisecond} {
		if n == 0 {
			continue
		}
		if got, ok := p.Delay(err, n, noJitter); !ok || got != want {
			t.Errorf("retry %d: %v, %v; want %v", n, got, ok, want)
		}
	}
	if _, ok := p.Delay(err, 4, noJitter); ok {
		t.Error("a fourth retry; maxRetries is 3")
	}
	// The cap: without the retry limit, the fifth delay would be 16s.
	if got := p.Backoff(5, 0.5); got != 10*time.Second {
		t.Errorf("Backoff(5) = %v, want the 10000ms cap", got)
	}
	// The document's jitter examples for retry 2: ×0.95 and ×1.15.
	if got := p.Backoff(2, 0.375); got != 1900*time.Millisecond {
		t.Errorf("retry 2 at ×0.95 = %v, want 1900ms", got)
	}
	if got := p.Backoff(2, 0.875); got != 2300*time.Millisecond {
		t.Errorf("retry 2 at ×1.15 = %v, want 2300ms", got)
	}
	// The provider's retry-after comes first, wherever it is in the chain.
	limited := agentcodes.AgentErrorFromLLMError(&agentcodes.LLMRateLimited{RetryAfter: 7 * time.Second, Cause: errors.New("429")})
	if got, ok := agentcodes.RetryDelay(fmt.Errorf("turn: %w", limited), 1); !ok || got != 7*time.Second {
		t.Errorf("RetryDelay with a retry-after of 7s = %v, %v", got, ok)
	}
	// Terminal codes are not retried.
	if _, ok := agentcodes.RetryDelay(&agentcodes.AuthenticationError{}, 1); ok {
		t.Error("AUTHENTICATION_ERROR is retried")
	}
	// With real jitter every delay stays within ±20 %.
	for range 100 {
		if got, _ := agentcodes.RetryDelay(err, 2); got < 1600*time.Millisecond || got > 2400*time.Millisecond {
			t.Fatalf("RetryDelay(retry 2) = %v, want 2000ms ±20%%", got)
		}
	}
}

func ExampleRetryDelay() {
	call := func(attempt int) error {
		if attempt < 2 {
			return agentcodes.Classify(errors.New("connect ECONNREFUSED"))
		}
		return nil
	}
	for attempt := 0; ; attempt++ {
		err := call(attempt)
		if err == nil {
			fmt.Println("succeeded on attempt", attempt)
			return
		}
		d, retry := agentcodes.RetryDelay(err, attempt+1)
		if !retry {
			fmt.Println("giving up:", err)
			return
		}
		fmt.Println(agentcodes.CodeOf(err), "retry after about", d.Round(time.Second))
		// time.Sleep(d)
	}
	// Output:
	// LLM_NETWORK_ERROR retry after about 1s
	// LLM_NETWORK_ERROR retry after about 2s
	// succeeded on attempt 2
}
