package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// annotated is a type of the package's own, beside its variants (a file
// written by hand in the generated package), that embeds one of them: it
// has every method of the variant, promoted, but fields of its own in
// other places.
type annotated struct {
	*ProviderTimeout
	Note string
}

// unhashable embeds a variant and holds a slice: it cannot be a map key.
type unhashable struct {
	*ProviderTimeout
	notes []string
}

// TestErrorEmbeddingAVariantInThePackage: an error of a type declared in
// the package that embeds a variant is not read as that variant either:
// its fields are not the variant's, and a cause of it is written, logged
// and asked through its methods, as one declared outside the package is.
func TestErrorEmbeddingAVariantInThePackage(t *testing.T) {
	inner := &annotated{&ProviderTimeout{Cause: errors.New("deadline exceeded"), Status: 504}, "a note"}
	for _, err := range []error{
		&MemoryUnavailable{Err: inner},
		&MemoryUnavailable{Err: fmt.Errorf("again: %w", inner)},
		&ModelCallFailed{Cause: inner},
	} {
		b, jerr := json.Marshal(err)
		if jerr != nil {
			t.Fatalf("json.Marshal of %T: %v", err, jerr)
		}
		if strings.Contains(string(b), "a note") {
			t.Errorf("json.Marshal of %T reads a field of %T as its variant's: %s", err, inner, b)
		}
		if _, derr := DecodePayload(b); derr != nil {
			t.Errorf("the wire form of %T does not decode: %v\n%s", err, derr, b)
		}
		if s := LogValueOf(err).String(); strings.Contains(s, "a note") {
			t.Errorf("LogValueOf %T reads a field of %T as its variant's: %s", err, inner, s)
		}
	}
}

// TestDecodedVariantGivenACauseThatEmbedsAVariant: the variant of a
// decoded error, reached with errors.As and given a cause whose type
// embeds a variant and cannot be a map key, is still written.
func TestDecodedVariantGivenACauseThatEmbedsAVariant(t *testing.T) {
	sent := &ModelCallFailed{Cause: &ProviderTimeout{Cause: errors.New("deadline exceeded")}, Provider: "openai"}
	for name, shape := range map[string][]byte{
		"wire form":      must(json.Marshal(sent)),
		"agent response": AgentResponse(sent),
	} {
		var r *RemoteError
		var err error
		if name == "wire form" {
			r, err = DecodePayload(shape)
		} else {
			r, err = DecodeAgentResponse(shape)
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var v *ModelCallFailed
		if !errors.As(r, &v) {
			t.Fatalf("%s: no *ModelCallFailed in %v", name, r)
		}
		v.Cause = unhashable{&ProviderTimeout{}, []string{"x"}}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: json.Marshal panics: %v", name, p)
				}
			}()
			if _, err := json.Marshal(r); err != nil {
				t.Errorf("%s: json.Marshal: %v", name, err)
			}
		}()
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
