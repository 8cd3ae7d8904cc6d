package runtime

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/errgen/errgen/gen/model"
)

// canaryNum is what every sensitive number holds in these tests; no other
// value of the stand-in catalogue has these digits.
const canaryNum = 73910482655

// withCanary returns a new error of every variant of the stand-in that has
// a sensitive field, with every sensitive field holding the canary (text)
// or canaryNum (numbers) and every other text field holding "plain", so the
// texts and payloads are not empty.
func withCanary(t testing.TB, canary string) []variant {
	t.Helper()
	var out []variant
	for i := range variantTypes {
		e := newVariant(i)
		sensitive := false
		for k := range forms[i].fields {
			f := &forms[i].fields[k]
			switch p := fieldOf(e, k).(type) {
			case *string:
				*p = "plain"
				if f.sensitive {
					*p = canary
				}
			case *[]string:
				*p = []string{"plain"}
				if f.sensitive {
					*p = []string{"plain", canary}
				}
			case *int64:
				if f.sensitive {
					*p = canaryNum
				}
			}
			sensitive = sensitive || f.sensitive
		}
		if sensitive {
			out = append(out, e)
		}
	}
	if len(out) < 2 {
		t.Fatalf("the stand-in has %d variants with sensitive fields; the tests need at least 2", len(out))
	}
	return out
}

// outputs returns every way e leaves the process or reaches a person, by
// name: its texts, payload, wire form, logs through both slog handlers,
// and every fmt verb, of e itself and of e wrapped by fmt.Errorf, by a
// catalogue error of another family, and as a struct field.
func outputs(t testing.TB, e variant) map[string]string {
	t.Helper()
	out := map[string]string{
		"Error":          e.Error(),
		"UserMessage":    e.UserMessage(),
		"SuppressionKey": e.SuppressionKey(),
	}
	marshal := func(name string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[name] = string(b)
	}
	marshal("json.Marshal", e)
	marshal("json.Marshal wrapped", struct{ Err any }{e})
	if p, ok := e.(interface {
		LLMPayload() *Payload
		AppendLLMPayload([]byte) []byte
	}); ok {
		marshal("LLMPayload", p.LLMPayload())
		out["AppendLLMPayload"] = string(p.AppendLLMPayload(nil))
	}
	wrapped := fmt.Errorf("while working: %w", e)
	outer := &ProviderTimeout{Cause: e}
	for _, c := range []struct {
		name string
		err  error
	}{{"", e}, {" wrapped", wrapped}, {" in a catalogue error", outer}} {
		for _, h := range []struct {
			name string
			new  func(*bytes.Buffer) slog.Handler
		}{
			{"JSONHandler", func(b *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(b, nil) }},
			{"TextHandler", func(b *bytes.Buffer) slog.Handler { return slog.NewTextHandler(b, nil) }},
		} {
			var b bytes.Buffer
			log := slog.New(h.new(&b))
			log.Error("failed", "err", c.err)
			log.Error("failed", LogAttr(c.err))
			log.LogAttrs(t.Context(), slog.LevelError, "failed", slog.Any("err", LogValueOf(c.err)))
			out[h.name+c.name] = b.String()
		}
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T", "%12.40v", "%-8s", "% x"} {
			s := fmt.Sprintf(verb, c.err)
			out[verb+c.name] = s
			if strings.HasSuffix(verb, "x") || strings.HasSuffix(verb, "X") {
				// Hex hides the canary's letters; read it back.
				h, _ := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
				out[verb+c.name+" decoded"] = string(h)
			}
			out[verb+c.name+" in a struct"] = fmt.Sprintf(verb, struct{ Err error }{c.err})
		}
		out["Sprint"+c.name] = fmt.Sprint(c.err)
		out["Sprintln"+c.name] = fmt.Sprintln(c.err, c.err)
	}
	marshal("json.Marshal in a catalogue error", outer)
	// A struct value, not a pointer, of the variant.
	value := reflect.ValueOf(e).Elem().Interface()
	marshal("json.Marshal of the value", value)
	marshal("json.Marshal of the value in a struct", struct{ V any }{value})
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d"} {
		out[verb+" of the value"] = fmt.Sprintf(verb, value)
		out[verb+" of the value in a struct"] = fmt.Sprintf(verb, struct{ V any }{value})
	}
	for _, err := range []error{e, wrapped, outer} {
		for _, p := range projectAll(err) {
			out["projection "+p.name+" of "+errorText(err)] = string(p.data)
		}
	}
	if d, err := DecodePayload([]byte(out["json.Marshal"])); err != nil {
		t.Fatalf("DecodePayload of the wire form: %v", err)
	} else {
		out["decoded %#v"] = fmt.Sprintf("%#v", d)
		out["decoded LogValue"] = d.LogValue().String()
	}
	return out
}

