// Package jsonschema checks JSON documents against the published schemas
// errgen's tests validate its projections with. It reads the keywords
// those schemas use and refuses any other, so it never passes a document
// against a schema it cannot read: $ref into $defs, type, const, enum,
// properties, required, additionalProperties, items, anyOf, oneOf, allOf,
// minimum and maximum; annotations (description, title, format, ...) are
// ignored.
package jsonschema

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"
)

// Validate checks data against the $defs entry def of the schema file and
// returns what does not hold, one line per problem naming its path; an
// error when the schema or data cannot be read, or the schema uses a
// keyword this package does not know.
func Validate(file, def string, data []byte) ([]string, error) {
	raw, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	defs, _ := root["$defs"].(map[string]any)
	s, ok := defs[def].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s has no $defs.%s", file, def)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("not JSON: %w", err)
	}
	c := &checker{defs: defs}
	problems := c.check(s, v, def)
	return problems, c.err
}

type checker struct {
	defs map[string]any
	err  error
}

func (c *checker) check(s map[string]any, value any, path string) []string {
	var bad []string
	fail := func(format string, args ...any) { bad = append(bad, path+": "+fmt.Sprintf(format, args...)) }
	for key, kv := range s {
		switch key {
		case "description", "$comment", "title", "format", "default", "examples", "$schema":
		case "$ref":
			name := strings.TrimPrefix(kv.(string), "#/$defs/")
			sub, ok := c.defs[name].(map[string]any)
			if !ok {
				c.err = fmt.Errorf("%s: $ref %v resolves to nothing", path, kv)
				continue
			}
			bad = append(bad, c.check(sub, value, path)...)
		case "type":
			types := []any{kv}
			if list, ok := kv.([]any); ok {
				types = list
			}
			if !slices.ContainsFunc(types, func(ty any) bool { return isType(value, ty.(string)) }) {
				fail("is not of type %v", kv)
			}
		case "const":
			if !reflect.DeepEqual(value, kv) {
				fail("is %v, not %v", value, kv)
			}
		case "enum":
			if !slices.ContainsFunc(kv.([]any), func(e any) bool { return reflect.DeepEqual(e, value) }) {
				fail("%v is not one of %v", value, kv)
			}
		case "minimum", "maximum":
			if n, ok := value.(float64); ok && (key == "minimum" && n < kv.(float64) || key == "maximum" && n > kv.(float64)) {
				fail("%v is out of range (%s %v)", n, key, kv)
			}
		case "required":
			if obj, ok := value.(map[string]any); ok {
				for _, r := range kv.([]any) {
					if _, ok := obj[r.(string)]; !ok {
						fail("has no %q", r)
					}
				}
			}
		case "properties":
			obj, _ := value.(map[string]any)
			for name, sub := range kv.(map[string]any) {
				if v, ok := obj[name]; ok {
					bad = append(bad, c.check(sub.(map[string]any), v, path+"."+name)...)
				}
			}
		case "additionalProperties":
			obj, _ := value.(map[string]any)
			props, _ := s["properties"].(map[string]any)
			for name, v := range obj {
				if _, known := props[name]; known {
					continue
				}
				switch ap := kv.(type) {
				case bool:
					if !ap {
						fail("has %q, which the schema does not allow", name)
					}
				case map[string]any:
					bad = append(bad, c.check(ap, v, path+"."+name)...)
				}
			}
		case "items":
			list, _ := value.([]any)
			for i, v := range list {
				bad = append(bad, c.check(kv.(map[string]any), v, fmt.Sprintf("%s[%d]", path, i))...)
			}
		case "anyOf", "oneOf":
			n := 0
			for _, sub := range kv.([]any) {
				if len(c.check(sub.(map[string]any), value, path)) == 0 {
					n++
				}
			}
			if n == 0 || key == "oneOf" && n > 1 {
				fail("matches %d of the %s schemas", n, key)
			}
		case "allOf":
			for _, sub := range kv.([]any) {
				bad = append(bad, c.check(sub.(map[string]any), value, path)...)
			}
		default:
			c.err = fmt.Errorf("%s: the keyword %q is not one this package reads", path, key)
		}
	}
	return bad
}

func isType(v any, ty string) bool {
	switch ty {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	case "number":
		_, ok := v.(float64)
		return ok
	case "integer":
		n, ok := v.(float64)
		return ok && n == float64(int64(n))
	}
	return false
}
