package compat

import (
	"fmt"
	"slices"

	"github.com/errgen/errgen/gen/model"
)

// statusesTaken reports the HTTP statuses a variant stood for in base and
// still lists, that another variant's more specific http_status takes in
// head: LookupHTTPStatus, FromHTTP and Classify now give the other
// variant. One finding per variant that lost statuses, variant that took
// them and cause: at the http_status of the one that took them, or of the
// one that lost them for the statuses it lost by dropping the entry that
// kept them (diff shows those beside the loser's change, the others
// beside the taker's). A status the
// variant no longer lists is reported by variant; a variant that is gone,
// by removed.
func (c *comparer) statusesTaken() {
	type taken struct {
		loser, taker *model.Variant
		base         *model.Variant
		// lookup and classify are the statuses taken in LookupHTTPStatus
		// and FromHTTP, and in Classify.
		lookup, classify []int
		// narrowed says the loser's own http_status covers the statuses
		// less specifically than in base: it dropped the entry that kept
		// them, which is the change to show.
		narrowed bool
	}
	type pair struct {
		loser, taker *model.Variant
		narrowed     bool
	}
	var all []*taken
	byPair := map[pair]*taken{}
	compare := func(classify bool) {
		bo, ho := model.StatusOwners(c.base.cat.Variants, classify), model.StatusOwners(c.head.cat.Variants, classify)
		for s, bv := range bo {
			if bv == nil {
				continue
			}
			hv := c.head.byCode[c.h(bv.Code)]
			if hv == nil || !hv.CoversStatus(s) || classify && !hv.ClassifyByStatus {
				continue
			}
			tv := ho[s]
			if tv == hv {
				continue
			}
			k := pair{hv, tv, narrowest(hv, s) > narrowest(bv, s)}
			t := byPair[k]
			if t == nil {
				t = &taken{loser: hv, taker: tv, base: bv, narrowed: k.narrowed}
				byPair[k] = t
				all = append(all, t)
			}
			if classify {
				t.classify = append(t.classify, s)
			} else {
				t.lookup = append(t.lookup, s)
			}
		}
	}
	compare(false)
	if c.base.cat.Classify != nil && c.head.cat.Classify != nil {
		compare(true)
	}
	const lookup, classify = "LookupHTTPStatus and FromHTTP", "Classify"
	for _, t := range all {
		statuses := slices.Concat(t.lookup, t.classify)
		slices.Sort(statuses)
		statuses = slices.Compact(statuses)
		it := "it"
		if len(statuses) > 1 {
			it = "them"
		}
		var where string
		switch {
		case len(t.classify) == 0:
			where = it + " in " + lookup
		case len(t.lookup) == 0:
			where = it + " in " + classify
		case slices.Equal(t.lookup, t.classify):
			where = it + " in LookupHTTPStatus, FromHTTP and Classify"
		default:
			where = model.StatusRanges(t.lookup) + " in " + lookup + ", and " + model.StatusRanges(t.classify) + " in " + classify
		}
		code := t.loser.Code
		pos, by := t.taker.KeyPos("http_status"), t.taker.Code
		why := fmt.Sprintf("the more specific http_status of %s takes %s", q(t.taker.Code), where)
		if t.narrowed {
			// The loser's own change: shown beside it.
			pos, by = t.loser.KeyPos("http_status"), ""
			why = fmt.Sprintf("its http_status dropped the entry more specific than %s's, which now takes %s", q(t.taker.Code), where)
		}
		c.addFinding(Finding{Rule: HTTPStatusRemoved, Pos: pos, BasePos: t.base.KeyPos("http_status"),
			Code: code, Family: c.familyOf(code), TakenBy: by,
			Message: fmt.Sprintf("%s no longer stands for http_status %s: %s", q(code), model.StatusRanges(statuses), why)})
	}
}

// narrowest is the width of v's narrowest http_status entry that covers
// status s, 0 when none does.
func narrowest(v *model.Variant, s int) int {
	n := 0
	for _, r := range v.HTTP {
		if r.Lo <= s && s <= r.Hi && (n == 0 || r.Span() < n) {
			n = r.Span()
		}
	}
	return n
}
