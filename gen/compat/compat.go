package compat

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/model"
)

// Finding is one change a rule reports.
type Finding struct {
	Rule     string
	Tier     Tier
	Severity Severity
	// Pos is in the new catalogue: the variant or field that changed, or
	// for a removal the family that held it (1:1 of the file when the
	// family is gone too).
	Pos diag.Pos
	// BasePos is where the entry stood in the base catalogue; it is zero
	// when the base has no such place.
	BasePos diag.Pos
	// Code is the variant the finding concerns, which a waiver names. It
	// is empty only for a reserved num that no variant uses.
	Code string
	// Field is the field of the variant the finding concerns, by its name
	// in base; empty when it concerns the whole variant.
	Field string
	// Message says what changed. All catalogue text in it is quoted.
	Message string
	// Waiver is the catalogue's waiver that accepts this break, set by
	// Waive; nil when there is none.
	Waiver *model.Waiver
}

// Fails reports whether the finding fails the check: a break no waiver
// accepts.
func (f Finding) Fails() bool { return f.Severity == Break && f.Waiver == nil }

// index looks a catalogue's variants and reserved values up.
type index struct {
	cat      *model.Catalogue
	byCode   map[string]*model.Variant
	byNum    map[int]*model.Variant
	families map[string]*model.Family
	resNums  map[int]*model.Family
	resCodes map[string]*model.Family
}

func newIndex(c *model.Catalogue) *index {
	x := &index{cat: c, byCode: map[string]*model.Variant{}, byNum: map[int]*model.Variant{},
		families: map[string]*model.Family{}, resNums: map[int]*model.Family{}, resCodes: map[string]*model.Family{}}
	for _, v := range c.Variants {
		x.byCode[v.Code] = v
		x.byNum[v.Num] = v
	}
	for _, f := range c.Families {
		x.families[f.Name] = f
		for _, n := range f.ReservedNums {
			x.resNums[n] = f
		}
		for _, s := range f.ReservedCodes {
			x.resCodes[s] = f
		}
	}
	return x
}

// comparer holds the state of one comparison.
type comparer struct {
	base, head *index
	// family maps each base family to the head family it became: the one
	// of the same name, or the one it was renamed to.
	family   map[*model.Family]*model.Family
	findings []Finding
}

// Compare reports how head changed from base: every breaking change and
// every note, whatever its tier, sorted by position in head, then by rule
// ID. Variants are matched by code; nums are compared to find reassigned
// ones. Additions are never reported.
func Compare(base, head *model.Catalogue) []Finding {
	c := &comparer{base: newIndex(base), head: newIndex(head), family: map[*model.Family]*model.Family{}}
	c.matchFamilies()
	for _, hv := range head.Variants {
		if bv := c.base.byNum[hv.Num]; bv != nil && bv.Code != hv.Code {
			c.add(NumReassigned, hv.Pos, bv.Pos, hv.Code,
				"num %d now identifies %s; in base it identified %s", hv.Num, q(hv.Code), q(bv.Code))
		}
		if bv := c.base.byCode[hv.Code]; bv != nil {
			c.variant(bv, hv)
		}
	}
	for _, bv := range base.Variants {
		if c.head.byCode[bv.Code] == nil {
			c.removed(bv)
		}
	}
	c.reserved()
	Sort(c.findings)
	return c.findings
}

// Sort orders findings by position in head, then by rule ID, code and
// message, the order Compare returns them in.
func Sort(findings []Finding) {
	slices.SortStableFunc(findings, func(a, b Finding) int {
		return cmp.Or(
			cmp.Compare(a.Pos.Line, b.Pos.Line),
			cmp.Compare(a.Pos.Col, b.Pos.Col),
			strings.Compare(a.Rule, b.Rule),
			strings.Compare(a.Code, b.Code),
			strings.Compare(a.Message, b.Message),
		)
	})
}

// q quotes catalogue text for a message.
func q(s string) string { return diag.Quote(s) }

func (c *comparer) add(rule string, pos, basePos diag.Pos, code, format string, args ...any) {
	c.addField(rule, pos, basePos, code, "", format, args...)
}

func (c *comparer) addField(rule string, pos, basePos diag.Pos, code, field, format string, args ...any) {
	r, ok := LookupRule(rule)
	if !ok {
		panic("compat: unknown rule " + rule)
	}
	c.findings = append(c.findings, Finding{Rule: r.ID, Tier: r.Tier, Severity: r.Severity,
		Pos: pos, BasePos: basePos, Code: code, Field: field, Message: fmt.Sprintf(format, args...)})
}

