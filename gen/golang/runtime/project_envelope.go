// errgen runtime: part of errgen_projections.go in a generated package whose catalogue selects the agent_response projection.

package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
)

// AgentResponse returns err in the error envelope of TypeScript agent
// frameworks' responses,
//
//	{"success":false,"error":CODE,"message":MESSAGE,"metadata":{...}}
//
// MESSAGE being the error's message and metadata its fields as its wire
// form has them, left out when it has none set. An error outside the
// catalogue has no code to give and is the catalogue's fallback: its code
// is "" and its message its text.
func AgentResponse(err error) []byte {
	c, v, i := projectionOf(err)
	var code Code
	text := errorText(err)
	if c != nil {
		code, text = c.Code(), errorText(c)
	}
	dst := appendString([]byte(`{"success":false,"error":`), scrubName("code", string(code)))
	dst = appendString(append(dst, `,"message":`...), scrub(text))
	if c != nil {
		mark := len(dst)
		dst = append(dst, `,"metadata":{`...)
		n := len(dst)
		if dst = appendProjectedFields(dst, c, v, i, false, true); len(dst) > n {
			dst = append(dst, '}')
		} else {
			dst = dst[:mark]
		}
	}
	return append(dst, '}')
}

// DecodeAgentResponse reads back what AgentResponse wrote: the code, the
// message and the metadata's fields, decoded as DecodePayload does.
func DecodeAgentResponse(data []byte) (*RemoteError, error) {
	if err := sizeError(data); err != nil {
		return nil, err
	}
	var success *bool
	var code Code
	var message string
	env, err := readMembers(data, member{"success", &success}, member{"error", &code}, member{"message", &message})
	if err != nil {
		return nil, fmt.Errorf("%s: agent response: %w", packageName, err)
	}
	if success == nil || *success {
		return nil, errors.New(packageName + `: not an error response ("success": false)`)
	}
	members, order := map[string]json.RawMessage{}, []string(nil)
	if metadata := env["metadata"]; len(metadata) > 0 && string(metadata) != "null" {
		if members, order, err = readObject(metadata); err != nil {
			return nil, fmt.Errorf("%s: agent response metadata: %w", packageName, err)
		}
	}
	return decodeProjected(code, nil, message, members, order)
}
