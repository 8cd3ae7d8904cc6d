package compat

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/oracle"
)

// Report is a review summary of what changed between two catalogues:
// variants added, removed and changed, grouped by family, each change as
// before and after, with the findings of Compare attached where they
// belong. Text in it is raw catalogue text: each renderer escapes it for
// its format.
type Report struct {
	Base string `json:"base"`
	Head string `json:"head"`
	// Tier is the widest tier whose findings are reported.
	Tier     Tier `json:"tier"`
	Added    int  `json:"added"`
	Removed  int  `json:"removed"`
	Changed  int  `json:"changed"`
	Breaking int  `json:"breaking"`
	Waived   int  `json:"waived"`
	Notes    int  `json:"notes"`
	// Catalogue lists changes outside any family: the package name and the
	// categories.
	Catalogue []Change       `json:"catalogue"`
	Families  []*FamilyDiff  `json:"families"`
	Waivers   []WaiverStatus `json:"waivers"`
	// Other holds findings that belong to no listed variant or family.
	Other []Finding `json:"other"`
}

// Change is one attribute that differs. An empty Before or After means the
// attribute was absent on that side.
type Change struct {
	Attr   string `json:"attribute"`
	Before string `json:"before"`
	After  string `json:"after"`
	// Field names the field, in base when it was there, for a change to
	// one of a variant's fields.
	Field    string    `json:"field,omitempty"`
	Findings []Finding `json:"findings"`
}

// Status is what happened to a family or a variant.
type Status string

// The statuses.
const (
	Added   Status = "added"
	Removed Status = "removed"
	Changed Status = "changed"
)

// FamilyDiff is what changed in one family.
type FamilyDiff struct {
	// Name is the family's name in head, or in base when it was removed.
	Name string `json:"name"`
	// Status is empty when only the family's variants changed.
	Status   Status         `json:"status,omitempty"`
	Changes  []Change       `json:"changes"`
	Variants []*VariantDiff `json:"variants"`
	// Findings are the family's findings that belong to no variant, such
	// as a reserved num taken out of reserved.
	Findings []Finding `json:"findings"`

	head *model.Family
}

// VariantDiff is one variant added, removed or changed.
type VariantDiff struct {
	Status Status `json:"status"`
	Code   string `json:"code"`
	Num    int    `json:"num"`
	// Name is the Go type's name.
	Name string `json:"name"`
	// Reserved reports, for a removed variant, whether its num and code
	// were reserved as they must be (its num alone for a code that moved).
	Reserved bool `json:"reserved,omitempty"`
	// MovedTo is, for a removed variant whose code another catalogue of
	// the registry holds now, that catalogue.
	MovedTo string   `json:"moved_to,omitempty"`
	Changes []Change `json:"changes"`
	// Findings are the variant's findings that belong to no single
	// change.
	Findings []Finding `json:"findings"`
}

// WaiverStatus is a waiver of the new catalogue and whether it accepted a
// finding.
type WaiverStatus struct {
	Rule string `json:"rule"`
	// Code or Family is what the waiver accepts findings for.
	Code   string   `json:"code,omitempty"`
	Family string   `json:"family,omitempty"`
	Reason string   `json:"reason"`
	Pos    diag.Pos `json:"-"`
	// Judged is false when the tier of the summary does not check the
	// waiver's rule (or the rule is a note or unknown): such a waiver is
	// neither used nor unused.
	Judged bool `json:"judged"`
	// Used is whether the waiver accepted a break; false when not judged.
	Used bool `json:"used"`
}

// subject names what the waiver waives, as compat's messages do.
func (w WaiverStatus) subject() string {
	return (&model.Waiver{Code: w.Code, Family: w.Family}).Subject()
}

// whyNotJudged says why a summary at tier t does not judge the waiver.
func (w WaiverStatus) whyNotJudged(t Tier) string {
	r, ok := LookupRule(w.Rule)
	switch {
	case !ok:
		return "unknown rule"
	case r.Severity == Note:
		return "not needed: a note"
	}
	return "not checked at tier " + t.String()
}

