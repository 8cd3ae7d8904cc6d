package model

import (
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
)

// MaxRetries is the most retries a policy may allow.
const MaxRetries = 100

// maxRetryDelay is the longest base or cap a policy may give.
const maxRetryDelay = 24 * time.Hour

// behaviour resolves what the catalogue declares beside its errors: retry
// policies, conversions between families, and the classification of
// foreign errors. It runs once every variant is resolved.
func (r *resolver) behaviour() {
	cat, m := r.cat, r.m
	if cat.Retry != nil {
		m.Retry = r.retryPolicy(cat.Retry, DefaultRetry)
	}
	for i, af := range cat.Families {
		f := m.Families[i]
		f.Retry = m.Retry
		if af.Retry != nil {
			base := DefaultRetry
			if m.Retry != nil {
				base = *m.Retry
			}
			f.Retry = r.retryPolicy(af.Retry, base)
		}
	}
	for i, af := range cat.Families {
		r.mapping(af, m.Families[i])
	}
	r.classify()
}

// retryPolicy resolves a retry section over the policy it refines.
func (r *resolver) retryPolicy(ar *ast.Retry, p RetryPolicy) *RetryPolicy {
	p.Pos = ar.Pos
	if n := ar.MaxRetries; n.Set {
		if n.Value < 0 || n.Value > MaxRetries {
			r.errorf(n.Pos, "retry max_retries must be from 0 to %d, got %d", MaxRetries, n.Value)
		} else {
			p.MaxRetries = int(n.Value)
		}
	}
	var baseOK, capOK bool
	p.Base, baseOK = r.retryDelay(ar.Base, "base", p.Base)
	p.Cap, capOK = r.retryDelay(ar.Cap, "cap", p.Cap)
	if j := ar.Jitter; j.Set {
		v, err := strconv.ParseFloat(j.Value, 64)
		if err != nil || !decimalFloatRE.MatchString(j.Value) || v < 0 || v >= 1 {
			// A decimal just under 1 rounds to 1 in float64: the value
			// shown is in range, the one read is not.
			rounded := ""
			if err == nil && v == 1 && decimalFloatRE.MatchString(j.Value) {
				if exact, ok := new(big.Rat).SetString(j.Value); ok && exact.Cmp(big.NewRat(1, 1)) < 0 {
					rounded = " (" + j.Value + " would read as 1 in float64)"
				}
			}
			r.errorf(j.Pos, "retry jitter must be a fraction from 0 up to (not including) 1, such as 0.2 for ±20 %%, got %s%s", diag.Quote(j.Value), rounded)
		} else {
			p.Jitter = v
		}
	}
	switch {
	case p.Cap >= p.Base, !baseOK || !capOK:
		// A refused base or cap is reported as such, not compared.
	case ar.Cap.Set:
		r.errorf(ar.Cap.Pos, "retry cap %s is below its base %s: no delay may exceed the cap, so none could be the base", p.Cap, p.Base)
	case !ar.Base.Set:
		// Base and cap both come from the policy this one refines, which
		// has reported them at its own retry.
	default:
		r.errorf(ar.Base.Pos, "retry base %s is above the cap %s this policy takes from the one it refines: give it a cap of its own", p.Base, p.Cap)
	}
	return &p
}

// retryDelay reads a policy's base or cap, def when it is not set or is
// refused; it reports whether it was not refused.
func (r *resolver) retryDelay(s ast.String, key string, def time.Duration) (time.Duration, bool) {
	if !s.Set {
		return def, true
	}
	d, err := time.ParseDuration(s.Value)
	if err != nil || d <= 0 || d > maxRetryDelay || d%time.Millisecond != 0 || !wholeNanos(s.Value) {
		r.errorf(s.Pos, "retry %s must be a Go duration in whole milliseconds from 1ms to 24h, such as \"1s\" or \"250ms\", got %s", key, diag.Quote(s.Value))
		return def, false
	}
	return d, true
}