// TestSensitiveNeverLeaves: a canary in every sensitive field of every
// variant of the stand-in that has one never shows in any output, while
// the same outputs do show the fields that are not sensitive (so the test
// would see a leak), and logs and %#v say where a value was redacted.
func TestSensitiveNeverLeaves(t *testing.T) {
	const canary = "zq9-canary-Secret"
	for _, e := range withCanary(t, canary) {
		t.Run(string(e.Code()), func(t *testing.T) {
			outs := outputs(t, e)
			for name, s := range outs {
				if strings.Contains(s, canary) || strings.Contains(s, fmt.Sprint(canaryNum)) {
					t.Errorf("%s shows a sensitive value:\n%s", name, s)
				}
			}
			for _, name := range []string{"%#v", "JSONHandler", "TextHandler"} {
				if !strings.Contains(outs[name], Redacted) {
					t.Errorf("%s does not show %s where the sensitive value was:\n%s", name, Redacted, outs[name])
				}
			}
			if !strings.Contains(outs["%#v"], "plain") || !strings.Contains(outs["JSONHandler"], "plain") {
				t.Errorf("the outputs lost the fields that are not sensitive:\n%s\n%s", outs["%#v"], outs["JSONHandler"])
			}
		})
	}
}

// TestFormatMatchesFmt: without sensitive values, Format prints exactly
// what fmt would print for the struct and for the error, so redaction
// changes nothing else.
func TestFormatMatchesFmt(t *testing.T) {
	e := &AuthFailed{Provider: "openai"}
	type plain AuthFailed
	want := strings.Replace(fmt.Sprintf("%#v", (*plain)(e)), "runtime.plain", "runtime.AuthFailed", 1)
	want = strings.Replace(want, `APIKey:""`, `APIKey:"`+Redacted+`"`, 1)
	want = strings.Replace(want, `Headers:[]string(nil)`, `Headers:"`+Redacted+`"`, 1)
	if got := fmt.Sprintf("%#v", e); got != want {
		t.Errorf("%%#v = %s, want %s", got, want)
	}
	for _, verb := range []string{"%v", "%+v", "%s", "%q", "%x", "%20s", "%-20v|"} {
		if got, want := fmt.Sprintf(verb, e), fmt.Sprintf(verb, e.Error()); got != want {
			t.Errorf("%s = %q, want %q", verb, got, want)
		}
	}
	// Format is on the value, and fmt prints a nil pointer to it as <nil>.
	if got, want := fmt.Sprintf("%#v", (*AuthFailed)(nil)), "<nil>"; got != want {
		t.Errorf("%%#v of nil = %s, want %s", got, want)
	}
	if got, want := fmt.Sprintf("%v", (*AuthFailed)(nil)), "<nil>"; got != want {
		t.Errorf("%%v of nil = %s, want %s", got, want)
	}
}

// TestGoStringOfANilCause: %#v of a variant with a sensitive field prints
// a nil interface field as fmt does inside a struct, error(nil).
func TestGoStringOfANilCause(t *testing.T) {
	e := &ProviderTimeout{}
	type plain ProviderTimeout
	want := strings.Replace(fmt.Sprintf("%#v", (*plain)(e)), "runtime.plain", "runtime.ProviderTimeout", 1)
	if got := goString(e, variantIndex(e)); got != want || !strings.Contains(want, "error(nil)") {
		t.Errorf("goString = %s, want %s", got, want)
	}
}

// TestWireFormLeavesSensitiveOut: the wire form has no key for a sensitive
// field, and decoding it leaves the field at its zero value.
func TestWireFormLeavesSensitiveOut(t *testing.T) {
	e := &AuthFailed{Provider: "openai", APIKey: "k", Headers: []string{"h"}}
	b, _ := json.Marshal(e)
	var members map[string]any
	if err := json.Unmarshal(b, &members); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"api_key", "headers"} {
		if _, ok := members[key]; ok {
			t.Errorf("wire form has the sensitive key %q: %s", key, b)
		}
	}
	d, err := DecodePayload(b)
	if err != nil {
		t.Fatal(err)
	}
	var got *AuthFailed
	if !errors.As(d, &got) || got.Provider != "openai" || got.APIKey != "" || got.Headers != nil {
		t.Errorf("decoded %#v, want provider openai and no sensitive values", got)
	}
}