// Diff builds the review summary of head against base. findings are the
// findings of Compare(base, head), filtered and waived for tier t.
func Diff(base, head *model.Catalogue, findings []Finding, t Tier) *Report {
	return DiffIn(base, head, findings, t, Others{})
}

// DiffIn is Diff for a catalogue of a registry, whose other catalogues
// others describes (as CompareIn takes them): a removed variant whose code
// one of them holds is shown as moved there.
func DiffIn(base, head *model.Catalogue, findings []Finding, t Tier, others Others) *Report {
	r := &Report{Base: base.File, Head: head.File, Tier: t}
	c := newComparer(base, head)
	r.Catalogue = catalogueChanges(base, head)

	fams := map[*model.Family]*FamilyDiff{}
	var order []*FamilyDiff
	famDiff := func(hf *model.Family) *FamilyDiff {
		if fd := fams[hf]; fd != nil {
			return fd
		}
		fd := &FamilyDiff{Name: hf.Name, head: hf}
		fams[hf] = fd
		return fd
	}
	// A finding about what another variant's change took from a variant
	// (a new match rule tried first, a more specific http_status) goes
	// beside that change, or under that variant when it is new: at[i] is
	// the code finding i is shown under. A new rule can take from every
	// other rule, so each taker's changes are listed once.
	at := make([]string, len(findings))
	takerChanges := map[string][]Change{}
	for i, f := range findings {
		at[i] = f.Code
		hv := c.head.byCode[f.TakenBy]
		if hv == nil {
			continue
		}
		bv := c.base.byCode[hv.Code]
		if bv == nil {
			at[i] = hv.Code
			continue
		}
		ch, ok := takerChanges[hv.Code]
		if !ok {
			ch = variantChanges(c, bv, hv)
			takerChanges[hv.Code] = ch
		}
		if changeFor(ch, f) >= 0 {
			at[i] = hv.Code
		}
	}
	// A variant with a finding is listed even when none of its own
	// attributes changed (its family was renamed or changed payload_type).
	flagged := map[string]bool{}
	for _, code := range at {
		flagged[code] = true
	}
	baseOf := map[*model.Family]*model.Family{}
	for bf, hf := range c.family {
		baseOf[hf] = bf
	}
	for _, hf := range head.Families {
		fd := famDiff(hf)
		order = append(order, fd)
		bf := baseOf[hf]
		if bf == nil {
			fd.Status = Added
		} else if fd.Changes = familyChanges(c.base.cat, c.head.cat, bf, hf); len(fd.Changes) > 0 {
			fd.Status = Changed
		}
		for _, hv := range hf.Variants {
			bv := c.base.byCode[hv.Code]
			if bv == nil {
				fd.Variants = append(fd.Variants, &VariantDiff{Status: Added, Code: hv.Code, Num: hv.Num, Name: hv.Name})
				r.Added++
				continue
			}
			if ch := variantChanges(c, bv, hv); len(ch) > 0 || flagged[hv.Code] {
				fd.Variants = append(fd.Variants, &VariantDiff{Status: Changed, Code: hv.Code, Num: hv.Num, Name: hv.Name, Changes: ch})
				r.Changed++
			}
		}
	}
	// Removed variants go under the family they left, or under their
	// removed family.
	var gone []*FamilyDiff
	for _, bf := range base.Families {
		var fd *FamilyDiff
		if hf := c.family[bf]; hf != nil {
			fd = fams[hf]
		} else {
			fd = &FamilyDiff{Name: bf.Name, Status: Removed}
			gone = append(gone, fd)
		}
		for _, bv := range bf.Variants {
			code := c.h(bv.Code)
			if c.head.byCode[code] != nil {
				continue
			}
			vd := &VariantDiff{Status: Removed, Code: code, Num: bv.Num, Name: bv.Name}
			vd.Reserved = (c.head.resCodes[code] != nil || others.ReservedCodes[strings.ToLower(code)]) &&
				(c.head.resNums[bv.Num] != nil || others.ReservedNums[bv.Num])
			if h, ok := others.Elsewhere[strings.ToLower(code)]; ok {
				// Its code lives on there; what is retired here is its old
				// num, unless that moved with it.
				vd.MovedTo, vd.Reserved = h.Catalogue, c.head.resNums[bv.Num] != nil || others.ReservedNums[bv.Num]
			}
			fd.Variants = append(fd.Variants, vd)
			r.Removed++
		}
	}
	order = append(order, gone...)

	// Attach each finding to the change, variant or family it is about.
	byCode := map[string]*VariantDiff{}
	for _, fd := range order {
		for _, vd := range fd.Variants {
			byCode[vd.Code] = vd
		}
	}
	for i, f := range findings {
		switch {
		case f.Fails():
			r.Breaking++
		case f.Severity == Break:
			r.Waived++
		default:
			r.Notes++
		}
		if vd := byCode[at[i]]; vd != nil {
			if j := changeFor(vd.Changes, f); j >= 0 {
				vd.Changes[j].Findings = append(vd.Changes[j].Findings, f)
			} else {
				vd.Findings = append(vd.Findings, f)
			}
			continue
		}
		// A finding about the whole catalogue goes next to the catalogue
		// change it is about.
		if f.Code == "" && f.Family == "" {
			attr := catalogueAttr[f.Rule]
			if f.Attribute != "" {
				attr = "attribute " + f.Attribute
			}
			if f.Category != "" {
				attr = "category " + f.Category
			}
			if j := slices.IndexFunc(r.Catalogue, func(c Change) bool { return c.Attr == attr }); j >= 0 {
				r.Catalogue[j].Findings = append(r.Catalogue[j].Findings, f)
			} else {
				r.Other = append(r.Other, f)
			}
			continue
		}
		// A finding about a whole family (or a reserved value no variant
		// holds) goes with the family, next to the change it is about; one
		// about a family removed with what it reserved, with that family.
		i := slices.IndexFunc(order, func(fd *FamilyDiff) bool {
			if fd.head == nil {
				return fd.Status == Removed && fd.Name == f.Family
			}
			return fd.head.Name == f.Family
		})
		if i < 0 {
			r.Other = append(r.Other, f)
			continue
		}
		fd := order[i]
		attr := map[string]string{GoNameChanged: "name", PayloadTypeChanged: "payload_type", MappingRemoved: "maps_to",
			RetryPolicyRemoved: "retry", RetryPolicyChanged: "retry", GRPCCodeChanged: "grpc_code"}[f.Rule]
		if f.Rule == ReservedRemoved {
			// A code no variant holds, or a num no variant uses.
			attr = "reserved nums"
			if f.Code != "" {
				attr = "reserved codes"
			}
		}
		if j := slices.IndexFunc(fd.Changes, func(c Change) bool { return attr != "" && c.Attr == attr }); j >= 0 {
			fd.Changes[j].Findings = append(fd.Changes[j].Findings, f)
		} else {
			fd.Findings = append(fd.Findings, f)
		}
	}
	for _, fd := range order {
		if fd.Status != "" || len(fd.Variants) > 0 || len(fd.Findings) > 0 {
			r.Families = append(r.Families, fd)
		}
	}
	r.normalize()
	for i := range head.Waivers {
		w := &head.Waivers[i]
		judged := Judged(w, t)
		used := judged && slices.ContainsFunc(findings, func(f Finding) bool { return accepts(w, f) })
		r.Waivers = append(r.Waivers, WaiverStatus{Rule: w.Rule, Code: w.Code, Family: w.Family, Reason: w.Reason, Pos: w.Pos, Judged: judged, Used: used})
	}
	return r
}

