package model

import (
	"strconv"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/names"
)

// AttrType is the type of a custom attribute.
type AttrType int

// The attribute types.
const (
	AttrEnum AttrType = iota
	AttrString
	AttrBool
	AttrInt
)

// AttrTypes are the names type takes, in the order of the constants.
var AttrTypes = []string{"enum", "string", "bool", "int"}

// String returns the type's name as the catalogue writes it.
func (t AttrType) String() string { return AttrTypes[t] }

// Attribute is a custom attribute the catalogue declares, like a protobuf
// custom option: per-error metadata of the catalogue's own (how a turn
// handles the failure, the run state a limit leads to, the source layer).
// The generated package has one lookup for it, <GoName>Of(err), and, for an
// enum, a string type named GoName with one constant per value.
type Attribute struct {
	Name string
	Doc  string
	Type AttrType
	// Values are an enum's values, in the order declared.
	Values []string
	// Default is the value of a variant that neither it nor its family
	// sets; HasDefault reports whether there is one. Without a default,
	// every variant must get a value.
	Default    AttrValue
	HasDefault bool
	// GoName is the Go name the attribute's type (for an enum) and its
	// lookup are made from: turn_handling → TurnHandling, TurnHandlingOf.
	GoName string
	Pos    diag.Pos
	// NamePos is where its name is written.
	NamePos diag.Pos
	// valuePos is where each of Values is written.
	valuePos []diag.Pos
	// Src is the declaration as written, for the positions of its keys;
	// nil once the catalogue's source is dropped.
	Src *ast.Attribute
}

// KeyPos returns where key stands in the attribute's declaration, or the
// declaration's own position when the key is absent.
func (a *Attribute) KeyPos(key string) diag.Pos {
	if a.Src != nil {
		if p, ok := a.Src.Keys.Pos(key); ok {
			return p
		}
	}
	return a.Pos
}

// Lookup is the generated function that returns the attribute of the first
// error of the catalogue in a chain.
func (a *Attribute) Lookup() string { return a.GoName + "Of" }

// Table is the unexported table of the attribute's value per variant.
func (a *Attribute) Table() string { return "attr" + a.GoName }

// GoType is the Go type of the attribute's values.
func (a *Attribute) GoType() string {
	switch a.Type {
	case AttrString:
		return "string"
	case AttrBool:
		return "bool"
	case AttrInt:
		return "int"
	}
	return a.GoName
}

// ValueConst is the typed constant of an enum value: turn_handling's
// fail_open → TurnHandlingFailOpen.
func (a *Attribute) ValueConst(value string) string { return a.GoName + names.Go(value) }

// AttrValue is a value of an attribute: the member its type uses.
type AttrValue struct {
	Str  string
	Bool bool
	Int  int64
}

// Text is the value as the catalogue writes it and the docs show it.
func (a *Attribute) Text(v AttrValue) string {
	switch a.Type {
	case AttrBool:
		return strconv.FormatBool(v.Bool)
	case AttrInt:
		return strconv.FormatInt(v.Int, 10)
	}
	return v.Str
}

// Shown is the value as people read it in the docs and explain: its Text,
// but an empty string as "" (the way the catalogue writes it), which would
// otherwise show as nothing at all.
func (a *Attribute) Shown(v AttrValue) string {
	if t := a.Text(v); t != "" {
		return t
	}
	return `""`
}

// AttrSource says where a variant's value of an attribute comes from.
type AttrSource int

// The sources of an attribute's value, in the order they are tried.
const (
	AttrFromVariant AttrSource = iota
	AttrFromFamily
	AttrFromDefault
)

// AttrSetting is the value a variant has for one attribute.
type AttrSetting struct {
	Attr  *Attribute
	Value AttrValue
	From  AttrSource
}

// Text is the setting's value as the catalogue writes it.
func (s AttrSetting) Text() string { return s.Attr.Text(s.Value) }

// Shown is the setting's value as people read it: Attribute.Shown.
func (s AttrSetting) Shown() string { return s.Attr.Shown(s.Value) }

// Attr returns v's setting of the attribute named name; ok is false when
// the catalogue declares no such attribute.
func (v *Variant) Attr(name string) (AttrSetting, bool) {
	for _, s := range v.Attrs {
		if s.Attr.Name == name {
			return s, true
		}
	}
	return AttrSetting{}, false
}
