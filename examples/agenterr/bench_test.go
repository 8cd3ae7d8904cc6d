package agenterr_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/errgen/errgen/examples/agenterr"
)

// These benchmarks measure the generated code on the paths a service runs
// on every failed tool call. BENCHMARKS.md lists the targets; the ratios
// come from benchstat over -count=10 runs of
//
//	go test -run '^$' -bench . -benchmem -count 10 ./examples/agenterr
//
// None of them asserts a time: the machine decides that.

// Sinks keep the compiler from dropping the calls.
var (
	sinkString string
	sinkInt    int
	sinkBool   bool
	sinkBytes  []byte
	sinkInfo   agenterr.Info
	sinkCode   agenterr.Code
)

// family holds the error behind its family interface, in a package variable
// so the calls stay dynamic.
var family agenterr.ToolError = &agenterr.CapabilityDenied{Tool: "terminal", Capability: "macos_automation", Message: "Automation consent could not be determined."}

func BenchmarkClassify(b *testing.B) {
	b.Run("method=Code", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sinkCode = family.Code()
		}
	})
	b.Run("method=CodeNum", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sinkInt = family.CodeNum()
		}
	})
	b.Run("method=Retryable", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sinkBool = family.Retryable()
		}
	})
	b.Run("method=Class", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sinkInt = int(family.Class())
		}
	})
}

// wrapped3 is a catalogue error under three fmt.Errorf("%w") wrappers.
func wrapped3() error {
	var err error = &agenterr.RateLimited{Provider: "anthropic", RetryAfter: 2 * time.Second}
	for _, layer := range []string{"provider", "operator", "turn"} {
		err = fmt.Errorf("%s: %w", layer, err)
	}
	return err
}

// BenchmarkChain classifies an error three wrappers deep. errors.As into
// the family interface is the reference the generated helpers avoid.
func BenchmarkChain(b *testing.B) {
	err := wrapped3()
	joined := fmt.Errorf("turn: %w", errors.Join(errors.New("cleanup failed"), fmt.Errorf("operator: %w", &agenterr.RateLimited{Provider: "anthropic"})))
	if !agenterr.IsRetryable(err) || agenterr.CodeOf(err) != "rate_limited" || agenterr.CodeOf(joined) != "rate_limited" {
		b.Fatal("the chain does not classify")
	}
	b.Run("fn=IsRetryable", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sinkBool = agenterr.IsRetryable(err)
		}
	})
	b.Run("fn=CodeOf", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sinkCode = agenterr.CodeOf(err)
		}
	})
	b.Run("fn=CodeOf-join", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sinkCode = agenterr.CodeOf(joined)
		}
	})
	b.Run("fn=AsProviderError", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			_, sinkBool = agenterr.AsProviderError(err)
		}
	})
	b.Run("fn=errors.As", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var target agenterr.ProviderError
			sinkBool = errors.As(err, &target)
		}
	})
}

func BenchmarkLookup(b *testing.B) {
	all := agenterr.All()
	last := all[len(all)-1]
	b.Run("by=code", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sinkInfo, sinkBool = agenterr.Lookup(last.Code)
		}
	})
	b.Run("by=num", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sinkInfo, sinkBool = agenterr.LookupNum(last.Num)
		}
	})
	b.Run("by=code-miss", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			sinkInfo, sinkBool = agenterr.Lookup("no_such_code")
		}
	})
}

// plainPayload is the payload as an ordinary struct, the way a service
// without errgen would write it for encoding/json: the same keys, in the
// same order, with the same omitempty rules. Its Error is rendered once,
// before timing, so json.Marshal is timed on encoding alone while
// AppendLLMPayload also renders the message and suppression key.
type plainPayload struct {
	Type            string   `json:"type"`
	Category        string   `json:"category"`
	Code            string   `json:"code"`
	CodeNum         int      `json:"code_num"`
	Error           string   `json:"error"`
	Retryable       bool     `json:"retryable"`
	SuppressRetry   bool     `json:"suppress_retry"`
	SuppressionKey  string   `json:"suppression_key,omitempty"`
	Tool            string   `json:"tool,omitempty"`
	SuggestedTool   string   `json:"suggested_tool,omitempty"`
	SuggestedAction string   `json:"suggested_action,omitempty"`
	RequiredFields  []string `json:"required_fields,omitempty"`
	UsageHint       string   `json:"usage_hint,omitempty"`
}

type payloadCase struct {
	name string
	err  interface {
		AppendLLMPayload([]byte) []byte
		LLMPayload() *agenterr.Payload
	}
	plain plainPayload
}

func payloadCases() []payloadCase {
	plain := func(e agenterr.ToolError, tool string) plainPayload {
		in, _ := agenterr.Lookup(e.Code())
		return plainPayload{
			Type: in.PayloadType, Category: string(e.Category()), Code: string(e.Code()), CodeNum: e.CodeNum(),
			Error: e.Error(), Retryable: e.Retryable(), SuppressRetry: e.SuppressRetry(),
			SuppressionKey: e.SuppressionKey(), Tool: tool,
			SuggestedTool: in.SuggestedTool, SuggestedAction: in.SuggestedAction, RequiredFields: in.RequiredFields, UsageHint: in.UsageHint,
		}
	}
	timeout := &agenterr.ToolTimeout{Tool: "terminal", Seconds: 30}
	denied := &agenterr.CapabilityDenied{Tool: "terminal", Capability: "macos_automation", Message: "Automation consent could not be determined."}
	mismatch := &agenterr.ContentMismatch{Tool: "patch", Path: "src/main.rs", Message: "old_string \"if a < b && c > d {\" not found;\n\tpreview:\n\u2028fn main() {}\n"}
	return []payloadCase{
		{"simple", timeout, plain(timeout, timeout.Tool)},
		{"hints", denied, plain(denied, denied.Tool)},
		{"escapes", mismatch, plain(mismatch, mismatch.Tool)},
	}
}

