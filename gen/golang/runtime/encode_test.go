package runtime

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzPayloadString holds the runtime's JSON encoders to encoding/json: for
// any strings, appendString (of a string and of bytes, onto an empty and a
// non-empty buffer), appendStrings and appendFloat give exactly the bytes
// json.Marshal gives, the JSON is valid, and it decodes to the same
// strings, with each byte of invalid UTF-8 read as U+FFFD.
func FuzzPayloadString(f *testing.F) {
	seeds := []string{
		"", "plain", "\"quoted\" and \\back\\slash", "<b>&amp;</b>", "\u2028\u2029",
		"\x00\x01\x1f\x7f", "\t\n\r\b\f", "é日本😀", "\xff", "a\xc3", "\xed\xa0\x80",
		"\xf4\x90\x80\x80", "\xef\xbf\xbd", "\x1b[31mred\x1b[0m", "::error::forged",
		"%s %v {{x}} `tick`", strings.Repeat("\xe2\x80", 3),
	}
	for i, s := range seeds {
		f.Add(s, seeds[(i+1)%len(seeds)], float64(i)*1.5e-7)
	}
	f.Add("x", "y", math.Inf(1))
	f.Add("x", "y", math.NaN())
	f.Add("x", "y", math.Copysign(0, -1))
	f.Add("x", "y", 1e21)
	f.Add("x", "y", 5e-324)
	f.Add("x", "y", math.MaxFloat64)
	f.Fuzz(func(t *testing.T, s, s2 string, x float64) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		got := appendString(nil, s)
		if !bytes.Equal(got, want) {
			t.Fatalf("appendString(%q) = %s, json.Marshal = %s", s, got, want)
		}
		if b := appendString(nil, []byte(s)); !bytes.Equal(b, want) {
			t.Fatalf("appendString([]byte(%q)) = %s, json.Marshal = %s", s, b, want)
		}
		if !json.Valid(got) {
			t.Fatalf("appendString(%q) = %s is not valid JSON", s, got)
		}
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("appendString(%q) = %s does not decode: %v", s, got, err)
		}
		if back != jsonReplacement(s) {
			t.Fatalf("appendString(%q) decodes to %q, want %q", s, back, jsonReplacement(s))
		}

		// Behind other bytes, with and without spare capacity.
		for _, extra := range []int{0, len(s), 4 * len(s)} {
			dst := append(make([]byte, 0, 3+extra), "ab:"...)
			if q := appendString(dst, s); string(q) != "ab:"+string(want) {
				t.Fatalf("appendString(ab:, %q) = %s, want ab:%s", s, q, want)
			}
		}

		list := []string{s, s2}
		wantList, _ := json.Marshal(list)
		if got := appendStrings(nil, list); !bytes.Equal(got, wantList) {
			t.Fatalf("appendStrings(%q) = %s, json.Marshal = %s", list, got, wantList)
		}

		gotF := appendFloat(nil, x)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			if string(gotF) != "null" {
				t.Fatalf("appendFloat(%v) = %s, want null", x, gotF)
			}
		} else if wantF, err := json.Marshal(x); err != nil || !bytes.Equal(gotF, wantF) {
			t.Fatalf("appendFloat(%v) = %s, json.Marshal = %s (%v)", x, gotF, wantF, err)
		}
	})
}

// jsonReplacement is s as encoding/json decodes its encoding: each byte
// that is not part of valid UTF-8 becomes U+FFFD (strings.ToValidUTF8
// would replace a whole run of them with one).
func jsonReplacement(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		b.WriteRune(r)
		i += size
	}
	return b.String()
}

// TestCloseString checks the in-place quoting of rendered text against
// encoding/json, for every byte value at every position of texts that are
// shorter, as long as, and longer than a word.
func TestCloseString(t *testing.T) {
	for _, n := range []int{1, 7, 8, 9, 17, 30} {
		for pos := 0; pos < n; pos++ {
			for b := 0; b < 256; b++ {
				text := []byte(strings.Repeat("x", n))
				text[pos] = byte(b)
				want, _ := json.Marshal(string(text))
				dst := append([]byte(`{"error":"`), text...)
				got := closeString(dst, len(`{"error":"`))
				if string(got) != `{"error":`+string(want) {
					t.Fatalf("closeString(%q) = %s, want %s", text, got[len(`{"error":`):], want)
				}
			}
		}
	}
}

// TestSafePrefix puts every byte value at every position of a word of safe
// bytes: safePrefix may call a safe word unsafe, never an unsafe one safe.
func TestSafePrefix(t *testing.T) {
	for b := 0; b < 256; b++ {
		for pos := 0; pos < 8; pos++ {
			for _, fill := range []byte{'a', ' ', '~', '!', '=', '?'} {
				w := []byte(strings.Repeat(string(fill), 8))
				w[pos] = byte(b)
				if safePrefix(w) == 8 && !jsonSafe[b] {
					t.Fatalf("safePrefix(%q) passes it, but %#x needs escaping", w, b)
				}
			}
		}
	}
	if safePrefix([]byte("plain ok")) != 8 {
		t.Error("safePrefix refuses a plain ASCII word")
	}
}

// FuzzDecodePayload feeds DecodePayload and Payload's UnmarshalJSON any
// bytes: they never panic; what they accept is a JSON object whose known
// keys they read exactly; a decoded variant encodes to valid JSON that
// decodes again to the same code, and a decoded Payload re-encodes to valid
// JSON that reads back to the same Payload.
func FuzzDecodePayload(f *testing.F) {
	for _, e := range errgenExamples() {
		wire, err := json.Marshal(e)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(wire)
		if p, ok := e.(interface{ AppendLLMPayload([]byte) []byte }); ok {
			f.Add(p.AppendLLMPayload(nil))
		}
	}
	f.Add([]byte(`{"code":"x","code":"y"}`))
	f.Add([]byte(`{"code":"from_the_future","code_num":1,"cause":{"error":1}}`))
	f.Add([]byte(`{"category":"model","code":"model_call_failed","code_num":3001,"error":"x","retryable":true,"suppress_retry":false,"cause":{"category":"rate_limit","code":"rate_limited","code_num":2001,"error":"y","retryable":true,"suppress_retry":false,"retry_after":-5}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := DecodePayload(data)
		if err == nil {
			if !json.Valid(data) || !bytes.Equal(r.Raw, data) || r.Code() == "" {
				t.Fatalf("accepted %q: valid %v, raw %q, code %q", data, json.Valid(data), r.Raw, r.Code())
			}
			if v := r.Unwrap(); v != nil {
				again, err := json.Marshal(v)
				if err != nil || !json.Valid(again) {
					t.Fatalf("decoded %T encodes as %q (%v)", v, again, err)
				}
				back, err := DecodePayload(again)
				if err != nil || back.Code() != r.Code() {
					t.Fatalf("re-decoding %q: %v, %v", again, back, err)
				}
			}
			_ = r.Error()
			_ = r.UserMessage()
			_ = r.LogValue().String()
			_, _ = RetryAfterOf(r)
		}
		var p Payload
		if err := json.Unmarshal(data, &p); err == nil {
			out := p.AppendJSON(nil)
			if !json.Valid(out) {
				t.Fatalf("payload read from %q re-encodes as invalid JSON %q", data, out)
			}
			var again Payload
			if err := json.Unmarshal(out, &again); err != nil || string(again.AppendJSON(nil)) != string(out) {
				t.Fatalf("payload %q does not read back: %v", out, err)
			}
		}
	})
}
