package compat

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/errgen/errgen/gen/model"
)

// projections reports what a change does to the shapes the catalogue's
// errors leave in: a projection no longer generated (its functions are
// gone), a problem type base that moved (every type URI changes), and the
// problem status the variants without an error http_status take, once for all of
// them.
func (c *comparer) projections() {
	b, h := c.base.cat, c.head.cat
	for _, name := range b.Projections {
		if !h.Selects(name) {
			c.addFinding(Finding{Rule: ProjectionRemoved, Pos: c.catPos("projections"), BasePos: b.KeyPos("projections"),
				Message: "the catalogue no longer selects the " + name + " projection: its names (" + strings.Join(projectionNames(name), ", ") + ") are gone"})
		}
	}
	if b.Selects("grpc") && h.Selects("grpc") && b.GRPCDomain != h.GRPCDomain {
		c.addFinding(Finding{Rule: GRPCCodeChanged, Pos: c.catPos("grpc"), BasePos: b.KeyPos("grpc"),
			Message: "the gRPC ErrorInfo domain is now " + q(h.GRPCDomain) + "; in base it was " + q(b.GRPCDomain) + ": clients that match errors by reason and domain no longer match"})
	}
	if codes := c.statusByDefault; len(codes) > 0 {
		c.addFinding(Finding{Rule: ProblemStatusChanged, Pos: c.catPos("problem"), BasePos: b.KeyPos("problem"), Codes: codes,
			Message: fmt.Sprintf("the problem documents of the variants without an error status (400 to 599) in http_status now have status %d; in base %d, for %s", h.ProblemStatus, b.ProblemStatus, quoteAll(codes))})
	}
	if b.Selects("problem") && h.Selects("problem") && b.ProblemBase != h.ProblemBase {
		c.addFinding(Finding{Rule: ProblemTypeChanged, Pos: c.catPos("problem"), BasePos: b.KeyPos("problem"),
			Message: "the problem type_base is now " + q(h.ProblemBase) + "; in base it was " + q(b.ProblemBase) + ": every problem type URI changes"})
	}
}

// variantProjections reports a variant whose problem status or MCP answer
// changed, where both catalogues select the projection.
func (c *comparer) variantProjections(bv, hv *model.Variant) {
	b, h := c.base.cat, c.head.cat
	if b.Selects("problem") && h.Selects("problem") {
		bs, hs := bv.ProblemStatus(b), hv.ProblemStatus(h)
		_, bOwn := bv.OwnProblemStatus()
		_, hOwn := hv.OwnProblemStatus()
		switch {
		case bs == hs:
		case !bOwn && !hOwn:
			// Without an error status in http_status on either side, the
			// catalogue's default decided and changed: reported once for
			// every such variant (projections).
			c.statusByDefault = append(c.statusByDefault, hv.Code)
		default:
			// The variant's key decided in head (its first line when the
			// key was deleted); in base, its key or the default.
			pos, basePos := hv.KeyPos("http_status"), bv.KeyPos("http_status")
			if !bOwn {
				basePos = b.KeyPos("problem")
			}
			c.add(ProblemStatusChanged, pos, basePos, hv.Code,
				"the problem documents of %s now have status %d; in base %d", q(hv.Code), hs, bs)
		}
	}
	if b.Selects("grpc") && h.Selects("grpc") && bv.GRPCCode != hv.GRPCCode && !c.inheritsGRPCCode(bv, hv) {
		// In head, the variant's own key; when it has none, the variant:
		// it deleted its key or moved to another family, and either
		// change is there. In base, where the old code came from.
		pos, basePos := hv.KeyPos("grpc_code"), bv.KeyPos("grpc_code")
		if !bv.Src.GRPCCode.Set {
			basePos = bv.Family.KeyPos("grpc_code")
		}
		c.add(GRPCCodeChanged, pos, basePos, hv.Code, "the gRPC status of %s now has code %s; in base %s", q(hv.Code), hv.GRPCCode, bv.GRPCCode)
	}
	if b.Selects("mcp") && h.Selects("mcp") && bv.MCPError != hv.MCPError {
		c.add(MCPKindChanged, hv.KeyPos("mcp_error"), bv.KeyPos("mcp_error"), hv.Code,
			"MCP now answers %s with %s; in base with %s", q(hv.Code), mcpAnswer(hv.MCPError), mcpAnswer(bv.MCPError))
	}
}

// inheritsGRPCCode reports whether the variant takes its gRPC code from
// the same family in base and head, so that a change is its family's,
// reported once by familyGRPCCode.
func (c *comparer) inheritsGRPCCode(bv, hv *model.Variant) bool {
	return !bv.Src.GRPCCode.Set && !hv.Src.GRPCCode.Set && c.family[bv.Family] == hv.Family
}

// familyGRPCCode reports, once at the family, a change of the gRPC code
// that the family's variants without a grpc_code of their own take, with
// the codes of those variants.
func (c *comparer) familyGRPCCode(bf, hf *model.Family) {
	if !c.base.cat.Selects("grpc") || !c.head.cat.Selects("grpc") || bf.GRPCCode == hf.GRPCCode {
		return
	}
	var codes []string
	for _, hv := range hf.Variants {
		if bv := c.base.byCode[hv.Code]; bv != nil && c.inheritsGRPCCode(bv, hv) {
			codes = append(codes, hv.Code)
		}
	}
	if len(codes) == 0 {
		return
	}
	c.addFinding(Finding{Rule: GRPCCodeChanged, Pos: hf.KeyPos("grpc_code"), BasePos: bf.KeyPos("grpc_code"), Family: hf.Name, Codes: codes,
		Message: fmt.Sprintf("the gRPC status of family %s now has code %s; in base %s, for %s", q(hf.Name), hf.GRPCCode, bf.GRPCCode, quoteAll(codes))})
}

func mcpAnswer(code int) string {
	if code == 0 {
		return "a tool result"
	}
	return "JSON-RPC error " + strconv.Itoa(code)
}

func projectionNames(name string) []string {
	i := slices.IndexFunc(model.Projections, func(p model.Projection) bool { return p.Name == name })
	return model.Projections[i].Names
}
