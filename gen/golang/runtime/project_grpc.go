// errgen runtime: part of errgen_projections.go in a generated package whose catalogue selects the grpc projection.

package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// grpcStatus is what a google.rpc.Status says of an error (AIP-193): the
// canonical code, the developer-facing message, and the details
// ErrorInfo (reason, domain, metadata), RetryInfo (when there is a wait)
// and LocalizedMessage (the user message).
type grpcStatus struct {
	code          int
	message       string
	reason        string
	metadata      [][2]string
	retry         time.Duration
	hasRetry      bool
	locale, local string
}

// grpcStatusOf is err's grpcStatus. An error outside the catalogue is
// UNKNOWN, without ErrorInfo. Only a retryable error has a RetryInfo: the
// detail tells a client when to retry, and is how a status says that it
// may.
func grpcStatusOf(err error) grpcStatus {
	c, v, i := projectionOf(err)
	s := grpcStatus{code: 2, message: validText(scrub(errorText(err))), locale: grpcLocale, local: validText(scrub(UserMessageOf(err)))}
	if c != nil {
		// The code is scrubbed before it is upper-cased: a scrubber's
		// patterns (an sk- key) are written for the text as it was sent.
		s.message, s.reason = validText(scrub(errorText(c))), strings.ToUpper(scrubName("code", string(c.Code())))
		if i >= 0 {
			s.code = grpcCodes[i]
		}
		obj := append(appendProjectedFields([]byte{'{'}, c, v, i, false, false), '}')
		members, order, _ := readObject(obj)
		for _, name := range order {
			// A text is itself, any other value its JSON: null (a NaN
			// float) too, which json.Unmarshal into a string would take
			// for "", a value no decoder reads back as the field.
			v := string(members[name])
			var text string
			if v[0] == '"' && json.Unmarshal(members[name], &text) == nil {
				v = text
			}
			s.metadata = append(s.metadata, [2]string{name, v})
		}
	}
	if c != nil && c.Retryable() {
		s.retry, s.hasRetry = RetryAfterOf(err)
		// A status without RetryInfo decodes as retryable as the
		// catalogue makes its code: where the code alone does not say so
		// (a code it does not know, a wrapper whose cause decides, a
		// decoded error a RetryInfo without delay made retryable), a
		// RetryInfo of no delay says it. A wrapper whose cause decides
		// has one whenever it is retryable, so that a status of one
		// without RetryInfo says it is not, whatever its code says
		// without a cause (see decodeErrorInfo).
		if !s.hasRetry && (i < 0 || !infos[i].Retryable || infos[i].RetryableFromCause) {
			s.retry, s.hasRetry = 0, true
		}
	}
	return s
}

// validText is s with each byte that is not part of valid UTF-8 replaced
// by U+FFFD, as the JSON encoder writes it: a protobuf string must be
// valid UTF-8, or gRPC drops the status's details on the way out, and
// GRPCStatus and GRPCStatusJSON say the same.
func validText(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		b = utf8.AppendRune(b, r)
		i += size
	}
	return string(b)
}

// GRPCStatusJSON returns err as a google.rpc.Status in its JSON mapping,
// with the details AIP-193 asks for:
//
//	{"code":CODE,"message":MESSAGE,"details":[
//	 {"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":REASON,"domain":DOMAIN,"metadata":{...}},
//	 {"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"2s"},
//	 {"@type":"type.googleapis.com/google.rpc.LocalizedMessage","locale":LOCALE,"message":USER_MESSAGE}]}
//
// CODE is the variant's canonical gRPC code (grpc_code) as a number,
// MESSAGE the error's message, REASON its code in UPPER_SNAKE, DOMAIN the
// catalogue's grpc domain, metadata its payload fields as strings (text as
// it is, other values as their JSON; left out when there are none), the
// same JSON protobuf's mapping writes for GRPCStatus. RetryInfo is there only for
// a retryable error: with the wait RetryAfterOf reports, or with none ("0s")
// when there is no wait and the code alone does not make it retryable (a
// code the catalogue does not know or does not make retryable, a wrapper
// whose cause decides), as a status without RetryInfo decodes as
// retryable as the catalogue makes its code, and one of a wrapper whose
// cause decides as not retryable. An error outside
// the catalogue is UNKNOWN (2) with its message and no details: it has no
// code for an ErrorInfo and no user message for a LocalizedMessage.
func GRPCStatusJSON(err error) []byte {
	s := grpcStatusOf(err)
	dst := strconv.AppendInt([]byte(`{"code":`), int64(s.code), 10)
	if s.message != "" {
		dst = appendString(append(dst, `,"message":`...), s.message)
	}
	if s.reason == "" && !s.hasRetry && s.local == "" {
		return append(dst, '}')
	}
	dst = append(dst, `,"details":[`...)
	if s.reason != "" {
		dst = appendString(append(dst, `{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":`...), s.reason)
		if grpcDomain != "" {
			dst = appendString(append(dst, `,"domain":`...), grpcDomain)
		}
		// Empty metadata is left out, as protobuf's JSON mapping leaves it.
		for k, kv := range s.metadata {
			if k == 0 {
				dst = append(dst, `,"metadata":{`...)
			} else {
				dst = append(dst, ',')
			}
			dst = append(appendString(dst, kv[0]), ':')
			dst = appendString(dst, kv[1])
		}
		if len(s.metadata) > 0 {
			dst = append(dst, '}')
		}
		dst = append(dst, "},"...)
	}
	if s.hasRetry {
		dst = appendString(append(dst, `{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":`...), protoDuration(s.retry))
		dst = append(dst, "},"...)
	}
	if s.local != "" {
		dst = appendString(append(dst, `{"@type":"type.googleapis.com/google.rpc.LocalizedMessage","locale":`...), s.locale)
		dst = appendString(append(dst, `,"message":`...), s.local)
		dst = append(dst, "},"...)
	}
	// Every detail ends in a comma; the last one's closes the list.
	return append(dst[:len(dst)-1], "]}"...)
}

