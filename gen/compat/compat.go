package compat

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/tmpl"
)

// Finding is one change a rule reports.
type Finding struct {
	Rule     string
	Tier     Tier
	Severity Severity
	// Pos is in the new catalogue: the key whose value changed (num:,
	// category:, a field's type:), the list an entry left (a variant's
	// fields:, a family's variants: or reserved:, the catalogue's
	// families:), or the entry itself when it moved; for a key of the
	// catalogue that head deleted, the key that now stands where it stood
	// (catPos).
	Pos diag.Pos
	// BasePos is where the same key stood in the base catalogue; it is
	// zero when the base has no such place.
	BasePos diag.Pos
	// Code is the variant the finding concerns, which a waiver names. It
	// is empty for a finding about a whole family (Codes lists the codes it
	// affects) and for a reserved num that no variant uses.
	Code string
	// Family is the family the finding concerns, by its name in the new
	// catalogue (or in base when it is gone), which a waiver may name
	// instead of a code.
	Family string
	// Codes lists the codes a family-wide finding affects.
	Codes []string
	// Field is the field of the variant the finding concerns, by its name
	// in base; empty when it concerns the whole variant.
	Field string
	// TakenBy is, for a finding about what another variant's change took
	// from Code's variant (a new match rule now tried first, a more
	// specific http_status), that variant's code, beside whose change
	// diff shows the finding; empty otherwise.
	TakenBy string
	// TakenWith is the key of TakenBy's variant whose change took it:
	// "match" or "http_status".
	TakenWith string
	// Key is the key of the variant whose change diff shows the finding
	// beside, when it is not the one the rule is usually about (an
	// instance hint lost with the sub-codes: "subcodes"); empty otherwise.
	Key string
	// Message says what changed. All catalogue text in it is quoted.
	Message string
	// Attribute names the custom attribute a finding is about, for
	// ATTRIBUTE_CHANGED.
	Attribute string
	// Category names the category a CATEGORY_REMOVED finding is about.
	Category string
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
	// subcodes maps every sub-code to its variant.
	subcodes map[string]*model.Variant
}

// recase spells code in case to.
func recase(code string, to model.CodeCase) string {
	if to == model.UpperSnake {
		return strings.ToUpper(code)
	}
	return strings.ToLower(code)
}

// h spells a base code as head spells codes.
func (c *comparer) h(code string) string { return recase(code, c.head.cat.CodeCase) }

// newIndex indexes c with its codes spelled in case to: the head's, so
// that a change of code_case, reported once, does not also make every
// variant look recoded.
func newIndex(c *model.Catalogue, to model.CodeCase) *index {
	x := &index{cat: c, byCode: map[string]*model.Variant{}, byNum: map[int]*model.Variant{},
		families: map[string]*model.Family{}, resNums: map[int]*model.Family{}, resCodes: map[string]*model.Family{},
		subcodes: map[string]*model.Variant{}}
	for _, v := range c.Variants {
		x.byCode[recase(v.Code, to)] = v
		x.byNum[v.Num] = v
		for _, sc := range v.Subcodes {
			x.subcodes[recase(sc.Code, to)] = v
		}
	}
	for _, f := range c.Families {
		x.families[f.Name] = f
		for _, n := range f.ReservedNums {
			x.resNums[n] = f
		}
		for _, s := range f.ReservedCodes {
			x.resCodes[recase(s, to)] = f
		}
	}
	return x
}

// newComparer indexes base and head and pairs their families.
func newComparer(base, head *model.Catalogue) *comparer {
	c := &comparer{base: newIndex(base, head.CodeCase), head: newIndex(head, head.CodeCase), family: map[*model.Family]*model.Family{}, attrByDefault: map[string][]string{}}
	for _, p := range head.ModelJSONProjections() {
		if base.Selects(p) {
			c.modelJSON = append(c.modelJSON, p)
		}
	}
	c.matchFamilies()
	return c
}

// comparer holds the state of one comparison.
type comparer struct {
	base, head *index
	// family maps each base family to the head family it became: the one
	// of the same name, or the one it was renamed to.
	family map[*model.Family]*model.Family
	// others is what the comparison knows of the registry's other
	// catalogues.
	others Others
	// statusByDefault lists the variants whose problem status changed
	// with the catalogue's problem.status, none having an error status in
	// http_status.
	statusByDefault []string
	// modelJSON are the projections both catalogues select that show the
	// model an error's model JSON.
	modelJSON []string
	// attrByDefault lists, by attribute, the variants whose value changed
	// with the attribute's default.
	attrByDefault map[string][]string
	// rendered is messagesChanged's answer for every base family, worked
	// out on first use.
	rendered map[*model.Family][]string
	findings []Finding
}

// Compare reports how head changed from base: every breaking change and
// every note, whatever its tier, sorted by position in head, then by rule
// ID. Variants are matched by code; nums are compared to find reassigned
// ones. Additions are never reported.
func Compare(base, head *model.Catalogue) []Finding {
	return CompareIn(base, head, Others{})
}

// Others is what the comparison of one catalogue of a registry knows of
// the registry's other catalogues; the zero value, nothing, is a
// catalogue on its own.
type Others struct {
	// Elsewhere maps each code (lower case) that another catalogue holds
	// in head to where, with its num (see OthersOf). A variant whose code
	// moved to one of them needs no reserved code, since the code lives
	// on; its num is reserved unless it moved too.
	Elsewhere map[string]Held
	// Nums maps each num a variant of another catalogue holds in head to
	// that catalogue (see OthersOf). A variant whose num one of them took
	// needs no reserved num, which the registry would refuse: that the num
	// now means another code is NUM_REASSIGNED across the catalogues.
	Nums map[int]string
	// Renamed maps the family types of other catalogues, PACKAGE.Family
	// as base writes them, to what they became in head, where that
	// differs (see RenamedFamilies): a field of such a type keeps its
	// type, as one of the catalogue's own renamed family does.
	Renamed map[string]string
	// ReservedCodes (lower case) and ReservedNums are those another
	// catalogue reserves in head: a family that moved there with its
	// reserved list keeps them retired, which this catalogue may not
	// reserve again.
	ReservedCodes map[string]bool
	ReservedNums  map[int]bool
	// Rendered maps the family types of other catalogues, PACKAGE.Family
	// as base writes them, to the codes of the family whose message
	// renders another text in head (see RenderedOtherwise): a suppression
	// key here that renders such a cause changes with it.
	Rendered map[string][]string
}

