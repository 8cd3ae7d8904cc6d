// Package model resolves a loaded catalogue and holds the result, the one
// place where every meaning is decided: Go names, parsed templates,
// resolved field types, causes and retry-after fields, example values, the
// class of every variant and its wording, the retry rule, the effective
// user message, and the ordered keys of the LLM payload.
//
// Resolve checks the catalogue as it builds the model (as go/types checks
// and records at once), so every problem is reported where it is found, and
// a model exists only for a catalogue without errors. The outputs (the Go
// emitter, the golden-file oracle, the reference docs, explain, diff and
// compat) read this model and never derive a meaning of their own.
package model

import (
	"time"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/names"
	"github.com/errgen/errgen/gen/tmpl"
)

// Catalogue is a resolved catalogue.
type Catalogue struct {
	// Src is the catalogue as it was written: positions of every key.
	Src *ast.Catalogue
	// File is the catalogue's path as the user named it.
	File       string
	Package    string
	Categories []*Category
	Families   []*Family
	// Variants lists every variant in catalogue order.
	Variants []*Variant
	// ByNum lists every variant sorted by Num; Variant.Index is the
	// position in it.
	ByNum   []*Variant
	Waivers []Waiver
}

// Category is a declared category.
type Category struct {
	Name string
	Doc  string
	// GoName is the typed constant of the category: timeout →
	// CategoryTimeout.
	GoName string
	Pos    diag.Pos
}

// Family is a group of variants behind one Go interface.
type Family struct {
	Src  *ast.Family
	Name string
	Doc  string
	// PayloadType is the payload's "type", "" when the family's errors
	// send no LLM payload.
	PayloadType string
	// UserMessage is the family's default user message, nil when it has
	// none.
	UserMessage *Template
	// Nums is the inclusive range of the family's numbers; HasNums reports
	// whether one was declared.
	Nums          [2]int
	HasNums       bool
	ReservedNums  []int
	ReservedCodes []string
	Variants      []*Variant
	Pos           diag.Pos
}

// HasPayload reports whether the family's errors produce an LLM payload.
func (f *Family) HasPayload() bool { return f.PayloadType != "" }

// AsHelper is the generated function that finds the family's error in a
// wrap chain.
func (f *Family) AsHelper() string { return names.FamilyHelper(f.Name) }

// Sealer is the unexported method that keeps the family's interface closed
// to types outside the generated package.
func (f *Family) Sealer() string { return "is" + f.Name }

// Variant is one error of the catalogue.
type Variant struct {
	Src    *ast.Variant
	Family *Family
	// Name is the Go type's name.
	Name string
	Code string
	Num  int
	// Index is the variant's position in Catalogue.ByNum, which is also
	// its entry in the generated tables.
	Index    int
	Category *Category
	Doc      string
	Message  *Template
	// UserMessage is the text an end user sees, and where it comes from.
	UserMessage UserText
	// SuppressionKey is nil when the variant has none.
	SuppressionKey *Template
	Retry          Retry
	// NonFatal reports whether the run carries on after the error.
	NonFatal        bool
	SuppressRetry   bool
	SuggestedTool   string
	SuggestedAction string
	UsageHint       string
	HTTPStatus      []int
	Fields          []*Field
	// Cause is the field Unwrap returns, or nil.
	Cause *Field
	// RetryAfter is the field RetryAfterOf reports, or nil.
	RetryAfter *Field
	Pos        diag.Pos
}

// CodeConst is the typed constant of the variant's code:
// ToolTimeout → CodeToolTimeout.
func (v *Variant) CodeConst() string { return "Code" + v.Name }

