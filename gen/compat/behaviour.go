package compat

import (
	"fmt"

	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/model"
)

// The comparisons of the behaviour a catalogue declares beside its errors:
// conversions between families, the classification of foreign errors, and
// retry policies.

// familyBehaviour reports, once per family, a conversion that is gone and
// a retry policy that is gone or changed, for the codes the family keeps.
func (c *comparer) familyBehaviour(bf, hf *model.Family, codes []string) {
	list := quoteAll(codes)
	if bm := bf.MapsTo; bm != nil {
		hm := hf.MapsTo
		if hm == nil || c.family[bm.To] != hm.To {
			c.addFinding(Finding{Rule: MappingRemoved, Pos: hf.KeyPos("maps_to"), BasePos: bf.KeyPos("maps_to"), Family: hf.Name, Codes: codes,
				Message: fmt.Sprintf("family %s no longer converts into %s: %s is gone, for %s", q(hf.Name), q(bm.To.Name), bm.Func(), list)})
		}
	}
	bp, hp := bf.Retry, hf.Retry
	var msg string
	ch := retryChange(bp, hp)
	switch ch {
	case policyGone:
		msg = fmt.Sprintf("family %s no longer has a retry policy: RetryDelay stops retrying %s", q(hf.Name), list)
	case policyStops:
		msg = fmt.Sprintf("the retry policy of family %s now allows no retries: RetryDelay stops retrying %s; in base it was %s", q(hf.Name), list, bp)
	case policyChanged:
		msg = fmt.Sprintf("the retry policy of family %s is now %s; in base it was %s, for %s", q(hf.Name), hp, bp, list)
	default:
		return
	}
	c.addFinding(Finding{Rule: ch.rule(), Pos: retryPos(c.head.cat, hf), BasePos: retryPos(c.base.cat, bf), Family: hf.Name, Codes: codes, Message: msg})
}

// variantRetryPolicy reports the retry policy of a variant that moved to
// another family, whose policy it takes now: at the variant's entry in
// that family, beside its FAMILY_CHANGED, since neither family's policy
// changed (the line a policy was declared on may not be in the change);
// in base, where the policy it had was declared.
func (c *comparer) variantRetryPolicy(bv, hv *model.Variant) {
	bp, hp := bv.Family.Retry, hv.Family.Retry
	pos, basePos, code := hv.Pos, retryPos(c.base.cat, bv.Family), hv.Code
	switch ch := retryChange(bp, hp); ch {
	case policyGone:
		c.add(ch.rule(), pos, basePos, code, "%s no longer has a retry policy: RetryDelay stops retrying it", q(code))
	case policyStops:
		c.add(ch.rule(), pos, basePos, code, "the retry policy of %s now allows no retries: RetryDelay stops retrying it; in base it was %s", q(code), bp)
	case policyChanged:
		c.add(ch.rule(), pos, basePos, code, "the retry policy of %s is now %s; in base it was %s", q(code), hp, bp)
	}
}

// policyChange is how the retry policy errors take changed.
type policyChange int

const (
	policySame policyChange = iota
	// policyGone: there is none now.
	policyGone
	// policyStops: one that retried allows no retries (max_retries: 0),
	// for RetryDelay the same as none.
	policyStops
	// policyChanged: it retries more or less often, sooner or later.
	policyChanged
)

// retryChange is how policy bp of base became hp in head.
func retryChange(bp, hp *model.RetryPolicy) policyChange {
	switch {
	case bp == nil:
		return policySame
	case hp == nil:
		return policyGone
	case bp.MaxRetries > 0 && hp.MaxRetries == 0:
		return policyStops
	case !bp.Same(hp):
		return policyChanged
	}
	return policySame
}

// rule is the rule that reports the change.
func (pc policyChange) rule() string {
	if pc == policyChanged {
		return RetryPolicyChanged
	}
	return RetryPolicyRemoved
}

// retryPos is where f's retry policy is declared: on the family, else on
// the catalogue; with neither (the policy is gone), the family.
func retryPos(cat *model.Catalogue, f *model.Family) diag.Pos {
	if f.Src != nil {
		if p, ok := f.Src.Keys.Pos("retry"); ok {
			return p
		}
	}
	if cat.Src != nil {
		if p, ok := cat.Src.Keys.Pos("retry"); ok {
			return p
		}
	}
	return f.Pos
}

