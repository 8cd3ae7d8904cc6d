package model

import (
	"cmp"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/names"
)

// A projection is a published shape an error leaves the process in besides
// errgen's own payload: a tool result for MCP or a provider's API, an RFC
// 9457 problem document, a framework's envelope. A catalogue selects the
// ones it wants (projections: [...]); the generated package holds the code
// of those only.

// Projection is one projection errgen can generate.
type Projection struct {
	// Name is how projections: names it.
	Name string
	// Doc says in one line what the shape is.
	Doc string
	// Names are the exported names the projection's code declares (all
	// of them reserved in PackageScope).
	Names []string
	// ModelJSON says the projection shows the model the error's model
	// JSON: its LLM payload, or its wire form when its family has no
	// payload_type.
	ModelJSON bool
}

// Projections lists every projection, in the order the generated file
// holds them.
var Projections = []Projection{
	{"mcp", "An MCP tool result (CallToolResult, revision 2025-11-25) with isError, or a JSON-RPC error for a variant with mcp_error.",
		[]string{"MCPResult", "DecodeMCPResult", "MCPKind", "MCPToolResult", "MCPProtocolError"}, true},
	{"anthropic", "A tool_result content block with is_error, as the Anthropic Messages API takes it.",
		[]string{"AnthropicToolResult", "DecodeAnthropicToolResult"}, true},
	{"openai", "A tool message (role tool), as OpenAI-style chat completion APIs take it.",
		[]string{"OpenAIToolMessage", "DecodeOpenAIToolMessage"}, true},
	{"problem", "An RFC 9457 problem details document (application/problem+json).",
		[]string{"ProblemJSON", "WriteProblem", "DecodeProblem", "ProblemContentType"}, false},
	{"grpc", "A google.rpc.Status in its JSON mapping, with ErrorInfo, RetryInfo and LocalizedMessage details (AIP-193); generate --grpc adds the same as a *status.Status.",
		[]string{"GRPCStatusJSON", "DecodeGRPCStatusJSON", "GRPCStatus", "FromGRPCStatus"}, false},
	{"agent_response", `The error envelope {"success": false, "error": CODE, "message", "metadata"} of TypeScript agent frameworks.`,
		[]string{"AgentResponse", "DecodeAgentResponse"}, false},
	{"tool_output", `A tool's output {"error": "..."}, as Rust agent runtimes hand a failed tool's result to the model.`,
		[]string{"ToolOutput"}, false},
}

// ProjectionNames are the names projections: takes.
var ProjectionNames = func() []string {
	out := make([]string, len(Projections))
	for i, p := range Projections {
		out[i] = p.Name
	}
	return out
}()

// ModelJSONProjections are the projections c selects that show the model
// the error's model JSON (Projection.ModelJSON), in the order of
// Projections.
func (c *Catalogue) ModelJSONProjections() []string {
	var out []string
	for _, p := range Projections {
		if p.ModelJSON && c.Selects(p.Name) {
			out = append(out, p.Name)
		}
	}
	return out
}

// ProblemMembers are the members RFC 9457 defines; a problem document
// carries the payload fields beside them, so none may be named like one.
var ProblemMembers = []string{"type", "title", "status", "detail", "instance"}

// ProblemWaitMember is the extension member a problem document carries
// its wait in, whole milliseconds (as Retry-After carries it in whole
// seconds); a payload field may not be named like it either.
const ProblemWaitMember = "retry_after_ms"

// GRPCCodes are the canonical gRPC status codes, by number (google.rpc.Code).
// OK is not an error's.
var GRPCCodes = []string{
	"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
	"PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
	"UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
}

// DefaultGRPCCode is the code of a variant that neither it nor its family
// gives one: what gRPC itself reports for an error that is not a status.
const DefaultGRPCCode = "UNKNOWN"

// DefaultGRPCLocale is the locale of the LocalizedMessage detail, which
// holds the user message, unless the catalogue's grpc section says another.
const DefaultGRPCLocale = "en-US"

