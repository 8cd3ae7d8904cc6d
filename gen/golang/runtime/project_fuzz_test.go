package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"
	"unicode/utf8"
)

// projectionCodec is a projection with a decoder: how it writes an error
// and how it reads one back. The tool_output projection carries no code
// and has no decoder; FuzzProjectionDecoders writes every decoded error in
// it too.
type projectionCodec struct {
	name   string
	write  func(err error, alt bool) []byte
	decode func(data []byte) (*RemoteError, error)
}

// toolCallID is the id the provider blocks answer when the fuzzer's
// documents are written again.
const toolCallID = "call_fuzz"

// projectionCodecs are the decoders FuzzProjectionDecoders drives, by the
// selector byte modulo their number. alt chooses the MCP result with or
// without structured content.
var projectionCodecs = []projectionCodec{
	{"mcp", func(err error, alt bool) []byte { b, _ := MCPResult(err, alt); return b }, DecodeMCPResult},
	{"anthropic", func(err error, _ bool) []byte { return AnthropicToolResult(toolCallID, err) }, withID(DecodeAnthropicToolResult)},
	{"openai", func(err error, _ bool) []byte { return OpenAIToolMessage(toolCallID, err) }, withID(DecodeOpenAIToolMessage)},
	{"problem", func(err error, _ bool) []byte { b, _ := ProblemJSON(err, ""); return b }, DecodeProblem},
	{"grpc", func(err error, _ bool) []byte { return GRPCStatusJSON(err) }, DecodeGRPCStatusJSON},
	{"agent_response", func(err error, _ bool) []byte { return AgentResponse(err) }, DecodeAgentResponse},
}

// withID is a provider block's decoder that returns the block's id with
// the error's, as "id\x00" in front of the error's message, so that a
// round trip checks the id too.
func withID(d func([]byte) (string, *RemoteError, error)) func([]byte) (*RemoteError, error) {
	return func(data []byte) (*RemoteError, error) {
		id, r, err := d(data)
		if err != nil {
			return nil, err
		}
		if r == nil {
			return nil, fmt.Errorf("block of id %q decoded to no error", id)
		}
		if id != toolCallID {
			return nil, fmt.Errorf("%w %q", errForeignID, id)
		}
		return r, nil
	}
}

// errForeignID is the fuzzer's own refusal of a block answering another
// id than toolCallID: it reads such a block again with its id checked
// apart.
var errForeignID = errors.New("block answers")

