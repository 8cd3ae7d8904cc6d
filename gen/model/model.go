// Package model holds a checked catalogue resolved for emitting: Go names
// derived, templates parsed, field types resolved, causes and retry-after
// fields found, example values filled in, variants indexed by number. Every
// emitter reads this model and nothing else.
package model

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/names"
	"github.com/errgen/errgen/gen/tmpl"
)

// Catalogue is a resolved catalogue.
type Catalogue struct {
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

// Build resolves a catalogue that check.Check accepted. It returns an error
// only if the catalogue was not checked first.
func Build(cat *ast.Catalogue) (*Catalogue, error) {
	m := &Catalogue{File: cat.File, Package: cat.Package.Value}
	for _, k := range cat.Categories {
		m.Categories = append(m.Categories, Category{Name: k.Name.Value, Doc: k.Doc.Value, Pos: k.Name.Pos})
	}
	fams := map[string]*Family{}
	for _, af := range cat.Families {
		f := &Family{Name: af.Name.Value, Doc: af.Doc.Value, PayloadType: af.PayloadType.Value, Pos: af.Pos}
		if af.UserMessage.Set {
			t, err := tmpl.Parse(af.UserMessage.Value)
			if err != nil {
				return nil, fmt.Errorf("%s: unchecked catalogue: %v", af.UserMessage.Pos, err)
			}
			f.UserMessage = t
		}
		if len(af.Nums) == 2 {
			f.Nums, f.HasNums = [2]int{int(af.Nums[0].Value), int(af.Nums[1].Value)}, true
		}
		for _, n := range af.ReservedNums {
			f.ReservedNums = append(f.ReservedNums, int(n.Value))
		}
		for _, s := range af.ReservedCodes {
			f.ReservedCodes = append(f.ReservedCodes, s.Value)
		}
		fams[f.Name] = f
		m.Families = append(m.Families, f)
	}
	for i, af := range cat.Families {
		f := m.Families[i]
		for _, av := range af.Variants {
			v, err := buildVariant(f, av, fams)
			if err != nil {
				return nil, err
			}
			f.Variants = append(f.Variants, v)
			m.Variants = append(m.Variants, v)
		}
	}
	m.ByNum = slices.Clone(m.Variants)
	slices.SortFunc(m.ByNum, func(a, b *Variant) int { return cmp.Compare(a.Num, b.Num) })
	for i, v := range m.ByNum {
		v.Index = i
	}
	for _, v := range m.Variants {
		for _, f := range v.Fields {
			if !f.ExampleSet && f.Type.Kind == FamilyKind {
				f.Example.Variant = exampleVariant(f.Type.Family, map[*Family]bool{v.Family: true})
			}
		}
	}
	for _, w := range cat.Compat {
		m.Waivers = append(m.Waivers, Waiver{Rule: w.Rule.Value, Code: w.Code.Value, Reason: w.Reason.Value, Pos: w.Pos})
	}
	return m, nil
}

// exampleVariant picks the variant whose example stands for a cause of
// family f: its first variant, unless building it would come back to a
// family already on the way (a cycle), in which case the cause stays nil.
func exampleVariant(f *Family, visiting map[*Family]bool) *Variant {
	if visiting[f] || len(f.Variants) == 0 {
		return nil
	}
	v := f.Variants[0]
	if v.Cause != nil && v.Cause.Type.Kind == FamilyKind {
		next := map[*Family]bool{f: true}
		for k := range visiting {
			next[k] = true
		}
		if exampleVariant(v.Cause.Type.Family, next) == nil {
			return nil
		}
	}
	return v
}

func parseOpt(s ast.String) (tmpl.Template, error) {
	if !s.Set {
		return nil, nil
	}
	t, err := tmpl.Parse(s.Value)
	if err != nil {
		return nil, fmt.Errorf("%s: unchecked catalogue: %v", s.Pos, err)
	}
	return t, nil
}

func buildVariant(f *Family, av *ast.Variant, fams map[string]*Family) (*Variant, error) {
	v := &Variant{
		Family: f, Name: av.Name.Value, Code: av.Code.Value, Num: int(av.Num.Value),
		Category: av.Category.Value, Doc: av.Doc.Value,
		MessageText: av.Message.Value, UserMessageText: av.UserMessage.Value,
		SuppressionKeyText: av.SuppressionKey.Value,
		Retryable:          av.Retryable.Value, RetryableFromCause: av.RetryableFromCause.Value,
		SuppressRetry: av.SuppressRetry.Value, NonFatal: av.NonFatal.Value,
		SuggestedTool: av.SuggestedTool.Value, SuggestedAction: av.SuggestedAction.Value,
		UsageHint: av.UsageHint.Value, Pos: av.Pos,
	}
	var err error
	if v.Message, err = parseOpt(av.Message); err != nil {
		return nil, err
	}
	if v.UserMessage, err = parseOpt(av.UserMessage); err != nil {
		return nil, err
	}
	if v.SuppressionKey, err = parseOpt(av.SuppressionKey); err != nil {
		return nil, err
	}
	for _, s := range av.HTTPStatus {
		v.HTTPStatus = append(v.HTTPStatus, int(s.Value))
	}
	for i, af := range av.Fields {
		fd := &Field{Name: af.Name.Value, GoName: names.Go(af.Name.Value), Doc: af.Doc.Value,
			Payload: af.Payload.Value, RetryAfter: af.RetryAfter.Value, Pos: af.Pos}
		if k, ok := kindNames[af.Type.Value]; ok {
			fd.Type = Type{Kind: k, Name: af.Type.Value}
		} else if fam := fams[af.Type.Value]; fam != nil {
			fd.Type = Type{Kind: FamilyKind, Family: fam, Name: af.Type.Value}
		} else {
			return nil, fmt.Errorf("%s: unchecked catalogue: unknown type %q", af.Type.Pos, af.Type.Value)
		}
		if err := fillExample(fd, af.Example, i); err != nil {
			return nil, err
		}
		if fd.Type.IsCause() {
			v.Cause = fd
		}
		if fd.RetryAfter {
			v.RetryAfter = fd
		}
		v.Fields = append(v.Fields, fd)
	}
	return v, nil
}

// fillExample sets a field's example from the catalogue, or to a
// deterministic placeholder: the field's name for text, its position (from
// 1) for numbers, true, one second per position, or "<name> failed" for an
// error cause.
func fillExample(fd *Field, ex *ast.Example, i int) error {
	n := int64(i + 1)
	v := &fd.Example
	if ex == nil {
		switch fd.Type.Kind {
		case String:
			v.Str = fd.Name
		case Bool:
			v.Bool = true
		case Int, Int64:
			v.Int = n
		case Uint64:
			v.Uint = uint64(n)
		case Float64:
			v.Float = float64(n) + 0.5
		case Duration:
			v.Duration = time.Duration(n) * time.Second
		case Strings:
			v.List = []string{fd.Name}
		case Error:
			v.Str = fd.Name + " failed"
		}
		return nil
	}
	fd.ExampleSet = true
	bad := func(err error) error {
		return fmt.Errorf("%s: unchecked catalogue: example: %v", ex.Pos, err)
	}
	var err error
	switch fd.Type.Kind {
	case String, Error:
		v.Str = ex.Scalar
	case Bool:
		v.Bool = ex.Scalar == "true"
	case Int, Int64:
		v.Int, err = strconv.ParseInt(ex.Scalar, 10, 64)
	case Uint64:
		v.Uint, err = strconv.ParseUint(ex.Scalar, 10, 64)
	case Float64:
		v.Float, err = strconv.ParseFloat(ex.Scalar, 64)
	case Duration:
		v.Duration, err = time.ParseDuration(ex.Scalar)
	case Strings:
		for _, s := range ex.List {
			v.List = append(v.List, s.Value)
		}
	case FamilyKind:
		return bad(fmt.Errorf("a family cause takes no example"))
	}
	if err != nil {
		return bad(err)
	}
	return nil
}
