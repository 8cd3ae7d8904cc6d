package model

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/errgen/errgen/gen/diag"
)

// The behaviour a catalogue can declare beside its errors: how errors of a
// family convert into another family (maps_to), how errors from outside the
// catalogue are classified into it (classify and match), and how its
// retryable errors are retried (retry).

// RetryPolicy is how a family's retryable errors are retried: at most
// MaxRetries times, the n-th retry after Base doubled n-1 times, at most
// Cap, spread by ±Jitter (a fraction); a retry-after the error carries
// comes first.
type RetryPolicy struct {
	MaxRetries int
	Base, Cap  time.Duration
	Jitter     float64
	// Pos is where the policy, or the part of it a family declares, stands.
	Pos diag.Pos
}

// DefaultRetry is what a retry key left out means: three retries after
// 1s, 2s and 4s, each spread by ±20 %, no delay above 10s: the values
// agent frameworks commonly use.
var DefaultRetry = RetryPolicy{MaxRetries: 3, Base: time.Second, Cap: 10 * time.Second, Jitter: 0.2}

// Delay is the delay before retry n (1 for the first) before jitter:
// Base doubled n-1 times, at most Cap. The runtime's RetryPolicy.Backoff
// computes the same; the docs show it.
func (p RetryPolicy) Delay(n int) time.Duration {
	d := p.Base
	for i := 1; i < n && d < p.Cap; i++ {
		d *= 2
	}
	return min(d, p.Cap)
}

// Schedule lists the delays before each retry, without jitter.
func (p RetryPolicy) Schedule() []time.Duration {
	out := make([]time.Duration, p.MaxRetries)
	for i := range out {
		out[i] = p.Delay(i + 1)
	}
	return out
}

// String says the policy in one line, for docs, explain and review:
// "3 retries after 1s, 2s, 4s (at most 10s, jitter 0.2)".
func (p *RetryPolicy) String() string {
	if p.MaxRetries == 0 {
		return "no retries"
	}
	steps := p.Schedule()
	if len(steps) > 5 {
		steps = steps[:5]
	}
	s := make([]string, len(steps))
	for i, d := range steps {
		s[i] = d.String()
	}
	list := strings.Join(s, ", ")
	if p.MaxRetries > len(steps) {
		list += ", …"
	}
	n := "retries"
	if p.MaxRetries == 1 {
		n = "retry"
	}
	return strconv.Itoa(p.MaxRetries) + " " + n + " after " + list + " (at most " + p.Cap.String() + ", jitter " + strconv.FormatFloat(p.Jitter, 'g', -1, 64) + ")"
}

// RetryPolicyText says how v is retried, as explain shows it: its
// family's policy, or for a variant that is never retryable, that
// RetryDelay never retries it, with the policy RetryPolicyOf still
// reports. "" for a family without a policy.
func (v *Variant) RetryPolicyText() string {
	p := v.Family.Retry
	switch {
	case p == nil:
		return ""
	case v.NeverRetryable():
		return "never retried: not retryable; the family's policy is " + p.String()
	}
	return p.String()
}

// Same reports whether p and q retry alike.
func (p *RetryPolicy) Same(q *RetryPolicy) bool {
	if p == nil || q == nil {
		return p == q
	}
	return p.MaxRetries == q.MaxRetries && p.Base == q.Base && p.Cap == q.Cap && p.Jitter == q.Jitter
}

// RetryPolicies returns the distinct retry policies of the catalogue's
// families, in the order families first use them, then UnknownRetry when
// no family uses it: the generated table.
func (c *Catalogue) RetryPolicies() []*RetryPolicy {
	var out []*RetryPolicy
	for _, f := range c.Families {
		if f.Retry != nil && RetryIndex(out, f.Retry) < 0 {
			out = append(out, f.Retry)
		}
	}
	if u := c.UnknownRetry(); u != nil && RetryIndex(out, u) < 0 {
		out = append(out, u)
	}
	return out
}

// UnknownRetry is the retry policy of an error whose code the catalogue
// does not know, such as one decoded from a newer sender's payload: the
// catalogue's own policy, which a policy declared for every family
// covers too; nil when the catalogue declares none, and such an error is
// then not retried, as no error without a policy is. (A family's own
// policy is for its own codes; an unknown code belongs to no family.)
func (c *Catalogue) UnknownRetry() *RetryPolicy {
	return c.Retry
}

// RetryIndex is the position of p in policies, -1 when it is not there.
func RetryIndex(policies []*RetryPolicy, p *RetryPolicy) int {
	for i, q := range policies {
		if q == p {
			return i
		}
	}
	return -1
}