// GRPCCodeNum is the number of v's gRPC code.
func (v *Variant) GRPCCodeNum() int { return slices.Index(GRPCCodes, v.GRPCCode) }

// GRPCReason is the ErrorInfo reason of v's statuses: its code in
// UPPER_SNAKE (AIP-193).
func (v *Variant) GRPCReason() string { return strings.ToUpper(v.Code) }

// GRPCReasonIsCode reports whether a reason is spelled as c's codes are
// (upper_snake), so that the reason of a code c does not know is read back
// as that code as it stands; otherwise as its lower case.
func (c *Catalogue) GRPCReasonIsCode() bool { return c.CodeCase == UpperSnake }

// DefaultProblemStatus is the status of a problem document for a variant
// without an error status (400 to 599) in http_status, unless the catalogue's problem section says
// otherwise.
const DefaultProblemStatus = 500

// Selects reports whether the catalogue generates the projection name.
func (c *Catalogue) Selects(name string) bool { return slices.Contains(c.Projections, name) }

// ProblemType is the type URI of v's problem documents: the catalogue's
// type_base followed by the code, so the reference docs at that address
// document the type.
func (v *Variant) ProblemType(c *Catalogue) string { return c.ProblemBase + v.Code }

// ProblemStatus is the status of v's problem documents: its first
// http_status that is an error status, 400 to 599 (the lowest of a range
// in it), else the catalogue's default. A status below 400 in http_status
// classifies a response, but a problem document sent with it would be
// read as no error (2xx, 3xx) or not sent at all (1xx).
func (v *Variant) ProblemStatus(c *Catalogue) int {
	if s, ok := v.OwnProblemStatus(); ok {
		return s
	}
	return c.ProblemStatus
}

// OwnProblemStatus is the status v's own http_status gives its problem
// documents, if it lists an error status; false when the catalogue's
// default decides.
func (v *Variant) OwnProblemStatus() (int, bool) {
	if r := v.problemStatusEntry(); r != nil {
		return max(r.Lo, 400), true
	}
	return 0, false
}

// problemStatusEntry is v's first http_status entry that covers an error
// status, 400 to 599, or nil: the one its problem documents' status is
// taken from.
func (v *Variant) problemStatusEntry() *StatusRange {
	for i := range v.HTTP {
		if r := &v.HTTP[i]; r.Hi >= 400 && r.Lo <= 599 {
			return r
		}
	}
	return nil
}

