package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/errgen/errgen/gen/model"
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

func TestClassText(t *testing.T) {
	for c, want := range map[Class]string{ClassUnknown: "unknown", ClassTerminal: "terminal", ClassRetryable: "retryable", ClassNonFatal: "non_fatal", Class(99): "Class(99)", Class(-1): "Class(-1)"} {
		if c.String() != want {
			t.Errorf("Class(%d).String() = %q, want %q", int(c), c.String(), want)
		}
	}
	// A value that is no class has no name to write: one would read back
	// as another class.
	if data, err := json.Marshal(Class(99)); err == nil {
		t.Errorf("json.Marshal(Class(99)) = %s, want an error", data)
	}
	if err := SetClassPolicy(ClassPolicy{CodeCapabilityDenied: Class(9)}); err == nil || !strings.Contains(err.Error(), "Class(9)") {
		t.Errorf("SetClassPolicy with Class(9): %v", err)
	}
	data, err := json.Marshal(map[string]Class{"class": ClassRetryable})
	if err != nil || string(data) != `{"class":"retryable"}` {
		t.Errorf("json.Marshal of a class: %s, %v", data, err)
	}
	var back map[string]Class
	if err := json.Unmarshal(data, &back); err != nil || back["class"] != ClassRetryable {
		t.Errorf("json.Unmarshal of a class: %v, %v", back, err)
	}
	var c Class
	if err := c.UnmarshalText([]byte("sometimes")); err == nil {
		t.Error("UnmarshalText accepted an unknown class")
	}
}