// Condition is a well-known Go error condition a match rule may name.
type Condition struct {
	// Name is how the catalogue writes it, a Go expression.
	Name string
	// Import and Expr are the sentinel error errors.Is looks for: its
	// package's path and the expression; both "" for Timeout.
	Import, Expr string
	// Timeout means any error in the chain whose Timeout() method reports
	// true, as net.Error's does.
	Timeout bool
	// Doc says what it matches.
	Doc string
}

// Conditions are the conditions a match rule's is may name.
var Conditions = []*Condition{
	{Name: "context.DeadlineExceeded", Import: "context", Expr: "context.DeadlineExceeded", Doc: "a context's deadline passed"},
	{Name: "context.Canceled", Import: "context", Expr: "context.Canceled", Doc: "a context was canceled"},
	{Name: "net.Error.Timeout", Timeout: true, Doc: "an error whose Timeout() reports true (a net.Error timeout, os.ErrDeadlineExceeded, context.DeadlineExceeded)"},
	{Name: "fs.ErrNotExist", Import: "io/fs", Expr: "fs.ErrNotExist", Doc: "a file does not exist (os.ErrNotExist is the same error)"},
	{Name: "fs.ErrExist", Import: "io/fs", Expr: "fs.ErrExist", Doc: "a file already exists (os.ErrExist is the same error)"},
	{Name: "fs.ErrPermission", Import: "io/fs", Expr: "fs.ErrPermission", Doc: "permission denied (os.ErrPermission is the same error)"},
}

// conditionAliases are spellings of a condition the catalogue must write
// another way: the same error under another package's name.
var conditionAliases = map[string]string{
	"os.ErrNotExist": "fs.ErrNotExist", "os.ErrExist": "fs.ErrExist", "os.ErrPermission": "fs.ErrPermission",
	"os.ErrDeadlineExceeded": "net.Error.Timeout",
}

// MatchKind is what a match rule looks at.
type MatchKind int

// The kinds of match rules, in the order Classify tries them; statuses
// (http_status) come between the two.
const (
	// MatchIs: a condition errors.Is (or a Timeout method) finds in the
	// chain.
	MatchIs MatchKind = iota
	// MatchContains: a substring of the error's text, in any letter case.
	MatchContains
)

// MatchRule is one rule that classifies a foreign error as a variant.
type MatchRule struct {
	Kind MatchKind
	// Text is the rule as written: a condition's name or the substring.
	Text string
	// Condition is the condition of a MatchIs rule.
	Condition *Condition
	Variant   *Variant
	Pos       diag.Pos
}

// String says the rule as the catalogue means it: is context.Canceled,
// contains "timeout".
func (r *MatchRule) String() string {
	if r.Kind == MatchIs {
		return "is " + r.Text
	}
	return "contains " + diag.Quote(r.Text)
}

// Key is what the rule matches: two rules with the same key classify the
// same foreign errors. A contains rule matches in any letter case, so its
// key is its text in lower case, the text Classify looks for.
func (r *MatchRule) Key() string {
	if r.Kind == MatchIs {
		return "is " + r.Text
	}
	return "contains " + strings.ToLower(r.Text)
}

// ClassifyText lists what makes Classify return v, in the order it tries
// them: "http_status 429; contains \"rate limit\""; "" when nothing does.
// The statuses are those v stands for in Classify: an entry's statuses
// that another variant's more specific entry takes are named with it
// ("http_status 5xx except 503 (\"overloaded\")"). The fallback ends the
// list with what no rule matches.
func (c *Catalogue) ClassifyText(v *Variant) string {
	var s []string
	for _, r := range v.Match {
		if r.Kind == MatchIs {
			s = append(s, r.String())
		}
	}
	if v.ClassifyByStatus {
		if t := statusesText(v, StatusOwners(c.Variants, true)); t != "" {
			s = append(s, "http_status "+t)
		}
	}
	for _, r := range v.Match {
		if r.Kind == MatchContains {
			s = append(s, r.String())
		}
	}
	if c.Classify != nil && c.Classify.Fallback == v {
		s = append(s, "any foreign error no rule matches (the fallback)")
	}
	return strings.Join(s, "; ")
}

// HTTPStatusText is v's http_status as written, with the statuses that a
// more specific entry of another variant takes in LookupHTTPStatus and
// FromHTTP listed after "except" (see statusesText).
func (c *Catalogue) HTTPStatusText(v *Variant) string {
	if len(v.HTTP) == 0 {
		return ""
	}
	if t := statusesText(v, StatusOwners(c.Variants, false)); t != "" {
		return t
	}
	return v.HTTPText() + " (each status taken by a more specific entry of another variant)"
}

