// errgen runtime: part of errgen_projections.go in a generated package whose catalogue selects the problem projection.

package runtime

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"
)

// ProblemContentType is the media type of a problem document (RFC 9457).
const ProblemContentType = "application/problem+json"

// ProblemJSON returns err as an RFC 9457 problem document, and its status:
//
//	{"type":TYPE,"title":TITLE,"status":STATUS,"detail":USER_MESSAGE,
//	 "instance":INSTANCE,"code":CODE,"code_num":NUM,"category":CATEGORY,
//	 "retryable":BOOL,"retry_after_ms":WAIT, ...payload fields}
//
// TYPE is the catalogue's problem type_base followed by the code, TITLE the
// code in words, STATUS the variant's first http_status from 400 to 599
// (else the catalogue's problem status), and the detail the user message,
// never the technical one. "instance" is left out when instance is "", and
// scrubbed as every string value is (a request URI's query can hold a
// token). An error outside the catalogue is "about:blank" with status 500
// and no "detail": it has no user message. A decoded error of a code the
// catalogue does not know has "code_num" and "category" only when its
// sender sent them. WAIT is the wait RetryAfterOf reports, in whole
// milliseconds rounded up, left out when it reports none: the wait
// WriteProblem sends as Retry-After, in the body too, which is often
// logged or relayed without its headers.
func ProblemJSON(err error, instance string) ([]byte, int) {
	c, v, i := projectionOf(err)
	typ, title, status := "about:blank", http.StatusText(http.StatusInternalServerError), http.StatusInternalServerError
	switch {
	case i >= 0:
		typ, title, status = problemTypeBase+string(infos[i].Code), problemTitles[i], problemStatuses[i]
	case c != nil:
		// A decoded error's code is the sender's text: escaped, so that
		// the type stays a URI reference (RFC 9457) whatever it holds.
		code := scrubName("code", string(c.Code()))
		typ, title = problemTypeBase+url.PathEscape(code), code
	}
	dst := appendString([]byte(`{"type":`), typ)
	dst = appendString(append(dst, `,"title":`...), title)
	dst = strconv.AppendInt(append(dst, `,"status":`...), int64(status), 10)
	if detail := scrub(UserMessageOf(err)); detail != "" {
		dst = appendString(append(dst, `,"detail":`...), detail)
	}
	if instance != "" {
		dst = appendString(append(dst, `,"instance":`...), scrub(instance))
	}
	if c != nil {
		dst = appendString(append(dst, `,"code":`...), scrubName("code", string(c.Code())))
		// A decoded error of a code this catalogue does not know has the
		// num and category its sender sent, if any: none is made up.
		if n := c.CodeNum(); n != 0 {
			dst = strconv.AppendInt(append(dst, `,"code_num":`...), int64(n), 10)
		}
		if cat := c.Category(); cat != "" {
			dst = appendString(append(dst, `,"category":`...), scrubName("category", string(cat)))
		}
		dst = strconv.AppendBool(append(dst, `,"retryable":`...), c.Retryable())
		if d, ok := RetryAfterOf(err); ok {
			dst = strconv.AppendInt(append(dst, `,"retry_after_ms":`...), inMilliseconds.inUnit(d), 10)
		}
		dst = appendProjectedFields(dst, c, v, i, true, false, problemMembers...)
	}
	return append(dst, '}'), status
}

// WriteProblem writes err to w as a problem document (see ProblemJSON):
// the Content-Type, a Retry-After in whole seconds (rounded up) when
// RetryAfterOf reports a wait, the document's retry_after_ms rounded up
// again, then the status and the document.
func WriteProblem(w http.ResponseWriter, err error, instance string) {
	body, status := ProblemJSON(err, instance)
	h := w.Header()
	h.Set("Content-Type", ProblemContentType)
	if d, ok := RetryAfterOf(err); ok {
		h.Set("Retry-After", strconv.FormatInt(inSeconds.inUnit(d), 10))
	}
	w.WriteHeader(status)
	w.Write(body)
}

// inSeconds writes a wait in whole seconds rounded up, as a retry_after
// field counted in seconds is written: Retry-After's delay-seconds (RFC
// 9110).
var inSeconds = field{unit: time.Second, retryAfter: true}

// inMilliseconds writes a wait in whole milliseconds rounded up, as a
// problem document's retry_after_ms.
var inMilliseconds = field{unit: time.Millisecond, retryAfter: true}

// problemMembers are the members a problem document has besides the
// fields: those RFC 9457 defines, the wait, and errgen's extension members
// that the payload has too. None of the first six is a field.
var problemMembers = []string{"type", "title", "status", "detail", "instance", "retry_after_ms", "code", "code_num", "category", "retryable"}

// DecodeProblem reads a problem document back: one that ProblemJSON wrote
// for a code this catalogue knows gives the typed error with its payload
// fields; any other with a code gives a RemoteError of that code; one
// without a code (about:blank) is an error. The detail is the decoded
// error's message and its user message. Its retry_after_ms, a whole
// number of milliseconds, is the decoded error's wait (RetryAfterOf
// reports it before any field's, as the Retry-After it stands beside is),
// and the value of its variant's retry_after field when the document has
// none; one of another type, negative or null is refused. A document
// without a detail gives the error the user message the catalogue gives
// its code, as its message too.
func DecodeProblem(data []byte) (*RemoteError, error) {
	if err := sizeError(data); err != nil {
		return nil, err
	}
	members, order, err := readObject(data)
	if err != nil {
		return nil, fmt.Errorf("%s: problem: %w", packageName, err)
	}
	var code Code
	var detail string
	var num *int
	if err := json.Unmarshal(members["code"], &code); err != nil || code == "" {
		return nil, fmt.Errorf("%s: problem has no code", packageName)
	}
	if raw, ok := members["code_num"]; ok {
		if err := json.Unmarshal(raw, &num); err != nil {
			return nil, fmt.Errorf("%s: problem code_num: %w", packageName, err)
		} else if num == nil {
			return nil, fmt.Errorf("%s: problem code_num is null", packageName)
		}
	}
	var wait time.Duration
	if raw, ok := members["retry_after_ms"]; ok {
		var ms *int64
		if err := json.Unmarshal(raw, &ms); err != nil || ms == nil || *ms < 0 {
			return nil, fmt.Errorf("%s: problem retry_after_ms is not a whole number of milliseconds, 0 or more", packageName)
		}
		wait = inDuration(*ms, time.Millisecond)
	}
	json.Unmarshal(members["detail"], &detail)
	rest := order[:0:0]
	for _, name := range order {
		if !slices.Contains(problemMembers[:6], name) {
			rest = append(rest, name)
		}
	}
	i, known := lookupCode(code)
	rest = withWaitField(members, rest, i, known, wait)
	r, err := decodeProjected(code, num, detail, members, rest)
	if err == nil && detail == "" {
		// A document without a detail has no message: the decoded error's
		// is its user message, the catalogue's for its code, which is the
		// detail a relay of it writes, so that it decodes to the same
		// error.
		detail = r.UserMessage()
		r, err = decodeProjected(code, num, detail, members, rest)
	}
	if err == nil {
		r.user = detail
		if wait > 0 {
			r.wait = wait
		}
	}
	return r, err
}
