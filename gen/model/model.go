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
	"slices"
	"strings"
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
	File    string
	Package string
	// CodeCase is how the catalogue spells its codes.
	CodeCase CodeCase
	// UserMessage is the catalogue's default user message, nil when it has
	// none.
	UserMessage *Template
	Categories  []*Category
	// Attributes are the catalogue's custom attributes, in the order
	// declared.
	Attributes []*Attribute
	Families   []*Family
	// Variants lists every variant in catalogue order.
	Variants []*Variant
	// ByNum lists every variant sorted by Num; Variant.Index is the
	// position in it.
	ByNum   []*Variant
	Waivers []Waiver
	// Retry is the catalogue's retry policy, the default of its families;
	// nil when it declares none.
	Retry *RetryPolicy
	// Classify is how foreign errors are classified, nil when the
	// catalogue has no classify section.
	Classify *Classifier
	// Projections are the names of the projections the catalogue
	// selects, in the order of the package's Projections.
	Projections []string
	// ProblemBase is the type URI every problem type starts with, and
	// ProblemStatus the status of a variant without an error status in
	// http_status.
	ProblemBase   string
	ProblemStatus int
	// GRPCDomain is the ErrorInfo domain of the grpc projection, and
	// GRPCLocale the locale of its LocalizedMessage.
	GRPCDomain, GRPCLocale string
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
	// Attrs are the attribute values the family sets for its variants.
	Attrs []AttrSetting
	// Retry is the retry policy of the family's errors: its own over the
	// catalogue's, else the catalogue's; nil when neither declares one.
	// Families that declare none share the catalogue's pointer.
	Retry *RetryPolicy
	// MapsTo is the family's conversion into another family, nil when it
	// declares none.
	MapsTo *Mapping
	// GRPCCode is the canonical gRPC code name of the family's variants
	// that give none of their own: its grpc_code, else DefaultGRPCCode.
	GRPCCode string
	Variants []*Variant
	Pos      diag.Pos
}

// HasPayload reports whether the family's errors produce an LLM payload.
func (f *Family) HasPayload() bool { return f.PayloadType != "" }

// AsHelper is the generated function that finds the family's error in a
// wrap chain.
func (f *Family) AsHelper() string { return names.FamilyHelper(f.Name) }

// AsFunc is the unexported function through which the family's AsHelper
// asks the runtime's walk about one error: asToolError for ToolError. The
// runtime declares no name of that form.
func (f *Family) AsFunc() string { return "as" + f.Name }

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
	// HTTP lists the HTTP statuses the variant stands for.
	HTTP []StatusRange
	// Subcodes are the per-instance codes an instance may select.
	Subcodes []*Subcode
	// InstanceHints are the hints an instance may override, in the order
	// of Hints.
	InstanceHints []Hint
	// RequiredFields is what the payload's required_fields starts as.
	RequiredFields []string
	// Configurable reports whether the application's ClassPolicy decides
	// the variant's class; ClassRule().Static is then its default.
	Configurable bool
	// Attrs holds the variant's value of every attribute of the catalogue,
	// in the order declared.
	Attrs []AttrSetting
	// Match holds the variant's rules for classifying foreign errors, in
	// the order written.
	Match []*MatchRule
	// ClassifyByStatus reports that Classify matches the variant's
	// http_status: the catalogue classifies, and the variant can hold the
	// foreign error.
	ClassifyByStatus bool
	Fields           []*Field
	// Cause is the field Unwrap returns, or nil.
	Cause *Field
	// RetryAfter is the field RetryAfterOf reports, or nil.
	RetryAfter *Field
	// HTTPStatusField is the field FromHTTP and Classify (when it matches
	// by http_status) set to the HTTP status they matched, or nil.
	HTTPStatusField *Field
	// RetryableField is the field whose value Retryable returns for an
	// instance (Retry.Field names it), or nil.
	RetryableField *Field
	// MCPError is the JSON-RPC error code the mcp projection answers the
	// variant with instead of a tool result; 0 for a tool result.
	MCPError int
	// GRPCCode is the variant's canonical gRPC code name: its own, else
	// its family's, else DefaultGRPCCode.
	GRPCCode string
	Pos      diag.Pos
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

