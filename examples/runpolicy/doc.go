// Package runpolicy is an errgen example: the run policy of an agent
// runtime. Every failure, by source (model provider, tool, subagent,
// infrastructure), is classified as retryable, terminal or non-fatal; some
// classes are left to the deployment (configurable), a retryable failure
// is retried with exponential backoff (RetryDelay), the open circuit
// breaker is terminal with a fallback, and each budget limit says which
// state the run ends in (failed, degraded or interrupted).
//
// The package is generated from errors.yaml; runpolicy_test.go checks the
// whole classification against the generated code.
package runpolicy

//go:generate go run ../../cmd/errgen -o . --docs ERRORS.md errors.yaml