// codeCasePos is where m writes code_case, or, in a catalogue that leaves
// it to its default, where it would be written: beside package, the key
// every catalogue has and the one that, like code_case, says how the
// generated package names things. Line 1 would point at version:, or at a
// comment, which says nothing about the codes' case.
func codeCasePos(m *model.Catalogue) diag.Pos {
	if m.Src != nil {
		if p, ok := m.Src.Keys.Pos("code_case"); ok {
			return p
		}
	}
	return m.KeyPos("package")
}

// CompareIn is Compare for a catalogue of a registry, whose other
// catalogues others describes.
func CompareIn(base, head *model.Catalogue, others Others) []Finding {
	c := newComparer(base, head)
	c.others = others
	// A new catalogue (an empty base) has no code case to change from.
	if base.CodeCase != head.CodeCase && base.Package != "" {
		c.addFinding(Finding{Rule: CodeCaseChanged, Pos: codeCasePos(head), BasePos: codeCasePos(base),
			Message: fmt.Sprintf("code_case is now %s; in base it was %s: every code is spelled anew, as if every variant were recoded", head.CodeCase, base.CodeCase)})
	}
	c.attributes()
	c.categories()
	for _, hv := range head.Variants {
		if bv := c.base.byNum[hv.Num]; bv != nil && c.h(bv.Code) != hv.Code {
			// A code that was in base came to this num by its num: key;
			// a new code took it by its code: key.
			key := "code"
			if c.base.byCode[hv.Code] != nil {
				key = "num"
			}
			c.add(NumReassigned, hv.KeyPos(key), bv.KeyPos(key), hv.Code,
				"num %d now identifies %s; in base it identified %s", hv.Num, q(hv.Code), q(bv.Code))
		}
		if bv := c.base.byCode[hv.Code]; bv != nil {
			c.variant(bv, hv)
		}
	}
	for _, bv := range base.Variants {
		if c.head.byCode[c.h(bv.Code)] == nil {
			c.removed(bv)
		}
	}
	c.attributeDefaults()
	c.families()
	c.catalogueRetry()
	c.classify()
	c.statusesTaken()
	c.projections()
	c.reserved()
	if base.Package != head.Package && base.Package != "" {
		c.addFinding(Finding{Rule: PackageRenamed, Pos: c.catPos("package"), BasePos: base.KeyPos("package"),
			Message: fmt.Sprintf("the Go package is now %s; in base it was %s: every import of it breaks", q(head.Package), q(base.Package))})
	}
	Sort(c.findings)
	return c.findings
}

// families reports the changes that concern a whole family once, at the
// family, with the codes they affect: a rename (its interface and As
// helper), a change of payload_type, and a change of the gRPC code its
// variants without their own take.
func (c *comparer) families() {
	for _, bf := range c.base.cat.Families {
		hf := c.family[bf]
		if hf == nil {
			continue
		}
		var codes []string
		for _, hv := range hf.Variants {
			if bv := c.base.byCode[hv.Code]; bv != nil && bv.Family == bf {
				codes = append(codes, hv.Code)
			}
		}
		if len(codes) == 0 {
			continue
		}
		c.familyBehaviour(bf, hf, codes)
		list := quoteAll(codes)
		if hf.Name != bf.Name {
			c.addFinding(Finding{Rule: GoNameChanged, Pos: hf.KeyPos("name"), BasePos: bf.KeyPos("name"), Family: hf.Name, Codes: codes,
				Message: fmt.Sprintf("family %s is now named %s (its interface and its As helper), for %s", q(bf.Name), q(hf.Name), list)})
		}
		if c.payloadTypeChanged(bf.PayloadType, hf.PayloadType) {
			c.addFinding(Finding{Rule: PayloadTypeChanged, Pos: hf.KeyPos("payload_type"), BasePos: bf.KeyPos("payload_type"), Family: hf.Name, Codes: codes,
				Message: fmt.Sprintf("the payload type of family %s is now %s; in base it was %s%s, for %s", q(hf.Name), orNone(hf.PayloadType), orNone(bf.PayloadType), c.gained(bf.PayloadType), list)})
		}
		c.familyGRPCCode(bf, hf)
	}
}

// payloadTypeChanged reports whether a payload type bp of base became hp
// in head in a way readers see: changed or removed, or gained where both
// catalogues select a projection that shows the model its model JSON,
// which is then the payload instead of the wire form.
func (c *comparer) payloadTypeChanged(bp, hp string) bool {
	if bp == "" && hp != "" {
		return len(c.modelJSON) > 0
	}
	return bp != hp
}

// gained explains a payload type gained where bp is base's: what the
// model reads in the projections that show it the model JSON.
func (c *comparer) gained(bp string) string {
	if bp != "" {
		return ""
	}
	return ": its " + strings.Join(c.modelJSON, ", ") + " tool results show the model the payload instead of the wire form, which leaves out every field not in the payload"
}

// quoteAll quotes each string and joins them with commas.
func quoteAll(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = q(s)
	}
	return strings.Join(out, ", ")
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

// flagMoved compares bf, the field of bv that a flag (key: retry_after,
// http_status) marked in base, with now, the field of hv that it marks: it
// reports the flag gone, at bf's field if it is still there (by its name
// or the name it was renamed to) or else at fields:, or moved to now, at
// now's flag.
func (c *comparer) flagMoved(bv, hv *model.Variant, bf, now *model.Field, key string) (pos diag.Pos, gone, moved bool) {
	hf := hv.Field(bf.Name)
	if hf == nil {
		hf = c.renamedTo(bv, hv, bf)
	}
	switch {
	case now == nil:
		pos = hv.KeyPos("fields")
		if hf != nil {
			pos = hf.KeyPos(key)
		}
		return pos, true, false
	case now != hf:
		return now.KeyPos(key), false, true
	}
	return diag.Pos{}, false, false
}

func (c *comparer) add(rule string, pos, basePos diag.Pos, code, format string, args ...any) {
	c.addField(rule, pos, basePos, code, "", format, args...)
}

