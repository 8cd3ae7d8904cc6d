package orchestration_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"testing"

	"github.com/errgen/errgen/examples/orchestration"
)

// ModelCallFailed carries its own retryable flag: its Transient field,
// which the operator sets when it maps a library's error. Every answer
// about the error follows the field, instance by instance: the methods,
// the package's functions, the wire form, the log value, a decoded copy
// and the retry delay of an orchestration error that wraps it.
func TestModelCallFailedRetryableField(t *testing.T) {
	lib := errors.New("stream closed: unexpected EOF")
	for _, transient := range []bool{true, false} {
		e := &orchestration.ModelCallFailed{Cause: lib, Transient: transient}
		class := orchestration.ClassTerminal
		if transient {
			class = orchestration.ClassRetryable
		}
		name := fmt.Sprintf("transient=%t", transient)
		if got := e.Retryable(); got != transient {
			t.Errorf("%s: Retryable() = %t", name, got)
		}
		if got := e.Class(); got != class {
			t.Errorf("%s: Class() = %s, want %s", name, got, class)
		}
		wrapped := fmt.Errorf("calling the model: %w", e)
		if got := orchestration.IsRetryable(wrapped); got != transient {
			t.Errorf("%s: IsRetryable = %t", name, got)
		}
		if got := orchestration.ClassOf(wrapped); got != class {
			t.Errorf("%s: ClassOf = %s, want %s", name, got, class)
		}

		// The wire form says what Retryable says, and holds the field.
		wire, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("%s: json.Marshal: %v", name, err)
		}
		var members map[string]any
		if err := json.Unmarshal(wire, &members); err != nil {
			t.Fatalf("%s: wire form %s: %v", name, wire, err)
		}
		if got := members["retryable"]; got != transient {
			t.Errorf("%s: wire form's retryable = %v in %s", name, got, wire)
		}

		// The log value says it too.
		logged := map[string]slog.Value{}
		for _, a := range e.LogValue().Group() {
			logged[a.Key] = a.Value
		}
		if got := logged["retryable"]; got.Kind() != slog.KindBool || got.Bool() != transient {
			t.Errorf("%s: logged retryable = %v", name, got)
		}
		if got := logged["class"].String(); got != class.String() {
			t.Errorf("%s: logged class = %q, want %q", name, got, class)
		}

		// A decoded copy answers as the error did, and so does the
		// variant it holds, whose field came over the wire.
		r, err := orchestration.DecodePayload(wire)
		if err != nil {
			t.Fatalf("%s: DecodePayload(%s): %v", name, wire, err)
		}
		if r.Retryable() != transient || r.Class() != class || orchestration.IsRetryable(r) != transient || orchestration.ClassOf(r) != class {
			t.Errorf("%s: decoded Retryable, Class, IsRetryable, ClassOf = %t, %s, %t, %s", name, r.Retryable(), r.Class(), orchestration.IsRetryable(r), orchestration.ClassOf(r))
		}
		var got *orchestration.ModelCallFailed
		if !errors.As(r, &got) || got.Transient != transient || got.Retryable() != transient {
			t.Errorf("%s: decoded variant = %#v", name, got)
		}

		// An orchestration error that wraps it is retried exactly when
		// the field says so.
		orch := orchestration.OrchErrorFromOperatorError(e)
		if _, ok := orchestration.RetryDelay(orch, 1); ok != transient {
			t.Errorf("%s: RetryDelay of the wrapping orchestration error: ok = %t", name, ok)
		}
		if got := orch.Retryable(); got != transient {
			t.Errorf("%s: Retryable of the wrapping orchestration error = %t", name, got)
		}
	}

	// Nil is no error, and retryable never; its Info says what an error
	// whose field is false says.
	var none *orchestration.ModelCallFailed
	if none.Retryable() || none.Class() != orchestration.ClassTerminal {
		t.Errorf("nil: Retryable, Class = %t, %s", none.Retryable(), none.Class())
	}
	info, ok := orchestration.Lookup(orchestration.CodeModelCallFailed)
	if !ok || info.Retryable || info.RetryableFromCause || info.Class != orchestration.ClassTerminal {
		t.Errorf("Info = %+v, want not retryable, not from cause, terminal", info)
	}
}
