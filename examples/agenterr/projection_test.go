package agenterr

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/errgen/errgen/gen/jsonschema"
)

// specs holds the published schemas the projections are validated
// against (their sources are in its README).
var specs = filepath.Join("..", "..", "gen", "golang", "runtime", "testdata", "specs")

// TestReferenceProjections: every variant of the reference catalogue,
// through every projection it selects, is valid against the published
// schema (MCP's CallToolResult or JSON-RPC Error, the problem-details
// schema written from RFC 9457) and decodes back to the same code, num and
// fields.
func TestReferenceProjections(t *testing.T) {
	for _, e := range errgenExamples() {
		mcp, kind := MCPResult(e, true)
		mcpDef := "CallToolResult"
		if kind == MCPProtocolError {
			mcpDef = "Error"
		}
		problem, _ := ProblemJSON(e, "/runs/1")
		i, _ := lookupCode(e.Code())
		payloadWire := infos[i].PayloadType == ""
		for _, p := range []struct {
			name, schema, def string
			data              []byte
			decode            func([]byte) (*RemoteError, error)
			wire              bool
		}{
			{"mcp", "mcp-2025-11-25.schema.json", mcpDef, mcp, DecodeMCPResult, payloadWire},
			{"anthropic", "", "", AnthropicToolResult("toolu_1", e), func(b []byte) (*RemoteError, error) {
				_, r, err := DecodeAnthropicToolResult(b)
				return r, err
			}, payloadWire},
			{"openai", "", "", OpenAIToolMessage("call_1", e), func(b []byte) (*RemoteError, error) {
				_, r, err := DecodeOpenAIToolMessage(b)
				return r, err
			}, payloadWire},
			{"problem", "problem-details.schema.json", "Problem", problem, DecodeProblem, false},
			{"grpc", "", "", GRPCStatusJSON(e), DecodeGRPCStatusJSON, false},
			{"agent_response", "", "", AgentResponse(e), DecodeAgentResponse, true},
		} {
			if p.schema != "" {
				problems, err := jsonschema.Validate(filepath.Join(specs, p.schema), p.def, p.data)
				if err != nil {
					t.Fatal(err)
				}
				for _, pr := range problems {
					t.Errorf("%s %s: %s", e.Code(), p.name, pr)
				}
			}
			d, err := p.decode(p.data)
			if err != nil {
				t.Errorf("%s %s: decode: %v\n%s", e.Code(), p.name, err, p.data)
				continue
			}
			var got variant
			if !errors.As(d, &got) || reflect.TypeOf(got) != reflect.TypeOf(e) || got.Code() != e.Code() || got.CodeNum() != e.CodeNum() {
				t.Errorf("%s %s: decoded %v", e.Code(), p.name, d)
				continue
			}
			if have, want := appendFields(nil, got, i, false, p.wire, 0, nil, appendKey), appendFields(nil, e, i, false, p.wire, 0, nil, appendKey); !bytes.Equal(have, want) {
				t.Errorf("%s %s: fields after the round trip:\n got %s\nwant %s", e.Code(), p.name, have, want)
			}
		}
	}
}
