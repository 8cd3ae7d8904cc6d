// This file is written by hand, not generated: errgen never deletes or
// overwrites a file without its generated-file line. It fuzzes the JSON
// encoder of the runtime every generated package carries. It reaches into
// the runtime only for appendString, appendStrings and appendFloat; the rest
// goes through the generated package's exported API, so the runtime's
// internals may change freely.

package agenterr

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"
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

// payloadError is the exported API of a variant whose family sends an LLM
// payload.
type payloadError interface {
	error
	Code() string
	CodeNum() int
	Category() string
	Retryable() bool
	SuppressRetry() bool
	SuppressionKey() string
	LLMPayload() *Payload
	AppendLLMPayload(dst []byte) []byte
}

// FuzzPayloadVariant sets the fields of every example variant to fuzzed
// values and holds its payload to encoding/json: AppendLLMPayload, which
// renders the message and suppression key straight into the buffer and
// escapes them in place, gives exactly the bytes json.Marshal gives for the
// header built from the getters, the variant's tagged payload fields and
// the catalogue's hints; json.Marshal(LLMPayload()) agrees; appending to a
// non-empty buffer appends the same bytes; the JSON is valid and, for valid
// UTF-8, decodes with DecodePayload to the same code and retryability and
// re-encodes to the same bytes.
func FuzzPayloadVariant(f *testing.F) {
	f.Add("terminal", "macos_automation", "Automation consent could not be determined.", int64(30), 2.5, true)
	f.Add("", "", "", int64(0), 0.0, false)
	f.Add("<script>&", "\u2028", "\"\\\x00\x1f", int64(-1), -0.0, true)
	f.Add("\xff\xfe", "é日本😀", "a\xc3", int64(math.MaxInt64), math.Inf(-1), false)
	f.Add("{tool}", "%v %s", "{{code}}", int64(math.MinInt64), 1e-7, true)
	f.Fuzz(func(t *testing.T, s1, s2, s3 string, n int64, x float64, b bool) {
		strs := []string{s1, s2, s3}
		for _, ex := range errgenExamples() {
			v, ok := fill(ex, strs, n, x, b).(payloadError)
			if !ok {
				continue
			}
			fast := v.AppendLLMPayload(nil)
			want := plainPayload(t, v)
			if !bytes.Equal(fast, want) {
				t.Fatalf("%s: AppendLLMPayload differs from encoding/json:\n%s\n%s", v.Code(), fast, want)
			}
			if !json.Valid(fast) {
				t.Fatalf("%s: payload is not valid JSON: %s", v.Code(), fast)
			}
			slow, err := json.Marshal(v.LLMPayload())
			if err != nil || !bytes.Equal(slow, fast) {
				t.Fatalf("%s: json.Marshal(LLMPayload()) differs (%v):\n%s\n%s", v.Code(), err, slow, fast)
			}
			prefix := append(make([]byte, 0, 64), "[1,"...)
			if more := v.AppendLLMPayload(prefix); string(more) != "[1,"+string(fast) {
				t.Fatalf("%s: AppendLLMPayload onto a non-empty buffer:\n%s\nwant [1,%s", v.Code(), more, fast)
			}
			// Invalid UTF-8 decodes as U+FFFD and re-encodes as itself,
			// not as the escape; each string is checked on its own, since
			// two invalid halves can join into a valid character.
			if !utf8.ValidString(s1) || !utf8.ValidString(s2) || !utf8.ValidString(s3) {
				continue
			}
			r, err := DecodePayload(fast)
			if err != nil {
				t.Fatalf("%s: DecodePayload: %v", v.Code(), err)
			}
			if r.Code() != v.Code() || r.Retryable() != v.Retryable() {
				t.Fatalf("%s: decoded as %s, retryable %v", v.Code(), r.Code(), r.Retryable())
			}
			if again := r.Payload.AppendJSON(nil); !bytes.Equal(again, fast) {
				t.Fatalf("%s: decoded payload re-encodes differently:\n%s\n%s", v.Code(), again, fast)
			}
		}
	})
}

// fill returns a copy of the example ex (a pointer to a variant struct)
// with every field it can set replaced by a fuzzed value: text fields take
// the strings in turn, lists take all of them, numbers take n or x, error
// causes take a plain error of the third string. Causes of a family's type
// keep their example.
func fill(ex any, strs []string, n int64, x float64, b bool) any {
	rv := reflect.New(reflect.TypeOf(ex).Elem())
	rv.Elem().Set(reflect.ValueOf(ex).Elem())
	st := rv.Elem()
	k := 0
	errType := reflect.TypeOf((*error)(nil)).Elem()
	for i := 0; i < st.NumField(); i++ {
		fv := st.Field(i)
		if !fv.CanSet() {
			continue
		}
		switch {
		case fv.Type() == reflect.TypeOf(time.Duration(0)):
			fv.SetInt(n)
		case fv.Type() == errType:
			fv.Set(reflect.ValueOf(errors.New(strs[2])))
		case fv.Kind() == reflect.String:
			fv.SetString(strs[k%len(strs)])
			k++
		case fv.Kind() == reflect.Slice && fv.Type().Elem().Kind() == reflect.String:
			fv.Set(reflect.ValueOf(append([]string(nil), strs...)))
		case fv.Kind() == reflect.Bool:
			fv.SetBool(b)
		case fv.CanInt():
			fv.SetInt(n)
		case fv.CanUint():
			fv.SetUint(uint64(n))
		case fv.CanFloat():
			fv.SetFloat(x)
		}
	}
	return rv.Interface()
}

// plainPayload encodes v's payload with encoding/json alone: the header
// from the getters, then the variant's own fields (its struct tags send the
// payload fields with omitempty and leave the others out), then the hints
// the catalogue gives the code.
func plainPayload(t *testing.T, v payloadError) []byte {
	t.Helper()
	in, ok := Lookup(v.Code())
	if !ok {
		t.Fatalf("Lookup(%q) finds nothing", v.Code())
	}
	head, err := json.Marshal(struct {
		Type           string `json:"type"`
		Category       string `json:"category"`
		Code           string `json:"code"`
		CodeNum        int    `json:"code_num"`
		Error          string `json:"error"`
		Retryable      bool   `json:"retryable"`
		SuppressRetry  bool   `json:"suppress_retry"`
		SuppressionKey string `json:"suppression_key,omitempty"`
	}{in.PayloadType, v.Category(), v.Code(), v.CodeNum(), v.Error(), v.Retryable(), v.SuppressRetry(), v.SuppressionKey()})
	if err != nil {
		t.Fatal(err)
	}
	fields, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	hints, err := json.Marshal(struct {
		SuggestedTool   string `json:"suggested_tool,omitempty"`
		SuggestedAction string `json:"suggested_action,omitempty"`
		UsageHint       string `json:"usage_hint,omitempty"`
	}{in.SuggestedTool, in.SuggestedAction, in.UsageHint})
	if err != nil {
		t.Fatal(err)
	}
	out := head[:len(head)-1]
	for _, obj := range [][]byte{fields, hints} {
		if inner := obj[1 : len(obj)-1]; len(inner) > 0 {
			out = append(append(out, ','), inner...)
		}
	}
	return append(out, '}')
}
