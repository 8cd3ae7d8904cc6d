// errgen runtime: copied into every generated package as errgen_runtime.go.

package runtime

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"reflect"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// This file is the same in every generated package but for its first line
// and its package clause. It holds the algorithms: walking wrap chains,
// rendering templates, encoding and decoding payloads, logging. What a
// catalogue means (its codes, classes, templates, fields and the payload's
// key order) is in the tables errgen generates beside it, in errgen.go.

// Info describes one entry of the catalogue.
type Info struct {
	// Name is the variant's Go type name.
	Name string
	// Family is the Go interface type the variant belongs to.
	Family string
	// Code is the variant's stable string code.
	Code Code
	// Num is the variant's stable number.
	Num int
	// Category is the variant's category.
	Category Category
	// Class says how a handler should treat the error. For a variant that
	// takes its retryability from its cause, it is the class without one.
	Class Class
	// Retryable reports whether the error is worth retrying. For a variant
	// that takes its retryability from its cause, it is the value without
	// one.
	Retryable bool
	// RetryableFromCause reports whether the variant's cause decides
	// whether it is retryable.
	RetryableFromCause bool
	// SuppressRetry reports whether the model should stop retrying the same
	// call.
	SuppressRetry bool
	// PayloadType is the "type" of the variant's LLM payload, or "" when its
	// family sends none.
	PayloadType string
	// SuggestedTool, SuggestedAction and UsageHint are the static hints the
	// LLM payload carries.
	SuggestedTool   string
	SuggestedAction string
	UsageHint       string
	// Message is the message template as the catalogue writes it.
	Message string
	// Doc is the variant's documentation.
	Doc string
}

// Code is the stable string code of an error of the catalogue. The
// package declares one constant per variant.
type Code string

// String returns the code.
func (c Code) String() string { return string(c) }

// Category is the category of an error of the catalogue. The package
// declares one constant per category.
type Category string

// String returns the category.
func (c Category) String() string { return string(c) }

// Class says how a handler should treat an error; the package declares
// the classes as constants.
type Class int

// String returns the class's name as the catalogue documentation spells
// it.
func (c Class) String() string {
	if c < 0 || int(c) >= len(classNames) {
		return classNames[ClassUnknown]
	}
	return classNames[c]
}

// form is what the runtime renders a variant's texts and payload from,
// besides its Info; forms holds one for each entry of infos.
type form struct {
	// key and user are the suppression key and user message templates,
	// "" when the variant has none (the user message is then the
	// technical one).
	key, user string
	fields    []field
}

// field describes one field of a variant.
type field struct {
	name string
	// payload reports whether the field is sent in the LLM payload.
	payload bool
	// cause reports whether the field is the variant's cause, which Unwrap
	// returns; the variant's field method does not serve it.
	cause bool
	// retryAfter reports whether RetryAfterOf reads the field.
	retryAfter bool
}

// keyKind says where the value of a payload key comes from.
type keyKind uint8

const (
	keyType keyKind = iota
	keyCategory
	keyCode
	keyCodeNum
	keyError
	keyRetryable
	keySuppressRetry
	keySuppressionKey
	keyFields
	keySuggestedTool
	keySuggestedAction
	keyRequiredFields
	keyUsageHint
)

// payloadKey is one key of the payload's shape (payloadShape): its name,
// what it holds, and whether it is left out when empty.
type payloadKey struct {
	name string
	kind keyKind
	omit bool
}

// maxChain bounds every walk of a wrap chain, so a chain that comes back on
// itself ends instead of looping forever or exhausting the stack.
const maxChain = 100

// catalogued is implemented by every error of the catalogue and by
// *RemoteError.
type catalogued interface {
	error
	Code() Code
	CodeNum() int
	Retryable() bool
	Class() Class
	UserMessage() string
}

// variant is implemented by every generated variant type.
type variant interface {
	catalogued
	Category() Category
	SuppressRetry() bool
	SuppressionKey() string
	LogValue() slog.Value
}

