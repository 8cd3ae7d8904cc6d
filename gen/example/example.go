// Package example renders a variant's example value the way the generated
// code does, without running it: its message, suppression key and LLM
// payload. errgen uses it to create the golden files of the generated tests
// and the examples of the reference docs; the generated tests then prove
// that the generated code agrees byte for byte.
package example

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/tmpl"
)

// Message renders the variant's message with its example values.
func Message(v *model.Variant) string { return render(v, v.Message) }

// SuppressionKey renders the variant's suppression key, "" when it has none.
func SuppressionKey(v *model.Variant) string { return render(v, v.SuppressionKey) }

// render formats each placeholder as fmt's %v formats the field's Go value.
func render(v *model.Variant, t tmpl.Template) string {
	var b strings.Builder
	for _, s := range t {
		switch {
		case s.Ref == "":
			b.WriteString(s.Lit)
		case s.Ref == "code":
			b.WriteString(v.Code)
		default:
			b.WriteString(Format(v.Field(s.Ref)))
		}
	}
	return b.String()
}

// Format returns the example value of f as %v prints it.
func Format(f *model.Field) string {
	x := f.Example
	switch f.Type.Kind {
	case model.String:
		return x.Str
	case model.Bool:
		return strconv.FormatBool(x.Bool)
	case model.Int, model.Int64:
		return strconv.FormatInt(x.Int, 10)
	case model.Uint64:
		return strconv.FormatUint(x.Uint, 10)
	case model.Float64:
		return strconv.FormatFloat(x.Float, 'g', -1, 64)
	case model.Duration:
		return x.Duration.String()
	case model.Strings:
		return "[" + strings.Join(x.List, " ") + "]"
	case model.Error:
		return x.Str
	case model.FamilyKind:
		if x.Variant == nil {
			return "<nil>"
		}
		return Message(x.Variant)
	}
	return ""
}

// isZero reports whether the example value of f is its type's zero value,
// which the payload leaves out.
func isZero(f *model.Field) bool {
	x := f.Example
	switch f.Type.Kind {
	case model.String:
		return x.Str == ""
	case model.Bool:
		return !x.Bool
	case model.Int, model.Int64:
		return x.Int == 0
	case model.Uint64:
		return x.Uint == 0
	case model.Float64:
		return x.Float == 0
	case model.Duration:
		return x.Duration == 0
	case model.Strings:
		return len(x.List) == 0
	}
	return true
}

// jsonValue is the value encoding/json encodes for a payload field.
func jsonValue(f *model.Field) any {
	x := f.Example
	switch f.Type.Kind {
	case model.String:
		return x.Str
	case model.Bool:
		return x.Bool
	case model.Int, model.Int64:
		return x.Int
	case model.Uint64:
		return x.Uint
	case model.Float64:
		return x.Float
	case model.Duration:
		return int64(x.Duration)
	case model.Strings:
		return x.List
	}
	return nil
}

// Payload returns the JSON payload of the variant's example, as compact
// JSON with keys in payload order, or nil when the family sends none.
func Payload(v *model.Variant) []byte {
	if !v.Family.HasPayload() {
		return nil
	}
	var b bytes.Buffer
	first := true
	put := func(key string, val any) {
		if !first {
			b.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(key)
		b.Write(k)
		b.WriteByte(':')
		data, err := json.Marshal(val)
		if err != nil {
			// Only NaN or an infinity fails, and examples are finite.
			data = []byte("null")
		}
		b.Write(data)
	}
	b.WriteByte('{')
	put("type", v.Family.PayloadType)
	put("category", v.Category)
	put("code", v.Code)
	put("code_num", v.Num)
	put("error", Message(v))
	put("retryable", retryable(v))
	put("suppress_retry", v.SuppressRetry)
	if key := SuppressionKey(v); key != "" {
		put("suppression_key", key)
	}
	for _, f := range v.PayloadFields() {
		if !isZero(f) {
			put(f.Name, jsonValue(f))
		}
	}
	for _, h := range []struct{ key, val string }{
		{"suggested_tool", v.SuggestedTool}, {"suggested_action", v.SuggestedAction}, {"usage_hint", v.UsageHint},
	} {
		if h.val != "" {
			put(h.key, h.val)
		}
	}
	b.WriteByte('}')
	return b.Bytes()
}

// retryable is what the example's Retryable method returns: from the cause
// when the variant says so and the example has a classified cause.
func retryable(v *model.Variant) bool {
	if v.RetryableFromCause && v.Cause != nil && v.Cause.Type.Kind == model.FamilyKind && v.Cause.Example.Variant != nil {
		return retryable(v.Cause.Example.Variant)
	}
	return v.Retryable
}

// Golden returns the contents of the variant's golden file: its code,
// number, message and payload, indented, as the generated test writes it.
func Golden(v *model.Variant) ([]byte, error) {
	g := struct {
		Code    string          `json:"code"`
		CodeNum int             `json:"code_num"`
		Error   string          `json:"error"`
		Payload json.RawMessage `json:"payload,omitempty"`
	}{v.Code, v.Num, Message(v), Payload(v)}
	out, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}
