package runtime_test

import (
	"fmt"
	"log/slog"
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