// mapping resolves a family's maps_to and its variants' targets.
func (r *resolver) mapping(af *ast.Family, f *Family) {
	am := af.MapsTo
	if am == nil {
		if r.misspelt(af.Pos, "maps_to") {
			return // the family's mapping is unknown
		}
		for _, av := range af.Variants {
			if av.MapsTo.Set {
				r.errorf(av.MapsTo.Pos, "maps_to names a variant of the family this one converts into, and family %s has no maps_to", diag.Quote(f.Name))
			}
		}
		return
	}
	if !am.Family.Set {
		return
	}
	to := r.families[am.Family.Value]
	switch {
	case to == nil && (r.refusedFamily(am.Family.Value) || r.unnamedFamilyMeant(am.Family.Value)):
		// Its name was refused, or it may be a family without a name of
		// its own: right once the family's name is.
		return
	case to == nil:
		r.errorf(am.Family.Pos, "maps_to family %s is not a family of the catalogue%s", diag.Quote(am.Family.Value), suggestFrom(am.Family.Value, r.familyList()))
		return
	case to == f:
		r.errorf(am.Family.Pos, "family %s cannot map to itself", diag.Quote(f.Name))
		return
	}
	mp := &Mapping{From: f, To: to, Pos: am.Pos}
	complete := true
	if am.Default.Set {
		mp.Default = r.mapTarget(to, am.Default)
		complete = mp.Default != nil
	}
	for i, av := range af.Variants {
		v := f.Variants[i]
		if !av.Name.Set {
			// An entry the loader could not read as a variant, which it
			// has reported: nothing here has a place to point at.
			complete = false
			continue
		}
		c := &MapCase{From: v}
		pos := av.MapsTo.Pos
		switch {
		case av.MapsTo.Set:
			c.To = r.mapTarget(to, av.MapsTo)
		case mp.Default != nil:
			c.To, c.ByDefault, pos = mp.Default, true, am.Default.Pos
		case !am.Default.Set:
			r.errorf(av.Name.Pos, "variant %s has no maps_to, and family %s maps to %s without a default: give it a maps_to, or give the family's maps_to a default", diag.Quote(v.Name), diag.Quote(f.Name), diag.Quote(to.Name))
		}
		if c.To == nil || !r.mapCase(c, pos) {
			complete = false
			continue
		}
		mp.Cases = append(mp.Cases, c)
	}
	if d := mp.Default; d != nil && !slices.ContainsFunc(af.Variants, func(av *ast.Variant) bool { return !av.MapsTo.Set }) {
		// No variant falls back to the default, so no conversion checked
		// it: what any use would need, it must have now, and it is not
		// needed at all.
		switch {
		case d.Cause == nil && r.typeUnknown[d]:
		case d.Cause == nil || (d.Cause.Type.Kind != Error && d.Cause.Type.Family != f):
			r.errorf(am.Default.Pos, "%s cannot hold the errors of %s it would convert: give it a cause field of type error or %s", diag.Quote(d.Name), diag.Quote(f.Name), f.Name)
			complete = false
		default:
			r.warnf(am.Default.Pos, "the default %s is used by no variant of %s, each of which has its own maps_to; remove it", diag.Quote(d.Name), diag.Quote(f.Name))
		}
	}
	fn := mp.Func()
	if p, dup := r.names[fn]; dup {
		r.errorf(am.Family.Pos, "the conversion %s this mapping generates is already a name of the catalogue (at %s)", fn, at(p))
		complete = false
	} else if o, dup := r.goNames[fn]; dup {
		r.errorf(am.Family.Pos, "the conversion %s this mapping generates is taken by %s", fn, o)
		complete = false
	} else if complete {
		r.goNames[fn] = goName{what: "the conversion of family ", name: f.Name}
	}
	if complete {
		f.MapsTo = mp
	}
}

// familyList returns the names of the usable families, in catalogue order.
func (r *resolver) familyList() []string {
	var out []string
	for _, f := range r.m.Families {
		if r.families[f.Name] == f {
			out = append(out, f.Name)
		}
	}
	return out
}

// mapTarget finds the variant of family to that s names.
func (r *resolver) mapTarget(to *Family, s ast.String) *Variant {
	names := make([]string, len(to.Variants))
	for i, v := range to.Variants {
		if v.Name == s.Value {
			return v
		}
		names[i] = v.Name
	}
	r.errorf(s.Pos, "%s is not a variant of family %s%s", diag.Quote(s.Value), diag.Quote(to.Name), suggestFrom(s.Value, names))
	return nil
}