// projectionSeeds are documents from the projection tests: each is tried
// with every decoder.
var projectionSeeds = []string{
	`{"code":-32602,"message":"Unknown tool: x"}`,
	`{"code":-32602.0,"message":"m","data":{"category":"timeout","code":"tool_not_found","code_num":1001,"error":"tool x not found","retryable":false,"suppress_retry":false,"name":"x"}}`,
	`{"content":[],"structuredContent":null,"isError":true}`,
	`{"content":[{"type":"image","data":"x"}],"structuredContent":{"code":"new_thing","code_num":4242,"error":"m"},"isError":true}`,
	`{"type":"tool_result","tool_use_id":"call_fuzz","content":[{"type":"text","text":"{\"code\":\"upstream_down\",\"code_num\":7,\"error\":\"down\",\"retry_after\":3}"}],"is_error":true}`,
	`{"role":"tool","tool_call_id":"call_fuzz","content":[{"type":"text","text":"{\"code\":\"rate_limited\",\"code_num\":2001,\"category\":\"rate_limit\",\"error\":\"x\",\"retryable\":true,\"retry_after\":2000}"}]}`,
	`{"code":14,"message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMITED","domain":"standin.example.com","metadata":{"provider":"x","type":"burst"}}]}`,
	`{"code":14,"message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"SERVER_ERROR","domain":"standin.example.com","metadata":{"status":"503","type":"overloaded"}}]}`,
	`{"code":"8e0","message":"m","details":[{"@type":"example.com/x/google.rpc.ErrorInfo","reason":"QUOTA_EXHAUSTED","domain":"standin.example.com"},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retry_delay":"1.500s"},{"@type":"type.googleapis.com/example.v1.Detail","reason":5,"domain":["x"],"retryDelay":7,"message":{}}]}`,
	`{"code":2,"message":"disk full"}`,
	`{"type":"about:blank","title":"Internal Server Error","status":500}`,
	`{"type":"about:blank","title":"t","status":429,"code":"rate_limited","code_num":2001}`,
	`{"type":"https://x/new_thing","title":"New thing","status":503,"code":"new_thing","retryable":true,"retry_after_ms":2500}`,
	`{"type":"https://x/t","title":"t","status":503,"detail":"d","code":"tool_unavailable","code_num":1003,"retryable":true,"credential":"secret","pins":7,"load":null,"since":1500,"alternatives":["a"]}`,
	`{"success":false,"error":"auth_failed","message":"m","metadata":{"provider":"p","apiKey":"secret","headers":["h"],"retryable":true,"suppress_retry":true,"usage_hint":"u"}}`,
	`{"success":false,"error":"model_call_failed","message":"m","metadata":{"cause":{"category":"rate_limit","code":"rate_limited","code_num":2001,"error":"x","retryable":true,"suppress_retry":false,"retry_after":"soon"}}}`,
	`{"success":false,"error":"model_call_failed","message":"m","metadata":{"provider":"p","cause":{"category":"auth","code":"auth_failed","code_num":2002,"error":"x","retryable":false,"suppress_retry":false,"api_key":"secret"}}}`,
	`{"success":false,"error":"rate_limited","message":"m","metadata":{"provider":"x","newerField":1,"older_field":2}}`,
	`{"success":false,"error":"server_error","message":"provider openai failed with status 502","metadata":{"provider":"openai","status":502,"type":"overloaded","upstreamRequestId":"req_7"}}`,
	`{"success":false,"error":"brand_new","message":"m","metadata":{"a_b":1,"aB":2,"cause":{"code":"auth_failed","code_num":2002,"error":"x","api_key":"k"}}}`,
}

// payloadSeeds are payloads from the tests, put in the shapes that carry
// the model's JSON.
var payloadSeeds = []string{
	`{"category":"rate_limit","code":"rate_limited","code_num":2001,"error":"slow down","retryable":true,"suppress_retry":false,"provider":"openai","retry_after":2000,"region":"eu-west-1"}`,
	`{"category":"server","code":"provider_overloaded","code_num":2050,"error":"provider overloaded","retryable":true,"zone":"eu"}`,
	`{"code":"brand_new","code_num":9999,"error":"x","retryable":true,"status":"ok","title":"t","depth":3}`,
	`{"code":"new one/../#x","code_num":9999,"error":"x","retryable":false}`,
	`{"error":"run: Execution timeout after 30s: terminal"}`,
}