// fieldOf returns a pointer to the i-th field of the variant e (a
// pointer to its struct, whose fields stand in catalogue order): *string,
// *int, *time.Duration, and so on. The runtime reads and sets fields
// through it, so a variant needs no accessor method of its own: each such
// method, one per variant, cost more to compile than the rest of the
// variant's code beyond its constant methods (BENCHMARKS.md). The cause is
// read through Unwrap instead.
func fieldOf(e variant, i int) any {
	return reflect.ValueOf(e).Elem().Field(i).Addr().Interface()
}

// isNil reports whether x is a nil pointer in a non-nil interface, which
// fmt prints as <nil> and whose methods may not be called.
func isNil(x any) bool {
	v := reflect.ValueOf(x)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// next returns what err wraps when it wraps one error, and the errors it
// joins when it wraps several.
func next(err error) (error, []error) {
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return u.Unwrap(), nil
	case interface{ Unwrap() []error }:
		return nil, u.Unwrap()
	}
	return nil, nil
}

// find returns the first error of the catalogue in err's chain, following
// Unwrap() error and Unwrap() []error depth first, as errors.As does, but
// without reflection or allocation. A nil pointer ends the chain.
func find(err error) catalogued {
	return findDepth(err, 0)
}

func findDepth(err error, depth int) catalogued {
	for ; err != nil && depth < maxChain && !isNil(err); depth++ {
		if c, ok := err.(catalogued); ok {
			return c
		}
		one, many := next(err)
		if many != nil {
			for _, e := range many {
				if c := findDepth(e, depth+1); c != nil {
					return c
				}
			}
			return nil
		}
		err = one
	}
	return nil
}

// retryableOf is Retryable of a variant whose cause decides: the cause's,
// or def when the cause is not an error of the catalogue.
func retryableOf(e variant, def bool) bool {
	if isNil(e) {
		return def
	}
	if c := find(causeOf(e)); c != nil {
		return c.Retryable()
	}
	return def
}

// classOf is Class of a variant whose cause decides whether it is
// retryable: ClassRetryable when it is, otherwise def.
func classOf(retryable bool, def Class) Class {
	if retryable {
		return ClassRetryable
	}
	return def
}

// causeOf returns the cause of e, which Unwrap returns.
func causeOf(e variant) error {
	if u, ok := e.(interface{ Unwrap() error }); ok {
		return u.Unwrap()
	}
	return nil
}

// asChain returns the first error in err's chain that is a T, or that an As
// method turns into one, as errors.As(err, &target) does, but without
// reflection and, unless an As method is called, without allocating.
func asChain[T any](err error) (T, bool) {
	return asDepth[T](err, 0)
}

func asDepth[T any](err error, depth int) (T, bool) {
	var zero T
	for ; err != nil && depth < maxChain && !isNil(err); depth++ {
		if t, ok := err.(T); ok {
			return t, true
		}
		if x, ok := err.(interface{ As(any) bool }); ok {
			var t T
			if x.As(&t) {
				return t, true
			}
		}
		one, many := next(err)
		if many != nil {
			for _, e := range many {
				if t, ok := asDepth[T](e, depth+1); ok {
					return t, true
				}
			}
			return zero, false
		}
		err = one
	}
	return zero, false
}

// The texts of a variant the runtime renders.
const (
	textMessage = iota
	textKey
	textUser
)

// render renders a template of e, the variant infos[i].
func render(e variant, i int, part int) string {
	if isNil(e) {
		return "<nil>"
	}
	return string(appendText(nil, e, i, part))
}

// appendText appends a template of e, the variant infos[i], rendered, to
// dst.
func appendText(dst []byte, e variant, i int, part int) []byte {
	switch part {
	case textKey:
		return appendTemplate(dst, e, i, forms[i].key)
	case textUser:
		if forms[i].user == "" {
			return appendTemplate(dst, e, i, infos[i].Message)
		}
		return appendTemplate(dst, e, i, forms[i].user)
	}
	return appendTemplate(dst, e, i, infos[i].Message)
}

