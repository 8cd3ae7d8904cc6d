// This file is written by hand, not generated. It decodes what other
// services send to the reference catalogue's package: payloads nested by
// a hostile sender.

package agenterr

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
)

// TestNestedPayloadDecodesOnce: a payload that nests, inside members no
// field declares, wrappers whose cause this catalogue does not accept
// decodes each of its objects at most once; decoding every object anew
// wherever it was reached took 0.5 s at 15 levels, 8.4 s at 19, and
// doubled with each level. The projection decoders, which decode through
// the same decoder, read it as well.
func TestNestedPayloadDecodesOnce(t *testing.T) {
	for _, levels := range []int{19, 40} {
		s := `{"code":"zzz"}`
		for range levels {
			s = `{"code":"zzz","a":{"code":"model_call_failed","code_num":3001,"cause":` + s + `}}`
		}
		var d decoder
		r, err := d.decode([]byte(s))
		if err != nil || r.Code() != "zzz" {
			t.Fatalf("%d levels: %v, %v", levels, r, err)
		}
		if objects := strings.Count(s, "{"); d.objects > objects {
			t.Fatalf("%d levels: %d objects decoded, but the payload has %d", levels, d.objects, objects)
		}
		mcp := `{"content":[{"type":"text","text":` + string(appendString(nil, s)) + `}],"isError":true}`
		if r, err := DecodeMCPResult([]byte(mcp)); err != nil || r.Code() != "zzz" {
			t.Errorf("%d levels: DecodeMCPResult: %v, %v", levels, r, err)
		}
		if r, err := DecodeAgentResponse([]byte(`{"success":false,"error":"zzz","message":"m","metadata":{"a":` + s + `}}`)); err != nil || r.Code() != "zzz" {
			t.Errorf("%d levels: DecodeAgentResponse: %v, %v", levels, r, err)
		}
	}
}

// overloaded is the error of a newer service's variant of ProviderError,
// provider_overloaded, that this catalogue does not have.
const overloaded = `{"category":"server","code":"provider_overloaded","code_num":2014,"error":"overloaded","retryable":true,"suppress_retry":false}`

// TestNewerProviderErrorAsACause: a newer service adds a variant to
// ProviderError, and an older client decodes ModelCallFailed with it as
// the cause, directly and under LLMFailed, from a payload and through the
// agent envelope. The wrappers decode with their codes, retryability and
// user message, their Cause fields stay nil, and the cause, held by the
// decoded error, is the last link of the chain, in the log and in what
// is relayed. A cause of a code this catalogue has, of another family,
// is still refused.
func TestNewerProviderErrorAsACause(t *testing.T) {
	const model = `{"category":"model","code":"model_call_failed","code_num":3001,"error":"model call failed in operator react_loop: overloaded","retryable":true,"suppress_retry":false,"operator":"react_loop","cause":` + overloaded + `}`
	const turn = `{"category":"model","code":"llm_failed","code_num":4001,"error":"LLM call failed: model call failed in operator react_loop: overloaded","retryable":true,"suppress_retry":false,"cause":` + model + `}`
	for name, c := range map[string]struct {
		data  string
		chain []Code
		user  string
	}{
		"the cause of ModelCallFailed": {model, []Code{CodeModelCallFailed, "provider_overloaded"}, "Something went wrong on our side (model_call_failed). Please try again."},
		"under LLMFailed":              {turn, []Code{CodeLLMFailed, CodeModelCallFailed, "provider_overloaded"}, "The assistant stopped before finishing (llm_failed)."},
	} {
		r, err := DecodePayload([]byte(c.data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		envelope, err := DecodeAgentResponse(AgentResponse(r))
		if err != nil {
			t.Fatalf("%s: agent envelope: %v", name, err)
		}
		for how, r := range map[string]*RemoteError{"payload": r, "agent envelope": envelope} {
			var codes []Code
			for e := range Chain(r) {
				codes = append(codes, e.Code())
			}
			// The envelope carries no retryable: ModelCallFailed, without a
			// cause of the catalogue, would say false; its cause says true.
			if !slices.Equal(codes, c.chain) || !IsRetryable(r) || ClassOf(r) != ClassRetryable || UserMessageOf(r) != c.user {
				t.Errorf("%s, %s: Chain %v, IsRetryable %v, ClassOf %v, UserMessageOf %q", name, how, codes, IsRetryable(r), ClassOf(r), UserMessageOf(r))
			}
			var mcf *ModelCallFailed
			if !errors.As(r, &mcf) || mcf.Cause != nil || mcf.Operator != "react_loop" {
				t.Errorf("%s, %s: ModelCallFailed %#v", name, how, mcf)
			}
			wire, _ := json.Marshal(r)
			var log bytes.Buffer
			slog.New(slog.NewJSONHandler(&log, nil)).Error("turn", LogAttr(r))
			for what, out := range map[string][]byte{"wire form": wire, "log": log.Bytes(), "MCP result": func() []byte { b, _ := MCPResult(r, false); return b }()} {
				if !strings.Contains(string(out), "provider_overloaded") {
					t.Errorf("%s, %s: the %s lacks the cause: %s", name, how, what, out)
				}
			}
		}
	}
	bad := strings.Replace(model, overloaded, `{"category":"timeout","code":"tool_timeout","code_num":1004,"type":"tool_error","error":"x","retryable":true}`, 1)
	if _, err := DecodePayload([]byte(bad)); err == nil || !strings.Contains(err.Error(), "is not a agenterr.ProviderError") {
		t.Errorf("a cause of another family: %v", err)
	}
}
