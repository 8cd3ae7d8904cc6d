package runtime

import (
	"errors"
	"testing"
)

// A shape that leaves out the field that decides whether the error is
// retryable (it is no payload field, so no LLM payload or projection
// carries it) still says so through its "retryable" (a gRPC status
// through its RetryInfo): the decoded variant answers as the sender's
// did, and so does the error relayed in a shape that carries no
// "retryable" of its own (an agent response).
func TestDecodedRetryableFieldFollowsTheSender(t *testing.T) {
	for _, transient := range []bool{true, false} {
		sent := &ToolFlaky{Tool: "browser", Transient: transient}
		decoders := map[string]func() (*RemoteError, error){
			"payload": func() (*RemoteError, error) { return DecodePayload(sent.AppendLLMPayload(nil)) },
			"mcp": func() (*RemoteError, error) {
				b, _ := MCPResult(sent, true)
				return DecodeMCPResult(b)
			},
			"anthropic": func() (*RemoteError, error) {
				_, r, err := DecodeAnthropicToolResult(AnthropicToolResult("t", sent))
				return r, err
			},
			"openai": func() (*RemoteError, error) {
				_, r, err := DecodeOpenAIToolMessage(OpenAIToolMessage("t", sent))
				return r, err
			},
			"problem": func() (*RemoteError, error) {
				b, _ := ProblemJSON(sent, "")
				return DecodeProblem(b)
			},
			"grpc": func() (*RemoteError, error) { return DecodeGRPCStatusJSON(GRPCStatusJSON(sent)) },
		}
		for name, decode := range decoders {
			r, err := decode()
			if err != nil {
				t.Fatalf("%s, transient %t: %v", name, transient, err)
			}
			var v *ToolFlaky
			if !errors.As(r, &v) || v.Transient != transient || v.Retryable() != transient || r.Retryable() != transient {
				t.Errorf("%s, transient %t: decoded %#v, Retryable %t", name, transient, v, r.Retryable())
			}
			relayed, err := DecodeAgentResponse(AgentResponse(r))
			if err != nil {
				t.Fatalf("%s, transient %t: agent response: %v", name, transient, err)
			}
			if IsRetryable(relayed) != transient {
				t.Errorf("%s, transient %t: relayed as an agent response, IsRetryable = %t", name, transient, IsRetryable(relayed))
			}
		}
	}
}
