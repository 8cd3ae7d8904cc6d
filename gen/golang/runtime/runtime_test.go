package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// These tests hold the behaviour every generated package shares, on the
// stand-in catalogue (testdata/standin.yaml).

func TestClassFollowsRetryableFromCause(t *testing.T) {
	// ModelCallFailed has retryable: true and retryable_from_cause: true:
	// retryable when its cause is, and when its cause is not of the
	// catalogue; otherwise terminal.
	for _, tc := range []struct {
		name      string
		cause     ProviderError
		retryable bool
		class     Class
	}{
		{"retryable cause", &RateLimited{}, true, ClassRetryable},
		{"terminal cause", &AuthFailed{}, false, ClassTerminal},
		{"no cause", nil, true, ClassRetryable},
	} {
		e := &ModelCallFailed{Cause: tc.cause}
		if e.Retryable() != tc.retryable || e.Class() != tc.class {
			t.Errorf("%s: Retryable %v, Class %v; want %v, %v", tc.name, e.Retryable(), e.Class(), tc.retryable, tc.class)
		}
	}
	info, _ := Lookup(CodeModelCallFailed)
	if !info.Retryable || !info.RetryableFromCause || info.Class != ClassRetryable {
		t.Errorf("Info of model_call_failed: %+v", info)
	}
}

func TestNonFatalClass(t *testing.T) {
	if c := ClassOf(fmt.Errorf("x: %w", &MemoryUnavailable{})); c != ClassNonFatal {
		t.Errorf("ClassOf = %v", c)
	}
}

func TestClassNames(t *testing.T) {
	for c, want := range map[Class]string{ClassUnknown: "unknown", ClassTerminal: "terminal", ClassRetryable: "retryable", ClassNonFatal: "non_fatal", Class(99): "unknown", Class(-1): "unknown"} {
		if c.String() != want {
			t.Errorf("Class(%d).String() = %q, want %q", int(c), c.String(), want)
		}
	}
}

func TestRemoteErrorClassAndRetryability(t *testing.T) {
	for _, tc := range []struct {
		payload   string
		retryable bool
		class     Class
		typed     bool
	}{
		// A known code takes this catalogue's class when the sender says
		// it is not retryable.
		{`{"type":"tool_error","category":"timeout","code":"tool_timeout","code_num":1004,"error":"x","retryable":false,"suppress_retry":false}`, false, ClassTerminal, true},
		{`{"type":"tool_error","category":"timeout","code":"tool_timeout","code_num":1004,"error":"x","retryable":true,"suppress_retry":false,"tool":"t"}`, true, ClassRetryable, true},
		// An unknown code answers from the payload.
		{`{"type":"tool_error","category":"new","code":"from_the_future","code_num":1098,"error":"x","retryable":true,"suppress_retry":false}`, true, ClassRetryable, false},
		{`{"type":"tool_error","category":"new","code":"from_the_future","code_num":1098,"error":"x","retryable":false,"suppress_retry":false}`, false, ClassTerminal, false},
		// A known code with another number is not that variant.
		{`{"type":"tool_error","category":"timeout","code":"tool_timeout","code_num":9,"error":"x","retryable":false,"suppress_retry":false}`, false, ClassTerminal, false},
	} {
		r, err := DecodePayload([]byte(tc.payload))
		if err != nil {
			t.Fatalf("%s: %v", tc.payload, err)
		}
		if IsRetryable(r) != tc.retryable || ClassOf(r) != tc.class || (r.Unwrap() != nil) != tc.typed {
			t.Errorf("%s: IsRetryable %v, ClassOf %v, typed %v", tc.payload, IsRetryable(r), ClassOf(r), r.Unwrap() != nil)
		}
		if !bytes.Equal(r.Raw, []byte(tc.payload)) {
			t.Errorf("Raw = %s", r.Raw)
		}
	}
}