// HasSensitive reports whether a field of v is sensitive, which gives v a
// Format method that redacts it.
func (v *Variant) HasSensitive() bool {
	return slices.ContainsFunc(v.Fields, func(f *Field) bool { return f.Sensitive })
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

// The sources of a user message, in the order they are tried. The
// technical message is never one of them: it is written for developers and
// may hold anything a field carries.
const (
	// UserFromVariant: the variant's own user_message.
	UserFromVariant UserSource = iota
	// UserFromFamily: its family's user_message.
	UserFromFamily
	// UserFromCatalogue: the catalogue's user_message.
	UserFromCatalogue
	// UserFromBuiltin: errgen's neutral sentence naming the code.
	UserFromBuiltin
)

// BuiltinUserMessage is the user message of a variant for which nothing
// else gives one: neutral, naming the code so support can find it.
const BuiltinUserMessage = "Something went wrong ({code})."

// UserText is a variant's effective user message: its own, else its
// family's, else its cause's (when the cause is an error of the catalogue,
// at run time), else the catalogue's, else the built-in sentence.
type UserText struct {
	// Template is the text: the variant's, the family's, the catalogue's or
	// the built-in sentence.
	Template *Template
	From     UserSource
	// CauseFirst reports whether the cause's user message is tried before
	// Template at run time: the variant has a cause, and Template is only a
	// default (the catalogue's or the built-in one).
	CauseFirst bool
}

// Describe says where the user message comes from, for the docs and
// explain; "" when it is the variant's own.
func (u UserText) Describe() string {
	var s string
	switch u.From {
	case UserFromFamily:
		s = "the family's"
	case UserFromCatalogue:
		s = "the catalogue's"
	case UserFromBuiltin:
		s = "errgen's built-in sentence"
	}
	if u.CauseFirst {
		s = "the cause's, else " + s
	}
	return s
}

// StatusRange is an HTTP status or a range of them that a variant stands
// for, as written (429, "4xx", "500-599").
type StatusRange struct {
	Lo, Hi int
	Text   string
	Pos    diag.Pos
}

// Span is how many statuses the range covers: the smaller, the more
// specific, and the more specific range wins a status two ranges cover.
func (s StatusRange) Span() int { return s.Hi - s.Lo + 1 }

// Contains reports whether status lies in the range.
func (s StatusRange) Contains(status int) bool { return s.Lo <= status && status <= s.Hi }

// Unit is the unit of a duration field, on the wire and in text.
type Unit struct {
	// Name is ms, s or ns.
	Name string
	Size time.Duration
}

// Units are the units a duration field may have, and DefaultUnit the one it
// has unless it says otherwise: milliseconds, what agents send (the
// agentcodes example's retryAfterMs, the toolruntime example's
// retry_after_ms).
var (
	Units       = []Unit{{"ms", time.Millisecond}, {"s", time.Second}, {"ns", time.Nanosecond}}
	DefaultUnit = Units[0]
)

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
	// Import is the Go import path of the package that declares Family
	// when it is another catalogue's (Name is then PACKAGE.Family); "" for
	// this catalogue's own.
	Import string
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
	// HTTPStatus reports that FromHTTP and Classify set the field, an int,
	// to the HTTP status they matched the variant by.
	HTTPStatus bool
	// Retryable reports that the field, a bool, is what Retryable returns
	// for an instance: the variant's Retry.Field names it.
	Retryable bool
	// Sensitive reports whether the field holds a secret: it is never
	// sent (payload, wire form, projections), never part of a text, and
	// shows as Redacted in logs and in fmt's output.
	Sensitive bool
	// Unit is the unit of a duration field's value on the wire and in
	// text; zero for other types. InUnit writes a value in it.
	Unit Unit
	// Example is the value golden tests and docs use; ExampleSet reports
	// whether the catalogue gave it or errgen made it up.
	Example    Value
	ExampleSet bool
	// Index is the field's position in its variant.
	Index int
	// Pos is where the field's entry starts in the catalogue.
	Pos diag.Pos
}

// InUnit returns d, a value of the duration field f, as the whole number
// of f's unit that texts, payloads, wire forms and logs show: cut, but
// rounded up for the retry_after field, so that no output tells the model
// or another service to wait less than the error says. Every generated
// package's runtime does the same (field.inUnit, checked against this).
func (f *Field) InUnit(d time.Duration) int64 {
	n := d / f.Unit.Size
	if f.RetryAfter && d%f.Unit.Size > 0 {
		n++
	}
	return int64(n)
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
	// Rule is the rule ID; Code or Family (at most one of them) what it
	// waives: one code, or every code of a family; neither, a change to
	// the whole catalogue (its package, its projections).
	Rule, Code, Family, Reason string
	// Pos is the waiver's entry; RulePos and SubjectPos its rule and its
	// code or family.
	Pos, RulePos, SubjectPos diag.Pos
}

