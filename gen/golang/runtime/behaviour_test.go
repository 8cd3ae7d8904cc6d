package runtime

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"testing"
	"time"
)

// These tests hold the behaviour a catalogue declares beside its errors, on
// the stand-in: its retry policies (the catalogue's, and ProviderError's
// own), Classify, and ProviderError's conversion into OperatorError.

// jitterAt returns a random source that always answers r.
func jitterAt(r float64) func() float64 { return func() float64 { return r } }

func TestBackoff(t *testing.T) {
	p := RetryPolicy{MaxRetries: 3, Base: time.Second, Cap: 10 * time.Second, Jitter: 0.2}
	for _, c := range []struct {
		n    int
		r    float64
		want time.Duration
	}{
		{0, 0.5, 0},
		{1, 0.5, time.Second},
		{2, 0.5, 2 * time.Second},
		{3, 0.5, 4 * time.Second},
		{4, 0.5, 8 * time.Second},
		{5, 0.5, 10 * time.Second}, // capped
		{60, 0.5, 10 * time.Second},
		// The multiplier is 1 + 0.2×(2r-1): 0.95 at r=0.375, 1.15 at
		// r=0.875, 0.8 at r=0, up to 1.2 as r nears 1.
		{2, 0.375, 1900 * time.Millisecond},
		{2, 0.875, 2300 * time.Millisecond},
		{2, 0, 1600 * time.Millisecond},
		{5, 0, 8 * time.Second},
	} {
		if got := p.Backoff(c.n, c.r); got != c.want {
			t.Errorf("Backoff(%d, %v) = %v, want %v", c.n, c.r, got, c.want)
		}
	}
}

// TestBackoffOutOfRange: any RetryPolicy value works, not only the
// catalogue's: doubling stops at Cap however near the longest Duration it
// is, jitter never makes a delay negative or wrap around, a policy whose
// Base or Cap is not positive waits nothing, and a huge n returns at
// once (with doubling that never stopped, Backoff(math.MaxInt, r) of a
// zero Base would not return).
func TestBackoffOutOfRange(t *testing.T) {
	const longest = time.Duration(math.MaxInt64)
	huge := RetryPolicy{Base: time.Second, Cap: longest}
	for _, c := range []struct {
		name string
		p    RetryPolicy
		n    int
		r    float64
		want time.Duration
	}{
		{"just below the longest", huge, 34, 0.5, time.Second << 33},
		{"past the longest", huge, 35, 0.5, longest},
		{"far past it", huge, 63, 0.5, longest},
		{"the largest n", huge, math.MaxInt, 0.5, longest},
		{"jitter past the longest", RetryPolicy{Base: time.Second, Cap: longest, Jitter: 0.5}, 40, 0.99, longest},
		{"a cap that is no power of two of the base", RetryPolicy{Base: 3 * time.Second, Cap: longest - 1}, 70, 0.5, longest - 1},
		{"a base above the cap", RetryPolicy{Base: time.Hour, Cap: time.Minute}, 1, 0.5, time.Minute},
		{"a zero base", RetryPolicy{Cap: time.Second}, math.MaxInt, 0.5, 0},
		{"a negative base", RetryPolicy{Base: -time.Second, Cap: time.Second}, 3, 0.5, 0},
		{"a zero cap", RetryPolicy{Base: time.Second}, 3, 0.5, 0},
		{"a negative cap", RetryPolicy{Base: time.Second, Cap: -time.Second}, 3, 0.5, 0},
		{"jitter above 1", RetryPolicy{Base: time.Second, Cap: time.Minute, Jitter: 3}, 1, 0, 0},
		{"negative jitter", RetryPolicy{Base: time.Second, Cap: time.Minute, Jitter: -0.5}, 1, 0, 1500 * time.Millisecond},
		{"a random number that is none", RetryPolicy{Base: time.Second, Cap: time.Minute, Jitter: 0.2}, 1, math.NaN(), time.Second},
	} {
		if got := c.p.Backoff(c.n, c.r); got != c.want {
			t.Errorf("%s: %+v.Backoff(%d, %v) = %v, want %v", c.name, c.p, c.n, c.r, got, c.want)
		}
	}
}

