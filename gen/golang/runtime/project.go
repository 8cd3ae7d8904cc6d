// errgen runtime: part of errgen_projections.go in a generated package whose catalogue selects a projection.

package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The projections put a catalogue error into the published shapes other
// software reads: an MCP tool result, a provider's tool-result block, an RFC
// 9457 problem document, a framework's envelope. This part holds what they
// share; each projection's own part is in the generated file only when the
// catalogue selects it.

// projectionOf returns the catalogue error a projection of err describes,
// the outermost in its chain, with the variant whose fields it has (itself,
// or the typed error behind a decoded one whose code this catalogue knows)
// and that variant's entry in infos; nil and -1 when there is no such
// variant (a decoded error this catalogue does not know, an Error of
// another kind). It returns nil for a chain without one. A decoded error
// is described as it arrived: its message is the sender's, and its
// retryability its own, which the variant, holding only the fields that
// travelled, may not render again.
func projectionOf(err error) (Error, variant, int) {
	c := find(err)
	if c == nil {
		return nil, nil, -1
	}
	v, ok := ownOf(c)
	if r, remote := c.(*RemoteError); remote && r.err != nil {
		v, ok = r.err, true
	}
	if !ok {
		return c, nil, -1
	}
	i, ok := lookupCode(v.Code())
	if !ok {
		return c, nil, -1
	}
	return c, v, i
}

// appendModelJSON appends the JSON object the model reads for err: its LLM
// payload, or its wire form for a family without a payload type (for a
// decoded error, its variant's with the texts it arrived with), the
// payload a decoded error of a code this catalogue does not know arrived
// with, or {"error": its text} for an error outside the catalogue.
func appendModelJSON(dst []byte, err error) []byte {
	c, v, i := projectionOf(err)
	r, _ := c.(*RemoteError)
	switch {
	case c == nil:
		dst = append(dst, `{"error":`...)
		return append(appendString(dst, scrub(errorText(err))), '}')
	case i < 0 && r != nil:
		return r.appendJSON(dst)
	case i < 0:
		return appendErrorJSON(dst, c, errorText(c))
	}
	return appendObject(dst, v, i, infos[i].PayloadType == "", 0, r, r)
}

// appendProjectedFields appends the fields of c (as projectionOf returns
// it, with v and i) as members of a JSON object, the first after a comma
// when comma is set: every field of its wire form with wire set, else its
// payload fields; a decoded error of another catalogue gives the fields it
// arrived with, but for the names in skip (the shape's own members).
func appendProjectedFields(dst []byte, c Error, v variant, i int, comma, wire bool, skip ...string) []byte {
	r, ok := c.(*RemoteError)
	if i >= 0 {
		return appendFields(dst, v, i, comma, wire, 0, r, appendKey)
	}
	if !ok {
		return dst
	}
	for _, f := range r.Payload.Fields {
		if slices.Contains(skip, f.Name) {
			continue
		}
		if comma {
			dst = append(dst, ',')
		}
		dst = append(appendString(dst, f.Name), ':')
		dst = rewriteJSON(dst, f.Value, scrubber.Load() != nil)
		comma = true
	}
	return dst
}

// member is a member of a shape's JSON object that a decoder reads, and
// where to.
type member struct {
	key string
	to  any
}

// readMembers reads data, a JSON object, as DecodePayload reads a payload:
// keys matched exactly, a key given twice refused, so that no sender can
// make a decoder see another shape than every other JSON reader sees. It
// sets each of want from the member of its key, leaving a missing one as
// it is, and returns every member.
func readMembers(data []byte, want ...member) (map[string]json.RawMessage, error) {
	members, _, err := readObject(data)
	if err != nil {
		return nil, err
	}
	return members, setMembers(members, want...)
}

// setMembers sets each of want from its member in members, leaving a
// missing one as it is.
func setMembers(members map[string]json.RawMessage, want ...member) error {
	for _, m := range want {
		if raw, ok := members[m.key]; ok {
			if err := json.Unmarshal(raw, m.to); err != nil {
				return fmt.Errorf("%q: %w", m.key, err)
			}
		}
	}
	return nil
}

// firstText returns the text of the first text block of content, a list
// of content blocks as MCP and the providers' APIs write them,
// {"type":"text","text":TEXT}, each read as readMembers reads an object;
// other kinds of block (an image) are passed over. It reports false when
// there is no text block.
func firstText(content []json.RawMessage) (string, bool, error) {
	for _, c := range content {
		var typ, text string
		if _, err := readMembers(c, member{"type", &typ}, member{"text", &text}); err != nil {
			return "", false, err
		}
		if typ == "text" {
			return text, true, nil
		}
	}
	return "", false, nil
}

// contentText returns the text a provider's tool result carries in its
// content, raw: a string, or a list of content blocks (both the Anthropic
// and the OpenAI API take either), whose first text block holds it.
func contentText(raw json.RawMessage) (string, error) {
	var text string
	if len(raw) == 0 {
		return "", nil
	}
	if raw[0] != '[' {
		return text, json.Unmarshal(raw, &text)
	}
	content, err := readList(raw)
	if err != nil {
		return "", err
	}
	text, ok, err := firstText(content)
	if err == nil && !ok {
		err = errors.New("no text block")
	}
	return text, err
}

// readList reads data, a JSON array, into its items; null or nothing is
// an empty list.
func readList(data []byte) ([]json.RawMessage, error) {
	var items []json.RawMessage
	if len(data) == 0 {
		return nil, nil
	}
	return items, json.Unmarshal(data, &items)
}

