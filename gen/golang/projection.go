package golang

import (
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/errgen/errgen/gen/golang/printer"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/oracle"
)

// ProjectionsFile holds the code of the projections the catalogue selects.
// It is written for every catalogue, holding only its package clause when
// none is selected, so that dropping a projection never leaves a stale file
// behind.
const ProjectionsFile = "errgen_projections.go"

// GRPCFile is the opt-in file generate --grpc writes: GRPCStatus and
// FromGRPCStatus, which import gRPC's status and errdetails packages, a
// dependency only gRPC users want.
const GRPCFile = "errgen_grpc.go"

//go:embed grpc.go.txt
var grpcSource string

// EmitGRPC returns errgen_grpc.go for m, which must select the grpc
// projection: the file reads its tables and its part of the runtime.
func EmitGRPC(m *model.Catalogue) ([]byte, error) {
	if !m.Selects("grpc") {
		return nil, fmt.Errorf("%s needs the grpc projection; add grpc to projections in %s", GRPCFile, m.File)
	}
	return copyFixed(grpcSource, Header(m.File), m.Package)
}

var (
	//go:embed runtime/project.go
	projectShared string
	// projectSources holds each projection's part of the runtime, by name.
	projectSources = map[string]string{
		"mcp":            projectMCP,
		"anthropic":      projectAnthropic,
		"openai":         projectOpenAI,
		"problem":        projectProblem,
		"grpc":           projectGRPC,
		"agent_response": projectEnvelope,
		"tool_output":    projectToolOutput,
	}
	//go:embed runtime/project_mcp.go
	projectMCP string
	//go:embed runtime/project_anthropic.go
	projectAnthropic string
	//go:embed runtime/project_openai.go
	projectOpenAI string
	//go:embed runtime/project_problem.go
	projectProblem string
	//go:embed runtime/project_grpc.go
	projectGRPC string
	//go:embed runtime/project_envelope.go
	projectEnvelope string
	//go:embed runtime/project_tooloutput.go
	projectToolOutput string
)

// sharedUse is what a projection's part of the runtime reaches of the part
// the projections share (runtime/project.go), directly or through that
// part itself: the names of its top-level declarations, in their order
// there, and the imports they use. sharedReach, in projection_reach.go,
// holds it for every projection; it is computed from the parsed sources
// when errgen is built (go test ./gen/golang -update rewrites it, and
// fails while it is stale), so that generating parses no Go.
type sharedUse struct {
	decls   []string
	imports []string
}

// projections returns errgen_projections.go: the runtime's parts for the
// projections m selects, in the order of model.Projections, after the
// declarations of the part they share that they reach (with the comments
// between that part's declarations, when they reach one), under one import
// block.
func projections(m *model.Catalogue, header string) ([]byte, error) {
	var b strings.Builder
	b.WriteString(header + "\n\npackage " + m.Package + "\n")
	if len(m.Projections) == 0 {
		b.WriteString("\n// The catalogue selects no projections (projections: in errors.yaml).\n")
		return []byte(b.String()), nil
	}
	var imports, bodies []string
	keep := map[string]bool{}
	for _, name := range m.Projections {
		use := sharedReach[name]
		for _, d := range use.decls {
			keep[d] = true
		}
		imports = append(imports, use.imports...)
	}
	if len(keep) > 0 {
		_, body, err := splitImports(projectShared)
		if err != nil {
			return nil, err
		}
		if body, err = keepShared(body, keep); err != nil {
			return nil, err
		}
		bodies = append(bodies, body)
	}
	for _, name := range m.Projections {
		imps, body, err := splitImports(projectSources[name])
		if err != nil {
			return nil, err
		}
		imports = append(imports, imps...)
		bodies = append(bodies, body)
	}
	slices.Sort(imports)
	imports = slices.Compact(imports)
	if len(imports) > 0 {
		b.WriteString("\nimport (\n")
		for _, imp := range imports {
			b.WriteString("\t" + imp + "\n")
		}
		b.WriteString(")\n")
	}
	for _, body := range bodies {
		b.WriteString("\n" + body)
	}
	return []byte(b.String()), nil
}

// sharedPiece is a top-level declaration of the shared part with its doc
// comment, named by the name it declares, or a comment standing between
// declarations, named "".
type sharedPiece struct {
	name, text string
}

// sharedPieces cuts body, the shared part after its import block, into its
// pieces by the layout gofmt gives it: a piece starts after an empty line,
// at a line that is neither indented nor the end of a block. A piece's
// name is the one after func, type, var or const on its first line that
// is not a comment. TestSharedPartSplits holds the shared part to this:
// each piece declares just its name, or nothing (no method, no grouped
// declaration).
func sharedPieces(body string) []sharedPiece {
	var pieces []sharedPiece
	for _, text := range strings.SplitAfter(body, "\n\n") {
		if n := len(pieces); n > 0 && (text == "" || strings.ContainsRune("\t })", rune(text[0]))) {
			pieces[n-1].text += text
			continue
		}
		pieces = append(pieces, sharedPiece{declName(text), text})
	}
	return pieces
}