// catalogueRetry reports the catalogue's own retry policy gone or
// changed. Besides the default of its families (reported with each
// family), it is the policy of an error whose code the catalogue does not
// know: a newer sender's, decoded.
func (c *comparer) catalogueRetry() {
	base, head := c.base.cat, c.head.cat
	bp, hp := base.Retry, head.Retry
	var msg string
	ch := retryChange(bp, hp)
	switch ch {
	case policyGone:
		msg = "the catalogue no longer has a retry policy: RetryDelay stops retrying an error whose code it does not know (a newer sender's)"
	case policyStops:
		msg = fmt.Sprintf("the catalogue's retry policy now allows no retries: RetryDelay stops retrying an error whose code it does not know (a newer sender's); in base it was %s", bp)
	case policyChanged:
		msg = fmt.Sprintf("the catalogue's retry policy, for an error whose code it does not know, is now %s; in base it was %s", hp, bp)
	default:
		return
	}
	c.addFinding(Finding{Rule: ch.rule(), Pos: c.catPos("retry"), BasePos: base.KeyPos("retry"), Message: msg})
}

// behaviour reports a variant that converts into another variant than in
// base, and match rules that no longer classify foreign errors as it.
func (c *comparer) behaviour(bv, hv *model.Variant) {
	code := hv.Code
	if bc, hc := bv.MapCase(), hv.MapCase(); bc != nil && hc != nil && c.family[bc.To.Family] == hc.To.Family && c.h(bc.To.Code) != hc.To.Code {
		pos, basePos := hv.KeyPos("maps_to"), bv.KeyPos("maps_to")
		if hc.ByDefault {
			pos = hv.Family.KeyPos("maps_to")
		}
		if bc.ByDefault {
			basePos = bv.Family.KeyPos("maps_to")
		}
		c.add(MappingChanged, pos, basePos, code, "%s now converts into %s; in base it converted into %s", q(code), q(hc.To.Code), q(bc.To.Code))
	}
	if c.head.cat.Classify == nil {
		return
	}
	for _, br := range bv.Match {
		if !hasRule(hv, br) {
			c.add(ClassifyRuleRemoved, hv.KeyPos("match"), br.Pos, code, "foreign errors that match %s no longer classify as %s", br, q(code))
		}
	}
	if bv.ClassifyByStatus && !hv.ClassifyByStatus && c.base.cat.Classify != nil {
		c.statusesUnheld(bv, hv)
	}
}

// statusesUnheld reports a variant that Classify gave for its http_status
// in base and no longer can, its cause of type error retyped or removed:
// the foreign errors with the statuses it stood for, and still lists (a
// status it dropped is variant's), now classify by the other rules, or as
// the fallback.
func (c *comparer) statusesUnheld(bv, hv *model.Variant) {
	bo := model.StatusOwners(c.base.cat.Variants, true)
	var statuses []int
	for s, v := range bo {
		if v == bv && hv.CoversStatus(s) {
			statuses = append(statuses, s)
		}
	}
	if len(statuses) == 0 {
		return
	}
	bf := bv.Foreign()
	pos, basePos, why := hv.KeyPos("fields"), bf.Pos, fmt.Sprintf("its cause field %s was removed", q(bf.Name))
	if hf := hv.Cause; hf != nil {
		pos, basePos, why = hf.KeyPos("type"), bf.KeyPos("type"), fmt.Sprintf("its cause field %s now has type %s", q(hf.Name), q(hf.Type.Name))
	}
	code := hv.Code
	c.addField(ClassifyRuleRemoved, pos, basePos, code, bf.Name,
		"foreign errors with http_status %s no longer classify as %s, which cannot hold them now (%s); they classify by the other rules, or as %s",
		model.StatusRanges(statuses), q(code), why, q(c.head.cat.Classify.Fallback.Code))
}

// hasRule reports whether v has a rule like r.
func hasRule(v *model.Variant, r *model.MatchRule) bool {
	for _, o := range v.Match {
		if o.Key() == r.Key() {
			return true
		}
	}
	return false
}