// decodeProjected decodes the error a projection carried, as DecodePayload
// decodes a payload (the caller bounded the document it came in): its code, its num (nil when the shape has none: the
// catalogue's), its message, and the other members in order, its fields
// and the payload keys it carries, retryable and category; a member named
// as another payload key (suppress_retry, usage_hint) is none of the
// shape's, and is left out. A code this catalogue knows gives the typed
// error.
func decodeProjected(code Code, num *int, message string, members map[string]json.RawMessage, order []string) (*RemoteError, error) {
	return decodeProjectedKeys(code, num, message, members, order, nil, "retryable", "category")
}

// decodeProjectedKeys is decodeProjected for a shape whose members are
// keyed otherwise than the payload's fields, and that carries the payload
// keys carried: key gives the key of a field there, which an error about
// its value names.
func decodeProjectedKeys(code Code, num *int, message string, members map[string]json.RawMessage, order []string, key func(string) string, carried ...string) (*RemoteError, error) {
	if code == "" {
		return nil, fmt.Errorf("%s: no code", packageName)
	}
	i, known := lookupCode(code)
	// A member is a field unless the shape's own: "type" is a field only
	// of a variant that has one so named (and then its family has no
	// payload type, which this writes). Of any other, or a code this
	// catalogue does not know, it is left out: a newer sender's field the
	// payload would read as its type.
	written := map[string]bool{"type": !known || !hasField(forms[i].fields, "type"),
		"code": true, "code_num": true, "error": true}
	// The shape carries no other payload key: a member so named (a
	// problem's extension member, which RFC 9457 has a reader ignore when
	// it does not know it; a metadata member) is not the sender's word on
	// the error, and would make it unreadable were its value of another
	// type.
	for _, k := range payloadShape {
		if _, set := written[k.name]; !set && k.name != "" && !slices.Contains(carried, k.name) {
			written[k.name] = true
		}
	}
	dst := []byte{'{'}
	if known && infos[i].PayloadType != "" {
		written["type"] = true
		dst = append(appendKey(dst, "type"), appendName(nil, infos[i].PayloadType)...)
		dst = append(dst, ',')
	}
	dst = append(appendKey(dst, "code"), appendString(nil, string(code))...)
	if num == nil && known {
		num = &infos[i].Num
	}
	if num != nil {
		dst = append(appendKey(append(dst, ','), "code_num"), strconv.Itoa(*num)...)
	}
	if known {
		written["category"] = true
		dst = append(appendKey(append(dst, ','), "category"), appendName(nil, string(infos[i].Category))...)
	}
	dst = append(appendKey(append(dst, ','), "error"), appendString(nil, message)...)
	retryable := false
	for _, name := range order {
		if raw := members[name]; !written[name] && raw != nil {
			written[name], retryable = true, retryable || name == "retryable"
			dst = append(append(appendString(append(dst, ','), name), ':'), raw...)
		}
	}
	d := decoder{rebuilt: true, key: key}
	r, err := d.decode(append(dst, '}'))
	if err == nil && known && !retryable && r.err != nil {
		// The shape does not carry retryable: the typed error answers (with
		// the cause held outside its field, if any), and its answer goes
		// into the payload as if the shape had carried it, so that the
		// wire form it is relayed in carries it on.
		dst = append(appendKey(append(dst, ','), "retryable"), strconv.AppendBool(nil, r.variantRetryable())...)
		d = decoder{rebuilt: true, key: key}
		return d.decode(append(dst, '}'))
	}
	return r, err
}

// withWaitField adds to members the value a wait a shape carried apart
// from the fields (a gRPC RetryInfo, a problem document's retry_after_ms)
// gives the retry_after field of the variant of row i, when the catalogue
// knows the code (known), the variant has such a field and members do not
// give it: in the field's unit, rounded up as field.inUnit does, so that a
// relay of the decoded error carries the wait on and never says to wait
// less (the decoded error itself answers RetryAfterOf with the wait). It
// returns order with the field's name added.
func withWaitField(members map[string]json.RawMessage, order []string, i int, known bool, wait time.Duration) []string {
	for k := 0; known && wait > 0 && k < len(forms[i].fields); k++ {
		f := &forms[i].fields[k]
		if _, ok := members[f.name]; f.retryAfter && !ok && f.unit > 0 {
			members[f.name] = strconv.AppendInt(nil, f.inUnit(wait), 10)
			order = append(order, f.name)
		}
	}
	return order
}

// wholeNumber reads text, a JSON number with nothing around it, as a
// whole number of bits bits: one with a fraction or an exponent is taken
// when its value is whole ("8.0", "0.8e1"), exactly, as protobuf's JSON
// mapping reads an integer field.
func wholeNumber(text string, bits int) (int64, bool) {
	if text == "" || text[0] != '-' && (text[0] < '0' || text[0] > '9') || !json.Valid([]byte(text)) ||
		strings.ContainsAny(text, " \t\r\n") {
		return 0, false
	}
	mantissa, exp, hasExp := strings.Cut(strings.ToLower(text), "e")
	neg := strings.HasPrefix(mantissa, "-")
	whole, frac, _ := strings.Cut(strings.TrimPrefix(mantissa, "-"), ".")
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		return 0, true
	}
	e := -len(frac)
	if hasExp {
		n, err := strconv.Atoi(exp)
		if err != nil || n > 20+len(text) || n < -len(text) {
			// A value of so many digits is no int64, and one so small
			// no whole number.
			return 0, false
		}
		e += n
	}
	for e < 0 && strings.HasSuffix(digits, "0") {
		digits, e = digits[:len(digits)-1], e+1
	}
	if e < 0 || len(digits)+e > 20 {
		return 0, false
	}
	digits += strings.Repeat("0", e)
	if neg {
		digits = "-" + digits
	}
	n, err := strconv.ParseInt(digits, 10, bits)
	return n, err == nil
}
