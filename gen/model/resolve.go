package model

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/names"
	"github.com/errgen/errgen/gen/tmpl"
)

var (
	decimalIntRE = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)
	// decimalFloatRE is a float of YAML 1.2's core schema, as a YAML reader
	// (and so a JSON Schema of the catalogue) takes it, .5 and 1. included,
	// but for .inf, .nan and a sign +, which decimalIntRE refuses too.
	decimalFloatRE = regexp.MustCompile(`^-?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	statusRE       = regexp.MustCompile(`^([1-5])([0-9][0-9]|xx)$`)
	statusRangeRE  = regexp.MustCompile(`^([1-5][0-9][0-9])-([1-5][0-9][0-9])$`)
)

// MaxFields is the most fields a variant may have: the generated runtime
// addresses a variant's fields with one byte.
const MaxFields = 255

// Resolve checks cat and builds its model in the same pass. It returns
// every problem, sorted by position, and the model, which is nil when any
// problem is an error. Values of the wrong form were left unset by the
// loader and are skipped here, so a catalogue with form errors is still
// checked as far as it can be, in one run.
func Resolve(cat *ast.Catalogue) (*Catalogue, diag.List) { return resolve(cat, nil) }

func resolve(cat *ast.Catalogue, imp Importer) (*Catalogue, diag.List) {
	r := &resolver{
		cat:     cat,
		imports: imp,
		m:       &Catalogue{Src: cat, File: cat.File, Package: cat.Package.Value},
		names:   map[string]diag.Pos{},
		codes:   map[string]diag.Pos{},
		nums:    map[int64]diag.Pos{},

		families:       map[string]*Family{},
		familyNames:    map[string]bool{},
		statuses:       map[int]*statusCover{},
		categories:     map[string]*Category{},
		usedCategories: map[string]bool{},
		reservedNums:   map[int64]diag.Pos{},
		reservedCodes:  map[string]diag.Pos{},
		allCategorised: true,
		excused:        map[*Attribute]bool{},
		typeUnknown:    map[*Variant]bool{},
		retryUnknown:   map[*Variant]bool{},
	}
	r.catalogue()
	diags := r.diags.Sort()
	if diags.HasErrors() {
		return nil, diags
	}
	return r.m, diags
}

// resolver holds the state of one Resolve.
type resolver struct {
	cat   *ast.Catalogue
	m     *Catalogue
	diags diag.List
	// imports gives the families of other catalogues; nil outside a
	// registry.
	imports Importer

	names map[string]diag.Pos // family and variant names
	// goNames holds every Go name the generated package declares for the
	// catalogue, with what declared it (constants).
	goNames map[string]goName
	codes   map[string]diag.Pos
	nums    map[int64]diag.Pos
	// ranges are the http_status ranges accepted so far, and statuses,
	// for each width, which of them covers each status (its index in
	// ranges plus one).
	ranges   []StatusRange
	statuses map[int]*statusCover
	// families are the families whose names are usable, by name: what a
	// field's type may name.
	families map[string]*Family
	// familyNames holds every family name as written that is a Go name,
	// usable or not, so that no name takes another family's helper.
	familyNames    map[string]bool
	categories     map[string]*Category // declared categories, by name
	usedCategories map[string]bool
	reservedNums   map[int64]diag.Pos
	reservedCodes  map[string]diag.Pos
	// excused are the attributes whose missing values are not reported:
	// their declaration meant a default, or allows no value.
	excused map[*Attribute]bool
	// unset are, for each attribute without a default, the variants that
	// give it no value: reported together, at the declaration.
	unset map[*Attribute][]unsetAt
	// typeUnknown are the variants with a field whose type was written but
	// is unknown or was refused (reported once, at the type): the field
	// may be the cause they were meant to have, so what needs a cause is
	// not also refused for lacking one.
	typeUnknown map[*Variant]bool
	// retryUnknown are the variants whose retryability is unknown: a key
	// that decides it (retryable, retryable_from_cause, configurable,
	// fields, a field's retryable) was refused or misspelt, or a field
	// marked retryable could not take the role, each reported once. What
	// holds only of a never-retryable variant is not also said of them.
	retryUnknown map[*Variant]bool
	// unnamedFamily reports that some family has no name of its own:
	// none could be read, or it repeats another's. A field type or a
	// maps_to that names no family may name that one, by the name it is
	// to have.
	unnamedFamily bool
	// allCategorised is false when some variant has no readable category
	// or an undeclared one, or no variant was read at all: only then can
	// a category be known to be unused.
	allCategorised bool
	// caseGuessed reports that code_case was refused, or its key
	// misspelt (caseKeyMisspelt), and codes are
	// checked against the case most of them are in.
	caseGuessed     bool
	caseKeyMisspelt bool
	// caseUnfit reports that most codes are in the other case than the
	// catalogue's code_case, which was reported once: a code in either
	// case is not reported again.
	caseUnfit bool
	// selectionUnknown reports that the projections key was misspelt:
	// which projections the catalogue selects is unknown. meantProjection
	// holds the projections an unknown name in it was taken for.
	selectionUnknown bool
	meantProjection  map[string]bool
}

func (r *resolver) errorf(pos diag.Pos, format string, args ...any) {
	r.diags.Errorf(pos, format, args...)
}

func (r *resolver) warnf(pos diag.Pos, format string, args ...any) {
	r.diags.Warnf(pos, format, args...)
}

// misspelt reports whether the mapping at pos has an unknown key the
// loader took for key, and reported with its did-you-mean: what the key's
// absence would cause is not reported as well.
func (r *resolver) misspelt(pos diag.Pos, key string) bool {
	return r.cat.MisspeltKey(pos, key)
}

func at(p diag.Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// fieldLabel names a field in a message: its name, quoted, or, when its
// name could not be read (and was reported), the field's place.
func fieldLabel(name string, pos diag.Pos) string {
	if name == "" {
		return "at " + at(pos)
	}
	return diag.Quote(name)
}

func (r *resolver) catalogue() {
	cat, m := r.cat, r.m
	if cat.Version.Set && cat.Version.Value != 1 {
		r.errorf(cat.Version.Pos, "unsupported version %d; the only catalogue format is version 1", cat.Version.Value)
	}
	if cat.Package.Set && !names.IsPackage(cat.Package.Value) {
		r.errorf(cat.Package.Pos, "package %s is not a usable Go package name (lower-case letters and digits; not a Go keyword, predeclared identifier, main, init or documentation)", diag.Quote(cat.Package.Value))
	}
	if cat.CodeCase.Set {
		if i := slices.Index(CodeCases, cat.CodeCase.Value); i >= 0 {
			m.CodeCase = CodeCase(i)
		} else {
			r.errorf(cat.CodeCase.Pos, "code_case %s is not one of %s%s", diag.Quote(cat.CodeCase.Value), strings.Join(CodeCases, ", "), suggestFrom(cat.CodeCase.Value, CodeCases))
			// The case meant is unknown: the codes are checked against
			// the one most of them are in, so that one mistyped key is
			// not also an error at every code.
			m.CodeCase, r.caseGuessed = majorityCase(cat), true
		}
	} else if r.misspelt(cat.Pos, "code_case") {
		// The key was reported with its did-you-mean; the value it holds
		// is unknown.
		m.CodeCase, r.caseGuessed, r.caseKeyMisspelt = majorityCase(cat), true, true
	}
	if !r.caseGuessed {
		r.caseFit()
	}
	if r.nonEmpty(cat.UserMessage, "user_message") {
		m.UserMessage = r.template(cat.UserMessage, "user_message", nil, true)
	}
	r.attributes()
	m.Categories = make([]*Category, 0, len(cat.Categories))
	r.categories = make(map[string]*Category, len(cat.Categories))
	for _, k := range cat.Categories {
		if first := r.categories[k.Name.Value]; first != nil {
			r.errorf(k.Name.Pos, "duplicate category %s (first at %s)", diag.Quote(k.Name.Value), at(first.Pos))
			continue
		}
		if !names.IsCode(k.Name.Value) {
			r.errorf(k.Name.Pos, "category name %s must match %s", diag.Quote(k.Name.Value), names.CodePattern)
		}
		if k.Doc.Set && strings.TrimSpace(k.Doc.Value) == "" {
			r.errorf(k.Doc.Pos, "category %s needs a description", diag.Quote(k.Name.Value))
		}
		c := &Category{Name: k.Name.Value, Doc: k.Doc.Value, GoName: categoryConst(k.Name.Value), Pos: k.Name.Pos}
		m.Categories = append(m.Categories, c)
		r.categories[c.Name] = c
	}
	// Family names first, so a variant named like a later family is caught
	// at the variant, and every family can be a field type. Every family's
	// helper name is known before any name is checked against it.
	for _, af := range cat.Families {
		if af.Name.Set && names.IsExported(af.Name.Value) {
			r.familyNames[af.Name.Value] = true
		}
	}
	for _, af := range cat.Families {
		f := r.familyHead(af)
		m.Families = append(m.Families, f)
	}
	// Reserved values before variants, so a variant that reuses one is
	// reported at the variant, which is the thing to change.
	for i, af := range cat.Families {
		r.reserved(af, m.Families[i])
	}
	if len(cat.Families) == 0 {
		r.allCategorised = false
	}
	for i, af := range cat.Families {
		r.family(af, m.Families[i])
		if len(af.Variants) == 0 {
			r.allCategorised = false
		}
	}
	r.unsetAttributes()
	r.constants()
	r.behaviour()
	r.projections()
	r.shadowedStatuses()
	if !r.diags.HasErrors() && !cat.Incomplete {
		r.builtinWarnings()
	}
	if r.allCategorised {
		for _, k := range cat.Categories {
			if !r.usedCategories[k.Name.Value] {
				r.warnf(k.Name.Pos, "category %s is declared but no variant uses it", diag.Quote(k.Name.Value))
			}
		}
	}
	for _, w := range cat.Compat {
		if w.Rule.Set && !names.IsRule(w.Rule.Value) {
			r.errorf(w.Rule.Pos, "compat rule %s must be a rule ID such as NUM_REASSIGNED", diag.Quote(w.Rule.Value))
		}
		if w.Code.Set && r.codeTooLong(w.Code) {
		} else if w.Code.Set && !r.validCode(w.Code.Value) {
			r.errorf(w.Code.Pos, "compat code %s must match %s%s", diag.Quote(w.Code.Value), m.CodeCase.Pattern(), r.caseHint(w.Code.Value))
		}
		subject := w.Code.Pos
		switch {
		case w.Code.Set && w.Family.Set:
			r.errorf(w.Family.Pos, "a compat waiver names a code or a family, not both")
		case w.Family.Set:
			subject = w.Family.Pos
		case !w.Code.Set:
			// A waiver of a change to the whole catalogue; whether its
			// rule can be one is compat's to say (compat.CheckWaivers).
			subject = w.Pos
		}
		if w.Reason.Set && strings.TrimSpace(w.Reason.Value) == "" {
			r.errorf(w.Reason.Pos, "a compat waiver needs a reason reviewers can read")
		}
		m.Waivers = append(m.Waivers, Waiver{Rule: w.Rule.Value, Code: w.Code.Value, Family: w.Family.Value, Reason: w.Reason.Value,
			Pos: w.Pos, RulePos: w.Rule.Pos, SubjectPos: subject})
	}
	m.ByNum = slices.Clone(m.Variants)
	slices.SortFunc(m.ByNum, func(a, b *Variant) int { return cmp.Compare(a.Num, b.Num) })
	for i, v := range m.ByNum {
		v.Index = i
	}
	for _, v := range m.Variants {
		for _, f := range v.Fields {
			// A family of another catalogue has no example here: the
			// generated test builds its errors without that cause.
			if !f.ExampleSet && f.Type.Kind == FamilyKind && f.Type.Import == "" {
				f.Example.Variant = exampleVariant(f.Type.Family, map[*Family]bool{v.Family: true})
			}
		}
	}
}

// goName checks a family or variant name: exported, ASCII, unique, and not
// one the generated package declares itself.
func (r *resolver) goName(s ast.String, what string) bool {
	if !s.Set {
		return false
	}
	if !names.IsExported(s.Value) {
		r.errorf(s.Pos, "%s name %s must be an exported Go identifier: an upper-case ASCII letter, then letters and digits", what, diag.Quote(s.Value))
		return false
	}
	if slices.Contains(PackageScope, s.Value) {
		r.errorf(s.Pos, "%s name %s is taken by the generated package's own API", what, diag.Quote(s.Value))
		return false
	}
	if other, ok := names.HelperFamily(s.Value); ok && r.familyNames[other] {
		r.errorf(s.Pos, "%s name %s is taken by the generated helper for family %s", what, diag.Quote(s.Value), diag.Quote(other))
		return false
	}
	if p, dup := r.names[s.Value]; dup {
		r.errorf(s.Pos, "name %s is already used (first defined at %s); family and variant names share one namespace", diag.Quote(s.Value), at(p))
		return false
	}
	r.names[s.Value] = s.Pos
	return true
}

// nonEmpty reports whether s is set, and refuses it when it is blank.
func (r *resolver) nonEmpty(s ast.String, what string) bool {
	if s.Set && strings.TrimSpace(s.Value) == "" {
		r.errorf(s.Pos, "%s must not be empty", what)
		return false
	}
	return s.Set
}

// familyHead starts a family's model with its name, the part every other
// family's fields may refer to.
func (r *resolver) familyHead(af *ast.Family) *Family {
	f := &Family{Src: af, Name: af.Name.Value, Doc: af.Doc.Value, PayloadType: af.PayloadType.Value, Pos: af.Pos}
	if _, dup := r.names[af.Name.Value]; dup || !af.Name.Set {
		r.unnamedFamily = true
	}
	if r.goName(af.Name, "family") {
		r.families[af.Name.Value] = f
	}
	return f
}

// reserved records a family's reserved nums and codes.
func (r *resolver) reserved(af *ast.Family, f *Family) {
	for _, n := range af.ReservedNums {
		if p, dup := r.reservedNums[n.Value]; dup {
			r.errorf(n.Pos, "num %d is reserved twice (first at %s)", n.Value, at(p))
			continue
		}
		r.reservedNums[n.Value] = n.Pos
		if n.Value <= 0 {
			r.errorf(n.Pos, "reserved num %d must be positive", n.Value)
		}
		f.ReservedNums = append(f.ReservedNums, int(n.Value))
	}
	for _, s := range af.ReservedCodes {
		if p, dup := r.reservedCodes[s.Value]; dup {
			r.errorf(s.Pos, "code %s is reserved twice (first at %s)", diag.Quote(s.Value), at(p))
			continue
		}
		r.reservedCodes[s.Value] = s.Pos
		if r.codeTooLong(s) {
		} else if !r.validCode(s.Value) {
			r.errorf(s.Pos, "reserved code %s must match %s%s", diag.Quote(s.Value), r.m.CodeCase.Pattern(), r.caseHint(s.Value))
		}
		f.ReservedCodes = append(f.ReservedCodes, s.Value)
	}
}

func (r *resolver) family(af *ast.Family, f *Family) {
	if af.PayloadType.Set && !names.IsCode(af.PayloadType.Value) {
		r.errorf(af.PayloadType.Pos, "payload_type %s must match %s", diag.Quote(af.PayloadType.Value), names.CodePattern)
	}
	r.nonEmpty(af.Doc, "doc")
	if r.nonEmpty(af.UserMessage, "user_message") {
		f.UserMessage = r.template(af.UserMessage, "user_message", nil, true)
	}
	ranged := false
	if len(af.Nums) == 2 {
		lo, hi := af.Nums[0].Value, af.Nums[1].Value
		switch {
		case lo <= 0:
			r.errorf(af.Nums[0].Pos, "nums range must start at a positive number, got %d", lo)
		case lo > hi:
			r.errorf(af.NumsPos, "nums range [%d, %d] is empty: the first number must not exceed the last", lo, hi)
		default:
			ranged = true
			f.Nums, f.HasNums = [2]int{int(lo), int(hi)}, true
		}
	}
	// A payload_type of the wrong form, or under a misspelt key, was
	// reported by the loader; the family still means to have a payload.
	payload := af.PayloadType.Set || af.PayloadType.Pos.IsValid() || r.misspelt(af.Pos, "payload_type")
	for _, s := range r.attrValues(af.Attributes, nil, "", af.Pos, false) {
		if s.From == AttrFromVariant {
			s.From = AttrFromFamily
			f.Attrs = append(f.Attrs, s)
		}
	}
	for _, av := range af.Variants {
		v := r.variant(f, av, payload)
		// A num that is not positive is refused as such; no range
		// could hold it.
		if ranged && av.Num.Set && av.Num.Value > 0 && (av.Num.Value < int64(f.Nums[0]) || av.Num.Value > int64(f.Nums[1])) {
			r.errorf(av.Num.Pos, "num %d is outside the range [%d, %d] of family %s", av.Num.Value, f.Nums[0], f.Nums[1], diag.Quote(f.Name))
		}
		f.Variants = append(f.Variants, v)
		r.m.Variants = append(r.m.Variants, v)
	}
}

func (r *resolver) variant(f *Family, av *ast.Variant, payload bool) *Variant {
	v := &Variant{
		Src: av, Family: f, Name: av.Name.Value, Code: av.Code.Value, Num: int(av.Num.Value),
		Doc:           av.Doc.Value,
		Retry:         Retry{Retryable: av.Retryable.Value, FromCause: av.RetryableFromCause.Value},
		SuppressRetry: av.SuppressRetry.Value, NonFatal: av.NonFatal.Value,
		SuggestedTool: av.SuggestedTool.Value, SuggestedAction: av.SuggestedAction.Value,
		UsageHint: av.UsageHint.Value, Pos: av.Pos,
	}
	r.goName(av.Name, "variant")
	for _, k := range []struct {
		b   ast.Bool
		key string
	}{{av.Retryable, "retryable"}, {av.RetryableFromCause, "retryable_from_cause"}, {av.Configurable, "configurable"}} {
		if unread(k.b) || r.misspelt(av.Pos, k.key) {
			r.retryUnknown[v] = true
		}
	}
	if r.misspelt(av.Pos, "fields") {
		r.retryUnknown[v] = true
	}
	if av.Code.Set {
		switch code := av.Code.Value; {
		case r.codeTooLong(av.Code):
		case !r.validCode(code):
			r.errorf(av.Code.Pos, "code %s must match %s%s", diag.Quote(code), r.m.CodeCase.Pattern(), r.caseHint(code))
		case r.deviceName(av.Code, "code"):
		case r.reservedCodes[code].IsValid():
			r.errorf(av.Code.Pos, "code %s is reserved (at %s) and must never be used again", diag.Quote(code), at(r.reservedCodes[code]))
		default:
			if p, dup := r.codes[code]; dup {
				r.errorf(av.Code.Pos, "duplicate code %s (first defined at %s)", diag.Quote(code), at(p))
			} else {
				r.codes[code] = av.Code.Pos
			}
		}
	}
	if av.Num.Set {
		switch n := av.Num.Value; {
		case n <= 0:
			r.errorf(av.Num.Pos, "num %d must be positive", n)
		case r.reservedNums[n].IsValid():
			r.errorf(av.Num.Pos, "num %d is reserved (at %s) and must never be used again", n, at(r.reservedNums[n]))
		default:
			if p, dup := r.nums[n]; dup {
				r.errorf(av.Num.Pos, "duplicate num %d (first defined at %s)", n, at(p))
			} else {
				r.nums[n] = av.Num.Pos
			}
		}
	}
	if r.nonEmpty(av.Category, "category") {
		r.usedCategories[av.Category.Value] = true
		// With no categories read, the loader has already reported
		// categories as missing, empty or malformed; every variant would
		// repeat that.
		v.Category = r.categories[av.Category.Value]
		if v.Category == nil {
			r.allCategorised = false
			if len(r.cat.Categories) > 0 {
				r.errorf(av.Category.Pos, "category %s is not declared under categories%s", diag.Quote(av.Category.Value), r.suggestCategory(av.Category.Value))
			}
		}
	} else {
		r.allCategorised = false
	}
	r.nonEmpty(av.Doc, "doc")
	// When a field's name could not be read, it could be the one a
	// placeholder names: the templates' syntax is all that is checked.
	fields, known := r.fields(f, av, v, payload)
	if len(av.Fields) > MaxFields {
		r.errorf(av.Name.Pos, "variant %s has %d fields; a variant may have at most %d", diag.Quote(av.Name.Value), len(av.Fields), MaxFields)
	}
	if r.nonEmpty(av.Message, "message") {
		v.Message = r.template(av.Message, "message", fields, known)
		r.secretRefs(v, v.Message, av.Message, "message")
	}
	if r.nonEmpty(av.UserMessage, "user_message") {
		v.UserMessage.Template = r.template(av.UserMessage, "user_message", fields, known)
		r.secretRefs(v, v.UserMessage.Template, av.UserMessage, "user_message")
	}
	v.UserMessage = r.userText(v)
	if r.nonEmpty(av.SuppressionKey, "suppression_key") {
		v.SuppressionKey = r.template(av.SuppressionKey, "suppression_key", fields, known)
		r.secretRefs(v, v.SuppressionKey, av.SuppressionKey, "suppression_key")
	}
	hints := []hintValue{{av.SuggestedTool, "suggested_tool"}, {av.SuggestedAction, "suggested_action"}, {av.UsageHint, "usage_hint"}}
	r.secretHints(v, hints...)
	r.instance(f, av, v, payload)
	// Values under a misspelt attributes key are unknown, not missing.
	missing := !r.misspelt(av.Pos, "attributes") && !r.misspelt(f.Pos, "attributes")
	v.Attrs = r.attrValues(av.Attributes, f.Attrs, diag.Quote(av.Name.Value), av.Pos, missing)
	if rf := v.RetryableField; rf != nil {
		// The field decides, instance by instance: no other key may.
		field := diag.Quote(rf.Name)
		if av.Retryable.Set {
			r.errorf(av.Retryable.Pos, "a variant with a retryable field cannot also set retryable: field %s decides for each error; drop retryable", field)
		}
		if av.RetryableFromCause.Value {
			r.errorf(av.RetryableFromCause.Pos, "a variant cannot be both retryable_from_cause and have a retryable field: the retryability comes from the cause or from field %s, not both", field)
		}
		if av.Configurable.Value {
			r.errorf(av.Configurable.Pos, "a variant cannot be both configurable and have a retryable field: the class comes from the application's policy or from field %s, not both", field)
		}
		if av.NonFatal.Value {
			r.errorf(av.NonFatal.Pos, "a variant cannot be both non_fatal and have a retryable field: a true field %s would make it retryable and non_fatal at once", field)
		}
		// One rule: the field's; what else was set is refused above.
		v.Retry = Retry{Field: rf.Name}
		v.NonFatal, v.Configurable = false, false
	}
	if av.Retryable.Value && av.NonFatal.Value {
		r.errorf(av.NonFatal.Pos, "a variant cannot be both retryable and non_fatal: retryable means try again, non_fatal means carry on without it")
	}
	if av.RetryableFromCause.Value && av.NonFatal.Value {
		r.errorf(av.NonFatal.Pos, "a variant cannot be both retryable_from_cause and non_fatal: a retryable cause would make it retryable and non_fatal at once")
	}
	if av.RetryableFromCause.Value && !hasCause(av) {
		r.errorf(av.RetryableFromCause.Pos, "retryable_from_cause needs a cause: a field of type error or of a family's type")
	}
	if !payload {
		for _, s := range hints {
			if s.val.Set {
				r.errorf(s.val.Pos, "%s only appears in an LLM payload, and family %s has no payload_type", s.name, diag.Quote(f.Name))
			}
		}
	}
	for _, st := range av.HTTPStatus {
		if sr, ok := r.status(st, v.HTTP); ok {
			v.HTTP = append(v.HTTP, sr)
		}
	}
	// The http_status field holds a status the variant stands for, so its
	// example is one: the first status its http_status list covers, not
	// the field's position that other int fields take.
	if hf := v.HTTPStatusField; hf != nil && hf.Src.Example == nil && len(v.HTTP) > 0 {
		hf.Example.Int = int64(v.HTTP[0].Lo)
	}
	// FromHTTP and Classify both match a variant by its own http_status:
	// without one, nothing sets the field.
	if hf := v.HTTPStatusField; hf != nil && len(av.HTTPStatus) == 0 && !r.misspelt(av.Pos, "http_status") {
		r.warnf(hf.Src.HTTPStatus.Pos, "field %s is the http_status field, but variant %s has no http_status list, so neither FromHTTP nor Classify ever sets it; give the variant an http_status list, or drop http_status: true", diag.Quote(hf.Name), diag.Quote(av.Name.Value))
	}
	return v
}

// unread reports whether b was written but refused (and reported): its
// value is unknown, not false.
func unread(b ast.Bool) bool { return !b.Set && b.Pos.IsValid() }

// hasCause reports whether a variant as written has a field that is a
// cause, whether or not its type resolved.
func hasCause(v *ast.Variant) bool {
	for _, f := range v.Fields {
		if _, _, imported := ImportedType(f.Type.Value); f.Type.Value == "error" || imported || (f.Type.Value != "" && names.IsExported(f.Type.Value)) {
			return true
		}
	}
	return false
}

// majorityCase is the code case most of the catalogue's variant codes are
// written in; snake when as many are in each.
func majorityCase(cat *ast.Catalogue) CodeCase {
	balance := 0
	for _, f := range cat.Families {
		for _, v := range f.Variants {
			switch {
			case UpperSnake.Valid(v.Code.Value):
				balance++
			case Snake.Valid(v.Code.Value):
				balance--
			}
		}
	}
	if balance > 0 {
		return UpperSnake
	}
	return Snake
}

func (r *resolver) suggestCategory(got string) string {
	declared := make([]string, 0, len(r.cat.Categories))
	for _, k := range r.cat.Categories {
		if strings.EqualFold(k.Name.Value, got) || strings.Contains(k.Name.Value, got) || strings.Contains(got, k.Name.Value) {
			return "; did you mean " + diag.Quote(k.Name.Value) + "?"
		}
		declared = append(declared, k.Name.Value)
	}
	return suggestFrom(got, declared)
}

// fields resolves a variant's fields into v and returns the names its
// templates may use. known is false when a field's name could not be read,
// so the names are not all known.
func (r *resolver) fields(f *Family, av *ast.Variant, v *Variant, payload bool) (out map[string]bool, known bool) {
	// Under a misspelt fields key, the fields are unknown.
	out, known = map[string]bool{}, !r.misspelt(av.Pos, "fields")
	goNames := map[string]diag.Pos{}
	var cause, retryAfter, httpStatus, retryable *ast.Field
	for i, af := range av.Fields {
		fd := &Field{Src: af, Name: af.Name.Value, GoName: names.Go(af.Name.Value), Doc: af.Doc.Value,
			Payload: af.Payload.Value, RetryAfter: af.RetryAfter.Value, HTTPStatus: af.HTTPStatus.Value, Retryable: af.Retryable.Value, Sensitive: af.Sensitive.Value, Index: i, Pos: af.Pos}
		v.Fields = append(v.Fields, fd)
		name := af.Name.Value
		// A field that repeats an earlier one's name is reported as a
		// duplicate: that it is then a second cause, or a second field of
		// a role, after the field of its name is the same mistake.
		duplicate := false
		if !af.Name.Set {
			known = false
		} else {
			switch {
			case !names.IsSnake(name):
				r.errorf(af.Name.Pos, "field name %s must be snake_case: lower-case ASCII words joined by single underscores", diag.Quote(name))
				// The placeholders naming it are right; the name is not.
				out[name] = true
			case out[name]:
				r.errorf(af.Name.Pos, "duplicate field %s in variant %s", diag.Quote(name), diag.Quote(av.Name.Value))
				duplicate = true
			default:
				out[name] = true
				g := fd.GoName
				// Every field goes into the wire form, which has the payload's
				// keys in a family with a payload type.
				switch p, dup := goNames[g]; {
				case slices.Contains(Methods, g):
					r.errorf(af.Name.Pos, "field %s becomes %s, which is a generated method; rename the field", diag.Quote(name), g)
				case dup:
					r.errorf(af.Name.Pos, "field %s becomes %s, like the field at %s; rename one", diag.Quote(name), g, at(p))
				case slices.Contains(LogKeys, name):
					r.errorf(af.Name.Pos, "field %s would be logged beside the log value's own %s key; rename the field", diag.Quote(name), diag.Quote(name))
				case af.Payload.Value && slices.Contains(PayloadKeys, name):
					r.errorf(af.Name.Pos, "payload field %s uses a key the payload already has; rename the field", diag.Quote(name))
				case payload && slices.Contains(PayloadKeys, name):
					r.errorf(af.Name.Pos, "field %s uses a key the wire form of family %s already has (its payload keys); rename the field", diag.Quote(name), diag.Quote(f.Name))
				}
				if _, dup := goNames[g]; !dup {
					goNames[g] = af.Name.Pos
				}
			}
		}
		// typeKnown is false for a missing or unknown type, which is
		// reported once; the example and retry_after are not held to it.
		isCause, typeKnown := false, af.Type.Set
		if af.Type.Set {
			t := af.Type.Value
			if k, ok := kindNames[t]; ok {
				fd.Type = Type{Kind: k, Name: t}
				isCause = k == Error
			} else if fam := r.families[t]; fam != nil {
				fd.Type = Type{Kind: FamilyKind, Family: fam, Name: t}
				isCause = true
			} else if _, fam, ok := ImportedType(t); ok && names.IsExported(fam) && r.suggestType(t) == "" {
				if fd.Type, typeKnown = r.importedFamily(t, af.Type.Pos); typeKnown {
					isCause = true
				}
			} else if r.refusedFamily(t) || r.unnamedFamilyMeant(t) {
				// The family's name was refused; the type names it as
				// written, and is right once the name is.
				typeKnown = false
			} else {
				typeKnown = false
				r.errorf(af.Type.Pos, "unknown field type %s (want %s, error, or a family name)%s", diag.Quote(t), strings.Join(ScalarTypes, ", "), r.typeHint(t))
			}
		}
		if !typeKnown && (af.Type.Set || af.Type.Pos.IsValid() || r.misspelt(af.Pos, "type")) {
			r.typeUnknown[v] = true
		}
		if isCause {
			switch {
			case cause != nil && !(duplicate && cause.Name.Value == name):
				r.errorf(af.Type.Pos, "variant %s has a second cause field %s; at most one field may be an error (the first is %s)", diag.Quote(av.Name.Value), fieldLabel(name, af.Pos), diag.Quote(cause.Name.Value))
			case cause != nil:
				// A duplicate field, reported as such.
			default:
				cause = af
				v.Cause = fd
			}
		}
		if af.Payload.Value && isCause {
			r.errorf(af.Payload.Pos, "field %s is a cause and cannot be a payload field; its text already reaches the model through the message", fieldLabel(name, af.Pos))
		}
		if af.Payload.Value && !payload {
			r.errorf(af.Payload.Pos, "field %s is marked payload, but family %s has no payload_type", fieldLabel(name, af.Pos), diag.Quote(f.Name))
		}
		role := func(flag ast.Bool, key, typ, holds string, first **ast.Field) bool {
			if !flag.Value {
				return false
			}
			switch {
			case typeKnown && af.Type.Value != typ:
				r.errorf(flag.Pos, "%s field %s must have type %s, not %s, to hold %s", key, fieldLabel(name, af.Pos), typ, af.Type.Value, holds)
			case *first != nil && duplicate && (*first).Name.Value == name:
				// A duplicate field, reported as such.
			case *first != nil:
				r.errorf(flag.Pos, "variant %s has a second %s field (the first is %s); mark one field only", diag.Quote(av.Name.Value), key, diag.Quote((*first).Name.Value))
			case !typeKnown:
				// The type is reported; the flag is checked once it is known.
			default:
				*first = af
				return true
			}
			return false
		}
		if fd.RetryAfter = role(af.RetryAfter, "retry_after", "duration", "the wait RetryAfterOf reports", &retryAfter); fd.RetryAfter {
			v.RetryAfter = fd
		}
		if fd.HTTPStatus = role(af.HTTPStatus, "http_status", "int", "the HTTP status FromHTTP and Classify set", &httpStatus); fd.HTTPStatus {
			v.HTTPStatusField = fd
		}
		if fd.Retryable = role(af.Retryable, "retryable", "bool", "whether the error is retryable", &retryable); fd.Retryable {
			v.RetryableField = fd
			v.Retry.Field = fd.Name
		} else if af.Retryable.Value && retryable == nil || unread(af.Retryable) || r.misspelt(af.Pos, "retryable") || len(af.Keys) == 0 {
			// Meant to decide, or may have been (a field that could not
			// be read at all): which rule holds is unknown until the
			// field is right.
			r.retryUnknown[v] = true
		}
		if fd.Type.Kind == Duration {
			fd.Unit = DefaultUnit
		}
		if af.Unit.Set {
			i := slices.IndexFunc(Units, func(u Unit) bool { return u.Name == af.Unit.Value })
			switch {
			case typeKnown && fd.Type.Kind != Duration:
				r.errorf(af.Unit.Pos, "unit is for duration fields; field %s has type %s", fieldLabel(name, af.Pos), af.Type.Value)
			case i < 0:
				r.errorf(af.Unit.Pos, "unit %s is not one of ms, s, ns%s", diag.Quote(af.Unit.Value), unitHint(af.Unit.Value))
			default:
				fd.Unit = Units[i]
			}
		}
		r.nonEmpty(af.Doc, "doc")
		r.sensitive(fd, af, isCause)
		switch {
		case af.Example != nil && typeKnown:
			r.example(fd, af.Example)
		case af.Example == nil:
			defaultExample(fd, i)
		}
	}
	return out, known
}

// sensitive checks what a field says about holding a secret: a sensitive
// field is never sent, so it cannot be a payload field, a cause (Unwrap
// hands a cause to every caller) or the retry-after value (which callers
// read and send on as a header); a field named like a secret must say
// whether it is one.
func (r *resolver) sensitive(fd *Field, af *ast.Field, isCause bool) {
	if !fd.Sensitive {
		if !af.Sensitive.Set && af.Name.Set && LooksSecret(fd.Name) && !r.misspelt(af.Pos, "sensitive") {
			r.warnf(af.Name.Pos, "field %s looks like it holds a secret; add sensitive: true to keep it out of payloads, wire forms, logs and fmt output (or sensitive: false if it holds none)", fieldLabel(fd.Name, fd.Pos))
		}
		return
	}
	switch {
	case af.Payload.Value:
		r.errorf(af.Payload.Pos, "field %s is sensitive and cannot be a payload field: the payload is sent to the model", fieldLabel(fd.Name, fd.Pos))
	case isCause:
		r.errorf(af.Sensitive.Pos, "field %s is a cause and cannot be sensitive: Unwrap hands it to every caller; mark the secret fields of its own error sensitive, or set a scrubber for the text of foreign errors", fieldLabel(fd.Name, fd.Pos))
		// The mistake is the key: the field is checked as what it must
		// be, so its example and the templates naming it are not also
		// refused for a secret it cannot hold.
		fd.Sensitive = false
	case af.RetryAfter.Value:
		r.errorf(af.Sensitive.Pos, "field %s is the retry_after value and cannot be sensitive: callers read it and send it on as Retry-After", fieldLabel(fd.Name, fd.Pos))
		fd.Sensitive = false
	case af.Retryable.Value:
		r.errorf(af.Sensitive.Pos, "field %s is the retryable value and cannot be sensitive: the payload's, the wire form's and the logs' \"retryable\" would reveal it; drop sensitive: true", fieldLabel(fd.Name, fd.Pos))
		fd.Sensitive = false
	case af.HTTPStatus.Value:
		r.errorf(af.Sensitive.Pos, "field %s is the http_status value and cannot be sensitive: an HTTP status is no secret, and redacting it would hide from logs which response the error came from; drop sensitive: true", fieldLabel(fd.Name, fd.Pos))
		fd.Sensitive = false
	}
}

// secretRefs refuses a template of v that names a sensitive field: every
// text of an error (its message, user message and suppression key) reaches
// logs, payloads or people.
func (r *resolver) secretRefs(v *Variant, t *Template, s ast.String, what string) {
	if t == nil {
		return
	}
	for _, seg := range t.Segments {
		if f := v.Field(seg.Ref); seg.Ref != "" && f != nil && f.Sensitive {
			r.errorf(s.PosAt(seg.Offset), "%s: placeholder %s names sensitive field %s, whose value must never reach a text", what, diag.Quote("{"+seg.Ref+"}"), diag.Quote(seg.Ref))
		}
	}
}

// secretHints refuses a hint that names a sensitive field as a placeholder:
// hints are sent as written, so the author meant a value that must never be
// sent.
func (r *resolver) secretHints(v *Variant, hints ...hintValue) {
	for _, h := range hints {
		for _, f := range v.Fields {
			if i := strings.Index(h.val.Value, "{"+f.Name+"}"); f.Sensitive && i >= 0 {
				r.errorf(h.val.PosAt(i), "%s names sensitive field %s as a placeholder; hints are sent to the model as written, never filled in, and its value must never be sent", h.name, diag.Quote(f.Name))
			}
		}
	}
}

// unitAliases are other spellings of the units, by what they count.
var unitAliases = map[string]string{
	"msec": "ms", "msecs": "ms", "milli": "ms", "millis": "ms", "millisecond": "ms", "milliseconds": "ms",
	"sec": "s", "secs": "s", "second": "s", "seconds": "s",
	"nsec": "ns", "nsecs": "ns", "nano": "ns", "nanos": "ns", "nanosecond": "ns", "nanoseconds": "ns",
}

// unitHint is the did-you-mean of an unknown unit: the unit another
// spelling stands for (msec, seconds), else one a letter away in any case
// (MS, nss). A unit errgen does not offer (us, m, h) gets none: the nearest
// name would count something else.
func unitHint(got string) string {
	low := strings.ToLower(strings.TrimSpace(got))
	if u, ok := unitAliases[low]; ok {
		return "; did you mean " + diag.Quote(u) + "?"
	}
	if strings.ContainsAny(low, "uµmh") && !strings.HasPrefix(low, "ms") {
		return ""
	}
	names := make([]string, len(Units))
	for i, u := range Units {
		names[i] = u.Name
	}
	if best := diag.Closest(low, names, 1); best != "" {
		return "; did you mean " + diag.Quote(best) + "?"
	}
	return ""
}

// hintValue is a hint as written and its key.
type hintValue struct {
	val  ast.String
	name string
}

// typeAliases are what other languages call errgen's field types.
var typeAliases = map[string]string{
	"time.duration": "duration", "[]string": "strings", "integer": "int", "uint": "uint64",
	"float": "float64", "double": "float64", "boolean": "bool", "str": "string", "text": "string",
}

func (r *resolver) suggestType(got string) string {
	if t, ok := typeAliases[strings.ToLower(got)]; ok {
		return "; did you mean " + diag.Quote(t) + "?"
	}
	for _, t := range append(slices.Clone(ScalarTypes), "error") {
		if strings.EqualFold(t, got) {
			return "; did you mean " + diag.Quote(t) + "?"
		}
	}
	for _, af := range r.cat.Families {
		if name := af.Name.Value; r.families[name] != nil && strings.EqualFold(name, got) {
			return "; did you mean " + diag.Quote(name) + "?"
		}
	}
	return ""
}

// refusedFamily reports whether name is a family's name as written that
// was refused (not an exported Go identifier, or taken).
func (r *resolver) refusedFamily(name string) bool {
	for _, af := range r.cat.Families {
		if af.Name.Set && af.Name.Value == name {
			return r.families[name] == nil
		}
	}
	return false
}

// unnamedFamilyMeant reports whether name, which no family has, may be
// the name of a family that has none of its own (unread, or a repeat of
// another's): a family's name as a Go type, more than one edit from a
// type or family errgen knows.
func (r *resolver) unnamedFamilyMeant(name string) bool {
	return r.unnamedFamily && names.IsExported(name) && r.closestType(name, 1) == ""
}

// typeHint is the did-you-mean of an unknown field type: the type or
// family suggestType finds, else the nearest misspelling of one, in any
// letter case.
func (r *resolver) typeHint(got string) string {
	return r.closestType(got, 2)
}

// closestType is typeHint's did-you-mean, within maxDist edits.
func (r *resolver) closestType(got string, maxDist int) string {
	if hint := r.suggestType(got); hint != "" {
		return hint
	}
	byLower := map[string]string{}
	var options []string
	for _, t := range append(slices.Clone(ScalarTypes), "error") {
		byLower[t] = t
		options = append(options, t)
	}
	for _, af := range r.cat.Families {
		if name := af.Name.Value; r.families[name] != nil {
			byLower[strings.ToLower(name)] = name
			options = append(options, strings.ToLower(name))
		}
	}
	if best := diag.Closest(strings.ToLower(got), options, maxDist); best != "" {
		return "; did you mean " + diag.Quote(byLower[best]) + "?"
	}
	return ""
}

// example checks that a field's example value fits its type and sets it.
func (r *resolver) example(fd *Field, ex *ast.Example) {
	t := fd.Type.Name
	bad := func(want string) {
		r.errorf(ex.Pos, "example for field %s of type %s must be %s", fieldLabel(fd.Name, fd.Pos), t, want)
	}
	fd.ExampleSet = true
	x := &fd.Example
	if fd.Sensitive && r.secretExample(fd, ex) {
		return
	}
	if fd.Type.Kind == Strings {
		if !ex.IsList {
			bad("a list of text")
			return
		}
		for _, s := range ex.List {
			x.List = append(x.List, s.Value)
		}
		return
	}
	if ex.IsList {
		bad("a single value")
		return
	}
	s := ex.Scalar
	if ex.Quoted && t != "string" && t != "error" && t != "duration" {
		// A quoted 5 is text; saying "must be a decimal integer" of it
		// would not tell the user what to change.
		bad = func(want string) {
			r.errorf(ex.Pos, "example for field %s of type %s must be %s, written without quotes", fieldLabel(fd.Name, fd.Pos), t, want)
		}
	}
	var err error
	switch fd.Type.Kind {
	case String, Error:
		// Any scalar is text; numbers and booleans are taken as written.
		x.Str = s
	case Bool:
		if ex.Quoted || (s != "true" && s != "false") {
			bad("true or false")
		}
		x.Bool = s == "true"
	case Int:
		// int is 32 bits on some platforms: the generated test must compile
		// there too.
		if x.Int, err = strconv.ParseInt(s, 10, 32); ex.Quoted || err != nil || !decimalIntRE.MatchString(s) {
			bad("a decimal integer from -2147483648 to 2147483647 (int has 32 bits on some platforms)")
		}
	case Int64:
		if x.Int, err = strconv.ParseInt(s, 10, 64); ex.Quoted || err != nil || !decimalIntRE.MatchString(s) {
			bad("a decimal integer from -9223372036854775808 to 9223372036854775807")
		}
	case Uint64:
		if x.Uint, err = strconv.ParseUint(s, 10, 64); ex.Quoted || err != nil || !decimalIntRE.MatchString(s) {
			bad("a decimal integer from 0 to 18446744073709551615")
		}
	case Float64:
		// Only what reads back as the same float64 in JSON, in Go source and
		// in the golden file: decimal notation, finite, and not -0 (the
		// golden file would say -0, the Go literal is +0), nor a number
		// so small that it reads as 0.
		x.Float, err = strconv.ParseFloat(s, 64)
		switch {
		case !ex.Quoted && err == nil && decimalFloatRE.MatchString(s) && underflows(s, x.Float):
			bad("0 or a decimal number of magnitude from 5e-324 to 1.7976931348623157e308 (" + s + " would read as 0)")
		case ex.Quoted || err != nil || !decimalFloatRE.MatchString(s) || math.IsInf(x.Float, 0) || (x.Float == 0 && math.Signbit(x.Float)):
			bad("a finite decimal number such as 2.5 or 1e-3 (not -0, hex, underscores or a sign +)")
		}
	case Duration:
		x.Duration, err = time.ParseDuration(s)
		switch {
		case err != nil:
			bad(`a Go duration such as "30s" or "1m30s"`)
		case x.Duration%fd.Unit.Size != 0 || !wholeNanos(s):
			bad("a whole number of " + fd.Unit.Name + ", the field's unit")
		}
	case FamilyKind:
		if fd.Type.Import != "" {
			r.errorf(ex.Pos, "field %s holds a %s cause, of another catalogue; the generated tests build the error without it, so it takes no example", fieldLabel(fd.Name, fd.Pos), t)
			break
		}
		r.errorf(ex.Pos, "field %s holds a %s cause; its example is built from that family's first variant, so it takes no example", fieldLabel(fd.Name, fd.Pos), t)
	}
}

// durationTermRE is one term of a Go duration: a decimal number and its
// unit.
var durationTermRE = regexp.MustCompile(`([0-9]*(?:\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)`)

// durationUnits are the nanoseconds of each unit a Go duration may use.
var durationUnits = map[string]int64{"ns": 1, "us": 1e3, "µs": 1e3, "μs": 1e3, "ms": 1e6, "s": 1e9, "m": 60e9, "h": 3600e9}

// wholeNanos reports whether s, a Go duration that time.ParseDuration
// reads, is a whole number of nanoseconds as written: ParseDuration cuts
// a fraction of one, so 1.0000009ms reads as 1ms.
func wholeNanos(s string) bool {
	sum := new(big.Rat)
	for _, m := range durationTermRE.FindAllStringSubmatch(s, -1) {
		n, ok := new(big.Rat).SetString(m[1])
		if !ok {
			return false
		}
		sum.Add(sum, n.Mul(n, new(big.Rat).SetInt64(durationUnits[m[2]])))
	}
	return sum.IsInt()
}

// underflows reports whether s, a decimal number that parsed as f, is too
// small in magnitude for a float64 and became 0: 1e-400.
func underflows(s string, f float64) bool {
	mantissa, _, _ := strings.Cut(strings.ToLower(s), "e")
	return f == 0 && strings.ContainsAny(mantissa, "123456789")
}

// secretExample checks the example of a sensitive field, which golden
// files and docs would otherwise carry: it must be a placeholder such as
// <redacted>, and only text fields can hold one. It reports whether it
// refused the example.
func (r *resolver) secretExample(fd *Field, ex *ast.Example) bool {
	fake := func(s ast.String) bool {
		if placeholderRE.MatchString(s.Value) {
			return true
		}
		r.errorf(s.Pos, "example for sensitive field %s must be a placeholder in angle brackets, such as %s, so that no real secret is written into golden files and docs", fieldLabel(fd.Name, fd.Pos), diag.Quote(SensitivePlaceholder))
		return false
	}
	switch {
	case fd.Type.Kind == String && !ex.IsList:
		return !fake(ast.String{Value: ex.Scalar, Pos: ex.Pos})
	case fd.Type.Kind == Strings && ex.IsList:
		ok := true
		for _, s := range ex.List {
			ok = fake(s) && ok
		}
		return !ok
	case fd.Type.Kind != String && fd.Type.Kind != Strings:
		r.errorf(ex.Pos, "sensitive field %s of type %s takes no example: its value never shows, and only text can hold a placeholder such as %s; leave the example out", fieldLabel(fd.Name, fd.Pos), fd.Type.Name, diag.Quote(SensitivePlaceholder))
		return true
	}
	return false
}

// defaultExample sets a field's example to a deterministic placeholder:
// the field's name for text, its position (from 1) for numbers, true, one
// second per position, or "<name> failed" for an error cause. A family
// cause's example is filled in once every variant is resolved, and the
// http_status field's once its variant's statuses are.
func defaultExample(fd *Field, i int) {
	n := int64(i + 1)
	x := &fd.Example
	if fd.Sensitive {
		// A sensitive value never shows; its example is a placeholder, or
		// its type's zero value where a placeholder cannot stand.
		switch fd.Type.Kind {
		case String:
			x.Str = SensitivePlaceholder
		case Strings:
			x.List = []string{SensitivePlaceholder}
		}
		return
	}
	switch fd.Type.Kind {
	case String:
		x.Str = fd.Name
	case Bool:
		x.Bool = true
	case Int, Int64:
		x.Int = n
	case Uint64:
		x.Uint = uint64(n)
	case Float64:
		x.Float = float64(n) + 0.5
	case Duration:
		x.Duration = time.Duration(n) * time.Second
	case Strings:
		x.List = []string{fd.Name}
	case Error:
		x.Str = fd.Name + " failed"
	}
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

// template parses a template and checks that it names only known fields
// (or {code}); it returns the parsed template, or nil when it does not
// parse. fields is nil for family-level templates, which know no fields.
// When known is false the field names are not all known, and only the
// syntax is checked.
func (r *resolver) template(s ast.String, what string, fields map[string]bool, known bool) *Template {
	segs, err := tmpl.Parse(s.Value)
	if err != nil {
		var te *tmpl.Error
		if errors.As(err, &te) {
			r.errorf(s.PosAt(te.Offset), "%s: %s", what, te.Msg)
		} else {
			r.errorf(s.Pos, "%s: %v", what, err)
		}
		return nil
	}
	t := &Template{Text: s.Value, Segments: segs, Pos: s.Pos}
	if !known {
		return t
	}
	reported := map[string]bool{}
	for _, seg := range segs {
		ref := seg.Ref
		if ref == "" || ref == "code" || fields[ref] || reported[ref] {
			continue
		}
		reported[ref] = true
		at := s.PosAt(seg.Offset)
		if fields == nil {
			r.errorf(at, "%s: placeholder %s is not available here; a family's or the catalogue's user_message may only use {code}", what, diag.Quote("{"+ref+"}"))
			continue
		}
		r.errorf(at, "%s: placeholder %s names no field of this variant (fields: %s)%s", what, diag.Quote("{"+ref+"}"), fieldList(fields), placeholderHint(ref, fields))
	}
	return t
}

// placeholderHint is the did-you-mean of a placeholder that names no
// field: the nearest field, or {code}, in any letter case.
func placeholderHint(ref string, fields map[string]bool) string {
	options := []string{"code"}
	for f := range fields {
		options = append(options, f)
	}
	slices.Sort(options)
	got := strings.ToLower(strings.TrimSpace(ref))
	// One edit in a short name, two in a longer one: {nope} is not {code}.
	if best := diag.Closest(got, options, min(2, max(1, len(got)/3))); best != "" {
		return "; did you mean " + diag.Quote("{"+best+"}") + "?"
	}
	return ""
}

func fieldList(fields map[string]bool) string {
	var out []string
	for f := range fields {
		if !names.IsSnake(f) {
			// A name the catalogue got wrong (reported on its own) is
			// user text like any other.
			f = diag.Quote(f)
		}
		out = append(out, f)
	}
	slices.Sort(out)
	if len(out) == 0 {
		return "none; {code} is always available"
	}
	return strings.Join(out, ", ") + ", and {code}"
}

// userText is the effective user message of v: its own, else its
// family's, else (at run time) its cause's, else the catalogue's, else the
// built-in sentence. The technical message is never a user message.
func (r *resolver) userText(v *Variant) UserText {
	switch {
	case v.UserMessage.Template != nil:
		return UserText{Template: v.UserMessage.Template, From: UserFromVariant}
	case v.Family.UserMessage != nil:
		return UserText{Template: v.Family.UserMessage, From: UserFromFamily}
	case r.m.UserMessage != nil:
		return UserText{Template: r.m.UserMessage, From: UserFromCatalogue, CauseFirst: v.Cause != nil}
	}
	return UserText{Template: builtinUser, From: UserFromBuiltin, CauseFirst: v.Cause != nil}
}

// builtinUser is BuiltinUserMessage, parsed.
var builtinUser = func() *Template {
	segs, err := tmpl.Parse(BuiltinUserMessage)
	if err != nil {
		panic(err)
	}
	return &Template{Text: BuiltinUserMessage, Segments: segs}
}()

// builtinWarnings warns, once per family, where a variant's user message
// can be errgen's built-in sentence: no user_message of its own, of its
// family or of the catalogue, and no cause that always answers.
func (r *resolver) builtinWarnings() {
	for _, f := range r.m.Families {
		var codes []string
		for _, v := range f.Variants {
			if v.UserMessage.From == UserFromBuiltin {
				codes = append(codes, diag.Quote(v.Code))
			}
		}
		if len(codes) == 0 {
			continue
		}
		what := "variant " + codes[0] + " has"
		if len(codes) > 1 {
			what = fmt.Sprintf("%d variants (%s) have", len(codes), strings.Join(codes, ", "))
		}
		r.warnf(f.Src.Name.Pos, "in family %s, %s no user message: end users would read %s; give the family or the catalogue a user_message",
			diag.Quote(f.Name), what, diag.Quote(BuiltinUserMessage))
	}
}

// constants refuses a category or code constant whose Go name is already
// declared: by the generated API, by a family, a variant or a helper, or by
// another constant. Family and variant names were checked before; a
// constant is reported at the catalogue name it is made from.
func (r *resolver) constants() {
	taken := make(map[string]goName, len(PackageScope)+len(r.names)+len(r.familyNames)+len(r.m.Categories)+len(r.m.Variants))
	r.goNames = taken
	for _, n := range PackageScope {
		taken[n] = goName{what: "the generated package's own API"}
	}
	for name, pos := range r.names {
		taken[name] = goName{pos: &pos}
	}
	for name := range r.familyNames {
		taken[names.FamilyHelper(name)] = goName{what: "the generated helper for family ", name: name}
	}
	for _, c := range r.m.Categories {
		if !names.IsCode(c.Name) {
			continue
		}
		if o, dup := taken[c.GoName]; dup {
			r.errorf(c.Pos, "category %s becomes the constant %s, which is taken by %s", diag.Quote(c.Name), c.GoName, o)
			continue
		}
		taken[c.GoName] = goName{what: "the constant of category ", name: c.Name}
	}
	for _, v := range r.m.Variants {
		if pos, ok := r.names[v.Name]; !ok || pos != v.Src.Name.Pos {
			continue // refused already, as a name
		}
		if o, dup := taken[v.CodeConst()]; dup {
			r.errorf(v.Src.Name.Pos, "variant %s has the code constant %s, which is taken by %s", diag.Quote(v.Name), v.CodeConst(), o)
			continue
		}
		taken[v.CodeConst()] = goName{what: "the code constant of variant ", name: v.Name}
	}
	for _, v := range r.m.Variants {
		for _, sc := range v.Subcodes {
			if o, dup := taken[sc.GoName]; dup {
				r.errorf(sc.Pos, "sub-code %s becomes the constant %s, which is taken by %s", diag.Quote(sc.Code), sc.GoName, o)
				continue
			}
			taken[sc.GoName] = goName{what: "the constant of sub-code ", name: sc.Code}
		}
	}
	for _, a := range r.m.Attributes {
		declared := []string{a.Lookup()}
		if a.Type == AttrEnum {
			declared = append(declared, a.GoName)
		}
		clash := false
		for _, name := range declared {
			if o, dup := taken[name]; dup {
				r.errorf(a.NamePos, "attribute %s declares %s, which is taken by %s; rename the attribute", diag.Quote(a.Name), name, o)
				clash = true
				break
			}
			taken[name] = goName{what: "a name of attribute ", name: a.Name}
		}
		if clash || a.Type != AttrEnum {
			continue
		}
		// A value's constant is the value's: reported there, to rename.
		for i, val := range a.Values {
			name := a.ValueConst(val)
			if o, dup := taken[name]; dup {
				r.errorf(a.valuePos[i], "value %s of attribute %s becomes the constant %s, which is taken by %s; rename the value", diag.Quote(val), diag.Quote(a.Name), name, o)
				continue
			}
			taken[name] = goName{what: "the constant of value " + diag.Quote(val) + " of attribute " + diag.Quote(a.Name)}
		}
	}
}

// goName says what took a Go name of the generated package; its text is
// built only when a second declaration collides, so a large catalogue
// pays no string per name.
type goName struct {
	what string // text before the name, or the whole text when name is ""
	name string
	pos  *diag.Pos
}

func (o goName) String() string {
	switch {
	case o.pos != nil:
		return "the name at " + at(*o.pos)
	case o.name == "":
		return o.what
	}
	return o.what + diag.Quote(o.name)
}

// shadowedStatuses warns of an http_status entry that never decides:
// every status it covers is covered by a narrower entry, of another
// variant or of its own, which LookupHTTPStatus and FromHTTP take first,
// and, for a variant Classify matches by status, by a narrower entry of
// another such variant too (Classify tries only theirs). Such an entry
// reads as a promise the package never keeps.
// The entry that gives a variant's problem documents their status
// (OwnProblemStatus), in a catalogue that selects problem, decides that
// status, which no other entry can give without taking statuses from
// another variant: it is not warned of.
func (r *resolver) shadowedStatuses() {
	type entry struct {
		v *Variant
		r *StatusRange
	}
	// winner is what LookupHTTPStatus and FromHTTP take for a status;
	// classified, what Classify does, of the variants it matches by status.
	var winner, classified [600]entry
	for _, v := range r.m.Variants {
		for i := range v.HTTP {
			sr := &v.HTTP[i]
			for st := sr.Lo; st <= sr.Hi; st++ {
				if w := winner[st]; w.r == nil || sr.Span() < w.r.Span() {
					winner[st] = entry{v, sr}
				}
				if w := classified[st]; v.ClassifyByStatus && (w.r == nil || sr.Span() < w.r.Span()) {
					classified[st] = entry{v, sr}
				}
			}
		}
	}
	problem := r.m.Selects("problem")
	for _, v := range r.m.Variants {
		for i := range v.HTTP {
			sr := &v.HTTP[i]
			if problem && sr == v.problemStatusEntry() {
				continue
			}
			var by []string
			seen := map[*StatusRange]bool{}
			decides := false
			for st := sr.Lo; st <= sr.Hi && !decides; st++ {
				w := winner[st]
				decides = w.r == sr || classified[st].r == sr
				if !decides && !seen[w.r] {
					seen[w.r] = true
					by = append(by, fmt.Sprintf("%s of %s at %s", diag.Quote(w.r.Text), diag.Quote(w.v.Name), at(w.r.Pos)))
				}
			}
			if decides {
				continue
			}
			if len(by) > 3 {
				by = append(by[:3], fmt.Sprintf("and %d more", len(by)-3))
			}
			r.warnf(sr.Pos, "http_status %s of variant %s never decides: every status it covers is listed more narrowly (%s), and the narrower entry wins; drop it, or narrow the others", diag.Quote(sr.Text), diag.Quote(v.Name), strings.Join(by, ", "))
		}
	}
}

// statusCover maps each HTTP status (100 to 599) to a range covering it.
type statusCover [600]int32

// status parses one item of http_status: a status (429), a class of them
// ("4xx") or a range ("500-599"). Two variants may cover one status only
// when one's range is narrower, so that the more specific wins; ranges of
// the same width that overlap are refused, and so is a status twice; own
// are the ranges the variant already lists, so that the message says
// which case it is.
func (r *resolver) status(st ast.String, own []StatusRange) (StatusRange, bool) {
	sr := StatusRange{Text: st.Value, Pos: st.Pos}
	if m := statusRE.FindStringSubmatch(st.Value); m != nil {
		if m[2] == "xx" {
			sr.Lo = int(m[1][0]-'0') * 100
			sr.Hi = sr.Lo + 99
		} else {
			sr.Lo, _ = strconv.Atoi(st.Value)
			sr.Hi = sr.Lo
		}
	} else if m := statusRangeRE.FindStringSubmatch(st.Value); m != nil {
		sr.Lo, _ = strconv.Atoi(m[1])
		sr.Hi, _ = strconv.Atoi(m[2])
		if sr.Lo > sr.Hi {
			r.errorf(st.Pos, "http_status range %s is empty: the first status must not exceed the last", diag.Quote(st.Value))
			return sr, false
		}
	} else {
		r.errorf(st.Pos, "http_status %s is not an HTTP status code (100 to 599), a class such as \"5xx\" or a range such as \"500-599\"", diag.Quote(st.Value))
		return sr, false
	}
	// The ranges of one width that were accepted never overlap, so a new
	// one of that width overlaps one of them exactly when its first or
	// its last status is covered: one look-up each, however many
	// statuses a catalogue lists.
	covered := r.statuses[sr.Span()]
	if covered == nil {
		covered = new(statusCover)
		r.statuses[sr.Span()] = covered
	}
	for _, s := range [2]int{sr.Lo, sr.Hi} {
		if i := covered[s]; i != 0 {
			o := r.ranges[i-1]
			mine := slices.ContainsFunc(own, func(x StatusRange) bool { return x.Pos == o.Pos })
			switch {
			case mine && sr.Span() == 1:
				r.errorf(st.Pos, "http_status %d is listed twice (also at %s); list it once", sr.Lo, at(o.Pos))
			case mine:
				r.errorf(st.Pos, "http_status %s overlaps %s (at %s) of the same variant; list one range that covers both", diag.Quote(st.Value), diag.Quote(o.Text), at(o.Pos))
			case sr.Span() == 1:
				r.errorf(st.Pos, "http_status %d already stands for another variant (at %s); a status maps to one variant", sr.Lo, at(o.Pos))
			default:
				r.errorf(st.Pos, "http_status %s overlaps %s (at %s), which is as specific; give one of them a narrower range", diag.Quote(st.Value), diag.Quote(o.Text), at(o.Pos))
			}
			return sr, false
		}
	}
	r.ranges = append(r.ranges, sr)
	for s := sr.Lo; s <= sr.Hi; s++ {
		covered[s] = int32(len(r.ranges))
	}
	return sr, true
}