// FuzzProjectionDecoders feeds the decoder of each projection that has one
// (MCP results and JSON-RPC errors, Anthropic and OpenAI tool results,
// problem documents, gRPC statuses, agent responses), chosen by which, any
// document. A decoder never panics, and answers the same document the same
// way each time, either an error or a decoded error, never both or
// neither. What it accepts, written again in the same projection, decodes
// to the same error: code, number, category, class, retryability,
// message, user message, wait and wire form. Nothing decoded holds a
// sensitive field of a code of the catalogue, in its payload, wire form
// or any projection; a typed error in its chain is of a code the catalogue
// knows, the decoded error's own when it unwraps to one. Every projection
// of a decoded error is valid JSON.
func FuzzProjectionDecoders(f *testing.F) {
	for _, e := range errgenExamples() {
		for _, err := range []error{e, fmt.Errorf("relay: %w", e)} {
			for k, c := range projectionCodecs {
				f.Add(byte(k), c.write(err, true))
				f.Add(byte(k+len(projectionCodecs)), c.write(err, false))
			}
		}
	}
	for _, s := range projectionSeeds {
		for k := range projectionCodecs {
			f.Add(byte(k), []byte(s))
		}
	}
	for _, s := range payloadSeeds {
		r, err := DecodePayload([]byte(s))
		if err != nil {
			// An error outside the catalogue, as the model reads it.
			r = nil
		}
		var e error = errors.New("run: Execution timeout after 30s: terminal")
		if r != nil {
			e = r
		}
		for k, c := range projectionCodecs[:3] {
			f.Add(byte(k), c.write(e, true))
		}
	}
	f.Fuzz(func(t *testing.T, which byte, data []byte) {
		c := projectionCodecs[int(which)%len(projectionCodecs)]
		alt := int(which)/len(projectionCodecs)%2 == 0
		r, err := c.decode(data)
		again, err2 := c.decode(data)
		if (err == nil) != (err2 == nil) || (r == nil) != (again == nil) {
			t.Fatalf("%s decodes %q once as %v (%v), then as %v (%v)", c.name, data, r, err, again, err2)
		}
		if errors.Is(err, errForeignID) {
			return
		}
		if (err == nil) == (r == nil) {
			t.Fatalf("%s of %q: error %v and decoded error %v", c.name, data, err, r)
		}
		if err != nil {
			return
		}
		if !json.Valid(data) {
			t.Fatalf("%s accepts invalid JSON %q", c.name, data)
		}
		checkDecoded(t, c.name, r)
		if !sameDecoded(r, again) {
			t.Fatalf("%s decodes %q to two errors:\n%s\n%s", c.name, data, describe(r), describe(again))
		}

		// Written again in the same projection, the decoded error decodes
		// to the same error; the projection then writes the same bytes,
		// and decodes to the same error again, its wire form too (the
		// first decoding may hold what the projection does not carry: a
		// field a problem document or a gRPC status has only when it is a
		// payload field, a member spelt otherwise than its writer spells
		// it).
		out := c.write(r, alt)
		back, err := c.decode(out)
		if err != nil {
			t.Fatalf("%s of the error decoded from\n%s\nis\n%s\nwhich does not decode: %v", c.name, data, out, err)
		}
		checkDecoded(t, c.name+" again", back)
		if !sameError(r, back) {
			t.Fatalf("%s of the error decoded from\n%s\nis\n%s\nwhich decodes to another error:\n%s\n%s", c.name, data, out, describe(r), describe(back))
		}
		// Bytes that are not UTF-8 in a member passed on as it came stay as
		// they came, but are written as U+FFFD in a text, which the next
		// decoding reads as that character: the bytes are compared only
		// for a document of UTF-8.
		out2 := c.write(back, alt)
		if utf8.Valid(data) && !bytes.Equal(out, out2) {
			t.Fatalf("%s of the error decoded from\n%s\nis\n%s\nand of the error decoded from that\n%s", c.name, data, out, out2)
		}
		third, err := c.decode(out2)
		if err != nil || !sameDecoded(back, third) {
			t.Fatalf("%s of\n%s\ndecodes to another error (%v):\n%s\n%s", c.name, out2, err, describe(back), describe(third))
		}
	})
}

// checkDecoded checks r, an error the decoder of projection name
// returned: no sensitive field of a code of the catalogue in anything it
// writes, no typed error of a code the catalogue does not know in its
// chain, and every projection of it valid JSON.
func checkDecoded(t *testing.T, name string, r *RemoteError) {
	t.Helper()
	if r.err != nil {
		i, ok := lookupCode(r.Code())
		if !ok || i != r.index || !sameVariant(r.Code(), infos[i].Code) && r.Code() != infos[i].Code {
			t.Fatalf("%s: decoded error of code %q unwraps to %T (%s)", name, r.Code(), r.err, infos[r.index].Code)
		}
	} else if _, ok := lookupCode(r.Code()); ok {
		t.Fatalf("%s: decoded error of code %q, which the catalogue knows, unwraps to nothing", name, r.Code())
	}
	for e := range Chain(r) {
		if _, remote := e.(*RemoteError); remote {
			continue
		}
		if _, ok := lookupCode(e.Code()); !ok {
			t.Fatalf("%s: %T in the chain of the decoded error has code %q, which the catalogue does not know", name, e, e.Code())
		}
	}
	for _, f := range r.Payload.Fields {
		if r.err != nil && sensitiveIn([]int{r.index}, f.Name) {
			t.Fatalf("%s: the payload of the decoded %s has the sensitive field %q", name, r.Code(), f.Name)
		}
	}
	wire, err := json.Marshal(r)
	if err != nil {
		t.Fatalf("%s: json.Marshal of the decoded error: %v", name, err)
	}
	shapes := map[string][]byte{"wire form": wire, "Raw": r.Raw, "payload": r.Payload.AppendJSON(nil)}
	for _, p := range projectionCodecs {
		shapes[p.name] = p.write(r, true)
	}
	shapes["mcp without structured content"], _ = MCPResult(r, false)
	shapes["tool_output"] = ToolOutput(r)
	for shape, b := range shapes {
		if !json.Valid(b) {
			t.Fatalf("%s: the %s of the decoded error is not valid JSON: %q", name, shape, b)
		}
		if path := sensitiveMember(b); path != "" {
			t.Fatalf("%s: the %s of the decoded error holds the sensitive field %s:\n%s", name, shape, path, b)
		}
	}
	_ = r.Error()
	_ = r.UserMessage()
	_ = r.LogValue().String()
}