// BenchmarkPayload encodes the LLM payload with the generated appender into
// a reused buffer (enc=errgen) and the equivalent plain struct with
// encoding/json (enc=json), which must give the same bytes.
func BenchmarkPayload(b *testing.B) {
	for _, c := range payloadCases() {
		want, err := json.Marshal(c.plain)
		if err != nil {
			b.Fatal(err)
		}
		if got := c.err.AppendLLMPayload(nil); !bytes.Equal(got, want) {
			b.Fatalf("%s: AppendLLMPayload and encoding/json disagree:\n%s\n%s", c.name, got, want)
		}
		b.Run("case="+c.name+"/enc=json", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkBytes, _ = json.Marshal(&c.plain)
			}
		})
		b.Run("case="+c.name+"/enc=errgen", func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 1024)
			for i := 0; i < b.N; i++ {
				buf = c.err.AppendLLMPayload(buf[:0])
			}
			sinkBytes = buf
		})
		// The paths users take with encoding/json: the payload made and
		// marshalled, and an existing payload inside a larger struct, beside
		// the plain struct inside the same struct.
		b.Run("case="+c.name+"/enc=marshal-payload", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkBytes, _ = json.Marshal(c.err.LLMPayload())
			}
		})
		p := c.err.LLMPayload()
		b.Run("case="+c.name+"/enc=json-embedded", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkBytes, _ = json.Marshal(envelope[plainPayload]{ID: "call_42", Result: c.plain})
			}
		})
		b.Run("case="+c.name+"/enc=errgen-embedded", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkBytes, _ = json.Marshal(envelope[*agenterr.Payload]{ID: "call_42", Result: p})
			}
		})
	}
}

// envelope is a larger message a payload travels in, as a tool result.
type envelope[T any] struct {
	ID     string `json:"id"`
	Result T      `json:"result"`
}

// BenchmarkDecode reads an error back as another service does: from its
// LLM payload (from=payload) and its wire form (from=wire) with
// DecodePayload, beside encoding/json reading the payload into the plain
// struct (from=payload-json), which checks nothing.
func BenchmarkDecode(b *testing.B) {
	for _, c := range payloadCases() {
		wire, err := json.Marshal(c.err)
		if err != nil {
			b.Fatal(err)
		}
		for _, in := range []struct {
			name string
			data []byte
		}{
			{"payload", c.err.AppendLLMPayload(nil)},
			{"wire", wire},
		} {
			data := in.data
			r, err := agenterr.DecodePayload(data)
			if err != nil || string(r.Code()) != c.plain.Code || r.Error() != c.plain.Error {
				b.Fatalf("%s from %s: decoded %v, %v", c.name, in.name, r, err)
			}
			b.Run("case="+c.name+"/from="+in.name, func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					r, _ := agenterr.DecodePayload(data)
					sinkCode = r.Code()
				}
			})
		}
		b.Run("case="+c.name+"/from=payload-json", func(b *testing.B) {
			b.ReportAllocs()
			data := c.err.AppendLLMPayload(nil)
			for i := 0; i < b.N; i++ {
				var p plainPayload
				_ = json.Unmarshal(data, &p)
				sinkString = p.Code
			}
		})
	}
}

// BenchmarkDeepChain renders the text and the wire form of a chain of
// depth catalogue errors, each the cause of the next: a retry loop that
// wraps each attempt's error in the next builds one. It also asks the
// retryability and the user message, and takes the log value, of a chain
// of depth wrappers whose cause decides both (retryable_from_cause, and
// no user message of their own), where each link defers to the next.
func BenchmarkDeepChain(b *testing.B) {
	for _, depth := range []int{10, 100, 1000} {
		var err error = errors.New("connection refused")
		for range depth {
			err = &agenterr.QueuePushFailed{Queue: "runs", Cause: err}
		}
		top := err.(*agenterr.QueuePushFailed)
		b.Run(fmt.Sprintf("depth=%d/fn=Error", depth), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkString = top.Error()
			}
		})
		b.Run(fmt.Sprintf("depth=%d/fn=MarshalJSON", depth), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkBytes, _ = top.MarshalJSON()
			}
		})
		var deferring error = errors.New("connection refused")
		for range depth {
			deferring = &agenterr.OtherOperatorError{Cause: deferring}
		}
		op := deferring.(*agenterr.OtherOperatorError)
		b.Run(fmt.Sprintf("depth=%d/fn=Retryable", depth), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkBool = op.Retryable()
			}
		})
		b.Run(fmt.Sprintf("depth=%d/fn=UserMessage", depth), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkString = op.UserMessage()
			}
		})
		b.Run(fmt.Sprintf("depth=%d/fn=LogValue", depth), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				sinkString = agenterr.LogValueOf(op).Kind().String()
			}
		})
	}
}
