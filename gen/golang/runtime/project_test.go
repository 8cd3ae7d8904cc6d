package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/errgen/errgen/gen/jsonschema"
)

// checkSchema fails the test when data is not valid JSON that the $defs
// entry name of file in testdata/specs accepts.
func checkSchema(t *testing.T, file, name string, data []byte) {
	t.Helper()
	problems, err := jsonschema.Validate(filepath.Join("testdata", "specs", file), name, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Errorf("%s", p)
	}
}

// projected is one projection of an error and its decoder, if it has one.
type projected struct {
	name   string
	data   []byte
	schema [2]string
	decode func([]byte) (*RemoteError, error)
}

func projectAll(err error) []projected {
	mcp, kind := MCPResult(err, true)
	mcpSchema := [2]string{"mcp-2025-11-25.schema.json", "CallToolResult"}
	if kind == MCPProtocolError {
		mcpSchema[1] = "Error"
	}
	plain, _ := MCPResult(err, false)
	problem, _ := ProblemJSON(err, "/runs/42")
	id := func(d func([]byte) (string, *RemoteError, error)) func([]byte) (*RemoteError, error) {
		return func(b []byte) (*RemoteError, error) {
			id, e, err := d(b)
			if err == nil && id != "call_1" {
				return nil, fmt.Errorf("tool call id %q, want call_1", id)
			}
			return e, err
		}
	}
	return []projected{
		{"mcp", mcp, mcpSchema, DecodeMCPResult},
		{"mcp without structured content", plain, mcpSchema, DecodeMCPResult},
		{"anthropic", AnthropicToolResult("call_1", err), [2]string{}, id(DecodeAnthropicToolResult)},
		{"openai", OpenAIToolMessage("call_1", err), [2]string{}, id(DecodeOpenAIToolMessage)},
		{"problem", problem, [2]string{"problem-details.schema.json", "Problem"}, DecodeProblem},
		{"grpc", GRPCStatusJSON(err), [2]string{}, DecodeGRPCStatusJSON},
		{"agent_response", AgentResponse(err), [2]string{}, DecodeAgentResponse},
		{"tool_output", ToolOutput(err), [2]string{}, nil},
	}
}

// TestProjectionsRoundTrip: every example of the stand-in, through every
// projection: valid JSON, valid against the published schema where one
// exists, and decoded back to the same code, num and fields (the payload
// fields for shapes that carry the payload or, for problem documents, its
// fields; every field of the wire form for the agent envelope).
func TestProjectionsRoundTrip(t *testing.T) {
	for _, e := range errgenExamples() {
		for _, p := range projectAll(e) {
			t.Run(string(e.Code())+"/"+p.name, func(t *testing.T) {
				if !json.Valid(p.data) {
					t.Fatalf("invalid JSON: %s", p.data)
				}
				if p.schema[0] != "" {
					checkSchema(t, p.schema[0], p.schema[1], p.data)
				}
				if p.decode == nil {
					return
				}
				d, err := p.decode(p.data)
				if err != nil {
					t.Fatalf("decode: %v\n%s", err, p.data)
				}
				var got variant
				if !errors.As(d, &got) {
					t.Fatalf("decoded %v is not a typed error of the catalogue", d)
				}
				if got.Code() != e.Code() || got.CodeNum() != e.CodeNum() || reflect.TypeOf(got) != reflect.TypeOf(e) {
					t.Fatalf("decoded %s (%d, %T), want %s (%d, %T)", got.Code(), got.CodeNum(), got, e.Code(), e.CodeNum(), e)
				}
				i, _ := lookupCode(e.Code())
				// The shapes that carry the model's JSON carry the wire form
				// for a family without a payload type.
				wire := p.name == "agent_response" || p.name != "problem" && p.name != "grpc" && infos[i].PayloadType == ""
				want := appendFields(nil, e, i, false, wire, 0, nil, appendKey)
				if have := appendFields(nil, got, i, false, wire, 0, nil, appendKey); !bytes.Equal(have, want) {
					t.Errorf("fields after the round trip:\n got %s\nwant %s", have, want)
				}
			})
		}
	}
}

// TestProjectionsOfDecodedErrors: an error decoded from what the model
// reads (the LLM payload, or the wire form for a family without one), and
// passed on, projects exactly as the error it was decoded from: with the
// sender's message, although the variant it unwraps to holds only the
// fields that travelled (ToolUnavailable's reason does not), directly and
// inside a wrap. Only the agent envelope's metadata, which has every
// field of the wire form, lacks those that did not travel.
func TestProjectionsOfDecodedErrors(t *testing.T) {
	for _, e := range errgenExamples() {
		sent := mustMarshal(t, e)
		p, payload := e.(interface{ AppendLLMPayload([]byte) []byte })
		if payload {
			sent = p.AppendLLMPayload(nil)
		}
		r, err := DecodePayload(sent)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name          string
			decoded, want error
		}{{"", r, e}, {" wrapped", fmt.Errorf("relay: %w", r), fmt.Errorf("relay: %w", e)}} {
			want := projectAll(c.want)
			for k, p := range projectAll(c.decoded) {
				if p.name == "agent_response" && payload {
					d, err := DecodeAgentResponse(p.data)
					if err != nil || d.Error() != e.Error() {
						t.Errorf("%s, %s%s of the decoded error: %s (%v)", e.Code(), p.name, c.name, p.data, err)
					}
					continue
				}
				if !bytes.Equal(p.data, want[k].data) {
					t.Errorf("%s, %s%s of the decoded error:\n got %s\nwant %s", e.Code(), p.name, c.name, p.data, want[k].data)
				}
			}
		}
	}
}

// TestProjectionShapes pins each shape byte for byte for one error.
func TestProjectionShapes(t *testing.T) {
	e := &ToolTimeout{Tool: "terminal", Seconds: 30}
	payload := string(e.AppendLLMPayload(nil))
	quoted, _ := json.Marshal(payload)
	mcp, kind := MCPResult(e, true)
	problem, status := ProblemJSON(e, "")
	for _, c := range []struct{ name, got, want string }{
		{"mcp", string(mcp), `{"content":[{"type":"text","text":` + string(quoted) + `}],"structuredContent":` + payload + `,"isError":true}`},
		{"anthropic", string(AnthropicToolResult("toolu_1", e)), `{"type":"tool_result","tool_use_id":"toolu_1","content":` + string(quoted) + `,"is_error":true}`},
		{"openai", string(OpenAIToolMessage("call_1", e)), `{"role":"tool","tool_call_id":"call_1","content":` + string(quoted) + `}`},
		{"problem", string(problem), `{"type":"https://errors.example.com/standin/tool_timeout","title":"Tool timeout","status":502,` +
			`"detail":"A tool did not work (tool_timeout).","code":"tool_timeout","code_num":1004,"category":"timeout","retryable":true,"tool":"terminal"}`},
		{"agent_response", string(AgentResponse(e)), `{"success":false,"error":"tool_timeout","message":"Execution timeout after 30s: terminal","metadata":{"tool":"terminal","seconds":30}}`},
		{"tool_output", string(ToolOutput(fmt.Errorf("run: %w", e))), `{"error":"run: Execution timeout after 30s: terminal"}`},
	} {
		if c.got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, c.got, c.want)
		}
	}
	rl := fmt.Errorf("chat: %w", &RateLimited{Provider: "openai", RetryAfter: 1500 * time.Millisecond})
	for _, c := range []struct {
		err  error
		want string
	}{
		{e, `{"code":2,"message":"Execution timeout after 30s: terminal","details":[` +
			`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"TOOL_TIMEOUT","domain":"standin.example.com","metadata":{"tool":"terminal"}},` +
			`{"@type":"type.googleapis.com/google.rpc.LocalizedMessage","locale":"en-US","message":"A tool did not work (tool_timeout)."}]}`},
		{rl, `{"code":14,"message":"provider openai rate limited the request","details":[` +
			`{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMITED","domain":"standin.example.com"},` +
			`{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1.500s"},` +
			`{"@type":"type.googleapis.com/google.rpc.LocalizedMessage","locale":"en-US","message":"The service is busy. Try again in a moment."}]}`},
		{&AuthFailed{Provider: "x"}, `{"code":16,`},
		{errors.New("disk full"), `{"code":2,"message":"disk full"}`},
	} {
		if got := string(GRPCStatusJSON(c.err)); !strings.HasPrefix(got, c.want) {
			t.Errorf("GRPCStatusJSON(%v):\n got %s\nwant %s", c.err, got, c.want)
		}
	}
	for d, want := range map[time.Duration]string{2 * time.Second: "2s", 1500 * time.Millisecond: "1.500s", time.Microsecond: "0.000001s", 3*time.Second + 1: "3.000000001s"} {
		if got := protoDuration(d); got != want {
			t.Errorf("protoDuration(%v) = %s, want %s", d, got, want)
		}
	}
	if kind != MCPToolResult || status != 502 {
		t.Errorf("kind %v, status %d; want a tool result and the catalogue's problem status 502", kind, status)
	}
	nf := &ToolNotFound{Name: "web.search2"}
	got, kind := MCPResult(nf, true)
	want := `{"code":-32602,"message":"tool web.search2 not found","data":` + string(nf.AppendLLMPayload(nil)) + `}`
	if kind != MCPProtocolError || string(got) != want {
		t.Errorf("MCPResult of a variant with mcp_error = %s (%v), want %s (protocol error)", got, kind, want)
	}
	if _, s := ProblemJSON(&RateLimited{}, ""); s != 429 {
		t.Errorf("problem status of rate_limited = %d, want its http_status 429", s)
	}
	foreign, s := ProblemJSON(errors.New("disk full"), "")
	if s != 500 || string(foreign) != `{"type":"about:blank","title":"Internal Server Error","status":500}` {
		t.Errorf("problem of a foreign error = %s (%d)", foreign, s)
	}
	if _, err := DecodeProblem(foreign); err == nil {
		t.Error("DecodeProblem read a code from a document without one")
	}
}

