// errgen runtime: part of errgen_projections.go in a generated package whose catalogue selects the anthropic projection.

package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
)

// AnthropicToolResult returns the content block that answers the tool use
// toolUseID with err in the Anthropic Messages API,
//
//	{"type":"tool_result","tool_use_id":ID,"content":PAYLOAD,"is_error":true}
//
// PAYLOAD being the JSON the model reads (see MCPResult) as text.
func AnthropicToolResult(toolUseID string, err error) []byte {
	dst := append(appendString([]byte(`{"type":"tool_result","tool_use_id":`), toolUseID), `,"content":`...)
	dst = appendString(dst, appendModelJSON(nil, err))
	return append(dst, `,"is_error":true}`...)
}

// DecodeAnthropicToolResult reads back what AnthropicToolResult wrote: the
// tool use it answers, and the error, decoded as DecodePayload does (the
// block's keys too: matched exactly, each once). A block without
// "tool_use_id" (or with null), which the API requires, is refused, not
// read as answering "". The content may also be
// a list of content blocks, as the API takes it, the first text block
// holding the payload.
func DecodeAnthropicToolResult(data []byte) (string, *RemoteError, error) {
	if err := sizeError(data); err != nil {
		return "", nil, err
	}
	var typ string
	var id *string
	var content json.RawMessage
	var isError bool
	if _, err := readMembers(data, member{"type", &typ}, member{"tool_use_id", &id}, member{"content", &content}, member{"is_error", &isError}); err != nil {
		return "", nil, fmt.Errorf("%s: tool_result block: %w", packageName, err)
	}
	if typ != "tool_result" || !isError {
		return "", nil, errors.New(packageName + `: not a tool_result block with "is_error": true`)
	}
	if id == nil {
		// The API requires it: a block that answers no tool use is no
		// answer, and "" would be taken for one.
		return "", nil, errors.New(packageName + `: tool_result block without "tool_use_id"`)
	}
	text, err := contentText(content)
	if err != nil {
		return "", nil, fmt.Errorf("%s: tool_result block content: %w", packageName, err)
	}
	e, err := DecodePayload([]byte(text))
	return *id, e, err
}
