package model

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/names"
)

// The resolver's part for what a catalogue adds to the fixed API: its code
// case, sub-codes, per-instance hints, static required fields, configurable
// classes and custom attributes.

// attrNameRE and enumValueRE are what attribute names and enum values
// match: snake_case, so each becomes a Go name of its own.
var attrNameRE = regexp.MustCompile(names.SnakePattern)

// suggestFrom is a did-you-mean hint for got among options, or "". Letter
// case does not count: OperatorErr is two edits from OperatorError.
func suggestFrom(got string, options []string) string {
	low := strings.ToLower(got)
	lower := make([]string, len(options))
	for i, o := range options {
		lower[i] = strings.ToLower(o)
	}
	if best := diag.Closest(low, lower, 3); best != "" {
		return "; did you mean " + diag.Quote(options[slices.Index(lower, best)]) + "?"
	}
	var prefixed []string
	for i, o := range lower {
		if len(low) >= 3 && (strings.HasPrefix(o, low) || strings.HasPrefix(low, o)) {
			prefixed = append(prefixed, options[i])
		}
	}
	if len(prefixed) == 1 {
		return "; did you mean " + diag.Quote(prefixed[0]) + "?"
	}
	return ""
}

// codeTooLong reports, at the code, a code longer than MaxCodeLen.
func (r *resolver) codeTooLong(code ast.String) bool {
	if len(code.Value) <= MaxCodeLen {
		return false
	}
	r.errorf(code.Pos, "code %s is %d bytes long; a code is at most %d, so that its golden file, testdata/CODE%s, fits in a file name", diag.Quote(code.Value[:24]+"..."), len(code.Value), MaxCodeLen, GoldenSuffix)
	return true
}

// deviceNames are the names Windows reserves for devices, in any letter
// case and whatever extension follows: testdata/nul.golden.json is the
// device NUL, which cannot be checked out there. Windows reserves COM0 and
// LPT0 too, and COM and LPT with a superscript digit (COM¹, LPT³), which
// Go's own check of a module's file names (golang.org/x/mod/module,
// goRefuses) does not list.
var deviceNames = []string{
	"con", "prn", "aux", "nul",
	"com0", "com1", "com2", "com3", "com4", "com5", "com6", "com7", "com8", "com9",
	"com\u00b9", "com\u00b2", "com\u00b3",
	"lpt0", "lpt1", "lpt2", "lpt3", "lpt4", "lpt5", "lpt6", "lpt7", "lpt8", "lpt9",
	"lpt\u00b9", "lpt\u00b2", "lpt\u00b3",
}

// isDeviceName reports whether Windows reserves name, a file name without
// its extension, for a device; goRefuses, whether Go refuses a module that
// holds a file of that name (module.CheckFilePath).
func isDeviceName(name string) (device, goRefuses bool) {
	lower := strings.ToLower(name)
	if !slices.Contains(deviceNames, lower) {
		return false, false
	}
	last := lower[len(lower)-1]
	return true, len(lower) == 3 || '1' <= last && last <= '9'
}

// deviceName reports, at the code, a code that Windows reserves as a
// device name, which its golden file's name would start with.
func (r *resolver) deviceName(code ast.String, what string) bool {
	device, goRefuses := isDeviceName(code.Value)
	if !device {
		return false
	}
	also := ""
	if goRefuses {
		also = ", and Go refuses a module that holds it"
	}
	r.errorf(code.Pos, "%s %s is a device name on Windows: its golden file, testdata/%s%s, could not be checked out there%s; choose another code",
		what, diag.Quote(code.Value), code.Value, GoldenSuffix, also)
	return true
}

// validCode reports whether code is in the catalogue's code case, or,
// when most codes are in the other one (reported once, at code_case), in
// either.
func (r *resolver) validCode(code string) bool {
	if r.caseUnfit {
		return Snake.Valid(code) || UpperSnake.Valid(code)
	}
	return r.m.CodeCase.Valid(code)
}