// appendTemplate appends t, a template of the variant e (infos[i]) as the
// catalogue writes it, rendered with e's fields: {code} is the code,
// {name} the field of that name as fmt's %v formats it, and {{ and }} are
// literal braces. The catalogue's templates are checked, so every
// placeholder names a field.
func appendTemplate(dst []byte, e variant, i int, t string) []byte {
	for len(t) > 0 {
		j := 0
		for j < len(t) && t[j] != '{' && t[j] != '}' {
			j++
		}
		if j == len(t) {
			return append(dst, t...)
		}
		dst = append(dst, t[:j]...)
		if j+1 < len(t) && t[j+1] == t[j] {
			dst = append(dst, t[j])
			t = t[j+2:]
			continue
		}
		end := j + 1
		for end < len(t) && t[end] != '}' {
			end++
		}
		name := t[j+1 : end]
		if end < len(t) {
			end++
		}
		t = t[end:]
		if name == "code" {
			dst = append(dst, infos[i].Code...)
			continue
		}
		for k := range forms[i].fields {
			if f := &forms[i].fields[k]; f.name == name {
				if f.cause {
					dst = appendError(dst, causeOf(e))
				} else {
					dst = appendValue(dst, fieldOf(e, k))
				}
				break
			}
		}
	}
	return dst
}

// appendValue appends the field p points to as fmt's %v formats it.
func appendValue(dst []byte, p any) []byte {
	switch p := p.(type) {
	case *string:
		return append(dst, *p...)
	case *bool:
		return strconv.AppendBool(dst, *p)
	case *int:
		return strconv.AppendInt(dst, int64(*p), 10)
	case *int64:
		return strconv.AppendInt(dst, *p, 10)
	case *uint64:
		return strconv.AppendUint(dst, *p, 10)
	case *float64:
		return strconv.AppendFloat(dst, *p, 'g', -1, 64)
	case *time.Duration:
		return append(dst, p.String()...)
	case *[]string:
		dst = append(dst, '[')
		for i, s := range *p {
			if i > 0 {
				dst = append(dst, ' ')
			}
			dst = append(dst, s...)
		}
		return append(dst, ']')
	}
	return dst
}

// appendError appends err as fmt's %v formats it: <nil> for nil, and for
// an Error method that panics on a nil pointer.
func appendError(dst []byte, err error) []byte {
	return append(dst, errorText(err)...)
}

// errorText is err.Error() as fmt's %v reports it, so a nil error or a
// nil pointer in a cause field reads <nil> instead of panicking.
func errorText(err error) (s string) {
	if err == nil {
		return "<nil>"
	}
	defer func() {
		if r := recover(); r != nil {
			if isNil(err) {
				s = "<nil>"
				return
			}
			s = fmt.Sprintf("%%!v(PANIC=Error method: %v)", r)
		}
	}()
	return err.Error()
}

// logValue is LogValue of e, the variant infos[i]: a group of its code,
// number, category and fields.
func logValue(e variant, i int) slog.Value {
	in := &infos[i]
	attrs := make([]slog.Attr, 0, 3+len(forms[i].fields))
	attrs = append(attrs, slog.String("code", string(in.Code)), slog.Int("num", in.Num), slog.String("category", string(in.Category)))
	if isNil(e) {
		return slog.GroupValue(attrs...)
	}
	for k := range forms[i].fields {
		f := &forms[i].fields[k]
		if f.cause {
			attrs = append(attrs, slog.Any(f.name, causeOf(e)))
			continue
		}
		var a slog.Attr
		switch p := fieldOf(e, k).(type) {
		case *string:
			a = slog.String(f.name, *p)
		case *bool:
			a = slog.Bool(f.name, *p)
		case *int:
			a = slog.Int(f.name, *p)
		case *int64:
			a = slog.Int64(f.name, *p)
		case *uint64:
			a = slog.Uint64(f.name, *p)
		case *float64:
			a = slog.Float64(f.name, *p)
		case *time.Duration:
			a = slog.Duration(f.name, *p)
		case *[]string:
			a = slog.Any(f.name, *p)
		default:
			continue
		}
		attrs = append(attrs, a)
	}
	return slog.GroupValue(attrs...)
}