func TestDecodeRestoresPayloadFields(t *testing.T) {
	e := &ToolUnavailable{Tool: "browser", Reason: "down", Attempts: 3, Load: 0.5, Since: 2 * time.Second,
		Alternatives: []string{"a"}, Cached: true, Bytes: -1}
	r, err := DecodePayload(e.AppendLLMPayload(nil))
	if err != nil {
		t.Fatal(err)
	}
	got, ok := AsToolError(r)
	if !ok {
		t.Fatalf("AsToolError(%v) failed", r)
	}
	want := *e
	want.Reason = "" // not a payload field: it does not travel
	if g := *got.(*ToolUnavailable); fmt.Sprint(g) != fmt.Sprint(want) {
		t.Errorf("decoded %+v, want %+v", g, want)
	}
}

// DecodePayload must read a payload as every other JSON reader does: keys
// match exactly, and a key given twice is refused rather than read as its
// last value.
func TestDecodeIsStrict(t *testing.T) {
	const head = `"type":"tool_error","category":"timeout","code_num":1004,"error":"x","retryable":false,"suppress_retry":false`
	for _, bad := range []string{
		`{` + head + `,"code":"tool_timeout","code":"rate_limited"}`,
		`{` + head + `,"code":"tool_timeout","tool":"a","tool":"b"}`,
		`{` + head + `,"code":"tool_timeout"} {}`,
		`[1]`,
		`{` + head + `}`,
		`{` + head + `,"code":"tool_timeout","code_num":"1004"}`,
	} {
		if r, err := DecodePayload([]byte(bad)); err == nil {
			t.Errorf("DecodePayload(%s) = %+v, want an error", bad, r.Payload)
		}
	}
	// "Code" and "CODE" are not "code"; "ſ" does not fold to "s".
	for _, other := range []string{`"Code"`, `"CODE"`, `"code "`} {
		data := `{` + head + `,` + other + `:"rate_limited","code":"tool_timeout"}`
		r, err := DecodePayload([]byte(data))
		if err != nil || r.Code() != CodeToolTimeout {
			t.Errorf("DecodePayload(%s): code %v, %v", data, r, err)
		}
	}
	data := `{` + head + `,"code":"tool_timeout","tool":"a","ſuppress_retry":true}`
	if r, err := DecodePayload([]byte(data)); err != nil || r.Payload.SuppressRetry {
		t.Errorf("DecodePayload folded a key: %+v, %v", r, err)
	}
}

// A typed nil pointer in a cause field, or as the error itself, behaves as
// fmt's %v does (<nil>) and never panics; a chain that loops ends.
func TestTypedNil(t *testing.T) {
	var nilRL *RateLimited
	e := &ModelCallFailed{Cause: nilRL}
	if got := e.Error(); got != "model call failed: <nil>" {
		t.Errorf("Error() = %q", got)
	}
	if fmt.Sprintf("%v", e) != e.Error() {
		t.Errorf("%%v = %q", fmt.Sprintf("%v", e))
	}
	if e.Retryable() != true || e.Class() != ClassRetryable {
		// No catalogue cause: the variant's own retryable, true.
		t.Errorf("Retryable %v, Class %v", e.Retryable(), e.Class())
	}
	if CodeOf(e) != CodeModelCallFailed {
		t.Errorf("CodeOf = %q", CodeOf(e))
	}
	if _, ok := RetryAfterOf(e); ok {
		t.Error("RetryAfterOf found a retry-after in a nil cause")
	}
	_ = e.LogValue().String()
	var nilMC *ModelCallFailed
	if nilMC.Error() != "<nil>" || nilMC.UserMessage() == "" {
		t.Errorf("nil receiver: %q %q", nilMC.Error(), nilMC.UserMessage())
	}
	_ = nilMC.LogValue()
	var nilTool *ToolUnavailable
	if data := nilTool.AppendLLMPayload(nil); !json.Valid(data) {
		t.Errorf("payload of a nil variant: %s", data)
	}
	if p, err := json.Marshal(nilTool.LLMPayload()); err != nil || !json.Valid(p) {
		t.Errorf("LLMPayload of a nil variant: %s, %v", p, err)
	}
	if CodeOf(fmt.Errorf("w: %w", error(nilRL))) != "" {
		t.Error("a nil pointer in a chain was taken for an error of the catalogue")
	}
}