// sensitiveMember returns where in the JSON data an object with a code
// the catalogue knows (as "code" or, in an agent response, "error") has a
// member that is a sensitive field of that code, or "" when none has.
func sensitiveMember(data []byte) string {
	var v any
	if json.Unmarshal(data, &v) != nil {
		return ""
	}
	var walk func(v any, path string) string
	walk = func(v any, path string) string {
		switch v := v.(type) {
		case map[string]any:
			var codes []int
			for _, key := range []string{"code", "error"} {
				if s, ok := v[key].(string); ok {
					if i, ok := lookupCode(Code(s)); ok {
						codes = append(codes, i)
					}
				}
			}
			for name, m := range v {
				if sensitiveIn(codes, name) {
					return path + "." + name
				}
				if md, ok := m.(map[string]any); ok && name == "metadata" {
					// An agent response's metadata holds the fields of its
					// error under their keys in lowerCamelCase.
					for key := range md {
						for _, i := range codes {
							for k := range forms[i].fields {
								if f := &forms[i].fields[k]; f.sensitive && camelIs(key, f.name) {
									return path + ".metadata." + key
								}
							}
						}
					}
				}
				if p := walk(m, path+"."+name); p != "" {
					return p
				}
			}
		case []any:
			for k, m := range v {
				if p := walk(m, fmt.Sprintf("%s[%d]", path, k)); p != "" {
					return p
				}
			}
		}
		return ""
	}
	return walk(v, "")
}

// sameError reports whether a and b are the same error: code, number,
// class, retryability, message and wait, and category for a code the
// catalogue does not know (Category returns what was sent; every
// projection writes the catalogue's of a code it knows).
func sameError(a, b *RemoteError) bool {
	wa, _ := RetryAfterOf(a)
	wb, _ := RetryAfterOf(b)
	_, known := lookupCode(a.Code())
	return a.Code() == b.Code() && a.CodeNum() == b.CodeNum() && (known || a.Category() == b.Category()) &&
		a.Class() == b.Class() && a.Retryable() == b.Retryable() && a.Error() == b.Error() && wa == wb
}

// sameDecoded reports whether a and b are the same decoded error, as far
// as a projection carries it.
func sameDecoded(a, b *RemoteError) bool {
	return a != nil && b != nil && sameError(a, b) && a.UserMessage() == b.UserMessage() &&
		bytes.Equal(must(json.Marshal(a)), must(json.Marshal(b)))
}

// describe is what sameDecoded compares of r, for a failure's message.
func describe(r *RemoteError) string {
	w, ok := RetryAfterOf(r)
	return fmt.Sprintf("code %q num %d category %q class %s retryable %v wait %v (%v)\n  message %q\n  user message %q\n  wire %s",
		r.Code(), r.CodeNum(), r.Category(), r.Class(), r.Retryable(), time.Duration(w), ok, r.Error(), r.UserMessage(), must(json.Marshal(r)))
}
