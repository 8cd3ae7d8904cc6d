package model

import (
	"iter"
	"slices"
)

// The LLM payload is the JSON object the model reads to correct itself. Its
// keys, their order, what each holds and when it is left out are decided
// here and nowhere else: the emitter writes this order into the generated
// tables the runtime encodes from, the golden-file oracle computes the
// expected bytes from it, the docs list it, and the resolver refuses payload
// fields named like one of its keys.

// KeyKind says what a payload key holds, and so where its value comes from.
type KeyKind int

// The kinds of payload keys, in payload order.
const (
	// KeyType holds the family's payload_type.
	KeyType KeyKind = iota
	// KeyCategory holds the variant's category.
	KeyCategory
	// KeyCode holds the instance's code: the sub-code it selects, else
	// the variant's code.
	KeyCode
	// KeyCodeNum holds the variant's num.
	KeyCodeNum
	// KeyError holds the message, rendered with the error's fields.
	KeyError
	// KeyRetryable holds what Retryable() reports.
	KeyRetryable
	// KeySuppressRetry holds the variant's suppress_retry.
	KeySuppressRetry
	// KeySuppressionKey holds the rendered suppression key.
	KeySuppressionKey
	// KeyFields stands for the variant's payload fields, each under its
	// name, in catalogue order.
	KeyFields
	// KeySuggestedTool holds the instance's suggested_tool, else the
	// variant's.
	KeySuggestedTool
	// KeySuggestedAction holds the instance's suggested_action, else the
	// variant's.
	KeySuggestedAction
	// KeyRequiredFields holds the variant's required_fields, or what the
	// caller sets instead.
	KeyRequiredFields
	// KeyUsageHint holds the variant's usage_hint, or the caller's.
	KeyUsageHint
)

// ShapeKey is one key of the payload's shape.
type ShapeKey struct {
	// Name is the JSON key; "" for KeyFields, whose keys are the fields'
	// names.
	Name string
	Kind KeyKind
	// Omit reports whether the key is left out when its value is empty
	// (or, for a field, its type's zero value, as omitempty does).
	Omit bool
	// Doc says what the key holds, for the docs.
	Doc string
}

// PayloadShape is the order of the payload's keys. Every payload has the
// keys without Omit, in this order; the others appear only when set.
var PayloadShape = []ShapeKey{
	{"type", KeyType, false, "The family's payload type."},
	{"category", KeyCategory, false, "The variant's category."},
	{"code", KeyCode, false, "The stable string code, or the sub-code the instance selects."},
	{"code_num", KeyCodeNum, false, "The stable number."},
	{"error", KeyError, false, "The message, rendered with the error's fields."},
	{"retryable", KeyRetryable, false, "Whether trying again may work."},
	{"suppress_retry", KeySuppressRetry, false, "Whether the model should stop repeating the same call."},
	{"suppression_key", KeySuppressionKey, true, "The key that groups repeats of the error, when the variant has one."},
	{"", KeyFields, true, "The variant's payload fields, each under its name, when not zero."},
	{"suggested_tool", KeySuggestedTool, true, "A tool to use instead: the instance's, else the variant's."},
	{"suggested_action", KeySuggestedAction, true, "What to do instead: the instance's, else the variant's."},
	{"required_fields", KeyRequiredFields, true, "The parameters the tool requires: the variant's required_fields, or the caller's."},
	{"usage_hint", KeyUsageHint, true, "A one-line corrective hint."},
}

// PayloadKeys are the keys every payload may carry besides its fields; a
// payload field may not be named like one.
var PayloadKeys = func() []string {
	var out []string
	for _, k := range PayloadShape {
		if k.Name != "" {
			out = append(out, k.Name)
		}
	}
	return out
}()

// PayloadKey is one key of a variant's payload.
type PayloadKey struct {
	ShapeKey
	// Field is the field a KeyFields key holds; Name is then its name.
	Field *Field
	// Static is the value of a hint the catalogue sets
	// (suggested_tool, suggested_action, usage_hint), "" when it sets none.
	Static string
	// Required is the variant's required_fields, for KeyRequiredFields.
	Required []string
}

// Payload returns the keys v's payload may carry, in order: the shape with
// KeyFields replaced by one key per payload field. It is nil for a variant
// whose family sends no payload.
func (v *Variant) Payload() []PayloadKey {
	if !v.Family.HasPayload() {
		return nil
	}
	return slices.AppendSeq(make([]PayloadKey, 0, len(PayloadShape)+len(v.Fields)), v.PayloadKeys())
}

// PayloadKeys yields the keys of Payload one at a time, none for a variant
// whose family sends no payload, for a reader that need not keep them.
func (v *Variant) PayloadKeys() iter.Seq[PayloadKey] {
	return func(yield func(PayloadKey) bool) {
		if !v.Family.HasPayload() {
			return
		}
		for _, k := range PayloadShape {
			if k.Kind == KeyFields {
				for _, f := range v.PayloadFields() {
					if !yield(fieldKey(f)) {
						return
					}
				}
				continue
			}
			if !yield(v.shapeKey(k)) {
				return
			}
		}
	}
}

// shapeKey is the key k of the shape for v, with the value of a hint the
// catalogue sets and the variant's required_fields.
func (v *Variant) shapeKey(k ShapeKey) PayloadKey {
	key := PayloadKey{ShapeKey: k}
	switch k.Kind {
	case KeySuggestedTool:
		key.Static = v.SuggestedTool
	case KeySuggestedAction:
		key.Static = v.SuggestedAction
	case KeyUsageHint:
		key.Static = v.UsageHint
	case KeyRequiredFields:
		key.Required = v.RequiredFields
	}
	return key
}

// fieldKey is the key of field f, left out when empty.
func fieldKey(f *Field) PayloadKey {
	return PayloadKey{ShapeKey: ShapeKey{Name: f.Name, Kind: KeyFields, Omit: true, Doc: f.Doc}, Field: f}
}

// Wire returns the keys of v's wire form, what json.Marshal of the error
// writes and DecodePayload reads back in another service: the payload's
// shape, for every family, with every field that is not sensitive (the
// cause as a nested wire form, or an object holding only "error" for a
// cause outside the catalogue), "type" only for a family with a payload type, and no
// required_fields, which only a caller sets. For a payload family, the
// LLM payload is the wire form without the fields that are not payload
// fields.
func (v *Variant) Wire() []PayloadKey {
	return slices.AppendSeq(make([]PayloadKey, 0, len(PayloadShape)+len(v.Fields)), v.WireKeys())
}

// WireKeys yields the keys of Wire one at a time, for a reader that need
// not keep them.
func (v *Variant) WireKeys() iter.Seq[PayloadKey] {
	return func(yield func(PayloadKey) bool) {
		for _, k := range PayloadShape {
			switch k.Kind {
			case KeyType:
				if !v.Family.HasPayload() {
					continue
				}
			case KeyFields:
				for _, f := range v.Fields {
					if !f.Sensitive && !yield(fieldKey(f)) {
						return
					}
				}
				continue
			case KeyRequiredFields:
				continue
			}
			if !yield(v.shapeKey(k)) {
				return
			}
		}
	}
}
