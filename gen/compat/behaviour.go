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
	switch {
	case bp == nil:
	case hp == nil:
		c.addFinding(Finding{Rule: RetryPolicyRemoved, Pos: retryPos(c.head.cat, hf), BasePos: retryPos(c.base.cat, bf), Family: hf.Name, Codes: codes,
			Message: fmt.Sprintf("family %s no longer has a retry policy: RetryDelay stops retrying %s", q(hf.Name), list)})
	case stopsRetrying(bp, hp):
		c.addFinding(Finding{Rule: RetryPolicyRemoved, Pos: retryPos(c.head.cat, hf), BasePos: retryPos(c.base.cat, bf), Family: hf.Name, Codes: codes,
			Message: fmt.Sprintf("the retry policy of family %s now allows no retries: RetryDelay stops retrying %s; in base it was %s", q(hf.Name), list, bp)})
	case !bp.Same(hp):
		c.addFinding(Finding{Rule: RetryPolicyChanged, Pos: retryPos(c.head.cat, hf), BasePos: retryPos(c.base.cat, bf), Family: hf.Name, Codes: codes,
			Message: fmt.Sprintf("the retry policy of family %s is now %s; in base it was %s, for %s", q(hf.Name), hp, bp, list)})
	}
}

// stopsRetrying reports whether a policy that retried in base allows no
// retries in head (max_retries: 0): for RetryDelay, the same as no policy.
func stopsRetrying(bp, hp *model.RetryPolicy) bool {
	return bp.MaxRetries > 0 && hp.MaxRetries == 0
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
	switch bp, hp := base.Retry, head.Retry; {
	case bp == nil:
	case hp == nil:
		c.addFinding(Finding{Rule: RetryPolicyRemoved, Pos: head.KeyPos("retry"), BasePos: base.KeyPos("retry"),
			Message: "the catalogue no longer has a retry policy: RetryDelay stops retrying an error whose code it does not know (a newer sender's)"})
	case stopsRetrying(bp, hp):
		c.addFinding(Finding{Rule: RetryPolicyRemoved, Pos: head.KeyPos("retry"), BasePos: base.KeyPos("retry"),
			Message: fmt.Sprintf("the catalogue's retry policy now allows no retries: RetryDelay stops retrying an error whose code it does not know (a newer sender's); in base it was %s", bp)})
	case !bp.Same(hp):
		c.addFinding(Finding{Rule: RetryPolicyChanged, Pos: head.KeyPos("retry"), BasePos: base.KeyPos("retry"),
			Message: fmt.Sprintf("the catalogue's retry policy, for an error whose code it does not know, is now %s; in base it was %s", hp, bp)})
	}
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
		c.addFinding(Finding{Rule: ClassifyRemoved, Pos: c.head.cat.KeyPos("classify"), BasePos: c.base.cat.KeyPos("classify"),
			Message: "the catalogue no longer has a classify section: Classify is gone"})
	case c.h(bc.Fallback.Code) != hc.Fallback.Code:
		c.add(ClassifyRuleRemoved, hc.Pos, bc.Pos, hc.Fallback.Code, "foreign errors no rule matches now classify as %s; in base they classified as %s", q(hc.Fallback.Code), q(bc.Fallback.Code))
	}
	if bc != nil && hc != nil {
		c.ruleOrder(bc.Is, hc.Is, nil)
		c.ruleOrder(bc.Contains, hc.Contains, c.kindOrder(bc.Is, hc.Is, bc.Contains, hc.Contains))
	}
}

// kindOrder reports a kept contains rule that an is rule of another
// variant, new or moved to that variant, now comes before: Classify tries
// every is rule before any contains rule, so a foreign error that matches
// both, a condition wrapped in a text, now classifies as the other
// variant. As in ruleOrder, each finding names the first such rule; it
// returns the contains rules it reported, which ruleOrder then leaves out,
// as that rule is tried before any it would name.
func (c *comparer) kindOrder(baseIs, headIs, baseContains, headContains []*model.MatchRule) map[*model.MatchRule]bool {
	baseCode := make(map[string]string, len(baseIs))
	for _, r := range baseIs {
		baseCode[r.Key()] = c.h(r.Variant.Code)
	}
	// first is the first is rule that takes errors in head, other the
	// first of another variant than first's.
	var first, other *model.MatchRule
	for _, r := range headIs {
		if code, ok := baseCode[r.Key()]; ok && code == r.Variant.Code {
			continue
		}
		switch {
		case first == nil:
			first = r
		case other == nil && r.Variant.Code != first.Variant.Code:
			other = r
		}
	}
	if first == nil {
		return nil
	}
	reported := map[*model.MatchRule]bool{}
	baseAt := make(map[string]*model.MatchRule, len(baseContains))
	for _, r := range baseContains {
		baseAt[r.Key()] = r
	}
	for _, hr := range headContains {
		br := baseAt[hr.Key()]
		code := hr.Variant.Code
		if br == nil || c.h(br.Variant.Code) != code {
			continue
		}
		r := first
		if r.Variant.Code == code {
			r = other
		}
		if r == nil {
			continue
		}
		how := "a new is rule, tried before every contains rule"
		if _, ok := baseCode[r.Key()]; ok {
			how = "an is rule moved to it, tried before every contains rule"
		}
		c.addFinding(Finding{Rule: ClassifyRuleRemoved, Pos: hr.Pos, BasePos: br.Pos, Code: code, Family: c.familyOf(code), TakenBy: r.Variant.Code,
			Message: fmt.Sprintf("foreign errors that match %s no longer classify as %s when they also match %s of %s, %s", br, q(code), r, q(r.Variant.Code), how)})
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
			c.addFinding(Finding{Rule: ClassifyRuleRemoved, Pos: head[j].Pos, BasePos: base[i].Pos, Code: code, Family: c.familyOf(code), TakenBy: by,
				Message: fmt.Sprintf("foreign errors that match %s no longer classify as %s when they also match %s of %s, %s", base[i], q(code), r, q(r.Variant.Code), how)})
		}
		seen(j)
	}
}