// classify reports a classify section that is gone and a fallback that
// changed.
func (c *comparer) classify() {
	bc, hc := c.base.cat.Classify, c.head.cat.Classify
	switch {
	case bc == nil:
	case hc == nil:
		c.addFinding(Finding{Rule: ClassifyRemoved, Pos: c.catPos("classify"), BasePos: c.base.cat.KeyPos("classify"),
			Message: "the catalogue no longer has a classify section: Classify is gone"})
	case c.h(bc.Fallback.Code) != hc.Fallback.Code:
		c.add(ClassifyRuleRemoved, hc.Pos, bc.Pos, hc.Fallback.Code, "foreign errors no rule matches now classify as %s; in base they classified as %s", q(hc.Fallback.Code), q(bc.Fallback.Code))
	}
	if bc != nil && hc != nil {
		c.ruleOrder(bc.Is, hc.Is, nil)
		c.ruleOrder(bc.Contains, hc.Contains, c.kindOrder(bc, hc))
	}
}

// kindOrder reports what Classify now tries, for some foreign errors,
// before a rule of another kind that decided them in base: Classify tries
// every is rule, then the http_status of the variants that classify by
// status, then every contains rule, so a foreign error that matches two,
// a deadline wrapped in a message with a matched text, say, goes to the
// earlier. A new is rule takes from the kept statuses and contains rules
// of the other variants; a status no
// variant classified in base takes from their kept contains rules. As in
// ruleOrder, each finding names the first taker of another variant; it
// returns the contains rules it reported, which ruleOrder then leaves out,
// as that taker is tried before any it would name.
func (c *comparer) kindOrder(bc, hc *model.Classifier) map[*model.MatchRule]bool {
	type taker struct {
		code, what, how string
	}
	// takers are in the order Classify tries them; first returns the
	// position of the first of another variant than code, -1 for none.
	var takers []taker
	first := func(code string) int {
		for i := range takers {
			if takers[i].code != code {
				return i
			}
		}
		return -1
	}
	baseCode := make(map[string]bool, len(bc.Is))
	for _, r := range bc.Is {
		baseCode[r.Key()] = true
	}
	// An is rule moved to another variant takes nothing across the kinds:
	// in base too it was tried before every status and contains rule, so
	// what it matched went to its old variant (ruleOrder and behaviour
	// report that), never to the one a status or contains rule names.
	for _, r := range hc.Is {
		if !baseCode[r.Key()] {
			takers = append(takers, taker{r.Variant.Code, r.String(), "a new is rule"})
		}
	}
	// The statuses Classify looks at in head: kept, the same variant's in
	// base, which a new is rule takes from (reported once per variant),
	// or new, no variant's in base. One that changed owner is
	// statusesTaken's.
	bo, ho := model.StatusOwners(c.base.cat.Variants, true), model.StatusOwners(c.head.cat.Variants, true)
	kept := map[*model.Variant][]int{}
	var keptOrder []*model.Variant
	newStatuses := map[*model.Variant][]int{}
	var newOrder []*model.Variant
	for s, hv := range ho {
		switch bv := bo[s]; {
		case hv == nil:
		case bv == nil:
			if newStatuses[hv] == nil {
				newOrder = append(newOrder, hv)
			}
			newStatuses[hv] = append(newStatuses[hv], s)
		case c.h(bv.Code) == hv.Code:
			if kept[hv] == nil {
				keptOrder = append(keptOrder, hv)
			}
			kept[hv] = append(kept[hv], s)
		}
	}
	for _, hv := range keptOrder {
		i, bv := first(hv.Code), c.base.byCode[hv.Code]
		if i < 0 || bv == nil {
			continue
		}
		t := takers[i]
		c.addFinding(Finding{Rule: ClassifyRuleRemoved, Pos: hv.KeyPos("http_status"), BasePos: bv.KeyPos("http_status"), Code: hv.Code,
			Family: c.familyOf(hv.Code), TakenBy: t.code, TakenWith: "match",
			Message: fmt.Sprintf("foreign errors that report http_status %s no longer classify as %s when they also match %s of %s, %s, tried before every status",
				model.StatusRanges(kept[hv]), q(hv.Code), t.what, q(t.code), t.how)})
	}
	isTakers := len(takers)
	for _, hv := range newOrder {
		takers = append(takers, taker{hv.Code, "http_status " + model.StatusRanges(newStatuses[hv]), "a status no variant classified by in base"})
	}
	if len(takers) == 0 {
		return nil
	}
	reported := map[*model.MatchRule]bool{}
	baseAt := make(map[string]*model.MatchRule, len(bc.Contains))
	for _, r := range bc.Contains {
		baseAt[r.Key()] = r
	}
	for _, hr := range hc.Contains {
		br := baseAt[hr.Key()]
		code := hr.Variant.Code
		if br == nil || c.h(br.Variant.Code) != code {
			continue
		}
		i := first(code)
		if i < 0 {
			continue
		}
		t, verb, with := takers[i], "match", "match"
		if i >= isTakers {
			verb, with = "report", "http_status"
		}
		c.addFinding(Finding{Rule: ClassifyRuleRemoved, Pos: hr.Pos, BasePos: br.Pos, Code: code, Family: c.familyOf(code), TakenBy: t.code, TakenWith: with,
			Message: fmt.Sprintf("foreign errors that match %s no longer classify as %s when they also %s %s of %s, %s, tried before every contains rule", br, q(code), verb, t.what, q(t.code), t.how)})
		reported[hr] = true
	}
	return reported
}