// Title is the static, human title of v's problem documents: its code in
// words, the first capitalised (rate_limited → "Rate limited").
func (v *Variant) Title() string {
	s := strings.ToLower(strings.ReplaceAll(v.Code, "_", " "))
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// MetadataKey is the key of f in the metadata of an agent_response
// envelope: its name in lowerCamelCase (status_code → statusCode), as the
// TypeScript framework's metadata type spells its members.
func (f *Field) MetadataKey() string { return names.Camel(f.Name) }

// ProjectionText says how v looks in the projections c selects that
// differ between variants, for the docs and explain: how MCP answers it,
// and its problem documents' status and type. It is empty when c selects
// neither.
func (v *Variant) ProjectionText(c *Catalogue) []string {
	var out []string
	if c.Selects("mcp") {
		if v.MCPError != 0 {
			out = append(out, "MCP answers with JSON-RPC error "+strconv.Itoa(v.MCPError))
		} else {
			out = append(out, "MCP answers with a tool result")
		}
	}
	if c.Selects("grpc") {
		reason := "gRPC status " + v.GRPCCode + " (" + strconv.Itoa(v.GRPCCodeNum()) + "), reason " + v.GRPCReason()
		if len(v.Subcodes) > 0 {
			// An instance's code, which the reason spells, is its sub-code.
			subs := make([]string, len(v.Subcodes))
			for i, sc := range v.Subcodes {
				subs[i] = strings.ToUpper(sc.Code)
			}
			reason += " (an instance that selects a sub-code: its own, " + strings.Join(subs, ", ") + ")"
		}
		out = append(out, reason)
	}
	if c.Selects("problem") {
		out = append(out, "problem documents have status "+strconv.Itoa(v.ProblemStatus(c))+" and type "+v.ProblemType(c))
	}
	return out
}

// projections resolves projections:, problem: and every variant's
// mcp_error.
func (r *resolver) projections() {
	cat := r.cat
	seen := map[string]diag.Pos{}
	// Under a misspelt projections key, which are selected is unknown:
	// a section or key of any projection may be right.
	r.selectionUnknown = r.misspelt(cat.Pos, "projections")
	for _, p := range cat.Projections {
		switch first, dup := seen[p.Value]; {
		case !slices.Contains(ProjectionNames, p.Value):
			hint := ""
			if best := diag.Closest(p.Value, ProjectionNames, 3); best != "" {
				hint = "; did you mean " + diag.Quote(best) + "?"
				if r.meantProjection == nil {
					r.meantProjection = map[string]bool{}
				}
				r.meantProjection[best] = true
			}
			r.errorf(p.Pos, "unknown projection %s (want one of %s)%s", diag.Quote(p.Value), strings.Join(ProjectionNames, ", "), hint)
		case dup:
			r.errorf(p.Pos, "projection %s is listed twice (first at %s)", diag.Quote(p.Value), at(first))
		default:
			seen[p.Value] = p.Pos
		}
	}
	for _, name := range ProjectionNames {
		if _, ok := seen[name]; ok {
			r.m.Projections = append(r.m.Projections, name)
		}
	}
	r.m.ProblemStatus = DefaultProblemStatus
	if pr := cat.Problem; pr != nil {
		r.problem(pr, seen)
	} else if p, ok := seen["problem"]; ok && !r.misspelt(cat.Pos, "problem") {
		r.errorf(p, "the problem projection needs a problem section with type_base, the URI its types start with (https://errors.example.com/)")
	}
	if r.m.Selects("problem") {
		for _, v := range r.m.Variants {
			for _, f := range v.PayloadFields() {
				// type is a key of every payload, refused as such.
				if slices.Contains(ProblemMembers, f.Name) && !slices.Contains(PayloadKeys, f.Name) {
					pos := f.Pos
					if f.Src != nil && f.Src.Name.Set {
						pos = f.Src.Name.Pos
					}
					r.errorf(pos, "payload field %s is named like a member RFC 9457 defines, which problem documents already have; rename the field", diag.Quote(f.Name))
				}
				if f.Name == ProblemWaitMember {
					pos := f.Pos
					if f.Src != nil && f.Src.Name.Set {
						pos = f.Src.Name.Pos
					}
					r.errorf(pos, "payload field %s is named like the member problem documents carry their wait in (whole milliseconds, beside Retry-After); rename the field", diag.Quote(f.Name))
				}
			}
		}
	}
	r.grpc(seen)
	if r.m.Selects("agent_response") {
		r.metadataKeys()
		r.outsideCode()
	}
	var mcp []projectionUse
	for _, v := range r.m.Variants {
		e := v.Src.MCPError
		if !e.Set {
			continue
		}
		switch {
		case !r.m.Selects("mcp"):
			mcp = append(mcp, projectionUse{e.Pos, "mcp_error", "mcp_error says how the mcp projection answers"})
		case e.Value == 0:
			r.errorf(e.Pos, "mcp_error must be a JSON-RPC error code, not 0 (-32602 is invalid params, -32601 method not found)")
		default:
			v.MCPError = int(e.Value)
		}
	}
	r.unselected("mcp", mcp)
}

// metadataKeys refuses a field whose agent_response metadata key is
// another field's of its variant (a_1b and a1b are both a1b), at the
// second: the envelope could not tell them apart. Two whose Go names are
// the same too are refused as such already.
func (r *resolver) metadataKeys() {
	for _, v := range r.m.Variants {
		seen := map[string]*Field{}
		for _, f := range v.Fields {
			if f.Src == nil || !f.Src.Name.Set || !names.IsSnake(f.Name) {
				continue
			}
			key := f.MetadataKey()
			first, dup := seen[key]
			switch {
			case !dup:
				seen[key] = f
			case first.Name != f.Name && first.GoName != f.GoName:
				r.errorf(f.Src.Name.Pos, "field %s has the agent_response metadata key %s, like field %s at %s, and the envelope could not tell them apart; rename one",
					diag.Quote(f.Name), diag.Quote(key), diag.Quote(first.Name), at(first.Src.Name.Pos))
			}
		}
	}
}

// outsideCode refuses a code or sub-code spelt as the code an
// agent_response gives an error outside the catalogue (the class ClassOf
// gives it, unknown): DecodeAgentResponse would read such an error back
// as that variant.
func (r *resolver) outsideCode() {
	outside := Unknown.String()
	for _, v := range r.m.Variants {
		if v.Code == outside && v.Src != nil {
			r.errorf(v.Src.Code.Pos, "code %s is what agent_response gives an error outside the catalogue, which the envelope would then not tell from this variant; use another code", diag.Quote(outside))
		}
		for _, sc := range v.Subcodes {
			if sc.Code == outside {
				r.errorf(sc.Pos, "sub-code %s is what agent_response gives an error outside the catalogue, which the envelope would then not tell from this instance; use another code", diag.Quote(outside))
			}
		}
	}
}

// projectionUse is a key that configures a projection: where it is, what
// it is (a key name, or a section), and the start of the message that
// refuses it alone.
type projectionUse struct {
	pos  diag.Pos
	what string
	says string
}

// unselected refuses the keys that configure projection name, which the
// catalogue does not select, in one error: one key at the key; several at
// projections: (at the first of them when there is none), where the
// projection is added. The keys are not refused while the selection is
// not known: projections: misspelt, or an unknown name in it taken for
// this projection.
func (r *resolver) unselected(name string, uses []projectionUse) {
	if len(uses) == 0 || r.selectionUnknown || r.meantProjection[name] {
		return
	}
	slices.SortStableFunc(uses, func(a, b projectionUse) int {
		return cmp.Or(cmp.Compare(a.pos.Line, b.pos.Line), cmp.Compare(a.pos.Col, b.pos.Col))
	})
	if len(uses) == 1 {
		r.errorf(uses[0].pos, "%s, and the catalogue does not select it; add %s to projections", uses[0].says, name)
		return
	}
	pos, ok := r.cat.Keys.Pos("projections")
	if !ok {
		pos = uses[0].pos
	}
	// The keys by what they are, in the order their first stands; the
	// one the error stands at is not given its position again.
	var kinds []string
	byKind := map[string][]diag.Pos{}
	for _, u := range uses {
		if _, ok := byKind[u.what]; !ok {
			kinds = append(kinds, u.what)
		}
		byKind[u.what] = append(byKind[u.what], u.pos)
	}
	parts := make([]string, len(kinds))
	for i, k := range kinds {
		ps := byKind[k]
		switch {
		case len(ps) == 1 && ps[0] == pos:
			parts[i] = k
		case len(ps) == 1:
			parts[i] = k + " (at " + at(ps[0]) + ")"
		default:
			parts[i] = strconv.Itoa(len(ps)) + " " + k + " keys (" + positions(ps, 3) + ")"
		}
	}
	list := strings.Join(parts, " and ")
	if ok {
		r.errorf(pos, "projections does not select %s, which %s configure; add %s to projections, or remove them", name, list, name)
		return
	}
	r.errorf(pos, "the catalogue selects no %s projection, which %s configure; add projections: [%s], or remove them", name, list, name)
}

// positions lists ps as "at L:C, L:C, L:C and N more".
func positions(ps []diag.Pos, max int) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = at(p)
	}
	return "at " + firstFew(out, max)
}