// CodeOf returns the code of the first error of the catalogue in err's
// chain, or "" when there is none (and for nil).
func CodeOf(err error) Code {
	if c := find(err); c != nil {
		return c.Code()
	}
	return ""
}

// IsRetryable reports whether the first error of the catalogue in err's
// chain is retryable; false when there is none (and for nil).
func IsRetryable(err error) bool {
	if c := find(err); c != nil {
		return c.Retryable()
	}
	return false
}

// ClassOf returns the class of the first error of the catalogue in err's
// chain, or ClassUnknown when there is none (and for nil).
func ClassOf(err error) Class {
	if c := find(err); c != nil {
		return c.Class()
	}
	return ClassUnknown
}

// UserMessageOf returns the user-facing message of the first error of the
// catalogue in err's chain, or "" when there is none.
func UserMessageOf(err error) string {
	if c := find(err); c != nil {
		return c.UserMessage()
	}
	return ""
}

// RetryAfterOf returns the retry-after value of the first error in err's
// chain that carries one (a variant with a retry_after field), looking
// through wrappers of the catalogue too, so a rate limit wrapped by a
// higher layer still tells the caller how long to wait.
func RetryAfterOf(err error) (time.Duration, bool) {
	return retryAfterDepth(err, 0)
}

func retryAfterDepth(err error, depth int) (time.Duration, bool) {
	for ; err != nil && depth < maxChain && !isNil(err); depth++ {
		if v, ok := err.(variant); ok {
			if i, ok := lookupCode(v.Code()); ok {
				for k, f := range forms[i].fields {
					if f.retryAfter {
						if p, ok := fieldOf(v, k).(*time.Duration); ok {
							return *p, true
						}
					}
				}
			}
		}
		one, many := next(err)
		if many != nil {
			for _, e := range many {
				if d, ok := retryAfterDepth(e, depth+1); ok {
					return d, true
				}
			}
			return 0, false
		}
		err = one
	}
	return 0, false
}

// Lookup returns the entry with the given code. Reserved and unknown codes
// are not found.
func Lookup(code Code) (Info, bool) {
	if i, ok := lookupCode(code); ok {
		return infos[i], true
	}
	return Info{}, false
}

// byCode indexes infos by code, built on the first lookup.
var byCode = sync.OnceValue(func() map[Code]int {
	m := make(map[Code]int, len(infos))
	for i := range infos {
		m[infos[i].Code] = i
	}
	return m
})

// lookupCode returns the position in infos of the entry with the given
// code.
func lookupCode(code Code) (int, bool) {
	i, ok := byCode()[code]
	return i, ok
}