// ruleOrder reports a kept rule (one of the same variant on both sides)
// that a rule of another variant now comes before, having come after it
// in base or being new: Classify tries the rules of a kind in catalogue
// order and the first that matches decides, so a foreign error that
// matches both now classifies as the other variant (the variants moved,
// the rules did, or a rule was added ahead of it). A rule moved to another
// variant counts where it stood in base, a new one as after every rule of
// base. Rules that are gone or moved to another variant are themselves
// left to behaviour and removed. Each finding names the rule of another
// variant tried first, so the work and the output grow with the number of
// rules, not its square. Rules in done were reported already.
func (c *comparer) ruleOrder(base, head []*model.MatchRule, done map[*model.MatchRule]bool) {
	at := map[string]int{}
	for i, r := range head {
		at[r.Key()] = i
	}
	baseAt := make(map[string]int, len(base))
	for i, r := range base {
		baseAt[r.Key()] = i
	}
	// first is the rule tried first in head among those that come after
	// the one at hand in base (or are new), and other the one tried first
	// among those of another code than first's: between them, the rule of
	// another code than any given one tried first.
	first, other := -1, -1
	seen := func(j int) {
		code := head[j].Variant.Code
		switch {
		case first < 0 || j < first:
			if first >= 0 && head[first].Variant.Code != code {
				other = first
			}
			first = j
		case code != head[first].Variant.Code && (other < 0 || j < other):
			other = j
		}
	}
	// The new rules come after every rule of base.
	for j, r := range head {
		if _, ok := baseAt[r.Key()]; !ok {
			seen(j)
		}
	}
	// Walking base from its end, each kept rule is checked against the
	// rules after it in base that head still has and the new ones, then
	// counts as one of them. A rule moved to another variant is not
	// checked, but counts: a kept rule it came after loses the foreign
	// errors that match both, now classified as the variant it moved to.
	for i := len(base) - 1; i >= 0; i-- {
		j, ok := at[base[i].Key()]
		if !ok {
			continue
		}
		code := head[j].Variant.Code
		if c.h(base[i].Variant.Code) != code {
			seen(j)
			continue
		}
		ahead := first
		if ahead >= 0 && head[ahead].Variant.Code == code {
			ahead = other
		}
		if ahead >= 0 && ahead < j && !done[head[j]] {
			r := head[ahead]
			how, by := "now tried before it", ""
			// A new rule, or one moved to its variant, is a change of
			// that variant's match rules.
			switch k, ok := baseAt[r.Key()]; {
			case !ok:
				how, by = "a new rule tried before it", r.Variant.Code
			case c.h(base[k].Variant.Code) != r.Variant.Code:
				by = r.Variant.Code
			}
			c.addFinding(Finding{Rule: ClassifyRuleRemoved, Pos: head[j].Pos, BasePos: base[i].Pos, Code: code, Family: c.familyOf(code), TakenBy: by, TakenWith: "match",
				Message: fmt.Sprintf("foreign errors that match %s no longer classify as %s when they also match %s of %s, %s", base[i], q(code), r, q(r.Variant.Code), how)})
		}
		seen(j)
	}
}
