// Package agenterr is the Go package errgen generates from the repository's
// reference catalogue, errors.yaml: the errors of an agent framework, from
// tool failures the model reads and corrects to provider, operator and turn
// errors. It is both an example of errgen's output and a test of it: its
// generated tests run with the rest of the repository's.
package agenterr

//go:generate go run ../../cmd/errgen -o . --docs ERRORS.md ../../errors.yaml