// FuzzSensitive: whatever a sensitive field holds, no output shows it. The
// canary starts with a marker no output holds otherwise, which survives
// JSON and slog's quoting.
func FuzzSensitive(f *testing.F) {
	for _, s := range []string{"", "x", `"\`, "<>&", "\u2028", "\xff", "\n{}"} {
		f.Add(s)
	}
	const marker = "zq9marker"
	f.Fuzz(func(t *testing.T, s string) {
		for _, e := range withCanary(t, marker+s) {
			for name, out := range outputs(t, e) {
				if strings.Contains(out, marker) {
					t.Fatalf("%s of %s shows a sensitive value:\n%s", name, e.Code(), out)
				}
			}
		}
	})
}

// TestLooksSecretMatchesModel: the generated package's scrubber decides
// which query parameters look secret by the same rule errgen lint applies
// to field names (model.LooksSecret), word for word.
func TestLooksSecretMatchesModel(t *testing.T) {
	if !slicesEqual(secretWords, model.SecretWords) || !slicesEqual(quantityWords, model.QuantityWords) {
		t.Fatalf("the runtime's word lists differ from the model's:\n%v\n%v\n%v\n%v", secretWords, model.SecretWords, quantityWords, model.QuantityWords)
	}
	names := []string{"", "_", "api_key", "apiKey", "APIKey", "API-KEY", "x-api-key", "X-Amz-Signature", "access_token",
		"token", "tokens", "max_tokens", "token_count", "tokenCount", "session", "session_id", "sessionID", "auth",
		"author", "auth_type", "password", "passwd", "db.password", "client_secret", "secretName", "secret_name",
		"private_key", "privateKey", "Cookie", "set-cookie", "credentials", "bearer", "jwt", "sig", "signature",
		"HTTPToken", "oauth_token", "tokenizer", "résumé_token", "key", "apikeyid", "a__token", "TOKEN", "at"}
	for _, w := range append(model.SecretWords, model.QuantityWords...) {
		names = append(names, w, "x_"+w, w+"_x", "my"+strings.ToUpper(w[:1])+w[1:])
	}
	for _, name := range names {
		if got, want := looksSecret(name), model.LooksSecret(name); got != want {
			t.Errorf("looksSecret(%q) = %v, model.LooksSecret = %v", name, got, want)
		}
	}
}

func slicesEqual(a, b []string) bool { return reflect.DeepEqual(a, b) }

// TestScrubSecrets: the built-in scrubber's shapes, each in a sentence, and
// text it must leave alone.
func TestScrubSecrets(t *testing.T) {
	const r = Redacted
	for _, c := range []struct{ in, want string }{
		{"Authorization: Bearer abc.DEF-123_~+/==", "Authorization: Bearer " + r},
		{"header bearer\tabc1", "header bearer " + r},
		{"authorization:basic abc", "authorization:basic " + r},
		{"the basic plan is exhausted; use basic mode", "the basic plan is exhausted; use basic mode"},
		{"invalid bearer token: Bearer tokenTOKEN and bearer abcdefghijklmnopqrstu", "invalid bearer token: Bearer " + r + " and bearer " + r},
		{"Request had invalid bearer token. Upgrade from the basic plan.", "Request had invalid bearer token. Upgrade from the basic plan."},
		{"sent bearer abc123.", "sent bearer " + r + "."},
		{`{"Authorization": "Bearer opensesame"}`, `{"Authorization": "Bearer ` + r + `"}`},
		{"Authorization = Bearer opensesame", "Authorization = Bearer " + r},
		{"Basic dXNlcjpwYXNz rejected", "Basic " + r + " rejected"},
		{"key sk-proj-AbCdEf0123456789xyz is invalid", "key " + r + " is invalid"},
		{"sk-short stays", "sk-short stays"},
		{"id AKIAIOSFODNN7EXAMPLE used", "id " + r + " used"},
		{"AKIAIOSFODNN7EXAMPL is too short", "AKIAIOSFODNN7EXAMPL is too short"},
		{"jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig-nat_ure end", "jwt " + r + " end"},
		{"GET https://alice:s3cret@api.example.com/v1 failed", "GET https://" + r + "@api.example.com/v1 failed"},
		{"postgres://user@db:5432/x", "postgres://" + r + "@db:5432/x"},
		{"GET /v1?model=x&api_key=abc123&n=2 failed", "GET /v1?model=x&api_key=" + r + "&n=2 failed"},
		{"https://s3/x?X-Amz-Signature=deadbeef&X-Amz-Date=1", "https://s3/x?X-Amz-Signature=" + r + "&X-Amz-Date=1"},
		{"token=abc password=hunter2 max_tokens=5", "token=" + r + " password=" + r + " max_tokens=5"},
		{"access_token=", "access_token="},
		{"mail me at bob@example.com about tokens", "mail me at bob@example.com about tokens"},
		{"", ""},
		{"plain text, nothing secret: 429 Too Many Requests", "plain text, nothing secret: 429 Too Many Requests"},
	} {
		if got := ScrubSecrets(c.in); got != c.want {
			t.Errorf("ScrubSecrets(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
		if got := ScrubSecrets(ScrubSecrets(c.in)); got != c.want {
			t.Errorf("ScrubSecrets is not idempotent on %q: %q", c.in, got)
		}
	}
}

// secrets are free-text values of each shape the built-in scrubber knows,
// each holding a marker that must not survive.
var secrets = []string{
	"Bearer zq9tok", "sk-zq9aaaaaaaaaaaaaaaaaa", "AKIAZQ9AAAAAAAAAAAAA", "eyJzq9.eyJzq9.zq9",
	"https://u:zq9@host/x", "https://u:zq9/x@host/x", "https://host/x?api_key=zq9&a=b", "password=zq9",
}

// TestScrubberEverywhere: with ScrubSecrets set, free text holding secrets
// leaves through no payload, wire form or log with the secret, wherever
// it stands: a text field, a message, the text of a foreign cause, a
// decoded error's message. Without a scrubber the same outputs hold the
// secret, so the test sees what it checks.
func TestScrubberEverywhere(t *testing.T) {
	text := strings.Join(secrets, " | ")
	build := func() []error {
		return []error{
			&ToolUnavailable{Tool: text, Reason: text, Alternatives: []string{text}},
			&ProviderTimeout{Cause: errors.New(text)},
			fmt.Errorf("wrapped %s: %w", text, &ServerError{Provider: text}),
			errors.New(text),
		}
	}
	leaks := func() []string {
		var found []string
		for _, err := range build() {
			var b bytes.Buffer
			slog.New(slog.NewJSONHandler(&b, nil)).Error("x", LogAttr(err))
			slog.New(slog.NewTextHandler(&b, nil)).Error("x", LogAttr(err))
			if c := find(err); c != nil {
				w, _ := json.Marshal(c)
				b.Write(w)
				if d, err := DecodePayload(w); err == nil {
					b.WriteString(d.LogValue().String())
				}
			}
			if p, ok := err.(interface{ LLMPayload() *Payload }); ok {
				w, _ := json.Marshal(p.LLMPayload())
				b.Write(w)
				b.Write(err.(interface{ AppendLLMPayload([]byte) []byte }).AppendLLMPayload(nil))
			}
			if strings.Contains(b.String(), "zq9") {
				found = append(found, b.String())
			}
		}
		return found
	}
	if len(leaks()) != len(build()) {
		t.Fatalf("without a scrubber, every output should hold the secrets; the test cannot see a leak")
	}
	SetScrubber(ScrubSecrets)
	t.Cleanup(func() { SetScrubber(nil) })
	for _, l := range leaks() {
		t.Errorf("a secret survived the scrubber:\n%s", l)
	}
	SetScrubber(func(s string) string { return strings.ReplaceAll(s, "zq9", "___") })
	for _, l := range leaks() {
		t.Errorf("a secret survived a custom scrubber:\n%s", l)
	}
}

// TestScrubberOncePerPath: json.Marshal(err.LLMPayload()) and
// AppendLLMPayload write the same bytes with a scrubber set, one that
// changes what it has already changed included: each value is scrubbed
// once, and the catalogue's own payload type, category and code not at
// all. A payload read from JSON, whose values nothing has scrubbed, is
// scrubbed when it is written.
func TestScrubberOncePerPath(t *testing.T) {
	SetScrubber(func(s string) string {
		s = strings.ReplaceAll(s, "zq9", "zq9!")
		return strings.ReplaceAll(s, "tool", "TOOL")
	})
	t.Cleanup(func() { SetScrubber(nil) })
	for _, e := range append(errgenExamples(),
		&ToolUnavailable{Tool: "zq9", Reason: "zq9 tool", Alternatives: []string{"zq9"}},
		&ProviderTimeout{Cause: errors.New("zq9")},
		&ModelCallFailed{Cause: &ProviderTimeout{Cause: errors.New("zq9")}},
	) {
		a, ok := e.(interface{ AppendLLMPayload([]byte) []byte })
		if !ok {
			continue // a family without a payload
		}
		direct := string(a.AppendLLMPayload(nil))
		p := e.(interface{ LLMPayload() *Payload }).LLMPayload()
		if got := string(mustMarshal(t, p)); got != direct {
			t.Errorf("%s: json.Marshal(LLMPayload()) = %s\nAppendLLMPayload = %s", e.Code(), got, direct)
		}
		if strings.Contains(direct, "zq9!!") || strings.Contains(direct, `"tool_error"`) != (p.Type == "tool_error") {
			t.Errorf("%s: scrubbed twice, or the catalogue's own text scrubbed: %s", e.Code(), direct)
		}
	}
	for _, c := range []struct{ in, want string }{
		{ // the catalogue's own code: its type, category and code as they are
			`{"type":"tool_error","category":"timeout","code":"tool_timeout","code_num":1004,"error":"zq9","tool":"zq9"}`,
			`{"type":"tool_error","category":"timeout","code":"tool_timeout","code_num":1004,"error":"zq9!","retryable":false,"suppress_retry":false,"tool":"zq9!"}`,
		},
		{ // a code the catalogue does not know: the sender's text, scrubbed,
			// but for the names the catalogue has (a payload type, a category)
			`{"type":"tool_error","category":"timeout","code":"tool_gone","code_num":1099,"error":"zq9","tool":"zq9"}`,
			`{"type":"tool_error","category":"timeout","code":"TOOL_gone","code_num":1099,"error":"zq9!","retryable":false,"suppress_retry":false,"tool":"zq9!"}`,
		},
	} {
		var p Payload
		if err := json.Unmarshal([]byte(c.in), &p); err != nil {
			t.Fatal(err)
		}
		if got := string(mustMarshal(t, p)); got != c.want {
			t.Errorf("a payload read from JSON:\n got %s\nwant %s", got, c.want)
		}
	}
}

// FuzzScrubber: whatever the free text and whatever the scrubber returns
// for it, the payload and wire form stay valid JSON with the same keys in
// the same order as without a scrubber, and with ScrubSecrets a token
// behind "Bearer " is gone.
func FuzzScrubber(f *testing.F) {
	for _, s := range secrets {
		f.Add(s, "tok")
	}
	f.Add("\xff\"\\", "a.b")
	f.Fuzz(func(t *testing.T, text, token string) {
		token = strings.Map(func(r rune) rune {
			if r < 128 && (r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
				return r
			}
			return -1
		}, token)
		plain := !strings.Contains(text, "zq9")
		text = text + " Bearer zq9" + token + " " + text
		e := &ToolUnavailable{Tool: text, Reason: text, Alternatives: []string{text}}
		keys := func() [][]string {
			return [][]string{jsonKeys(t, e.AppendLLMPayload(nil)), jsonKeys(t, mustMarshal(t, e.LLMPayload())), jsonKeys(t, mustMarshal(t, e))}
		}
		want := keys()
		defer SetScrubber(nil)
		for _, s := range []func(string) string{ScrubSecrets, func(s string) string { return s + "\x00\"\xff" + text }, func(string) string { return "" }} {
			SetScrubber(s)
			if got := keys(); !reflect.DeepEqual(got, want) {
				t.Fatalf("keys with a scrubber %v, want %v", got, want)
			}
		}
		SetScrubber(ScrubSecrets)
		if b := e.AppendLLMPayload(nil); plain && bytes.Contains(b, []byte("zq9"+token+" ")) {
			t.Fatalf("the bearer token survived: %s", b)
		}
	})
}

// jsonKeys returns the keys of a JSON object in order, failing on JSON
// that encoding/json does not accept.
func jsonKeys(t *testing.T, b []byte) []string {
	t.Helper()
	if !json.Valid(b) {
		t.Fatalf("invalid JSON: %q", b)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	var keys []string
	depth := 0
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch tok := tok.(type) {
		case json.Delim:
			if tok == '{' || tok == '[' {
				depth++
			} else {
				depth--
			}
		case string:
			if depth == 1 {
				keys = append(keys, tok)
				// Skip the value.
				var v json.RawMessage
				if err := d.Decode(&v); err != nil {
					t.Fatalf("%s: %v", b, err)
				}
			}
		}
	}
	return keys
}

// TestScrubSecretsQuotedAndEdgeShapes: quoted values keep their quotes, a
// password holding an @ goes entirely, and Google keys and SAS signatures
// are caught.
func TestScrubSecretsQuotedAndEdgeShapes(t *testing.T) {
	const r = Redacted
	for in, want := range map[string]string{
		`login failed: password="hunter2" for bob`:         `login failed: password="` + r + `" for bob`,
		`config token='abc' loaded`:                        `config token='` + r + `' loaded`,
		"https://u:p@ss@host/x":                            "https://" + r + "@host/x",
		"postgres://app:pa/ss@db:5432/x failed":            "postgres://" + r + "@db:5432/x failed",
		"https://u:p?w#d@host/x":                           "https://" + r + "@host/x",
		"http://localhost:8080/x?mail=a@b.example":         "http://localhost:8080/x?mail=a@b.example",
		"https://host:443/users/@bob":                      "https://host:443/users/@bob",
		"key AIzaSyA1234567890abcdefghijklmnopqrstuv used": "key " + r + " used",
		"https://acct.blob/x?sv=2022&sig=abc%2Bdef":        "https://acct.blob/x?sv=2022&sig=" + r,
		`name="bob"`: `name="bob"`,
	} {
		if got := ScrubSecrets(in); got != want {
			t.Errorf("ScrubSecrets(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

// TestDecodedSecretsAreNotPassedOn: a payload from a sender that still
// sends a sensitive field, and a decoded error whose text holds a secret,
// pass on neither: not in the decoded payload, its wire form, a wrapper's
// wire form or a projection, with the scrubber set for the text.
func TestDecodedSecretsAreNotPassedOn(t *testing.T) {
	SetScrubber(ScrubSecrets)
	t.Cleanup(func() { SetScrubber(nil) })
	known, err := DecodePayload([]byte(`{"category":"auth","code":"auth_failed","code_num":2002,"error":"refused","retryable":false,"suppress_retry":false,"provider":"openai","api_key":"zq9secret"}`))
	if err != nil {
		t.Fatal(err)
	}
	unknown, err := DecodePayload([]byte(`{"code":"brand_new","code_num":9999,"error":"GET failed: Authorization: Bearer zq9tokentokentoken","note":"token=zq9tok"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*RemoteError{known, unknown} {
		outs := []string{mustString(json.Marshal(r)), mustString(json.Marshal(r.Payload)), mustString(json.Marshal(&ProviderTimeout{Cause: r}))}
		for _, p := range projectAll(r) {
			outs = append(outs, string(p.data))
		}
		for _, out := range outs {
			if strings.Contains(out, "zq9") {
				t.Errorf("%s: a secret passed on: %s", r.Code(), out)
			}
			if !json.Valid([]byte(out)) {
				t.Errorf("%s: invalid JSON: %s", r.Code(), out)
			}
		}
	}
	var af *AuthFailed
	if !errors.As(known, &af) || af.APIKey != "" || af.Provider != "openai" {
		t.Errorf("decoded %#v", af)
	}
}

// TestScrubberReachesDecodedNames: a decoded error's code, category and
// payload type are the sender's text, as free as its message; each
// output that writes them (its log value, its payload and wire form, each
// projection, a wrapper's wire form, projections and log) writes them
// through the scrubber, as it writes the rest. Code and Category keep
// what was sent, for the program, as Error does. Without a scrubber the
// same outputs hold the secret, so the test sees what it checks.
func TestScrubberReachesDecodedNames(t *testing.T) {
	const secret = "sk-zq9abcdefghijklmnopqrstuvwxyz"
	errs := func() map[string]error {
		unknown, err := DecodePayload([]byte(`{"code":"` + secret + `","code_num":1,"category":"` + secret + `","error":"e","retryable":false}`))
		if err != nil {
			t.Fatal(err)
		}
		// A code this catalogue knows decodes to its variant, whose
		// category is the catalogue's; the payload keeps the one sent.
		known, err := DecodePayload([]byte(`{"category":"` + secret + `","code":"rate_limited","code_num":2001,"error":"e","retryable":true,"suppress_retry":false}`))
		if err != nil {
			t.Fatal(err)
		}
		return map[string]error{"an unknown code": unknown, "a known code": known,
			"built by hand": &RemoteError{Payload: Payload{Type: secret, Category: secret, Code: secret, CodeNum: 1, Error: "e"}}}
	}
	outputs := func(err error) map[string]string {
		r := err.(*RemoteError)
		wrapped := &ProviderTimeout{Cause: r}
		outs := map[string]string{"log": logLine(LogAttr(r)), "LogValue": r.LogValue().String(),
			"wire form": mustString(json.Marshal(r)), "payload": mustString(json.Marshal(r.Payload)),
			"wrapped": mustString(json.Marshal(wrapped)), "log wrapped": logLine(LogAttr(wrapped)),
			"log wrapped by fmt": logLine(LogAttr(fmt.Errorf("turn: %w", r)))}
		for _, p := range projectAll(r) {
			outs[p.name] = string(p.data)
		}
		for _, p := range projectAll(wrapped) {
			outs[p.name+" wrapped"] = string(p.data)
		}
		return outs
	}
	for name, err := range errs() {
		if CodeOf(err) == secret && !strings.Contains(outputs(err)["problem"], "zq9") {
			t.Fatalf("%s: without a scrubber the problem document should hold the code; the test cannot see a leak", name)
		}
	}
	SetScrubber(ScrubSecrets)
	t.Cleanup(func() { SetScrubber(nil) })
	for name, err := range errs() {
		for out, s := range outputs(err) {
			if strings.Contains(s, "zq9") {
				t.Errorf("%s: %s holds the secret: %s", name, out, s)
			}
		}
		r := err.(*RemoteError)
		if name != "a known code" && (r.Code() != secret || CodeOf(r) != secret || r.Category() != secret) {
			t.Errorf("%s: Code %q, CodeOf %q, Category %q; want what was sent", name, r.Code(), CodeOf(r), r.Category())
		}
	}
}

// TestNestedDecodedSecretsAreNotPassedOn: a sensitive field an older
// sender still sends inside a cause, at any depth, is dropped as one at
// the top is: not in Raw, the decoded payload's fields, the wire form, a
// wrapper's wire form, a log or a projection; what is not sensitive stays,
// in the order it came.
func TestNestedDecodedSecretsAreNotPassedOn(t *testing.T) {
	const auth = `{"category":"auth","code":"auth_failed","code_num":2002,"error":"provider openai refused the credentials","retryable":false,"suppress_retry":false,"provider":"openai","api_key":"zq9key","headers":["zq9header"]}`
	const model = `{"category":"model","code":"model_call_failed","code_num":3001,"error":"model call failed: provider openai refused the credentials","retryable":false,"suppress_retry":false,"cause":` + auth + `,"provider":"openai"}`
	for name, data := range map[string]string{
		"a cause":          model,
		"a cause's cause":  `{"category":"model","code":"operator_failed","code_num":3099,"error":"operator failed: model call failed: provider openai refused the credentials","retryable":false,"suppress_retry":false,"cause":` + model + `}`,
		"a cause's fields": `{"category":"model","code":"model_call_failed","code_num":3001,"error":"x","retryable":false,"suppress_retry":false,"provider":"openai","cause":` + auth + `}`,
		// A newer sender's wrapper, whose code this catalogue does not
		// know, around an error it does know.
		"an unknown code's member":         `{"code":"brand_new","code_num":9999,"error":"x","retryable":false,"cause":` + auth + `}`,
		"an unknown code's member's cause": `{"code":"brand_new","code_num":9999,"error":"x","retryable":false,"inner":{"code":"newer_still","error":"y","cause":` + model + `}}`,
		"an unknown code's list":           `{"code":"brand_new","code_num":9999,"error":"x","retryable":false,"causes":[1,` + auth + `,{"detail":{"inner":` + auth + `}}]}`,
		// A newer sender's member of a code this catalogue knows.
		"a known code's undeclared member": `{"category":"model","code":"model_call_failed","code_num":3001,"error":"x","retryable":false,"suppress_retry":false,"provider":"openai","also":` + auth + `}`,
	} {
		r, err := DecodePayload([]byte(data))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		outs := map[string]string{"Raw": string(r.Raw), "json.Marshal": mustString(json.Marshal(r)),
			"json.Marshal of the payload": mustString(json.Marshal(r.Payload)),
			"wrapped":                     mustString(json.Marshal(&ProviderTimeout{Cause: r})), "log": logLine(LogAttr(r)),
			"log wrapped": logLine(LogAttr(&ProviderTimeout{Cause: r}))}
		for _, f := range r.Payload.Fields {
			outs["field "+f.Name] = string(f.Value)
		}
		for _, p := range projectAll(r) {
			outs[p.name] = string(p.data)
		}
		for _, p := range projectAll(&ProviderTimeout{Cause: r}) {
			outs[p.name+" wrapped"] = string(p.data)
		}
		for out, s := range outs {
			if strings.Contains(s, "zq9") {
				t.Errorf("%s: %s passes on a sensitive value: %s", name, out, s)
			}
		}
		var af *AuthFailed
		if strings.HasPrefix(name, "an unknown code") || name == "a known code's undeclared member" {
			// Nothing typed to look into: its members are what it passes on.
		} else if !errors.As(r, &af) || af.Provider != "openai" || af.APIKey != "" || af.Headers != nil {
			t.Errorf("%s: decoded %#v", name, af)
		}
		// Only the sensitive members are gone: the rest keep their order.
		want := strings.NewReplacer(`,"api_key":"zq9key","headers":["zq9header"]`, "").Replace(data)
		if string(r.Raw) != want {
			t.Errorf("%s: Raw\n got %s\nwant %s", name, r.Raw, want)
		}
	}
}

func mustString(b []byte, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return string(b)
}

// TestScrubLogValue: the log value of another package's error, which that
// package's own scrubber made, is scrubbed here too: its text, its list
// fields, a passed-on wire form and a nested cause; nothing changes
// without a scrubber.
func TestScrubLogValue(t *testing.T) {
	secret := "Bearer zq9tokenvalue"
	v := slog.GroupValue(slog.String("error", "call failed: "+secret), slog.Int("num", 7),
		slog.Any("hosts", []string{"a", secret}),
		slog.Any("raw", json.RawMessage(`{"error":"`+secret+`"}`)),
		slog.Group("cause", slog.String("error", secret)))
	text := func(v slog.Value) string {
		var buf bytes.Buffer
		noTime := func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		}
		slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{ReplaceAttr: noTime})).Info("", "v", v)
		return buf.String()
	}
	if got := text(scrubLogValue(v)); got != text(v) {
		t.Errorf("without a scrubber:\n%s\nwant\n%s", got, text(v))
	}
	SetScrubber(ScrubSecrets)
	defer SetScrubber(nil)
	got := text(scrubLogValue(v))
	if strings.Contains(got, "zq9") || strings.Count(got, Redacted) != 4 || !strings.Contains(got, `"num":7`) {
		t.Errorf("scrubbed: %s", got)
	}
}