// loop is an error whose chain comes back to itself.
type loop struct{ next error }

func (l *loop) Error() string { return "loop" }
func (l *loop) Unwrap() error { return l.next }

func TestChainThatLoopsEnds(t *testing.T) {
	l := &loop{}
	l.next = l
	if CodeOf(l) != "" || IsRetryable(l) || ClassOf(l) != ClassUnknown {
		t.Error("a loop classified")
	}
	if _, ok := RetryAfterOf(l); ok {
		t.Error("RetryAfterOf in a loop")
	}
	if _, ok := AsToolError(l); ok {
		t.Error("AsToolError in a loop")
	}
	j := errors.Join(l, &ToolTimeout{})
	if CodeOf(j) != CodeToolTimeout {
		t.Errorf("CodeOf(join of a loop and a tool timeout) = %q", CodeOf(j))
	}
}

func TestRetryAfterThroughWrappers(t *testing.T) {
	err := fmt.Errorf("turn: %w", &ModelCallFailed{Cause: &RateLimited{Provider: "p", RetryAfter: 3 * time.Second}})
	if d, ok := RetryAfterOf(err); !ok || d != 3*time.Second {
		t.Errorf("RetryAfterOf = %v, %v", d, ok)
	}
	if _, ok := RetryAfterOf(&ToolTimeout{}); ok {
		t.Error("RetryAfterOf of a variant without retry_after")
	}
}

func TestLookups(t *testing.T) {
	if info, ok := Lookup(CodeRateLimited); !ok || info.Num != 2001 || info.Category != CategoryRateLimit {
		t.Errorf("Lookup = %+v, %v", info, ok)
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup(nope)")
	}
	if info, ok := LookupNum(1003); !ok || info.Code != CodeToolUnavailable {
		t.Errorf("LookupNum = %+v", info)
	}
	if _, ok := LookupNum(1); ok {
		t.Error("LookupNum(1)")
	}
	if info, ok := LookupHTTPStatus(429); !ok || info.Code != CodeRateLimited {
		t.Errorf("LookupHTTPStatus(429) = %+v", info)
	}
	all := All()
	all[0].Code = "changed"
	if All()[0].Code == "changed" {
		t.Error("All returned the table itself")
	}
}

func TestLogValue(t *testing.T) {
	var b bytes.Buffer
	log := slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	log.Info("failed", "err", &ToolTimeout{Tool: "t", Seconds: 3})
	want := "level=INFO msg=failed err.code=tool_timeout err.num=1004 err.category=timeout err.tool=t err.seconds=3\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}

func TestTemplates(t *testing.T) {
	e := &ToolUnavailable{Tool: "browser", Reason: "r"}
	if got := e.Error(); got != "Tool browser unavailable: r <{not a field}>" {
		t.Errorf("Error() = %q", got)
	}
	if got := e.SuppressionKey(); got != "browser:tool_unavailable" {
		t.Errorf("SuppressionKey() = %q", got)
	}
	if got := e.UserMessage(); got != "A tool did not work (tool_unavailable)." {
		t.Errorf("UserMessage() = %q", got)
	}
	m := &MemoryUnavailable{Err: errors.New("locked")}
	if got := m.Error(); got != "memory unavailable: locked" || !strings.Contains(m.UserMessage(), "locked") {
		t.Errorf("Error() = %q, UserMessage() = %q", got, m.UserMessage())
	}
}

// panicky is an error whose Error method panics on a nil receiver, as a
// careless foreign error type might.
type panicky struct{ s string }

func (p *panicky) Error() string { return p.s }

func TestForeignNilCause(t *testing.T) {
	var p *panicky
	m := &MemoryUnavailable{Err: p}
	if got := m.Error(); got != "memory unavailable: <nil>" || got != fmt.Sprintf("memory unavailable: %v", error(p)) {
		t.Errorf("Error() = %q", got)
	}
}
