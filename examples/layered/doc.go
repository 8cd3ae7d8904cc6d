// Package layered is the Go package errgen generates from the layered error
// handling of an agent framework: an LLM failure or a hook abort ends the
// turn as an AgentError; a tool failure goes back to the model as a failed
// tool result; a memory failure is logged and the turn goes on degraded; an
// event failure is dropped silently; a failing hook fails open or aborts.
// The turn_handling attribute (TurnHandlingOf) says which, for every error.
//
// docs/examples/layered.md maps each rule of the design to the catalogue,
// errors.yaml, and lists what the catalogue cannot express.
package layered

//go:generate go run ../../cmd/errgen -o . --docs ERRORS.md errors.yaml
