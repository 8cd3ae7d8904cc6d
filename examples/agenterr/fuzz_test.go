// This file is written by hand, not generated: errgen never deletes or
// overwrites a file without its generated-file line. It fuzzes the payloads
// of the reference catalogue's variants through the generated package's
// exported API; the runtime's own encoders are fuzzed in errgen's
// gen/golang/runtime.

package agenterr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/model"
)

// payloadError is the exported API of a variant whose family sends an LLM
// payload.
type payloadError interface {
	error
	Code() Code
	CodeNum() int
	Category() Category
	UserMessage() string
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
// the hints (the instance's where it may set them, else the catalogue's)
// and static required fields; json.Marshal(LLMPayload()) agrees; appending to a
// non-empty buffer appends the same bytes; the JSON is valid and, for valid
// UTF-8, decodes with DecodePayload to the same code and retryability and
// re-encodes to the same bytes.
func FuzzPayloadVariant(f *testing.F) {
	type seed struct {
		s1, s2, s3 string
		n          int64
		x          float64
		b          bool
	}
	seeds := []seed{
		{"terminal", "macos_automation", "Automation consent could not be determined.", 30, 2.5, true},
		{"", "", "", 0, 0, false},
		// The literal -0.0 is a constant, and Go constants have no negative
		// zero: it would be 0 again. encoding/json writes -0 for it.
		{"<script>&", "\u2028", "\"\\\x00\x1f", -1, math.Copysign(0, -1), true},
		{"\xff\xfe", "é日本😀", "a\xc3", math.MaxInt64, math.Inf(-1), false},
		{"{tool}", "%v %s", "{{code}}", math.MinInt64, 1e-7, true},
	}
	if !slices.ContainsFunc(seeds, func(s seed) bool { return s.x == 0 && math.Signbit(s.x) }) {
		f.Fatal("no seed holds a negative zero")
	}
	for _, s := range seeds {
		f.Add(s.s1, s.s2, s.s3, s.n, s.x, s.b)
	}
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
			var back Payload
			if err := json.Unmarshal(fast, &back); err != nil || !bytes.Equal(back.AppendJSON(nil), fast) {
				t.Fatalf("%s: json.Unmarshal of the payload: %v", v.Code(), err)
			}
			// The wire form carries every field: the variant decoded from
			// it encodes the same bytes.
			wire, err := json.Marshal(v)
			if err != nil || !json.Valid(wire) {
				t.Fatalf("%s: wire form %s: %v", v.Code(), wire, err)
			}
			rw, err := DecodePayload(wire)
			if err != nil {
				t.Fatalf("%s: DecodePayload(wire form): %v", v.Code(), err)
			}
			// NaN and infinities travel as null, which reads back as 0.
			if again, err := json.Marshal(rw.Unwrap()); err != nil || (!bytes.Equal(again, wire) && !math.IsNaN(x) && !math.IsInf(x, 0)) {
				t.Fatalf("%s: the wire form does not round-trip:\n%s\n%s", v.Code(), wire, again)
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
// from the getters, then the variant's payload fields (read by reflection,
// named and chosen as the reference catalogue says, left out when zero as
// omitempty does; a duration as integer nanoseconds), then the hints the
// catalogue gives the code.
func plainPayload(t *testing.T, v payloadError) []byte {
	t.Helper()
	in, ok := Lookup(v.Code())
	if !ok {
		t.Fatalf("Lookup(%q) finds nothing", v.Code())
	}
	head, err := json.Marshal(struct {
		Type           string   `json:"type"`
		Category       Category `json:"category"`
		Code           Code     `json:"code"`
		CodeNum        int      `json:"code_num"`
		Error          string   `json:"error"`
		Retryable      bool     `json:"retryable"`
		SuppressRetry  bool     `json:"suppress_retry"`
		SuppressionKey string   `json:"suppression_key,omitempty"`
	}{in.PayloadType, v.Category(), v.Code(), v.CodeNum(), v.Error(), v.Retryable(), v.SuppressRetry(), v.SuppressionKey()})
	if err != nil {
		t.Fatal(err)
	}
	out := head[:len(head)-1]
	st := reflect.ValueOf(v).Elem()
	for _, f := range referenceVariant(t, string(in.Code)).PayloadFields() {
		fv := st.FieldByName(f.GoName)
		if fv.IsZero() || (fv.Kind() == reflect.Slice && fv.Len() == 0) {
			continue
		}
		val, err := json.Marshal(fv.Interface())
		if err != nil {
			t.Fatal(err)
		}
		key, _ := json.Marshal(f.Name)
		out = append(append(append(append(out, ','), key...), ':'), val...)
	}
	// An instance's hint, where the variant lets it set one, replaces the
	// catalogue's.
	hint := func(field, static string) string {
		if fv := st.FieldByName(field); fv.IsValid() && fv.String() != "" {
			return fv.String()
		}
		return static
	}
	hints, err := json.Marshal(struct {
		SuggestedTool   string   `json:"suggested_tool,omitempty"`
		SuggestedAction string   `json:"suggested_action,omitempty"`
		RequiredFields  []string `json:"required_fields,omitempty"`
		UsageHint       string   `json:"usage_hint,omitempty"`
	}{hint("SuggestedTool", in.SuggestedTool), hint("SuggestedAction", in.SuggestedAction), in.RequiredFields, in.UsageHint})
	if err != nil {
		t.Fatal(err)
	}
	if inner := hints[1 : len(hints)-1]; len(inner) > 0 {
		out = append(append(out, ','), inner...)
	}
	return append(out, '}')
}

// reference is the model of the catalogue this package is generated from,
// read once: which fields of a variant the payload sends, under what name.
var reference = sync.OnceValues(func() (*model.Catalogue, error) {
	src, err := os.ReadFile("../../errors.yaml")
	if err != nil {
		return nil, err
	}
	m, diags := gen.Parse("errors.yaml", src)
	if m == nil {
		return nil, fmt.Errorf("%v", diags)
	}
	return m, nil
})

// referenceVariant returns the model of the variant with the given code.
func referenceVariant(t *testing.T, code string) *model.Variant {
	m, err := reference()
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range m.Variants {
		if v.Code == code {
			return v
		}
	}
	t.Fatalf("the reference catalogue has no variant %q", code)
	return nil
}