// protoDuration writes d as the JSON mapping of google.protobuf.Duration
// does: seconds with 0, 3, 6 or 9 fractional digits, then "s".
func protoDuration(d time.Duration) string {
	s := strconv.FormatInt(int64(d/time.Second), 10)
	ns := int64(d % time.Second)
	if ns == 0 {
		return s + "s"
	}
	f := fmt.Sprintf("%09d", ns)
	for strings.HasSuffix(f, "000") {
		f = f[:len(f)-3]
	}
	return s + "." + f + "s"
}

// parseProtoDuration reads a Duration as protobuf's JSON mapping writes
// it, seconds with up to nine decimals and "s" ("2s", "1.500s"), and
// nothing else: no Go duration syntax ("1h30m"), no exponent, nothing past
// protobuf's ten thousand years. One longer than a time.Duration holds
// (292 years) is the longest one, as a decoded field's is.
func parseProtoDuration(s string) (time.Duration, error) {
	digits, ok := strings.CutSuffix(s, "s")
	whole, frac, dot := strings.Cut(strings.TrimPrefix(digits, "-"), ".")
	valid := ok && whole != "" && (!dot || frac != "" && len(frac) <= 9)
	for _, c := range whole + frac {
		valid = valid && '0' <= c && c <= '9'
	}
	if !valid {
		return 0, fmt.Errorf("retryDelay %q is not a protobuf duration such as \"1.500s\"", s)
	}
	if n, err := strconv.ParseUint(whole, 10, 64); err != nil || n > 315_576_000_000 {
		return 0, fmt.Errorf("retryDelay %q is beyond a protobuf duration's ten thousand years", s)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		// Within protobuf's range, past time.Duration's.
		if strings.HasPrefix(s, "-") {
			return math.MinInt64, nil
		}
		return math.MaxInt64, nil
	}
	return d, nil
}

