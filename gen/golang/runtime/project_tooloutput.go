// errgen runtime: part of errgen_projections.go in a generated package whose catalogue selects the tool_output projection.

package runtime

// ToolOutput returns err as the output of a failed tool that Rust agent
// runtimes hand to the model, {"error":MESSAGE}, MESSAGE being the error's
// message. The shape carries no code, so nothing decodes it back.
func ToolOutput(err error) []byte {
	return append(appendString([]byte(`{"error":`), scrub(errorText(err))), '}')
}