// mapCase fills in how c.From converts to c.To: the field that holds it,
// and the fields carried over. It reports at pos what makes the
// conversion impossible.
func (r *resolver) mapCase(c *MapCase, pos diag.Pos) bool {
	from, to := c.From, c.To
	c.Cause = to.Cause
	if c.Cause == nil && r.typeUnknown[to] {
		// A field of to whose type is unknown, reported at the type, may
		// be the cause it was meant to have.
		return false
	}
	if c.Cause == nil || (c.Cause.Type.Kind != Error && c.Cause.Type.Family != from.Family) {
		r.errorf(pos, "%s cannot hold the %s it converts: give it a cause field of type error or %s", diag.Quote(to.Name), diag.Quote(from.Name), from.Family.Name)
		return false
	}
	ok := true
	for _, tf := range to.Fields {
		ff := from.Field(tf.Name)
		if tf == c.Cause || ff == nil {
			continue
		}
		if ff.Type.Name == "" || tf.Type.Name == "" {
			// A type that is unknown or was refused, reported at the type.
			ok = false
			continue
		}
		if ff.Type.Name == tf.Type.Name && (tf.Type.Kind == FamilyKind || tf.Type.Kind == Error) {
			// A second cause field of to, refused at its declaration.
			ok = false
			continue
		}
		if ff.Type.Name != tf.Type.Name || ff.Type.Kind == FamilyKind || ff.Type.Kind == Error {
			r.errorf(pos, "field %s is %s in %s and %s in %s: a conversion carries over the fields of the same name, so their types must agree (rename one)", diag.Quote(tf.Name), ff.Type.Name, diag.Quote(from.Name), tf.Type.Name, diag.Quote(to.Name))
			ok = false
			continue
		}
		if ff.Sensitive && !tf.Sensitive {
			r.errorf(mapInto(tf), "field %s of %s is not sensitive, but the conversion from %s carries into it the sensitive field %s (at %s), whose value would then reach its messages, payload and logs: %s", diag.Quote(tf.Name), diag.Quote(to.Name), diag.Quote(from.Name), diag.Quote(ff.Name), at(ff.Src.Name.Pos), sensitiveFix(tf))
			ok = false
			continue
		}
		c.Copies = append(c.Copies, FieldCopy{To: tf, From: ff})
	}
	// A field that decides to's retryability and that no field of the
	// same name fills takes what the converted error says: converted, a
	// retryable error stays retryable.
	if rf := to.RetryableField; rf != nil && !slices.ContainsFunc(c.Copies, func(cp FieldCopy) bool { return cp.To == rf }) {
		c.Retryable = rf
	}
	return ok
}

// sensitiveFix says how a target field is kept from a sensitive value:
// marked sensitive, unless it takes a role no sensitive field may take
// (the checker would refuse the mark), or is a payload field, which would
// have to stop being one.
func sensitiveFix(tf *Field) string {
	role := ""
	switch {
	case tf.Retryable:
		role = "the retryable field"
	case tf.RetryAfter:
		role = "the retry_after field"
	case tf.HTTPStatus:
		role = "the http_status field"
	case tf.Payload:
		return "drop its payload: true and mark it sensitive: true, or rename one of them"
	default:
		return "mark it sensitive: true, or rename one of them"
	}
	return "it is " + role + ", which cannot be sensitive; rename one of them"
}

// mapInto is where a target field is told it cannot take a sensitive
// value: at its sensitive key when it says false, else at its name.
func mapInto(tf *Field) diag.Pos {
	if tf.Src.Sensitive.Set {
		return tf.Src.Sensitive.Pos
	}
	return tf.Src.Name.Pos
}