// LookupNum returns the entry with the given number. Reserved and unknown
// numbers are not found.
func LookupNum(num int) (Info, bool) {
	lo, hi := 0, len(infos)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if infos[m].Num < num {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(infos) && infos[lo].Num == num {
		return infos[lo], true
	}
	return Info{}, false
}

// All returns every entry of the catalogue, sorted by Num. The slice is a
// copy the caller may keep and change.
func All() []Info {
	return append([]Info(nil), infos[:]...)
}

// Payload is the JSON object the model reads to correct itself. LLMPayload
// fills it from an error; the caller may then set RequiredFields and
// UsageHint (or change any hint) before encoding it with json.Marshal or
// AppendJSON. Keys come in a fixed order, empty optional keys are left out,
// and the bytes are exactly those encoding/json would produce.
type Payload struct {
	Type           string
	Category       Category
	Code           Code
	CodeNum        int
	Error          string
	Retryable      bool
	SuppressRetry  bool
	SuppressionKey string
	// SuggestedTool, SuggestedAction and UsageHint start as the catalogue's
	// static hints.
	SuggestedTool   string
	SuggestedAction string
	// RequiredFields lists the parameters the tool requires, typically
	// filled from its schema when the model sent invalid arguments.
	RequiredFields []string
	UsageHint      string

	// fields is the variant whose payload fields the payload carries, nil
	// for a payload decoded from an unknown code; index is its entry in
	// infos.
	fields variant
	index  int
}

// newPayload is LLMPayload of e, the variant infos[i].
func newPayload(e variant, i int) *Payload {
	in := &infos[i]
	p := &Payload{
		Type:            in.PayloadType,
		Category:        in.Category,
		Code:            in.Code,
		CodeNum:         in.Num,
		Error:           render(e, i, textMessage),
		Retryable:       e.Retryable(),
		SuppressRetry:   in.SuppressRetry,
		SuggestedTool:   in.SuggestedTool,
		SuggestedAction: in.SuggestedAction,
		UsageHint:       in.UsageHint,
		index:           i,
	}
	if !isNil(e) {
		p.SuppressionKey = e.SuppressionKey()
		p.fields = e
	}
	return p
}

// MarshalJSON encodes the payload; see AppendJSON.
func (p Payload) MarshalJSON() ([]byte, error) {
	return p.AppendJSON(nil), nil
}

// AppendJSON appends the payload's JSON encoding to dst and returns the
// extended buffer.
func (p *Payload) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	first := true
	for _, k := range payloadShape {
		mark := len(dst)
		if !first {
			dst = append(dst, ',')
		}
		if k.kind == keyFields {
			if p.fields != nil {
				dst = appendFields(dst[:mark], p.fields, p.index, !first)
				first = first && len(dst) == mark
			} else {
				dst = dst[:mark]
			}
			continue
		}
		dst = appendKey(dst, k.name)
		start := len(dst)
		switch k.kind {
		case keyType:
			dst = appendString(dst, p.Type)
		case keyCategory:
			dst = appendString(dst, string(p.Category))
		case keyCode:
			dst = appendString(dst, string(p.Code))
		case keyCodeNum:
			dst = strconv.AppendInt(dst, int64(p.CodeNum), 10)
		case keyError:
			dst = appendString(dst, p.Error)
		case keyRetryable:
			dst = strconv.AppendBool(dst, p.Retryable)
		case keySuppressRetry:
			dst = strconv.AppendBool(dst, p.SuppressRetry)
		case keySuppressionKey:
			dst = appendOptional(dst, p.SuppressionKey)
		case keySuggestedTool:
			dst = appendOptional(dst, p.SuggestedTool)
		case keySuggestedAction:
			dst = appendOptional(dst, p.SuggestedAction)
		case keyRequiredFields:
			if len(p.RequiredFields) > 0 {
				dst = appendStrings(dst, p.RequiredFields)
			}
		case keyUsageHint:
			dst = appendOptional(dst, p.UsageHint)
		}
		if k.omit && len(dst) == start {
			dst = dst[:mark]
			continue
		}
		first = false
	}
	return append(dst, '}')
}

// appendOptional appends s as a JSON string, or nothing when it is empty.
func appendOptional(dst []byte, s string) []byte {
	if s == "" {
		return dst
	}
	return appendString(dst, s)
}

