package golang

import (
	"slices"
	"strconv"
	"strings"

	"github.com/errgen/errgen/gen/golang/printer"
	"github.com/errgen/errgen/gen/model"
)

// genBehaviour writes what the catalogue declares beside its errors, each
// only when declared: the retry policies, Classify, and the conversions
// between families.
func genBehaviour(f *printer.File, m *model.Catalogue) {
	genRetry(f, m)
	genClassify(f, m)
	for _, fam := range m.Families {
		if fam.MapsTo != nil {
			genMapping(f, fam.MapsTo)
		}
	}
}

// genRetry writes the retry policies, which family each variant takes its
// policy from, RetryPolicyOf and RetryDelay:
//
//	var retryPolicies = [...]RetryPolicy{
//		{MaxRetries: 3, Base: 1 * time.Second, Cap: 10 * time.Second, Jitter: 0.2},
//	}
func genRetry(f *printer.File, m *model.Catalogue) {
	policies := m.RetryPolicies()
	if len(policies) == 0 {
		return
	}
	elems := make([]string, len(policies))
	for i, p := range policies {
		elems[i] = "{MaxRetries: " + strconv.Itoa(p.MaxRetries) + ", Base: " + durationLit(f, p.Base) +
			", Cap: " + durationLit(f, p.Cap) + ", Jitter: " + strconv.FormatFloat(p.Jitter, 'g', -1, 64) + "}"
	}
	f.Doc("retryPolicies are the retry policies of the catalogue and its families.")
	f.Var("retryPolicies", "[...]RetryPolicy", elems)
	index := make([]string, len(m.ByNum))
	for i, v := range m.ByNum {
		index[i] = strconv.Itoa(model.RetryIndex(policies, v.Family.Retry))
	}
	f.Doc("retryPolicyOf holds the position in retryPolicies of every variant's policy,",
		"in the order of infos; -1 when its family has none.")
	f.Var("retryPolicyOf", "[...]int", index)

	doc := []string{
		"RetryPolicyOf returns the retry policy of the outermost error of the",
		"catalogue in err's chain, its family's; false when there is none or its",
		"family has no policy.",
	}
	unknown := model.RetryIndex(policies, m.UnknownRetry())
	if unknown >= 0 {
		// Every family has a policy then.
		doc = []string{
			"RetryPolicyOf returns the retry policy of the outermost error of the",
			"catalogue in err's chain, its family's; false when there is none. An",
			"error of a code the catalogue does not know (one decoded from a newer",
			"sender's payload) has the catalogue's policy.",
		}
	}
	b := f.Func(doc, "func RetryPolicyOf(err error) (RetryPolicy, bool)")
	b.Open("if i, ok := indexOf(err); ok && retryPolicyOf[i] >= 0")
	b.Line("return retryPolicies[retryPolicyOf[i]], true")
	b.Close()
	if unknown >= 0 {
		// Every code of the catalogue has a policy then: a code is unknown.
		b.Open("if CodeOf(err) != \"\"")
		b.Line("return retryPolicies[" + strconv.Itoa(unknown) + "], true")
		b.Close()
	}
	b.Line("return RetryPolicy{}, false")
	b.End()

	rand := f.Import("math/rand/v2")
	b = f.Func([]string{
		"RetryDelay reports whether to retry after err, the failures-th failure in",
		"a row (1 when the first attempt failed), and how long to wait first:",
		"RetryPolicyOf(err).Delay with a random jitter. It is false for an error",
		"without a policy, one that is not retryable, and after the policy's",
		"last retry. A positive retry-after anywhere in err's chain is the wait.",
	}, "func RetryDelay(err error, failures int) (time.Duration, bool)")
	b.Open("if p, ok := RetryPolicyOf(err); ok")
	b.Line("return p.Delay(err, failures, " + rand + ".Float64)")
	b.Close()
	b.Line("return 0, false")
	b.End()
}

