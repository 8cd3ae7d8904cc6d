package runtime_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/golang/runtime"
)

// loggedProviderError is a family's interface with LogValue beside:
// every method a variant of the package has.
type loggedProviderError interface {
	runtime.ProviderError
	LogValue() slog.Value
}

// adapter is a type outside the package with every method of one of its
// variants, promoted from an interface it embeds, which may be nil: then
// every one of those methods panics.
type adapter struct{ loggedProviderError }

// TestCauseOfAnotherPackageWithTheMethodsOfAVariant: a cause whose type is
// declared outside the package is rendered as its Error method renders it
// (as fmt's %v prints it, a panic of that method recovered), even when it
// has every method of one of the package's variants: the rendering of
// the package's own causes in place asks none of its other methods, which
// may panic where the Error method's panic is recovered.
func TestCauseOfAnotherPackageWithTheMethodsOfAVariant(t *testing.T) {
	set := adapter{&runtime.RateLimited{Provider: "openai"}}
	for _, c := range []struct {
		cause error
		want  string
	}{
		{set, "memory unavailable: provider openai rate limited the request"},
		{adapter{}, "memory unavailable: " + fmt.Sprintf("%v", adapter{})},
	} {
		got := func() (s string) {
			defer func() {
				if r := recover(); r != nil {
					s = fmt.Sprintf("panic: %v", r)
				}
			}()
			return (&runtime.MemoryUnavailable{Err: c.cause}).Error()
		}()
		if got != c.want {
			t.Errorf("text of a wrapper of %#v = %q, want %q", c.cause, got, c.want)
		}
	}
}

// embedder is a type outside the package that embeds one of its variants
// as a value: every method of the variant is promoted to it, and the
// variant's own methods run on the pointer it holds.
type embedder struct{ *runtime.ProviderTimeout }

// TestErrorEmbeddingAVariant: an error whose type embeds one of the
// package's variants, itself or as the cause of one, is read through its
// methods, as an error of the catalogue outside the package's own types
// is: every function that writes, logs or asks an error of the catalogue
// takes it without reading it as the package's own type.
func TestErrorEmbeddingAVariant(t *testing.T) {
	inner := embedder{&runtime.ProviderTimeout{Cause: errors.New("deadline exceeded"), Status: 504}}
	for _, err := range []error{
		inner,
		&runtime.MemoryUnavailable{Err: inner},
		&runtime.MemoryUnavailable{Err: fmt.Errorf("again: %w", inner)},
		&runtime.ModelCallFailed{Cause: inner},
	} {
		for name, f := range withProjections(err, map[string]func() any{
			"Error": func() any { return err.Error() },
			"json.Marshal": func() any {
				b, jerr := json.Marshal(err)
				if jerr != nil || !json.Valid(b) {
					t.Errorf("json.Marshal of %T: %s, %v", err, b, jerr)
				}
				return string(b)
			},
			"LogValueOf":     func() any { return runtime.LogValueOf(err).String() },
			"IsRetryable":    func() any { return runtime.IsRetryable(err) },
			"ClassOf":        func() any { return runtime.ClassOf(err) },
			"CodeOf":         func() any { return runtime.CodeOf(err) },
			"UserMessageOf":  func() any { return runtime.UserMessageOf(err) },
			"RetryAfterOf":   func() any { d, ok := runtime.RetryAfterOf(err); return fmt.Sprint(d, ok) },
			"GRPCStatusJSON": func() any { return string(runtime.GRPCStatusJSON(err)) },
		}) {
			func() {
				defer func() {
					if r := recover(); r != nil {
						t.Errorf("%s of %T (%v) panics: %v", name, err, err, r)
					}
				}()
				f()
			}()
		}
	}
	// Its wire form as a cause, in a field of its family too, is one the
	// package's decoder reads, with the code of the variant it embeds.
	for _, err := range []error{
		&runtime.MemoryUnavailable{Err: inner},
		&runtime.MemoryUnavailable{Err: fmt.Errorf("again: %w", inner)},
		&runtime.ModelCallFailed{Cause: inner},
	} {
		b, _ := json.Marshal(err)
		r, derr := runtime.DecodePayload(b)
		if derr != nil {
			t.Errorf("the wire form of %T holding it does not decode: %v\n%s", err, derr, b)
			continue
		}
		if !runtime.HasCode(r, runtime.CodeProviderTimeout) {
			t.Errorf("the wire form of %T holding it loses its code: %s", err, b)
		}
	}
	if got := runtime.CodeOf(&runtime.MemoryUnavailable{Err: fmt.Errorf("again: %w", inner)}); got != runtime.CodeMemoryUnavailable {
		t.Errorf("CodeOf a wrapper of it = %q", got)
	}
	if got, _ := runtime.AsProviderError(fmt.Errorf("again: %w", inner)); got != inner {
		t.Errorf("AsProviderError of it wrapped = %v, want it", got)
	}
	if d, ok := runtime.RetryAfterOf(inner); ok {
		t.Errorf("RetryAfterOf it = %v, true; its variant has no retry_after field", d)
	}
}

// catalogued is the package's Error interface under a name that may be
// embedded beside the method Error.
type catalogued interface{ runtime.Error }

// anError is a type outside the package that embeds the package's Error
// interface, nil: it has every method of an error of the catalogue, and
// each of them panics.
type anError struct{ catalogued }

// aWrapper is one with an As method too, which panics as well.
type aWrapper struct{ asking }

type asking interface {
	runtime.Error
	As(any) bool
}

