// Package oracle computes what the generated code must produce for a
// variant's example values, without running it: its message, suppression
// key, user message and LLM payload, and so the golden files of the
// generated tests and the examples of the reference docs.
//
// It is deliberately a second implementation. It shares the model's
// meanings (the payload's key list, the user-message rule, the class) but
// not the runtime's encoder: values are formatted here as fmt's %v formats
// them and the payload is encoded with encoding/json, so a generated test
// that compares the runtime's bytes with the golden file catches a fault in
// either.
package oracle

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/errgen/errgen/gen/model"
)

// Message renders the variant's message with its example values.
func Message(v *model.Variant) string { return render(v, v.Message) }

// SuppressionKey renders the variant's suppression key, "" when it has none:
// the example's override, when an instance may set one, else the template.
func SuppressionKey(v *model.Variant) string {
	if h := v.ExampleHint(model.HintSuppressionKey); h != "" {
		return h
	}
	return render(v, v.SuppressionKey)
}

// UserMessage renders the variant's user message by the model's rule: its
// text, unless the cause answers first and the example's cause is an error
// of the catalogue.
func UserMessage(v *model.Variant) string {
	u := v.UserMessage
	if u.CauseFirst && v.Cause.Type.Kind == model.FamilyKind && v.Cause.Example.Variant != nil {
		return UserMessage(v.Cause.Example.Variant)
	}
	return render(v, u.Template)
}

// render formats each placeholder as fmt's %v formats the field's Go value.
func render(v *model.Variant, t *model.Template) string {
	if t == nil {
		return ""
	}
	var b strings.Builder
	for _, s := range t.Segments {
		switch {
		case s.Ref == "":
			b.WriteString(s.Lit)
		case s.Ref == "code":
			b.WriteString(v.ExampleCode())
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
		return strconv.FormatInt(int64(x.Duration/f.Unit.Size), 10)
	case model.Strings:
		return strings.Join(x.List, ", ")
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
// which the payload leaves out (a cause: none).
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
	case model.Error:
		return false
	case model.FamilyKind:
		return x.Variant == nil
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
		return int64(x.Duration / f.Unit.Size)
	case model.Strings:
		return x.List
	case model.Error:
		return map[string]string{"error": x.Str}
	case model.FamilyKind:
		if x.Variant == nil {
			return nil
		}
		return json.RawMessage(Wire(x.Variant))
	}
	return nil
}

// Payload returns the JSON payload of the variant's example, as compact
// JSON with its keys in the model's order, or nil when the family sends
// none.
func Payload(v *model.Variant) []byte {
	keys := v.Payload()
	if keys == nil {
		return nil
	}
	return object(v, keys)
}

// Wire returns the wire form of the variant's example, what json.Marshal
// of it writes: every field, its cause nested.
func Wire(v *model.Variant) []byte {
	return object(v, v.Wire())
}

// object encodes the example's values of keys as a JSON object, leaving
// out those the model leaves out.
func object(v *model.Variant, keys []model.PayloadKey) []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for _, k := range keys {
		val, ok := value(v, k)
		if !ok {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(k.Name)
		b.Write(name)
		b.WriteByte(':')
		data, err := json.Marshal(val)
		if err != nil {
			// Only NaN or an infinity fails, and examples are finite.
			data = []byte("null")
		}
		b.Write(data)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// value is what key k of v's example payload holds, and whether it is
// there at all.
func value(v *model.Variant, k model.PayloadKey) (any, bool) {
	switch k.Kind {
	case model.KeyType:
		return v.Family.PayloadType, true
	case model.KeyCategory:
		return v.Category.Name, true
	case model.KeyCode:
		return v.ExampleCode(), true
	case model.KeyCodeNum:
		return v.Num, true
	case model.KeyError:
		return Message(v), true
	case model.KeyRetryable:
		return v.ExampleRetryable(), true
	case model.KeySuppressRetry:
		return v.SuppressRetry, true
	case model.KeySuppressionKey:
		key := SuppressionKey(v)
		return key, key != ""
	case model.KeyFields:
		return jsonValue(k.Field), !isZero(k.Field)
	case model.KeySuggestedTool:
		s := cmp.Or(v.ExampleHint(model.HintSuggestedTool), k.Static)
		return s, s != ""
	case model.KeySuggestedAction:
		s := cmp.Or(v.ExampleHint(model.HintSuggestedAction), k.Static)
		return s, s != ""
	case model.KeyUsageHint:
		return k.Static, k.Static != ""
	case model.KeyRequiredFields:
		// The variant's static list; only a caller adds to an example's.
		return k.Required, len(k.Required) > 0
	}
	panic("oracle: payload key of unknown kind " + strconv.Itoa(int(k.Kind)))
}

// Golden returns the contents of the variant's golden file: its code,
// number, message, user message, LLM payload and wire form, indented, as
// the generated test writes it.
func Golden(m *model.Catalogue, v *model.Variant) ([]byte, error) {
	g := struct {
		Code        string                     `json:"code"`
		CodeNum     int                        `json:"code_num"`
		Error       string                     `json:"error"`
		UserMessage string                     `json:"user_message"`
		Payload     json.RawMessage            `json:"payload,omitempty"`
		Wire        json.RawMessage            `json:"wire"`
		Projections map[string]json.RawMessage `json:"projections,omitempty"`
	}{v.ExampleCode(), v.Num, Message(v), UserMessage(v), Payload(v), Wire(v), Projections(m, v)}
	out, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}
