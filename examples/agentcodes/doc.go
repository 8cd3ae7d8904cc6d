// Package agentcodes is the Go package errgen generates from the error
// codes of a TypeScript agent framework whose layers answer with typed
// responses: the model layer's and the tool layer's codes convert into the
// agent's (AgentErrorFromLLMError, AgentErrorFromToolError), provider
// errors are classified from their
// text, status and Go conditions (Classify), and the transient ones are
// retried with exponential backoff, a provider's retry-after first
// (RetryDelay).
//
// docs/examples/agentcodes.md maps each rule of the framework to the
// catalogue, errors.yaml, and lists what the catalogue cannot express.
package agentcodes

//go:generate go run ../../cmd/errgen -o . --docs ERRORS.md errors.yaml
