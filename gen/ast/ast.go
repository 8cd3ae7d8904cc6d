// Package ast holds a catalogue as it was written: every value with the
// position it came from, before any meaning is checked or derived. The loader
// fills it, the checker reads it, and the model is built from it.
package ast

import "github.com/errgen/errgen/gen/diag"

// String is a text value and where it stood. Set reports whether the key was
// present at all.
type String struct {
	Value string
	Pos   diag.Pos
	Set   bool
	// At, when the loader could trace the value to its text (a template
	// written on one line), gives the position of the byte at an offset of
	// Value; nil otherwise.
	At func(offset int) diag.Pos
}

// PosAt returns the position of the byte at offset of s's value, or s's
// own position when it cannot be traced.
func (s String) PosAt(offset int) diag.Pos {
	if s.At == nil {
		return s.Pos
	}
	return s.At(offset)
}

// Int is a decimal integer value and where it stood.
type Int struct {
	Value int64
	Pos   diag.Pos
	Set   bool
}

// Bool is a true/false value and where it stood.
type Bool struct {
	Value bool
	Pos   diag.Pos
	Set   bool
}

// Catalogue is a whole errors.yaml file.
type Catalogue struct {
	// File is the path diagnostics name.
	File string
	// Incomplete reports that the loader refused some value: what needs the
	// whole catalogue (whether a category is used, whether a user message
	// is missing) cannot be judged.
	Incomplete bool
	// Pos is where the catalogue's top-level mapping starts.
	Pos  diag.Pos
	Keys Keys
	// Misspelt holds, by the position of the mapping that has them, the
	// keys the loader took unknown keys for (payload_type for
	// payloadtype:), each at the unknown key. The loader reported the
	// unknown key with its did-you-mean, so what the key's absence would
	// cause is not reported too.
	Misspelt map[diag.Pos][]KeyPos
	Version  Int
	Package  String
	// CodeCase is how codes are spelled: snake (the default) or
	// upper_snake.
	CodeCase String
	// UserMessage is the catalogue's default user message.
	UserMessage String
	Categories  []Category
	// Attributes are the catalogue's own typed attributes, which families
	// and variants set.
	Attributes []*Attribute
	Families   []*Family
	Compat     []Waiver
	// Retry is the catalogue's retry policy, nil when it declares none.
	Retry *Retry
	// Classify turns on the classification of foreign errors, nil when
	// absent.
	Classify *Classify
	// Projections names the wire shapes to generate, in the order written.
	Projections []String
	// Problem configures the problem-details projection, nil when absent.
	Problem *Problem
	// GRPC configures the gRPC projection, nil when absent.
	GRPC *GRPC
}

// GRPC is the catalogue's grpc section: the ErrorInfo domain, and the
// locale of the LocalizedMessage.
type GRPC struct {
	Pos    diag.Pos
	Keys   Keys
	Domain String
	Locale String
}

// Problem is the catalogue's problem section: the base of every problem
// type URI, and the status of a variant without http_status.
type Problem struct {
	Pos      diag.Pos
	Keys     Keys
	TypeBase String
	Status   Int
}

// Retry is a retry policy as written: any of its keys may be left out.
type Retry struct {
	Pos        diag.Pos
	Keys       Keys
	MaxRetries Int
	// Base, Cap and Jitter keep their text: durations ("1s") and a
	// fraction (0.2), which the resolver parses.
	Base   String
	Cap    String
	Jitter String
}

// Classify is the catalogue's classify section.
type Classify struct {
	Pos      diag.Pos
	Keys     Keys
	Fallback String
}

// MapsTo is a family's mapping into another family.
type MapsTo struct {
	Pos     diag.Pos
	Keys    Keys
	Family  String
	Default String
}

// Match is a variant's rules for classifying foreign errors.
type Match struct {
	Pos      diag.Pos
	Keys     Keys
	Is       []String
	Contains []String
}

// Attribute declares one custom attribute: its name, its type (enum,
// string, bool or int), an enum's values, a default and a doc.
type Attribute struct {
	Pos    diag.Pos
	Keys   Keys
	Name   String
	Type   String
	Values []String
	// ValuesRefused reports that values was not a list, or that the
	// loader refused some of its items (and said why).
	ValuesRefused bool
	Default       *Scalar
	Doc           String
}

// Scalar is a one-line value whose type its declaration decides: the text
// as written, and whether it was quoted (a quoted true is text).
type Scalar struct {
	Pos    diag.Pos
	Text   string
	Quoted bool
	// NotText says what a YAML reader takes the value for where it is not
	// text (the number 3, a YAML 1.1 boolean), "" when it is text.
	NotText string
}

// AttrValue is an attribute set on a family or a variant.
type AttrValue struct {
	Name  String
	Value Scalar
}

// Subcode is one per-instance code a variant declares.
type Subcode struct {
	Pos  diag.Pos
	Code String
	Doc  String
}

// KeyPos is where a key of a mapping stands.
type KeyPos struct {
	Name string
	Pos  diag.Pos
}

// Keys are the keys a mapping holds, in the order written: what review
// tools point at when the value of a key changed.
type Keys []KeyPos

// Pos returns the position of key name, if the mapping holds it.
func (k Keys) Pos(name string) (diag.Pos, bool) {
	for _, kp := range k {
		if kp.Name == name {
			return kp.Pos, true
		}
	}
	return diag.Pos{}, false
}