// matchFamilies pairs base families with head families: by name, then a
// base family whose name is gone with a new head family that holds
// exactly its surviving variants, which is a rename.
func (c *comparer) matchFamilies() {
	for _, bf := range c.base.cat.Families {
		if hf := c.head.families[bf.Name]; hf != nil {
			c.family[bf] = hf
		}
	}
	for _, bf := range c.base.cat.Families {
		if c.family[bf] != nil {
			continue
		}
		var to *model.Family
		for _, bv := range bf.Variants {
			hv := c.head.byCode[bv.Code]
			if hv == nil {
				continue
			}
			if to != nil && hv.Family != to {
				to = nil
				break
			}
			to = hv.Family
		}
		// A family of the base keeps its name; a renamed one is new, and
		// holds what is left of bf and nothing else of the base.
		if to == nil || c.base.families[to.Name] != nil {
			continue
		}
		whole := true
		for _, hv := range to.Variants {
			if bv := c.base.byCode[hv.Code]; bv != nil && bv.Family != bf {
				whole = false
			}
		}
		if whole {
			c.family[bf] = to
		}
	}
}

// headPos is where a finding about something gone from base family bf
// points: the family it became in head, or the top of head.
func (c *comparer) headPos(bf *model.Family) diag.Pos {
	if hf := c.family[bf]; hf != nil {
		return hf.Pos
	}
	return diag.Pos{File: c.head.cat.File, Line: 1, Col: 1}
}

func (c *comparer) variant(bv, hv *model.Variant) {
	code := hv.Code
	if bv.Num != hv.Num {
		c.add(CodeRenumbered, hv.Pos, bv.Pos, code, "code %s now has num %d; in base it had %d", q(code), hv.Num, bv.Num)
	}
	switch hf := c.family[bv.Family]; {
	case hf != hv.Family:
		c.add(FamilyChanged, hv.Pos, bv.Pos, code, "%s moved to family %s; in base it was in %s", q(code), q(hv.Family.Name), q(bv.Family.Name))
	case hf.Name != bv.Family.Name:
		c.add(GoNameChanged, hv.Pos, bv.Pos, code, "the family of %s is now named %s; in base it was %s (its interface and its As helper)", q(code), q(hv.Family.Name), q(bv.Family.Name))
	}
	if bv.Name != hv.Name {
		c.add(GoNameChanged, hv.Pos, bv.Pos, code, "the Go type of %s is now %s; in base it was %s", q(code), q(hv.Name), q(bv.Name))
	}
	if bp, hp := bv.Family.PayloadType, hv.Family.PayloadType; bp != "" && bp != hp {
		c.add(PayloadTypeChanged, hv.Pos, bv.Pos, code, "the payload type of %s is now %s; in base it was %s", q(code), orNone(hp), q(bp))
	}
	if bv.Category.Name != hv.Category.Name {
		c.add(CategoryChanged, hv.Pos, bv.Pos, code, "the category of %s is now %s; in base it was %s", q(code), q(hv.Category.Name), q(bv.Category.Name))
	}
	if b, h := bv.Retry.String(), hv.Retry.String(); b != h {
		c.add(RetryableChanged, hv.Pos, bv.Pos, code, "%s is now %s; in base it was %s", q(code), h, b)
	}
	if bv.SuppressRetry != hv.SuppressRetry {
		c.add(SuppressRetryChanged, hv.Pos, bv.Pos, code, "suppress_retry of %s is now %t; in base it was %t", q(code), hv.SuppressRetry, bv.SuppressRetry)
	}
	if bv.NonFatal != hv.NonFatal {
		c.add(NonFatalChanged, hv.Pos, bv.Pos, code, "non_fatal of %s is now %t; in base it was %t", q(code), hv.NonFatal, bv.NonFatal)
	}
	if bv.RetryAfter != nil && hv.RetryAfter == nil {
		c.addField(RetryAfterDropped, hv.Pos, bv.RetryAfter.Pos, code, bv.RetryAfter.Name, "%s no longer has a retry_after field; in base RetryAfter returned field %s", q(code), q(bv.RetryAfter.Name))
	}
	if b, h := templateText(bv.SuppressionKey), templateText(hv.SuppressionKey); b != "" && b != h {
		c.add(SuppressionKeyChanged, hv.Pos, bv.Pos, code, "the suppression_key of %s is now %s; in base it was %s", q(code), orNone(h), q(b))
	}
	// A status is gone when the head variant no longer covers all of it.
	var gone []string
	for _, s := range bv.HTTP {
		for st := s.Lo; st <= s.Hi; st++ {
			if !hv.CoversStatus(st) {
				gone = append(gone, s.Text)
				break
			}
		}
	}
	if len(gone) > 0 {
		c.add(HTTPStatusRemoved, hv.Pos, bv.Pos, code, "%s no longer lists http_status %s", q(code), strings.Join(gone, ", "))
	}
	if bv.Message.Text != hv.Message.Text {
		added, removed := diffRefs(bv.Message.Refs(), hv.Message.Refs())
		if len(added)+len(removed) > 0 {
			var parts []string
			if len(added) > 0 {
				parts = append(parts, "added "+strings.Join(added, ", "))
			}
			if len(removed) > 0 {
				parts = append(parts, "removed "+strings.Join(removed, ", "))
			}
			c.add(MessagePlaceholdersChanged, hv.Pos, bv.Pos, code, "the message of %s changed its placeholders: %s", q(code), strings.Join(parts, "; "))
		} else {
			c.add(MessageReworded, hv.Pos, bv.Pos, code, "the message of %s was reworded from %s to %s", q(code), q(bv.Message.Text), q(hv.Message.Text))
		}
	}
	c.fields(bv, hv)
}