// appendPayload is AppendLLMPayload of e, the variant infos[i], without
// building a Payload: the texts are rendered straight into dst and escaped
// in place, so encoding allocates nothing beyond growing dst.
func appendPayload(dst []byte, e variant, i int) []byte {
	in := &infos[i]
	dst = append(dst, '{')
	first := true
	live := !isNil(e)
	for _, k := range payloadShape {
		mark := len(dst)
		if !first {
			dst = append(dst, ',')
		}
		if k.kind == keyFields {
			if live {
				dst = appendFields(dst[:mark], e, i, !first)
				first = first && len(dst) == mark
			} else {
				dst = dst[:mark]
			}
			continue
		}
		dst = appendKey(dst, k.name)
		start := len(dst)
		switch k.kind {
		case keyType:
			dst = appendName(dst, in.PayloadType)
		case keyCategory:
			dst = appendName(dst, string(in.Category))
		case keyCode:
			dst = appendName(dst, string(in.Code))
		case keyCodeNum:
			dst = strconv.AppendInt(dst, int64(in.Num), 10)
		case keyError:
			dst = append(dst, '"')
			if live {
				dst = appendTemplate(dst, e, i, in.Message)
			} else {
				dst = append(dst, "<nil>"...)
			}
			dst = closeString(dst, start+1)
		case keyRetryable:
			dst = strconv.AppendBool(dst, e.Retryable())
		case keySuppressRetry:
			dst = strconv.AppendBool(dst, in.SuppressRetry)
		case keySuppressionKey:
			if live && forms[i].key != "" {
				dst = append(dst, '"')
				if dst = appendTemplate(dst, e, i, forms[i].key); len(dst) == start+1 {
					dst = dst[:start]
				} else {
					dst = closeString(dst, start+1)
				}
			}
		case keySuggestedTool:
			dst = appendOptional(dst, in.SuggestedTool)
		case keySuggestedAction:
			dst = appendOptional(dst, in.SuggestedAction)
		case keyUsageHint:
			dst = appendOptional(dst, in.UsageHint)
		}
		if k.omit && len(dst) == start {
			dst = dst[:mark]
			continue
		}
		first = false
	}
	return append(dst, '}')
}

// appendFields appends the payload fields of e, the variant infos[i], as
// members of a JSON object, each after a comma when comma is true or a
// member came before it, leaving out zero values as omitempty does.
func appendFields(dst []byte, e variant, i int, comma bool) []byte {
	for k := range forms[i].fields {
		f := &forms[i].fields[k]
		if !f.payload {
			continue
		}
		mark := len(dst)
		if comma {
			dst = append(dst, ',')
		}
		dst = appendKey(dst, f.name)
		start := len(dst)
		switch p := fieldOf(e, k).(type) {
		case *string:
			if *p != "" {
				dst = appendString(dst, *p)
			}
		case *bool:
			if *p {
				dst = append(dst, "true"...)
			}
		case *int:
			if *p != 0 {
				dst = strconv.AppendInt(dst, int64(*p), 10)
			}
		case *int64:
			if *p != 0 {
				dst = strconv.AppendInt(dst, *p, 10)
			}
		case *time.Duration:
			if *p != 0 {
				dst = strconv.AppendInt(dst, int64(*p), 10)
			}
		case *uint64:
			if *p != 0 {
				dst = strconv.AppendUint(dst, *p, 10)
			}
		case *float64:
			if *p != 0 {
				dst = appendFloat(dst, *p)
			}
		case *[]string:
			if len(*p) > 0 {
				dst = appendStrings(dst, *p)
			}
		}
		if len(dst) == start {
			dst = dst[:mark]
			continue
		}
		comma = true
	}
	return dst
}

// appendKey appends the key of an object member and its colon. Keys are
// snake_case, so they need no escaping.
func appendKey(dst []byte, name string) []byte {
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"', ':')
}

// closeString turns the raw text dst[start:], which follows an opening
// quote, into the rest of a JSON string: escaped in place, then closed.
func closeString(dst []byte, start int) []byte {
	end := len(dst)
	i := start + safePrefix(dst[start:end])
	for ; i < end; i++ {
		if !jsonSafe[dst[i]] {
			dst = appendEscaped(dst, dst[i:end])
			n := copy(dst[i:], dst[end:])
			dst = dst[:i+n]
			break
		}
	}
	return append(dst, '"')
}