// firstFew lists items as "a, b, c and N more", at most max of them (all
// of them when only one more is left): what one error that stands for
// many names of them.
func firstFew(items []string, max int) string {
	if len(items) > max+1 {
		return strings.Join(items[:max], ", ") + " and " + strconv.Itoa(len(items)-max) + " more"
	}
	if len(items) <= 1 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// uriUnsafe is the index of the first byte of s that a URI never holds
// as it is (RFC 3986): a space, a control character, a byte past ASCII,
// or one of "<>\^`{|}; -1 when there is none.
func uriUnsafe(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c <= ' ' || c >= 0x7f || strings.IndexByte("\"<>\\^`{|}", c) >= 0 {
			return i
		}
	}
	return -1
}

// badEscape returns the index of the first % in s that does not begin a
// percent-escape, -1 when there is none.
func badEscape(s string) int {
	hex := func(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f' }
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && (i+2 >= len(s) || !hex(s[i+1]) || !hex(s[i+2])) {
			return i
		}
	}
	return -1
}

// afterHost is what follows the scheme and authority of the absolute URI
// s: its path, and its fragment.
func afterHost(s string) string {
	_, rest, _ := strings.Cut(s, "://")
	if i := strings.IndexAny(rest, "/#"); i >= 0 {
		return rest[i:]
	}
	return ""
}