func TestRetryPolicyOf(t *testing.T) {
	catalogue := RetryPolicy{MaxRetries: 3, Base: time.Second, Cap: 10 * time.Second, Jitter: 0.2}
	provider := RetryPolicy{MaxRetries: 5, Base: 500 * time.Millisecond, Cap: 10 * time.Second, Jitter: 0.2}
	for _, c := range []struct {
		err  error
		want RetryPolicy
		ok   bool
	}{
		{&ToolTimeout{}, catalogue, true},
		{&RateLimited{}, provider, true},
		// The outermost error of the catalogue decides: the operator's.
		{&ModelCallFailed{Cause: &RateLimited{}}, catalogue, true},
		{fmt.Errorf("call: %w", &ServerError{}), provider, true},
		{errors.New("foreign"), RetryPolicy{}, false},
		{nil, RetryPolicy{}, false},
	} {
		got, ok := RetryPolicyOf(c.err)
		if got != c.want || ok != c.ok {
			t.Errorf("RetryPolicyOf(%v) = %+v, %v; want %+v, %v", c.err, got, ok, c.want, c.ok)
		}
	}
}

func TestRetryDelay(t *testing.T) {
	p := RetryPolicy{MaxRetries: 3, Base: time.Second, Cap: 10 * time.Second, Jitter: 0.2}
	limited := &RateLimited{Provider: "openai", RetryAfter: 7 * time.Second}
	for _, c := range []struct {
		name     string
		err      error
		failures int
		want     time.Duration
		ok       bool
	}{
		{"first retry", &ToolTimeout{}, 1, 1200 * time.Millisecond, true},
		{"third retry", &ToolTimeout{}, 3, 4800 * time.Millisecond, true},
		{"past the last retry", &ToolTimeout{}, 4, 0, false},
		{"no failure yet", &ToolTimeout{}, 0, 0, false},
		{"terminal", &AuthFailed{}, 1, 0, false},
		{"non-fatal", &MemoryUnavailable{}, 1, 0, false},
		{"foreign", errors.New("boom"), 1, 0, false},
		// A retry-after comes first, without jitter and past the cap,
		// found through wrappers of the catalogue and of fmt.
		{"retry-after", limited, 1, 7 * time.Second, true},
		{"retry-after wrapped", fmt.Errorf("turn: %w", &ModelCallFailed{Cause: limited}), 2, 7 * time.Second, true},
		{"retry-after past the cap", &RateLimited{RetryAfter: time.Minute}, 1, time.Minute, true},
		{"retry-after zero", &RateLimited{}, 2, 2400 * time.Millisecond, true},
		// Retryability comes from the cause: a wrapped terminal error is
		// not retried.
		{"wrapped terminal", &ModelCallFailed{Cause: &AuthFailed{}}, 1, 0, false},
	} {
		got, ok := p.Delay(c.err, c.failures, jitterAt(0.999999999))
		if ok != c.ok || got.Round(time.Millisecond) != c.want {
			t.Errorf("%s: Delay(%v, %d) = %v, %v; want %v, %v", c.name, c.err, c.failures, got, ok, c.want, c.ok)
		}
	}
	if got, _ := p.Delay(&ToolTimeout{}, 2, nil); got != 2*time.Second {
		t.Errorf("Delay without a random source = %v, want 2s (no jitter)", got)
	}
	// RetryDelay draws its jitter: every delay lies within ±20 % of the
	// family policy's schedule (ProviderError's: 500ms, then doubling).
	for failures := 1; failures <= 5; failures++ {
		want := 500 * time.Millisecond << (failures - 1)
		for range 50 {
			got, ok := RetryDelay(&ServerError{}, failures)
			if !ok || got < want*8/10 || got > want*12/10 {
				t.Fatalf("RetryDelay(ServerError, %d) = %v, %v; want within ±20%% of %v", failures, got, ok, want)
			}
		}
	}
	if _, ok := RetryDelay(&ServerError{}, 6); ok {
		t.Error("RetryDelay retries ProviderError a sixth time; its policy allows 5")
	}
	if _, ok := RetryDelay(errors.New("foreign"), 1); ok {
		t.Error("RetryDelay retries an error without a policy")
	}
}