// DecodeGRPCStatusJSON reads back what GRPCStatusJSON wrote: the
// ErrorInfo's reason is the code, its metadata the fields, decoded as
// DecodePayload does (the status's and its details' keys too: matched
// exactly, each once), a RetryInfo's delay the wait (see decodeStatus),
// and the first LocalizedMessage's message the user message. It reads
// the JSON as protobuf's JSON mapping does: a RetryInfo's delay as
// retryDelay or retry_delay (its proto name), not both, null as none, and
// each detail's members by its type, the part of its "@type" after the
// last "/" (a type URL of any host names the same message), so a detail
// of another type is passed over; and the code as an int32, a number or
// one in a string (see statusCode). A status of code OK (0, or "code" left out), without
// ErrorInfo, or whose first ErrorInfo is of another domain than the
// catalogue's, is an error; a code other than the variant's is taken
// (see statusIsError).
func DecodeGRPCStatusJSON(data []byte) (*RemoteError, error) {
	if err := sizeError(data); err != nil {
		return nil, err
	}
	var message string
	st, err := readMembers(data, member{"message", &message})
	if err != nil {
		return nil, fmt.Errorf("%s: gRPC status: %w", packageName, err)
	}
	code, err := statusCode(st["code"])
	if err != nil {
		return nil, err
	}
	if err := statusIsError(code); err != nil {
		return nil, err
	}
	details, err := readList(st["details"])
	if err != nil {
		return nil, fmt.Errorf("%s: gRPC status details: %w", packageName, err)
	}
	var info map[string]json.RawMessage
	var reason, domain, user string
	var wait time.Duration
	var retry bool
	for _, d := range details {
		// Each detail's members are read by its type: another type's
		// (a custom detail's "reason" may be a number) are not these.
		var typ string
		detail, err := readMembers(d, member{"@type", &typ})
		if err != nil {
			return nil, fmt.Errorf("%s: gRPC status detail: %w", packageName, err)
		}
		switch detailType(typ) {
		case "google.rpc.ErrorInfo":
			var why, in string
			if err := setMembers(detail, member{"reason", &why}, member{"domain", &in}); err != nil {
				return nil, fmt.Errorf("%s: gRPC ErrorInfo: %w", packageName, err)
			}
			if info == nil {
				info, reason, domain = detail, why, in
			}
		case "google.rpc.RetryInfo":
			retry = true
			raw, err := protoField(detail, "retryDelay", "retry_delay")
			if err == nil && raw != nil {
				var delay string
				if err = json.Unmarshal(raw, &delay); err == nil {
					wait, err = parseProtoDuration(delay)
				}
			}
			if err != nil {
				return nil, fmt.Errorf("%s: gRPC RetryInfo: %w", packageName, err)
			}
		case "google.rpc.LocalizedMessage":
			if raw, ok := detail["message"]; ok && user == "" {
				if err := json.Unmarshal(raw, &user); err != nil {
					return nil, fmt.Errorf("%s: gRPC LocalizedMessage: %w", packageName, err)
				}
			}
		}
	}
	if info == nil {
		return nil, errors.New(packageName + ": gRPC status has no ErrorInfo")
	}
	metadata := map[string]string{}
	if raw := info["metadata"]; len(raw) > 0 && string(raw) != "null" {
		members, order, err := readObject(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: gRPC ErrorInfo metadata: %w", packageName, err)
		}
		for _, name := range order {
			// A map's value is never null in protobuf's JSON mapping, as
			// its readers refuse it: null is not the text "" here.
			var v *string
			if err := json.Unmarshal(members[name], &v); err != nil {
				return nil, fmt.Errorf("%s: gRPC ErrorInfo metadata %q: %w", packageName, name, err)
			} else if v == nil {
				return nil, fmt.Errorf("%s: gRPC ErrorInfo metadata %q is null, not a string", packageName, name)
			}
			metadata[name] = *v
		}
	}
	return decodeStatus(reason, domain, message, user, metadata, retry, wait)
}

// statusCode reads a status's code as protobuf's JSON mapping reads an
// int32 field: a JSON number of a whole value, exponent notation too
// ("8", "8.0", "8e0"), or one in a string ("8", "8e0") with nothing
// around it; left out or null, it is the field's default, 0. A string
// that is no JSON number ("08", "+8", " 8") is refused, as protobuf's
// readers refuse it.
func statusCode(raw json.RawMessage) (int64, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	text := string(raw)
	if raw[0] == '"' && json.Unmarshal(raw, &text) != nil {
		text = ""
	}
	n, ok := wholeNumber(text, 32)
	if !ok {
		return 0, errors.New(packageName + ": gRPC status code is not a whole number of 32 bits")
	}
	return n, nil
}

// statusIsError refuses a status of code 0, OK: it says the call
// succeeded, whatever details it holds (protobuf's JSON mapping writes it
// by leaving "code" out). Any other code is taken, the variant's or not:
// the ErrorInfo's reason in its domain names the error (AIP-193), the code
// only the kind of failure, which a proxy or a gateway may rewrite on the
// way (a timeout of its own, an UNAVAILABLE for a backend it could not
// reach), and a catalogue may move a variant to another grpc_code while
// older senders still send the old one.
func statusIsError(code int64) error {
	if code == 0 {
		return errors.New(packageName + ": gRPC status of code 0 (OK) says the call succeeded; an error's status has another code")
	}
	return nil
}

// detailType is the full name of the message a detail holds, as protobuf's
// resolvers read an Any's type URL: the part after its last "/", whatever
// the host and path before it (type.googleapis.com/google.rpc.ErrorInfo
// and example.com/x/google.rpc.ErrorInfo are both google.rpc.ErrorInfo).
func detailType(url string) string {
	return url[strings.LastIndexByte(url, '/')+1:]
}