// Accepts reports whether the waiver covers a finding about code in
// family; a finding about neither is about the whole catalogue, which a
// waiver that names neither covers.
func (w *Waiver) Accepts(code, family string) bool {
	switch {
	case w.Family != "":
		return w.Family == family
	case w.Code != "":
		return w.Code == code
	}
	return code == "" && family == ""
}

// Subject names what the waiver waives, quoted: "tool_timeout", family
// "ToolError", or the catalogue.
func (w *Waiver) Subject() string {
	switch {
	case w.Family != "":
		return "family " + diag.Quote(w.Family)
	case w.Code != "":
		return diag.Quote(w.Code)
	}
	return "the catalogue"
}

// DefaultUserMessage is the user message of an error that nothing else
// gives one: the catalogue's user_message, else errgen's built-in sentence.
func (c *Catalogue) DefaultUserMessage() *Template {
	if c.UserMessage != nil {
		return c.UserMessage
	}
	return builtinUser
}

// HTTPText is the variant's http_status as written, joined: "429, 5xx".
func (v *Variant) HTTPText() string {
	s := make([]string, len(v.HTTP))
	for i, r := range v.HTTP {
		s[i] = r.Text
	}
	return strings.Join(s, ", ")
}

// CoversStatus reports whether any of the variant's http_status covers
// status.
func (v *Variant) CoversStatus(status int) bool {
	for _, r := range v.HTTP {
		if r.Contains(status) {
			return true
		}
	}
	return false
}

// KeyPos returns where key stands in the catalogue's top-level mapping,
// or the top of the file when the key is absent.
func (c *Catalogue) KeyPos(key string) diag.Pos {
	if c.Src != nil {
		if p, ok := c.Src.Keys.Pos(key); ok {
			return p
		}
	}
	return diag.Pos{File: c.File, Line: 1, Col: 1}
}

// KeyPos returns where key stands in the family's mapping, or the family's
// own position when the key is absent.
func (f *Family) KeyPos(key string) diag.Pos {
	if f.Src != nil {
		if p, ok := f.Src.Keys.Pos(key); ok {
			return p
		}
	}
	return f.Pos
}

// KeyPos returns where key stands in the variant's mapping, or the
// variant's own position when the key is absent.
func (v *Variant) KeyPos(key string) diag.Pos {
	if v.Src != nil {
		if p, ok := v.Src.Keys.Pos(key); ok {
			return p
		}
	}
	return v.Pos
}

// Keys lists the keys that give f a part in its variant, as the
// catalogue spells them: payload, retry_after, http_status, retryable,
// sensitive, and cause for a field that holds the cause.
func (f *Field) Keys() []string {
	var keys []string
	for _, k := range []struct {
		on   bool
		name string
	}{{f.Payload, "payload"}, {f.RetryAfter, "retry_after"}, {f.HTTPStatus, "http_status"}, {f.Retryable, "retryable"}, {f.Sensitive, "sensitive"}, {f.Type.IsCause(), "cause"}} {
		if k.on {
			keys = append(keys, k.name)
		}
	}
	return keys
}

// KeyPos returns where key stands in the field's entry, or the entry's
// own position when the key is absent.
func (f *Field) KeyPos(key string) diag.Pos {
	if f.Src != nil {
		if p, ok := f.Src.Keys.Pos(key); ok {
			return p
		}
	}
	return f.Pos
}

// GoldenSuffix ends the name of a golden file, testdata/CODE.golden.json,
// which holds what the example of the code must produce.
const GoldenSuffix = ".golden.json"

// MaxCodeLen is the longest a code may be, in bytes: its golden file's
// name must fit in the 255 bytes a file name has on every common file
// system.
const MaxCodeLen = 255 - len(GoldenSuffix)

// CodeCount is how many codes the catalogue gives: one per variant and
// one per sub-code.
func (c *Catalogue) CodeCount() int {
	n := 0
	for _, v := range c.Variants {
		n += 1 + len(v.Subcodes)
	}
	return n
}

// DropSource lets the catalogue's syntax tree go: generating reads only
// the model, and the tree (a position for every key of every mapping) is
// the larger part of what a large catalogue holds in memory. KeyPos then
// gives the position of the entry itself.
func (c *Catalogue) DropSource() {
	c.Src = nil
	for _, a := range c.Attributes {
		a.Src = nil
	}
	for _, f := range c.Families {
		f.Src = nil
	}
	for _, v := range c.Variants {
		v.Src = nil
		for _, fd := range v.Fields {
			fd.Src = nil
		}
	}
}