// An error of a code this catalogue does not know, decoded from a newer
// sender, belongs to no family: it takes the catalogue's own policy, which
// retries it when the sender said it is retryable, with the policy's
// backoff (no field of this catalogue holds a wait of that code).
func TestUnknownCodeTakesTheCatalogueRetry(t *testing.T) {
	catalogue := RetryPolicy{MaxRetries: 3, Base: time.Second, Cap: 10 * time.Second, Jitter: 0.2}
	decode := func(retryable string) *RemoteError {
		r, err := DecodePayload([]byte(`{"category":"new","code":"from_the_future","code_num":9999,"error":"overloaded","retryable":` + retryable + `,"suppress_retry":false}`))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	retryable, terminal := decode("true"), decode("false")
	for _, err := range []error{retryable, fmt.Errorf("relay: %w", retryable), terminal} {
		if p, ok := RetryPolicyOf(err); !ok || p != catalogue {
			t.Errorf("RetryPolicyOf(%v) = %+v, %v; want the catalogue's", err, p, ok)
		}
	}
	for failures, want := range map[int]time.Duration{1: time.Second, 3: 4 * time.Second} {
		if d, ok := RetryDelay(retryable, failures); !ok || d < want*8/10 || d > want*12/10 {
			t.Errorf("RetryDelay(retryable unknown code, %d) = %v, %v; want about %v", failures, d, ok, want)
		}
	}
	if _, ok := RetryDelay(retryable, 4); ok {
		t.Error("RetryDelay retries an unknown code past the catalogue policy's last retry")
	}
	if _, ok := RetryDelay(terminal, 1); ok {
		t.Error("RetryDelay retries an unknown code the sender said is not retryable")
	}
}

// statusError is a foreign error that reports an HTTP status, as SDK
// errors do.
type statusError struct{ status int }

func (e *statusError) Error() string   { return fmt.Sprintf("HTTP %d", e.status) }
func (e *statusError) StatusCode() int { return e.status }

// netTimeout is a foreign error whose Timeout method reports true, as a
// net.Error's does.
type netTimeout struct{}

func (netTimeout) Error() string   { return "i/o deadline reached" }
func (netTimeout) Timeout() bool   { return true }
func (netTimeout) Temporary() bool { return true }

func TestClassify(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want Code
	}{
		{"deadline", fmt.Errorf("call: %w", context.DeadlineExceeded), CodeProviderTimeout},
		{"net timeout", fmt.Errorf("read: %w", netTimeout{}), CodeProviderTimeout},
		{"canceled", context.Canceled, CodeProviderFailed},
		{"permission", fmt.Errorf("open: %w", fs.ErrPermission), CodeProviderFailed},
		{"status of the chain", fmt.Errorf("sdk: %w", &statusError{504}), CodeProviderTimeout},
		// RateLimited stands for 429 but holds no foreign error: Classify
		// does not give it one; the text decides, then the fallback.
		{"status without a holder", &statusError{429}, CodeProviderFailed},
		{"text in any case", errors.New("Request TIMED OUT after 60s"), CodeProviderTimeout},
		{"text, first rule wins", errors.New("dial: ECONNREFUSED, timeout"), CodeProviderTimeout},
		{"text", errors.New("dial tcp: lookup api.example: no such host"), CodeProviderUnreachable},
		{"fallback", errors.New("unexpected EOF"), CodeProviderFailed},
	} {
		got := Classify(c.err)
		if got == nil || got.Code() != c.want {
			t.Errorf("%s: Classify(%v) = %v, want a %s", c.name, c.err, got, c.want)
			continue
		}
		if !errors.Is(got, c.err) || errors.Unwrap(got) != c.err {
			t.Errorf("%s: Classify(%v) does not hold the foreign error as its cause: %v", c.name, c.err, got)
		}
	}
	// A status match fills the http_status field with the status the
	// foreign error reported; a match by condition or text leaves it 0.
	for err, want := range map[error]int{
		fmt.Errorf("sdk: %w", &statusError{504}): 504, &statusError{408}: 408,
		context.DeadlineExceeded: 0, errors.New("Request TIMED OUT after 60s"): 0,
	} {
		if got, ok := Classify(err).(*ProviderTimeout); !ok || got.Status != want {
			t.Errorf("Classify(%v) = %#v, want a ProviderTimeout with status %d", err, Classify(err), want)
		}
	}
	if got := Classify(nil); got != nil {
		t.Errorf("Classify(nil) = %v, want nil", got)
	}
	var typedNil *statusError
	if got := Classify(typedNil); got != nil {
		t.Errorf("Classify of a nil pointer = %v, want nil", got)
	}
	// An error of the catalogue is its own classification, found through
	// foreign wrappers.
	own := &RateLimited{Provider: "openai"}
	if got := Classify(fmt.Errorf("turn: %w", own)); got != Error(own) {
		t.Errorf("Classify of a wrapped catalogue error = %v, want the error itself", got)
	}
	// Retryability follows the variant Classify chose.
	if !IsRetryable(Classify(context.DeadlineExceeded)) || IsRetryable(Classify(errors.New("unexpected EOF"))) {
		t.Error("a classified timeout must be retryable and the fallback terminal")
	}
}