// caseFit reports, once, a code case that nearly all the catalogue's
// codes (of variants, sub-codes, reserved and compat waivers; more than
// three in four of those in either case) are not in but the other case
// would accept: at code_case, or, with none, at the first such code. That
// one change is what fixes them; a code in neither case is still reported
// on its own. A single such code, or a catalogue of mixed codes, is
// reported at each code.
func (r *resolver) caseFit() {
	var codes []ast.String
	for _, f := range r.cat.Families {
		codes = append(codes, f.ReservedCodes...)
		for _, v := range f.Variants {
			codes = append(codes, v.Code)
			for _, s := range v.Subcodes {
				codes = append(codes, s.Code)
			}
		}
	}
	for _, w := range r.cat.Compat {
		codes = append(codes, w.Code)
	}
	declared := r.m.CodeCase
	other := Snake
	if declared == Snake {
		other = UpperSnake
	}
	fit := 0
	var unfit []ast.String
	for _, c := range codes {
		switch {
		case !c.Set:
		case declared.Valid(c.Value):
			fit++
		case other.Valid(c.Value):
			unfit = append(unfit, c)
		}
	}
	if len(unfit) < 2 || len(unfit) <= 3*fit {
		return
	}
	r.caseUnfit = true
	slices.SortStableFunc(unfit, func(a, b ast.String) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	list := make([]string, len(unfit))
	for i, c := range unfit {
		list[i] = diag.Quote(c.Value)
	}
	if r.cat.CodeCase.Set {
		list[0] += " (at " + at(unfit[0].Pos) + ")"
	}
	spelt := map[CodeCase]string{Snake: "snake_case", UpperSnake: "UPPER_SNAKE"}
	fix := "set code_case: upper_snake"
	if other == Snake {
		fix = "remove code_case (snake is the default)"
	}
	codesAre := fmt.Sprintf("%d codes are %s: %s", len(unfit), spelt[other], firstFew(list, 3))
	if r.cat.CodeCase.Set {
		r.errorf(r.cat.CodeCase.Pos, "code_case is %s, but %s; %s, or write the codes in %s", declared, codesAre, fix, spelt[declared])
		return
	}
	r.errorf(unfit[0].Pos, "the catalogue's code_case is snake (the default), but %s; %s, or write the codes in %s", codesAre, fix, spelt[declared])
}

// caseHint explains, for a code that the other case would accept, that
// the catalogue chose this one.
func (r *resolver) caseHint(code string) string {
	switch {
	case r.caseKeyMisspelt && (Snake.Valid(code) || UpperSnake.Valid(code)):
		return " (the case most codes of the catalogue are in, as its code_case key is misspelt)"
	case r.caseGuessed && (Snake.Valid(code) || UpperSnake.Valid(code)):
		return " (the case most codes of the catalogue are in, as its code_case is not snake or upper_snake)"
	case r.m.CodeCase == UpperSnake && Snake.Valid(code):
		return " (the catalogue's code_case is upper_snake)"
	case r.m.CodeCase == Snake && UpperSnake.Valid(code):
		return " (the catalogue's code_case is snake; a catalogue of UPPER_SNAKE codes sets code_case: upper_snake)"
	}
	return ""
}

// attributes resolves the catalogue's attribute declarations.
func (r *resolver) attributes() {
	seen := map[string]diag.Pos{}
	for _, aa := range r.cat.Attributes {
		if !aa.Name.Set {
			continue
		}
		a := &Attribute{Name: aa.Name.Value, Doc: aa.Doc.Value, GoName: names.Go(aa.Name.Value), Pos: aa.Pos, NamePos: aa.Name.Pos, Src: aa}
		if !attrNameRE.MatchString(a.Name) {
			r.errorf(aa.Name.Pos, "attribute name %s must be snake_case: lower-case ASCII words joined by single underscores", diag.Quote(a.Name))
			continue
		}
		if p, dup := seen[a.Name]; dup {
			r.errorf(aa.Name.Pos, "duplicate attribute %s (first at %s)", diag.Quote(a.Name), at(p))
			continue
		}
		seen[a.Name] = aa.Name.Pos
		r.nonEmpty(aa.Doc, "doc")
		i := slices.Index(AttrTypes, aa.Type.Value)
		if i < 0 {
			if aa.Type.Set {
				r.errorf(aa.Type.Pos, "attribute type %s is not one of %s%s", diag.Quote(aa.Type.Value), strings.Join(AttrTypes, ", "), suggestFrom(aa.Type.Value, AttrTypes))
			}
			// Its values cannot be checked; variants that set it are not
			// reported as setting an unknown attribute.
			continue
		}
		a.Type = AttrType(i)
		values := map[string]diag.Pos{}
		switch {
		case a.Type == AttrEnum && len(aa.Values) == 0 && !aa.ValuesRefused:
			r.errorf(aa.Pos, "enum attribute %s needs values: the list of what it may be", diag.Quote(a.Name))
		case a.Type != AttrEnum:
			if p, ok := aa.Keys.Pos("values"); ok {
				r.errorf(p, "values are for enum attributes; attribute %s has type %s", diag.Quote(a.Name), a.Type)
			}
		}
		for _, val := range aa.Values {
			switch p, dup := values[val.Value]; {
			case !names.IsSnake(val.Value):
				r.errorf(val.Pos, "enum value %s must be snake_case, so that it makes a Go constant", diag.Quote(val.Value))
			case dup:
				r.errorf(val.Pos, "duplicate value %s of attribute %s (first at %s)", diag.Quote(val.Value), diag.Quote(a.Name), at(p))
			default:
				values[val.Value] = val.Pos
				a.Values = append(a.Values, val.Value)
				a.valuePos = append(a.valuePos, val.Pos)
			}
		}
		if aa.Default != nil && (a.Type != AttrEnum || len(a.Values) > 0) {
			if v, ok := r.attrValue(a, *aa.Default, "the default of attribute "+diag.Quote(a.Name)); ok {
				a.Default, a.HasDefault = v, true
			}
		}
		if aa.Default != nil || r.misspelt(aa.Pos, "default") || (a.Type == AttrEnum && len(a.Values) == 0) {
			// A default was meant, or no value can be valid: a variant
			// without one would only repeat the declaration's problem.
			r.excused[a] = true
		}
		r.m.Attributes = append(r.m.Attributes, a)
	}
}

// attrValue reads sc as a value of a; what names it in diagnostics.
func (r *resolver) attrValue(a *Attribute, sc ast.Scalar, what string) (AttrValue, bool) {
	s := sc.Text
	switch a.Type {
	case AttrBool:
		if sc.Quoted || (s != "true" && s != "false") {
			r.errorf(sc.Pos, "%s must be true or false%s, got %s", what, unquoted(sc), diag.Quote(s))
			return AttrValue{}, false
		}
		return AttrValue{Bool: s == "true"}, true
	case AttrInt:
		n, err := strconv.ParseInt(s, 10, 32)
		if sc.Quoted || err != nil || !decimalIntRE.MatchString(s) {
			r.errorf(sc.Pos, "%s must be a decimal whole number that fits in 32 bits%s, got %s", what, unquoted(sc), diag.Quote(s))
			return AttrValue{}, false
		}
		return AttrValue{Int: n}, true
	case AttrString:
		if sc.NotText != "" {
			r.errorf(sc.Pos, "%s must be text, got %s; quote it to keep it as text", what, sc.NotText)
			return AttrValue{}, false
		}
	case AttrEnum:
		if !slices.Contains(a.Values, s) {
			r.errorf(sc.Pos, "%s must be one of %s, got %s%s", what, strings.Join(a.Values, ", "), diag.Quote(s), suggestFrom(s, a.Values))
			return AttrValue{}, false
		}
	}
	return AttrValue{Str: s}, true
}

// unquoted says, for a quoted value where a bool or number is due, to
// write it without quotes.
func unquoted(sc ast.Scalar) string {
	if sc.Quoted {
		return ", written without quotes"
	}
	return ""
}

// attrValues resolves the attributes a family or variant sets, over
// inherited (its family's), and, for a variant (what names it), fills in
// every other attribute from its default, reporting those that have none
// when missing is true.
func (r *resolver) attrValues(set []ast.AttrValue, inherited []AttrSetting, what string, pos diag.Pos, missing bool) []AttrSetting {
	own := map[string]AttrSetting{}
	for _, av := range set {
		i := slices.IndexFunc(r.m.Attributes, func(a *Attribute) bool { return a.Name == av.Name.Value })
		if i < 0 {
			// Under a misspelt attributes key, nothing is declared.
			if !slices.ContainsFunc(r.cat.Attributes, func(a *ast.Attribute) bool { return a.Name.Value == av.Name.Value }) && !r.misspelt(r.cat.Pos, "attributes") {
				declared := make([]string, len(r.cat.Attributes))
				for k, a := range r.cat.Attributes {
					declared[k] = a.Name.Value
				}
				hint := suggestFrom(av.Name.Value, declared)
				if len(declared) == 0 {
					hint = "; declare it under the catalogue's attributes"
				}
				r.errorf(av.Name.Pos, "attribute %s is not declared under attributes%s", diag.Quote(av.Name.Value), hint)
			}
			continue
		}
		a := r.m.Attributes[i]
		if v, ok := r.attrValue(a, av.Value, "attribute "+diag.Quote(a.Name)); ok {
			own[a.Name] = AttrSetting{Attr: a, Value: v, From: AttrFromVariant}
		}
	}
	var out []AttrSetting
	for _, a := range r.m.Attributes {
		if s, ok := own[a.Name]; ok {
			out = append(out, s)
			continue
		}
		if i := slices.IndexFunc(inherited, func(s AttrSetting) bool { return s.Attr == a }); i >= 0 {
			out = append(out, inherited[i])
			continue
		}
		if a.HasDefault {
			out = append(out, AttrSetting{Attr: a, Value: a.Default, From: AttrFromDefault})
			continue
		}
		if what != "" && missing && !r.excused[a] {
			if r.unset == nil {
				r.unset = map[*Attribute][]unsetAt{}
			}
			r.unset[a] = append(r.unset[a], unsetAt{what, pos})
		}
	}
	return out
}

// unsetAt is a variant that gives an attribute without a default no
// value: its name, quoted, and where it stands.
type unsetAt struct {
	what string
	pos  diag.Pos
}

// unsetAttributes reports the variants that give an attribute without a
// default no value. One is reported at the variant, which is to set it;
// several are one error at the attribute's declaration, which a default
// fixes at once, listing the first of them and how many there are.
func (r *resolver) unsetAttributes() {
	for _, a := range r.m.Attributes {
		vs := r.unset[a]
		switch {
		case len(vs) == 0:
		case len(vs) == 1:
			r.errorf(vs[0].pos, "variant %s has no value for attribute %s, which has no default; set it on the variant or its family", vs[0].what, diag.Quote(a.Name))
		default:
			list := make([]string, len(vs))
			for i, v := range vs {
				list[i] = v.what
			}
			list[0] += " (at " + at(vs[0].pos) + ")"
			r.errorf(a.NamePos, "attribute %s has no default, and %d variants give it no value: %s; give it a default, or set it on each of them or their families", diag.Quote(a.Name), len(vs), firstFew(list, 3))
		}
	}
}

// instance resolves what an instance of v may carry beside its fields:
// sub-codes, overridable hints, static required fields, and whether the
// application configures its class.
func (r *resolver) instance(f *Family, av *ast.Variant, v *Variant, payload bool) {
	for _, as := range av.Subcodes {
		if !as.Code.Set {
			continue
		}
		code := as.Code.Value
		r.nonEmpty(as.Doc, "doc")
		switch {
		case r.codeTooLong(as.Code):
			continue
		case !r.validCode(code):
			r.errorf(as.Code.Pos, "sub-code %s must match %s%s", diag.Quote(code), r.m.CodeCase.Pattern(), r.caseHint(code))
			continue
		case r.deviceName(as.Code, "sub-code"):
			continue
		case r.reservedCodes[code].IsValid():
			r.errorf(as.Code.Pos, "sub-code %s is reserved (at %s) and must never be used again", diag.Quote(code), at(r.reservedCodes[code]))
			continue
		}
		if p, dup := r.codes[code]; dup {
			r.errorf(as.Code.Pos, "sub-code %s is already a code (first defined at %s); codes and sub-codes share one namespace, so Lookup finds one variant by each", diag.Quote(code), at(p))
			continue
		}
		r.codes[code] = as.Code.Pos
		v.Subcodes = append(v.Subcodes, &Subcode{Code: code, Doc: as.Doc.Value, GoName: subcodeConst(code), Variant: v, Pos: as.Code.Pos})
	}
	seen := map[Hint]bool{}
	for _, h := range av.InstanceHints {
		i := slices.Index(HintNames(), h.Value)
		switch {
		case i < 0:
			r.errorf(h.Pos, "instance hint %s is not one of %s%s", diag.Quote(h.Value), strings.Join(HintNames(), ", "), suggestFrom(h.Value, HintNames()))
			continue
		case seen[Hint(i)]:
			r.errorf(h.Pos, "instance hint %s is listed twice", diag.Quote(h.Value))
			continue
		case !payload && Hint(i) != HintSuppressionKey:
			r.errorf(h.Pos, "instance hint %s only appears in an LLM payload, and family %s has no payload_type", diag.Quote(h.Value), diag.Quote(f.Name))
		}
		seen[Hint(i)] = true
	}
	for _, h := range Hints {
		if seen[h] {
			v.InstanceHints = append(v.InstanceHints, h)
		}
	}
	if len(av.RequiredFields) > 0 && !payload {
		r.errorf(av.RequiredFieldsPos, "required_fields only appears in an LLM payload, and family %s has no payload_type", diag.Quote(f.Name))
	}
	required := map[string]diag.Pos{}
	for _, s := range av.RequiredFields {
		switch p, dup := required[s.Value]; {
		case s.Value == "" || strings.ContainsFunc(s.Value, isSpace):
			r.errorf(s.Pos, "each item of required_fields must be a parameter name, without white space, got %s", diag.Quote(s.Value))
		case dup:
			r.errorf(s.Pos, "required field %s is listed twice (first at %s)", diag.Quote(s.Value), at(p))
		default:
			required[s.Value] = s.Pos
			v.RequiredFields = append(v.RequiredFields, s.Value)
		}
	}
	if av.Configurable.Value {
		v.Configurable = true
		if av.RetryableFromCause.Value {
			r.errorf(av.Configurable.Pos, "a variant cannot be both configurable and retryable_from_cause: the class comes from the application's policy or from the cause, not both")
		}
	}
	// The instance fields follow the catalogue's: a field may not take
	// their Go names. A field named like a payload key is refused already.
	for _, fd := range v.Fields {
		for _, inf := range v.InstanceFields() {
			if fd.Src != nil && fd.Src.Name.Set && fd.GoName == inf.Name && !slices.Contains(PayloadKeys, fd.Name) {
				r.errorf(fd.Src.Name.Pos, "field %s becomes %s, which the variant's %s needs; rename the field", diag.Quote(fd.Name), inf.Name, instanceWhat(inf))
			}
		}
	}
}

func instanceWhat(inf InstanceField) string {
	if inf.Subcode {
		return "subcodes"
	}
	return "instance hint " + diag.Quote(inf.Hint.String())
}

// isSpace reports whether r is a space a text may hold: tab or a Unicode
// space separator. The loader refuses line breaks and other controls.
func isSpace(r rune) bool { return r == '\t' || unicode.Is(unicode.Zs, r) }