// Field looks a field up by its catalogue name.
func (v *Variant) Field(name string) *Field {
	for _, f := range v.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// PayloadFields returns the fields that appear in the LLM payload.
func (v *Variant) PayloadFields() []*Field {
	if !v.Family.HasPayload() {
		return nil
	}
	var out []*Field
	for _, f := range v.Fields {
		if f.Payload {
			out = append(out, f)
		}
	}
	return out
}

// Template is a parsed template and the text it was written as.
type Template struct {
	Text     string
	Segments tmpl.Template
	Pos      diag.Pos
}

// Refs returns the placeholder names of t in order, each once.
func (t *Template) Refs() []string {
	if t == nil {
		return nil
	}
	return t.Segments.Refs()
}

// UsesFields reports whether t names a field, not only {code}: only then
// does its text depend on the error's values.
func (t *Template) UsesFields() bool {
	if t == nil {
		return false
	}
	for _, s := range t.Segments {
		if s.Ref != "" && s.Ref != "code" {
			return true
		}
	}
	return false
}

// Literal returns the text of a template that uses no field, with {code}
// filled in.
func (t *Template) Literal(code string) string {
	var b []byte
	for _, s := range t.Segments {
		if s.Ref == "code" {
			b = append(b, code...)
		} else {
			b = append(b, s.Lit...)
		}
	}
	return string(b)
}

// UserSource says where a variant's user message comes from.
type UserSource int

// The sources of a user message, in the order they are tried.
const (
	// UserFromVariant: the variant's own user_message.
	UserFromVariant UserSource = iota
	// UserFromFamily: its family's user_message.
	UserFromFamily
	// UserFromMessage: neither has one, and the technical message stands.
	UserFromMessage
)

// UserText is a variant's effective user message.
type UserText struct {
	// Template is the text, or nil when it is the technical message.
	Template *Template
	From     UserSource
}

// Describe says where the user message comes from, for the docs and
// explain; "" when it is the variant's own.
func (u UserText) Describe() string {
	switch u.From {
	case UserFromFamily:
		return "the family's"
	case UserFromMessage:
		return "the message"
	}
	return ""
}

// Kind is the kind of a field's type.
type Kind int

// The field kinds, one per catalogue type.
const (
	String Kind = iota
	Bool
	Int
	Int64
	Uint64
	Float64
	Duration
	Strings
	Error
	FamilyKind
)

// ScalarTypes are the field types that are not a cause, in the order the
// documentation lists them.
var ScalarTypes = []string{"string", "bool", "int", "int64", "uint64", "float64", "duration", "strings"}

var kindNames = map[string]Kind{
	"string": String, "bool": Bool, "int": Int, "int64": Int64, "uint64": Uint64,
	"float64": Float64, "duration": Duration, "strings": Strings, "error": Error,
}

// Type is a field's resolved type.
type Type struct {
	Kind Kind
	// Family is the cause's family when Kind is FamilyKind.
	Family *Family
	// Name is the type as the catalogue wrote it.
	Name string
}

// IsCause reports whether values of t are errors.
func (t Type) IsCause() bool { return t.Kind == Error || t.Kind == FamilyKind }

// Field is one value a variant carries.
type Field struct {
	Src *ast.Field
	// Name is snake_case, as in the catalogue, templates and payloads.
	Name   string
	GoName string
	Type   Type
	Doc    string
	// Payload reports whether the field is sent in the LLM payload.
	Payload    bool
	RetryAfter bool
	// Example is the value golden tests and docs use; ExampleSet reports
	// whether the catalogue gave it or errgen made it up.
	Example    Value
	ExampleSet bool
	// Index is the field's position in its variant.
	Index int
	// Pos is where the field's entry starts in the catalogue.
	Pos diag.Pos
}

// Value is an example value; the member that matches the field's kind is
// set. A family cause's example is that family's first variant, built from
// its own examples; Variant is nil where that would recurse.
type Value struct {
	Str      string
	Bool     bool
	Int      int64
	Uint     uint64
	Float    float64
	Duration time.Duration
	List     []string
	Variant  *Variant
}

// Waiver is a compat waiver.
type Waiver struct {
	Rule, Code, Reason string
	Pos                diag.Pos
}