func TestInfoJSON(t *testing.T) {
	info, _ := Lookup(CodeRateLimited)
	data, err := json.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"code":"rate_limited"`, `"num":2001`, `"class":"retryable"`, `"retryable_from_cause":false`, `"suppress_retry":false`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("Info as JSON lacks %s: %s", want, data)
		}
	}
}

// User text never leaks technical text: the variant's user message, its
// family's, its cause's, the catalogue's, errgen's neutral sentence.
func TestUserMessageFallsBackWithoutTechnicalText(t *testing.T) {
	limited := &RateLimited{Provider: "p", RetryAfter: time.Second}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"its own", limited, "The service is busy. Try again in a moment."},
		{"its family's", &ToolTimeout{Tool: "t"}, "A tool did not work (tool_timeout)."},
		{"its cause's", &ModelCallFailed{Cause: limited}, "The service is busy. Try again in a moment."},
		{"the cause's, through a wrap", fmt.Errorf("turn: %w", &ModelCallFailed{Cause: limited}), "The service is busy. Try again in a moment."},
		{"no cause: the built-in sentence", &ModelCallFailed{}, "Something went wrong (model_call_failed)."},
		{"a foreign cause: the built-in sentence", &MemoryUnavailable{Err: errors.New("SQLITE_BUSY at /home/me/db")}, "Something went wrong (memory_unavailable)."},
	} {
		if got := UserMessageOf(tc.err); got != tc.want {
			t.Errorf("%s: UserMessageOf = %q, want %q", tc.name, got, tc.want)
		}
	}
	// A decoded cause answers too.
	r, err := DecodePayload(mustMarshal(t, limited))
	if err != nil {
		t.Fatal(err)
	}
	if got := (&ModelCallFailed{Cause: r.Unwrap().(ProviderError)}).UserMessage(); got != "The service is busy. Try again in a moment." {
		t.Errorf("a decoded cause's user message: %q", got)
	}
	unknown, err := DecodePayload([]byte(`{"code":"from_the_future","code_num":9999,"category":"new","error":"x","retryable":false,"suppress_retry":false}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := unknown.UserMessage(); got != "Something went wrong (from_the_future)." {
		t.Errorf("an unknown decoded code's user message: %q", got)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// asOther is an error whose As method turns it into a catalogue error, as
// errors.As allows: the chain walk honours it as As<Family> does.
type asOther struct{ target Error }

func (a asOther) Error() string { return "as-other" }
func (a asOther) As(target any) bool {
	switch p := target.(type) {
	case *Error:
		*p = a.target
		return true
	case *ProviderError:
		pe, ok := a.target.(ProviderError)
		*p = pe
		return ok
	}
	return false
}

func TestChainRootAndAs(t *testing.T) {
	inner := &RateLimited{Provider: "p"}
	err := fmt.Errorf("turn: %w", &ModelCallFailed{Cause: inner})
	if CodeOf(err) != CodeModelCallFailed || RootCodeOf(err) != CodeRateLimited {
		t.Errorf("CodeOf %q, RootCodeOf %q", CodeOf(err), RootCodeOf(err))
	}
	var codes []Code
	for e := range Chain(err) {
		codes = append(codes, e.Code())
	}
	if !slices.Equal(codes, []Code{CodeModelCallFailed, CodeRateLimited}) {
		t.Errorf("Chain = %v", codes)
	}
	for e := range Chain(err) {
		if e.Code() == CodeRateLimited {
			t.Error("Chain went on after the loop broke")
		}
		break
	}
	if !HasCode(err, CodeRateLimited) || HasCode(err, CodeToolTimeout) || HasCode(nil, CodeRateLimited) {
		t.Error("HasCode")
	}
	joined := errors.Join(&ToolTimeout{}, err)
	if RootCodeOf(joined) != CodeRateLimited || CodeOf(joined) != CodeToolTimeout {
		t.Errorf("joined: CodeOf %q, RootCodeOf %q", CodeOf(joined), RootCodeOf(joined))
	}
	// An As method: CodeOf and AsProviderError agree.
	a := fmt.Errorf("w: %w", asOther{inner})
	if CodeOf(a) != CodeRateLimited {
		t.Errorf("CodeOf ignores As: %q", CodeOf(a))
	}
	if pe, ok := AsProviderError(a); !ok || pe.Code() != CodeRateLimited {
		t.Errorf("AsProviderError = %v, %v", pe, ok)
	}
	// Walking the chain allocates nothing.
	allocs := testing.AllocsPerRun(100, func() {
		for e := range Chain(err) {
			_ = e
		}
		_ = RootCodeOf(err)
		_ = HasCode(err, CodeRateLimited)
		_, _ = AsProviderError(err)
	})
	if allocs != 0 {
		t.Errorf("walking the chain allocates %v times", allocs)
	}
}

// TestAsFamilyAgreesWithErrorsAs: an As<Family> helper finds what
// errors.As finds, through wraps, joins and As methods, first match first.
func TestAsFamilyAgreesWithErrorsAs(t *testing.T) {
	limited := &RateLimited{Provider: "p"}
	busy := &ProviderBusy{}
	cases := map[string]error{
		"nil":              nil,
		"a variant":        limited,
		"wrapped":          fmt.Errorf("w: %w", fmt.Errorf("v: %w", limited)),
		"another family":   &ToolTimeout{},
		"a plain error":    errors.New("x"),
		"joined, in order": errors.Join(errors.New("x"), busy, limited),
		"as method":        fmt.Errorf("w: %w", asOther{limited}),
		"as method, no":    asOther{&ToolTimeout{}},
		"a cause":          &ModelCallFailed{Cause: limited},
	}
	for name, err := range cases {
		got, ok := AsProviderError(err)
		var want ProviderError
		wantOK := errors.As(err, &want)
		if ok != wantOK || got != want {
			t.Errorf("%s: AsProviderError = %v, %v; errors.As = %v, %v", name, got, ok, want, wantOK)
		}
	}
	// One difference, by design: a nil variant is no error (hardening.md),
	// where errors.As would find it.
	if _, ok := AsProviderError(fmt.Errorf("w: %w", (*RateLimited)(nil))); ok {
		t.Error("AsProviderError found a nil variant")
	}
}

func TestErrorsIsByCode(t *testing.T) {
	err := fmt.Errorf("w: %w", &ToolTimeout{Tool: "a", Seconds: 3})
	if !errors.Is(err, &ToolTimeout{}) || errors.Is(err, &ToolUnavailable{}) {
		t.Error("errors.Is does not match variants by code")
	}
	var nilTarget *ToolTimeout
	if !errors.Is(err, nilTarget) {
		t.Error("errors.Is with a nil *ToolTimeout target")
	}
	remote, _ := DecodePayload([]byte(`{"code":"from_the_future","code_num":9999,"category":"new","error":"x","retryable":false,"suppress_retry":false}`))
	other, _ := DecodePayload([]byte(`{"code":"from_the_future","code_num":9999,"category":"new","error":"y","retryable":true,"suppress_retry":false}`))
	if !errors.Is(remote, other) || errors.Is(remote, &ToolTimeout{}) {
		t.Error("errors.Is of decoded errors of an unknown code")
	}
}

func TestLLMPayloadIsASnapshot(t *testing.T) {
	e := &ToolTimeout{Tool: "terminal", Seconds: 3}
	p := e.LLMPayload()
	before := string(mustMarshal(t, p))
	e.Tool, e.Seconds = "browser", 9
	if after := string(mustMarshal(t, p)); after != before {
		t.Errorf("the payload changed with the error:\n%s\n%s", before, after)
	}
}

func TestPayloadUnmarshal(t *testing.T) {
	e := &ToolUnavailable{Tool: "b", Attempts: 2, Since: 1500 * time.Millisecond, Alternatives: []string{"x"}}
	p := e.LLMPayload()
	p.RequiredFields = []string{"path"}
	data := mustMarshal(t, p)
	var back Payload
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back.CodeNum != 1003 || !back.SuppressRetry || string(mustMarshal(t, back)) != string(data) {
		t.Errorf("round trip: %+v\n%s\n%s", back, data, mustMarshal(t, back))
	}
	if !strings.Contains(string(data), `"since":1500`) {
		t.Errorf("a duration field in ms (the default unit): %s", data)
	}
	if err := json.Unmarshal([]byte(`{"code":"a","code":"b"}`), &back); err == nil {
		t.Error("json.Unmarshal of a payload with a key twice")
	}
	// null leaves a payload as it was, as encoding/json does for any value.
	var in struct{ P Payload }
	in.P.Code = "kept"
	if err := json.Unmarshal([]byte(`{"P":null}`), &in); err != nil || in.P.Code != "kept" {
		t.Errorf("json.Unmarshal of null into a payload: %v, %+v", err, in.P)
	}
}

// TestPayloadUnmarshalIsBounded: json.Unmarshal into a Payload reads a
// payload as DecodePayload does, so it refuses what DecodePayload refuses
// for its size, before splitting it: a payload of many small objects costs
// its reader about a hundred times its size.
func TestPayloadUnmarshalIsBounded(t *testing.T) {
	big := []byte(`{"code":"from_the_future","pad":[` + strings.Repeat(`{},`, maxPayload/3) + `{}]}`)
	if _, err := DecodePayload(big); err == nil {
		t.Fatalf("DecodePayload read %d bytes", len(big))
	}
	var p Payload
	if err := json.Unmarshal(big, &p); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("at most %d are decoded", maxPayload)) {
		t.Errorf("json.Unmarshal into a Payload of %d bytes: %v; want the bound's error", len(big), err)
	}
	if err := p.UnmarshalJSON(big); err == nil {
		t.Errorf("UnmarshalJSON of %d bytes: no error", len(big))
	}
}

func TestWireFormCarriesCauses(t *testing.T) {
	e := &ModelCallFailed{Cause: &RateLimited{Provider: "openai", RetryAfter: 2 * time.Second}}
	data := mustMarshal(t, e)
	want := `{"category":"model","code":"model_call_failed","code_num":3001,"error":"model call failed: provider openai rate limited the request","retryable":true,"suppress_retry":false,` +
		`"cause":{"category":"rate_limit","code":"rate_limited","code_num":2001,"error":"provider openai rate limited the request","retryable":true,"suppress_retry":false,"provider":"openai","retry_after":2000}}`
	if string(data) != want {
		t.Errorf("wire form\n got %s\nwant %s", data, want)
	}
	r, err := DecodePayload(data)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := r.Unwrap().(*ModelCallFailed)
	if !ok {
		t.Fatalf("decoded %T", r.Unwrap())
	}
	cause, ok := got.Cause.(*RateLimited)
	if !ok || cause.Provider != "openai" || cause.RetryAfter != 2*time.Second {
		t.Errorf("decoded cause %#v", got.Cause)
	}
	if d, ok := RetryAfterOf(r); !ok || d != 2*time.Second {
		t.Errorf("RetryAfterOf(decoded) = %v, %v", d, ok)
	}
	// A decoded error stands as the cause of a local one.
	local := &ModelCallFailed{Cause: cause}
	if !IsRetryable(local) || RootCodeOf(local) != CodeRateLimited {
		t.Error("a decoded cause in a local error")
	}
	// A foreign cause travels as its text.
	m := mustMarshal(t, &MemoryUnavailable{Err: errors.New("locked")})
	if !strings.HasSuffix(string(m), `"err":{"error":"locked"}}`) {
		t.Errorf("a foreign cause: %s", m)
	}
	back, err := DecodePayload(m)
	if err != nil || back.Unwrap().(*MemoryUnavailable).Err.Error() != "locked" {
		t.Errorf("decoded foreign cause: %v, %v", back, err)
	}
	// Every family crosses: a non-payload family has no type.
	if strings.Contains(string(mustMarshal(t, &AuthFailed{})), `"type"`) {
		t.Error("a family without a payload type has a type on the wire")
	}
}

func TestDecodeValidates(t *testing.T) {
	for _, tc := range []struct{ data, want string }{
		{`{"type":"tool_error","category":"timeout","code":"tool_timeout","code_num":9,"error":"x","retryable":false,"suppress_retry":false}`, "code_num 9"},
		{`{"type":"other_error","category":"timeout","code":"tool_timeout","code_num":1004,"error":"x","retryable":false,"suppress_retry":false}`, `type "other_error"`},
		{`{"category":"timeout","code":"tool_timeout","code_num":1004,"error":"x","retryable":false,"suppress_retry":false}`, `type ""`},
		{`{"type":"tool_error","category":"rate_limit","code":"rate_limited","code_num":2001,"error":"x","retryable":true,"suppress_retry":false}`, `type "tool_error"`},
		{`{"category":"model","code":"model_call_failed","code_num":3001,"error":"x","retryable":true,"suppress_retry":false,"cause":{"category":"timeout","code":"tool_timeout","code_num":1004,"type":"tool_error","error":"x","retryable":true,"suppress_retry":false}}`, "not a runtime.ProviderError"},
		// A cause that is neither an error of a catalogue nor a text says so.
		{`{"category":"timeout","code":"provider_timeout","code_num":2004,"error":"x","retryable":true,"suppress_retry":false,"cause":{}}`, `payload key "cause": neither "code" nor "error"`},
		{`{"category":"timeout","code":"provider_timeout","code_num":2004,"error":"x","retryable":true,"suppress_retry":false,"cause":{"message":"x"}}`, `payload key "cause": neither "code" nor "error"`},
		{`{"category":"timeout","code":"provider_timeout","code_num":2004,"error":"x","retryable":true,"suppress_retry":false,"cause":{"error":5}}`, `payload key "cause": "error":`},
	} {
		if _, err := DecodePayload([]byte(tc.data)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("DecodePayload(%s) = %v, want an error about %s", tc.data, err, tc.want)
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
	want.Reason = "" // not a payload field: it does not travel in the payload
	if g := *got.(*ToolUnavailable); fmt.Sprint(g) != fmt.Sprint(want) {
		t.Errorf("decoded %+v, want %+v", g, want)
	}
	// The wire form carries every field.
	r, err = DecodePayload(mustMarshal(t, e))
	if err != nil {
		t.Fatal(err)
	}
	if g := *r.Unwrap().(*ToolUnavailable); fmt.Sprint(g) != fmt.Sprint(*e) {
		t.Errorf("decoded from the wire %+v, want %+v", g, *e)
	}
}

// A decoded error whose sender did not send its retry-after has none.
func TestRetryAfterOfDecodedWithoutIt(t *testing.T) {
	r, err := DecodePayload([]byte(`{"category":"rate_limit","code":"rate_limited","code_num":2001,"error":"x","retryable":true,"suppress_retry":false}`))
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := RetryAfterOf(r); ok {
		t.Errorf("RetryAfterOf = %v, true; the sender sent none", d)
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
		// The empty key is a key like any other.
		`{` + head + `,"code":"tool_timeout","":1,"":2}`,
		`{` + head + `,"code":"zzz_new","":1,"":2}`,
		`{` + head + `,"code":"tool_timeout"} {}`,
		`[1]`,
		`{` + head + `}`,
		`{` + head + `,"code":"tool_timeout","code_num":"1004"}`,
	} {
		if r, err := DecodePayload([]byte(bad)); err == nil {
			t.Errorf("DecodePayload(%s) = %+v, want an error", bad, r.Payload)
		}
	}
	// Nor in a cause, of a code this catalogue does not know.
	wire := strings.Replace(string(mustMarshal(t, &ProviderTimeout{Cause: &RateLimited{}})), `"code":"rate_limited"`, `"code":"zzz_new","":1,"":2`, 1)
	if !strings.Contains(wire, `"cause":{`) {
		t.Fatalf("no cause object in %s", wire)
	}
	if r, err := DecodePayload([]byte(wire)); err == nil {
		t.Errorf("DecodePayload(%s) = %+v, want an error", wire, r.Payload)
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

// hostileNesting returns payloads that nest levels errors each, in the
// shapes that made decoding exponential in the nesting when every object
// was decoded anew wherever it was asked for: a wrapper whose decode fails
// after its cause decoded (its cause refused, a later field of the wrong
// type) inside a member no field declares, which was then looked into
// again, and so decoded everything below it twice.
func hostileNesting(levels int) map[string]string {
	nest := func(wrap func(string) string) string {
		s := `{"code":"from_the_future"}`
		for range levels {
			s = wrap(s)
		}
		return s
	}
	return map[string]string{
		"a cause of a code this catalogue does not know": nest(func(s string) string {
			return `{"code":"from_the_future","a":{"code":"model_call_failed","code_num":3001,"cause":` + s + `}}`
		}),
		"a field of the wrong type after the cause": nest(func(s string) string {
			return `{"code":"from_the_future","a":{"code":"model_call_failed","code_num":3001,"cause":{"code":"rate_limited","code_num":2001,"a":` + s + `},"provider":5}}`
		}),
		"a cause of another family": nest(func(s string) string {
			return `{"code":"from_the_future","a":{"code":"model_call_failed","code_num":3001,"cause":{"code":"tool_timeout","code_num":1004,"type":"tool_error","a":` + s + `}}}`
		}),
		"in lists": nest(func(s string) string {
			return `{"code":"from_the_future","a":[{"code":"model_call_failed","code_num":3001,"cause":{"code":"tool_timeout","code_num":1004,"type":"tool_error","a":[` + s + `]}}]}`
		}),
	}
}

// TestDecodeIsLinear: each object of a payload is decoded at most once,
// however it is reached, so decoding is linear in the payload rather than
// exponential in its nesting: 20 levels of the shapes of hostileNesting
// decoded about 2^20 objects, 40 levels would decode about 2^40. The depth
// limit still holds, and the projection decoders, which decode through
// the same decoder, read such a payload too.
func TestDecodeIsLinear(t *testing.T) {
	for _, levels := range []int{20, 40} {
		for name, data := range hostileNesting(levels) {
			var d decoder
			r, err := d.decode([]byte(data))
			if err != nil {
				t.Fatalf("%s, %d levels: %v", name, levels, err)
			}
			if objects := strings.Count(data, "{"); d.objects > objects {
				t.Fatalf("%s, %d levels: %d objects decoded, but the payload has %d", name, levels, d.objects, objects)
			}
			if !bytes.Equal(r.Raw, []byte(data)) {
				t.Errorf("%s, %d levels: Raw is not the payload as it came", name, levels)
			}
		}
	}
	data := hostileNesting(40)["a cause of another family"]
	if r, err := DecodeMCPResult(append(append([]byte(`{"content":[{"type":"text","text":`), appendString(nil, data)...), `}],"isError":true}`...)); err != nil || r.Code() != "from_the_future" {
		t.Errorf("DecodeMCPResult: %v, %v", r, err)
	}
	if r, err := DecodeAgentResponse([]byte(`{"success":false,"error":"from_the_future","message":"m","metadata":{"a":` + data + `}}`)); err != nil || r.Code() != "from_the_future" {
		t.Errorf("DecodeAgentResponse: %v, %v", r, err)
	}
	// Causes nested past maxChain are still refused.
	deep := `{"code":"rate_limited","code_num":2001}`
	for range maxChain {
		deep = `{"code":"model_call_failed","code_num":3001,"cause":{"code":"provider_failed","code_num":2099,"cause":` + deep + `}}`
	}
	if _, err := DecodePayload([]byte(deep)); err == nil || !strings.Contains(err.Error(), "nested too deep") {
		t.Errorf("causes nested %d deep: %v, want an error", 2*maxChain, err)
	}
}

// TestUnknownCauseOfAFamily: a newer sender adds a variant to a family,
// and an older client decodes a wrapper whose cause, typed with that
// family, has the new code. The wrapper decodes with its code, fields,
// message, retryability and user message; its field stays nil (no error
// of the family stands for the code), and the cause is held by the decoded
// error instead: Chain, RootCodeOf and HasCode reach it as a *RemoteError
// after the wrapper, and its log, wire form, relays and projections carry
// it. A shape that does not carry the wrapper's retryability (the agent
// envelope) takes the cause's, as a cause in the field decides for a
// wrapper retryable exactly when its cause is. A cause whose code this
// catalogue knows but in another family is still refused.
func TestUnknownCauseOfAFamily(t *testing.T) {
	const cause = `{"category":"server","code":"provider_from_the_future","code_num":2050,"error":"overloaded","retryable":false,"suppress_retry":false,"note":"n"}`
	const wrapper = `{"category":"model","code":"model_call_failed","code_num":3001,"error":"model call failed: overloaded","retryable":false,"suppress_retry":false,"cause":` + cause + `,"provider":"openai"}`
	r, err := DecodePayload([]byte(wrapper))
	if err != nil {
		t.Fatal(err)
	}
	check := func(how string, r *RemoteError, retryable bool, cause string) {
		t.Helper()
		if r.Code() != CodeModelCallFailed || r.Error() != "model call failed: overloaded" || IsRetryable(r) != retryable ||
			r.UserMessage() != "Something went wrong (model_call_failed)." {
			t.Errorf("%s: code %q, message %q, retryable %v, user message %q", how, r.Code(), r.Error(), IsRetryable(r), r.UserMessage())
		}
		var mcf *ModelCallFailed
		if !errors.As(r, &mcf) || mcf.Cause != nil || mcf.Provider != "openai" {
			t.Errorf("%s: the variant is %#v", how, mcf)
		}
		var codes []Code
		var held *RemoteError
		for e := range Chain(fmt.Errorf("turn: %w", r)) {
			codes = append(codes, e.Code())
			if e, ok := e.(*RemoteError); ok && e != r {
				held = e
			}
		}
		if !slices.Equal(codes, []Code{CodeModelCallFailed, "provider_from_the_future"}) || RootCodeOf(r) != "provider_from_the_future" || !HasCode(r, "provider_from_the_future") {
			t.Errorf("%s: Chain %v, RootCodeOf %q", how, codes, RootCodeOf(r))
		}
		if held == nil || held.Retryable() != retryable || held.Error() != "overloaded" || string(held.Raw) != cause {
			t.Errorf("%s: the held cause %#v", how, held)
		}
		if log := logLine(LogAttr(r)); !strings.Contains(log, "error.cause.code=provider_from_the_future") {
			t.Errorf("%s: the log lacks the cause: %s", how, log)
		}
	}
	check("decoded", r, false, cause)
	if got := mustMarshal(t, r); string(got) != wrapper {
		t.Errorf("wire form %s, want it as it came", got)
	}
	relayed, err := DecodePayload(mustMarshal(t, &ProviderTimeout{Cause: r}))
	if err != nil || !HasCode(relayed, "provider_from_the_future") {
		t.Errorf("relayed in a wrapper: %v, %v", relayed, err)
	}
	for _, p := range projectAll(r) {
		if p.decode == nil || p.name == "problem" || p.name == "grpc" {
			continue // the shapes that carry no cause
		}
		back, err := p.decode(p.data)
		if err != nil {
			t.Errorf("%s: %v", p.name, err)
			continue
		}
		check(p.name, back, false, cause)
	}
	// The sender said retryable, as its cause is: the decoded error is too.
	const retryableCause = `{"category":"server","code":"provider_from_the_future","code_num":2050,"error":"overloaded","retryable":true}`
	if r, err := DecodePayload([]byte(`{"category":"model","code":"model_call_failed","code_num":3001,"error":"model call failed: overloaded","retryable":true,"cause":` + retryableCause + `,"provider":"openai"}`)); err != nil {
		t.Error(err)
	} else {
		check("retryable", r, true, retryableCause)
	}
	// A cause of a code this catalogue knows, of another family, breaks
	// the contract the two services share: an error, as before.
	for _, bad := range []string{
		`{"code":"tool_timeout","code_num":1004,"type":"tool_error","error":"x","retryable":true}`,
		`{"code":"memory_unavailable","code_num":3002,"error":"x","retryable":false}`,
	} {
		if r, err := DecodePayload([]byte(`{"code":"model_call_failed","code_num":3001,"error":"x","retryable":true,"cause":` + bad + `}`)); err == nil || !strings.Contains(err.Error(), "is not a runtime.ProviderError") {
			t.Errorf("a cause of another family, %s: %v, %v", bad, r, err)
		}
	}
}

// TestHeldCauseInTheMiddle: a wrapper that holds a newer sender's cause
// outside its field (see RemoteError.held) may itself be the cause of
// another error. Wherever the chain is written anew from its variants (a
// projection, the log), the wrapper says what it said when it came: its
// message with the held cause's text, and its retryability from that
// cause, as the sender's wrapper answered with the cause in its field.
func TestHeldCauseInTheMiddle(t *testing.T) {
	const cause = `{"category":"server","code":"provider_from_the_future","code_num":2050,"error":"overloaded","retryable":false,"suppress_retry":false}`
	const wrapper = `{"category":"model","code":"model_call_failed","code_num":3001,"error":"model call failed: overloaded","retryable":false,"suppress_retry":false,"cause":` + cause + `}`
	const top = `{"category":"infrastructure","code":"memory_unavailable","code_num":3002,"error":"memory unavailable: model call failed: overloaded","retryable":false,"suppress_retry":false,"err":` + wrapper + `}`
	r, err := DecodePayload([]byte(top))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range projectAll(r) {
		// Every error of this chain said it is not retryable.
		if data := strings.ReplaceAll(string(p.data), `\"`, `"`); strings.Contains(data, `\u003cnil\u003e`) || strings.Contains(data, `"retryable":true`) {
			t.Errorf("%s rewrites the wrapper: %s", p.name, p.data)
		}
	}
	if log := logLine(LogAttr(r)); !strings.Contains(log, "error.err.error=\"model call failed: overloaded\"") || !strings.Contains(log, "error.err.retryable=false") ||
		!strings.Contains(log, "error.err.class=terminal") {
		t.Errorf("the log rewrites the wrapper: %s", log)
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
	if CodeOf(e) != CodeModelCallFailed || RootCodeOf(e) != CodeModelCallFailed {
		t.Errorf("CodeOf = %q, RootCodeOf = %q", CodeOf(e), RootCodeOf(e))
	}
	if _, ok := RetryAfterOf(e); ok {
		t.Error("RetryAfterOf found a retry-after in a nil cause")
	}
	_ = e.LogValue().String()
	if data, err := json.Marshal(e); err != nil || strings.Contains(string(data), "cause") {
		t.Errorf("wire form of a nil cause: %s, %v", data, err)
	}
	var nilMC *ModelCallFailed
	if nilMC.Error() != "<nil>" || nilMC.UserMessage() == "" {
		t.Errorf("nil receiver: %q %q", nilMC.Error(), nilMC.UserMessage())
	}
	// A nil variant's user message is what end users would read of a zero
	// one, whether it is a constant, the cause's, or a template ({code}
	// of a variant with sub-codes): never <nil>.
	var nilCD *CapabilityDenied
	var nilTN *ToolNotFound
	for _, c := range []struct{ got, want string }{
		{nilCD.UserMessage(), "A tool did not work (capability_denied)."},
		{nilTN.UserMessage(), "A tool did not work (tool_not_found)."},
		{nilMC.UserMessage(), "Something went wrong (model_call_failed)."},
		{UserMessageOf(&ModelCallFailed{Cause: (*RateLimited)(nil)}), "Something went wrong (model_call_failed)."},
	} {
		if c.got != c.want {
			t.Errorf("user message of a nil variant = %q, want %q", c.got, c.want)
		}
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

// TestNilVariantWithASecret: a variant with a sensitive field has
// MarshalJSON and Format on its value, so that a struct value hides the
// secret too. Through a nil pointer, json.Marshal writes null and fmt
// prints <nil>, since both check for a nil pointer before they call the
// method, and as a cause it is no cause; only calling either method
// directly on the nil pointer panics, as Go's call of any value method
// through a nil pointer does (hardening.md says so). This test keeps that
// description true.
func TestNilVariantWithASecret(t *testing.T) {
	var nilAF *AuthFailed
	if data, err := json.Marshal(nilAF); err != nil || string(data) != "null" {
		t.Errorf("json.Marshal of a nil variant with a secret = %s, %v; want null", data, err)
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
		if got := fmt.Sprintf(verb, nilAF); got != "<nil>" {
			t.Errorf("fmt %s of a nil variant with a secret = %q, want <nil>", verb, got)
		}
	}
	if data, err := json.Marshal(&ModelCallFailed{Cause: nilAF}); err != nil || strings.Contains(string(data), "cause") {
		t.Errorf("wire form of a nil cause with a secret: %s, %v", data, err)
	}
	panics := func(f func()) (p bool) {
		defer func() { p = recover() != nil }()
		f()
		return false
	}
	if !panics(func() { nilAF.MarshalJSON() }) {
		t.Error("nilAF.MarshalJSON() no longer panics: the exception hardening.md describes is gone, say so there")
	}
}

// A nil *RemoteError, like a nil variant, answers every method without a
// panic, so errors.Is and the chain walks over an error that holds one
// (a function that returned a typed nil) never panic either.
func TestNilRemoteError(t *testing.T) {
	var r *RemoteError
	var err error = r
	if r.Error() != "<nil>" || r.Unwrap() != nil || r.Code() != "" || r.CodeNum() != 0 || r.Category() != "" ||
		r.Retryable() || r.Class() != ClassUnknown || r.UserMessage() != "" || r.Is(&RateLimited{}) {
		t.Errorf("nil *RemoteError: %q %v %q %d %q %v %v %q", r.Error(), r.Unwrap(), r.Code(), r.CodeNum(), r.Category(), r.Retryable(), r.Class(), r.UserMessage())
	}
	if got := r.LogValue().String(); got != "<nil>" {
		t.Errorf("LogValue = %q", got)
	}
	if data, err := r.MarshalJSON(); err != nil || string(data) != "null" {
		t.Errorf("MarshalJSON = %s, %v", data, err)
	}
	wrapped := fmt.Errorf("call: %w", err)
	if errors.Is(err, &RateLimited{}) || errors.Is(wrapped, &RateLimited{}) || errors.Is(&RateLimited{}, err) {
		t.Error("errors.Is matched a nil *RemoteError")
	}
	if CodeOf(wrapped) != "" || IsRetryable(wrapped) || ClassOf(wrapped) != ClassUnknown || UserMessageOf(wrapped) != "" {
		t.Error("a nil *RemoteError in a chain was taken for an error of the catalogue")
	}
	if got := logLine(LogAttr(wrapped)); got != "level=INFO msg=failed error=\"call: <nil>\"\n" {
		t.Errorf("LogAttr = %q", got)
	}
	if data, err := json.Marshal(&ProviderTimeout{Cause: err}); err != nil || strings.Contains(string(data), "cause") {
		t.Errorf("wire form of a nil *RemoteError cause: %s, %v", data, err)
	}
}

// loop is an error whose chain comes back to itself.
type loop struct{ next error }

func (l *loop) Error() string { return "loop" }
func (l *loop) Unwrap() error { return l.next }

func TestChainThatLoopsEnds(t *testing.T) {
	l := &loop{}
	l.next = l
	if CodeOf(l) != "" || IsRetryable(l) || ClassOf(l) != ClassUnknown || RootCodeOf(l) != "" {
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
	self := &MemoryUnavailable{}
	self.Err = self
	joined := &MemoryUnavailable{}
	joined.Err = errors.Join(errors.New("x"), fmt.Errorf("w: %w", joined))
	a, b := &MemoryUnavailable{}, &MemoryUnavailable{}
	a.Err, b.Err = b, a
	for _, e := range []variant{self, joined, a} {
		if data, err := json.Marshal(e); err != nil || !json.Valid(data) {
			t.Errorf("wire form of a cause chain that loops: %v", err)
		}
		_ = e.Error()
		_ = e.UserMessage()
		_ = e.Retryable()
		_ = logLine(slog.Any("e", e))
		_ = UserMessageOf(e)
		_ = RootCodeOf(e)
	}
}

// A zero retry-after is no retry-after: the walk goes past it to a wait
// further down the chain, and without one answers false rather than a wait
// of zero, for a local variant and a decoded one alike.
func TestRetryAfterZeroIsNone(t *testing.T) {
	if d, ok := RetryAfterOf(&RateLimited{Provider: "p"}); ok {
		t.Errorf("RetryAfterOf(RetryAfter unset) = %v, true", d)
	}
	if d, ok := RetryAfterOf(&RateLimited{Provider: "p", RetryAfter: -time.Second}); ok {
		t.Errorf("RetryAfterOf(RetryAfter negative) = %v, true", d)
	}
	joined := errors.Join(&RateLimited{Provider: "a"}, fmt.Errorf("b: %w", &RateLimited{Provider: "b", RetryAfter: 2 * time.Second}))
	if d, ok := RetryAfterOf(joined); !ok || d != 2*time.Second {
		t.Errorf("RetryAfterOf(zero, then 2s) = %v, %v; want 2s, true", d, ok)
	}
	r, err := DecodePayload([]byte(`{"category":"rate_limit","code":"rate_limited","code_num":2001,"error":"x","retryable":true,"suppress_retry":false,"retry_after":0}`))
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := RetryAfterOf(r); ok {
		t.Errorf("RetryAfterOf(decoded, sent as 0) = %v, true", d)
	}
	h := http.Header{}
	h.Set("Retry-After", "0")
	if e, ok := FromHTTP(429, h); !ok {
		t.Error("FromHTTP(429) found nothing")
	} else if d, ok := RetryAfterOf(e); ok {
		t.Errorf("RetryAfterOf(429 with Retry-After: 0) = %v, true", d)
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

// RetryAfterOf walks the chain as CodeOf, IsRetryable and Chain do: an
// error whose As method gives a variant with a wait (a framework's error
// type standing for it) tells the wait, as it tells the code, directly or
// inside a decoded error.
func TestRetryAfterOfHonoursAs(t *testing.T) {
	limited := &RateLimited{Provider: "p", RetryAfter: 3 * time.Second}
	decoded, err := DecodePayload(mustMarshal(t, limited))
	if err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]Error{"a variant": limited, "a decoded error": decoded} {
		err := fmt.Errorf("turn: %w", asOther{target})
		if CodeOf(err) != CodeRateLimited {
			t.Fatalf("%s: CodeOf = %q", name, CodeOf(err))
		}
		if d, ok := RetryAfterOf(err); !ok || d != 3*time.Second {
			t.Errorf("%s through an As method: RetryAfterOf = %v, %v; want 3s, true", name, d, ok)
		}
		if d, ok := RetryDelay(err, 1); !ok || d != 3*time.Second {
			t.Errorf("%s through an As method: RetryDelay = %v, %v; want 3s, true", name, d, ok)
		}
	}
	// What an As method stands for is one link, as errors.As takes it:
	// the walk goes on with the Unwrap of the error that has the method,
	// not into the cause of what it stands for, be that a variant or the
	// same error decoded.
	wrapped := &ModelCallFailed{Cause: limited}
	decodedWrapper, err := DecodePayload(mustMarshal(t, wrapped))
	if err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]Error{"a variant": wrapped, "a decoded error": decodedWrapper} {
		err := asOther{target}
		links := 0
		for range Chain(err) {
			links++
		}
		if d, ok := RetryAfterOf(err); links != 1 || ok {
			t.Errorf("%s through an As method: %d links, RetryAfterOf = %v, %v; want 1 link and no wait", name, links, d, ok)
		}
	}
}

// otherCatalogueError stands for an error of another generated package:
// it has the methods every generated error has, and a cause.
type otherCatalogueError struct{ cause error }

func (e *otherCatalogueError) Error() string       { return "other catalogue" }
func (e *otherCatalogueError) CodeNum() int        { return 7001 }
func (e *otherCatalogueError) Retryable() bool     { return true }
func (e *otherCatalogueError) UserMessage() string { return "Try again." }
func (e *otherCatalogueError) Unwrap() error       { return e.cause }

func TestRetryAfterOfAnotherCatalogue(t *testing.T) {
	defer func(f func(error) (time.Duration, bool)) { retryAfterImported = f }(retryAfterImported)
	var asked []error
	wait := 4 * time.Second
	retryAfterImported = func(err error) (time.Duration, bool) {
		asked = append(asked, err)
		if _, ok := err.(*otherCatalogueError); ok {
			return wait, true
		}
		return 0, false
	}
	other := &otherCatalogueError{cause: &RateLimited{Provider: "p", RetryAfter: 2 * time.Second}}
	chain := fmt.Errorf("turn: %w", other)
	if d, ok := RetryAfterOf(chain); !ok || d != 4*time.Second {
		t.Errorf("RetryAfterOf(another catalogue's error with a wait) = %v, %v; want 4s, true", d, ok)
	}
	if len(asked) != 1 || asked[0] != other {
		t.Errorf("the other packages were asked of %v; want only of the other catalogue's error", asked)
	}
	wait = 0
	if d, ok := RetryAfterOf(chain); !ok || d != 2*time.Second {
		t.Errorf("RetryAfterOf(another catalogue's error answering 0, then 2s) = %v, %v; want 2s, true", d, ok)
	}
	retryAfterImported = nil
	if d, ok := RetryAfterOf(chain); !ok || d != 2*time.Second {
		t.Errorf("RetryAfterOf without other catalogues = %v, %v; want 2s, true", d, ok)
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
	all := All()
	all[0].Code = "changed"
	if All()[0].Code == "changed" {
		t.Error("All returned the table itself")
	}
}

func TestHTTPStatuses(t *testing.T) {
	for status, want := range map[int]Code{429: CodeRateLimited, 401: CodeAuthFailed, 403: CodeAuthFailed,
		500: CodeServerError, 502: CodeServerError, 599: CodeServerError, 503: CodeToolUnavailable, 404: "", 600: ""} {
		info, ok := LookupHTTPStatus(status)
		if info.Code != want || ok != (want != "") {
			t.Errorf("LookupHTTPStatus(%d) = %q, %v; want %q (the most specific wins)", status, info.Code, ok, want)
		}
	}
	h := http.Header{}
	h.Set("Retry-After", "7")
	e, ok := FromHTTP(429, h)
	if rl, isRL := e.(*RateLimited); !ok || !isRL || rl.RetryAfter != 7*time.Second {
		t.Errorf("FromHTTP(429, Retry-After: 7) = %#v, %v", e, ok)
	}
	defer func(f func() time.Time) { now = f }(now)
	now = func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC) }
	h.Set("Retry-After", "Sun, 22 Nov 2026 12:01:30 GMT")
	if e, _ := FromHTTP(429, h); e.(*RateLimited).RetryAfter != 90*time.Second {
		t.Errorf("Retry-After as an HTTP date: %v", e.(*RateLimited).RetryAfter)
	}
	// An HTTP date counts whole seconds, and the time until it is rarely
	// whole: it is rounded up, so that the caller never retries before
	// the date.
	now = func() time.Time { return time.Date(2026, 11, 22, 12, 0, 0, 600*int(time.Millisecond), time.UTC) }
	if e, _ := FromHTTP(429, h); e.(*RateLimited).RetryAfter != 90*time.Second {
		t.Errorf("Retry-After as an HTTP date 89.4s away: %v, want 90s", e.(*RateLimited).RetryAfter)
	}
	h.Set("Retry-After", "soon")
	if e, _ := FromHTTP(429, h); e.(*RateLimited).RetryAfter != 0 {
		t.Errorf("a Retry-After that is neither: %v", e.(*RateLimited).RetryAfter)
	}
	// An HTTP date is in GMT: one in another zone is not one, whatever
	// the machine's zone, nor is a date with a zone of its own invention.
	for _, v := range []string{"Sun, 22 Nov 2026 12:01:30 EST", "Sun, 22 Nov 2026 12:01:30 XYZ", "Sun, 22 Nov 2026 12:01:30 +0000"} {
		h.Set("Retry-After", v)
		if e, _ := FromHTTP(429, h); e.(*RateLimited).RetryAfter != 0 {
			t.Errorf("Retry-After %s read as %v", v, e.(*RateLimited).RetryAfter)
		}
	}
	for v, want := range map[string]time.Duration{
		"Sunday, 22-Nov-26 12:01:30 GMT": 90 * time.Second, "Sun Nov 22 12:01:30 2026": 90 * time.Second,
		// Delay seconds past 32 bits, and past what a Duration holds: the
		// longest wait, never none.
		"4294967296": 4294967296 * time.Second, "9223372037": math.MaxInt64, "99999999999999999999999": math.MaxInt64,
	} {
		h.Set("Retry-After", v)
		if e, _ := FromHTTP(429, h); e.(*RateLimited).RetryAfter != want {
			t.Errorf("Retry-After %s read as %v, want %v", v, e.(*RateLimited).RetryAfter, want)
		}
	}
	if e, ok := FromHTTP(502, nil); !ok || e.Code() != CodeServerError {
		t.Errorf("FromHTTP(502, nil) = %v, %v", e, ok)
	}
	// A variant that stands for several statuses keeps the one it was
	// made from in its http_status field, with a header or without.
	for status, header := range map[int]http.Header{502: nil, 599: h, 500: {}} {
		if e, _ := FromHTTP(status, header); e.(*ServerError).Status != status {
			t.Errorf("FromHTTP(%d).Status = %d, want %d", status, e.(*ServerError).Status, status)
		}
	}
	if e, _ := FromHTTP(408, nil); e.(*ProviderTimeout).Status != 408 {
		t.Errorf("FromHTTP(408).Status = %d", e.(*ProviderTimeout).Status)
	}
	if _, ok := FromHTTP(404, h); ok {
		t.Error("FromHTTP(404)")
	}
}

// logLine logs one record with the error as its only attribute.
func logLine(attr slog.Attr) string {
	var b bytes.Buffer
	log := slog.New(slog.NewTextHandler(&b, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	log.LogAttrs(nil, slog.LevelInfo, "failed", attr)
	return b.String()
}

func TestLogValue(t *testing.T) {
	got := logLine(slog.Any("err", &ToolTimeout{Tool: "t", Seconds: 3}))
	want := `level=INFO msg=failed err.error="Execution timeout after 3s: t" err.code=tool_timeout err.num=1004 err.category=timeout err.class=retryable err.retryable=true err.tool=t err.seconds=3` + "\n"
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// LogAttr finds the catalogue error inside a wrap and keeps the wrap's
	// text; a cause logs as a group of its own.
	got = logLine(LogAttr(fmt.Errorf("turn 3: %w", &ModelCallFailed{Cause: &RateLimited{Provider: "p", RetryAfter: time.Second}})))
	for _, want := range []string{`error.error="turn 3: model call failed: provider p rate limited the request"`, "error.code=model_call_failed", "error.cause.code=rate_limited", "error.cause.retry_after=1000"} {
		if !strings.Contains(got, want) {
			t.Errorf("LogAttr lacks %s:\n%s", want, got)
		}
	}
	r, _ := DecodePayload(mustMarshal(t, &AuthFailed{Provider: "p"}))
	if got := logLine(LogAttr(r)); !strings.Contains(got, "error.code=auth_failed") || !strings.Contains(got, "error.class=terminal") {
		t.Errorf("LogAttr of a decoded error:\n%s", got)
	}
	if got := logLine(LogAttr(errors.New("plain"))); got != "level=INFO msg=failed error=plain\n" {
		t.Errorf("LogAttr of a foreign error: %q", got)
	}
}

// TestLogKeysAreOnce: a log value starts with the keys the model reserves
// (model.LogKeys), which no field of a catalogue may take; a decoded error
// of a code this catalogue does not know leaves out a member named like
// one, so a sender cannot log a second class or num beside the true ones.
func TestLogKeysAreOnce(t *testing.T) {
	if !slicesEqual(logKeys[:], model.LogKeys) {
		t.Fatalf("the runtime's log keys %v differ from the model's %v", logKeys, model.LogKeys)
	}
	keys := func(v slog.Value) []string {
		var out []string
		for _, a := range v.Group() {
			out = append(out, a.Key)
		}
		return out
	}
	if got := keys((&ToolTimeout{Tool: "t"}).LogValue()); !slicesEqual(got[:len(logKeys)-1], logKeys[:len(logKeys)-1]) {
		t.Errorf("a variant's log keys: %v", got)
	}
	r, err := DecodePayload([]byte(`{"code":"zzz_new","code_num":9001,"category":"new","error":"newer","retryable":false,"suppress_retry":false,` +
		`"class":"retryable","remote":false,"num":4001,"tool":"t"}`))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keys(r.LogValue()), append(logKeys[:], "tool"); !slicesEqual(got, want) {
		t.Errorf("a decoded error's log keys: %v, want %v", got, want)
	}
}

// A decoded error logs what travelled: the sender's message, this
// catalogue's class, and its fields as the variant logs them (its cause
// as a group) or, for an unknown code, as they came; never a field that
// did not travel, nor a sensitive one an older sender still sends.
func TestDecodedLogValue(t *testing.T) {
	SetScrubber(ScrubSecrets)
	t.Cleanup(func() { SetScrubber(nil) })
	limited := &RateLimited{Provider: "openai", RetryAfter: 2 * time.Second}
	wire, err := DecodePayload(mustMarshal(t, &ModelCallFailed{Cause: limited, Provider: "openai"}))
	if err != nil {
		t.Fatal(err)
	}
	payload, err := DecodePayload((&ToolUnavailable{Tool: "browser", Reason: "down", Attempts: 2}).AppendLLMPayload(nil))
	if err != nil {
		t.Fatal(err)
	}
	older, err := DecodePayload([]byte(`{"category":"auth","code":"auth_failed","code_num":2002,"error":"refused","retryable":false,"suppress_retry":false,"provider":"openai","api_key":"zq9key"}`))
	if err != nil {
		t.Fatal(err)
	}
	unknown, err := DecodePayload([]byte(`{"category":"new","code":"brand_new","code_num":9999,"error":"x","retryable":true,"suppress_retry":false,"note":"token=zq9tok","n":5,"ok":true,"list":["a","Bearer zq9bearertoken"]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name     string
		err      error
		want     []string
		wantNot  []string
		jsonWant string
	}{
		{"a wire form with a cause", wire, []string{`err.error="model call failed: provider openai rate limited the request"`, "err.class=retryable", "err.remote=true",
			"err.provider=openai", "err.cause.code=rate_limited", "err.cause.provider=openai", "err.cause.retry_after=2000"}, nil, `"retry_after":2000`},
		{"a payload", payload, []string{"err.tool=browser", "err.attempts=2", `err.error="Tool browser unavailable: down`}, []string{"err.reason", "err.since"}, `"attempts":2`},
		{"an older sender's secret", older, []string{"err.provider=openai"}, []string{"zq9", "api_key"}, `"provider":"openai"`},
		{"an unknown code", unknown, []string{"err.n=5", "err.ok=true", `err.note="token=[REDACTED]"`, "err.class=retryable"}, []string{"zq9"}, `"n":5,"ok":true`},
		{"inside a wrap", fmt.Errorf("relay: %w", payload), []string{`err.error="relay: Tool browser unavailable: down`, "err.tool=browser", "err.remote=true"}, nil, `"tool":"browser"`},
	} {
		got := logLine(slog.Any("err", LogValueOf(c.err)))
		for _, want := range c.want {
			if !strings.Contains(got, want) {
				t.Errorf("%s: the log lacks %s:\n%s", c.name, want, got)
			}
		}
		for _, not := range c.wantNot {
			if strings.Contains(got, not) {
				t.Errorf("%s: the log has %s:\n%s", c.name, not, got)
			}
		}
		var b bytes.Buffer
		slog.New(slog.NewJSONHandler(&b, nil)).Error("failed", LogAttr(c.err))
		if !strings.Contains(b.String(), c.jsonWant) || strings.Contains(b.String(), "zq9") {
			t.Errorf("%s: JSON log lacks %s:\n%s", c.name, c.jsonWant, b.String())
		}
	}
}

func TestTemplates(t *testing.T) {
	e := &ToolUnavailable{Tool: "browser", Reason: "r", Alternatives: []string{"web.search", "http.fetch"}, Since: 1500 * time.Millisecond}
	if got := e.Error(); got != "Tool browser unavailable: r <{not a field}> (try web.search, http.fetch; down 1500ms)" {
		t.Errorf("Error() = %q", got)
	}
	if got := e.SuppressionKey(); got != "browser:tool_unavailable" {
		t.Errorf("SuppressionKey() = %q", got)
	}
	if got := e.UserMessage(); got != "A tool did not work (tool_unavailable)." {
		t.Errorf("UserMessage() = %q", got)
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

// TestHashCodeSpreadsNamingSchemes fills tables of the code index's size
// with codes shaped as catalogues name them (a shared stem and a counter or
// a few letters at the end, at every alignment to the hash's eight-byte
// blocks) and checks that no probe run grows long: a hash whose low bits
// ignored some byte would put every such code in one slot, and lookups
// would walk the whole table.
func TestHashCodeSpreadsNamingSchemes(t *testing.T) {
	var sets [][]Code
	for _, stem := range []string{"e_", "err_", "error_", "http_", "tool_", "timeout_", "invalid_input_", "provider_rate_limit_"} {
		for _, digits := range []int{2, 3} {
			var codes []Code
			for i := range []int{100, 1000}[digits-2] {
				codes = append(codes, Code(fmt.Sprintf("%s%0*d", stem, digits, i)))
			}
			sets = append(sets, codes)
		}
		var letters []Code
		for _, a := range "abcdefghijklmnopqrstuvwxyz" {
			for _, b := range "abcdefghijklmnopqrstuvwxyz" {
				for _, c := range "abcdefghijklmnopqrstuvwxyz" {
					letters = append(letters, Code(stem+string([]rune{a, b, c})))
				}
			}
		}
		sets = append(sets, letters)
	}
	for _, codes := range sets {
		if worst := longestProbe(codes); worst > 32 {
			t.Errorf("%d codes from %q to %q: a lookup probes up to %d slots", len(codes), codes[0], codes[len(codes)-1], worst)
		}
	}
}

// longestProbe inserts codes into a table sized as codeIndex sizes it and
// returns the most slots one insertion probed.
func longestProbe(codes []Code) int {
	size := 1
	for size < 2*len(codes) {
		size <<= 1
	}
	used := make([]bool, size)
	worst := 0
	for _, c := range codes {
		probes := 1
		j := hashCode(c) & uint64(size-1)
		for ; used[j]; j = (j + 1) & uint64(size-1) {
			probes++
		}
		used[j] = true
		worst = max(worst, probes)
	}
	return worst
}

func TestDurationsInTheirUnit(t *testing.T) {
	// ProviderBusy's retry_after is in seconds and is the retry_after
	// field: every output rounds it up, so none says to wait less than the
	// error does. ToolUnavailable's since is a plain duration in
	// milliseconds: cut, as documented.
	for _, tc := range []struct {
		wait time.Duration
		want string
	}{
		{2 * time.Second, "2"},
		{1500 * time.Millisecond, "2"},
		{500 * time.Millisecond, "1"},
		{time.Nanosecond, "1"},
		{2*time.Second + time.Nanosecond, "3"},
		{-1500 * time.Millisecond, "-1"},
	} {
		e := &ProviderBusy{Provider: "openai", RetryAfter: tc.wait}
		if got, want := e.Error(), "provider openai is busy; retry after "+tc.want+"s"; got != want {
			t.Errorf("%v: Error() = %q, want %q", tc.wait, got, want)
		}
		wire := string(mustMarshal(t, e))
		if !strings.Contains(wire, `"retry_after":`+tc.want+`}`) {
			t.Errorf("%v: wire form %s, want retry_after %s", tc.wait, wire, tc.want)
		}
		if got := logLine(LogAttr(e)); !strings.Contains(got, "error.retry_after="+tc.want+"\n") {
			t.Errorf("%v: log %q, want retry_after=%s", tc.wait, got, tc.want)
		}
		if tc.wait <= 0 {
			continue
		}
		r, err := DecodePayload([]byte(wire))
		if err != nil {
			t.Fatalf("%v: %v", tc.wait, err)
		}
		if d, ok := RetryAfterOf(r); !ok || d < tc.wait {
			t.Errorf("%v: decoded RetryAfterOf = %v, %v; want at least the wait sent", tc.wait, d, ok)
		}
	}
	e := &ToolUnavailable{Tool: "browser", Since: 1999 * time.Microsecond}
	if got := string(e.AppendLLMPayload(nil)); !strings.Contains(got, `"since":1,`) {
		t.Errorf("payload %s, want since 1 (cut to whole milliseconds)", got)
	}
	if got := e.Error(); !strings.Contains(got, "down 1ms") {
		t.Errorf("Error() = %q, want down 1ms", got)
	}
}

// TestDecodedDurationsHoldAtTheirLimits: a duration beyond what a
// Duration holds decodes as the largest (or smallest) one, never wrapped
// round to a short wait or to none; the wire form of the longest wait,
// rounded up past it, decodes as it.
func TestDecodedDurationsHoldAtTheirLimits(t *testing.T) {
	wire := string(mustMarshal(t, &ProviderBusy{Provider: "openai", RetryAfter: math.MaxInt64}))
	for _, tc := range []struct {
		sent string
		want time.Duration
	}{
		{"9223372037", math.MaxInt64}, // the wire form above: MaxInt64 rounded up to seconds
		{"9223372036", 9223372036 * time.Second},
		{"18446744073", math.MaxInt64},
		{"9223372036854775807", math.MaxInt64},
		{"-9223372037", math.MinInt64},
		{"-9223372036854775808", math.MinInt64},
	} {
		data := strings.Replace(wire, `"retry_after":9223372037`, `"retry_after":`+tc.sent, 1)
		if data == wire && tc.sent != "9223372037" {
			t.Fatalf("wire form %s has no retry_after of 9223372037", wire)
		}
		r, err := DecodePayload([]byte(data))
		if err != nil {
			t.Fatalf("%s: %v", tc.sent, err)
		}
		var busy *ProviderBusy
		if !errors.As(r, &busy) || busy.RetryAfter != tc.want {
			t.Errorf("retry_after %s decoded as %+v, want %v", tc.sent, busy, tc.want)
		}
	}
}

// TestInUnitMatchesModel: the runtime writes a duration in its unit as the
// model says every output does (model.Field.InUnit).
func TestInUnitMatchesModel(t *testing.T) {
	ds := []time.Duration{0, 1, -1, 999, time.Microsecond, 1500 * time.Microsecond, time.Millisecond,
		1500 * time.Millisecond, -1500 * time.Millisecond, time.Second, time.Hour + 1, math.MaxInt64, math.MinInt64}
	for _, u := range model.Units {
		for _, retryAfter := range []bool{false, true} {
			mf := &model.Field{Unit: u, RetryAfter: retryAfter}
			rf := &field{unit: u.Size, retryAfter: retryAfter}
			for _, d := range ds {
				if got, want := rf.inUnit(d), mf.InUnit(d); got != want {
					t.Errorf("%v in %s (retry_after %v): runtime %d, model %d", d, u.Name, retryAfter, got, want)
				}
			}
		}
	}
}

// TestLongChainsAreCutNotDropped: a cause chain longer than the 100 links
// every walk follows keeps its causes: the text has every link, the
// retryability of the innermost error reaches the top through
// retryable_from_cause, and the wire form nests causes as deep as a
// decoder reads (a plain error cause then holds a marker), so it decodes.
func TestLongChainsAreCutNotDropped(t *testing.T) {
	for _, n := range []int{48, 49, 50, 51, 150} {
		// Two links a wrapper: the cause fields are of families.
		var err error = &ServerError{Provider: "openai", Status: 502}
		for range n {
			err = &ModelCallFailed{Cause: &ProviderTimeout{Cause: err}}
		}
		if got := strings.Count(err.Error(), "model call failed: "); got != n {
			t.Errorf("%d wrappers: the text has %d of them: %.200s", n, got, err.Error())
		}
		if !err.(*ModelCallFailed).Retryable() {
			t.Errorf("%d wrappers: not retryable, though the innermost error is", n)
		}
		if _, derr := DecodePayload(mustMarshal(t, err)); derr != nil {
			t.Errorf("%d wrappers of family causes: the wire form does not decode: %.300v", n, derr)
		}
		// One link a wrapper: the cause field is a plain error.
		err = errors.New("root")
		for range 2 * n {
			err = &MemoryUnavailable{Err: err}
		}
		wire := mustMarshal(t, err)
		if _, derr := DecodePayload(wire); derr != nil {
			t.Errorf("%d wrappers of plain causes: the wire form does not decode: %.300v", 2*n, derr)
		}
		if cut := 2*n >= maxChain-1; cut != bytes.Contains(wire, []byte("(cause chain too deep)")) {
			t.Errorf("%d wrappers of plain causes: marker %v, want %v", 2*n, !cut, cut)
		}
	}
}

// TestLongChainsLogAtMostMaxChainDeep: a chain's log value nests as deep
// as its wire form does, at most maxChain levels, however long the chain
// and whatever wraps its links; the innermost level logged holds the rest
// of the chain as its text.
func TestLongChainsLogAtMostMaxChainDeep(t *testing.T) {
	depth := func(v any) int {
		var walk func(v any) int
		walk = func(v any) int {
			m, ok := v.(map[string]any)
			if !ok {
				return 0
			}
			d := 0
			for _, x := range m {
				d = max(d, walk(x))
			}
			return d + 1
		}
		return walk(v)
	}
	for _, n := range []int{maxChain - 2, maxChain - 1, maxChain, 3 * maxChain} {
		for _, c := range []struct {
			name string
			link func(error) error
		}{
			{"a plain cause", func(err error) error { return &MemoryUnavailable{Err: err} }},
			{"a plain cause wrapped", func(err error) error { return &MemoryUnavailable{Err: fmt.Errorf("again: %w", err)} }},
		} {
			err := errors.New("root")
			for range n {
				err = c.link(err)
			}
			var b bytes.Buffer
			slog.New(slog.NewJSONHandler(&b, nil)).Error("failed", LogAttr(err))
			var line map[string]any
			if jerr := json.Unmarshal(b.Bytes(), &line); jerr != nil {
				t.Fatalf("%d links, %s: the log is not JSON: %v", n, c.name, jerr)
			}
			got := depth(line["error"])
			if want := min(n, maxChain); got != want {
				t.Errorf("%d links, %s: the log nests %d levels, want %d", n, c.name, got, want)
			}
			if !strings.Contains(b.String(), `root"`) {
				t.Errorf("%d links, %s: the log lost the innermost text: %.300s", n, c.name, b.String())
			}
		}
	}
}

// loggedAdapter is an adapter with a log value of its own, of any kind.
type loggedAdapter struct {
	adapter
	v slog.Value
}

func (a loggedAdapter) LogValue() slog.Value { return a.v }

// valuer is a slog.LogValuer that resolves to v.
type valuer struct{ v slog.Value }

func (v valuer) LogValue() slog.Value { return v.v }

// TestLogValueOfOtherErrors: an Error of another kind logs whatever its
// own LogValue gives, a string, an empty group, a value that resolves
// later, wrapped with the text of what wraps it and without a panic.
func TestLogValueOfOtherErrors(t *testing.T) {
	inner := adapter{&RateLimited{Provider: "openai"}}
	for _, c := range []struct {
		name string
		v    slog.Value
		want string
	}{
		{"a string", slog.StringValue("limited"), `err.error="step: provider openai rate limited the request" err.cause=limited`},
		{"an empty group", slog.GroupValue(), `err.error="step: provider openai rate limited the request"`},
		{"a group without error first", slog.GroupValue(slog.String("code", "x")), `err.error="step: provider openai rate limited the request" err.code=x`},
		{"a group", slog.GroupValue(slog.String("error", "limited"), slog.String("code", "x")), `err.error="step: provider openai rate limited the request" err.code=x`},
		{"a value to resolve", slog.AnyValue(valuer{slog.GroupValue(slog.String("error", "limited"), slog.Int("n", 1))}), `err.error="step: provider openai rate limited the request" err.n=1`},
	} {
		err := fmt.Errorf("step: %w", loggedAdapter{inner, c.v})
		var got string
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: LogValueOf panicked: %v", c.name, p)
				}
			}()
			got = logLine(slog.Any("err", LogValueOf(err)))
		}()
		if !strings.Contains(got, c.want+"\n") {
			t.Errorf("%s: the log is\n%s\nwant it to end with\n%s", c.name, got, c.want)
		}
	}
}

// TestPayloadFieldWithoutValue: a Payload built by hand with a field that
// has no value encodes it as null, valid JSON, by either path.
func TestPayloadFieldWithoutValue(t *testing.T) {
	p := Payload{Code: "x", Fields: []PayloadField{{Name: "a"}, {Name: "b", Value: json.RawMessage{}}}}
	got, err := json.Marshal(p)
	if err != nil || !json.Valid(got) || !bytes.Contains(got, []byte(`"a":null,"b":null`)) {
		t.Errorf("json.Marshal = %s, %v", got, err)
	}
	if app := p.AppendJSON(nil); !bytes.Equal(app, got) {
		t.Errorf("AppendJSON = %s, json.Marshal %s", app, got)
	}
}

// countedRoot is a chain's last error, counting how often a walk of the
// chain reaches it.
type countedRoot struct{ unwraps *int }

func (r countedRoot) Error() string { return "root" }
func (r countedRoot) Unwrap() error { *r.unwraps++; return nil }

// TestLongChainTextWalksTheChainOnce: the text of a chain of the package's
// variants is rendered in one pass, each cause in place: the check that
// the chain ends walks it once, not once a link, so the text of n links
// takes time in proportion to n, and the wire form and the log value,
// whose levels each carry the text below them, in proportion to n times
// their depth.
func TestLongChainTextWalksTheChainOnce(t *testing.T) {
	const n = 300
	unwraps := 0
	var err error = countedRoot{&unwraps}
	for range n {
		err = &MemoryUnavailable{Err: err}
	}
	text := err.Error()
	if got := strings.Count(text, "memory unavailable: "); got != n || !strings.HasSuffix(text, ": root") {
		t.Fatalf("the text has %d of %d links: %.200s", got, n, text)
	}
	if unwraps != 1 {
		t.Errorf("the text of %d links walked the chain to its end %d times, want once", n, unwraps)
	}
	unwraps = 0
	mustMarshal(t, err)
	if unwraps > 2*maxChain {
		t.Errorf("the wire form of %d links walked the chain to its end %d times, want at most one a level written (%d)", n, unwraps, maxChain)
	}
	unwraps = 0
	slog.New(slog.NewJSONHandler(io.Discard, nil)).Error("failed", LogAttr(err))
	if unwraps > 8*maxChain {
		t.Errorf("the log value of %d links walked the chain to its end %d times, want a few a level logged (%d)", n, unwraps, maxChain)
	}
}

// TestChainFromCauseWalksTheChainOnce: the retryability and the user
// message of a chain of wrappers whose cause decides them are found in
// one walk down the chain, under the one check that it ends made at the
// top, not a check at each link: n links take time in proportion to n,
// and their log value, whose levels each ask the class, in proportion to
// n times its depth.
func TestChainFromCauseWalksTheChainOnce(t *testing.T) {
	const n = 300
	unwraps := 0
	var err error = countedRoot{&unwraps}
	for range n {
		err = &OperatorFailed{Cause: err}
	}
	top := err.(*OperatorFailed)
	if top.Retryable() || top.Class() != ClassTerminal {
		t.Errorf("Retryable, Class = %v, %v, want false, terminal", top.Retryable(), top.Class())
	}
	unwraps = 0
	top.Retryable()
	if unwraps != 2 {
		t.Errorf("Retryable of %d links walked the chain to its end %d times, want twice: the check, then the walk", n, unwraps)
	}
	unwraps = 0
	if got, want := top.UserMessage(), renderCode(forms[variantIndex(top)].user, CodeOperatorFailed); got != want {
		t.Errorf("UserMessage = %q, want %q", got, want)
	}
	if unwraps != 2 {
		t.Errorf("UserMessage of %d links walked the chain to its end %d times, want twice: the check, then the walk", n, unwraps)
	}
	unwraps = 0
	slog.New(slog.NewJSONHandler(io.Discard, nil)).Error("failed", LogAttr(err))
	if unwraps > 8*maxChain {
		t.Errorf("the log value of %d links walked the chain to its end %d times, want a few a level logged (%d)", n, unwraps, maxChain)
	}
	// A retryable cause at the end decides for every link, and its user
	// message is every link's.
	var rl error = &RateLimited{Provider: "p"}
	for range n {
		rl = &OperatorFailed{Cause: rl}
	}
	if c := rl.(Error); !c.Retryable() || c.Class() != ClassRetryable || c.UserMessage() != (&RateLimited{}).UserMessage() {
		t.Errorf("a chain over a rate limit: %v, %v, %q", c.Retryable(), c.Class(), c.UserMessage())
	}
}

// TestDecodedVariantFollowsItsCause: a decoded wrapper whose cause decides
// its retryability, reached with errors.As, answers as the error it was
// decoded from when its cause travelled in its field: the decoded cause
// decides, as it does for the wrapper that was sent. (A cause the field
// cannot hold is the decoded error's alone: see TestUnknownCauseOfAFamily.)
func TestDecodedVariantFollowsItsCause(t *testing.T) {
	for _, sent := range []Error{
		&OperatorFailed{Cause: &RateLimited{Provider: "p"}},
		&OperatorFailed{Cause: &QuotaExhausted{Provider: "p"}},
		&OperatorFailed{Cause: &OperatorFailed{Cause: &ProviderTimeout{Cause: errors.New("x")}}},
		&ModelCallFailed{Cause: &AuthFailed{Provider: "p"}},
		&ModelCallFailed{Cause: &RateLimited{Provider: "p"}},
	} {
		r, err := DecodePayload(mustMarshal(t, sent))
		if err != nil {
			t.Fatal(err)
		}
		var of *OperatorFailed
		var mf *ModelCallFailed
		var got Error
		switch {
		case errors.As(r, &of):
			got = of
		case errors.As(r, &mf):
			got = mf
		}
		if got == nil || got.Retryable() != sent.Retryable() || got.Class() != sent.Class() || got.UserMessage() != sent.UserMessage() {
			t.Errorf("%s: decoded variant %v, want %v, %v, %q", sent, got, sent.Retryable(), sent.Class(), sent.UserMessage())
		}
	}
}

// TestGoldenDiffOfTheLastNewline: a golden file that differs from what
// the test writes only in the newline at its end is described as such,
// not as a difference past the last line that shows none.
func TestGoldenDiffOfTheLastNewline(t *testing.T) {
	for _, c := range [][2]string{{"{\n  \"a\": 1\n}\n", "{\n  \"a\": 1\n}"}, {"x\n", "x"}} {
		got := errgenFirstDiff([]byte(c[0]), []byte(c[1]))
		if !strings.Contains(got, "differ only at their end") || strings.Contains(got, "(end of file)\n+ (end of file)") {
			t.Errorf("%q against %q: %s", c[0], c[1], got)
		}
	}
	if got := errgenFirstDiff([]byte("a\nb\n"), []byte("a\nc\n")); !strings.Contains(got, "- b\n+ c") {
		t.Errorf("a line that differs: %s", got)
	}
}