// protoField returns the member of members that holds a field of a
// protobuf message in its JSON mapping, whose readers take the field under
// its JSON name (jsonName) or its proto name (protoName, as
// UseProtoNames writes it) but not both, and null as the field left out
// (nil).
func protoField(members map[string]json.RawMessage, jsonName, protoName string) (json.RawMessage, error) {
	raw, ok := members[jsonName]
	if alt, both := members[protoName]; both {
		if ok {
			return nil, fmt.Errorf("%q and %q are one field, given twice", jsonName, protoName)
		}
		raw = alt
	}
	if string(raw) == "null" {
		return nil, nil
	}
	return raw, nil
}

// decodeStatus decodes the error a gRPC status carries, from its
// ErrorInfo's reason, domain and metadata, its message, the message of its
// LocalizedMessage (the user message, "" without one), whether it has a
// RetryInfo (retry), and that RetryInfo's delay, 0 without one. The status
// says nothing of retryability but through RetryInfo, which only a
// retryable error's status has: with one, whatever its delay (none, or 0s),
// the error is retryable (unless this deployment's class policy says
// otherwise of a configurable code) and RetryAfterOf reports its delay;
// without, it is as retryable as its variant with the fields that
// travelled, and no cause, but for a wrapper whose cause decides, which is
// not (its writer sends a RetryInfo whenever it is retryable).
// Both travel on in the decoded error's wire form: "retryable" and the
// variant's retry_after field, when it has one; a variant without one
// keeps the delay in this process only. A reason names an error only in
// its domain (AIP-193), so an ErrorInfo of another domain than the
// catalogue's is an error.
func decodeStatus(reason, domain, message, user string, metadata map[string]string, retry bool, wait time.Duration) (*RemoteError, error) {
	if domain != grpcDomain {
		return nil, fmt.Errorf("%s: gRPC ErrorInfo of domain %q, not %q: its reason %q is not a code of this catalogue", packageName, domain, grpcDomain, reason)
	}
	r, err := decodeErrorInfo(reason, message, metadata, retry, wait)
	if err == nil && wait > 0 {
		r.wait = wait
	}
	if err == nil {
		r.user = user
	}
	return r, err
}

// reasonCode is the code an ErrorInfo reason names, its row and whether
// the catalogue knows it: a code of the catalogue as the reason spells it
// or in lower case; else the reason as the catalogue spells codes, as it
// stands when they are upper_snake (upper), in lower case otherwise.
func reasonCode(reason string, upper bool) (Code, int, bool) {
	code := Code(reason)
	if i, ok := lookupCode(code); ok || upper {
		return code, i, ok
	}
	code = Code(strings.ToLower(reason))
	i, ok := lookupCode(code)
	return code, i, ok
}

// decodeErrorInfo decodes an error from an ErrorInfo's reason and
// metadata and the status's message: a text field's value is the string
// itself, any other field's its JSON.
func decodeErrorInfo(reason, message string, metadata map[string]string, retry bool, wait time.Duration) (*RemoteError, error) {
	code, i, known := reasonCode(reason, grpcReasonIsCode)
	members := map[string]json.RawMessage{}
	var order []string
	for name, v := range metadata {
		if name != "type" && slices.ContainsFunc(payloadShape[:], func(k payloadKey) bool { return k.name == name }) {
			// No field's (see decodeProjected): retryable is the
			// RetryInfo's word, below.
			continue
		}
		// Metadata values are strings; only a field of this catalogue that
		// is not text reads its value as JSON.
		raw := json.RawMessage(v)
		text := true
		if known {
			if k := fieldIndex(forms[i].fields, name); k >= 0 {
				_, text = fieldOf(newVariant(i), k).(*string)
			}
		}
		if text {
			raw = appendString(nil, v)
		} else if !json.Valid(raw) {
			// One JSON value, or a sender could slip in keys of its own.
			return nil, fmt.Errorf("%s: gRPC ErrorInfo metadata %q: %q is not one JSON value", packageName, name, v)
		}
		members[name] = raw
		order = append(order, name)
	}
	// A RetryInfo says the error is retryable, and its delay is the value
	// of the variant's retry_after field when the metadata has none (see
	// withWaitField).
	if retry {
		members["retryable"] = json.RawMessage("true")
		order = append(order, "retryable")
		order = withWaitField(members, order, i, known, wait)
	} else if known && infos[i].RetryableFromCause {
		// A variant whose cause decides is retryable without its cause
		// when its code is, but its status has a RetryInfo whenever it
		// was retryable (grpcStatusOf): without one, its cause made it
		// not.
		members["retryable"] = json.RawMessage("false")
		order = append(order, "retryable")
	}
	slices.Sort(order)
	return decodeProjected(code, nil, message, members, order)
}