// orNone quotes s, or says none when it is empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return q(s)
}

// templateText is the text of a template as written, "" when there is
// none.
func templateText(t *model.Template) string {
	if t == nil {
		return ""
	}
	return t.Text
}

// diffRefs returns the placeholders only in b and only in a, quoted as
// {name}.
func diffRefs(a, b []string) (added, removed []string) {
	for _, r := range b {
		if !slices.Contains(a, r) {
			added = append(added, q("{"+r+"}"))
		}
	}
	for _, r := range a {
		if !slices.Contains(b, r) {
			removed = append(removed, q("{"+r+"}"))
		}
	}
	return added, removed
}

// RenamedTo returns the field of hv that base field bf of bv was renamed
// to, or nil. A field counts as renamed when its name is gone from the
// variant and the field at the same index is new (its name was not in
// base) and has the same type; anything else is a removal, and the new
// field an addition.
func RenamedTo(bv, hv *model.Variant, bf *model.Field) *model.Field {
	if hv.Field(bf.Name) != nil {
		return nil
	}
	i := slices.Index(bv.Fields, bf)
	if i < 0 || i >= len(hv.Fields) {
		return nil
	}
	hf := hv.Fields[i]
	if bv.Field(hf.Name) != nil || hf.Type.Name != bf.Type.Name {
		return nil
	}
	return hf
}

func (c *comparer) fields(bv, hv *model.Variant) {
	code := hv.Code
	for _, bf := range bv.Fields {
		hf := hv.Field(bf.Name)
		if hf == nil {
			if to := RenamedTo(bv, hv, bf); to != nil {
				rule, what := FieldRenamed, "field"
				if bf.Payload {
					rule, what = PayloadFieldRenamed, "payload field"
				}
				c.addField(rule, to.Pos, bf.Pos, code, bf.Name, "%s %s of %s was renamed to %s", what, q(bf.Name), q(code), q(to.Name))
				continue
			}
			rule, what := FieldRemoved, "field"
			if bf.Payload {
				rule, what = PayloadFieldRemoved, "payload field"
			}
			c.addField(rule, hv.Pos, bf.Pos, code, bf.Name, "%s %s of %s was removed", what, q(bf.Name), q(code))
			continue
		}
		if bf.Type.Name != hf.Type.Name {
			rule, what := FieldRetyped, "field"
			if bf.Payload && hf.Payload {
				rule, what = PayloadFieldRetyped, "payload field"
			}
			c.addField(rule, hf.Pos, bf.Pos, code, bf.Name, "%s %s of %s now has type %s; in base it had %s", what, q(bf.Name), q(code), q(hf.Type.Name), q(bf.Type.Name))
		}
		if bf.Payload && !hf.Payload {
			c.addField(PayloadFieldDropped, hf.Pos, bf.Pos, code, bf.Name, "field %s of %s is no longer in the payload", q(bf.Name), q(code))
		}
		if bf.Type.Kind == model.Duration && hf.Type.Kind == model.Duration && bf.Unit != hf.Unit {
			c.addField(UnitChanged, hf.Pos, bf.Pos, code, bf.Name, "field %s of %s now counts %s; in base it counted %s", q(bf.Name), q(code), hf.Unit.Name, bf.Unit.Name)
		}
	}
}