// classify resolves the classify section and every variant's match.
func (r *resolver) classify() {
	ac := r.cat.Classify
	if ac == nil {
		if r.misspelt(r.cat.Pos, "classify") {
			return // the classify section is unknown
		}
		for _, v := range r.m.Variants {
			if v.Src.Match != nil {
				r.errorf(v.Src.Match.Pos, "match has no effect: the catalogue has no classify section (classify: {fallback: VariantName}) to generate Classify from")
			}
		}
		return
	}
	c := &Classifier{Pos: ac.Pos}
	complete := true
	if ac.Fallback.Set {
		c.Fallback = r.variantNamed(ac.Fallback)
		switch {
		case c.Fallback == nil:
			complete = false
		case c.Fallback.Foreign() == nil && c.Fallback.Cause == nil && r.typeUnknown[c.Fallback]:
			complete = false // its cause's type is unknown, and reported
		case c.Fallback.Foreign() == nil:
			r.errorf(ac.Fallback.Pos, "fallback %s cannot hold the foreign error it classifies: give it a cause field of type error", diag.Quote(c.Fallback.Name))
			complete = false
		}
	}
	for _, v := range r.m.Variants {
		am := v.Src.Match
		// Only a variant that can hold the foreign error is classified by
		// its http_status; the others stand for statuses FromHTTP builds.
		if len(v.HTTP) > 0 && v.Foreign() != nil {
			v.ClassifyByStatus = true
		}
		if am == nil {
			continue
		}
		if v.Foreign() == nil && len(am.Is)+len(am.Contains) > 0 {
			// Unless a field's type is unknown (reported at the type):
			// it may be the cause meant.
			if v.Cause != nil || !r.typeUnknown[v] {
				r.errorf(am.Pos, "variant %s has match rules but cannot hold the foreign error Classify gives it: give it a cause field of type error", diag.Quote(v.Name))
			}
			complete = false
		}
		for _, s := range am.Is {
			cond := conditionNamed(s.Value)
			if cond == nil {
				r.errorf(s.Pos, "match is %s is not a condition errgen knows%s", diag.Quote(s.Value), conditionHint(s.Value))
				continue
			}
			rule := &MatchRule{Kind: MatchIs, Text: s.Value, Condition: cond, Variant: v, Pos: s.Pos}
			if i := slices.IndexFunc(c.Is, func(p *MatchRule) bool { return p.Condition == cond }); i >= 0 {
				r.errorf(s.Pos, "match is %s never decides: %s classifies it first (at %s)", diag.Quote(s.Value), diag.Quote(c.Is[i].Variant.Name), at(c.Is[i].Pos))
				continue
			}
			c.Is = append(c.Is, rule)
			v.Match = append(v.Match, rule)
		}
		for _, s := range am.Contains {
			if strings.TrimSpace(s.Value) == "" {
				r.errorf(s.Pos, "match contains must not be blank: it would match every error")
				continue
			}
			low := strings.ToLower(s.Value)
			if i := slices.IndexFunc(c.Contains, func(p *MatchRule) bool { return strings.Contains(low, strings.ToLower(p.Text)) }); i >= 0 {
				p := c.Contains[i]
				r.errorf(s.Pos, "match contains %s never decides: every text that contains it contains %s, which %s matches first (at %s)", diag.Quote(s.Value), diag.Quote(p.Text), diag.Quote(p.Variant.Name), at(p.Pos))
				continue
			}
			rule := &MatchRule{Kind: MatchContains, Text: s.Value, Variant: v, Pos: s.Pos}
			c.Contains = append(c.Contains, rule)
			v.Match = append(v.Match, rule)
		}
	}
	if complete {
		r.m.Classify = c
	}
}

// variantNamed finds the variant s names, anywhere in the catalogue.
func (r *resolver) variantNamed(s ast.String) *Variant {
	if len(r.m.Variants) == 0 {
		// No variant could be read (families missing, misspelt or empty,
		// each reported): the name cannot be judged.
		return nil
	}
	names := make([]string, len(r.m.Variants))
	for i, v := range r.m.Variants {
		if v.Name == s.Value {
			return v
		}
		names[i] = v.Name
	}
	r.errorf(s.Pos, "%s is not a variant of the catalogue%s", diag.Quote(s.Value), suggestFrom(s.Value, names))
	return nil
}

// conditionNamed returns the condition named name, nil when there is none.
func conditionNamed(name string) *Condition {
	for _, c := range Conditions {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// conditionHint says which condition to write instead of name.
func conditionHint(name string) string {
	if alias, ok := conditionAliases[name]; ok {
		return "; write " + diag.Quote(alias) + ", which matches the same errors"
	}
	all := make([]string, len(Conditions))
	for i, c := range Conditions {
		all[i] = c.Name
	}
	if s := suggestFrom(name, all); s != "" {
		return s
	}
	return "; it knows " + strings.Join(all, ", ")
}
