// Package toolruntime is the Go package errgen generates from the error
// strategy of a Rust tool runtime: a ToolError whose JSON payload the model
// reads to correct itself (codes 1001-1008 and 1099, with their categories,
// retry and suppression rules, suppression keys, and a capability variant
// whose instances carry their own code and hints), and the agent's
// top-level AgentError, each variant with its recovery strategy.
//
// docs/examples/toolruntime.md maps each rule of the runtime to the
// catalogue, errors.yaml, and lists what the catalogue cannot express.
package toolruntime

//go:generate go run ../../cmd/errgen -o . --docs ERRORS.md errors.yaml