// declName returns the name a piece of the shared part declares, or "" for
// a comment.
func declName(text string) string {
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "//") {
			continue
		}
		for _, keyword := range []string{"func ", "type ", "var ", "const "} {
			if rest, ok := strings.CutPrefix(line, keyword); ok {
				if i := strings.IndexAny(rest, " ([=,"); i > 0 {
					return rest[:i]
				}
			}
		}
		return ""
	}
	return ""
}

// keepShared returns body, the shared part after its import block, with
// only the declarations keep names, and the comments between
// declarations.
func keepShared(body string, keep map[string]bool) (string, error) {
	var b strings.Builder
	found := 0
	for _, p := range sharedPieces(body) {
		if p.name == "" || keep[p.name] {
			b.WriteString(p.text)
		}
		if keep[p.name] {
			found++
		}
	}
	if found != len(keep) {
		return "", fmt.Errorf("the shared part of the projections does not declare what projection_reach.go says they reach (run go test ./gen/golang -update)")
	}
	return strings.TrimRight(b.String(), "\n") + "\n", nil
}

// splitImports splits a part of the runtime, after its package clause, into
// the paths of its import block (quoted) and the rest.
func splitImports(src string) ([]string, string, error) {
	i := strings.Index(src, fixedPackage)
	if i < 0 {
		return nil, "", fmt.Errorf("a projection's source has no %q", strings.TrimSpace(fixedPackage))
	}
	rest := strings.TrimLeft(src[i+len(fixedPackage):], "\n")
	if !strings.HasPrefix(rest, "import (\n") {
		return nil, rest, nil
	}
	block, body, ok := strings.Cut(rest, ")\n")
	if !ok {
		return nil, "", fmt.Errorf("a projection's import block does not end")
	}
	var imps []string
	for _, line := range strings.Split(strings.TrimPrefix(block, "import (\n"), "\n") {
		if line = strings.TrimSpace(line); line != "" {
			imps = append(imps, line)
		}
	}
	return imps, strings.TrimLeft(body, "\n"), nil
}

// genProjectionTables writes the tables the selected projections read:
// the JSON-RPC code of every variant (mcp), and every variant's problem
// title and status and the type base (problem).
func genProjectionTables(f *printer.File, m *model.Catalogue) {
	if m.Selects("mcp") {
		elems := make([]string, len(m.ByNum))
		for i, v := range m.ByNum {
			elems[i] = strconv.Itoa(v.MCPError)
		}
		f.Doc("mcpErrors holds the JSON-RPC error code an MCP server answers each variant", "with (mcp_error), in the order of infos; 0 for a tool result.")
		f.Var("mcpErrors", "[...]int", elems)
	}
	if m.Selects("problem") {
		f.Const(printer.Spec{Doc: []string{"problemTypeBase starts the type URI of every problem document; the code follows."},
			Name: "problemTypeBase", Value: printer.Quote(m.ProblemBase)})
		titles, statuses := make([]string, len(m.ByNum)), make([]string, len(m.ByNum))
		for i, v := range m.ByNum {
			titles[i], statuses[i] = printer.Quote(v.Title()), strconv.Itoa(v.ProblemStatus(m))
		}
		f.Doc("problemTitles holds the title of every variant's problem documents, in the", "order of infos.")
		f.Var("problemTitles", "[...]string", titles)
		f.Doc("problemStatuses holds the status of every variant's problem documents, in", "the order of infos.")
		f.Var("problemStatuses", "[...]int", statuses)
	}
	if m.Selects("grpc") {
		f.Consts([]printer.Spec{
			{Doc: []string{"grpcDomain is the domain of every ErrorInfo, grpcLocale the locale of every", "LocalizedMessage."},
				Name: "grpcDomain", Value: printer.Quote(m.GRPCDomain)},
			{Name: "grpcLocale", Value: printer.Quote(m.GRPCLocale)},
			{Doc: []string{"grpcReasonIsCode says the catalogue's codes are spelled as ErrorInfo reasons", "are (upper_snake): the reason of a code it does not know is that code as it", "stands, not its lower case."},
				Name: "grpcReasonIsCode", Value: strconv.FormatBool(m.GRPCReasonIsCode())},
		})
		codes := make([]string, len(m.ByNum))
		for i, v := range m.ByNum {
			codes[i] = strconv.Itoa(v.GRPCCodeNum())
		}
		f.Doc("grpcCodes holds the canonical gRPC code of every variant, in the order of", "infos.")
		f.Var("grpcCodes", "[...]int", codes)
	}
}