// safePrefix returns the length of a prefix of s, a multiple of eight
// bytes, that needs no escaping in a JSON string (see jsonSafe). It reads
// a word at a time; it may stop early, never late.
func safePrefix(s []byte) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64(s[i:])
		// A byte of 0x80 or more or below 0x20, or one that is zero after
		// x is xored with ", with \, with > (< too, once bit 1 is set),
		// or with &.
		q, b, a, h := x^(lo*'"'), x^(lo*'\\'), x^(lo*'&'), (x|lo*2)^(lo*'>')
		t := x | (x-lo*0x20)&^x | (q-lo)&^q | (b-lo)&^b | (a-lo)&^a | (h-lo)&^h
		if t&hi != 0 {
			break
		}
	}
	return i
}

// appendName appends s, a code, category or payload type of the
// catalogue, as a JSON string: the resolver holds them to [a-z0-9_], so
// they need no escaping.
func appendName(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

const hexDigits = "0123456789abcdef"

// jsonSafe reports the bytes a JSON string holds as they are: printable
// ASCII but for the quote, the backslash and the HTML-sensitive <, > and &,
// which encoding/json escapes.
var jsonSafe = func() (t [256]bool) {
	for b := 0x20; b < utf8.RuneSelf; b++ {
		t[b] = b != '"' && b != '\\' && b != '<' && b != '>' && b != '&'
	}
	return t
}()

// appendString appends s as a JSON string exactly as encoding/json does:
// HTML-sensitive characters, U+2028 and U+2029 escaped, invalid UTF-8
// replaced by U+FFFD.
func appendString[S string | []byte](dst []byte, s S) []byte {
	dst = append(dst, '"')
	dst = appendEscaped(dst, s)
	return append(dst, '"')
}

// appendEscaped appends the inside of the JSON string of s.
func appendEscaped[S string | []byte](dst []byte, s S) []byte {
	start := 0
	for i := 0; i < len(s); {
		b := s[i]
		if jsonSafe[b] {
			i++
			continue
		}
		if b < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		n := min(len(s)-i, utf8.UTFMax)
		c, size := utf8.DecodeRuneInString(string(s[i : i+n]))
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(dst, s[start:]...)
}

// appendStrings appends a JSON array of strings.
func appendStrings(dst []byte, list []string) []byte {
	dst = append(dst, '[')
	for i, s := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, s)
	}
	return append(dst, ']')
}

// appendFloat appends f as encoding/json does. NaN and infinities, which
// encoding/json refuses, become null so the payload stays valid JSON.
func appendFloat(dst []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(dst, "null"...)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	dst = strconv.AppendFloat(dst, f, format, -1, 64)
	if format == 'e' {
		// Clean up e-09 to e-9, as encoding/json does.
		if n := len(dst); n >= 4 && dst[n-4] == 'e' && dst[n-3] == '-' && dst[n-2] == '0' {
			dst[n-2] = dst[n-1]
			dst = dst[:n-1]
		}
	}
	return dst
}

// RemoteError is an error decoded from a payload another service sent.
// Its message is the sender's. When this catalogue knows the code (with
// the same number), Unwrap returns the exact variant with its payload
// fields, so errors.As finds it; otherwise the payload is all there is, and
// CodeOf and IsRetryable still answer from it: a newer service's errors do
// not break an older client.
type RemoteError struct {
	// Payload is the decoded payload.
	Payload Payload
	// Raw is the payload exactly as received, including keys this
	// catalogue does not know.
	Raw json.RawMessage

	err   variant
	class Class // the class this catalogue gives err
}

// Error returns the message the sender wrote.
func (e *RemoteError) Error() string { return e.Payload.Error }

// Unwrap returns the decoded variant, or nil when the code is not in this
// catalogue.
func (e *RemoteError) Unwrap() error {
	if e == nil || e.err == nil {
		return nil
	}
	return e.err
}