// TestForeignErrorWhoseMethodsPanic: a type outside the package with the
// methods of an error of the catalogue, promoted from a nil interface it
// embeds so that each of them panics, is taken by every exported function
// without a panic, itself, wrapped, and as the cause of a variant: as fmt
// takes an Error method that panics, and otherwise as an error outside the
// catalogue.
func TestForeignErrorWhoseMethodsPanic(t *testing.T) {
	for _, bad := range []error{adapter{}, anError{}, aWrapper{}} {
		for _, err := range []error{
			bad,
			fmt.Errorf("again: %w", bad),
			&runtime.MemoryUnavailable{Err: bad},
			&runtime.ModelCallFailed{Cause: adapter{}},
			errors.Join(errors.New("first"), bad),
		} {
			for name, f := range withProjections(err, map[string]func() any{
				"Error":   func() any { return err.Error() },
				"Sprintf": func() any { return fmt.Sprintf("%v %+v %#v %s %q", err, err, err, err, err) },
				"json.Marshal": func() any {
					b, _ := json.Marshal(err)
					return string(b)
				},
				"Chain": func() any {
					n := 0
					for range runtime.Chain(err) {
						n++
					}
					return n
				},
				"LogValueOf": func() any { return runtime.LogValueOf(err).String() },
				"LogAttr":    func() any { return runtime.LogAttr(err).String() },
				"slog": func() any {
					var b bytes.Buffer
					slog.New(slog.NewJSONHandler(&b, nil)).Error("x", "err", err)
					return b.String()
				},
				"IsRetryable":     func() any { return runtime.IsRetryable(err) },
				"ClassOf":         func() any { return runtime.ClassOf(err) },
				"CodeOf":          func() any { return runtime.CodeOf(err) },
				"RootCodeOf":      func() any { return runtime.RootCodeOf(err) },
				"HasCode":         func() any { return runtime.HasCode(err, runtime.CodeRateLimited) },
				"UserMessageOf":   func() any { return runtime.UserMessageOf(err) },
				"RetryAfterOf":    func() any { d, ok := runtime.RetryAfterOf(err); return fmt.Sprint(d, ok) },
				"LayerOf":         func() any { l, ok := runtime.LayerOf(err); return fmt.Sprint(l, ok) },
				"RetryPolicyOf":   func() any { p, ok := runtime.RetryPolicyOf(err); return fmt.Sprint(p, ok) },
				"RetryDelay":      func() any { d, ok := runtime.RetryDelay(err, 1); return fmt.Sprint(d, ok) },
				"Classify":        func() any { return runtime.CodeOf(runtime.Classify(err)) },
				"AsToolError":     func() any { _, ok := runtime.AsToolError(err); return ok },
				"AsProviderError": func() any { _, ok := runtime.AsProviderError(err); return ok },
				"AsOperatorError": func() any { _, ok := runtime.AsOperatorError(err); return ok },
				"WriteProblem": func() any {
					w := httptest.NewRecorder()
					runtime.WriteProblem(w, err, "")
					return w.Body.String()
				},
				"GRPCStatusJSON": func() any { return string(runtime.GRPCStatusJSON(err)) },
			}) {
				if own := strings.HasPrefix(fmt.Sprintf("%T", err), "*runtime."); name == "Error" && !own {
					// Its own Error method, or errors.Join's asking it.
					continue
				}
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Errorf("%s of %T (%q) panics: %v", name, err, fmt.Sprint(err), r)
						}
					}()
					f()
				}()
			}
		}
	}
	// Such an error is none of the catalogue: a chain's error of the
	// catalogue is found past it, and its text is what fmt prints.
	for _, c := range []struct {
		err  error
		want runtime.Code
	}{
		{adapter{}, ""},
		{fmt.Errorf("again: %w", anError{}), ""},
		{aWrapper{}, ""},
		{&runtime.MemoryUnavailable{Err: adapter{}}, runtime.CodeMemoryUnavailable},
		{errors.Join(aWrapper{}, &runtime.RateLimited{}), runtime.CodeRateLimited},
	} {
		if got := runtime.CodeOf(c.err); got != c.want {
			t.Errorf("CodeOf %T = %q, want %q", c.err, got, c.want)
		}
	}
	if got, want := runtime.LogValueOf(anError{}).String(), fmt.Sprint(anError{}); got != want {
		t.Errorf("LogValueOf = %q, want %q", got, want)
	}
	if got := runtime.CodeOf(runtime.Classify(aWrapper{})); got != runtime.CodeProviderFailed {
		t.Errorf("Classify = %q, want the fallback", got)
	}
}

// withProjections adds to calls a call of each projection of err, each
// made a value that compares.
func withProjections(err error, calls map[string]func() any) map[string]func() any {
	calls["MCPResult"] = func() any { b, k := runtime.MCPResult(err, true); return fmt.Sprint(string(b), k) }
	calls["AnthropicToolResult"] = func() any { return string(runtime.AnthropicToolResult("toolu_1", err)) }
	calls["OpenAIToolMessage"] = func() any { return string(runtime.OpenAIToolMessage("call_1", err)) }
	calls["AgentResponse"] = func() any { return string(runtime.AgentResponse(err)) }
	calls["ToolOutput"] = func() any { return string(runtime.ToolOutput(err)) }
	calls["ProblemJSON"] = func() any { b, s := runtime.ProblemJSON(err, ""); return fmt.Sprint(string(b), s) }
	return calls
}