// MisspeltKey reports whether the mapping at pos (a family's, a
// variant's, the catalogue's Pos) holds an unknown key the loader took
// for key.
func (c *Catalogue) MisspeltKey(pos diag.Pos, key string) bool {
	_, ok := Keys(c.Misspelt[pos]).Pos(key)
	return ok
}

// Category is one entry of the categories mapping: a name and what it means.
type Category struct {
	Name String
	Doc  String
}

// Family is a group of variants that share a Go interface and a payload type.
type Family struct {
	Pos         diag.Pos
	Keys        Keys
	Name        String
	Doc         String
	PayloadType String
	UserMessage String
	// Nums is the optional inclusive range [Nums[0], Nums[1]] of the
	// family's code numbers; nil when absent.
	Nums          []Int
	NumsPos       diag.Pos
	ReservedNums  []Int
	ReservedCodes []String
	// Attributes are the family's attribute values, the default of its
	// variants.
	Attributes []AttrValue
	// Retry is the family's retry policy, over the catalogue's; nil when
	// it declares none.
	Retry *Retry
	// MapsTo is the family's mapping into another family, nil when absent.
	MapsTo *MapsTo
	// GRPCCode is the canonical gRPC code of the family's variants.
	GRPCCode String
	Variants []*Variant
}

// Variant is one error: a code, a number, its rules and its fields.
type Variant struct {
	Pos                diag.Pos
	Keys               Keys
	Name               String
	Code               String
	Num                Int
	Category           String
	Doc                String
	Message            String
	UserMessage        String
	Retryable          Bool
	RetryableFromCause Bool
	SuppressRetry      Bool
	NonFatal           Bool
	SuppressionKey     String
	SuggestedTool      String
	SuggestedAction    String
	UsageHint          String
	// HTTPStatus holds each status as written: 429, "4xx" or "500-599".
	HTTPStatus []String
	// Subcodes are the per-instance codes an instance may select.
	Subcodes []Subcode
	// InstanceHints names the hints an instance may override.
	InstanceHints []String
	// RequiredFields is the payload's static required_fields.
	RequiredFields []String
	// RequiredFieldsPos is where required_fields stands, when present.
	RequiredFieldsPos diag.Pos
	Configurable      Bool
	Attributes        []AttrValue
	// MapsTo names the variant of the family's maps_to family this one
	// converts to.
	MapsTo String
	// Match holds the variant's rules for classifying foreign errors, nil
	// when absent.
	Match *Match
	// MCPError is the JSON-RPC error code of a variant that an MCP server
	// answers with a protocol error instead of a tool result.
	MCPError Int
	// GRPCCode is the variant's canonical gRPC code, over its family's.
	GRPCCode String
	Fields   []*Field
}

// Field is one typed value a variant carries.
type Field struct {
	Pos        diag.Pos
	Keys       Keys
	Name       String
	Type       String
	Doc        String
	Payload    Bool
	RetryAfter Bool
	// HTTPStatus marks the field FromHTTP and Classify fill with the HTTP
	// status they matched.
	HTTPStatus Bool
	// Retryable marks the bool field whose value is what Retryable
	// returns for an instance.
	Retryable Bool
	// Sensitive is set, to true or false, when the catalogue says whether
	// the field holds a secret.
	Sensitive Bool
	// Unit is the unit of a duration field: ms, s or ns.
	Unit    String
	Example *Example
}

// Example is the example value of a field as written: a scalar or a list
// of strings. Its meaning depends on the field's type, so the checker, not
// the loader, decides whether it fits.
type Example struct {
	Pos diag.Pos
	// Scalar is the text of a scalar example; Quoted reports whether it was
	// written in quotes (a quoted 5 is a string, not a number).
	Scalar string
	Quoted bool
	// List holds the items of a sequence example; IsList reports whether
	// the example was a sequence.
	List   []String
	IsList bool
}

// Waiver records a deliberate compatibility break that reviewers accepted.
type Waiver struct {
	Pos    diag.Pos
	Rule   String
	Code   String
	Family String
	Reason String
}

// Registry is an errgen.registry.yaml file: the catalogues of a
// repository, each with its owner and the num ranges it may use.
type Registry struct {
	File       string
	Keys       Keys
	Version    Int
	Catalogues []*RegistryEntry
}

// RegistryEntry is one catalogue of a registry.
type RegistryEntry struct {
	Pos  diag.Pos
	Keys Keys
	// Path is the catalogue's file, relative to the registry's folder.
	Path  String
	Owner String
	// Docs is the catalogue's Markdown reference, relative to the
	// registry's folder; unset when the registry names none.
	Docs String
	// Nums are the inclusive ranges the catalogue's nums lie in.
	Nums []NumRange
}

// NumRange is one [first, last] range of a registry entry.
type NumRange struct {
	Pos      diag.Pos
	Lo, High Int
}

// Contains reports whether n lies in the range, both ends included.
func (r NumRange) Contains(n int) bool { return int(r.Lo.Value) <= n && n <= int(r.High.Value) }

// RangeOf returns the first of rs that contains n.
func RangeOf(rs []NumRange, n int) (NumRange, bool) {
	for _, r := range rs {
		if r.Contains(n) {
			return r, true
		}
	}
	return NumRange{}, false
}

// InRanges reports whether one of rs contains n.
func InRanges(rs []NumRange, n int) bool {
	_, ok := RangeOf(rs, n)
	return ok
}
