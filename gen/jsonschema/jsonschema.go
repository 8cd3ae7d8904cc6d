// Package jsonschema checks JSON documents against the published schemas
// errgen's tests validate its outputs with (the MCP schema, the problem
// details schema written from RFC 9457, errgen's export schema). It is a
// thin helper over github.com/santhosh-tekuri/jsonschema, a full draft
// 2020-12 validator, for tests only.
package jsonschema

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	js "github.com/santhosh-tekuri/jsonschema/v6"
)

// Validate checks data against the $defs entry def of the schema file (the
// whole schema when def is "") and returns what does not hold, one line
// per problem; an error when the schema or the data cannot be read.
func Validate(file, def string, data []byte) ([]string, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	doc, err := js.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	id := "file:///" + filepath.ToSlash(filepath.Base(file))
	c := js.NewCompiler()
	if err := c.AddResource(id, doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	ref := id
	if def != "" {
		ref += "#/$defs/" + def
	}
	sch, err := c.Compile(ref)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	v, err := js.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	if err := sch.Validate(v); err != nil {
		return []string{err.Error()}, nil
	}
	return nil, nil
}
