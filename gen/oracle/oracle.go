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
	"iter"
	"maps"
	"slices"
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
		return strconv.FormatInt(f.InUnit(x.Duration), 10)
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
		return f.InUnit(x.Duration)
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
	if !v.Family.HasPayload() {
		return nil
	}
	return object(v, v.PayloadKeys())
}

// Wire returns the wire form of the variant's example, what json.Marshal
// of it writes: every field, its cause nested.
func Wire(v *model.Variant) []byte {
	return object(v, v.WireKeys())
}

// object encodes the example's values of keys as a JSON object, leaving
// out those the model leaves out.
func object(v *model.Variant, keys iter.Seq[model.PayloadKey]) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	put := func(x any) {
		if err := enc.Encode(x); err != nil {
			// Only NaN or an infinity fails, and examples are finite.
			b.WriteString("null")
		} else {
			b.Truncate(b.Len() - 1) // the Encoder's newline
		}
	}
	b.WriteByte('{')
	for k := range keys {
		val, ok := value(v, k)
		if !ok {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		put(k.Name)
		b.WriteByte(':')
		put(val)
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
// the generated test writes it. The bytes are those json.MarshalIndent
// writes for a struct of those members (payload and projections left out
// when empty, projections in key order), built here as compact JSON and
// indented once: encoding/json's reflection and its second pass over each
// embedded object were most of the oracle's time.
func Golden(m *model.Catalogue, v *model.Variant) ([]byte, error) {
	payload, wire, projections := Payload(v), Wire(v), Projections(m, v)
	size := 128 + len(payload) + len(wire)
	for _, p := range projections {
		size += 32 + len(p)
	}
	b := make([]byte, 0, size)
	member := func(first bool, name string, data []byte) {
		if !first {
			b = append(b, ',')
		}
		b = append(append(append(b, marshal(name)...), ':'), data...)
	}
	b = append(b, '{')
	member(true, "code", marshal(v.ExampleCode()))
	member(false, "code_num", marshal(v.Num))
	member(false, "error", marshal(Message(v)))
	member(false, "user_message", marshal(UserMessage(v)))
	if len(payload) > 0 {
		member(false, "payload", payload)
	}
	member(false, "wire", wire)
	if len(projections) > 0 {
		b = append(b, `,"projections":{`...)
		for i, name := range slices.Sorted(maps.Keys(projections)) {
			member(i == 0, name, projections[name])
		}
		b = append(b, '}')
	}
	b = append(b, '}')
	// Indenting adds at most a line break and two spaces a level per
	// value; three times the size holds the files errgen writes.
	return append(indent(make([]byte, 0, 3*len(b)), b), '\n'), nil
}

// indent returns compact JSON, as encoding/json writes it, the way
// json.MarshalIndent(x, "", "  ") writes it: one member or element a line,
// "{}" and "[]" kept whole, and <, >, &, U+2028 and U+2029 escaped in
// strings (json.Marshal escapes them as it copies an embedded object).
// json.Indent would rescan and validate text that encoding/json has just
// written, which was a third of the oracle's time.
func indent(dst, src []byte) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, ' ', ' ')
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '"':
			j := i + 1
			for ; src[j] != '"'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
			dst = appendEscapedHTML(dst, src[i:j+1])
			i = j
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				dst = append(dst, src[i+1])
				i++
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// appendEscapedHTML appends a JSON string with <, >, & and the line and
// paragraph separators escaped, as json.HTMLEscape escapes them.
func appendEscapedHTML(dst, s []byte) []byte {
	const hex = "0123456789abcdef"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '<' || c == '>' || c == '&':
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		case c == 0xE2 && i+2 < len(s) && s[i+1] == 0x80 && s[i+2]&^1 == 0xA8:
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[s[i+2]&0xF])
			i += 2
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// marshal is json.Marshal of a string or a number, which cannot fail.
func marshal(x any) []byte {
	data, _ := json.Marshal(x)
	return data
}