// removed reports a base variant whose code is gone from head, unless its
// num and code are reserved now. A num that another variant uses now is
// reported as NUM_REASSIGNED there, so here only the code is missing.
func (c *comparer) removed(bv *model.Variant) {
	numOK := c.head.resNums[bv.Num] != nil || c.head.byNum[bv.Num] != nil
	codeOK := c.head.resCodes[bv.Code] != nil
	var what string
	switch {
	case numOK && codeOK:
		return
	case numOK:
		what = "its code"
	case codeOK:
		what = "its num"
	default:
		what = "its num and code"
	}
	where := "a family"
	if hf := c.family[bv.Family]; hf != nil {
		where = "family " + q(hf.Name)
	}
	c.add(VariantRemovedUnreserved, c.headPos(bv.Family), bv.Pos, bv.Code,
		"variant %s (num %d) was removed without reserving %s; add %s under reserved of %s", q(bv.Code), bv.Num, what, what[4:], where)
}

// reserved reports nums and codes reserved in base that head no longer
// reserves anywhere.
func (c *comparer) reserved() {
	for _, bf := range c.base.cat.Families {
		for _, n := range bf.ReservedNums {
			if c.head.resNums[n] != nil {
				continue
			}
			pos, code, use := c.headPos(bf), "", ""
			if hv := c.head.byNum[n]; hv != nil {
				pos, code, use = hv.Pos, hv.Code, "; "+q(hv.Code)+" uses it again"
			}
			c.add(ReservedRemoved, pos, bf.Pos, code, "num %d is no longer reserved%s; in base family %s reserved it", n, use, q(bf.Name))
		}
		for _, s := range bf.ReservedCodes {
			if c.head.resCodes[s] != nil {
				continue
			}
			pos, use := c.headPos(bf), ""
			if hv := c.head.byCode[s]; hv != nil {
				pos, use = hv.Pos, "; a variant uses it again"
			}
			c.add(ReservedRemoved, pos, bf.Pos, s, "code %s is no longer reserved%s; in base family %s reserved it", q(s), use, q(bf.Name))
		}
	}
}

// Filter returns the findings of rules in tier t or below.
func Filter(findings []Finding, t Tier) []Finding {
	var out []Finding
	for _, f := range findings {
		if f.Tier <= t {
			out = append(out, f)
		}
	}
	return out
}

// Waive applies the catalogue's waivers to findings checked at tier t: a
// waiver accepts every break of its rule for its code. It returns the
// findings with Waiver set, and the problems of the waivers themselves: an
// unknown rule is an error; a waiver that accepts nothing, or names a rule
// that never fails, is a warning. Waivers of rules above t are not judged.
func Waive(findings []Finding, waivers []model.Waiver, t Tier) ([]Finding, diag.List) {
	out := slices.Clone(findings)
	var diags diag.List
	for i := range waivers {
		w := &waivers[i]
		r, ok := LookupRule(w.Rule)
		switch {
		case !ok:
			msg := fmt.Sprintf("compat waiver names unknown rule %s", q(w.Rule))
			if near := nearestRule(w.Rule); near != "" {
				msg += "; did you mean " + near + "?"
			}
			diags.Errorf(w.Pos, "%s (the rules are listed by errgen compat --help)", msg)
			continue
		case r.Severity == Note:
			diags.Warnf(w.Pos, "compat waiver for %s on %s is not needed: %s is a note and never fails; remove the waiver", r.ID, q(w.Code), r.ID)
			continue
		case r.Tier > t:
			continue
		}
		used := false
		for j := range out {
			if f := &out[j]; f.Rule == r.ID && f.Code == w.Code && f.Severity == Break {
				if f.Waiver == nil {
					f.Waiver = w
				}
				used = true
			}
		}
		if !used {
			diags.Warnf(w.Pos, "compat waiver for %s on %s matches no breaking change against the base; remove it once the change has reached the base", r.ID, q(w.Code))
		}
	}
	return out, diags.Sort()
}