// genClassify writes the rules for foreign errors and Classify:
//
//	var foreignIs = [...]foreignRule{
//		{err: context.DeadlineExceeded, code: CodeTimeout},
//	}
func genClassify(f *printer.File, m *model.Catalogue) {
	c := m.Classify
	if c == nil {
		return
	}
	isArg, statusArg, containsArg := "nil", "nil", "nil"
	if len(c.Is) > 0 {
		elems := make([]string, len(c.Is))
		for i, r := range c.Is {
			if r.Condition.Timeout {
				elems[i] = "{code: " + r.Variant.CodeConst() + "}"
				continue
			}
			pkg := f.Import(r.Condition.Import)
			expr := pkg + r.Condition.Expr[strings.IndexByte(r.Condition.Expr, '.'):]
			elems[i] = "{err: " + expr + ", code: " + r.Variant.CodeConst() + "}"
		}
		f.Doc("foreignIs are the conditions Classify looks for first, in order; a rule",
			"without err stands for an error whose Timeout method reports true.")
		f.Var("foreignIs", "[...]foreignRule", elems)
		isArg = "foreignIs[:]"
	}
	var byStatus []*model.Variant
	for _, v := range m.ByNum {
		if v.ClassifyByStatus {
			byStatus = append(byStatus, v)
		}
	}
	if elems := statusElems(byStatus); len(elems) > 0 {
		f.Doc("foreignStatuses maps the HTTP statuses Classify matches to the entries of", "infos that stand for them, most specific first.")
		f.Var("foreignStatuses", "[...]statusRange", elems)
		statusArg = "foreignStatuses[:]"
	}
	if len(c.Contains) > 0 {
		elems := make([]string, len(c.Contains))
		for i, r := range c.Contains {
			elems[i] = "{text: " + printer.Quote(strings.ToLower(r.Text)) + ", code: " + r.Variant.CodeConst() + "}"
		}
		f.Doc("foreignContains are the texts Classify looks for last, in order, in the",
			"error's text in lower case.")
		f.Var("foreignContains", "[...]keywordRule", elems)
		containsArg = "foreignContains[:]"
	}
	doc := []string{
		"Classify returns the error of the catalogue that err stands for: err's",
		"own, when a catalogue error is in its chain; otherwise a new error that",
		"holds err as its cause, of the variant whose rule matches first, trying",
		"the conditions of every match is, then http_status against the status of",
		"an error in the chain with a StatusCode() int method, then the texts of",
		"every match contains; else a new " + c.Fallback.Name + ". Its other fields are",
		"left unset. It returns nil for nil.",
	}
	if slices.ContainsFunc(byStatus, func(v *model.Variant) bool { return v.HTTPStatusField != nil }) {
		doc[len(doc)-1] = "left unset, but for the http_status field of a variant matched by status,"
		doc = append(doc, "which holds that status. It returns nil for nil.")
	}
	b := f.Func(doc, "func Classify(err error) Error")
	b.Line("return classify(err, " + isArg + ", " + statusArg + ", " + containsArg + ", " + c.Fallback.CodeConst() + ")")
	b.End()
}

// genMapping writes a family's conversion into another:
//
//	func AgentErrorFromModelError(err ModelError) AgentError {
//		switch e := err.(type) {
//		case *RateLimited:
//			return &AgentRateLimited{Cause: e, Provider: e.Provider}
//		}
//		return nil
//	}
func genMapping(f *printer.File, mp *model.Mapping) {
	doc := []string{
		mp.Func() + " converts err into the " + mp.To.Name + " its",
		"variant maps to (maps_to), which holds err as its cause and carries over",
		"the fields of the same name; nil for nil.",
	}
	if mp.SetsRetryable() {
		doc[2] = "the fields of the same name; a target whose retryable field no field of"
		doc = append(doc, "that name fills has it set to err.Retryable() as it is at the conversion",
			"(a later SetClassPolicy does not change it). Nil for nil.")
	}
	b := f.Func(doc, "func "+mp.Func()+"(err "+mp.From.Name+") "+mp.To.Name)
	b.Open("if err == nil || isNil(err)")
	b.Line("return nil")
	b.Close()
	b.Open("switch e := err.(type)")
	for _, c := range mp.Cases {
		vals := []string{c.Cause.GoName + ": e"}
		for _, cp := range c.Copies {
			vals = append(vals, cp.To.GoName+": e."+cp.From.GoName)
		}
		if c.Retryable != nil {
			vals = append(vals, c.Retryable.GoName+": e.Retryable()")
		}
		b.Case("case *" + c.From.Name + ":")
		b.Line("return &" + c.To.Name + "{" + strings.Join(vals, ", ") + "}")
	}
	b.Close()
	b.Line("return nil")
	b.End()
}
