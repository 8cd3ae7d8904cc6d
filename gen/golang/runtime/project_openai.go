// errgen runtime: part of errgen_projections.go in a generated package whose catalogue selects the openai projection.

package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
)

// OpenAIToolMessage returns the message that answers the tool call
// toolCallID with err in OpenAI-style chat completion APIs,
//
//	{"role":"tool","tool_call_id":ID,"content":PAYLOAD}
//
// PAYLOAD being the JSON the model reads (see MCPResult) as text: the
// message has no error flag, so the payload says it is one.
func OpenAIToolMessage(toolCallID string, err error) []byte {
	dst := append(appendString([]byte(`{"role":"tool","tool_call_id":`), toolCallID), `,"content":`...)
	return append(appendString(dst, appendModelJSON(nil, err)), '}')
}

// DecodeOpenAIToolMessage reads back what OpenAIToolMessage wrote: the tool
// call it answers, and the error, decoded as DecodePayload does (the
// message's keys too: matched exactly, each once). A message without
// "tool_call_id" (or with null), which the API requires, is refused, not
// read as answering "". The content may also
// be a list of content parts, as the API takes it, the first text part
// holding the payload.
func DecodeOpenAIToolMessage(data []byte) (string, *RemoteError, error) {
	if err := sizeError(data); err != nil {
		return "", nil, err
	}
	var role string
	var id *string
	var content json.RawMessage
	if _, err := readMembers(data, member{"role", &role}, member{"tool_call_id", &id}, member{"content", &content}); err != nil {
		return "", nil, fmt.Errorf("%s: tool message: %w", packageName, err)
	}
	if role != "tool" {
		return "", nil, errors.New(packageName + `: not a message with "role": "tool"`)
	}
	if id == nil {
		// The API requires it: a message that answers no tool call is no
		// answer, and "" would be taken for one.
		return "", nil, errors.New(packageName + `: tool message without "tool_call_id"`)
	}
	text, err := contentText(content)
	if err != nil {
		return "", nil, fmt.Errorf("%s: tool message content: %w", packageName, err)
	}
	e, err := DecodePayload([]byte(text))
	return *id, e, err
}