// goldenCalls are the statements that put e into each projection for the
// golden files, by projection name, with the arguments the oracle's
// golden files assume.
var goldenCalls = map[string]string{
	"mcp":            `out["mcp"], _ = MCPResult(e, true)`,
	"anthropic":      `out["anthropic"] = AnthropicToolResult(` + printer.Quote(oracle.GoldenToolUseID) + `, e)`,
	"openai":         `out["openai"] = OpenAIToolMessage(` + printer.Quote(oracle.GoldenToolCallID) + `, e)`,
	"problem":        `out["problem"], _ = ProblemJSON(e, "")`,
	"grpc":           `out["grpc"] = GRPCStatusJSON(e)`,
	"agent_response": `out["agent_response"] = AgentResponse(e)`,
	"tool_output":    `out["tool_output"] = ToolOutput(e)`,
}

// genGoldenProjections writes errgenProjections into errgen_test.go: e in
// every projection the catalogue selects, which the golden-file harness
// compares with the oracle's.
func genGoldenProjections(f *printer.File, m *model.Catalogue) {
	doc := []string{"errgenProjections returns e in every projection the catalogue selects, by", "name, for its golden file; nil when it selects none."}
	header := "func errgenProjections(e variant) map[string][]byte"
	if len(m.Projections) == 0 {
		f.Funcs([]printer.Func{{Doc: doc, Header: header, Body: "return nil"}})
		return
	}
	b := f.Func(doc, header)
	b.Line("out := map[string][]byte{}")
	for _, name := range m.Projections {
		b.Line(goldenCalls[name])
	}
	b.Line("return out")
	b.End()
}

// genImportedCauses writes, for a catalogue with causes of families of
// other catalogues, the functions the runtime asks about them: decoding,
// each through its own package's DecodePayload (whose Raw, without the
// sensitive fields that arrived, is passed on; a code that package does
// not know gives its *RemoteError, which the runtime holds outside the
// field; what it refuses is refused with its error), and the retry-after,
// through each package's RetryAfterOf.
//
//	func init() {
//		decodeImported = func(t reflect.Type, raw []byte) (error, []byte, bool, error) {
//			switch t {
//			case reflect.TypeFor[gateway.ProviderError]():
//				...
//		}
//		retryAfterImported = func(err error) (time.Duration, bool) {
//			switch err.(type) {
//			case gateway.Error:
//				return gateway.RetryAfterOf(err)
//				...
func genImportedCauses(f *printer.File, m *model.Catalogue) {
	var types []model.Type
	seen := map[string]bool{}
	for _, v := range m.Variants {
		if c := v.Cause; c != nil && c.Type.Import != "" && !seen[c.Type.Name] {
			seen[c.Type.Name] = true
			types = append(types, c.Type)
		}
	}
	if len(types) == 0 {
		return
	}
	// Imports are named before the function's body is open.
	reflectPkg := f.Import("reflect")
	pkgs := make([]string, len(types))
	for i, t := range types {
		pkgs[i] = f.ImportAs(t.Import, t.ImportName())
	}
	timePkg := f.Import("time")
	b := f.Func([]string{"The causes that are families of other catalogues decode through their own", "packages, and those packages tell their errors' retry-after."}, "func init()")
	b.Open("decodeImported = func(t " + reflectPkg + ".Type, raw []byte) (error, []byte, bool, error)")
	b.Open("switch t")
	for i, t := range types {
		pkg := pkgs[i]
		typ := pkg + "." + t.Family.Name
		b.Case("case " + reflectPkg + ".TypeFor[" + typ + "]():")
		b.Line("r, err := " + pkg + ".DecodePayload(raw)")
		b.Open("if err != nil")
		b.Line("return nil, nil, false, err")
		b.Close()
		b.Open("if r.Unwrap() == nil")
		b.Line("// A code " + pkg + " does not know: no " + t.Family.Name + " stands for it.")
		b.Line("return r, r.Raw, true, nil")
		b.Close()
		b.Line("c, ok := r.Unwrap().(" + typ + ")")
		b.Line("return c, r.Raw, ok, nil")
	}
	b.Close()
	b.Line("return nil, nil, false, nil")
	b.Close()
	b.Open("retryAfterImported = func(err error) (" + timePkg + ".Duration, bool)")
	b.Open("switch err.(type)")
	asked := map[string]bool{}
	for _, pkg := range pkgs {
		if asked[pkg] {
			continue
		}
		asked[pkg] = true
		b.Case("case " + pkg + ".Error:")
		b.Line("return " + pkg + ".RetryAfterOf(err)")
	}
	b.Close()
	b.Line("return 0, false")
	b.Close()
	b.End()
}