// badPort is the port of the http or https URI s when it is not a whole
// number from 1 to 65535, "" otherwise (no port, or an empty one).
func badPort(s string) string {
	_, rest, ok := strings.Cut(s, "://")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndex(rest, "@"); i >= 0 {
		rest = rest[i+1:]
	}
	if i := strings.LastIndex(rest, "]"); i >= 0 {
		rest = rest[i+1:] // an IPv6 host
	}
	_, port, ok := strings.Cut(rest, ":")
	if !ok || port == "" {
		return ""
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || strings.TrimLeft(port, "0123456789") != "" {
		return port
	}
	return ""
}

func (r *resolver) problem(pr *ast.Problem, selected map[string]diag.Pos) {
	if _, ok := selected["problem"]; !ok {
		r.unselected("problem", []projectionUse{{pr.Pos, "the problem section", "problem configures the problem projection"}})
	}
	if b := pr.TypeBase; b.Set {
		u, err := url.Parse(b.Value)
		switch {
		case badEscape(b.Value) >= 0:
			bad := b.Value[badEscape(b.Value):]
			r.errorf(b.Pos, "type_base %s holds %s, which is no percent-escape (%% and two hex digits); write %%25 for a %% itself", diag.Quote(b.Value), diag.Quote(bad[:min(len(bad), 3)]))
		case badPort(b.Value) != "":
			r.errorf(b.Pos, "type_base %s has port %s; a port is a whole number from 1 to 65535", diag.Quote(b.Value), diag.Quote(badPort(b.Value)))
		case err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Hostname() == "":
			r.errorf(b.Pos, "type_base %s must be an absolute http or https URI, with a host", diag.Quote(b.Value))
		case !strings.HasSuffix(b.Value, "/") && !strings.HasSuffix(b.Value, "#"):
			r.errorf(b.Pos, "type_base %s must end in / or #, so that the code follows it as a path segment or fragment", diag.Quote(b.Value))
		case u.RawQuery != "" || u.User != nil:
			r.errorf(b.Pos, "type_base %s must have no query and no userinfo", diag.Quote(b.Value))
		case uriUnsafe(b.Value) >= 0 || strings.ContainsAny(afterHost(b.Value), "[]"):
			// Characters a URI never holds as they are (RFC 3986; [ and ]
			// only around an IPv6 host): a problem's type must be a URI
			// reference, not an IRI.
			i := uriUnsafe(b.Value)
			if i < 0 {
				i = len(b.Value) - len(afterHost(b.Value)) + strings.IndexAny(afterHost(b.Value), "[]")
			}
			bad := b.Value[i:]
			_, size := utf8.DecodeRuneInString(bad)
			r.errorf(b.Pos, "type_base %s must be a URI as written: percent-escape %s", diag.Quote(b.Value), diag.Quote(bad[:size]))
		case strings.Contains(strings.TrimSuffix(b.Value, "#"), "#"):
			r.errorf(b.Pos, "type_base %s may hold # only as its last character: the code follows it as the fragment, which cannot hold another #", diag.Quote(b.Value))
		default:
			r.m.ProblemBase = b.Value
		}
	}
	if s := pr.Status; s.Set {
		if s.Value < 400 || s.Value > 599 {
			r.errorf(s.Pos, "problem status %d must be an error status, 400 to 599", s.Value)
		} else {
			r.m.ProblemStatus = int(s.Value)
		}
	}
}

// grpc resolves the grpc section and every family's and variant's
// grpc_code.
func (r *resolver) grpc(selected map[string]diag.Pos) {
	_, on := selected["grpc"]
	r.m.GRPCLocale = DefaultGRPCLocale
	var uses []projectionUse
	if g := r.cat.GRPC; g != nil {
		if !on {
			uses = append(uses, projectionUse{g.Pos, "the grpc section", "grpc configures the grpc projection"})
		}
		if d := g.Domain; d.Set {
			if !grpcDomainRE.MatchString(d.Value) {
				r.errorf(d.Pos, "grpc domain %s must be a service name such as agents.example.com (lower-case DNS labels of 1 to 63 characters joined by dots)", diag.Quote(d.Value))
			} else {
				r.m.GRPCDomain = d.Value
			}
		}
		if l := g.Locale; l.Set {
			if !localeRE.MatchString(l.Value) {
				r.errorf(l.Pos, "grpc locale %s must be a BCP 47 language tag such as en-US", diag.Quote(l.Value))
			} else {
				r.m.GRPCLocale = l.Value
			}
		}
	} else if p, ok := selected["grpc"]; ok && !r.misspelt(r.cat.Pos, "grpc") {
		r.errorf(p, "the grpc projection needs a grpc section with domain, the service its ErrorInfo names (agents.example.com)")
	}
	code := func(s ast.String) (string, bool) {
		if !s.Set {
			return "", false
		}
		if !on {
			uses = append(uses, projectionUse{s.Pos, "grpc_code", "grpc_code says how the grpc projection reports the error"})
		}
		switch i := slices.Index(GRPCCodes, s.Value); {
		case i < 0:
			// OK, refused below, is no code to suggest.
			hint := ""
			if best := diag.Closest(strings.ToUpper(s.Value), GRPCCodes[1:], 3); best != "" {
				hint = "; did you mean " + diag.Quote(best) + "?"
			}
			r.errorf(s.Pos, "unknown gRPC code %s (want a canonical code name such as UNAVAILABLE)%s", diag.Quote(s.Value), hint)
		case i == 0:
			r.errorf(s.Pos, "grpc_code OK is not an error's; give the code a client sees for this failure")
		default:
			return s.Value, true
		}
		return "", false
	}
	warnedKey := map[diag.Pos]bool{}
	for _, f := range r.m.Families {
		f.GRPCCode = DefaultGRPCCode
		if fc, ok := code(f.Src.GRPCCode); ok {
			f.GRPCCode = fc
		}
		var retriedInVain []string
		for _, v := range f.Variants {
			v.GRPCCode = f.GRPCCode
			own := false
			if vc, ok := code(v.Src.GRPCCode); ok {
				v.GRPCCode, own = vc, true
			}
			// gRPC's canonical meaning of UNAVAILABLE is a transient
			// condition a client corrects by retrying with backoff, and
			// clients' retry policies name it: a code that is never
			// retryable tells them otherwise.
			// A variant whose retryability is unknown, or without a code
			// to name it by, has had that reported.
			if on && v.GRPCCode == grpcRetriedCode && v.NeverRetryable() && !r.retryUnknown[v] && v.Code != "" {
				if own {
					r.warnf(v.Src.GRPCCode.Pos, "gRPC code %s tells clients to retry, but %s is never retryable; give it the code of why it fails (%s)", grpcRetriedCode, diag.Quote(v.Code), grpcPermanentCodes)
				} else {
					retriedInVain = append(retriedInVain, diag.Quote(v.Code))
				}
			}
			// A variant without a code has been reported as such; it sends
			// no reason to judge.
			if reason := v.GRPCReason(); on && v.Code != "" && !grpcReasonRE.MatchString(reason) {
				r.warnf(v.Src.Code.Pos, "the gRPC ErrorInfo reason %s breaks AIP-193's form: 3 to 63 of A-Z, 0-9 and _, a letter first and no _ last", diag.Quote(reason))
			}
			// An instance that selects a sub-code sends it as the reason.
			for _, sc := range v.Subcodes {
				if reason := strings.ToUpper(sc.Code); on && !grpcReasonRE.MatchString(reason) {
					r.warnf(sc.Pos, "the gRPC ErrorInfo reason %s, which an instance of sub-code %s sends, breaks AIP-193's form: 3 to 63 of A-Z, 0-9 and _, a letter first and no _ last", diag.Quote(reason), diag.Quote(sc.Code))
				}
			}
			// The payload fields are the ErrorInfo's metadata, each under
			// its name, whose form error_details.proto gives.
			for _, f := range v.PayloadFields() {
				if !on || grpcMetadataKeyRE.MatchString(f.Name) {
					continue
				}
				pos := f.Pos
				if f.Src != nil && f.Src.Name.Set {
					pos = f.Src.Name.Pos
				}
				if !warnedKey[pos] {
					warnedKey[pos] = true
					r.warnf(pos, "the gRPC ErrorInfo metadata key %s, a payload field's name, breaks the form error_details.proto gives a key: 2 to 64 of a-z, A-Z, 0-9, - and _, a lower-case letter first", diag.Quote(f.Name))
				}
			}
		}
		if len(retriedInVain) > 0 {
			verb := "takes it, is"
			if len(retriedInVain) > 1 {
				verb = "take it, are"
			}
			r.warnf(f.Src.GRPCCode.Pos, "gRPC code %s tells clients to retry, but %s of the family, which %s never retryable; give such a variant a grpc_code of its own that says why it fails (%s)", grpcRetriedCode, firstFew(retriedInVain, 5), verb, grpcPermanentCodes)
		}
	}
	r.unselected("grpc", uses)
}

const (
	// grpcRetriedCode is the code gRPC documents as transient, the one
	// clients retry.
	grpcRetriedCode = "UNAVAILABLE"
	// grpcPermanentCodes suggests codes that say why a call failed for good.
	grpcPermanentCodes = "INVALID_ARGUMENT, NOT_FOUND, FAILED_PRECONDITION, INTERNAL, …"
)

var (
	// grpcReasonRE is the form AIP-193 gives an ErrorInfo reason:
	// [A-Z][A-Z0-9_]+[A-Z0-9], at most 63 characters.
	grpcReasonRE = regexp.MustCompile(`^[A-Z][A-Z0-9_]{1,61}[A-Z0-9]$`)
	// grpcMetadataKeyRE is the form error_details.proto gives a key of
	// ErrorInfo's metadata: [a-z][a-zA-Z0-9-_]+, at most 64 characters.
	grpcMetadataKeyRE = regexp.MustCompile(`^[a-z][a-zA-Z0-9_-]{1,63}$`)
	grpcDomainRE      = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$`)
	localeRE          = regexp.MustCompile(names.LocalePattern)
)