func TestConversion(t *testing.T) {
	limited := &RateLimited{Provider: "openai", RetryAfter: 3 * time.Second}
	got := OperatorErrorFromProviderError(limited)
	want := &ModelCallFailed{Cause: limited, Provider: "openai"}
	if m, ok := got.(*ModelCallFailed); !ok || *m != *want {
		t.Fatalf("conversion of RateLimited = %#v, want %#v", got, want)
	}
	// The converted error keeps the original as its cause: retryability,
	// retry-after and errors.As reach it.
	if !IsRetryable(got) || !errors.Is(got, limited) {
		t.Errorf("the conversion lost its cause: %v", got)
	}
	if d, ok := RetryAfterOf(got); !ok || d != 3*time.Second {
		t.Errorf("RetryAfterOf(converted) = %v, %v; want 3s", d, ok)
	}
	if IsRetryable(OperatorErrorFromProviderError(&AuthFailed{})) {
		t.Error("a converted terminal error became retryable")
	}
	// A variant without a field of the same name carries none over; one
	// that names its own target gets it.
	if m, ok := OperatorErrorFromProviderError(&ProviderTimeout{}).(*ModelCallFailed); !ok || m.Provider != "" {
		t.Errorf("ProviderTimeout converts to %#v, want the default ModelCallFailed", m)
	}
	failed := &ProviderFailed{Cause: errors.New("EOF")}
	if o, ok := OperatorErrorFromProviderError(failed).(*OperatorFailed); !ok || o.Cause != error(failed) {
		t.Errorf("ProviderFailed converts to %#v, want its maps_to, OperatorFailed", o)
	}
	// A target whose retryable field no field of the same name fills gets
	// the converted error's retryability in it, as the designs' operator
	// marks a mapped model error retryable when the provider's was.
	for _, tc := range []struct {
		from ProviderError
		want bool
	}{{&ProviderBusy{Provider: "openai"}, true}, {&QuotaExhausted{Provider: "openai"}, false}} {
		o, ok := OperatorErrorFromProviderError(tc.from).(*OperatorStepFailed)
		if !ok || o.Transient != tc.want || o.Retryable() != tc.want || IsRetryable(o) != tc.want || o.Cause != tc.from {
			t.Errorf("%s converts to %#v, want an OperatorStepFailed whose Transient is %v", tc.from.Code(), o, tc.want)
		}
	}
	var typedNil *RateLimited
	if got := OperatorErrorFromProviderError(typedNil); got != nil {
		t.Errorf("conversion of a nil pointer = %#v, want nil", got)
	}
	if got := OperatorErrorFromProviderError(nil); got != nil {
		t.Errorf("conversion of nil = %#v, want nil", got)
	}
}