// statusesText is v's http_status as written, but for the statuses that
// owners gives another variant, listed after "except" with the variant
// that takes them; "" when v stands for none of its statuses.
func statusesText(v *Variant, owners *[600]*Variant) string {
	var own bool
	var takers []*Variant
	taken := map[*Variant][]int{}
	for _, r := range v.HTTP {
		for st := r.Lo; st <= r.Hi; st++ {
			switch o := owners[st]; {
			case o == v:
				own = true
			case taken[o] == nil:
				takers = append(takers, o)
				fallthrough
			default:
				taken[o] = append(taken[o], st)
			}
		}
	}
	if !own {
		return ""
	}
	if len(takers) == 0 {
		return v.HTTPText()
	}
	except := make([]string, len(takers))
	for i, o := range takers {
		slices.Sort(taken[o])
		except[i] = StatusRanges(taken[o]) + " (" + strconv.Quote(o.Code) + ")"
	}
	return v.HTTPText() + " except " + strings.Join(except, ", ")
}

// StatusOwners maps each HTTP status to the variant of vs that stands for
// it: the one whose most specific http_status entry covers it (entries of
// one width never overlap), nil for a status none covers. With classify
// set, only the variants Classify gives for their statuses count.
// LookupHTTPStatus and FromHTTP answer the same by trying the entries
// most specific first.
func StatusOwners(vs []*Variant, classify bool) *[600]*Variant {
	var owner [600]*Variant
	var span [600]int
	for _, v := range vs {
		if classify && !v.ClassifyByStatus {
			continue
		}
		for _, r := range v.HTTP {
			for st := r.Lo; st <= r.Hi; st++ {
				if owner[st] == nil || r.Span() < span[st] {
					owner[st], span[st] = v, r.Span()
				}
			}
		}
	}
	return &owner
}

// StatusRanges lists ascending statuses compactly, a run of them as a
// range: "500, 502-504".
func StatusRanges(statuses []int) string {
	var out []string
	for i := 0; i < len(statuses); {
		j := i
		for j+1 < len(statuses) && statuses[j+1] == statuses[j]+1 {
			j++
		}
		s := strconv.Itoa(statuses[i])
		if j > i {
			s += "-" + strconv.Itoa(statuses[j])
		}
		out = append(out, s)
		i = j + 1
	}
	return strings.Join(out, ", ")
}

// Classifier is what the generated Classify does with an error from
// outside the catalogue: the Is rules, then the variants' http_status
// against a status the error reports, then the Contains rules, each in
// catalogue order; the first that matches decides, and Fallback takes the
// rest. The variant holds the foreign error in its Foreign field; the
// variants whose http_status counts have ClassifyByStatus set.
type Classifier struct {
	Fallback *Variant
	Is       []*MatchRule
	Contains []*MatchRule
	Pos      diag.Pos
}

// Mapping converts every error of one family into an error of another:
// the generated function <To>From<From>.
type Mapping struct {
	From, To *Family
	// Default is the target of the variants that name none, nil when every
	// variant names one.
	Default *Variant
	// Cases has one entry per variant of From, in order.
	Cases []*MapCase
	Pos   diag.Pos
}

// Func is the generated conversion function: AgentErrorFromModelError.
func (m *Mapping) Func() string { return m.To.Name + "From" + m.From.Name }

// SetsRetryable reports whether some variant's conversion sets its
// target's retryable field from the converted error.
func (m *Mapping) SetsRetryable() bool {
	return slices.ContainsFunc(m.Cases, func(c *MapCase) bool { return c.Retryable != nil })
}

// MapCase is what one variant converts to.
type MapCase struct {
	From, To *Variant
	// ByDefault reports that the mapping's default decided To.
	ByDefault bool
	// Cause is To's field that holds the From error.
	Cause *Field
	// Copies are To's fields filled from From's field of the same name
	// and type, in To's order.
	Copies []FieldCopy
	// Retryable is To's field that decides its retryability (a field
	// marked retryable) when no field of From's fills it: it is set to
	// what the From error's Retryable reports. Nil otherwise.
	Retryable *Field
}

// FieldCopy is one field a conversion carries over.
type FieldCopy struct{ To, From *Field }

// MapCase returns what v converts to under its family's mapping, nil when
// the family maps nowhere.
func (v *Variant) MapCase() *MapCase {
	if v.Family.MapsTo == nil {
		return nil
	}
	for _, c := range v.Family.MapsTo.Cases {
		if c.From == v {
			return c
		}
	}
	return nil
}

// Foreign is the field that holds the foreign error when Classify returns
// v: its cause, when that is a plain error; nil otherwise.
func (v *Variant) Foreign() *Field {
	if v.Cause != nil && v.Cause.Type.Kind == Error {
		return v.Cause
	}
	return nil
}