func (c *comparer) addField(rule string, pos, basePos diag.Pos, code, field, format string, args ...any) {
	c.addFinding(Finding{Rule: rule, Pos: pos, BasePos: basePos, Code: code, Field: field,
		Family: c.familyOf(code), Message: fmt.Sprintf(format, args...)})
}

// addFinding adds f, its tier and severity taken from its rule.
func (c *comparer) addFinding(f Finding) {
	r, ok := LookupRule(f.Rule)
	if !ok {
		panic("compat: unknown rule " + f.Rule)
	}
	f.Tier, f.Severity = r.Tier, r.Severity
	c.findings = append(c.findings, f)
}

// familyOf names the family a finding about code concerns: the variant's
// family in head, or the head family its base family became, or the base
// family.
func (c *comparer) familyOf(code string) string {
	if hv := c.head.byCode[code]; hv != nil {
		return hv.Family.Name
	}
	if bv := c.base.byCode[code]; bv != nil {
		if hf := c.family[bv.Family]; hf != nil {
			return hf.Name
		}
		return bv.Family.Name
	}
	if f := c.head.resCodes[code]; f != nil {
		return f.Name
	}
	return ""
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
			hv := c.head.byCode[c.h(bv.Code)]
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
// points: the family it became in head, or, the family gone, the
// catalogue's families: key, the list it left.
func (c *comparer) headPos(bf *model.Family) diag.Pos {
	if hf := c.family[bf]; hf != nil {
		return hf.Pos
	}
	return c.catPos("families")
}

// catPos is where a finding about the catalogue's key points in head: the
// key, or, when head deleted it, the key that now stands where it stood,
// the first key after it in base that head still has (the deleted lines
// end just above it), else the last before it; and where head's mapping
// starts when head has none of those.
func (c *comparer) catPos(key string) diag.Pos {
	head, base := c.head.cat.Src, c.base.cat.Src
	if head == nil {
		return c.head.cat.KeyPos(key)
	}
	if p, ok := head.Keys.Pos(key); ok {
		return p
	}
	if base != nil {
		if i := slices.IndexFunc(base.Keys, func(k ast.KeyPos) bool { return k.Name == key }); i >= 0 {
			for _, k := range base.Keys[i+1:] {
				if p, ok := head.Keys.Pos(k.Name); ok {
					return p
				}
			}
			for j := i - 1; j >= 0; j-- {
				if p, ok := head.Keys.Pos(base.Keys[j].Name); ok {
					return p
				}
			}
		}
	}
	if head.Pos.Line > 0 {
		return head.Pos
	}
	return c.head.cat.KeyPos(key)
}

func (c *comparer) variant(bv, hv *model.Variant) {
	code := hv.Code
	if bv.Num != hv.Num {
		c.add(CodeRenumbered, hv.KeyPos("num"), bv.KeyPos("num"), code, "code %s now has num %d; in base it had %d", q(code), hv.Num, bv.Num)
	}
	moved := c.family[bv.Family] != hv.Family
	if moved {
		c.add(FamilyChanged, hv.Pos, bv.Pos, code, "%s moved to family %s; in base it was in %s", q(code), q(hv.Family.Name), q(bv.Family.Name))
		// A family's own payload_type change is reported once, at the
		// family (families); a variant that moved reports its own.
		if bp, hp := bv.Family.PayloadType, hv.Family.PayloadType; c.payloadTypeChanged(bp, hp) {
			c.add(PayloadTypeChanged, hv.Pos, bv.Pos, code, "the payload type of %s is now %s; in base it was %s%s", q(code), orNone(hp), orNone(bp), c.gained(bp))
		}
		c.variantRetryPolicy(bv, hv)
	}
	if bv.Name != hv.Name {
		c.add(GoNameChanged, hv.KeyPos("name"), bv.KeyPos("name"), code, "the Go type of %s is now %s; in base it was %s", q(code), q(hv.Name), q(bv.Name))
	}
	if bv.Category.Name != hv.Category.Name {
		c.add(CategoryChanged, hv.KeyPos("category"), bv.KeyPos("category"), code, "the category of %s is now %s; in base it was %s", q(code), q(hv.Category.Name), q(bv.Category.Name))
	}
	// A renamed field that decides still decides: the rename is
	// reported at the field.
	br := bv.Retry
	if to, ok := c.renames(bv, hv)[br.Field]; ok && br.Field != "" {
		br.Field = to
	}
	if b, h := br.String(), hv.Retry.String(); b != h {
		b = bv.Retry.String()
		key := "retryable"
		if bv.Retry.FromCause != hv.Retry.FromCause {
			key = "retryable_from_cause"
		}
		// A field that decides (or decided) is where the rule is written.
		hp, bp := keyPos(hv, key), keyPos(bv, key)
		if f := hv.RetryableField; f != nil {
			hp = f.KeyPos("retryable")
		}
		if f := bv.RetryableField; f != nil {
			bp = f.KeyPos("retryable")
		}
		c.add(RetryableChanged, hp, bp, code, "%s is now %s; in base it was %s", q(code), h, b)
	}
	if bv.SuppressRetry != hv.SuppressRetry {
		c.add(SuppressRetryChanged, hv.KeyPos("suppress_retry"), bv.KeyPos("suppress_retry"), code, "suppress_retry of %s is now %t; in base it was %t", q(code), hv.SuppressRetry, bv.SuppressRetry)
	}
	if bv.NonFatal != hv.NonFatal {
		c.add(NonFatalChanged, hv.KeyPos("non_fatal"), bv.KeyPos("non_fatal"), code, "non_fatal of %s is now %t; in base it was %t", q(code), hv.NonFatal, bv.NonFatal)
	}
	if bf := bv.RetryAfter; bf != nil {
		// Gone, or another field took the flag: what callers set in the
		// old one, and what a sender of the old catalogue sends in it, is
		// no longer waited for.
		switch pos, gone, moved := c.flagMoved(bv, hv, bf, hv.RetryAfter, "retry_after"); {
		case gone:
			c.addField(RetryAfterDropped, pos, bf.KeyPos("retry_after"), code, bf.Name, "%s no longer has a retry_after field; in base RetryAfterOf returned field %s", q(code), q(bf.Name))
		case moved:
			c.addField(RetryAfterDropped, pos, bf.KeyPos("retry_after"), code, bf.Name, "the retry_after field of %s is now %s; in base RetryAfterOf returned field %s", q(code), q(hv.RetryAfter.Name), q(bf.Name))
		}
	}
	if bf := bv.HTTPStatusField; bf != nil {
		switch pos, gone, moved := c.flagMoved(bv, hv, bf, hv.HTTPStatusField, "http_status"); {
		case gone:
			c.addField(HTTPStatusFieldDropped, pos, bf.KeyPos("http_status"), code, bf.Name, "%s no longer has an http_status field; in base field %s held the HTTP status the error was made from", q(code), q(bf.Name))
		case moved:
			c.addField(HTTPStatusFieldDropped, pos, bf.KeyPos("http_status"), code, bf.Name, "the http_status field of %s is now %s; in base field %s held the HTTP status the error was made from", q(code), q(hv.HTTPStatusField.Name), q(bf.Name))
		}
	}
	// Templates are compared with base's placeholders of renamed fields
	// renamed: what they render is the same, and the rename is reported
	// at the field.
	names := c.renames(bv, hv)
	if b, h := keyText(bv, bv, hv, names), keyText(hv, bv, hv, nil); b != "" && b != h {
		c.add(SuppressionKeyChanged, hv.KeyPos("suppression_key"), bv.KeyPos("suppression_key"), code, "the suppression_key of %s is now %s; in base it was %s", q(code), orNone(templateText(hv.SuppressionKey)), q(templateText(bv.SuppressionKey)))
	} else if b != "" {
		c.keyCauses(bv, hv, names)
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
		c.add(HTTPStatusRemoved, hv.KeyPos("http_status"), bv.KeyPos("http_status"), code, "%s no longer lists http_status %s", q(code), strings.Join(gone, ", "))
	}
	if bm := renamed(bv.Message, names); bm.String() != hv.Message.Segments.String() {
		added, removed := diffRefs(bm.Refs(), hv.Message.Refs())
		if len(added)+len(removed) > 0 {
			var parts []string
			if len(added) > 0 {
				parts = append(parts, "added "+strings.Join(added, ", "))
			}
			if len(removed) > 0 {
				parts = append(parts, "removed "+strings.Join(removed, ", "))
			}
			c.add(MessagePlaceholdersChanged, hv.KeyPos("message"), bv.KeyPos("message"), code, "the message of %s changed its placeholders: %s", q(code), strings.Join(parts, "; "))
		} else {
			c.add(MessageReworded, hv.KeyPos("message"), bv.KeyPos("message"), code, "the message of %s was reworded from %s to %s", q(code), q(bv.Message.Text), q(hv.Message.Text))
		}
	}
	c.subcodesGone(bv, hv, hv.KeyPos("subcodes"))
	c.instance(bv, hv)
	c.behaviour(bv, hv)
	c.variantProjections(bv, hv)
	c.fields(bv, hv)
}

// keyCauses reports a suppression key that kept its template but renders
// a cause of a family of the catalogue, {cause}, whose text is the cause's
// message: when the message of one of the family's errors changed, even
// reworded with the same placeholders (a note for that error), the key of
// this one changes with it, and repeats group differently.
func (c *comparer) keyCauses(bv, hv *model.Variant, names map[string]string) {
	from := map[string]string{}
	for b, h := range names {
		from[h] = b
	}
	for _, ref := range hv.SuppressionKey.Refs() {
		hf := hv.Field(ref)
		if hf == nil || hf.Type.Kind != model.FamilyKind {
			continue
		}
		name := ref
		if b, ok := from[ref]; ok {
			name = b
		}
		bf := bv.Field(name)
		if bf == nil || bf.Type.Kind != model.FamilyKind || !c.sameFamily(bf.Type, hf.Type) && bf.Type.Name != hf.Type.Name {
			continue
		}
		var changed []string
		family := hf.Type.Name
		switch {
		case bf.Type.Import != "" || hf.Type.Import != "":
			// Another catalogue's family: what changed there.
			changed = c.others.Rendered[bf.Type.Name]
		case c.family[bf.Type.Family] == hf.Type.Family:
			changed = c.messagesChanged(bf.Type.Family)
			family = hf.Type.Family.Name
		}
		if len(changed) == 0 {
			continue
		}
		c.add(SuppressionKeyChanged, hv.KeyPos("suppression_key"), bv.KeyPos("suppression_key"), hv.Code,
			"the suppression_key of %s renders {%s}, the message of its cause of family %s, which renders another text for %s than in base: repeats group differently",
			q(hv.Code), ref, q(family), quoteAll(changed))
	}
}

// messagesChanged lists the codes of base family bf's errors, still in the
// family it became, whose message renders another text than in base: their
// template changed (a renamed field's placeholder renders the same), a
// duration it renders counts another unit or is rounded otherwise, or a
// cause that it renders did, in turn: of a family of the catalogue, or of
// another catalogue's (Others.Rendered). It is worked out for every family
// at once, on first use.
func (c *comparer) messagesChanged(bf *model.Family) []string {
	if c.rendered == nil {
		c.rendered = c.renderedOtherwise()
	}
	return c.rendered[bf]
}

// renderedOtherwise works out messagesChanged for every base family: first
// the errors whose own message renders another text, then, until no more
// change, those whose message renders a cause of a family that has such
// an error, so that families whose errors hold each other's end too. It
// is linear in the catalogue's variants for each round, and the rounds are
// at most the families.
func (c *comparer) renderedOtherwise() map[*model.Family][]string {
	changed := map[*model.Variant]bool{} // head variants
	has := map[*model.Family]bool{}      // base families
	type holder struct {
		family *model.Family
		head   *model.Variant
		causes []*model.Family // the base families of the causes it renders
	}
	var holders []holder
	for _, bf := range c.base.cat.Families {
		for _, bv := range bf.Variants {
			hv := c.head.byCode[c.h(bv.Code)]
			if hv == nil || hv.Family != c.family[bf] {
				continue
			}
			own := codeWritten(renamed(bv.Message, c.renames(bv, hv)), bv, hv) != codeWritten(renamed(hv.Message, nil), bv, hv)
			var causes []*model.Family
			for _, ref := range bv.Message.Refs() {
				f, hf := bv.Field(ref), hv.Field(ref)
				if f == nil || own {
					continue
				}
				if hf == nil {
					if hf = c.renamedTo(bv, hv, f); hf == nil {
						continue
					}
				}
				switch {
				case f.Type.Kind == model.Duration && hf.Type.Kind == model.Duration && (f.Unit != hf.Unit || f.RetryAfter != hf.RetryAfter && hf.Unit.Size > 1):
					// A duration's number in another unit or rounded
					// otherwise, as UNIT_CHANGED says.
					own = true
				case f.Type.Kind == model.FamilyKind && f.Type.Import != "":
					// A cause of another catalogue of the registry, whose
					// comparison found its message changed.
					own = own || len(c.others.Rendered[f.Type.Name]) > 0
				case f.Type.Kind == model.FamilyKind:
					causes = append(causes, f.Type.Family)
				}
			}
			switch {
			case own:
				changed[hv], has[bf] = true, true
			case len(causes) > 0:
				holders = append(holders, holder{bf, hv, causes})
			}
		}
	}
	for more := true; more; {
		more = false
		for _, h := range holders {
			if !changed[h.head] && slices.ContainsFunc(h.causes, func(f *model.Family) bool { return has[f] }) {
				changed[h.head], has[h.family], more = true, true, true
			}
		}
	}
	out := map[*model.Family][]string{}
	for _, bf := range c.base.cat.Families {
		for _, bv := range bf.Variants {
			if hv := c.head.byCode[c.h(bv.Code)]; hv != nil && changed[hv] {
				out[bf] = append(out[bf], hv.Code)
			}
		}
	}
	return out
}

// keyPos is where key stands in v, or, when v has no such key (a flag left
// to its default), where the other retry key stands, or v itself.
func keyPos(v *model.Variant, key string) diag.Pos {
	if v.Src != nil {
		if p, ok := v.Src.Keys.Pos(key); ok {
			return p
		}
		for _, k := range []string{"retryable", "retryable_from_cause"} {
			if p, ok := v.Src.Keys.Pos(k); ok {
				return p
			}
		}
	}
	return v.Pos
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

// renames maps the name of each field of bv that was renamed in hv to its
// name there.
func (c *comparer) renames(bv, hv *model.Variant) map[string]string {
	out := map[string]string{}
	for _, bf := range bv.Fields {
		if hf := c.renamedTo(bv, hv, bf); hf != nil {
			out[bf.Name] = hf.Name
		}
	}
	return out
}

// renamed is t's segments with each placeholder named in names renamed;
// nil for no template.
func renamed(t *model.Template, names map[string]string) tmpl.Template {
	if t == nil {
		return nil
	}
	out := slices.Clone(t.Segments)
	for i, s := range out {
		if to, ok := names[s.Ref]; ok {
			out[i].Ref = to
		}
	}
	return out
}

// keyText is v's suppression key template, with names' renames, for
// comparing base variant bv with head variant hv: {code} is written as the
// code (hv's, whose code a code_case change spells anew, reported once as
// such) when either has no sub-codes, since an error of both versions
// then selects none, and {code} renders the code and nothing else; a
// sub-code added or removed is another error's. When both have sub-codes,
// an error that selects one renders it in {code}'s place.
func keyText(v, bv, hv *model.Variant, names map[string]string) string {
	return codeWritten(renamed(v.SuppressionKey, names), bv, hv)
}

// codeWritten is t, a template of base variant bv or head variant hv, as
// text to compare with the other's, {code} written as the code as keyText
// does: a message or key that spells its code as {code}, or back, renders
// the same text.
func codeWritten(t tmpl.Template, bv, hv *model.Variant) string {
	if len(bv.Subcodes) == 0 || len(hv.Subcodes) == 0 {
		for i, s := range t {
			if s.Ref == "code" {
				t[i] = tmpl.Segment{Lit: hv.Code}
			}
		}
	}
	return t.String()
}

// renamedTo returns the field of hv that base field bf of bv was renamed
// to, or nil. A field counts as renamed when its name is gone from the
// variant and the field at the same index is new (its name was not in
// base) and has the same type (a cause of the same family, renamed or
// not); anything else is a removal, and the new field an addition.
func (c *comparer) renamedTo(bv, hv *model.Variant, bf *model.Field) *model.Field {
	if hv.Field(bf.Name) != nil {
		return nil
	}
	i := slices.Index(bv.Fields, bf)
	if i < 0 || i >= len(hv.Fields) {
		return nil
	}
	hf := hv.Fields[i]
	if bv.Field(hf.Name) != nil || hf.Type.Name != bf.Type.Name && !c.sameFamily(bf.Type, hf.Type) {
		return nil
	}
	return hf
}

func (c *comparer) fields(bv, hv *model.Variant) {
	code := hv.Code
	for _, bf := range bv.Fields {
		hf := hv.Field(bf.Name)
		if hf == nil {
			hf = c.renamedTo(bv, hv, bf)
			if hf == nil {
				rule, what := fieldRule(bf, bf, bf.Payload, FieldRemoved, PayloadFieldRemoved)
				c.addField(rule, hv.KeyPos("fields"), bf.Pos, code, bf.Name, "%s %s of %s was removed%s", what, q(bf.Name), q(code), goOnly(rule))
				continue
			}
			rule, what := fieldRule(bf, hf, bf.Payload, FieldRenamed, PayloadFieldRenamed)
			c.addField(rule, hf.KeyPos("name"), bf.KeyPos("name"), code, bf.Name, "%s %s of %s was renamed to %s%s", what, q(bf.Name), q(code), q(hf.Name), goOnly(rule))
			// A renamed field is still compared with what it was: a
			// rename does not hide a secret that is now sent.
		}
		// Each finding names the field as head does; Field keeps the base
		// name, by which diff puts the finding beside the field's change.
		name := q(hf.Name)
		if bf.Type.Name != hf.Type.Name && !c.sameFamily(bf.Type, hf.Type) {
			rule, what := fieldRule(bf, hf, bf.Payload && hf.Payload, FieldRetyped, PayloadFieldRetyped)
			if sameJSON(bf.Type, hf.Type) {
				rule = GoFieldChanged
			}
			c.addField(rule, hf.KeyPos("type"), bf.KeyPos("type"), code, bf.Name, "%s %s of %s now has type %s; in base it had %s%s", what, name, q(code), q(hf.Type.Name), q(bf.Type.Name), goOnly(rule))
		}
		if bf.Payload && !hf.Payload {
			c.addField(PayloadFieldDropped, hf.KeyPos("payload"), bf.KeyPos("payload"), code, bf.Name, "field %s of %s is no longer in the payload", name, q(code))
		}
		switch {
		case bf.Sensitive && !hf.Sensitive:
			c.addField(SensitiveRemoved, hf.KeyPos("sensitive"), bf.KeyPos("sensitive"), code, bf.Name, "field %s of %s is no longer sensitive: its value, never sent or logged in base, now reaches the wire form, logs and fmt's output", name, q(code))
		case !bf.Sensitive && hf.Sensitive:
			c.addField(SensitiveAdded, hf.KeyPos("sensitive"), bf.KeyPos("sensitive"), code, bf.Name, "field %s of %s is now sensitive: its key leaves the wire form, and logs show %s", name, q(code), model.Redacted)
		}
		// A sensitive field's number is never shown, so neither its unit
		// nor its rounding can change what anyone reads.
		switch shown := !bf.Sensitive && !hf.Sensitive; {
		case !shown || bf.Type.Kind != model.Duration || hf.Type.Kind != model.Duration:
		case bf.Unit != hf.Unit:
			c.addField(UnitChanged, hf.KeyPos("unit"), bf.KeyPos("unit"), code, bf.Name, "field %s of %s now counts %s; in base it counted %s", name, q(code), hf.Unit.Name, bf.Unit.Name)
		case bf.RetryAfter != hf.RetryAfter && hf.Unit.Size > 1:
			// The retry_after field's number is rounded up, any other's cut
			// (a whole number of nanoseconds either way).
			msg := "field %s of %s is no longer the retry_after field: its number is cut to a whole number of %s; in base it was rounded up"
			if hf.RetryAfter {
				msg = "field %s of %s is now the retry_after field: its number is rounded up to a whole number of %s; in base it was cut"
			}
			c.addField(UnitChanged, hf.KeyPos("retry_after"), bf.KeyPos("retry_after"), code, bf.Name, msg, name, q(code), hf.Unit.Name)
		}
	}
	// The order of the payload's keys: the bytes change, the meaning does
	// not.
	if b, h := fieldOrder(bv, hv, true), fieldOrder(hv, bv, true); len(b) > 1 && !slices.Equal(b, h) {
		c.add(PayloadFieldOrderChanged, hv.KeyPos("fields"), bv.KeyPos("fields"), code, "the payload fields of %s now come in the order %s; in base %s", q(code), strings.Join(h, ", "), strings.Join(b, ", "))
	} else if b, h := fieldOrder(bv, hv, false), fieldOrder(hv, bv, false); !slices.Equal(b, h) {
		c.add(FieldOrderChanged, hv.KeyPos("fields"), bv.KeyPos("fields"), code, "the fields of %s now come in the order %s; in base %s", q(code), strings.Join(h, ", "), strings.Join(b, ", "))
	}
}

// fieldRule picks the rule for a change to a field that was bf in base and
// is hf in head (the same field when it was removed): the payload rule
// when inPayload (a removed or renamed field that was in the payload, a
// retyped one that is in it on both sides), the wire form's for a field
// the wire form carries on both sides (one that is not sensitive), and
// GO_FIELD_CHANGED for the rest, which only Go code sees; a key that comes
// or goes with the payload flag or with sensitive has its own rule. what
// names the field in the finding's message.
func fieldRule(bf, hf *model.Field, inPayload bool, wire, payload string) (rule, what string) {
	switch {
	case inPayload:
		return payload, "payload field"
	case !bf.Sensitive && !hf.Sensitive:
		return wire, "field"
	case bf.Sensitive && hf.Sensitive:
		return GoFieldChanged, "sensitive field"
	}
	return GoFieldChanged, "field"
}

// goOnly ends the message of a GO_FIELD_CHANGED finding with why it is
// only a Go break.
func goOnly(rule string) string {
	if rule == GoFieldChanged {
		return ": no payload or wire form shows the change, Go code that uses the field does"
	}
	return ""
}

// sameJSON reports whether a field's value reads and writes the same in
// JSON with either type: int and int64 (both 64-bit numbers where Go runs
// its services).
func sameJSON(a, b model.Type) bool {
	ints := func(t model.Type) bool { return t.Kind == model.Int || t.Kind == model.Int64 }
	return ints(a) && ints(b)
}

// sameFamily reports whether a and b are the types of causes of the same
// family, under its base and head names: a family rename is reported
// once, at the family, not again at every field that holds it.
func (c *comparer) sameFamily(a, b model.Type) bool {
	switch {
	case a.Kind != model.FamilyKind || b.Kind != model.FamilyKind:
		return false
	case a.Import != "" || b.Import != "":
		return c.others.Renamed[a.Name] == b.Name
	}
	return c.family[a.Family] == b.Family
}

// fieldOrder lists the fields of v that other has too, in v's order; with
// payload set, only those that are payload fields in both.
func fieldOrder(v, other *model.Variant, payload bool) []string {
	var out []string
	for _, f := range v.Fields {
		if o := other.Field(f.Name); o != nil && (!payload || f.Payload && o.Payload) {
			out = append(out, f.Name)
		}
	}
	return out
}

// removed reports a base variant whose code is gone from head, unless its
// num and code are reserved now. A num that another variant uses now is
// reported as NUM_REASSIGNED there, so here only the code is missing.
func (c *comparer) removed(bv *model.Variant) {
	code := c.h(bv.Code)
	where, pos := "a family", c.catPos("families")
	if hf := c.family[bv.Family]; hf != nil {
		where, pos = "family "+q(hf.Name), hf.KeyPos("variants")
	}
	statuses := make([]string, len(bv.HTTP))
	for i, s := range bv.HTTP {
		statuses[i] = s.Text
	}
	// The foreign errors its rules and statuses caught now fall to another
	// rule or to the fallback.
	if hc := c.head.cat.Classify; hc != nil {
		for _, br := range bv.Match {
			c.add(ClassifyRuleRemoved, pos, br.Pos, code, "foreign errors that match %s no longer classify as %s, which was removed; they classify by the other rules, or as %s", br, q(code), q(hc.Fallback.Code))
		}
		if bv.ClassifyByStatus && c.base.cat.Classify != nil {
			c.add(ClassifyRuleRemoved, pos, bv.KeyPos("http_status"), code, "foreign errors with http_status %s no longer classify as %s, which was removed; they classify by the other rules, or as %s", strings.Join(statuses, ", "), q(code), q(hc.Fallback.Code))
		}
	}
	numOK := c.head.resNums[bv.Num] != nil || c.head.byNum[bv.Num] != nil
	codeOK := c.head.resCodes[code] != nil || c.others.ReservedCodes[strings.ToLower(code)]
	moved := ""
	if h, ok := c.others.Elsewhere[strings.ToLower(code)]; ok {
		codeOK, moved = true, " (its code moved to "+q(h.Catalogue)+")"
		numOK = numOK || h.Num == bv.Num
	}
	if _, ok := c.others.Nums[bv.Num]; ok || c.others.ReservedNums[bv.Num] {
		numOK = true
	}
	// Retired or not, the statuses it stood for in LookupHTTPStatus and
	// FromHTTP now give another variant, or none: a waiver of the removal
	// does not waive that. (A num another variant took is NUM_REASSIGNED
	// there.)
	if len(statuses) > 0 && c.head.byNum[bv.Num] == nil {
		how := "was removed"
		if numOK && codeOK {
			how = "was retired"
		}
		c.add(HTTPStatusRemoved, pos, bv.KeyPos("http_status"), code, "%s, which %s, stood for http_status %s in LookupHTTPStatus and FromHTTP; they now give another variant, or none", q(code), how, strings.Join(statuses, ", "))
	}
	if hv := c.head.subcodes[code]; hv != nil && !codeOK {
		// Its code lives on as another variant's sub-code, which reserving
		// it would refuse: the code now means that variant's error.
		sc := hv.Subcodes[slices.IndexFunc(hv.Subcodes, func(sc *model.Subcode) bool { return c.h(sc.Code) == code || sc.Code == code })]
		c.add(VariantRemovedUnreserved, sc.Pos, bv.Pos, code, "variant %s (num %d) was removed, and its code is now a sub-code of %s (num %d): clients that match the code get that error; give the sub-code another code and reserve this one", q(code), bv.Num, q(hv.Code), hv.Num)
		if !numOK {
			c.add(VariantRemovedUnreserved, pos, bv.Pos, code, "variant %s (num %d) was removed without reserving its num; add num under reserved of %s", q(code), bv.Num, where)
		}
		c.subcodesGone(bv, nil, pos)
		return
	}
	var what string
	switch {
	case numOK && codeOK:
		// Retired as it should be.
		c.subcodesGone(bv, nil, c.headPos(bv.Family))
		return
	case numOK:
		what = "its code"
	case codeOK:
		what = "its num"
	default:
		what = "its num and code"
	}
	c.add(VariantRemovedUnreserved, pos, bv.Pos, code,
		"variant %s (num %d) was removed without reserving %s%s; add %s under reserved of %s", q(code), bv.Num, what, moved, what[4:], where)
	c.subcodesGone(bv, nil, pos)
}

// reserved reports nums and codes reserved in base that head no longer
// reserves anywhere: at the head family's reserved: list, or the family
// when the list is gone, or at the variant that uses the value again.
func (c *comparer) reserved() {
	for _, bf := range c.base.cat.Families {
		at, basePos := c.headPos(bf), bf.KeyPos("reserved")
		if hf := c.family[bf]; hf != nil {
			at = hf.KeyPos("reserved")
		}
		for _, n := range bf.ReservedNums {
			if c.head.resNums[n] != nil || c.others.ReservedNums[n] {
				continue
			}
			if _, ok := c.others.Nums[n]; ok {
				// Another catalogue gave it a meaning: NUM_REASSIGNED
				// across the registry, which this one cannot undo.
				continue
			}
			pos, code, use := at, "", ""
			if hv := c.head.byNum[n]; hv != nil {
				pos, code, use = hv.KeyPos("num"), hv.Code, "; "+q(hv.Code)+" uses it again"
			}
			f := Finding{Rule: ReservedRemoved, Pos: pos, BasePos: basePos, Code: code, Family: c.familyOf(code),
				Message: fmt.Sprintf("num %d is no longer reserved%s; in base family %s reserved it", n, use, q(bf.Name))}
			if code == "" {
				f.Family = c.headFamilyName(bf)
			}
			c.addFinding(f)
		}
		for _, s := range bf.ReservedCodes {
			s = c.h(s)
			if c.head.resCodes[s] != nil || c.others.ReservedCodes[strings.ToLower(s)] {
				continue
			}
			if _, ok := c.others.Elsewhere[strings.ToLower(s)]; ok {
				// Another catalogue gave it a meaning: RESERVED_REMOVED
				// at that use, across the registry.
				continue
			}
			pos, use, family := at, "", c.familyOf(s)
			if hv := c.head.byCode[s]; hv != nil {
				pos, use = hv.KeyPos("code"), "; a variant uses it again"
			} else if hv := c.head.subcodes[s]; hv != nil {
				i := slices.IndexFunc(hv.Subcodes, func(sc *model.Subcode) bool { return sc.Code == s })
				pos, use, family = hv.Subcodes[i].Pos, "; "+q(hv.Code)+" uses it again as a sub-code", hv.Family.Name
			}
			f := Finding{Rule: ReservedRemoved, Pos: pos, BasePos: basePos, Code: s, Family: family,
				Message: fmt.Sprintf("code %s is no longer reserved%s; in base family %s reserved it", q(s), use, q(bf.Name))}
			if f.Family == "" {
				f.Family = c.headFamilyName(bf)
			}
			c.addFinding(f)
		}
	}
}

// headFamilyName names base family bf as head does: the family it became,
// or its own name when it is gone.
func (c *comparer) headFamilyName(bf *model.Family) string {
	if hf := c.family[bf]; hf != nil {
		return hf.Name
	}
	return bf.Name
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
// waiver accepts every break of its rule for its code, or for every code
// of its family. It returns the findings with Waiver set, and the waivers
// that accept nothing (warnings: once the change has reached the base,
// the waiver can go). Waivers of unknown rules, of notes and of rules
// above t are not judged here; CheckWaivers reports the first two.
func Waive(findings []Finding, waivers []model.Waiver, t Tier) ([]Finding, diag.List) {
	out := slices.Clone(findings)
	var diags diag.List
	var unused []*model.Waiver
	for i := range waivers {
		w := &waivers[i]
		if !Judged(w, t) {
			continue
		}
		used := false
		for j := range out {
			if f := &out[j]; accepts(w, *f) {
				if f.Waiver == nil {
					f.Waiver = w
				}
				used = true
			}
		}
		if !used {
			unused = append(unused, w)
		}
	}
	// Judged once every waiver has had its say: a family-wide break that
	// another waiver names the family of needs nothing more.
	for _, w := range unused {
		if family := familyWide(out, w); family != "" {
			diags.Warnf(w.Pos, "compat waiver for %s on %s matches no breaking change against the base: the %s break is of family %s as a whole; waive it with family: %s instead of the code", w.Rule, w.Subject(), w.Rule, q(family), family)
			continue
		}
		diags.Warnf(w.Pos, "compat waiver for %s on %s matches no breaking change against the base; remove it once the change has reached the base", w.Rule, w.Subject())
	}
	return out, diags.Sort()
}

// familyWide returns the family of a break of w's rule that concerns a
// whole family whose codes include w's code, which a waiver of the code
// does not accept, and that no waiver of the family accepts, or "".
func familyWide(findings []Finding, w *model.Waiver) string {
	if w.Code == "" {
		return ""
	}
	for _, f := range findings {
		if f.Rule == w.Rule && f.Severity == Break && f.Waiver == nil && f.Code == "" && f.Family != "" && slices.Contains(f.Codes, w.Code) {
			return f.Family
		}
	}
	return ""
}

// Judged reports whether a check at tier t judges waiver w: its rule is
// known, can fail, and is in t or below. Only a judged waiver is used or
// unused.
func Judged(w *model.Waiver, t Tier) bool {
	r, ok := LookupRule(w.Rule)
	return ok && r.Severity == Break && r.Tier <= t
}

// accepts reports whether waiver w accepts finding f: a break of its rule
// for its code or family.
func accepts(w *model.Waiver, f Finding) bool {
	return f.Rule == w.Rule && f.Severity == Break && w.Accepts(f.Code, f.Family)
}

// removalRules are the rules that can be about a code or a family that is
// no longer in the catalogue, whose waivers may name a code the catalogue
// does not hold, or a family it does not declare (a family removed with
// what it reserved).
var removalRules = []string{VariantRemovedUnreserved, ReservedRemoved, ClassifyRuleRemoved, SubcodeRemovedUnreserved, HTTPStatusRemoved}

// CheckWaivers checks the catalogue's compat waivers on their own, as lint
// does: each names a known rule (with the nearest one suggested), a rule
// that can fail (a waiver of a note is not needed), no rule and subject an
// earlier waiver names (a warning), and a code the
// catalogue holds or reserves, or a family it declares (but for the rules
// about removed codes and families).
func CheckWaivers(m *model.Catalogue) diag.List {
	var diags diag.List
	codes := map[string]bool{}
	for _, v := range m.Variants {
		codes[v.Code] = true
	}
	families := map[string]bool{}
	for _, f := range m.Families {
		families[f.Name] = true
		for _, c := range f.ReservedCodes {
			codes[c] = true
		}
	}
	type subject struct{ rule, code, family string }
	seen := map[subject]diag.Pos{}
	for _, w := range m.Waivers {
		if !w.RulePos.IsValid() {
			continue // no rule could be read: the loader said so
		}
		if first, ok := seen[subject{w.Rule, w.Code, w.Family}]; ok {
			diags.Warnf(w.Pos, "compat waiver for %s on %s repeats an earlier one (first at %d:%d); remove one", w.Rule, w.Subject(), first.Line, first.Col)
			continue
		}
		seen[subject{w.Rule, w.Code, w.Family}] = w.Pos
		r, ok := LookupRule(w.Rule)
		switch {
		case !ok:
			msg := fmt.Sprintf("compat waiver names unknown rule %s", q(w.Rule))
			if near := nearestRule(w.Rule); near != "" {
				msg += "; did you mean " + near + "?"
			}
			diags.Errorf(w.RulePos, "%s (the rules are listed by errgen compat --help)", msg)
			continue
		case r.Severity == Note:
			diags.Warnf(w.RulePos, "compat waiver for %s on %s is not needed: %s is a note and never fails; remove the waiver", r.ID, w.Subject(), r.ID)
		}
		switch {
		case w.Family == "" && w.Code == "" && !slices.Contains(WholeCatalogueRules, r.ID):
			diags.Errorf(w.Pos, "a compat waiver of %s needs a code (one variant) or a family (all its variants); only a change to the whole catalogue (%s) is waived without either", r.ID, strings.Join(WholeCatalogueRules, ", "))
		case w.Family != "" && !families[w.Family] && !slices.Contains(removalRules, r.ID):
			diags.Errorf(w.SubjectPos, "compat waiver names family %s, which the catalogue does not declare%s", q(w.Family), suggestFrom(w.Family, families))
		case w.Code != "" && !codes[w.Code] && !slices.Contains(removalRules, r.ID):
			if v := subcodeOwner(m, w.Code); v != nil {
				// A finding names the variant a sub-code belongs to.
				diags.Errorf(w.SubjectPos, "compat waiver names code %s, a sub-code of %s; a finding names the variant's code: waive %s", q(w.Code), q(v.Code), q(v.Code))
				continue
			}
			diags.Errorf(w.SubjectPos, "compat waiver names code %s, which no variant of the catalogue has and no family reserves%s", q(w.Code), suggestFrom(w.Code, codes))
		}
	}
	return diags
}

// subcodeOwner is the variant of m that has sub-code code, or nil.
func subcodeOwner(m *model.Catalogue, code string) *model.Variant {
	for _, v := range m.Variants {
		for _, sc := range v.Subcodes {
			if sc.Code == code {
				return v
			}
		}
	}
	return nil
}

// suggestFrom suggests the nearest name of set to s, as "; did you mean
// X?", or "".
func suggestFrom(s string, set map[string]bool) string {
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	slices.Sort(names)
	if best := diag.Closest(s, names, 3); best != "" {
		return "; did you mean " + q(best) + "?"
	}
	return ""
}