// TestSecretsOfUndecodableErrorsAreLeftOut: an error of a code this
// catalogue knows, inside a member no field declares, loses its sensitive
// fields also when it does not decode as that error (a key given twice,
// the code given twice, a field of the wrong type) and however deep it
// nests, past the depth causes are decoded to.
func TestSecretsOfUndecodableErrorsAreLeftOut(t *testing.T) {
	auth := func(extra string) string {
		return `{"category":"auth","code":"auth_failed","code_num":2002,"error":"x","retryable":false,"suppress_retry":false,` + extra + `"api_key":"zq9secret"}`
	}
	for name, member := range map[string]string{
		"a key given twice":         auth(`"provider":"a","provider":"b",`),
		"the secret given twice":    auth(`"provider":"a","api_key":"zq9secret",`),
		"the code given twice":      `{"code":"from_the_future","code":"auth_failed","api_key":"zq9secret"}`,
		"a field of the wrong type": auth(`"provider":5,`),
		"in 99 arrays":              strings.Repeat("[", 99) + auth(`"provider":"a",`) + strings.Repeat("]", 99),
		"under 150 objects":         strings.Repeat(`{"a":`, 150) + auth(`"provider":"a",`) + strings.Repeat("}", 150),
		"causes nested too deep":    strings.Repeat(`{"code":"model_call_failed","code_num":3001,"cause":`, maxChain) + auth(`"provider":"a",`) + strings.Repeat("}", maxChain),
	} {
		r, err := DecodePayload([]byte(`{"code":"newer_code","code_num":9001,"error":"e","retryable":false,"detail":` + member + `}`))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var log bytes.Buffer
		slog.New(slog.NewJSONHandler(&log, nil)).Error("failed", "err", r)
		for what, out := range map[string][]byte{"wire form": mustMarshal(t, r), "payload": mustMarshal(t, r.Payload), "log": log.Bytes(), "agent response": AgentResponse(r)} {
			if bytes.Contains(out, []byte("zq9secret")) {
				t.Errorf("%s: the %s passes the secret on: %.300s", name, what, out)
			}
		}
	}
}