// Code returns the payload's code.
func (e *RemoteError) Code() Code { return e.Payload.Code }

// CodeNum returns the payload's number.
func (e *RemoteError) CodeNum() int { return e.Payload.CodeNum }

// Retryable reports what the sender said.
func (e *RemoteError) Retryable() bool { return e.Payload.Retryable }

// Class returns ClassRetryable when the sender said retryable, otherwise
// the class this catalogue gives the code (terminal for an unknown code).
func (e *RemoteError) Class() Class {
	switch {
	case e.Payload.Retryable:
		return ClassRetryable
	case e.err != nil && e.class != ClassRetryable:
		return e.class
	}
	return ClassTerminal
}

// UserMessage returns the decoded variant's user-facing message (fields
// that did not travel in the payload are empty), or "" for an unknown code.
func (e *RemoteError) UserMessage() string {
	if e.err == nil {
		return ""
	}
	return e.err.UserMessage()
}

// maxPayload bounds the payloads DecodePayload reads.
const maxPayload = 1 << 20

// DecodePayload decodes a payload produced by LLMPayload or
// AppendLLMPayload, by this service or another one sharing the catalogue.
// Keys are matched exactly, as every other JSON reader of the payload
// matches them, and a key given twice is refused, so no sender can make
// this reader see a different payload than they do.
func DecodePayload(data []byte) (*RemoteError, error) {
	if len(data) > maxPayload {
		return nil, fmt.Errorf("%s: payload of %d bytes; at most %d are decoded", packageName, len(data), maxPayload)
	}
	members, err := readObject(data)
	if err != nil {
		return nil, fmt.Errorf("%s: payload: %w", packageName, err)
	}
	var p Payload
	for _, f := range []struct {
		key string
		to  any
	}{
		{"type", &p.Type}, {"category", &p.Category}, {"code", &p.Code}, {"code_num", &p.CodeNum},
		{"error", &p.Error}, {"retryable", &p.Retryable}, {"suppress_retry", &p.SuppressRetry},
		{"suppression_key", &p.SuppressionKey}, {"suggested_tool", &p.SuggestedTool},
		{"suggested_action", &p.SuggestedAction}, {"required_fields", &p.RequiredFields},
		{"usage_hint", &p.UsageHint},
	} {
		if raw, ok := members[f.key]; ok {
			if err := json.Unmarshal(raw, f.to); err != nil {
				return nil, fmt.Errorf("%s: payload key %q: %w", packageName, f.key, err)
			}
		}
	}
	if p.Code == "" {
		return nil, errors.New(packageName + ": payload has no code")
	}
	e := &RemoteError{Payload: p, Raw: append(json.RawMessage(nil), data...)}
	if i, ok := lookupCode(p.Code); ok && infos[i].Num == p.CodeNum && infos[i].PayloadType != "" {
		// A new variant of the code's type, its payload fields read from
		// the members of their names.
		v := reflect.New(reflect.TypeOf(variantTypes[i]).Elem()).Interface().(variant)
		for k := range forms[i].fields {
			f := &forms[i].fields[k]
			raw, ok := members[f.name]
			if !ok || !f.payload {
				continue
			}
			if err := json.Unmarshal(raw, fieldOf(v, k)); err != nil {
				return nil, fmt.Errorf("%s: payload key %q: %w", packageName, f.name, err)
			}
		}
		e.err, e.class = v, infos[i].Class
		e.Payload.fields, e.Payload.index = v, i
	}
	return e, nil
}

// readObject reads a JSON object into its members by key, refusing a key
// that appears twice.
func readObject(data []byte) (map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil {
		return nil, err
	} else if tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	members := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key := tok.(string)
		if _, dup := members[key]; dup {
			return nil, fmt.Errorf("key %q appears twice", key)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		members[key] = raw
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("data after the object")
	}
	return members, nil
}
