// Package orchestration is an errgen example: the layered errors of an
// agent framework, one family per protocol. Provider and tool errors
// (layer 1) are mapped by operators into operator errors, which propagate
// into orchestration and environment errors (layer 0); state errors stand
// beside them. A wrapper is retryable exactly when its cause is, so an
// orchestrator decides on a retry, and how long to wait, from the
// outermost error alone. The conversions between the layers
// (OperatorErrorFromProviderError, OperatorErrorFromToolError,
// OrchErrorFromOperatorError), the retry middleware's policy (RetryDelay)
// and the classification of a provider call's foreign error (Classify)
// are generated too.
//
// The package is generated from errors.yaml; orchestration_test.go checks
// the layering against the generated code.
package orchestration

//go:generate go run ../../cmd/errgen -o . --docs ERRORS.md errors.yaml