// TestPayloadUnmarshalLeavesSecretsOut: json.Unmarshal into a Payload
// leaves out what DecodePayload leaves out: a sensitive field of the code,
// and one of an error of a known code nested in another member, so a
// relay that marshals the Payload again sends no secret on.
func TestPayloadUnmarshalLeavesSecretsOut(t *testing.T) {
	auth := `{"category":"auth","code":"auth_failed","code_num":2002,"error":"refused","retryable":false,"suppress_retry":false,"provider":"openai","api_key":"zq9secret"}`
	for name, in := range map[string]string{
		"the code's own field":       auth,
		"in an undeclared member":    `{"code":"newer_code","code_num":9001,"error":"e","retryable":false,"detail":{"list":[` + auth + `]}}`,
		"in a cause of a known code": `{"category":"model","code":"model_call_failed","code_num":3001,"error":"e","retryable":false,"suppress_retry":false,"cause":` + auth + `}`,
	} {
		var p Payload
		if err := json.Unmarshal([]byte(in), &p); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if out := mustMarshal(t, p); bytes.Contains(out, []byte("zq9secret")) {
			t.Errorf("%s: the payload passes the secret on: %s", name, out)
		}
		r, err := DecodePayload([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, want := mustMarshal(t, p), mustMarshal(t, r.Payload); !bytes.Equal(got, want) {
			t.Errorf("%s: json.Unmarshal gives\n %s\nDecodePayload\n %s", name, got, want)
		}
	}
}

// TestScrubberKeepsTheCatalogueNames: a scrubber that would change a code,
// category or payload type of the catalogue ("auth" in auth_failed) leaves
// them as they are, in a decoded error's wire form (written again from
// what arrived) and in every projection, so the next decoder knows the
// error; the other texts are scrubbed.
func TestScrubberKeepsTheCatalogueNames(t *testing.T) {
	t.Cleanup(func() { SetScrubber(nil) })
	e := &AuthFailed{Provider: "auth-proxy"}
	wire := mustMarshal(t, e)
	SetScrubber(func(s string) string { return strings.ReplaceAll(s, "auth", "[REDACTED]") })
	d, err := DecodePayload(wire)
	if err != nil {
		t.Fatal(err)
	}
	problem, _ := ProblemJSON(d, "")
	for name, c := range map[string]struct {
		out    []byte
		decode func([]byte) (*RemoteError, error)
	}{
		"wire form":      {mustMarshal(t, d), DecodePayload},
		"agent response": {AgentResponse(d), DecodeAgentResponse},
		"problem":        {problem, DecodeProblem},
		"grpc":           {GRPCStatusJSON(d), DecodeGRPCStatusJSON},
	} {
		if bytes.Contains(c.out, []byte("auth-proxy")) {
			t.Errorf("%s: the field was not scrubbed: %s", name, c.out)
		}
		r, err := c.decode(c.out)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.Code() != CodeAuthFailed || r.Category() != CategoryAuth {
			t.Errorf("%s: decoded as %s in %s, want auth_failed in auth: %s", name, r.Code(), r.Category(), c.out)
		}
	}
}
