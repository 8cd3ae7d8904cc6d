// Package check checks the meaning of a loaded catalogue: names and codes
// unique, numbers inside their ranges and never reused, categories declared,
// templates naming real fields, payload keys free. It reports every problem
// with its position and changes nothing; a catalogue it accepts can be built
// into a model without further checks.
package check

import (
	"fmt"
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

// ScalarTypes are the field types that are not a cause, in the order the
// documentation lists them.
var ScalarTypes = []string{"string", "bool", "int", "int64", "uint64", "float64", "duration", "strings"}

// PayloadKeys are the keys every payload object may already carry; a
// payload field may not reuse one.
var PayloadKeys = []string{
	"type", "category", "code", "code_num", "error", "retryable", "suppress_retry",
	"suppression_key", "suggested_tool", "suggested_action", "required_fields", "usage_hint",
}

// maxFields is the most fields a variant may have: the generated runtime
// addresses a variant's fields with one byte.
const maxFields = 255

var (
	categoryRE = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	ruleRE     = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
)

// Check returns every problem in cat, sorted by position.
func Check(cat *ast.Catalogue) diag.List {
	c := &checker{cat: cat, names: map[string]diag.Pos{}, codes: map[string]diag.Pos{},
		nums: map[int64]diag.Pos{}, statuses: map[int64]diag.Pos{}, families: map[string]*ast.Family{},
		familyNames: map[string]bool{}, usedCategories: map[string]bool{}, allCategorised: true}
	c.run()
	return c.diags.Sort()
}

type checker struct {
	cat            *ast.Catalogue
	diags          diag.List
	names          map[string]diag.Pos // family and variant names
	codes          map[string]diag.Pos
	nums           map[int64]diag.Pos
	statuses       map[int64]diag.Pos
	families       map[string]*ast.Family
	familyNames    map[string]bool // every family name as written
	usedCategories map[string]bool
	// allCategorised is false when some variant has no readable category
	// or an undeclared one, or no variant was read at all.
	allCategorised bool
}

func (c *checker) errorf(pos diag.Pos, format string, args ...any) {
	c.diags.Errorf(pos, format, args...)
}

func at(p diag.Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

func (c *checker) run() {
	cat := c.cat
	if cat.Version.Set && cat.Version.Value != 1 {
		c.errorf(cat.Version.Pos, "unsupported version %d; the only catalogue format is version 1", cat.Version.Value)
	}
	if cat.Package.Set && !names.IsPackage(cat.Package.Value) {
		c.errorf(cat.Package.Pos, "package %s is not a usable Go package name (lower-case letters and digits; not a Go keyword, predeclared identifier, main or init)", diag.Quote(cat.Package.Value))
	}
	declared := map[string]bool{}
	for _, k := range cat.Categories {
		declared[k.Name.Value] = true
		if !categoryRE.MatchString(k.Name.Value) {
			c.errorf(k.Name.Pos, "category name %s must match ^[a-z][a-z0-9_]*$", diag.Quote(k.Name.Value))
		}
		if k.Doc.Set && strings.TrimSpace(k.Doc.Value) == "" {
			c.errorf(k.Doc.Pos, "category %s needs a description", diag.Quote(k.Name.Value))
		}
	}
	// Family names first, so a variant named like a later family is caught
	// at the variant, and every family can be a field type. Every family's
	// helper name is known before any name is checked against it.
	for _, f := range cat.Families {
		if f.Name.Set && names.IsExported(f.Name.Value) {
			c.familyNames[f.Name.Value] = true
		}
	}
	for _, f := range cat.Families {
		c.familyName(f)
	}
	// Reserved values before variants, so a variant that reuses one is
	// reported at the variant, which is the thing to change.
	reservedNums := map[int64]diag.Pos{}
	reservedCodes := map[string]diag.Pos{}
	for _, f := range cat.Families {
		for _, n := range f.ReservedNums {
			if p, dup := reservedNums[n.Value]; dup {
				c.errorf(n.Pos, "num %d is reserved twice (first at %s)", n.Value, at(p))
				continue
			}
			reservedNums[n.Value] = n.Pos
			if n.Value <= 0 {
				c.errorf(n.Pos, "reserved num %d must be positive", n.Value)
			}
		}
		for _, s := range f.ReservedCodes {
			if p, dup := reservedCodes[s.Value]; dup {
				c.errorf(s.Pos, "code %s is reserved twice (first at %s)", diag.Quote(s.Value), at(p))
				continue
			}
			reservedCodes[s.Value] = s.Pos
			if !names.IsCode(s.Value) {
				c.errorf(s.Pos, "reserved code %s must match ^[a-z][a-z0-9_]*$", diag.Quote(s.Value))
			}
		}
	}
	if len(cat.Families) == 0 {
		c.allCategorised = false
	}
	for _, f := range cat.Families {
		c.family(f, declared, reservedNums, reservedCodes)
		if len(f.Variants) == 0 {
			c.allCategorised = false
		}
	}
	// Whether a category is unused is known only when every variant was
	// read with a declared category: one that failed to load, or that
	// misspells its category, may be the one that uses it.
	if c.allCategorised {
		for _, k := range cat.Categories {
			if !c.usedCategories[k.Name.Value] {
				c.diags.Warnf(k.Name.Pos, "category %s is declared but no variant uses it", diag.Quote(k.Name.Value))
			}
		}
	}
	for _, w := range cat.Compat {
		if w.Rule.Set && !ruleRE.MatchString(w.Rule.Value) {
			c.errorf(w.Rule.Pos, "compat rule %s must be a rule ID such as NUM_CHANGED", diag.Quote(w.Rule.Value))
		}
		if w.Code.Set && !names.IsCode(w.Code.Value) {
			c.errorf(w.Code.Pos, "compat code %s must match ^[a-z][a-z0-9_]*$", diag.Quote(w.Code.Value))
		}
		if w.Reason.Set && strings.TrimSpace(w.Reason.Value) == "" {
			c.errorf(w.Reason.Pos, "a compat waiver needs a reason reviewers can read")
		}
	}
}

// goName checks a family or variant name: exported, ASCII, unique, and not
// one the generated package declares itself.
func (c *checker) goName(s ast.String, what string) bool {
	if !s.Set {
		return false
	}
	if !names.IsExported(s.Value) {
		c.errorf(s.Pos, "%s name %s must be an exported Go identifier: an upper-case ASCII letter, then letters and digits", what, diag.Quote(s.Value))
		return false
	}
	if slices.Contains(names.PackageScope, s.Value) {
		c.errorf(s.Pos, "%s name %s is taken by the generated package's own API", what, diag.Quote(s.Value))
		return false
	}
	for other := range c.familyNames {
		if s.Value == names.FamilyHelper(other) {
			c.errorf(s.Pos, "%s name %s is taken by the generated helper for family %s", what, diag.Quote(s.Value), diag.Quote(other))
			return false
		}
	}
	if p, dup := c.names[s.Value]; dup {
		c.errorf(s.Pos, "name %s is already used (first defined at %s); family and variant names share one namespace", diag.Quote(s.Value), at(p))
		return false
	}
	c.names[s.Value] = s.Pos
	return true
}

func (c *checker) familyName(f *ast.Family) {
	if c.goName(f.Name, "family") {
		c.families[f.Name.Value] = f
	}
}

func (c *checker) nonEmpty(s ast.String, what string) bool {
	if s.Set && strings.TrimSpace(s.Value) == "" {
		c.errorf(s.Pos, "%s must not be empty", what)
		return false
	}
	return s.Set
}

func (c *checker) family(f *ast.Family, declared map[string]bool, reservedNums map[int64]diag.Pos, reservedCodes map[string]diag.Pos) {
	if f.PayloadType.Set && !names.IsCode(f.PayloadType.Value) {
		c.errorf(f.PayloadType.Pos, "payload_type %s must match ^[a-z][a-z0-9_]*$", diag.Quote(f.PayloadType.Value))
	}
	c.nonEmpty(f.Doc, "doc")
	if c.nonEmpty(f.UserMessage, "user_message") {
		c.template(f.UserMessage, "user_message", nil, true)
	}
	var lo, hi int64
	ranged := false
	if len(f.Nums) == 2 {
		lo, hi = f.Nums[0].Value, f.Nums[1].Value
		switch {
		case lo <= 0:
			c.errorf(f.Nums[0].Pos, "nums range must start at a positive number, got %d", lo)
		case lo > hi:
			c.errorf(f.NumsPos, "nums range [%d, %d] is empty: the first number must not exceed the last", lo, hi)
		default:
			ranged = true
		}
	}
	// A payload_type of the wrong form was reported by the loader; the
	// family still means to have a payload.
	payload := f.PayloadType.Set || f.PayloadType.Pos.IsValid()
	for _, v := range f.Variants {
		c.variant(f, v, payload, declared, reservedNums, reservedCodes)
		if ranged && v.Num.Set && (v.Num.Value < lo || v.Num.Value > hi) {
			c.errorf(v.Num.Pos, "num %d is outside the range [%d, %d] of family %s", v.Num.Value, lo, hi, diag.Quote(f.Name.Value))
		}
	}
}

func (c *checker) variant(f *ast.Family, v *ast.Variant, payload bool, declared map[string]bool, reservedNums map[int64]diag.Pos, reservedCodes map[string]diag.Pos) {
	c.goName(v.Name, "variant")
	if v.Code.Set {
		switch code := v.Code.Value; {
		case !names.IsCode(code):
			c.errorf(v.Code.Pos, "code %s must match ^[a-z][a-z0-9_]*$", diag.Quote(code))
		case reservedCodes[code].IsValid():
			c.errorf(v.Code.Pos, "code %s is reserved (at %s) and must never be used again", diag.Quote(code), at(reservedCodes[code]))
		default:
			if p, dup := c.codes[code]; dup {
				c.errorf(v.Code.Pos, "duplicate code %s (first defined at %s)", diag.Quote(code), at(p))
			} else {
				c.codes[code] = v.Code.Pos
			}
		}
	}
	if v.Num.Set {
		switch n := v.Num.Value; {
		case n <= 0:
			c.errorf(v.Num.Pos, "num %d must be positive", n)
		case reservedNums[n].IsValid():
			c.errorf(v.Num.Pos, "num %d is reserved (at %s) and must never be used again", n, at(reservedNums[n]))
		default:
			if p, dup := c.nums[n]; dup {
				c.errorf(v.Num.Pos, "duplicate num %d (first defined at %s)", n, at(p))
			} else {
				c.nums[n] = v.Num.Pos
			}
		}
	}
	if c.nonEmpty(v.Category, "category") {
		c.usedCategories[v.Category.Value] = true
		// With no categories read, the loader has already reported
		// categories as missing, empty or malformed; every variant would
		// repeat that.
		if !declared[v.Category.Value] {
			c.allCategorised = false
			if len(c.cat.Categories) > 0 {
				c.errorf(v.Category.Pos, "category %s is not declared under categories%s", diag.Quote(v.Category.Value), c.suggestCategory(v.Category.Value))
			}
		}
	} else {
		c.allCategorised = false
	}
	c.nonEmpty(v.Doc, "doc")
	// When a field's name could not be read, it could be the one a
	// placeholder names: the templates' syntax is all that is checked.
	fields, known := c.fields(f, v, payload)
	if len(v.Fields) > maxFields {
		c.errorf(v.Name.Pos, "variant %s has %d fields; a variant may have at most %d", diag.Quote(v.Name.Value), len(v.Fields), maxFields)
	}
	if c.nonEmpty(v.Message, "message") {
		c.template(v.Message, "message", fields, known)
	}
	if c.nonEmpty(v.UserMessage, "user_message") {
		c.template(v.UserMessage, "user_message", fields, known)
	}
	if c.nonEmpty(v.SuppressionKey, "suppression_key") {
		c.template(v.SuppressionKey, "suppression_key", fields, known)
	}
	if v.Retryable.Value && v.NonFatal.Value {
		c.errorf(v.NonFatal.Pos, "a variant cannot be both retryable and non_fatal: retryable means try again, non_fatal means carry on without it")
	}
	if v.RetryableFromCause.Value && v.NonFatal.Value {
		c.errorf(v.NonFatal.Pos, "a variant cannot be both retryable_from_cause and non_fatal: a retryable cause would make it retryable and non_fatal at once")
	}
	if v.RetryableFromCause.Value && !hasCause(v) {
		c.errorf(v.RetryableFromCause.Pos, "retryable_from_cause needs a cause: a field of type error or of a family's type")
	}
	if !payload {
		for _, s := range []struct {
			val  ast.String
			name string
		}{{v.SuggestedTool, "suggested_tool"}, {v.SuggestedAction, "suggested_action"}, {v.UsageHint, "usage_hint"}} {
			if s.val.Set {
				c.errorf(s.val.Pos, "%s only appears in an LLM payload, and family %s has no payload_type", s.name, diag.Quote(f.Name.Value))
			}
		}
	}
	for _, s := range v.HTTPStatus {
		switch {
		case s.Value < 100 || s.Value > 599:
			c.errorf(s.Pos, "http_status %d is not an HTTP status code (100 to 599)", s.Value)
		default:
			if p, dup := c.statuses[s.Value]; dup {
				c.errorf(s.Pos, "http_status %d already stands for another variant (at %s); a status maps to one variant", s.Value, at(p))
			} else {
				c.statuses[s.Value] = s.Pos
			}
		}
	}
}

func hasCause(v *ast.Variant) bool {
	for _, f := range v.Fields {
		if f.Type.Value == "error" || (f.Type.Value != "" && names.IsExported(f.Type.Value)) {
			return true
		}
	}
	return false
}

func (c *checker) suggestCategory(got string) string {
	for _, k := range c.cat.Categories {
		if strings.EqualFold(k.Name.Value, got) || strings.Contains(k.Name.Value, got) || strings.Contains(got, k.Name.Value) {
			return "; did you mean " + diag.Quote(k.Name.Value) + "?"
		}
	}
	return ""
}

// fields checks a variant's fields and returns the names templates may use.
// known is false when a field's name could not be read, so the names are
// not all known.
func (c *checker) fields(f *ast.Family, v *ast.Variant, payload bool) (out map[string]bool, known bool) {
	out, known = map[string]bool{}, true
	goNames := map[string]diag.Pos{}
	var cause, retryAfter *ast.Field
	for _, fd := range v.Fields {
		name := fd.Name.Value
		if !fd.Name.Set {
			known = false
		} else {
			switch {
			case !names.IsSnake(name):
				c.errorf(fd.Name.Pos, "field name %s must be snake_case: lower-case ASCII words joined by single underscores", diag.Quote(name))
				// The placeholders naming it are right; the name is not.
				out[name] = true
			case out[name]:
				c.errorf(fd.Name.Pos, "duplicate field %s in variant %s", diag.Quote(name), diag.Quote(v.Name.Value))
			default:
				out[name] = true
				g := names.Go(name)
				if slices.Contains(names.Methods, g) {
					c.errorf(fd.Name.Pos, "field %s becomes %s, which is a generated method; rename the field", diag.Quote(name), g)
				} else if p, dup := goNames[g]; dup {
					c.errorf(fd.Name.Pos, "field %s becomes %s, like the field at %s; rename one", diag.Quote(name), g, at(p))
				} else {
					goNames[g] = fd.Name.Pos
				}
				if fd.Payload.Value && slices.Contains(PayloadKeys, name) {
					c.errorf(fd.Name.Pos, "payload field %s uses a key the payload already has; rename the field", diag.Quote(name))
				}
			}
		}
		// typeKnown is false for a missing or unknown type, which is
		// reported once; the example and retry_after are not held to it.
		isCause, typeKnown := false, fd.Type.Set
		if fd.Type.Set {
			t := fd.Type.Value
			switch {
			case slices.Contains(ScalarTypes, t):
			case t == "error":
				isCause = true
			case c.families[t] != nil:
				isCause = true
			default:
				typeKnown = false
				c.errorf(fd.Type.Pos, "unknown field type %s (want %s, error, or a family name)%s", diag.Quote(t), strings.Join(ScalarTypes, ", "), c.suggestType(t))
			}
		}
		if isCause {
			if cause != nil {
				c.errorf(fd.Type.Pos, "variant %s has a second cause field %s; at most one field may be an error (the first is %s)", diag.Quote(v.Name.Value), diag.Quote(name), diag.Quote(cause.Name.Value))
			} else {
				cause = fd
			}
		}
		if fd.Payload.Value && isCause {
			c.errorf(fd.Payload.Pos, "field %s is a cause and cannot be a payload field; its text already reaches the model through the message", diag.Quote(name))
		}
		if fd.Payload.Value && !payload {
			c.errorf(fd.Payload.Pos, "field %s is marked payload, but family %s has no payload_type", diag.Quote(name), diag.Quote(f.Name.Value))
		}
		if fd.RetryAfter.Value {
			switch {
			case typeKnown && fd.Type.Value != "duration":
				c.errorf(fd.RetryAfter.Pos, "retry_after field %s must have type duration, not %s", diag.Quote(name), fd.Type.Value)
			case retryAfter != nil:
				c.errorf(fd.RetryAfter.Pos, "variant %s has a second retry_after field (the first is %s)", diag.Quote(v.Name.Value), diag.Quote(retryAfter.Name.Value))
			default:
				retryAfter = fd
			}
		}
		c.nonEmpty(fd.Doc, "doc")
		if fd.Example != nil && typeKnown {
			c.example(fd)
		}
	}
	return out, known
}

func (c *checker) suggestType(got string) string {
	for _, t := range append(slices.Clone(ScalarTypes), "error") {
		if strings.EqualFold(t, got) || (t == "duration" && got == "time.Duration") || (t == "strings" && got == "[]string") {
			return "; did you mean " + diag.Quote(t) + "?"
		}
	}
	for name := range c.families {
		if strings.EqualFold(name, got) {
			return "; did you mean " + diag.Quote(name) + "?"
		}
	}
	return ""
}

// example checks that a field's example value fits its type.
func (c *checker) example(fd *ast.Field) {
	ex, t := fd.Example, fd.Type.Value
	bad := func(want string) {
		c.errorf(ex.Pos, "example for field %s of type %s must be %s", diag.Quote(fd.Name.Value), t, want)
	}
	if t == "strings" {
		if !ex.IsList {
			bad("a list of text")
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
			c.errorf(ex.Pos, "example for field %s of type %s must be %s, written without quotes", diag.Quote(fd.Name.Value), t, want)
		}
	}
	switch t {
	case "string", "error":
		// Any scalar is text; numbers and booleans are taken as written.
	case "bool":
		if ex.Quoted || (s != "true" && s != "false") {
			bad("true or false")
		}
	case "int", "int64":
		if _, err := strconv.ParseInt(s, 10, 64); ex.Quoted || err != nil {
			bad("a decimal integer")
		}
	case "uint64":
		if _, err := strconv.ParseUint(s, 10, 64); ex.Quoted || err != nil {
			bad("a non-negative decimal integer")
		}
	case "float64":
		if f, err := strconv.ParseFloat(s, 64); ex.Quoted || err != nil || f != f || f > 1e308 || f < -1e308 {
			bad("a finite decimal number")
		}
	case "duration":
		if _, err := time.ParseDuration(s); err != nil {
			bad(`a Go duration such as "30s" or "1m30s"`)
		}
	default:
		c.errorf(ex.Pos, "field %s holds a %s cause; its example is built from that family's first variant, so it takes no example", diag.Quote(fd.Name.Value), t)
	}
}

// template checks that a template parses and names only known fields (or
// {code}). fields is nil for family-level templates, which know no fields.
// When known is false the field names are not all known, and only the
// syntax is checked.
func (c *checker) template(s ast.String, what string, fields map[string]bool, known bool) {
	t, err := tmpl.Parse(s.Value)
	if err != nil {
		c.errorf(s.Pos, "%s: %v", what, err)
		return
	}
	if !known {
		return
	}
	for _, ref := range t.Refs() {
		if ref == "code" || fields[ref] {
			continue
		}
		if fields == nil {
			c.errorf(s.Pos, "%s: placeholder %s is not available here; a family's template may only use {code}", what, diag.Quote("{"+ref+"}"))
			continue
		}
		c.errorf(s.Pos, "%s: placeholder %s names no field of this variant (fields: %s)", what, diag.Quote("{"+ref+"}"), fieldList(fields))
	}
}

func fieldList(fields map[string]bool) string {
	var out []string
	for f := range fields {
		out = append(out, f)
	}
	slices.Sort(out)
	if len(out) == 0 {
		return "none; {code} is always available"
	}
	return strings.Join(out, ", ") + ", and {code}"
}
