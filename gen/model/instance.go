package model

import (
	"strings"

	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/names"
)

// CodeCase is how a catalogue spells its codes (codes, sub-codes, reserved
// codes and the codes waivers name): one case for the whole catalogue, so
// that every service reading its payloads can match codes exactly.
type CodeCase int

// The code cases. Snake is the default.
const (
	// Snake: tool_timeout.
	Snake CodeCase = iota
	// UpperSnake: RATE_LIMITED, as the agentcodes example spells its codes.
	UpperSnake
)

// CodeCases are the names code_case takes, in the order of the constants.
var CodeCases = []string{"snake", "upper_snake"}

// String returns the case's name as code_case takes it.
func (c CodeCase) String() string { return CodeCases[c] }

// Pattern is the regular expression the catalogue's codes match.
func (c CodeCase) Pattern() string {
	if c == UpperSnake {
		return names.UpperCodePattern
	}
	return names.CodePattern
}

// Valid reports whether code is spelled in the case.
func (c CodeCase) Valid(code string) bool {
	if c == UpperSnake {
		return names.IsUpperCode(code)
	}
	return names.IsCode(code)
}

// Subcode is one of the per-instance codes a variant declares (the
// toolruntime example's CapabilityDenied: one num, codes such as
// macos_automation_unknown). An instance selects one; its payload's code
// is then the sub-code and its code_num the variant's.
type Subcode struct {
	Code string
	Doc  string
	// GoName is the typed constant of the sub-code:
	// macos_automation_unknown → CodeMacosAutomationUnknown.
	GoName  string
	Variant *Variant
	Pos     diag.Pos
}

// subcodeConst is the typed constant of a sub-code.
func subcodeConst(code string) string { return "Code" + names.Go(strings.ToLower(code)) }

// Hint is a value of the payload that an instance may override.
type Hint int

// The hints an instance may override, in the order their struct fields
// follow the catalogue's fields.
const (
	HintSuggestedTool Hint = iota
	HintSuggestedAction
	HintSuppressionKey
)

// Hints lists every hint in struct-field order.
var Hints = []Hint{HintSuggestedTool, HintSuggestedAction, HintSuppressionKey}

var hintText = [...]struct {
	name, field string
	doc         []string
}{
	HintSuggestedTool:   {"suggested_tool", "SuggestedTool", []string{"SuggestedTool, when set, replaces the catalogue's suggested_tool in the", "payload."}},
	HintSuggestedAction: {"suggested_action", "SuggestedAction", []string{"SuggestedAction, when set, replaces the catalogue's suggested_action in the", "payload."}},
	HintSuppressionKey:  {"suppression_key", "SuppressionKeyOverride", []string{"SuppressionKeyOverride, when set, is the suppression key instead of the", "catalogue's template."}},
}

// String returns the hint's name as instance_hints lists it.
func (h Hint) String() string { return hintText[h].name }

// Field is the name of the struct field an instance sets the hint in.
func (h Hint) Field() string { return hintText[h].field }

// Doc is the doc comment of the hint's struct field.
func (h Hint) Doc() []string { return hintText[h].doc }

// HintNames lists the names instance_hints may give.
func HintNames() []string {
	out := make([]string, len(Hints))
	for i, h := range Hints {
		out[i] = h.String()
	}
	return out
}

// SubcodeField is the struct field an instance selects its sub-code in.
const SubcodeField = "Subcode"

// InstanceField is a struct field that is not one of the catalogue's
// fields: the sub-code an instance selects and the hints it overrides. They
// follow the catalogue's fields, in this order, so the runtime finds them
// by position.
type InstanceField struct {
	Name string
	// GoType is "Code" for the sub-code, "string" for a hint.
	GoType string
	Doc    []string
	// Hint is the hint the field overrides; Subcode reports the sub-code
	// field instead.
	Hint    Hint
	Subcode bool
	// Index is the field's position in the struct.
	Index int
}

// InstanceFields returns v's instance fields in struct order.
func (v *Variant) InstanceFields() []InstanceField {
	var out []InstanceField
	i := len(v.Fields)
	if len(v.Subcodes) > 0 {
		out = append(out, InstanceField{Name: SubcodeField, GoType: "Code", Subcode: true, Index: i,
			Doc: []string{"Subcode selects one of the variant's sub-codes: Code returns it, and the", "payload carries it as its code. Empty, or a code the variant does not", "declare, means the variant's own code."}})
		i++
	}
	for _, h := range Hints {
		if v.HasHint(h) {
			out = append(out, InstanceField{Name: h.Field(), GoType: "string", Doc: h.Doc(), Hint: h, Index: i})
			i++
		}
	}
	return out
}

// HasHint reports whether an instance of v may override h.
func (v *Variant) HasHint(h Hint) bool {
	for _, x := range v.InstanceHints {
		if x == h {
			return true
		}
	}
	return false
}

// InstanceCode reports whether the code of an instance of v can differ
// from v.Code: v declares sub-codes.
func (v *Variant) InstanceCode() bool { return len(v.Subcodes) > 0 }

// Constant reports whether t, a template of v, renders the same text for
// every instance: it names no field, and no {code} that a sub-code can
// change.
func (v *Variant) Constant(t *Template) bool {
	if t.UsesFields() {
		return false
	}
	return !v.InstanceCode() || !t.UsesCode()
}

// UsesCode reports whether t names {code}.
func (t *Template) UsesCode() bool {
	for _, s := range t.Segments {
		if s.Ref == "code" {
			return true
		}
	}
	return false
}

// ExampleCode is the code of v's example: its first sub-code, which the
// example selects, or its own code.
func (v *Variant) ExampleCode() string {
	if len(v.Subcodes) > 0 {
		return v.Subcodes[0].Code
	}
	return v.Code
}

// ExampleHint is the value v's example gives an overridable hint: the
// hint's name, as a text field's example is its name; "" when an instance
// of v may not override it.
func (v *Variant) ExampleHint(h Hint) string {
	if !v.HasHint(h) {
		return ""
	}
	return "instance " + h.String()
}

// ClassPolicy is the name of the generated type an application sets the
// class of configurable variants with, and SetClassPolicy the function.
const (
	ClassPolicy    = "ClassPolicy"
	SetClassPolicy = "SetClassPolicy"
)

// PolicyClasses are the classes a policy may give a configurable variant.
var PolicyClasses = []Class{Terminal, Retryable, NonFatal}

// HintsText lists the hints an instance of v may override, as
// instance_hints writes them: "suggested_tool, suppression_key".
func (v *Variant) HintsText() string {
	s := make([]string, len(v.InstanceHints))
	for i, h := range v.InstanceHints {
		s[i] = h.String()
	}
	return strings.Join(s, ", ")
}

// SubcodesText lists v's sub-codes: "a, b".
func (v *Variant) SubcodesText() string {
	s := make([]string, len(v.Subcodes))
	for i, sc := range v.Subcodes {
		s[i] = sc.Code
	}
	return strings.Join(s, ", ")
}

// AttrsText lists v's attribute values as name=value, in declaration
// order: "turn_handling=propagate, layer=tool"; an empty string shows as "".
func (v *Variant) AttrsText() string {
	s := make([]string, len(v.Attrs))
	for i, a := range v.Attrs {
		s[i] = a.Attr.Name + "=" + a.Shown()
	}
	return strings.Join(s, ", ")
}
