// Package model resolves a loaded catalogue and holds the result: Go names
// derived, templates parsed, field types resolved, causes and retry-after
// fields found, example values filled in, variants indexed by number.
// Resolve checks the catalogue as it builds the model (as go/types checks
// and records at once), so every problem is reported where it is found and
// a model exists only for a catalogue without errors. Every output reads
// this model and nothing else.
package model

import (
	"time"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/tmpl"
)

// Catalogue is a resolved catalogue.
type Catalogue struct {
	// Src is the catalogue as it was written.
	Src *ast.Catalogue
	// File is the catalogue's path as the user named it.
	File       string
	Package    string
	Categories []Category
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
	Pos  diag.Pos
}

// Family is a group of variants behind one Go interface.
type Family struct {
	Src         *ast.Family
	Name        string
	Doc         string
	PayloadType string // "" when the family sends no LLM payload
	UserMessage tmpl.Template
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

// Class is how a handler should treat an error.
type Class int

// The classes of seed 001: retry with backoff, stop, or log and carry on.
const (
	Terminal Class = iota
	Retryable
	NonFatal
)

// Variant is one error of the catalogue.
type Variant struct {
	Src    *ast.Variant
	Family *Family
	Name   string
	Code   string
	Num    int
	// Index is the variant's position in Catalogue.ByNum.
	Index              int
	Category           string
	Doc                string
	Message            tmpl.Template
	MessageText        string
	UserMessage        tmpl.Template // nil: fall back to the family's, then to Message
	UserMessageText    string
	SuppressionKey     tmpl.Template // nil: no key
	SuppressionKeyText string
	Retryable          bool
	RetryableFromCause bool
	SuppressRetry      bool
	NonFatal           bool
	SuggestedTool      string
	SuggestedAction    string
	UsageHint          string
	HTTPStatus         []int
	Fields             []*Field
	// Cause is the field Unwrap returns, or nil.
	Cause *Field
	// RetryAfter is the field RetryAfter returns, or nil.
	RetryAfter *Field
	Pos        diag.Pos
}

// Class returns the variant's static class.
func (v *Variant) Class() Class {
	switch {
	case v.Retryable:
		return Retryable
	case v.NonFatal:
		return NonFatal
	}
	return Terminal
}

// PayloadFields returns the fields that appear in the LLM payload.
func (v *Variant) PayloadFields() []*Field {
	var out []*Field
	for _, f := range v.Fields {
		if f.Payload {
			out = append(out, f)
		}
	}
	return out
}

// Field looks a field up by its catalogue name.
func (v *Variant) Field(name string) *Field {
	for _, f := range v.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
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
	Src        *ast.Field
	Name       string // snake_case, as in the catalogue and the payload
	GoName     string
	Type       Type
	Doc        string
	Payload    bool
	RetryAfter bool
	// Example is the value golden tests and docs use; ExampleSet reports
	// whether the catalogue gave it or errgen made it up.
	Example    Value
	ExampleSet bool
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

