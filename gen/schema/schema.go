// Package schema holds the JSON Schema of the catalogue format, version 1.
// Editors read it to complete and check errors.yaml as it is typed; errgen
// itself checks catalogues with the strict loader and the checker, which
// also enforce what a schema cannot say.
package schema

import _ "embed"

//go:embed schema.json
var schemaJSON string

// JSON returns the JSON Schema (draft 2020-12) of catalogue format version
// 1. Each call returns a fresh copy.
func JSON() []byte { return []byte(schemaJSON) }
