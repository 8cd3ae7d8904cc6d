package model

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
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
}

// Projections lists every projection, in the order the generated file
// holds them.
var Projections = []Projection{
	{"mcp", "An MCP tool result (CallToolResult, revision 2025-11-25) with isError, or a JSON-RPC error for a variant with mcp_error.",
		[]string{"MCPResult", "DecodeMCPResult", "MCPKind", "MCPToolResult", "MCPProtocolError"}},
	{"anthropic", "A tool_result content block with is_error, as the Anthropic Messages API takes it.",
		[]string{"AnthropicToolResult", "DecodeAnthropicToolResult"}},
	{"openai", "A tool message (role tool), as OpenAI-style chat completion APIs take it.",
		[]string{"OpenAIToolMessage", "DecodeOpenAIToolMessage"}},
	{"problem", "An RFC 9457 problem details document (application/problem+json).",
		[]string{"ProblemJSON", "WriteProblem", "DecodeProblem", "ProblemContentType"}},
	{"grpc", "A google.rpc.Status in its JSON mapping, with ErrorInfo, RetryInfo and LocalizedMessage details (AIP-193); generate --grpc adds the same as a *status.Status.",
		[]string{"GRPCStatusJSON", "DecodeGRPCStatusJSON", "GRPCStatus", "FromGRPCStatus"}},
	{"agent_response", `The error envelope {"success": false, "error": CODE, "message", "metadata"} of TypeScript agent frameworks.`,
		[]string{"AgentResponse", "DecodeAgentResponse"}},
	{"tool_output", `A tool's output {"error": "..."}, as Rust agent runtimes hand a failed tool's result to the model.`,
		[]string{"ToolOutput"}},
}

// ProjectionNames are the names projections: takes.
var ProjectionNames = func() []string {
	out := make([]string, len(Projections))
	for i, p := range Projections {
		out[i] = p.Name
	}
	return out
}()

// ProblemMembers are the members RFC 9457 defines; a problem document
// carries the payload fields beside them, so none may be named like one.
var ProblemMembers = []string{"type", "title", "status", "detail", "instance"}

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

// DefaultProblemStatus is the status of a problem document for a variant
// without http_status, unless the catalogue's problem section says
// otherwise.
const DefaultProblemStatus = 500

// Selects reports whether the catalogue generates the projection name.
func (c *Catalogue) Selects(name string) bool { return slices.Contains(c.Projections, name) }

// ProblemType is the type URI of v's problem documents: the catalogue's
// type_base followed by the code, so the reference docs at that address
// document the type.
func (v *Variant) ProblemType(c *Catalogue) string { return c.ProblemBase + v.Code }

// ProblemStatus is the status of v's problem documents: its first
// http_status (the lowest of a range), else the catalogue's default.
func (v *Variant) ProblemStatus(c *Catalogue) int {
	if len(v.HTTP) > 0 {
		return v.HTTP[0].Lo
	}
	return c.ProblemStatus
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
		out = append(out, "gRPC status "+v.GRPCCode+" ("+strconv.Itoa(v.GRPCCodeNum())+"), reason "+v.GRPCReason())
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
			}
		}
	}
	r.grpc(seen)
	for _, v := range r.m.Variants {
		e := v.Src.MCPError
		if !e.Set {
			continue
		}
		switch {
		case !r.m.Selects("mcp") && !r.selectionUnknown:
			r.errorf(e.Pos, "mcp_error says how the mcp projection answers, and the catalogue does not select it; add mcp to projections")
		case e.Value == 0:
			r.errorf(e.Pos, "mcp_error must be a JSON-RPC error code, not 0 (-32602 is invalid params, -32601 method not found)")
		default:
			v.MCPError = int(e.Value)
		}
	}
}

func (r *resolver) problem(pr *ast.Problem, selected map[string]diag.Pos) {
	if _, ok := selected["problem"]; !ok && !r.selectionUnknown {
		r.errorf(pr.Pos, "problem configures the problem projection, and the catalogue does not select it; add problem to projections")
	}
	if b := pr.TypeBase; b.Set {
		u, err := url.Parse(b.Value)
		switch {
		case err != nil || u.Scheme != "https" && u.Scheme != "http" || u.Host == "":
			r.errorf(b.Pos, "type_base %s must be an absolute http or https URI", diag.Quote(b.Value))
		case !strings.HasSuffix(b.Value, "/") && !strings.HasSuffix(b.Value, "#"):
			r.errorf(b.Pos, "type_base %s must end in / or #, so that the code follows it as a path segment or fragment", diag.Quote(b.Value))
		case u.RawQuery != "" || u.User != nil:
			r.errorf(b.Pos, "type_base %s must have no query and no userinfo", diag.Quote(b.Value))
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
	if g := r.cat.GRPC; g != nil {
		if !on && !r.selectionUnknown {
			r.errorf(g.Pos, "grpc configures the grpc projection, and the catalogue does not select it; add grpc to projections")
		}
		if d := g.Domain; d.Set {
			if !grpcDomainRE.MatchString(d.Value) {
				r.errorf(d.Pos, "grpc domain %s must be a service name such as agents.example.com (lower-case DNS labels joined by dots)", diag.Quote(d.Value))
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
		switch i := slices.Index(GRPCCodes, s.Value); {
		case !on && !r.selectionUnknown:
			r.errorf(s.Pos, "grpc_code says how the grpc projection reports the error, and the catalogue does not select it; add grpc to projections")
		case i < 0:
			hint := ""
			if best := diag.Closest(strings.ToUpper(s.Value), GRPCCodes, 3); best != "" {
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
	for _, f := range r.m.Families {
		f.GRPCCode = DefaultGRPCCode
		if fc, ok := code(f.Src.GRPCCode); ok {
			f.GRPCCode = fc
		}
		for _, v := range f.Variants {
			v.GRPCCode = f.GRPCCode
			if vc, ok := code(v.Src.GRPCCode); ok {
				v.GRPCCode = vc
			}
		}
	}
}

var (
	grpcDomainRE = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$`)
	localeRE     = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$`)
)
