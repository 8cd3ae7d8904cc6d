// errgen runtime: part of errgen_projections.go in a generated package whose catalogue selects the agent_response projection.

package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
)

// AgentResponse returns err in the error envelope of TypeScript agent
// frameworks' responses,
//
//	{"success":false,"error":CODE,"message":MESSAGE,"metadata":{...}}
//
// MESSAGE being the error's message and metadata its fields as its wire
// form has them, each under its name in lowerCamelCase (status_code is
// statusCode), as the framework's metadata type spells its members; a
// cause's object inside is in its wire form. metadata is left out when
// the error has no field set. An error outside the catalogue has no code
// to give: its error is "unknown", the class ClassOf gives it (as a gRPC
// status gives it UNKNOWN), never an empty code, and its message is its
// text, as the other projections give it.
func AgentResponse(err error) []byte {
	c, v, i := projectionOf(err)
	code := Code(ClassUnknown.String())
	text := errorText(err)
	if c != nil {
		code, text = c.Code(), errorText(c)
	}
	dst := appendString([]byte(`{"success":false,"error":`), scrubName("code", string(code)))
	dst = appendString(append(dst, `,"message":`...), scrub(text))
	if c != nil {
		mark := len(dst)
		dst = append(dst, `,"metadata":{`...)
		n := len(dst)
		if dst = appendMetadata(dst, c, v, i); len(dst) > n {
			dst = append(dst, '}')
		} else {
			dst = dst[:mark]
		}
	}
	return append(dst, '}')
}

// appendMetadata appends the fields of c (as projectionOf returns it, with
// v and i) as the members of an agent response's metadata: every field of
// its wire form under its metadata key. A decoded error of another
// catalogue gives the fields it arrived with, their names from its
// sender's wire form, under the keys its sender gave them; one whose key
// an earlier one has is left out, so that no key is given twice.
func appendMetadata(dst []byte, c Error, v variant, i int) []byte {
	r, ok := c.(*RemoteError)
	if i >= 0 {
		return appendFields(dst, v, i, false, true, 0, r, appendCamelKey)
	}
	if !ok {
		return dst
	}
	fields := r.Payload.Fields
	var taken map[string]bool
	if len(fields) > maxScan {
		taken = make(map[string]bool, len(fields))
	}
	comma := false
	for k, f := range fields {
		var buf [64]byte
		key := appendCamel(buf[:0], f.Name)
		if keyTaken(fields[:k], key, taken) {
			continue
		}
		if comma {
			dst = append(dst, ',')
		}
		dst = append(appendString(dst, key), ':')
		dst = rewriteJSON(dst, f.Value, scrubber.Load() != nil)
		comma = true
	}
	return dst
}

// maxScan is how many fields of a decoded error appendMetadata compares
// each key with the earlier ones' at most; past it, it keeps a set, so
// that writing takes time in proportion to the error's size.
const maxScan = 16

// keyTaken reports whether key is the metadata key of one of earlier: in
// taken, when there is a set, which it then adds key to.
func keyTaken(earlier []PayloadField, key []byte, taken map[string]bool) bool {
	if taken != nil {
		if taken[string(key)] {
			return true
		}
		taken[string(key)] = true
		return false
	}
	for _, f := range earlier {
		var buf [64]byte
		if string(appendCamel(buf[:0], f.Name)) == string(key) {
			return true
		}
	}
	return false
}

// appendCamelKey appends name, a field's name, as the key of a metadata
// member and its colon. Field names are snake_case, so their keys need no
// escaping.
func appendCamelKey(dst []byte, name string) []byte {
	return append(appendCamel(append(dst, '"'), name), '"', ':')
}

// appendCamel appends name in lowerCamelCase, as the generator's names.Camel
// spells a field's metadata key: every underscore left out, and the letter
// a-z after one in upper case unless nothing came before it (status_code
// is statusCode, a_1b is a1b).
func appendCamel(dst []byte, name string) []byte {
	start, up := len(dst), false
	for k := 0; k < len(name); k++ {
		c := name[k]
		if c == '_' {
			up = len(dst) > start
			continue
		}
		if up && isLower(c) {
			c -= 'a' - 'A'
		}
		dst, up = append(dst, c), false
	}
	return dst
}

// DecodeAgentResponse reads back what AgentResponse wrote: the code, the
// message and the metadata's fields, decoded as DecodePayload does. The
// response of an error outside the catalogue ("error": "unknown") is an
// error, as it has no code. For a
// code this catalogue knows, a member is a field's when its key is the
// field's metadata key; one spelt as a field's name but not its key
// (status_code for statusCode) is not that field's, and is left out, as
// a member the payload would read as the field. An error about a field's
// value names its metadata key.
func DecodeAgentResponse(data []byte) (*RemoteError, error) {
	if err := sizeError(data); err != nil {
		return nil, err
	}
	var success *bool
	var code Code
	var message string
	env, err := readMembers(data, member{"success", &success}, member{"error", &code}, member{"message", &message})
	if err != nil {
		return nil, fmt.Errorf("%s: agent response: %w", packageName, err)
	}
	if success == nil || *success {
		return nil, errors.New(packageName + `: not an error response ("success": false)`)
	}
	if code == Code(ClassUnknown.String()) {
		// What AgentResponse gives an error outside the catalogue, which
		// no catalogue that selects the projection has as a code: no
		// error of one, as a problem document of about:blank is not.
		return nil, errors.New(packageName + `: agent response of an error outside the catalogue ("error": "unknown")`)
	}
	members, order := map[string]json.RawMessage{}, []string(nil)
	if metadata := env["metadata"]; len(metadata) > 0 && string(metadata) != "null" {
		if members, order, err = readObject(metadata); err != nil {
			return nil, fmt.Errorf("%s: agent response metadata: %w", packageName, err)
		}
	}
	if i, ok := lookupCode(code); ok {
		order = metadataFields(members, order, forms[i].fields)
	}
	return decodeProjectedKeys(code, nil, message, members, order, metadataKey)
}

// metadataFields renames the members of an agent response's metadata,
// in order, from the metadata keys of fields to the fields' names, which
// the payload has, leaving out first a member named as one of fields
// whose key is another; it returns the order of the members left.
func metadataFields(members map[string]json.RawMessage, order []string, fields []field) []string {
	kept := order[:0]
	for _, key := range order {
		if k := fieldIndex(fields, key); k >= 0 && !camelIs(key, key) {
			delete(members, key)
			continue
		}
		kept = append(kept, key)
	}
	for n, key := range kept {
		for k := range fields {
			if name := fields[k].name; name != key && camelIs(key, name) {
				members[name] = members[key]
				delete(members, key)
				kept[n] = name
				break
			}
		}
	}
	return kept
}

// metadataKey returns the metadata key of the field named name.
func metadataKey(name string) string {
	var buf [64]byte
	return string(appendCamel(buf[:0], name))
}

// camelIs reports whether key is name in lowerCamelCase, as appendCamel
// writes it.
func camelIs(key, name string) bool {
	var buf [64]byte
	return string(appendCamel(buf[:0], name)) == key
}