// TestWriteProblem: the writer sets the status, the media type and
// Retry-After from the chain, rounded up to whole seconds.
func TestWriteProblem(t *testing.T) {
	for _, c := range []struct {
		err                 error
		status              int
		retryAfter, typeURI string
	}{
		{fmt.Errorf("call: %w", &RateLimited{Provider: "openai", RetryAfter: 1500 * time.Millisecond}), 429, "2", "https://errors.example.com/standin/rate_limited"},
		{&AuthFailed{Provider: "openai", APIKey: "k"}, 401, "", "https://errors.example.com/standin/auth_failed"},
		{errors.New("disk full"), 500, "", "about:blank"},
		// The longest wait a Duration holds, as FromHTTP keeps a
		// far-future date: rounding up must not wrap it to a negative.
		{&RateLimited{Provider: "openai", RetryAfter: math.MaxInt64}, 429, "9223372037", "https://errors.example.com/standin/rate_limited"},
	} {
		w := httptest.NewRecorder()
		WriteProblem(w, c.err, "/calls/7")
		var doc map[string]any
		if err := json.Unmarshal(w.Body.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if w.Code != c.status || w.Header().Get("Content-Type") != ProblemContentType || w.Header().Get("Retry-After") != c.retryAfter ||
			doc["type"] != c.typeURI || doc["instance"] != "/calls/7" || doc["status"] != float64(c.status) {
			t.Errorf("%v: status %d, headers %v, body %s", c.err, w.Code, w.Header(), w.Body)
		}
	}
}

// adapter is an Error of neither the catalogue nor a decoded payload.
type adapter struct{ c Error }

func (a adapter) Error() string       { return a.c.Error() }
func (a adapter) Code() Code          { return a.c.Code() }
func (a adapter) CodeNum() int        { return a.c.CodeNum() }
func (a adapter) Category() Category  { return a.c.Category() }
func (a adapter) Retryable() bool     { return a.c.Retryable() }
func (a adapter) Class() Class        { return a.c.Class() }
func (a adapter) UserMessage() string { return a.c.UserMessage() }

// TestProjectionsOfOtherErrors: an Error that is neither a variant nor a
// decoded payload, and a RemoteError built by hand without Raw, project to
// valid JSON without a panic; a decoded error of another catalogue keeps
// its fields out of a problem document's own members.
func TestProjectionsOfOtherErrors(t *testing.T) {
	remote, err := DecodePayload([]byte(`{"code":"brand_new","code_num":9999,"error":"x","retryable":true,"status":"ok","title":"t","depth":3}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []error{adapter{&RateLimited{Provider: "openai"}}, &RemoteError{Payload: Payload{Code: "brand_new", CodeNum: 9}}, remote} {
		for _, p := range projectAll(e) {
			if !json.Valid(p.data) {
				t.Errorf("%T %s: invalid JSON: %s", e, p.name, p.data)
			}
		}
	}
	problem, _ := ProblemJSON(remote, "")
	if keys := jsonKeys(t, problem); len(keys) != len(uniq(keys)) || !strings.Contains(string(problem), `"depth":3`) {
		t.Errorf("problem of a decoded error of another catalogue: %s", problem)
	}
	// A sender's code is text: the problem type escapes it, so it stays a
	// URI reference; the title and code say it as it came.
	odd, err := DecodePayload([]byte(`{"code":"new one/../#x","code_num":9999,"error":"x","retryable":false}`))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Type, Title, Code string }
	problem, _ = ProblemJSON(odd, "")
	if err := json.Unmarshal(problem, &doc); err != nil || doc.Type != "https://errors.example.com/standin/new%20one%2F..%2F%23x" || doc.Title != "new one/../#x" || doc.Code != "new one/../#x" {
		t.Errorf("problem of a decoded error of an odd code: %s (%v)", problem, err)
	}
}

func uniq(s []string) map[string]bool {
	m := map[string]bool{}
	for _, x := range s {
		m[x] = true
	}
	return m
}

// TestDecodedRetryability: the shapes that carry no retryable (the agent
// envelope, the gRPC status) decode to an error as retryable as the
// variant, and gRPC's RetryInfo gives RetryAfterOf its wait.
func TestDecodedRetryability(t *testing.T) {
	e := &RateLimited{Provider: "openai", RetryAfter: 1500 * time.Millisecond}
	for name, decode := range map[string]func() (*RemoteError, error){
		"agent_response": func() (*RemoteError, error) { return DecodeAgentResponse(AgentResponse(e)) },
		"grpc":           func() (*RemoteError, error) { return DecodeGRPCStatusJSON(GRPCStatusJSON(e)) },
	} {
		r, err := decode()
		if err != nil {
			t.Fatal(err)
		}
		if !IsRetryable(r) || ClassOf(r) != ClassRetryable {
			t.Errorf("%s: IsRetryable %v, ClassOf %v; want retryable", name, IsRetryable(r), ClassOf(r))
		}
		if d, ok := RetryAfterOf(r); !ok || d != 1500*time.Millisecond {
			t.Errorf("%s: RetryAfterOf = %v, %v; want 1.5s", name, d, ok)
		}
	}
}

// TestGRPCStatusTextIsValidUTF8: protobuf refuses a string that is not
// valid UTF-8, and gRPC then drops the whole status's details; the
// status's message and user message replace each bad byte with U+FFFD, as
// GRPCStatusJSON's encoder does, so the two forms say the same.
func TestGRPCStatusTextIsValidUTF8(t *testing.T) {
	for _, err := range []error{
		&RateLimited{Provider: "open\xffai\xc3"},
		&MemoryUnavailable{Err: errors.New("bad \xff\xfe bytes")},
		errors.New("disk \xff full"),
	} {
		s := grpcStatusOf(err)
		var doc struct {
			Message string
			Details []struct{ Message string }
		}
		if e := json.Unmarshal(GRPCStatusJSON(err), &doc); e != nil {
			t.Fatal(e)
		}
		if !utf8.ValidString(s.message) || !utf8.ValidString(s.local) || !utf8.ValidString(s.reason) {
			t.Errorf("%q: status text not valid UTF-8: %q, %q, %q", err.Error(), s.message, s.local, s.reason)
		}
		if s.message != doc.Message {
			t.Errorf("%q: message %q, GRPCStatusJSON's %q", err.Error(), s.message, doc.Message)
		}
		if n := len(doc.Details); n > 0 && s.local != doc.Details[n-1].Message {
			t.Errorf("%q: user message %q, GRPCStatusJSON's %q", err.Error(), s.local, doc.Details[n-1].Message)
		}
	}
	if got, want := validText("a\xffb\xc3\xa9\xe2\x82"), "a\ufffdb\u00e9\ufffd\ufffd"; got != want {
		t.Errorf("validText = %q, want %q", got, want)
	}
}

// TestGRPCStatusCarriesRetryability: a gRPC status says an error may be
// retried only through RetryInfo, which GRPCStatusJSON writes for a
// retryable error with a wait, and with no delay for one the catalogue
// does not make retryable by its code. Decoded, the wait is RetryAfterOf's
// and the error retryable, whichever error of the chain had the field (a
// wrapper without one, inside a wrap); a non-retryable error whose chain
// has a wait, its own or its cause's, gets no RetryInfo and stays so. A
// wrapper retryable through its cause and without a wait gets a RetryInfo
// of no delay, since the status does not carry the cause; a variant
// retryable by its code needs none, unless its cause decides: one that a
// terminal cause made terminal has no RetryInfo, and decodes so.
func TestGRPCStatusCarriesRetryability(t *testing.T) {
	limited := &RateLimited{Provider: "openai", RetryAfter: 1500 * time.Millisecond}
	for _, c := range []struct {
		name             string
		err              error
		wait             time.Duration
		retryable, delay bool
	}{
		{"the variant with the wait", limited, 1500 * time.Millisecond, true, true},
		{"a wrapper of it", &ModelCallFailed{Cause: limited}, 1500 * time.Millisecond, true, true},
		{"a wrapper of it, wrapped", fmt.Errorf("turn: %w", &OperatorFailed{Cause: limited}), 1500 * time.Millisecond, true, true},
		{"a terminal wrapper of it", &ProviderFailed{Cause: limited}, 0, false, false},
		{"a non-fatal wrapper of it", &MemoryUnavailable{Err: limited}, 0, false, false},
		{"a terminal error with a wait of its own", &QuotaExhausted{Provider: "openai", ResetsIn: time.Hour}, 0, false, false},
		{"retryable through its cause, without a wait", &OperatorFailed{Cause: &ServerError{Provider: "openai", Status: 502}}, 0, true, true},
		{"retryable by its code, without a wait", &RateLimited{Provider: "openai"}, 0, true, false},
		// ModelCallFailed is retryable without a cause, but its cause
		// decides: a status without RetryInfo says a terminal cause made
		// it terminal, so a retryable one without a wait has one of 0s.
		{"a retryable wrapper of a terminal cause", &ModelCallFailed{Cause: &AuthFailed{Provider: "openai"}}, 0, false, false},
		{"a retryable wrapper of a retryable cause, without a wait", &ModelCallFailed{Cause: &RateLimited{Provider: "openai"}}, 0, true, true},
		{"a retryable wrapper without a cause", &ModelCallFailed{Provider: "openai"}, 0, true, true},
	} {
		if IsRetryable(c.err) != c.retryable {
			t.Fatalf("%s: IsRetryable %v, want %v", c.name, IsRetryable(c.err), c.retryable)
		}
		status := GRPCStatusJSON(c.err)
		if hasRetry := strings.Contains(string(status), "RetryInfo"); hasRetry != c.delay {
			t.Errorf("%s: RetryInfo %v in %s", c.name, hasRetry, status)
		}
		r, err := DecodeGRPCStatusJSON(status)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if d, ok := RetryAfterOf(r); d != c.wait || ok != (c.wait > 0) {
			t.Errorf("%s: RetryAfterOf(decoded) = %v, %v; want %v", c.name, d, ok, c.wait)
		}
		if IsRetryable(r) != c.retryable || (ClassOf(r) == ClassRetryable) != c.retryable {
			t.Errorf("%s: decoded IsRetryable %v, ClassOf %v; want retryable %v", c.name, IsRetryable(r), ClassOf(r), c.retryable)
		}
		if d, ok := RetryDelay(r, 1); c.wait > 0 && (!ok || d != c.wait) {
			t.Errorf("%s: RetryDelay(decoded) = %v, %v; want %v", c.name, d, ok, c.wait)
		}
		// Relayed as a wire form, the decoded error is still retryable,
		// and keeps the wait where its variant has a retry_after field.
		relayed, err := DecodePayload(mustMarshal(t, r))
		if err != nil {
			t.Fatalf("%s: relayed: %v", c.name, err)
		}
		if IsRetryable(relayed) != c.retryable {
			t.Errorf("%s: relayed as %s, IsRetryable %v; want %v", c.name, mustMarshal(t, r), IsRetryable(relayed), c.retryable)
		}
		keeps := c.wait > 0 && c.err == error(limited)
		if d, ok := RetryAfterOf(relayed); ok != keeps || keeps && d != c.wait {
			t.Errorf("%s: relayed as %s, RetryAfterOf %v, %v", c.name, mustMarshal(t, r), d, ok)
		}
	}
}

// TestRetryInfoKeepsItsPrecision: a RetryInfo delay finer than the unit
// of the variant's retry_after field (1.5s for a field counted in whole
// seconds) is what RetryAfterOf and RetryDelay of the decoded error
// report, exactly, whether the error with the wait is the one decoded or
// its cause; and the field that carries the wait on in the decoded error's
// wire form is rounded up, never down, so no client told to wait 1.5s
// retries after 1s.
func TestRetryInfoKeepsItsPrecision(t *testing.T) {
	busy := &ProviderBusy{Provider: "openai", RetryAfter: 1500 * time.Millisecond}
	for name, err := range map[string]error{"the variant": busy, "a wrapper of it": &ModelCallFailed{Cause: busy}} {
		status := GRPCStatusJSON(err)
		if !strings.Contains(string(status), `"retryDelay":"1.500s"`) {
			t.Fatalf("%s: the status does not carry the delay exactly: %s", name, status)
		}
		r, err := DecodeGRPCStatusJSON(status)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for how, got := range map[string]error{"decoded": r, "decoded, wrapped": fmt.Errorf("turn: %w", r)} {
			if d, ok := RetryAfterOf(got); !ok || d != 1500*time.Millisecond {
				t.Errorf("%s: RetryAfterOf(%s) = %v, %v; want 1.5s", name, how, d, ok)
			}
			if d, ok := RetryDelay(got, 1); !ok || d != 1500*time.Millisecond {
				t.Errorf("%s: RetryDelay(%s) = %v, %v; want 1.5s", name, how, d, ok)
			}
		}
		if name != "the variant" {
			continue // only a variant with the field carries the wait on
		}
		relayed, err := DecodePayload(mustMarshal(t, r))
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := RetryAfterOf(relayed); !ok || d != 2*time.Second {
			t.Errorf("relayed as %s: RetryAfterOf = %v, %v; want 2s, the wait rounded up to the field's unit", mustMarshal(t, r), d, ok)
		}
	}
}

// TestRetryInfoWithoutDelay: a status's RetryInfo says the error is
// retryable whatever its delay, none or 0s included; only without one is
// the error as retryable as its variant.
func TestRetryInfoWithoutDelay(t *testing.T) {
	const info = `{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"QUOTA_EXHAUSTED","domain":"standin.example.com"}`
	for _, tc := range []struct {
		retry     string
		retryable bool
		wait      time.Duration
	}{
		{"", false, 0},
		{`,{"@type":"type.googleapis.com/google.rpc.RetryInfo"}`, true, 0},
		{`,{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"0s"}`, true, 0},
		{`,{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"0.000000001s"}`, true, time.Nanosecond},
	} {
		r, err := DecodeGRPCStatusJSON([]byte(`{"code":8,"message":"quota","details":[` + info + tc.retry + `]}`))
		if err != nil {
			t.Fatal(err)
		}
		if IsRetryable(r) != tc.retryable {
			t.Errorf("details %s: IsRetryable = %v, want %v", tc.retry, !tc.retryable, tc.retryable)
		}
		if d, ok := RetryAfterOf(r); d != tc.wait || ok != (tc.wait > 0) {
			t.Errorf("details %s: RetryAfterOf = %v, %v; want %v", tc.retry, d, ok, tc.wait)
		}
		relayed, err := DecodePayload(mustMarshal(t, r))
		if err != nil {
			t.Fatal(err)
		}
		if IsRetryable(relayed) != tc.retryable {
			t.Errorf("details %s, relayed: IsRetryable = %v, want %v", tc.retry, !tc.retryable, tc.retryable)
		}
	}
}

// TestPayloadOfAFamilyWithoutType: the Payload decoded from the wire form
// of a family without a payload type has no "type" key of its own, so its
// field named "type" is written once and read back as a field, by
// Payload's own UnmarshalJSON too.
func TestPayloadOfAFamilyWithoutType(t *testing.T) {
	wire := mustMarshal(t, &ServerError{Provider: "openai", Status: 502, Type: "overloaded"})
	r, err := DecodePayload(wire)
	if err != nil {
		t.Fatal(err)
	}
	p := mustMarshal(t, r.Payload)
	if n := strings.Count(string(p), `"type":`); n != 1 {
		t.Errorf("the payload has %d type keys, want the field's alone: %s", n, p)
	}
	for name, data := range map[string][]byte{"the wire form": wire, "the payload": p} {
		var q Payload
		if err := json.Unmarshal(data, &q); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if q.Type != "" || !slices.ContainsFunc(q.Fields, func(f PayloadField) bool { return f.Name == "type" && string(f.Value) == `"overloaded"` }) {
			t.Errorf("%s read as type %q, fields %v; want the field", name, q.Type, q.Fields)
		}
	}
}

// TestRelayOfAProjectionDecodedError: the wire form of an error decoded
// from a projection is its variant's, with the key and hints the catalogue
// gives it (a projection carries none), so a relay of it tells the next
// service, and the model there, what the first decoded error tells.
func TestRelayOfAProjectionDecodedError(t *testing.T) {
	e := &ToolUnavailable{Tool: "browser", Reason: "down"}
	problem, _ := ProblemJSON(e, "")
	for name, decode := range map[string]func() (*RemoteError, error){
		"agent_response": func() (*RemoteError, error) { return DecodeAgentResponse(AgentResponse(e)) },
		"problem":        func() (*RemoteError, error) { return DecodeProblem(problem) },
		"grpc":           func() (*RemoteError, error) { return DecodeGRPCStatusJSON(GRPCStatusJSON(e)) },
	} {
		d, err := decode()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		wire := mustMarshal(t, d)
		// The agent envelope carries every field of the wire form; the
		// others carry the payload's.
		if want := mustMarshal(t, e); name == "agent_response" && !bytes.Equal(wire, want) {
			t.Errorf("%s: wire form of the decoded error\n %s\nwant the error's own\n %s", name, wire, want)
		}
		for _, key := range []string{`"suppress_retry":true`, `"suppression_key":"browser:tool_unavailable"`, `"suggested_tool":"clarify"`, `"usage_hint":`} {
			if !bytes.Contains(wire, []byte(key)) {
				t.Errorf("%s: wire form of the decoded error lacks %s: %s", name, key, wire)
			}
		}
		relayed, err := DecodePayload(wire)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		one, _ := MCPResult(d, false)
		two, _ := MCPResult(relayed, false)
		if !bytes.Equal(one, two) {
			t.Errorf("%s: MCPResult of the decoded error\n %s\nof it relayed\n %s", name, one, two)
		}
	}
}

// TestProjectedFieldNamedType: a field named "type" in a family without a
// payload type is a field like any other in the shapes that carry fields
// beside their own members, not the payload's "type".
func TestProjectedFieldNamedType(t *testing.T) {
	e := &ServerError{Provider: "openai", Status: 503, Type: "overloaded"}
	status := []byte(`{"code":14,"message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"SERVER_ERROR","domain":"standin.example.com","metadata":{"status":"503","type":"overloaded"}}]}`)
	for name, decode := range map[string]func() (*RemoteError, error){
		"agent_response": func() (*RemoteError, error) { return DecodeAgentResponse(AgentResponse(e)) },
		"grpc":           func() (*RemoteError, error) { return DecodeGRPCStatusJSON(status) },
	} {
		r, err := decode()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var got *ServerError
		if !errors.As(r, &got) || got.Type != "overloaded" || got.Status != 503 {
			t.Errorf("%s: decoded %+v", name, got)
		}
	}
	// A variant without a field so named (a newer sender's field) is
	// decoded as before it came: the member is left out, not read as the
	// payload's type.
	for name, data := range map[string]string{
		"agent_response": `{"success":false,"error":"rate_limited","message":"m","metadata":{"provider":"x","type":"burst"}}`,
		"grpc":           `{"code":14,"message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMITED","domain":"standin.example.com","metadata":{"provider":"x","type":"burst"}}]}`,
	} {
		decode := DecodeAgentResponse
		if name == "grpc" {
			decode = DecodeGRPCStatusJSON
		}
		r, err := decode([]byte(data))
		var got *RateLimited
		if err != nil || !errors.As(r, &got) || got.Provider != "x" {
			t.Errorf("%s with a newer field named type: %v, %+v", name, err, got)
		}
	}
}

// TestEnvelopesAreStrict: every decoder of a projection reads its
// envelope as DecodePayload reads a payload, so no sender can make it see
// another error than every other JSON reader sees: a key in another
// letter case is not the key, and a key given twice is refused, at the
// top and inside (an MCP content item, a gRPC detail and its metadata).
func TestEnvelopesAreStrict(t *testing.T) {
	limited := string(mustMarshal(t, &RateLimited{Provider: "openai"}))
	refused := string(mustMarshal(t, &AuthFailed{Provider: "openai"}))
	q := func(s string) string { return string(mustMarshal(t, s)) }
	decoders := map[string]func([]byte) (*RemoteError, error){
		"agent_response": DecodeAgentResponse,
		"mcp":            DecodeMCPResult,
		"grpc":           DecodeGRPCStatusJSON,
		"openai":         func(b []byte) (*RemoteError, error) { _, r, err := DecodeOpenAIToolMessage(b); return r, err },
		"anthropic":      func(b []byte) (*RemoteError, error) { _, r, err := DecodeAnthropicToolResult(b); return r, err },
	}
	info := `{"@type":"type.googleapis.com/google.rpc.ErrorInfo","domain":"standin.example.com",`
	for _, c := range []struct{ shape, folded, twice string }{
		{"agent_response",
			`{"success":false,"error":"rate_limited","message":"m","Error":"auth_failed"}`,
			`{"success":false,"error":"rate_limited","message":"m","error":"auth_failed"}`},
		{"agent_response",
			`{"success":false,"error":"rate_limited","message":"m","SUCCESS":true}`,
			`{"success":false,"error":"rate_limited","message":"m","success":true}`},
		{"openai",
			`{"role":"tool","tool_call_id":"c","content":` + q(limited) + `,"Content":` + q(refused) + `}`,
			`{"role":"tool","tool_call_id":"c","content":` + q(limited) + `,"content":` + q(refused) + `}`},
		{"anthropic",
			`{"type":"tool_result","tool_use_id":"t","content":` + q(limited) + `,"is_error":true,"Content":` + q(refused) + `}`,
			`{"type":"tool_result","tool_use_id":"t","content":` + q(limited) + `,"is_error":true,"content":` + q(refused) + `}`},
		{"mcp",
			`{"content":[{"type":"text","text":` + q(limited) + `,"Text":` + q(refused) + `}],"isError":true}`,
			`{"content":[{"type":"text","text":` + q(limited) + `,"text":` + q(refused) + `}],"isError":true}`},
		{"mcp",
			`{"content":[{"type":"text","text":` + q(limited) + `}],"Content":[{"type":"text","text":` + q(refused) + `}],"isError":true}`,
			`{"content":[{"type":"text","text":` + q(limited) + `}],"content":[{"type":"text","text":` + q(refused) + `}],"isError":true}`},
		{"grpc",
			`{"code":14,"message":"m","details":[` + info + `"reason":"RATE_LIMITED","Reason":"AUTH_FAILED"}]}`,
			`{"code":14,"message":"m","details":[` + info + `"reason":"RATE_LIMITED","reason":"AUTH_FAILED"}]}`},
		{"grpc",
			`{"code":14,"message":"m","details":[` + info + `"reason":"RATE_LIMITED","metadata":{"provider":"a","Provider":"b"}}]}`,
			`{"code":14,"message":"m","details":[` + info + `"reason":"RATE_LIMITED","metadata":{"provider":"a","provider":"b"}}]}`},
		{"grpc",
			`{"code":14,"message":"m","details":[` + info + `"reason":"RATE_LIMITED"}],"Details":[` + info + `"reason":"AUTH_FAILED"}]}`,
			`{"code":14,"message":"m","details":[` + info + `"reason":"RATE_LIMITED"}],"details":[` + info + `"reason":"AUTH_FAILED"}]}`},
	} {
		decode := decoders[c.shape]
		r, err := decode([]byte(c.folded))
		if err != nil || r.Code() != CodeRateLimited {
			t.Errorf("%s: a key in another case was read for the key: %v, %v\n%s", c.shape, r, err, c.folded)
		} else if got := r.Unwrap().(*RateLimited).Provider; c.shape == "grpc" && strings.Contains(c.folded, `"Provider"`) && got != "a" {
			t.Errorf("%s: metadata provider %q, want a", c.shape, got)
		}
		if r, err := decode([]byte(c.twice)); err == nil {
			t.Errorf("%s: a key given twice was read: %v\n%s", c.shape, r.Code(), c.twice)
		}
	}
}

// TestMCPResultMustBeAnError: DecodeMCPResult reads a tool result only
// when it says it is an error, and a JSON-RPC error object only when it
// has the code and message every error object has, as MCPResult writes
// them; a successful tool result whose text happens to be a payload is
// not an error.
func TestMCPResultMustBeAnError(t *testing.T) {
	data := string(mustMarshal(t, &RateLimited{Provider: "openai"}))
	payload := string(mustMarshal(t, data))
	for _, c := range []struct {
		result string
		ok     bool
	}{
		{`{"content":[{"type":"text","text":` + payload + `}],"isError":true}`, true},
		{`{"content":[{"type":"text","text":` + payload + `}],"isError":false}`, false},
		{`{"content":[{"type":"text","text":` + payload + `}]}`, false},
		{`{"code":-32602,"message":"m","data":` + data + `}`, true},
		{`{"message":"m","data":` + data + `}`, false},
		{`{"code":-32602,"data":` + data + `}`, false},
		{`{"code":"-32602","message":"m","data":` + data + `}`, false},
		// JSON-RPC's code is an integer: a number of a whole value.
		{`{"code":-32602.0,"message":"m","data":` + data + `}`, true},
		{`{"code":-3.2602e4,"message":"m","data":` + data + `}`, true},
		{`{"code":-32602.5,"message":"m","data":` + data + `}`, false},
		{`{"code":1e400,"message":"m","data":` + data + `}`, false},
		{`{"code":null,"message":"m","data":` + data + `}`, false},
		// The protocol asks for the text beside structured content only
		// for backwards compatibility: a result with structured content
		// alone is read from it, the text preferred when there is some.
		{`{"content":[],"structuredContent":` + data + `,"isError":true}`, true},
		{`{"content":[{"type":"image","data":"AA==","mimeType":"image/png"}],"structuredContent":` + data + `,"isError":true}`, true},
		{`{"content":[{"type":"text","text":` + payload + `}],"structuredContent":{"code":"auth_failed"},"isError":true}`, true},
		{`{"content":[],"structuredContent":` + data + `}`, false},
		{`{"content":[],"structuredContent":null,"isError":true}`, false},
		{`{"content":[],"structuredContent":` + payload + `,"isError":true}`, false},
		{`{"structuredContent":` + data + `,"isError":true}`, false},
		{`{"content":null,"structuredContent":` + data + `,"isError":true}`, false},
		// A result may have members of its own (Result's additional
		// properties): a code and a message, of any type, beside isError
		// do not make it an error object.
		{`{"content":[{"type":"text","text":` + payload + `}],"isError":true,"code":-32602,"message":"m"}`, true},
		{`{"content":[{"type":"text","text":` + payload + `}],"isError":true,"code":"E42","message":{}}`, true},
		{`{"content":[{"type":"text","text":` + payload + `}],"isError":true,"data":{"code":"auth_failed"}}`, true},
		{`{"content":[{"type":"text","text":` + payload + `}],"isError":true,"code":-32602,"message":"m","data":{"code":"auth_failed"}}`, true},
		{`{"content":[{"type":"text","text":` + payload + `}],"code":-32602,"message":"m"}`, false},
	} {
		r, err := DecodeMCPResult([]byte(c.result))
		if got := err == nil; got != c.ok {
			t.Errorf("DecodeMCPResult(%s) = %v, %v; want an error: %t", c.result, r, err, !c.ok)
		} else if c.ok && r.Code() != CodeRateLimited {
			t.Errorf("DecodeMCPResult(%s): code %v", c.result, r.Code())
		}
	}
	// An error object without data is refused as one, not as a tool result.
	if _, err := DecodeMCPResult([]byte(`{"code":-32602,"message":"Unknown tool: x"}`)); err == nil || !strings.Contains(err.Error(), `error object without "data"`) {
		t.Errorf("an error object without data: %v", err)
	}
	// Both kinds MCPResult writes read back.
	for _, err := range []error{&RateLimited{}, &CapabilityDenied{}} {
		out, _ := MCPResult(err, true)
		if r, derr := DecodeMCPResult(out); derr != nil || r.Code() != CodeOf(err) {
			t.Errorf("DecodeMCPResult(MCPResult(%T)) = %v, %v", err, r, derr)
		}
	}
}

// TestProviderContentBlocks: both provider APIs take a tool result's
// content as a string or as a list of content blocks, and a peer that
// sends the list (an SDK's history, a relay) is read as one that sends
// the string: the payload is in the first text block, other kinds of
// block are passed over, and a block is read as strictly as the result.
func TestProviderContentBlocks(t *testing.T) {
	text := string(mustMarshal(t, string(mustMarshal(t, &RateLimited{Provider: "openai"}))))
	decoders := map[string]func(content string) (string, *RemoteError, error){
		"anthropic": func(content string) (string, *RemoteError, error) {
			return DecodeAnthropicToolResult([]byte(`{"type":"tool_result","tool_use_id":"toolu_1","content":` + content + `,"is_error":true}`))
		},
		"openai": func(content string) (string, *RemoteError, error) {
			return DecodeOpenAIToolMessage([]byte(`{"role":"tool","tool_call_id":"toolu_1","content":` + content + `}`))
		},
	}
	for name, decode := range decoders {
		for _, content := range []string{
			text,
			`[{"type":"text","text":` + text + `}]`,
			`[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}},{"type":"text","text":` + text + `},{"type":"text","text":"more"}]`,
		} {
			id, r, err := decode(content)
			if err != nil || id != "toolu_1" || r.Code() != CodeRateLimited || r.Unwrap().(*RateLimited).Provider != "openai" {
				t.Errorf("%s: content %s: %q, %v, %v", name, content, id, r, err)
			}
		}
		for _, content := range []string{
			`[]`,
			`[{"type":"image","source":{}}]`,
			`[{"type":"text","text":` + text + `,"text":"{}"}]`,
			`[{"type":"text","Text":` + text + `}]`,
			`[{"type":"text","text":5}]`,
			`{"type":"text","text":` + text + `}`,
			`5`,
		} {
			if _, r, err := decode(content); err == nil {
				t.Errorf("%s: content %s decoded as %v", name, content, r.Code())
			}
		}
	}
}

// TestGRPCStatusAsProtobufReadsIt: DecodeGRPCStatusJSON reads what
// protobuf's JSON mapping reads: RetryInfo's delay under its proto name
// (retry_delay, as a writer with UseProtoNames sends it) as well as its
// JSON name, but not both; a null delay as none (the RetryInfo still says
// the error may be retried); and a detail of another type (a service's
// own) with members named as the ones it reads but of other types is
// passed over, not taken for an ErrorInfo's or a RetryInfo's.
func TestGRPCStatusAsProtobufReadsIt(t *testing.T) {
	status := func(reason string, details ...string) []byte {
		return []byte(`{"code":8,"message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"` + reason + `","domain":"standin.example.com","metadata":{"provider":"openai"}}` +
			strings.Join(append([]string{""}, details...), ",") + `]}`)
	}
	retry := func(members string) string {
		return `{"@type":"type.googleapis.com/google.rpc.RetryInfo"` + members + `}`
	}
	other := `{"@type":"type.googleapis.com/example.v1.Detail","reason":5,"domain":["x"],"retryDelay":7,"message":{}}`
	for _, c := range []struct {
		data      []byte
		wait      time.Duration
		retryable bool
	}{
		{status("RATE_LIMITED", retry(`,"retryDelay":"3s"`)), 3 * time.Second, true},
		{status("RATE_LIMITED", retry(`,"retry_delay":"3s"`)), 3 * time.Second, true},
		{status("RATE_LIMITED", other, retry(`,"retry_delay":"1.500s"`)), 1500 * time.Millisecond, true},
		{status("AUTH_FAILED", retry(`,"retryDelay":null`)), 0, true},
		{status("AUTH_FAILED", retry(``)), 0, true},
		{status("AUTH_FAILED", other), 0, false},
	} {
		r, err := DecodeGRPCStatusJSON(c.data)
		if err != nil {
			t.Errorf("%s: %v", c.data, err)
			continue
		}
		d, ok := RetryAfterOf(r)
		if d != c.wait || ok != (c.wait > 0) || r.Retryable() != c.retryable {
			t.Errorf("%s: RetryAfterOf %v, %v, retryable %t; want %v, %t", c.data, d, ok, r.Retryable(), c.wait, c.retryable)
		}
	}
	for _, refused := range [][]byte{
		status("RATE_LIMITED", retry(`,"retryDelay":"3s","retry_delay":"3s"`)),
		status("RATE_LIMITED", retry(`,"retry_delay":3`)),
		status("RATE_LIMITED", `{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":5}`),
		status("RATE_LIMITED", `{"@type":5}`),
	} {
		if r, err := DecodeGRPCStatusJSON(refused); err == nil {
			t.Errorf("decoded %s as %s", refused, r.Raw)
		}
	}
}

// TestGRPCReasonIsOfItsDomain: a reason names an error only within its
// ErrorInfo's domain (AIP-193), so a status of another service's domain,
// or of none, is not decoded as the catalogue's error of that name, which
// a relay would then send on under the catalogue's own domain.
func TestGRPCReasonIsOfItsDomain(t *testing.T) {
	status := func(domain string) string {
		return `{"code":7,"message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMITED"` + domain + `}]}`
	}
	if r, err := DecodeGRPCStatusJSON([]byte(status(`,"domain":"` + grpcDomain + `"`))); err != nil || r.Code() != CodeRateLimited {
		t.Fatalf("a status of the catalogue's domain: %v, %v", r, err)
	}
	for _, domain := range []string{`,"domain":"googleapis.com"`, `,"domain":""`, ``, `,"domain":"STANDIN.example.com"`} {
		if r, err := DecodeGRPCStatusJSON([]byte(status(domain))); err == nil {
			t.Errorf("a status with ErrorInfo %s decoded as %v", domain, r.Code())
		}
	}
}

// TestGRPCStatusValuesAreStrict: a metadata value read as JSON is one
// value, so a sender cannot slip keys of its own into the decoded payload
// ("retryable" beside the field), and RetryInfo's delay is a protobuf
// duration, refused when it is not one rather than ignored.
func TestGRPCStatusValuesAreStrict(t *testing.T) {
	status := func(metadata, retry string) []byte {
		s := `{"code":8,"message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMITED","domain":"standin.example.com","metadata":{"provider":"openai"` + metadata + `}}`
		if retry != "" {
			s += `,{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"` + retry + `"}`
		}
		return []byte(s + `]}`)
	}
	for _, refused := range [][]byte{
		status(`,"retry_after":"2000,\"retryable\":false"`, ""),
		status(`,"retry_after":"2000 3000"`, ""),
		// protobuf's readers refuse a map value of null; it is not "".
		status(`,"model":null`, ""),
		status(`,"retry_after":null`, ""),
		status("", "1h30m"),
		status("", "2"),
		status("", "1e3s"),
		status("", "1.0000000001s"),
	} {
		if r, err := DecodeGRPCStatusJSON(refused); err == nil {
			t.Errorf("decoded %s as %s", refused, r.Raw)
		}
	}
	for data, want := range map[string]time.Duration{
		string(status(`,"retry_after":"2000"`, "")): 2 * time.Second,
		string(status("", "1.500s")):                1500 * time.Millisecond,
		string(status("", "3s")):                    3 * time.Second,
	} {
		r, err := DecodeGRPCStatusJSON([]byte(data))
		if d, ok := RetryAfterOf(r); err != nil || !ok || d != want {
			t.Errorf("%s: %v, RetryAfterOf %v, %v; want %v", data, err, d, ok, want)
		}
	}
}

// TestDecodedProjectionsRelayRetryable: an error decoded from a shape that
// does not carry "retryable" (the agent envelope, gRPC metadata, a problem
// document) is as retryable as its variant, and relayed as a wire form it
// stays so: the answer is in its payload, not only in memory.
func TestDecodedProjectionsRelayRetryable(t *testing.T) {
	for _, e := range []Error{&RateLimited{Provider: "openai"}, &AuthFailed{Provider: "openai"}} {
		problem, _ := ProblemJSON(e, "")
		for name, decode := range map[string]func() (*RemoteError, error){
			"agent_response": func() (*RemoteError, error) { return DecodeAgentResponse(AgentResponse(e)) },
			"problem":        func() (*RemoteError, error) { return DecodeProblem(problem) },
		} {
			r, err := decode()
			if err != nil {
				t.Fatalf("%s of %s: %v", name, e.Code(), err)
			}
			relayed, err := DecodePayload(mustMarshal(t, r))
			if err != nil || IsRetryable(r) != e.Retryable() || IsRetryable(relayed) != e.Retryable() {
				t.Errorf("%s of %s: decoded IsRetryable %v, relayed as %s %v (%v); want %v", name, e.Code(), IsRetryable(r), mustMarshal(t, r), IsRetryable(relayed), err, e.Retryable())
			}
		}
	}
}

// TestGRPCMetadataOfNull: a payload field the payload writes as null (a
// float that is NaN or infinite) is the text "null" in the status's
// metadata, as any value that is not text is its JSON there, so the
// status decodes again; were it "", no decoder would read it back.
func TestGRPCMetadataOfNull(t *testing.T) {
	for _, load := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		e := &ToolUnavailable{Tool: "browser", Load: load}
		data := GRPCStatusJSON(e)
		if !bytes.Contains(data, []byte(`"load":"null"`)) {
			t.Errorf("metadata of Load %v: %s", load, data)
		}
		r, err := DecodeGRPCStatusJSON(data)
		var got *ToolUnavailable
		if err != nil || !errors.As(r, &got) || got.Tool != "browser" {
			t.Errorf("decode of Load %v: %v, %#v\n%s", load, err, got, data)
		}
	}
}

// TestDecodedUserMessage: a problem document's detail and a gRPC status's
// LocalizedMessage carry the user message, and the error decoded from
// them answers UserMessage with it, so that relayed in the same shape it
// tells the end user what the sender said. The variant it unwraps to
// could not: the user message came from a cause that did not travel.
func TestDecodedUserMessage(t *testing.T) {
	e := &ModelCallFailed{Cause: &RateLimited{Provider: "openai"}}
	want := e.UserMessage()
	problem, _ := ProblemJSON(e, "/runs/7")
	for name, decode := range map[string]func() (*RemoteError, error){
		"problem": func() (*RemoteError, error) { return DecodeProblem(problem) },
		"grpc":    func() (*RemoteError, error) { return DecodeGRPCStatusJSON(GRPCStatusJSON(e)) },
	} {
		r, err := decode()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := UserMessageOf(fmt.Errorf("relay: %w", r)); got != want {
			t.Errorf("%s: user message %q, want %q", name, got, want)
		}
	}
	if r, err := DecodeProblem(problem); err != nil {
		t.Fatal(err)
	} else if again, _ := ProblemJSON(r, "/runs/7"); !bytes.Equal(again, problem) {
		t.Errorf("problem relayed:\n got %s\nwant %s", again, problem)
	}
	if r, err := DecodeGRPCStatusJSON(GRPCStatusJSON(e)); err != nil {
		t.Fatal(err)
	} else if again := GRPCStatusJSON(r); !bytes.Equal(again, GRPCStatusJSON(e)) {
		t.Errorf("status relayed:\n got %s\nwant %s", again, GRPCStatusJSON(e))
	}
	// A problem without a detail, or a status without LocalizedMessage,
	// leaves it to the variant.
	r, err := DecodeProblem([]byte(`{"type":"about:blank","title":"t","status":429,"code":"rate_limited","code_num":2001}`))
	if err != nil || r.UserMessage() != (&RateLimited{}).UserMessage() {
		t.Errorf("problem without detail: %v, user message %q", err, r.UserMessage())
	}
	// Its message is that user message, the detail a relay writes, so
	// that the relay decodes to the same error.
	for _, doc := range []string{
		`{"type":"about:blank","title":"t","status":429,"code":"rate_limited","code_num":2001}`,
		`{"type":"about:blank","title":"t","status":500,"code":"new_thing","detail":null}`,
	} {
		r, err := DecodeProblem([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		relayed, _ := ProblemJSON(r, "")
		again, err := DecodeProblem(relayed)
		if err != nil || r.Error() != r.UserMessage() || again.Error() != r.Error() {
			t.Errorf("problem without detail %s: message %q, relayed as %s: %q (%v)", doc, r.Error(), relayed, again.Error(), err)
		}
	}
}

// TestProjectionDecodersReadUpToTheBound: the bound is the document's
// size: a document under it decodes, though the payload a decoder
// rebuilds from it is longer (a "<" a text holds as it is is written as
// six bytes), as is a code_num a problem sends, which must be the
// catalogue's.
func TestProjectionDecodersReadUpToTheBound(t *testing.T) {
	text := strings.Repeat("<", maxPayload/5)
	for name, c := range map[string]struct {
		decode func([]byte) (*RemoteError, error)
		doc    string
	}{
		"problem":        {DecodeProblem, `{"type":"about:blank","title":"t","status":429,"code":"rate_limited","code_num":2001,"detail":"` + text + `"}`},
		"agent_response": {DecodeAgentResponse, `{"success":false,"error":"rate_limited","message":"` + text + `"}`},
		"grpc": {DecodeGRPCStatusJSON, `{"code":14,"message":"` + text + `","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMITED","domain":"` +
			grpcDomain + `"}]}`},
	} {
		r, err := c.decode([]byte(c.doc))
		if err != nil || r.Code() != CodeRateLimited || r.Error() != text {
			t.Errorf("%s: %d bytes: %v, %v", name, len(c.doc), r, err)
		}
	}
	for _, num := range []string{"-1", "-2001", "2002", "null", `"2001"`} {
		doc := `{"type":"about:blank","title":"t","status":429,"code":"rate_limited","code_num":` + num + `}`
		if r, err := DecodeProblem([]byte(doc)); err == nil {
			t.Errorf("DecodeProblem with code_num %s = %v, %d; want an error", num, r.Code(), r.CodeNum())
		}
	}
}

// TestProblemInstanceIsScrubbed: the instance is a string the document
// sends like any other, often the request's URI, whose query can hold a
// token; the scrubber applies to it as to every string value.
func TestProblemInstanceIsScrubbed(t *testing.T) {
	SetScrubber(ScrubSecrets)
	t.Cleanup(func() { SetScrubber(nil) })
	doc, _ := ProblemJSON(&RateLimited{Provider: "openai"}, "/v1/chat?api_key=zq9secret")
	if bytes.Contains(doc, []byte("zq9")) || !json.Valid(doc) {
		t.Errorf("instance not scrubbed: %s", doc)
	}
}

// TestProjectionDecodersAreBounded: every projection's decoder refuses
// more than maxPayload bytes before it reads any, as DecodePayload does,
// whatever the bytes hold.
func TestProjectionDecodersAreBounded(t *testing.T) {
	pad := `"pad":"` + strings.Repeat("x", 8<<20) + `",`
	for _, p := range projectAll(&RateLimited{Provider: "openai"}) {
		if p.decode == nil {
			continue
		}
		big := append([]byte("{"+pad), p.data[1:]...)
		if _, err := p.decode(big); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("at most %d are decoded", maxPayload)) {
			t.Errorf("%s: %d bytes decoded with error %v", p.name, len(big), err)
		}
	}
}

// TestReasonCode: an ErrorInfo reason names a code of the catalogue as it
// stands or in lower case; a code the catalogue does not know is spelled
// as the catalogue spells codes, so an upper_snake catalogue keeps a
// newer sender's code as it came.
func TestReasonCode(t *testing.T) {
	for _, c := range []struct {
		reason string
		upper  bool
		want   Code
		known  bool
	}{
		{"RATE_LIMITED", false, CodeRateLimited, true},
		{"NEW_THING", false, "new_thing", false},
		{"NEW_THING", true, "NEW_THING", false},
		{"new_thing", true, "new_thing", false},
	} {
		code, i, known := reasonCode(c.reason, c.upper)
		if code != c.want || known != c.known || known && infos[i].Code != code {
			t.Errorf("reasonCode(%q, %v) = %q, %d, %v; want %q, known %v", c.reason, c.upper, code, i, known, c.want, c.known)
		}
	}
	if grpcReasonIsCode {
		t.Errorf("the stand-in's codes are snake_case, but grpcReasonIsCode is set")
	}
}

// TestNonFiniteFloatsTravelOn: a float field that is not a finite number
// is null in JSON; decoded, it is NaN, so that a projection of the decoded
// error writes it again rather than leaving it out as a zero.
func TestNonFiniteFloatsTravelOn(t *testing.T) {
	for _, load := range []float64{math.Inf(1), math.NaN()} {
		err := &ToolUnavailable{Tool: "browser", Load: load}
		for _, p := range projectAll(err) {
			if p.decode == nil || !bytes.Contains(p.data, []byte(`"load":null`)) {
				continue
			}
			r, derr := p.decode(p.data)
			if derr != nil {
				t.Fatalf("%v, %s: %v", load, p.name, derr)
			}
			var got *ToolUnavailable
			if !errors.As(r, &got) || !math.IsNaN(got.Load) {
				t.Errorf("%v, %s: decoded load %v", load, p.name, got)
			}
			if again := projectAll(r); !bytes.Contains(again[slices.IndexFunc(again, func(q projected) bool { return q.name == p.name })].data, []byte(`"load":null`)) {
				t.Errorf("%v, %s: the decoded error's projection lost the load", load, p.name)
			}
		}
	}
}

// TestRelayedCauseKeepsItsTexts: a decoded cause passes on what it
// arrived with, in every shape: a service that decodes a payload, wraps it
// and sends the wire form on, and a third that decodes that and answers
// with a projection, sends the first service's message and key for the
// cause, not texts rendered again from the fields that travelled (a
// payload leaves out fields its message names: seconds here).
func TestRelayedCauseKeepsItsTexts(t *testing.T) {
	first := &ToolTimeout{Tool: "terminal", Seconds: 30}
	r1, err := DecodePayload(first.AppendLLMPayload(nil))
	if err != nil {
		t.Fatal(err)
	}
	r2, err := DecodePayload(mustMarshal(t, &OperatorFailed{Cause: r1}))
	if err != nil {
		t.Fatal(err)
	}
	want := `"error":` + string(mustMarshal(t, first.Error()))
	if wire := string(mustMarshal(t, r2)); !strings.Contains(wire, want) {
		t.Fatalf("the wire form of the relayed error lacks %s:\n%s", want, wire)
	}
	for _, p := range projectAll(r2) {
		var text string
		if strings.HasPrefix(p.name, "mcp") {
			r, err := DecodeMCPResult(p.data)
			if err != nil {
				t.Fatalf("%s: %v", p.name, err)
			}
			text = string(r.Raw)
		} else if p.name == "agent_response" {
			text = string(p.data)
		} else {
			continue
		}
		if !strings.Contains(text, strings.ReplaceAll(want, `"`, `\"`)) && !strings.Contains(text, want) {
			t.Errorf("%s: the cause's text is not the sender's %s:\n%s", p.name, want, text)
		}
	}
	// Wrapped by fmt.Errorf in a third service's error, the decoded error
	// still writes its cause as it arrived.
	if wire := string(mustMarshal(t, &OperatorFailed{Cause: fmt.Errorf("again: %w", r2)})); !strings.Contains(wire, want) || !strings.Contains(wire, `"error":"again: operator failed: `) {
		t.Errorf("the wire form of the wrapped relayed error lacks %s or the wrap's text:\n%s", want, wire)
	}
	var logged string
	for _, a := range LogValueOf(r2).Group() {
		if a.Key == "cause" {
			for _, c := range a.Value.Resolve().Group() {
				if c.Key == "error" {
					logged = c.Value.String()
				}
			}
		}
	}
	if logged != first.Error() {
		t.Errorf("the relayed error logs its cause's text as %q, want the sender's %q", logged, first.Error())
	}
}

// TestWrappedCauseTravels: a catalogue error wrapped by fmt.Errorf in a
// cause field of type error travels as itself, with the wrap's text: the
// wire form carries its code, retryability and wait, so a decoder finds
// it, and what is retryable through its cause stays retryable. Sent as
// TestRelayedCauseFollowsThePolicy: a decoded error whose retryability
// this deployment's class policy decides is relayed with the policy's
// answer, as a cause in a field or wrapped by fmt.Errorf, and by itself,
// so the wrapper retryable through it and the cause agree.
func TestRelayedCauseFollowsThePolicy(t *testing.T) {
	sent := mustMarshal(t, &CapabilityDenied{Tool: "shell", Capability: "automation"})
	t.Cleanup(func() { SetClassPolicy(nil) })
	if err := SetClassPolicy(ClassPolicy{CodeCapabilityDenied: ClassRetryable}); err != nil {
		t.Fatal(err)
	}
	r, err := DecodePayload(sent)
	if err != nil {
		t.Fatal(err)
	}
	for name, e := range map[string]error{
		"itself":                r,
		"a cause":               &OperatorFailed{Cause: r},
		"a cause, fmt.Errorf'd": &OperatorFailed{Cause: fmt.Errorf("relay: %w", r)},
	} {
		var doc struct {
			Retryable bool
			Cause     *struct{ Retryable bool }
		}
		wire := mustMarshal(t, e)
		if err := json.Unmarshal(wire, &doc); err != nil {
			t.Fatal(err)
		}
		if !doc.Retryable || doc.Cause != nil && !doc.Cause.Retryable {
			t.Errorf("%s: relayed as %s; want retryable, as the policy says", name, wire)
		}
	}
}

// TestDecodedCauseFollowsThePolicy: a decoded error whose cause, decoded
// with it, this deployment's class policy makes retryable otherwise than
// the sender said is written again with the policy's answer at the cause
// too, as the live error is: by itself and relayed, scrubbed once, the
// rest as it came.
func TestDecodedCauseFollowsThePolicy(t *testing.T) {
	sent := mustMarshal(t, &OperatorFailed{Cause: &CapabilityDenied{Tool: "shell", Capability: "automation"}})
	t.Cleanup(func() { SetClassPolicy(nil); SetScrubber(nil) })
	if err := SetClassPolicy(ClassPolicy{CodeCapabilityDenied: ClassRetryable}); err != nil {
		t.Fatal(err)
	}
	r, err := DecodePayload(sent)
	if err != nil {
		t.Fatal(err)
	}
	live := mustMarshal(t, &OperatorFailed{Cause: &CapabilityDenied{Tool: "shell", Capability: "automation"}})
	if got := mustMarshal(t, r); !bytes.Equal(got, live) {
		t.Errorf("decoded and written again:\n%s\nthe live error under the same policy:\n%s", got, live)
	}
	relayed := mustMarshal(t, &OperatorFailed{Cause: r})
	if !bytes.Contains(relayed, []byte(`"cause":{"type":"tool_error","category":"capability","code":"capability_denied"`)) ||
		bytes.Count(relayed, []byte(`"retryable":true`)) != 3 {
		t.Errorf("relayed as %s; want every level retryable, as the policy says", relayed)
	}
	SetScrubber(func(s string) string { return s + "!" })
	got := string(mustMarshal(t, r))
	for _, want := range []string{`"tool":"shell!"`, `"code":"capability_denied"`, `"code":"operator_failed"`, `"retryable":true,`} {
		if !strings.Contains(got, want) {
			t.Errorf("scrubbed: %s lacks %s", got, want)
		}
	}
	if strings.Contains(got, "!!") {
		t.Errorf("scrubbed twice: %s", got)
	}
}

// TestWrappedCauseKeepsWhatArrived: a decoded error of a known code,
// wrapped by fmt.Errorf in a cause field, travels as it arrived with the
// wrap's text, a newer sender's member included, as it does unwrapped.
func TestWrappedCauseKeepsWhatArrived(t *testing.T) {
	r, err := DecodePayload([]byte(`{"category":"rate_limit","code":"rate_limited","code_num":2001,"error":"slow down","retryable":true,"suppress_retry":false,"provider":"openai","retry_after":2000,"region":"eu-west-1"}`))
	if err != nil {
		t.Fatal(err)
	}
	for name, e := range map[string]error{"a cause": &OperatorFailed{Cause: r}, "a cause, fmt.Errorf'd": &OperatorFailed{Cause: fmt.Errorf("relay: %w", r)}} {
		if wire := mustMarshal(t, e); !bytes.Contains(wire, []byte(`"region":"eu-west-1"`)) {
			t.Errorf("%s: %s lost the member the sender added", name, wire)
		}
	}
}

// TestWrappedUnknownCauseTravels: a decoded error of a code this catalogue
// does not know, wrapped by fmt.Errorf in a cause field, travels as it
// arrived with the wrap's text, so the next decoder finds its code.
func TestWrappedUnknownCauseTravels(t *testing.T) {
	newer, err := DecodePayload([]byte(`{"category":"server","code":"provider_overloaded","code_num":2050,"error":"provider overloaded","retryable":true,"zone":"eu"}`))
	if err != nil {
		t.Fatal(err)
	}
	e := &OperatorFailed{Cause: fmt.Errorf("calling provider: %w", newer)}
	wire := mustMarshal(t, e)
	d, err := DecodePayload(wire)
	if err != nil {
		t.Fatal(err)
	}
	if got := RootCodeOf(d); got != "provider_overloaded" || !HasCode(d, "provider_overloaded") {
		t.Errorf("RootCodeOf = %q, HasCode = %v; want the newer code: %s", got, HasCode(d, "provider_overloaded"), wire)
	}
	want := `"cause":{"category":"server","code":"provider_overloaded","code_num":2050,"error":"calling provider: provider overloaded","retryable":true,"zone":"eu"}`
	if !strings.Contains(string(wire), want) {
		t.Errorf("wire form %s\nwant it to hold %s", wire, want)
	}
}

// TestWrapOfADeepDecodedChain: a decoded chain as deep as a wire form may
// be, wrapped once more, gives a wire form the package's decoder reads:
// the cause that would nest too deep travels as its text.
func TestWrapOfADeepDecodedChain(t *testing.T) {
	var err error = errors.New("root")
	for range maxChain - 1 {
		err = &MemoryUnavailable{Err: err}
	}
	d, derr := DecodePayload(mustMarshal(t, err))
	if derr != nil {
		t.Fatal(derr)
	}
	for name, e := range map[string]error{
		"the decoded chain":          &MemoryUnavailable{Err: d},
		"the decoded chain, wrapped": &MemoryUnavailable{Err: fmt.Errorf("again: %w", d)},
	} {
		wire := mustMarshal(t, e)
		r, err := DecodePayload(wire)
		if err != nil {
			t.Fatalf("%s: %.200v", name, err)
		}
		if !strings.Contains(r.Error(), "root") {
			t.Errorf("%s: the text was lost: %.200s", name, r.Error())
		}
	}
}

// its text alone, the error inside was lost to every relay.
func TestWrappedCauseTravels(t *testing.T) {
	limited := &RateLimited{Provider: "p", RetryAfter: 2 * time.Second}
	inner := &OperatorFailed{Cause: fmt.Errorf("attempt 2: %w", limited)}
	e := &OperatorFailed{Cause: inner}
	r, err := DecodePayload(mustMarshal(t, e))
	if err != nil {
		t.Fatal(err)
	}
	if r.Error() != e.Error() {
		t.Errorf("text %q, want %q", r.Error(), e.Error())
	}
	decodedInner, ok := r.Unwrap().(*OperatorFailed).Cause.(*OperatorFailed)
	if !ok {
		t.Fatalf("the inner wrapper did not decode: %#v", r.Unwrap())
	}
	if !decodedInner.Retryable() {
		t.Errorf("the inner wrapper decoded as %q, not retryable", decodedInner.Error())
	}
	var got *RateLimited
	if !errors.As(r, &got) || got.Provider != "p" {
		t.Errorf("errors.As finds %#v in the decoded chain", got)
	}
	if d, ok := RetryAfterOf(r); !ok || d != 2*time.Second {
		t.Errorf("RetryAfterOf = %v, %t; want 2s", d, ok)
	}
	// Relayed in a projection, it is the same.
	if again, want := AgentResponse(r), AgentResponse(e); !bytes.Equal(again, want) {
		t.Errorf("relayed:\n got %s\nwant %s", again, want)
	}
}

// TestRelayPassesOnOnlyWhatArrived: a payload or a wire form carries the
// suppression key and the hints, so one it arrived without had none at
// the sender (an older catalogue's), and a relay adds none; a projection
// carries neither, so its decoded error takes the catalogue's, with a key
// rendered only from payload fields, the only fields it carries.
func TestRelayPassesOnOnlyWhatArrived(t *testing.T) {
	e := &ToolUnavailable{Tool: "browser", Reason: "down"}
	payload := string(e.AppendLLMPayload(nil))
	for _, k := range []string{"suppression_key", "suggested_tool", "suggested_action", "usage_hint"} {
		if !strings.Contains(payload, `"`+k+`":`) {
			t.Fatalf("the payload has no %s to leave out: %s", k, payload)
		}
	}
	var older map[string]json.RawMessage
	if err := json.Unmarshal([]byte(payload), &older); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"suppression_key", "suggested_tool", "suggested_action", "usage_hint"} {
		delete(older, k)
	}
	r, err := DecodePayload(mustMarshal(t, older))
	if err != nil {
		t.Fatal(err)
	}
	relayed, _ := MCPResult(r, true)
	for _, k := range []string{"suppression_key", "suggested_tool", "suggested_action", "usage_hint"} {
		if strings.Contains(string(relayed), k) {
			t.Errorf("the relay added %s, which the sender did not send:\n%s", k, relayed)
		}
	}
	// From a gRPC status, the catalogue's hints and the key from the tool.
	g, err := DecodeGRPCStatusJSON(GRPCStatusJSON(e))
	if err != nil {
		t.Fatal(err)
	}
	relayed, _ = MCPResult(g, true)
	if !strings.Contains(string(relayed), `suppression_key\":\"browser:tool_unavailable`) || !strings.Contains(string(relayed), `suggested_tool\":\"clarify`) {
		t.Errorf("the relay of a decoded status lacks the catalogue's key or hints:\n%s", relayed)
	}
}

// TestPayloadOnly: a key renders from a projection's decoded error only
// when every field it names is a payload field.
func TestPayloadOnly(t *testing.T) {
	fields := []field{{name: "tool", payload: true}, {name: "reason"}}
	for key, want := range map[string]bool{
		"{tool}:{code}": true, "{reason}": false, "{tool}-{reason}": false, "{{reason}}": true,
		"static": true, "{code}": true, "{tool": true, "a{{b}}{tool}": true, "{{{reason}}}": false,
	} {
		if got := payloadOnly(key, fields); got != want {
			t.Errorf("payloadOnly(%q) = %t, want %t", key, got, want)
		}
	}
}

// TestRetryInfoPastADuration: a RetryInfo delay within protobuf's range but
// past what a time.Duration holds is the longest wait, as a decoded field's
// is; one past protobuf's range is refused.
func TestRetryInfoPastADuration(t *testing.T) {
	status := func(delay string) []byte {
		return []byte(`{"code":8,"message":"quota","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"QUOTA_EXHAUSTED","domain":"standin.example.com"},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"` + delay + `"}]}`)
	}
	r, err := DecodeGRPCStatusJSON(status("10000000000s"))
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := RetryAfterOf(r); !ok || d != math.MaxInt64 {
		t.Errorf("RetryAfterOf = %v, %v; want the longest wait", d, ok)
	}
	if _, err := DecodeGRPCStatusJSON(status("315576000001s")); err == nil {
		t.Error("a delay past protobuf's range decoded")
	}
}

// TestGRPCRelayKeepsARetryInfoWithoutDelay: a status whose RetryInfo has
// no delay makes its decoded error retryable, though its code is not;
// written as a status again, it keeps that RetryInfo, so the next decoder
// reads it retryable too. An unknown code's does the same.
func TestGRPCRelayKeepsARetryInfoWithoutDelay(t *testing.T) {
	for _, reason := range []string{"AUTH_FAILED", "NEWER_THING"} {
		in := `{"code":16,"message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"` + reason + `","domain":"` + grpcDomain + `"},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"0s"}]}`
		r, err := DecodeGRPCStatusJSON([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		out := GRPCStatusJSON(r)
		again, err := DecodeGRPCStatusJSON(out)
		if err != nil {
			t.Fatal(err)
		}
		if !IsRetryable(r) || !IsRetryable(again) {
			t.Errorf("%s: decoded retryable %v, relayed as %s and decoded retryable %v; want both retryable", reason, IsRetryable(r), out, IsRetryable(again))
		}
	}
}

// TestProblemOfAnUnknownCodeMakesNothingUp: the problem document of a
// decoded error of a code the catalogue does not know holds the num and
// category its sender sent, and none it did not, so a relay does not pass
// on a num of 0 and an empty category as if they had been sent.
func TestProblemOfAnUnknownCodeMakesNothingUp(t *testing.T) {
	r, err := DecodeGRPCStatusJSON([]byte(`{"code":8,"message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"NEW_THING","domain":"` + grpcDomain + `"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := ProblemJSON(r, "")
	if bytes.Contains(p, []byte(`"code_num"`)) || bytes.Contains(p, []byte(`"category"`)) {
		t.Errorf("problem of an error sent without num and category: %s", p)
	}
	sent, err := DecodePayload([]byte(`{"code":"new_thing","code_num":4242,"category":"fresh","error":"m","retryable":false}`))
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := ProblemJSON(sent, ""); !bytes.Contains(p, []byte(`"code_num":4242,"category":"fresh"`)) {
		t.Errorf("problem of an error sent with num and category: %s", p)
	}
}

// TestAgentResponseMetadataKeys: an agent response's metadata has each
// field under its name in lowerCamelCase, as the framework's metadata type
// spells its members (retry_after is retryAfter, upstream_request_id
// upstreamRequestId), at its top level only: a cause inside is in its wire
// form. DecodeAgentResponse reads those keys back to the fields; the
// snake_case spelling of a field's name is not its key, and is neither
// read into the field nor passed on, where a wire form would read it as
// the field. A relayed error of another catalogue has its sender's keys.
func TestAgentResponseMetadataKeys(t *testing.T) {
	server := &ServerError{Provider: "openai", Status: 502, Type: "overloaded", UpstreamRequestID: "req_7"}
	limited := &RateLimited{Provider: "openai", RetryAfter: 2 * time.Second}
	wrapped := &ModelCallFailed{Cause: limited, Provider: "openai"}
	for _, c := range []struct {
		e    error
		want string
	}{
		{server, `{"success":false,"error":"server_error","message":"provider openai failed with status 502","metadata":{"provider":"openai","status":502,"type":"overloaded","upstreamRequestId":"req_7"}}`},
		{limited, `{"success":false,"error":"rate_limited","message":"provider openai rate limited the request","metadata":{"provider":"openai","retryAfter":2000}}`},
		{wrapped, `{"success":false,"error":"model_call_failed","message":"model call failed: provider openai rate limited the request","metadata":{"cause":` + string(mustMarshal(t, limited)) + `,"provider":"openai"}}`},
	} {
		got := AgentResponse(c.e)
		if string(got) != c.want {
			t.Errorf("AgentResponse(%T):\n got %s\nwant %s", c.e, got, c.want)
		}
		r, err := DecodeAgentResponse(got)
		if err != nil {
			t.Fatalf("%T: %v", c.e, err)
		}
		if back := AgentResponse(r); !bytes.Equal(back, got) {
			t.Errorf("%T read back and written again:\n got %s\nwant %s", c.e, back, got)
		}
	}
	if !strings.Contains(string(mustMarshal(t, limited)), `"retry_after":2000`) {
		t.Fatalf("the cause's wire form changed: %s", mustMarshal(t, limited))
	}
	r, err := DecodeAgentResponse(AgentResponse(server))
	var s *ServerError
	if err != nil || !errors.As(r, &s) || *s != *server {
		t.Errorf("read back: %+v, %v; want %+v", s, err, server)
	}
	r, err = DecodeAgentResponse(AgentResponse(limited))
	if d, ok := RetryAfterOf(r); err != nil || !ok || d != 2*time.Second {
		t.Errorf("read back: RetryAfterOf = %v, %t (%v); want 2s", d, ok, err)
	}

	// The snake_case spelling, as a sender wrote before, is not the key.
	for _, md := range []string{
		`{"provider":"x","retry_after":5000}`,
		`{"provider":"x","retry_after":5000,"retryAfter":1000}`,
		`{"retryAfter":1000,"provider":"x","retry_after":5000}`,
	} {
		r, err := DecodeAgentResponse([]byte(`{"success":false,"error":"rate_limited","message":"m","metadata":` + md + `}`))
		var got *RateLimited
		if err != nil || !errors.As(r, &got) || got.Provider != "x" {
			t.Fatalf("%s: %v, %+v", md, err, got)
		}
		want := time.Duration(0)
		if strings.Contains(md, "retryAfter") {
			want = time.Second
		}
		if got.RetryAfter != want {
			t.Errorf("%s: retry_after %v, want %v", md, got.RetryAfter, want)
		}
		if wire := mustMarshal(t, r); strings.Contains(string(wire), "5000") || strings.Contains(string(r.Raw), "5000") {
			t.Errorf("%s: passed on as %s (%s)", md, wire, r.Raw)
		}
		for _, f := range r.Payload.Fields {
			if string(f.Value) == "5000" {
				t.Errorf("%s: passed on as field %s", md, f.Name)
			}
		}
	}
	// A member no field declares, in either spelling, is kept with the
	// fields it arrived with.
	r, err = DecodeAgentResponse([]byte(`{"success":false,"error":"rate_limited","message":"m","metadata":{"provider":"x","newerField":1,"older_field":2}}`))
	if err != nil || len(r.Payload.Fields) != 3 || r.Payload.Fields[1].Name != "newerField" || r.Payload.Fields[2].Name != "older_field" {
		t.Errorf("undeclared members: %+v, %v", r.Payload.Fields, err)
	}

	// A decoded error of another catalogue has its sender's field names,
	// which a relay writes as its sender wrote them: in lowerCamelCase;
	// a cause's object inside stays as it came.
	cause := `{"code":"upstream_down","code_num":7,"error":"down","retry_after":3}`
	foreign, err := DecodePayload([]byte(`{"code":"from_elsewhere","code_num":9,"error":"m","status_code":503,"retry_after":2,"original_error":` + cause + `}`))
	if err != nil {
		t.Fatal(err)
	}
	sent := `{"success":false,"error":"from_elsewhere","message":"m","metadata":{"statusCode":503,"retryAfter":2,"originalError":` + cause + `}}`
	if got := AgentResponse(foreign); string(got) != sent {
		t.Errorf("relay of another catalogue's error:\n got %s\nwant %s", got, sent)
	}
	again, err := DecodeAgentResponse([]byte(sent))
	if err != nil {
		t.Fatal(err)
	}
	if got := AgentResponse(again); string(got) != sent {
		t.Errorf("relay of another catalogue's envelope:\n got %s\nwant %s", got, sent)
	}
	// Two of its names with one key: the first is written, and the
	// envelope has no key twice.
	for _, n := range []int{2, maxScan + 2} {
		members := `"a_b":1,"aB":2`
		for k := range n - 2 {
			members += fmt.Sprintf(`,"f_%d":%d`, k, k)
		}
		twice, err := DecodePayload([]byte(`{"code":"from_elsewhere","code_num":9,"error":"m",` + members + `}`))
		if err != nil {
			t.Fatal(err)
		}
		got := AgentResponse(twice)
		if !strings.Contains(string(got), `"metadata":{"aB":1`) || strings.Contains(string(got), `"aB":2`) {
			t.Errorf("%d fields, two with one key: %s", n, got)
		}
		if _, err := DecodeAgentResponse(got); err != nil {
			t.Errorf("%d fields, two with one key: %v", n, err)
		}
	}
}

// TestAgentResponseErrorNamesMetadataKey: a value DecodeAgentResponse
// refuses is named by the key the envelope's metadata gave it (its field's
// name in lowerCamelCase), not by the field's name, which the document
// does not hold; a cause's members keep their names, as they came.
func TestAgentResponseErrorNamesMetadataKey(t *testing.T) {
	for _, c := range []struct{ data, want, not string }{
		{`{"success":false,"error":"rate_limited","message":"m","metadata":{"retryAfter":"soon"}}`, `payload key "retryAfter": `, `"retry_after"`},
		{`{"success":false,"error":"server_error","message":"m","metadata":{"upstreamRequestId":7}}`, `payload key "upstreamRequestId": `, `"upstream_request_id"`},
		{`{"success":false,"error":"model_call_failed","message":"m","metadata":{"cause":{"category":"rate_limit","code":"rate_limited","code_num":2001,"error":"x","retryable":true,"suppress_retry":false,"retry_after":"soon"}}}`, `payload key "cause": runtime: payload key "retry_after": `, `"retryAfter"`},
	} {
		_, err := DecodeAgentResponse([]byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), c.not) {
			t.Errorf("DecodeAgentResponse(%s) = %v; want an error naming %s", c.data, err, c.want)
		}
	}
}

// TestGRPCDetailTypeIsItsLastSegment: protobuf's JSON mapping resolves an
// Any's "@type" by the part after its last "/", the message's full name,
// whatever the host and path before it: a detail under another prefix
// (a service's own type server) is the same detail, and one whose name
// only ends like it is not.
func TestGRPCDetailTypeIsItsLastSegment(t *testing.T) {
	status := func(prefix string) []byte {
		return []byte(`{"code":8,"message":"m","details":[` +
			`{"@type":"` + prefix + `google.rpc.ErrorInfo","reason":"RATE_LIMITED","domain":"standin.example.com","metadata":{"provider":"openai"}},` +
			`{"@type":"` + prefix + `google.rpc.RetryInfo","retryDelay":"3s"},` +
			`{"@type":"` + prefix + `google.rpc.LocalizedMessage","locale":"en-US","message":"wait a moment"}]}`)
	}
	for _, prefix := range []string{"type.googleapis.com/", "example.com/x/", "https://types.example.com/a/b/", "/", ""} {
		r, err := DecodeGRPCStatusJSON(status(prefix))
		if err != nil {
			t.Errorf("@type %sgoogle.rpc.*: %v", prefix, err)
			continue
		}
		if d, ok := RetryAfterOf(r); r.Code() != CodeRateLimited || !ok || d != 3*time.Second || r.UserMessage() != "wait a moment" {
			t.Errorf("@type %sgoogle.rpc.*: %v, RetryAfterOf %v, %v, user message %q", prefix, r.Code(), d, ok, r.UserMessage())
		}
	}
	for _, prefix := range []string{"type.googleapis.com/x", "type.googleapis.com/my.", "type.googleapis.com/google.rpc.RetryInfo."} {
		if r, err := DecodeGRPCStatusJSON(status(prefix)); err == nil {
			t.Errorf("@type %sgoogle.rpc.ErrorInfo read as an ErrorInfo: %v", prefix, r.Code())
		}
	}
}

// TestGRPCStatusCodeIsAnError: a status of code OK (0, which protobuf's
// JSON mapping writes by leaving "code" out, or as null) says the call
// succeeded, whatever details it holds, and is refused; its code is read
// as the mapping reads an int32, a number or a decimal string. A code other
// than the variant's is taken: the reason in its domain names the error
// (AIP-193), and proxies and gateways rewrite codes.
func TestGRPCStatusCodeIsAnError(t *testing.T) {
	const details = `"message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMITED","domain":"standin.example.com"}]`
	// Protobuf's JSON mapping reads an int32 from a number or a string
	// holding one, exponent notation too, of a whole value.
	for _, code := range []string{`"code":8,`, `"code":"8",`, `"code":14,`, `"code":2,`, `"code":-1,`,
		`"code":8.0,`, `"code":8e0,`, `"code":0.8E+1,`, `"code":"8e0",`, `"code":800e-2,`, `"code":"-1.0",`} {
		if r, err := DecodeGRPCStatusJSON([]byte(`{` + code + details + `}`)); err != nil || r.Code() != CodeRateLimited {
			t.Errorf("status with %s: %v, %v", code, r, err)
		}
	}
	for _, code := range []string{`"code":0,`, `"code":"0",`, ``, `"code":null,`, `"code":8.5,`, `"code":"eight",`, `"code":"",`, `"code":4294967304,`, `"code":true,`,
		`"code":"08",`, `"code":"+8",`, `"code":" 8",`, `"code":"8 ",`, `"code":"0x8",`, `"code":8.01e0,`, `"code":-0.0,`, `"code":"0e5",`,
		`"code":1e10,`, `"code":1e999999999999,`, `"code":8e-999999999999,`, `"code":2147483648,`} {
		r, err := DecodeGRPCStatusJSON([]byte(`{` + code + details + `}`))
		if err == nil {
			t.Errorf("status with %q decoded as %v", code, r.Code())
		} else if !strings.Contains(err.Error(), "code") {
			t.Errorf("status with %q: the error does not name the code: %v", code, err)
		}
	}
}

// TestToolResultNeedsItsID: both provider APIs require the id of the tool
// call a result answers (tool_use_id, tool_call_id), so a block without
// one, or with null, is refused as malformed, not read as answering "";
// an id of another type is refused too. An empty id, which the writers
// write when given one, reads back as it was written.
func TestToolResultNeedsItsID(t *testing.T) {
	content := string(mustMarshal(t, string(mustMarshal(t, &RateLimited{Provider: "openai"}))))
	decoders := map[string]struct {
		decode func([]byte) (string, *RemoteError, error)
		block  func(id string) string
		key    string
	}{
		"anthropic": {DecodeAnthropicToolResult, func(id string) string {
			return `{"type":"tool_result"` + id + `,"content":` + content + `,"is_error":true}`
		}, "tool_use_id"},
		"openai": {DecodeOpenAIToolMessage, func(id string) string {
			return `{"role":"tool"` + id + `,"content":` + content + `}`
		}, "tool_call_id"},
	}
	for name, d := range decoders {
		for _, id := range []string{`,"` + d.key + `":"x_1"`, `,"` + d.key + `":""`} {
			if _, r, err := d.decode([]byte(d.block(id))); err != nil || r.Code() != CodeRateLimited {
				t.Errorf("%s: %s: %v, %v", name, d.block(id), r, err)
			}
		}
		for _, id := range []string{``, `,"` + d.key + `":null`, `,"` + d.key + `":5`} {
			got, r, err := d.decode([]byte(d.block(id)))
			if err == nil {
				t.Errorf("%s: %s decoded as an answer to %q: %v", name, d.block(id), got, r.Code())
			} else if !strings.Contains(err.Error(), d.key) {
				t.Errorf("%s: %s: the error does not name %s: %v", name, d.block(id), d.key, err)
			}
		}
	}
	if id, _, err := DecodeAnthropicToolResult(AnthropicToolResult("", &RateLimited{})); err != nil || id != "" {
		t.Errorf("AnthropicToolResult with an empty id read back as %q, %v", id, err)
	}
	if id, _, err := DecodeOpenAIToolMessage(OpenAIToolMessage("", &RateLimited{})); err != nil || id != "" {
		t.Errorf("OpenAIToolMessage with an empty id read back as %q, %v", id, err)
	}
}

// TestProblemCarriesTheWait: a problem document carries the wait in its
// body as well as in Retry-After, since a document is logged and relayed
// without its headers: retry_after_ms, snake_case as its other extension
// members and the payload's keys are, whole milliseconds rounded up (so
// that it never says to wait less), from the same RetryAfterOf the header
// is written from, which rounds it up to whole seconds. DecodeProblem
// reads it back as the decoded error's wait, exact to the millisecond,
// whichever error of the sender's chain had it, and a variant with a
// retry_after field carries it on in its wire form.
func TestProblemCarriesTheWait(t *testing.T) {
	limited := &RateLimited{Provider: "openai", RetryAfter: 1500 * time.Millisecond}
	for _, c := range []struct {
		name   string
		err    error
		member string
		header string
		wait   time.Duration
	}{
		{"the variant with the wait", limited, `"retry_after_ms":1500`, "2", 1500 * time.Millisecond},
		{"a wrapper of it", fmt.Errorf("turn: %w", &ModelCallFailed{Cause: limited}), `"retry_after_ms":1500`, "2", 1500 * time.Millisecond},
		{"a wait finer than a millisecond", &RateLimited{Provider: "openai", RetryAfter: 1500 * time.Microsecond}, `"retry_after_ms":2`, "1", 2 * time.Millisecond},
		{"the longest wait", &RateLimited{Provider: "openai", RetryAfter: math.MaxInt64}, `"retry_after_ms":9223372036855`, "9223372037", math.MaxInt64},
		{"no wait", &RateLimited{Provider: "openai"}, "", "", 0},
		{"outside the catalogue", errors.New("disk full"), "", "", 0},
	} {
		w := httptest.NewRecorder()
		WriteProblem(w, c.err, "")
		body := w.Body.String()
		if c.member != "" && !strings.Contains(body, `"retryable":true,`+c.member) || c.member == "" && strings.Contains(body, "retry_after_ms") {
			t.Errorf("%s: body %s, want %s after retryable", c.name, body, c.member)
		}
		if got := w.Header().Get("Retry-After"); got != c.header {
			t.Errorf("%s: Retry-After %q, want %q", c.name, got, c.header)
		}
		if c.member == "" && c.name == "outside the catalogue" {
			continue
		}
		r, err := DecodeProblem(w.Body.Bytes())
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if d, ok := RetryAfterOf(r); d != c.wait || ok != (c.wait > 0) {
			t.Errorf("%s: RetryAfterOf(decoded) = %v, %v; want %v", c.name, d, ok, c.wait)
		}
		if slices.ContainsFunc(r.Payload.Fields, func(f PayloadField) bool { return f.Name == "retry_after_ms" }) {
			t.Errorf("%s: the wait was decoded as a field: %s", c.name, r.Raw)
		}
		if again, _ := ProblemJSON(r, ""); c.member != "" && !strings.Contains(string(again), c.member) {
			t.Errorf("%s: relayed as %s, without %s", c.name, again, c.member)
		}
	}
	// Relayed as a wire form, a variant with a retry_after field carries
	// the wait on in it.
	p, _ := ProblemJSON(limited, "")
	r, err := DecodeProblem(p)
	if err != nil {
		t.Fatal(err)
	}
	relayed, err := DecodePayload(mustMarshal(t, r))
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := RetryAfterOf(relayed); !ok || d != 1500*time.Millisecond {
		t.Errorf("relayed as %s: RetryAfterOf %v, %v", mustMarshal(t, r), d, ok)
	}
	// A problem of a code this catalogue does not know keeps the wait too.
	r, err = DecodeProblem([]byte(`{"type":"https://x/new_thing","title":"New thing","status":503,"code":"new_thing","retryable":true,"retry_after_ms":2500}`))
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := RetryAfterOf(r); !ok || d != 2500*time.Millisecond {
		t.Errorf("a code this catalogue does not know: RetryAfterOf %v, %v", d, ok)
	}
	if p, _ := ProblemJSON(r, ""); strings.Count(string(p), "retry_after_ms") != 1 {
		t.Errorf("a code this catalogue does not know, relayed: %s", p)
	}
}

// TestProblemWaitIsStrict: retry_after_ms is a whole number of
// milliseconds, 0 (no wait) or more, read as strictly as the other
// members; anything else is refused rather than read as no wait.
func TestProblemWaitIsStrict(t *testing.T) {
	doc := func(wait string) []byte {
		return []byte(`{"type":"https://errors.example.com/standin/rate_limited","title":"Rate limited","status":429,"code":"rate_limited","retryable":true` + wait + `}`)
	}
	for wait, want := range map[string]time.Duration{``: 0, `,"retry_after_ms":0`: 0, `,"retry_after_ms":1`: time.Millisecond, `,"retry_after_ms":9223372036855`: math.MaxInt64} {
		r, err := DecodeProblem(doc(wait))
		if err != nil {
			t.Errorf("%s: %v", wait, err)
			continue
		}
		if d, ok := RetryAfterOf(r); d != want || ok != (want > 0) {
			t.Errorf("%s: RetryAfterOf %v, %v; want %v", wait, d, ok, want)
		}
	}
	for _, wait := range []string{`,"retry_after_ms":null`, `,"retry_after_ms":-1`, `,"retry_after_ms":1.5`, `,"retry_after_ms":"1500"`, `,"retry_after_ms":1e3`, `,"retry_after_ms":1,"retry_after_ms":2`} {
		if r, err := DecodeProblem(doc(wait)); err == nil {
			t.Errorf("%s: decoded as %s", wait, r.Raw)
		} else if !strings.Contains(err.Error(), "retry_after_ms") {
			t.Errorf("%s: the error does not name retry_after_ms: %v", wait, err)
		}
	}
}

// TestAgentResponseOfAnErrorOutsideTheCatalogue: the envelope of an error
// outside the catalogue names no code of the catalogue, which it has
// none of, but says so in its required error member, as ClassOf says it
// and the gRPC status's UNKNOWN does: "unknown", never an empty code. Its
// message is its text, as the other projections give it.
func TestAgentResponseOfAnErrorOutsideTheCatalogue(t *testing.T) {
	for _, err := range []error{errors.New("disk full"), fmt.Errorf("write: %w", errors.New("disk full"))} {
		var env struct {
			Success  *bool
			Error    string
			Message  string
			Metadata json.RawMessage
		}
		b := AgentResponse(err)
		if jerr := json.Unmarshal(b, &env); jerr != nil || env.Success == nil || *env.Success {
			t.Fatalf("%s: %v", b, jerr)
		}
		if env.Error != ClassUnknown.String() || env.Message != err.Error() || env.Metadata != nil {
			t.Errorf("agent response of %q: %s, want error %q, its text as the message, no metadata", err, b, ClassUnknown)
		}
		// Read back, it is no error of a catalogue, as a problem document
		// of about:blank and a gRPC status without ErrorInfo are not: not
		// a decoded error of the code unknown, terminal.
		if r, derr := DecodeAgentResponse(b); derr == nil {
			t.Errorf("agent response of %q decoded as %s: code %q, class %v", err, r.Raw, r.Code(), r.Class())
		}
	}
}

// TestProjectionsCarryOnlyTheirPayloadKeys: a shape carries of the
// payload's own keys only those its writer writes (a problem document's
// retryable and category); a member named as another (a problem's
// extension member, which RFC 9457 has a reader ignore when it does not
// know it, a metadata member) is neither a field nor the sender's word on
// the error: it is left out, so it neither makes the error retryable nor
// the document unreadable.
func TestProjectionsCarryOnlyTheirPayloadKeys(t *testing.T) {
	const problem = `{"type":"https://errors.example.com/standin/CODE","title":"T","status":429,"detail":"d","code":"CODE"`
	status := func(reason, metadata string) string {
		return `{"code":16,"message":"m","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"` + reason + `","domain":"standin.example.com","metadata":{"provider":"p"` + metadata + `}}]}`
	}
	for _, c := range []struct {
		name      string
		decode    func([]byte) (*RemoteError, error)
		data      string
		code      Code
		retryable bool
	}{
		{"agent_response", DecodeAgentResponse, `{"success":false,"error":"auth_failed","message":"m","metadata":{"provider":"p","retryable":true,"suppress_retry":true,"usage_hint":"u"}}`, CodeAuthFailed, false},
		{"agent_response", DecodeAgentResponse, `{"success":false,"error":"rate_limited","message":"m","metadata":{"provider":"p","retryable":"no","suggested_tool":5}}`, CodeRateLimited, true},
		{"grpc", DecodeGRPCStatusJSON, status("AUTH_FAILED", `,"retryable":"true","suppression_key":"k","usage_hint":"u"`), CodeAuthFailed, false},
		{"grpc", DecodeGRPCStatusJSON, status("RATE_LIMITED", `,"retryable":"false","suppress_retry":"true"`), CodeRateLimited, true},
		{"problem", DecodeProblem, strings.ReplaceAll(problem, "CODE", "rate_limited") + `,"retryable":true,"suppress_retry":"no","suggested_tool":5,"usage_hint":{},"suppression_key":["a"]}`, CodeRateLimited, true},
		{"problem", DecodeProblem, strings.ReplaceAll(problem, "CODE", "other_thing") + `,"retryable":false,"suppress_retry":"no","required_fields":7}`, "other_thing", false},
	} {
		r, err := c.decode([]byte(c.data))
		if err != nil {
			t.Errorf("%s %s: %v", c.name, c.data, err)
			continue
		}
		if r.Code() != c.code || r.Retryable() != c.retryable {
			t.Errorf("%s %s: %s, retryable %t; want %s, %t", c.name, c.data, r.Code(), r.Retryable(), c.code, c.retryable)
		}
		for _, key := range []string{"suppress_retry", "suppression_key", "suggested_tool", "usage_hint", "required_fields"} {
			if bytes.Contains(r.Raw, []byte(`"`+key+`"`)) {
				t.Errorf("%s %s: the decoded payload has %s: %s", c.name, c.data, key, r.Raw)
			}
		}
	}
}
