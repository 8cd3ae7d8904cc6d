// errgen runtime: part of errgen_projections.go in a generated package whose catalogue selects the mcp projection.

package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// MCPKind says which answer an MCP server gives for a failed tool call.
type MCPKind int

const (
	// MCPToolResult is a tool result with isError set: the model reads
	// the error and can correct its call.
	MCPToolResult MCPKind = iota
	// MCPProtocolError is the error of a JSON-RPC response: the protocol
	// wants errors in finding or calling a tool (an unknown tool, a
	// malformed request) answered so, not as a tool result. A variant
	// with mcp_error is answered so.
	MCPProtocolError
)

// MCPResult returns what an MCP server (revision 2025-11-25) answers for a
// tool call that failed with err, and which kind of answer it is. A tool
// result is a CallToolResult,
//
//	{"content":[{"type":"text","text":PAYLOAD}],"isError":true}
//
// PAYLOAD being the JSON the model reads (the LLM payload; the wire form for
// a family without a payload type; {"error":TEXT} for an error outside the
// catalogue) as text, and, with structured set, the same object as
// "structuredContent" after "content". A variant with mcp_error is answered
// with the error object of a JSON-RPC response instead,
//
//	{"code":MCP_ERROR,"message":MESSAGE,"data":PAYLOAD}
//
// MESSAGE being the error's message.
func MCPResult(err error, structured bool) ([]byte, MCPKind) {
	payload := appendModelJSON(nil, err)
	if c, _, i := projectionOf(err); c != nil && i >= 0 && mcpErrors[i] != 0 {
		dst := append([]byte(`{"code":`), strconv.Itoa(mcpErrors[i])...)
		dst = append(appendString(append(dst, `,"message":`...), scrub(errorText(c))), `,"data":`...)
		return append(append(dst, payload...), '}'), MCPProtocolError
	}
	dst := append([]byte(`{"content":[{"type":"text","text":`), appendString(nil, payload)...)
	dst = append(dst, "}]"...)
	if structured {
		dst = append(append(dst, `,"structuredContent":`...), payload...)
	}
	return append(dst, `,"isError":true}`...), MCPToolResult
}

// DecodeMCPResult reads back what MCPResult wrote, either kind: the
// payload in the first text content of a tool result with "isError":
// true (in its structuredContent when its content has no text: the
// protocol asks a tool for the text only for backwards compatibility), or
// in the data of a JSON-RPC error object (with its code and message),
// decoded as DecodePayload does (the result's and its content's keys too:
// matched exactly, each once). A tool result without "isError": true is a
// success, not an error, and is refused, as is an error object without
// data, which carries no payload; one with "isError": true is a tool
// result, whatever members of its own it has beside ("data" too).
func DecodeMCPResult(data []byte) (*RemoteError, error) {
	if err := sizeError(data); err != nil {
		return nil, err
	}
	var isError bool
	members, err := readMembers(data, member{"isError", &isError})
	if err != nil {
		return nil, fmt.Errorf("%s: MCP result: %w", packageName, err)
	}
	if !isError {
		// An error object, or no error at all. A tool result with
		// "isError": true is neither, whatever other members it has (a
		// result may have its own, "data" too): its code, message and
		// data are not read.
		raw, hasData := members["data"]
		var code json.RawMessage
		var message *string
		if err := setMembers(members, member{"code", &code}, member{"message", &message}); err != nil {
			return nil, fmt.Errorf("%s: MCP result: %w", packageName, err)
		}
		if string(code) == "null" {
			code = nil
		} else if _, ok := wholeNumber(string(code), strconv.IntSize); code != nil && !ok {
			// JSON-RPC: an integer, which a number of a whole value is
			// (-32602.0), but no string.
			return nil, fmt.Errorf("%s: MCP result: \"code\" %s is not an integer", packageName, code)
		}
		switch {
		case hasData && (code == nil || message == nil):
			return nil, errors.New(packageName + `: MCP error object without its "code" and "message"`)
		case hasData:
			return DecodePayload(raw)
		case code != nil && message != nil:
			return nil, errors.New(packageName + `: MCP error object without "data" carries no payload`)
		}
		return nil, errors.New(packageName + `: MCP tool result without "isError": true is not an error`)
	}
	raw, ok := members["content"]
	if !ok || string(raw) == "null" {
		// CallToolResult requires it, the structured content beside.
		return nil, errors.New(packageName + `: MCP tool result without "content"`)
	}
	content, err := readList(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: MCP result content: %w", packageName, err)
	}
	text, ok, err := firstText(content)
	if err != nil {
		return nil, fmt.Errorf("%s: MCP result content: %w", packageName, err)
	}
	if ok {
		return DecodePayload([]byte(text))
	}
	if raw := members["structuredContent"]; len(raw) > 0 && string(raw) != "null" {
		return DecodePayload(raw)
	}
	return nil, errors.New(packageName + ": MCP result has no text content and no structuredContent")
}