// normalize turns nil lists into empty ones, so JSON has [] and never
// null for a list.
func (r *Report) normalize() {
	r.Catalogue = nonNil(r.Catalogue)
	r.Families = nonNil(r.Families)
	r.Other = nonNil(r.Other)
	r.Waivers = nonNil(r.Waivers)
	for _, fd := range r.Families {
		fd.Changes, fd.Variants, fd.Findings = nonNil(fd.Changes), nonNil(fd.Variants), nonNil(fd.Findings)
		for i := range fd.Changes {
			fd.Changes[i].Findings = nonNil(fd.Changes[i].Findings)
		}
		for _, vd := range fd.Variants {
			vd.Changes, vd.Findings = nonNil(vd.Changes), nonNil(vd.Findings)
			for i := range vd.Changes {
				vd.Changes[i].Findings = nonNil(vd.Changes[i].Findings)
			}
		}
	}
	for i := range r.Catalogue {
		r.Catalogue[i].Findings = nonNil(r.Catalogue[i].Findings)
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// attrOf names the change each variant rule is about.
var attrOf = map[string]string{
	CodeRenumbered: "num", FamilyChanged: "family", CategoryChanged: "category",
	RetryableChanged: "retryable", SuppressRetryChanged: "suppress_retry", NonFatalChanged: "non_fatal",
	SuppressionKeyChanged: "suppression_key", HTTPStatusRemoved: "http_status",
	MessagePlaceholdersChanged: "message", MessageReworded: "message",
	SubcodeRemovedUnreserved: "subcodes", RequiredFieldsChanged: "required_fields",
	ConfigurableRemoved: "configurable", InstanceHintRemoved: "instance_hints",
	MappingChanged: "maps_to", ClassifyRuleRemoved: "match",
	ProblemStatusChanged: "http_status", GRPCCodeChanged: "grpc_code", MCPKindChanged: "mcp_error",
}

// changeFor returns the index of the change finding f is about, or -1.
func changeFor(changes []Change, f Finding) int {
	return slices.IndexFunc(changes, func(c Change) bool {
		if f.Field != "" {
			return c.Field == f.Field && c.Attr == "field"
		}
		if f.Attribute != "" {
			return c.Attr == "attribute "+f.Attribute
		}
		if f.Rule == GoNameChanged {
			return c.Attr == "name" || c.Attr == "family"
		}
		if f.Key != "" {
			return c.Attr == f.Key
		}
		if f.Rule == ClassifyRuleRemoved && f.TakenWith != "" {
			// The taker's rule that now comes first: a match rule or a
			// status.
			return c.Attr == f.TakenWith
		}
		return c.Attr == attrOf[f.Rule]
	})
}

// selected is s when c selects the projection, "" otherwise: a
// projection's settings mean nothing without it.
func selected(c *model.Catalogue, projection, s string) string {
	if !c.Selects(projection) {
		return ""
	}
	return s
}

// statusText is an HTTP status, "" for none.
func statusText(n int) string {
	if n == 0 {
		return ""
	}
	return strconv.Itoa(n)
}

// catalogueAttr names the catalogue change each rule about the whole
// catalogue is about.
var catalogueAttr = map[string]string{
	PackageRenamed: "package", CodeCaseChanged: "code_case", ClassifyRemoved: "classify",
	ProjectionRemoved: "projections", ProblemTypeChanged: "problem type_base", ProblemStatusChanged: "problem status",
	GRPCCodeChanged: "grpc domain", RetryPolicyRemoved: "retry", RetryPolicyChanged: "retry",
}

func catalogueChanges(base, head *model.Catalogue) []Change {
	var out []Change
	add := func(attr, b, h string) {
		if b != h {
			out = append(out, Change{Attr: attr, Before: b, After: h})
		}
	}
	add("package", base.Package, head.Package)
	if base.Package != "" { // a new catalogue had no code case
		add("code_case", base.CodeCase.String(), head.CodeCase.String())
	} else {
		add("code_case", "", head.CodeCase.String())
	}
	add("user_message", templateText(base.UserMessage), templateText(head.UserMessage))
	add("retry", retryText(base.Retry), retryText(head.Retry))
	add("classify", classifyText(base.Classify, head.CodeCase), classifyText(head.Classify, head.CodeCase))
	add("projections", strings.Join(base.Projections, ", "), strings.Join(head.Projections, ", "))
	add("problem type_base", selected(base, "problem", base.ProblemBase), selected(head, "problem", head.ProblemBase))
	add("problem status", selected(base, "problem", statusText(base.ProblemStatus)), selected(head, "problem", statusText(head.ProblemStatus)))
	add("grpc domain", selected(base, "grpc", base.GRPCDomain), selected(head, "grpc", head.GRPCDomain))
	add("grpc locale", selected(base, "grpc", base.GRPCLocale), selected(head, "grpc", head.GRPCLocale))
	for _, ba := range base.Attributes {
		i := slices.IndexFunc(head.Attributes, func(h *model.Attribute) bool { return h.Name == ba.Name })
		if i < 0 {
			add("attribute "+ba.Name, attrText(ba), "")
		} else {
			add("attribute "+ba.Name, attrText(ba), attrText(head.Attributes[i]))
			add("attribute "+ba.Name+" doc", ba.Doc, head.Attributes[i].Doc)
		}
	}
	for _, ha := range head.Attributes {
		if !slices.ContainsFunc(base.Attributes, func(b *model.Attribute) bool { return b.Name == ha.Name }) {
			add("attribute "+ha.Name, "", attrText(ha))
		}
	}
	for _, bc := range base.Categories {
		i := slices.IndexFunc(head.Categories, func(h *model.Category) bool { return h.Name == bc.Name })
		if i < 0 {
			add("category "+bc.Name, bc.Doc, "")
		} else {
			add("category "+bc.Name, bc.Doc, head.Categories[i].Doc)
		}
	}
	for _, hc := range head.Categories {
		if !slices.ContainsFunc(base.Categories, func(b *model.Category) bool { return b.Name == hc.Name }) {
			add("category "+hc.Name, "", hc.Doc)
		}
	}
	return out
}

func familyChanges(base, head *model.Catalogue, bf, hf *model.Family) []Change {
	var out []Change
	add := func(attr, b, h string) {
		if b != h {
			out = append(out, Change{Attr: attr, Before: b, After: h})
		}
	}
	add("name", bf.Name, hf.Name)
	add("doc", bf.Doc, hf.Doc)
	add("payload_type", bf.PayloadType, hf.PayloadType)
	add("user_message", templateText(bf.UserMessage), templateText(hf.UserMessage))
	add("nums", numsText(bf), numsText(hf))
	add("reserved nums", ints(bf.ReservedNums), ints(hf.ReservedNums))
	// Base's codes as head spells them: a changed code_case is one change,
	// at the catalogue.
	var reserved []string
	for _, c := range bf.ReservedCodes {
		reserved = append(reserved, recase(c, head.CodeCase))
	}
	add("reserved codes", strings.Join(reserved, ", "), strings.Join(hf.ReservedCodes, ", "))
	add("retry", retryText(bf.Retry), retryText(hf.Retry))
	add("maps_to", mappingText(bf.MapsTo), mappingText(hf.MapsTo))
	add("grpc_code", familyGRPCCode(base, bf), familyGRPCCode(head, hf))
	return out
}

// familyGRPCCode is the gRPC code of f's variants that give none of their
// own, "" when cat selects no grpc projection and so has no gRPC code.
func familyGRPCCode(cat *model.Catalogue, f *model.Family) string {
	if !cat.Selects("grpc") {
		return ""
	}
	return f.GRPCCode
}

// retryText describes a retry policy, "" for none.
func retryText(p *model.RetryPolicy) string {
	if p == nil {
		return ""
	}
	return p.String()
}

// classifyText describes a classify section by its fallback, spelled in
// case cc; "" for none.
func classifyText(c *model.Classifier, cc model.CodeCase) string {
	if c == nil {
		return ""
	}
	return "fallback " + recase(c.Fallback.Code, cc)
}

// mappingText describes a family's conversion, "" for none.
func mappingText(m *model.Mapping) string {
	if m == nil {
		return ""
	}
	if m.Default != nil {
		return m.To.Name + ", default " + m.Default.Name
	}
	return m.To.Name
}

// matchText lists a variant's match rules, "" for none.
func matchText(v *model.Variant) string {
	s := make([]string, len(v.Match))
	for i, r := range v.Match {
		s[i] = r.String()
	}
	return strings.Join(s, "; ")
}

// mapsToText is the code a variant converts into, "" for none.
func mapsToText(v *model.Variant) string {
	if c := v.MapCase(); c != nil {
		return c.To.Code
	}
	return ""
}

// numsText is a family's num range as the catalogue writes it: ASCII, so
// that quoting it escapes nothing.
func numsText(f *model.Family) string {
	if !f.HasNums {
		return ""
	}
	return fmt.Sprintf("[%d, %d]", f.Nums[0], f.Nums[1])
}

func ints(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

func variantChanges(c *comparer, bv, hv *model.Variant) []Change {
	var out []Change
	add := func(attr, b, h string) {
		if b != h {
			out = append(out, Change{Attr: attr, Before: b, After: h})
		}
	}
	add("num", strconv.Itoa(bv.Num), strconv.Itoa(hv.Num))
	// A renamed family shows once, in the family's changes; the variant
	// lists only a move to another family.
	if c.family[bv.Family] != hv.Family {
		add("family", bv.Family.Name, hv.Family.Name)
	}
	add("name", bv.Name, hv.Name)
	add("category", bv.Category.Name, hv.Category.Name)
	add("doc", bv.Doc, hv.Doc)
	add("message", bv.Message.Text, hv.Message.Text)
	add("user_message", ownUserMessage(bv), ownUserMessage(hv))
	add("suppression_key", templateText(bv.SuppressionKey), templateText(hv.SuppressionKey))
	add("retryable", bv.Retry.String(), hv.Retry.String())
	add("suppress_retry", strconv.FormatBool(bv.SuppressRetry), strconv.FormatBool(hv.SuppressRetry))
	add("non_fatal", strconv.FormatBool(bv.NonFatal), strconv.FormatBool(hv.NonFatal))
	add("suggested_tool", bv.SuggestedTool, hv.SuggestedTool)
	add("suggested_action", bv.SuggestedAction, hv.SuggestedAction)
	add("usage_hint", bv.UsageHint, hv.UsageHint)
	add("http_status", bv.HTTPText(), hv.HTTPText())
	add("grpc_code", ownGRPCCode(bv), ownGRPCCode(hv))
	add("mcp_error", mcpErrorText(bv), mcpErrorText(hv))
	add("subcodes", c.h(bv.SubcodesText()), hv.SubcodesText())
	for _, bs := range bv.Subcodes {
		if i := slices.IndexFunc(hv.Subcodes, func(hs *model.Subcode) bool { return hs.Code == c.h(bs.Code) }); i >= 0 {
			add("subcode "+hv.Subcodes[i].Code+" doc", bs.Doc, hv.Subcodes[i].Doc)
		}
	}
	add("instance_hints", bv.HintsText(), hv.HintsText())
	add("required_fields", strings.Join(bv.RequiredFields, ", "), strings.Join(hv.RequiredFields, ", "))
	add("configurable", strconv.FormatBool(bv.Configurable), strconv.FormatBool(hv.Configurable))
	add("maps_to", c.h(mapsToText(bv)), mapsToText(hv))
	add("match", matchText(bv), matchText(hv))
	for _, bs := range bv.Attrs {
		hs, _ := hv.Attr(bs.Attr.Name)
		if hs.Attr == nil {
			add("attribute "+bs.Attr.Name, bs.Text(), "")
		} else {
			add("attribute "+bs.Attr.Name, bs.Text(), hs.Text())
		}
	}
	for _, hs := range hv.Attrs {
		if _, ok := bv.Attr(hs.Attr.Name); !ok {
			add("attribute "+hs.Attr.Name, "", hs.Text())
		}
	}

	field := func(name, b, h string) {
		if b != h {
			out = append(out, Change{Attr: "field", Field: name, Before: b, After: h})
		}
	}
	renamed := map[*model.Field]bool{}
	for _, bf := range bv.Fields {
		hf := hv.Field(bf.Name)
		if hf == nil {
			if hf = c.renamedTo(bv, hv, bf); hf != nil {
				renamed[hf] = true
			}
		}
		if hf == nil {
			field(bf.Name, fieldText(bf), "")
			continue
		}
		field(bf.Name, fieldText(bf), fieldText(hf))
		if bf.Doc != hf.Doc {
			out = append(out, Change{Attr: "field doc", Field: bf.Name, Before: bf.Doc, After: hf.Doc})
		}
		if b, h := exampleText(bf), exampleText(hf); b != h {
			out = append(out, Change{Attr: "field example", Field: bf.Name, Before: b, After: h})
		}
	}
	for _, hf := range hv.Fields {
		if bv.Field(hf.Name) == nil && !renamed[hf] {
			field(hf.Name, "", fieldText(hf))
		}
	}
	return out
}

// attrText describes an attribute declaration: its type, an enum's
// values, its default.
func attrText(a *model.Attribute) string {
	s := a.Type.String()
	if a.Type == model.AttrEnum {
		s += " (" + strings.Join(a.Values, ", ") + ")"
	}
	if a.HasDefault {
		s += ", default " + a.Text(a.Default)
	}
	return s
}

// ownGRPCCode is the variant's own grpc_code, "" when it takes its
// family's.
func ownGRPCCode(v *model.Variant) string {
	if v.Src == nil || !v.Src.GRPCCode.Set {
		return ""
	}
	return v.GRPCCode
}

// mcpErrorText is the variant's mcp_error, "" for none (a tool result).
func mcpErrorText(v *model.Variant) string {
	if v.MCPError == 0 {
		return ""
	}
	return strconv.Itoa(v.MCPError)
}

// ownUserMessage is the variant's own user_message as written, "" when it
// takes another's.
func ownUserMessage(v *model.Variant) string {
	if v.UserMessage.From != model.UserFromVariant {
		return ""
	}
	return v.UserMessage.Template.Text
}

// fieldText describes a field as "name type", then its flags.
func fieldText(f *model.Field) string {
	s := f.Name + " " + f.Type.Name
	if f.Type.Kind == model.Duration {
		s += " in " + f.Unit.Name
	}
	if f.Payload {
		s += ", payload"
	}
	if f.RetryAfter {
		s += ", retry_after"
	}
	if f.HTTPStatus {
		s += ", http_status"
	}
	if f.Sensitive {
		s += ", sensitive"
	}
	return s
}

// exampleText is a field's example as the catalogue gave it; "" when
// errgen made it up.
func exampleText(f *model.Field) string {
	if !f.ExampleSet {
		return ""
	}
	return oracle.Format(f)
}

// MarshalJSON encodes a finding as an object with stable keys, every one
// always present: rule, tier, severity, file, line, col, code, family,
// codes, field, attribute, message, base (an object with file, line and
// col, or null) and waiver (an object with reason, file, line and col, or
// null).
func (f Finding) MarshalJSON() ([]byte, error) {
	out := findingJSON{Rule: f.Rule, Tier: f.Tier.String(), Severity: f.Severity.String(), jsonPos: jsonPos{f.Pos.File, f.Pos.Line, f.Pos.Col},
		Code: f.Code, Family: f.Family, Codes: nonNil(f.Codes), Field: f.Field, Attribute: f.Attribute, Message: f.Message}
	if f.BasePos.IsValid() {
		out.Base = &jsonPos{f.BasePos.File, f.BasePos.Line, f.BasePos.Col}
	}
	if w := f.Waiver; w != nil {
		out.Waiver = &jsonWaiver{w.Reason, jsonPos{w.Pos.File, w.Pos.Line, w.Pos.Col}}
	}
	return json.Marshal(out)
}

// findingJSON is the one shape of compat's JSON output: a finding, or a
// problem that stopped the run (a catalogue's error), which has severity
// "error" or "warning", no rule, tier or code, and no base.
type findingJSON struct {
	Rule     string `json:"rule"`
	Tier     string `json:"tier"`
	Severity string `json:"severity"`
	jsonPos
	Code      string      `json:"code"`
	Family    string      `json:"family"`
	Codes     []string    `json:"codes"`
	Field     string      `json:"field"`
	Attribute string      `json:"attribute"`
	Message   string      `json:"message"`
	Base      *jsonPos    `json:"base"`
	Waiver    *jsonWaiver `json:"waiver"`
}

type jsonPos struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
}

type jsonWaiver struct {
	Reason string `json:"reason"`
	jsonPos
}

// problemJSON is a diagnostic in the shape of a finding.
func problemJSON(d diag.Diagnostic) findingJSON {
	sev := "error"
	if d.Severity == diag.Warning {
		sev = "warning"
	}
	return findingJSON{Severity: sev, jsonPos: jsonPos{d.Pos.File, d.Pos.Line, d.Pos.Col}, Codes: []string{}, Message: d.Message()}
}
