// errgen runtime: copied into every generated package as errgen_runtime.go.

package runtime

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"math"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// This file is the same in every generated package but for its first line
// and its package clause. It holds the algorithms: walking wrap chains,
// rendering templates, encoding and decoding payloads and wire forms,
// logging. What a catalogue means (its codes, classes, templates, fields,
// HTTP statuses and the payload's key order) is in the tables errgen
// generates beside it, in errgen.go.
//
// Every generated package compiles this file, so its cost to the compiler
// is paid in every build of one. A function marked //go:noinline is kept
// out of line for that reason: inlined at each of its calls, it cost the
// compiler more than the call costs at run time (errgen's BENCHMARKS.md
// counts both).

// Error is implemented by every error of the catalogue, and by
// *RemoteError, an error decoded from another service.
type Error interface {
	error
	// Code returns the error's stable string code.
	Code() Code
	// CodeNum returns the error's stable number.
	CodeNum() int
	// Category returns the error's category.
	Category() Category
	// Retryable reports whether trying again may succeed.
	Retryable() bool
	// Class says how a handler should treat the error.
	Class() Class
	// UserMessage returns the message to show an end user: never the
	// technical message.
	UserMessage() string
}

// Info describes one entry of the catalogue. It marshals to JSON with
// snake_case keys. The RequiredFields and Subcodes of an Info that Lookup,
// LookupNum or LookupHTTPStatus return are the package's own, shared with
// every caller so that a lookup allocates nothing: read them, never change
// them (All returns copies to change). The errors themselves never read
// them: changing one changes what later lookups report, not what any
// error does.
type Info struct {
	// Name is the variant's Go type name.
	Name string `json:"name"`
	// Family is the Go interface type the variant belongs to.
	Family string `json:"family"`
	// Code is the variant's stable string code.
	Code Code `json:"code"`
	// Num is the variant's stable number.
	Num int `json:"num"`
	// Category is the variant's category.
	Category Category `json:"category"`
	// Class says how a handler should treat the error. For a variant that
	// takes its retryability from its cause, it is the class without one;
	// for one whose field decides it for each error (a field marked
	// retryable), ClassTerminal, the class of an error whose field is
	// false.
	Class Class `json:"class"`
	// Retryable reports whether the error is worth retrying. For a variant
	// that takes its retryability from its cause, it is the value without
	// one; for one whose field decides it for each error, false: ask the
	// error.
	Retryable bool `json:"retryable"`
	// RetryableFromCause reports whether the variant's cause decides
	// whether it is retryable.
	RetryableFromCause bool `json:"retryable_from_cause"`
	// SuppressRetry reports whether the model should stop retrying the same
	// call.
	SuppressRetry bool `json:"suppress_retry"`
	// Configurable reports whether the application's ClassPolicy decides
	// the variant's class; Class and Retryable are then its defaults.
	Configurable bool `json:"configurable"`
	// PayloadType is the "type" of the variant's LLM payload, or "" when its
	// family sends none.
	PayloadType string `json:"payload_type,omitempty"`
	// SuggestedTool, SuggestedAction and UsageHint are the static hints the
	// LLM payload carries.
	SuggestedTool   string `json:"suggested_tool,omitempty"`
	SuggestedAction string `json:"suggested_action,omitempty"`
	UsageHint       string `json:"usage_hint,omitempty"`
	// RequiredFields is what the LLM payload's required_fields starts as.
	RequiredFields []string `json:"required_fields,omitempty"`
	// Subcodes are the codes an instance may select instead of Code; its
	// payload then carries the sub-code, and Num.
	Subcodes []Code `json:"subcodes,omitempty"`
	// Message is the message template as the catalogue writes it.
	Message string `json:"message"`
	// Doc is the variant's documentation.
	Doc string `json:"doc,omitempty"`
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
// the classes as constants. In text (logs, JSON) a class is its name.
type Class int

// String returns the class's name as the catalogue documentation spells
// it: terminal, retryable, non_fatal or unknown; Class(N) for a value
// that is none of them.
func (c Class) String() string {
	if !c.valid() {
		return "Class(" + strconv.Itoa(int(c)) + ")"
	}
	return classNames[c]
}

// valid reports whether c is one of the classes.
func (c Class) valid() bool { return c >= 0 && int(c) < len(classNames) }

// MarshalText returns the class's name; a value that is no class is an
// error, not a name that would read back as another class.
func (c Class) MarshalText() ([]byte, error) {
	if !c.valid() {
		return nil, fmt.Errorf("%s: %s is not a class", packageName, c)
	}
	return []byte(classNames[c]), nil
}

// UnmarshalText reads a class's name.
func (c *Class) UnmarshalText(text []byte) error {
	for i, name := range classNames {
		if name == string(text) {
			*c = Class(i)
			return nil
		}
	}
	return fmt.Errorf("%s: unknown class %q", packageName, text)
}

// form is what the runtime renders a variant's texts and payload from,
// besides its Info; forms holds one for each entry of infos.
type form struct {
	// key is the suppression key template, "" when the variant has none.
	key string
	// user is the user message template; with userCause set, the cause's
	// user message comes first at run time.
	user      string
	userCause bool
	fields    []field
	// subcodes and required are the variant's sub-codes and static
	// required_fields, as its Info has them: the runtime reads these,
	// which no caller holds, never the Info's.
	subcodes []Code
	required []string
	// subcodeField, toolField, actionField and keyField are the positions,
	// counted from 1, of the struct fields in which an instance selects a
	// sub-code and overrides suggested_tool, suggested_action and the
	// suppression key; 0 when the variant has no such field. They follow
	// the catalogue's fields.
	subcodeField, toolField, actionField, keyField uint8
}

// field describes one field of a variant.
type field struct {
	name string
	// payload reports whether the field is sent in the LLM payload.
	payload bool
	// cause reports whether the field is the variant's cause, which Unwrap
	// returns.
	cause bool
	// retryAfter reports whether RetryAfterOf reads the field.
	retryAfter bool
	// httpStatus reports whether FromHTTP and Classify set the field, an
	// int, to the HTTP status they matched.
	httpStatus bool
	// retryable reports whether the field, a bool, is what the variant's
	// Retryable returns (a field marked retryable).
	retryable bool
	// sensitive reports whether the field holds a secret: never sent,
	// and Redacted in logs and in fmt's output.
	sensitive bool
	// imported reports whether the field is a cause of a family of
	// another catalogue, an error of another generated package.
	imported bool
	// unit is the unit of a duration field on the wire and in text.
	unit time.Duration
}

// inUnit returns d as a whole number of f's unit: cut, but rounded up for
// the retry_after field, so that no text, payload or wire form tells the
// model or another service to wait less than the error says.
func (f *field) inUnit(d time.Duration) int64 {
	n := d / f.unit
	if f.retryAfter && d%f.unit > 0 {
		n++
	}
	return int64(n)
}

// fieldIndex returns the position in fields of the one named name, -1
// when there is none.
func fieldIndex(fields []field, name string) int {
	for k := range fields {
		if fields[k].name == name {
			return k
		}
	}
	return -1
}

// hasField reports whether fields has one named name.
func hasField(fields []field, name string) bool { return fieldIndex(fields, name) >= 0 }

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

// statusRange maps the HTTP statuses from lo to hi to the entry of infos
// at index; httpStatuses lists them most specific first.
type statusRange struct {
	lo, hi, index int
}

// maxChain bounds every walk of a wrap chain, so a chain that comes back on
// itself ends instead of looping forever or exhausting the stack.
const maxChain = 100

// variant is implemented by every generated variant type.
type variant interface {
	Error
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
// joins when it wraps several. A nil pointer wraps nothing.
func next(err error) (error, []error) {
	if isNil(err) {
		return nil, nil
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return u.Unwrap(), nil
	case interface{ Unwrap() []error }:
		return nil, u.Unwrap()
	}
	return nil, nil
}

// catalogueError returns err as an error of the catalogue, as errors.As
// would find it at this link of a chain: err itself, or what its As method
// gives. A nil pointer is none.
func catalogueError(err error) (Error, bool) {
	if c, ok := err.(Error); ok {
		return c, !isNil(c) && answers(c)
	}
	if x, ok := err.(interface{ As(any) bool }); ok && !isNil(err) {
		var c Error
		if asked(x, &c) && c != nil && !isNil(c) && answers(c) {
			return c, true
		}
	}
	return nil, false
}

// answers reports whether c, an error with the methods of one of the
// catalogue, answers them. The package's own types do. A type declared
// outside it may have them promoted from an interface it embeds, which may
// be nil: then each of them panics, so one call tells. Such an error is
// taken for one outside the catalogue, as every other error whose methods
// say nothing is, so that no function of the package panics where fmt,
// which recovers a panic of an Error method, does not. This is on the
// path of every walk: the one call is CodeNum, a constant of every
// variant, and nothing tells the package's own types apart first (that
// took a search of the catalogue by number and cost as much again).
func answers(c Error) (ok bool) {
	if _, remote := c.(*RemoteError); remote {
		return true
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	c.CodeNum()
	return true
}

// asked is x.As(target), false when that panics (see answers).
func asked(x interface{ As(any) bool }, target any) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return x.As(target)
}

// walk calls yield with every error of the catalogue in err's chain,
// outermost first, following Unwrap() error and Unwrap() []error depth
// first as errors.As does, until yield returns false; it reports whether
// the walk went to its end. A decoded error stands for the variant it
// unwraps to: that variant is not visited again, its cause is, and so is
// a cause the decoded error holds outside a field (see RemoteError.held),
// after the variant whose field could not hold it.
func walk(err error, depth int, yield func(Error) bool) bool {
	var from *RemoteError
	for ; err != nil && depth < maxChain; depth++ {
		if c, ok := catalogueError(err); ok {
			if !yield(c) {
				return false
			}
			// A decoded error in the chain goes on with its variant's cause;
			// one an As method stands for does not, as errors.As goes on
			// with the Unwrap of the error that has the method.
			if r, ok := c.(*RemoteError); ok && r.err != nil && err == error(r) {
				from = r
				err, _ = r.next(r.err)
				continue
			}
		}
		one, many := from.next(err)
		if many != nil {
			for _, e := range many {
				if !walk(e, depth+1, yield) {
					return false
				}
			}
			return true
		}
		err = one
	}
	return true
}

// find returns the first error of the catalogue in err's chain, or nil.
func find(err error) Error {
	c, _ := findLink(err, 0)
	return c
}

// findLink is find(err) with the link of err's chain it was found at: the
// error itself, or one whose As method stands for it. A variant an As
// method stands for is no link of the chain, and a check that the chain
// ends (causeOf) says nothing of its own cause. It walks as walk does up
// to the first error of the catalogue, before which no decoded error
// changes the way.
func findLink(err error, depth int) (Error, error) {
	for ; err != nil && depth < maxChain; depth++ {
		if c, ok := catalogueError(err); ok {
			return c, err
		}
		one, many := next(err)
		if many != nil {
			for _, e := range many {
				if c, link := findLink(e, depth+1); c != nil {
					return c, link
				}
			}
			return nil, nil
		}
		err = one
	}
	return nil, nil
}

// linkOf returns c, found at link, as a variant of the package whose
// cause the runtime may follow without a check of its own: one of its
// variants, not nil, that is the link itself, so that the check that the
// chain above it ends covers its cause too.
func linkOf(c Error, link error) (variant, bool) {
	v, own := ownOf(c)
	if !own || isNil(v) || error(v) != link {
		return nil, false
	}
	return v, true
}

// Chain returns every error of the catalogue in err's chain, outermost
// first, in the order errors.As would find them (As methods included: the
// error an As method stands for is one link, and the walk goes on with
// the Unwrap of the error that has the method, as errors.As does), a
// decoded error once, for use in a range loop:
//
//	for e := range Chain(err) { ... }
//
// Walking it allocates nothing.
func Chain(err error) iter.Seq[Error] {
	return func(yield func(Error) bool) { walk(err, 0, yield) }
}

// CodeOf returns the code of the outermost error of the catalogue in err's
// chain, or "" when there is none (and for nil).
func CodeOf(err error) Code {
	if c := find(err); c != nil {
		return c.Code()
	}
	return ""
}

// RootCodeOf returns the code of the innermost error of the catalogue in
// err's chain, the last one Chain yields, or "" when there is none.
func RootCodeOf(err error) Code {
	var code Code
	walk(err, 0, func(c Error) bool {
		code = c.Code()
		return true
	})
	return code
}

// HasCode reports whether any error of the catalogue in err's chain has the
// code; a variant's code also finds the instances that select one of its
// sub-codes.
func HasCode(err error, code Code) bool {
	found := false
	walk(err, 0, func(c Error) bool {
		found = sameVariant(c.Code(), code)
		return !found
	})
	return found
}

// IsRetryable reports whether the outermost error of the catalogue in
// err's chain is retryable; false when there is none (and for nil).
func IsRetryable(err error) bool {
	if c := find(err); c != nil {
		return c.Retryable()
	}
	return false
}

// ClassOf returns the class of the outermost error of the catalogue in
// err's chain, or ClassUnknown when there is none (and for nil).
func ClassOf(err error) Class {
	if c := find(err); c != nil {
		return c.Class()
	}
	return ClassUnknown
}

// UserMessageOf returns the user-facing message of the outermost error of
// the catalogue in err's chain, or "" when there is none.
func UserMessageOf(err error) string {
	if c := find(err); c != nil {
		return c.UserMessage()
	}
	return ""
}

// isCode is the Is method of the variant infos[i]: target has its code,
// so that errors.Is(err, &ToolTimeout{}) matches any error with that code.
//
//go:noinline
func isCode(target error, i int) bool { return codeOf(target) == infos[i].Code }

// isInstance is the Is method of e, a variant with sub-codes: target has
// the variant's code (any instance matches), or the sub-code e selects.
//
//go:noinline
func isInstance(target error, ev any) bool {
	e := ev.(variant)
	c := codeOf(target)
	return c == infos[variantIndex(e)].Code || (c != "" && c == e.Code())
}

// subcodeOf is the Code method of the variant infos[i] with sub-codes,
// whose instance selects code: code when the variant declares it, else
// the variant's own code.
func subcodeOf(code Code, i int) Code {
	if code != "" && slices.Contains(forms[i].subcodes, code) {
		return code
	}
	return infos[i].Code
}

// override is the hint an instance of e sets in its struct field at
// position n (counted from 1), or "" when n is 0 or the field is empty.
func override(e variant, n uint8) string {
	if n == 0 || isNil(e) {
		return ""
	}
	return *fieldOf(e, int(n)-1).(*string)
}

// orStatic is an instance's hint when it sets one, else the catalogue's.
func orStatic(instance, static string) string {
	if instance != "" {
		return instance
	}
	return static
}

// sameVariant reports whether code is want or one of the sub-codes of the
// variant whose code is want: HasCode(err, CodeCapabilityDenied) holds
// for every instance, whichever sub-code it selects.
func sameVariant(code, want Code) bool {
	if code == want {
		return true
	}
	i, ok := lookupCode(code)
	return ok && infos[i].Code == want
}

// codeOf is the code of target when it is an error of the catalogue.
func codeOf(target error) Code {
	c, ok := target.(Error)
	if !ok {
		return ""
	}
	if r, remote := c.(*RemoteError); remote && r == nil {
		return ""
	}
	// A nil variant still names its code: its Code method is a constant.
	return c.Code()
}

// retryableOf is Retryable of a variant whose cause decides: the cause's,
// or def when the cause is not an error of the catalogue. A cause that is
// itself a variant of the package whose cause decides, a link of the
// chain (not one an As method stands for, whose own chain no check here
// covers), is not asked: its Retryable would check its own chain again,
// as each link's would, so n such wrappers took n² steps. The walk goes on down to the error that
// decides, under the one check made here that the chain ends, and gives
// what each link's Retryable would.
func retryableOf(e variant, def bool) bool {
	if isNil(e) {
		return def
	}
	cause := causeOf(e)
	for {
		c, link := findLink(cause, 0)
		if c == nil {
			return def
		}
		v, own := linkOf(c, link)
		if !own {
			return c.Retryable()
		}
		i := variantIndex(v)
		if !fromCause(i) {
			return c.Retryable()
		}
		cause, def = v.(interface{ Unwrap() error }).Unwrap(), infos[i].Retryable
	}
}

// fromCause reports whether Retryable of the variant infos[i] is
// retryableOf with the catalogue's retryable as its default.
func fromCause(i int) bool {
	return infos[i].RetryableFromCause && !infos[i].Configurable && !importsCause(i)
}

// retryableOfImported is Retryable of e, a variant whose cause is a family
// of another catalogue: that error's own Retryable, else def.
func retryableOfImported(e variant, def bool) bool {
	if isNil(e) {
		return def
	}
	if s, ok := imported(causeOf(e)); ok {
		return s.Retryable()
	}
	return def
}

// importedError is implemented by the errors of every package errgen
// generates: the methods of Error whose types do not name this package's
// own Code and Category.
type importedError interface {
	error
	CodeNum() int
	Retryable() bool
	UserMessage() string
}

// imported returns cause as an error of another generated package, if it
// is one; only a cause field of another catalogue's family is asked.
//
//go:noinline
func imported(cause error) (importedError, bool) {
	s, ok := cause.(importedError)
	return s, ok && !isNil(cause)
}

// decodeImported decodes a cause of type t, a family of another
// catalogue, from its wire form, and returns it with the wire form to pass
// on (its package's Raw, without the sensitive fields that arrived): an
// error of the family, or, for a code that package does not know, its
// *RemoteError, which does not fit the field; ok is false for an error of
// another family of that package. A wire form that package refuses is
// refused with its DecodePayload's error, which names what is wrong
// inside the cause. errgen sets it in errgen.go for a catalogue with such
// causes, and leaves it nil otherwise.
var decodeImported func(t reflect.Type, raw []byte) (c error, clean []byte, ok bool, refused error)

// retryAfterImported is RetryAfterOf of the package of err, when err is
// an error of another catalogue whose families are causes here; errgen
// sets it in errgen.go for a catalogue with such causes, and leaves it nil
// otherwise.
var retryAfterImported func(err error) (time.Duration, bool)

// classOf is Class of a variant whose cause decides whether it is
// retryable: ClassRetryable when it is, otherwise def.
func classOf(retryable bool, def Class) Class {
	if retryable {
		return ClassRetryable
	}
	return def
}

// causeOf returns the cause of e, which Unwrap returns, or nil when
// following causes from e comes back to e (or goes on past maxCycle): the
// texts, log values, user messages and retryability that ask a cause
// would otherwise ask it forever. A chain longer than maxChain that does
// not come back keeps its causes; each walk of it stops at maxChain.
func causeOf(e variant) error {
	u, ok := e.(interface{ Unwrap() error })
	if !ok || isNil(e) {
		return nil
	}
	cause := u.Unwrap()
	if reaches(cause, e, 0) {
		return nil
	}
	return cause
}

// maxCycle bounds the walk that looks for a cause chain coming back to
// where it started: far past maxChain, so that only a cycle (or a chain no
// program builds) is cut, not a chain that is merely long.
const maxCycle = maxChain * maxChain

// reaches reports whether e is in err's chain (joins included), or the
// chain goes on past maxCycle.
func reaches(err error, e variant, depth int) bool {
	for ; err != nil; depth++ {
		if depth >= maxCycle || err == error(e) {
			return true
		}
		one, many := next(err)
		for _, m := range many {
			if reaches(m, e, depth+1) {
				return true
			}
		}
		err = one
	}
	return false
}

// findAs is the walk of every As<Family> helper: it returns the first
// error in err's chain that as, the family's function, turns into an error
// of the family, as errors.As(err, &target) finds it, but without
// reflection and, unless an As method is called, without allocating. as
// asserts an error to the family, or, with ask set, asks the error's As
// method for one. One walk for every family, with a small function each,
// costs the package's build a tenth of what a generic walk instantiated
// for each family did (BENCHMARKS.md).
func findAs(err error, as func(err error, ask bool) (error, bool)) (error, bool) {
	return findAsDepth(err, as, 0)
}

func findAsDepth(err error, as func(err error, ask bool) (error, bool), depth int) (error, bool) {
	for ; err != nil && depth < maxChain && !isNil(err); depth++ {
		if t, ok := as(err, false); ok {
			return t, true
		}
		if _, ok := err.(interface{ As(any) bool }); ok {
			if t, ok := askAs(err, as); ok {
				return t, true
			}
		}
		one, many := next(err)
		if many != nil {
			for _, e := range many {
				if t, ok := findAsDepth(e, as, depth+1); ok {
					return t, true
				}
			}
			return nil, false
		}
		err = one
	}
	return nil, false
}

// askAs is as(err, true): what err's As method makes of an error of the
// family, none when that panics (see answers).
func askAs(err error, as func(err error, ask bool) (error, bool)) (t error, ok bool) {
	defer func() {
		if recover() != nil {
			t, ok = nil, false
		}
	}()
	return as(err, true)
}

// The texts of a variant the runtime renders.
const (
	textMessage = iota
	textKey
	textUser
)

// The methods of every generated variant call messageText, keyText,
// userText, userMessageOf, newPayload, appendPayload, logValue,
// marshalWire, format and isInstance with the variant alone, as an any,
// not as a variant: converting to a non-empty interface at each of the
// thousands of call sites (a static itab for each variant), or inlining an
// assertion into each, costs the package's build more than all of the
// variants' constant methods, and so does each further argument, such as
// the variant's position in infos (see BENCHMARKS.md). These functions
// assert once, inside, find the position from the variant's number, and
// are never inlined.

// variantIndex returns the position in infos of e, a variant of this
// package, by its CodeNum: a constant method, which a nil e answers too.
func variantIndex(e variant) int { return searchNum(e.CodeNum()) }

// messageText is Error of e: its message.
//
//go:noinline
func messageText(ev any) string {
	e := ev.(variant)
	return render(e, variantIndex(e), textMessage)
}

// keyText is SuppressionKey of e, when it renders a template or an
// instance may override it.
//
//go:noinline
func keyText(ev any) string {
	e := ev.(variant)
	return render(e, variantIndex(e), textKey)
}

// userText is UserMessage of e, when it renders a template.
//
//go:noinline
func userText(ev any) string {
	e := ev.(variant)
	return render(e, variantIndex(e), textUser)
}

// render renders a template of e, the variant infos[i]. A nil e's message
// and suppression key are <nil>, as fmt prints a nil error; its user
// message, which an end user reads, is rendered as for a zero value, as a
// variant's user message without fields is a constant that a nil receiver
// returns too.
func render(v variant, i int, part int) string {
	if isNil(v) {
		if part != textUser {
			return "<nil>"
		}
		v = newVariant(i)
	}
	return string(appendText(nil, v, i, part))
}

// appendText appends a template of e, the variant infos[i], rendered, to
// dst.
func appendText(dst []byte, e variant, i int, part int) []byte {
	switch part {
	case textKey:
		if key := override(e, forms[i].keyField); key != "" {
			return append(dst, key...)
		}
		return appendTemplate(dst, e, i, forms[i].key, nil, false)
	case textUser:
		return appendTemplate(dst, e, i, forms[i].user, nil, false)
	}
	return appendTemplate(dst, e, i, infos[i].Message, nil, false)
}

// userMessageOf is UserMessage of e, the variant infos[i], when it has no
// user message of its own or of its family: its cause's, when the cause is
// an error of the catalogue, else the catalogue's default or errgen's
// neutral sentence. Never the technical message.
//
// A cause that is itself a variant of the package whose user message
// defers to its cause, a link of the chain, is not asked, as in
// retryableOf: the walk goes on
// down the chain under the one check made here that it ends, and the
// message is the first one of the error at its end, else the innermost
// link's own, as each link's UserMessage would give.
//
//go:noinline
func userMessageOf(ev any) string {
	e := ev.(variant)
	i := variantIndex(e)
	// The link whose own message answers when the end gives none: the
	// innermost with one.
	own, code := i, e.Code()
	cause := causeOf(e)
	for {
		if c, link := findLink(cause, 0); c != nil {
			v, ok := linkOf(c, link)
			if !ok || !forms[variantIndex(v)].userCause {
				if m := c.UserMessage(); m != "" {
					return m
				}
				break
			}
			i = variantIndex(v)
			if forms[i].user != "" {
				own, code = i, v.Code()
			}
			cause = v.(interface{ Unwrap() error }).Unwrap()
			continue
		}
		if s, ok := imported(cause); ok && importsCause(i) {
			if m := s.UserMessage(); m != "" {
				return m
			}
		}
		break
	}
	return renderCode(forms[own].user, code)
}

// importsCause reports whether the cause of infos[i] is a family of
// another catalogue.
func importsCause(i int) bool {
	return slices.ContainsFunc(forms[i].fields, func(f field) bool { return f.imported })
}

// renderCode renders a template whose only placeholder is {code}.
func renderCode(t string, code Code) string {
	return strings.NewReplacer("{code}", string(code), "{{", "{", "}}", "}").Replace(t)
}

// appendTemplate appends t, a template of the variant e (infos[i]) as the
// catalogue writes it, rendered with e's fields: {code} is the code,
// {name} the field of that name as fmt's %v formats it (a duration as a
// whole number of its unit, a list as its items joined by ", "), and {{ and
// }} are literal braces. The catalogue's templates are checked, so every
// placeholder names a field. The cause is top's for e (see
// RemoteError.causeOf); top may be nil. With ends set, e's chain is known
// to end (see appendCauseText) and its cause is taken as Unwrap returns it.
func appendTemplate(dst []byte, e variant, i int, t string, top *RemoteError, ends bool) []byte {
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
			dst = append(dst, e.Code()...)
			continue
		}
		if k := fieldIndex(forms[i].fields, name); k >= 0 {
			if f := &forms[i].fields[k]; !f.cause {
				dst = appendValue(dst, fieldOf(e, k), f)
			} else if ends {
				dst = appendCauseText(dst, e.(interface{ Unwrap() error }).Unwrap())
			} else {
				dst = appendCauseText(dst, top.causeOf(e))
			}
		}
	}
	return dst
}

// appendValue appends f, the field p points to, as text.
func appendValue(dst []byte, p any, f *field) []byte {
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
		return strconv.AppendInt(dst, f.inUnit(*p), 10)
	case *[]string:
		for i, s := range *p {
			if i > 0 {
				dst = append(dst, ", "...)
			}
			dst = append(dst, s...)
		}
	}
	return dst
}

// appendCauseText appends the text of err, the cause of a variant whose
// chain ends (causeOf checked it, or it is below one that was checked). A
// variant of this package is rendered in place, as its Error method
// renders it, with its own cause taken as its field holds it: the check
// above covers it. So the text of a chain of n variants takes time in
// proportion to n, where each Error method checking and copying its
// cause's text took n². Any other error gives what its Error method does.
func appendCauseText(dst []byte, err error) []byte {
	if c, ok := err.(variant); ok && !isNil(c) {
		if i, own := ownVariant(c); own {
			return appendTemplate(dst, c, i, infos[i].Message, nil, true)
		}
	}
	return appendError(dst, err)
}

// ownVariant returns the row of infos of c, and whether c is a variant of
// this package: a type outside it may have the methods of one. Such a
// type's methods are not called: one may panic (a nil interface it
// embeds), and its text is then what errorText makes of its Error
// method's panic.
func ownVariant(c variant) (int, bool) {
	if !ownType(c) {
		return 0, false
	}
	i := variantIndex(c)
	return i, i < len(infos) && reflect.TypeOf(c) == reflect.TypeOf(variantTypes[i])
}

// ownOf returns x as a variant, when it is one of this package's: a
// pointer to one of its variants' types. A type that embeds a variant has
// every method of one, promoted, but not its fields where the runtime
// reads them, whether it is declared outside the package or in a file of
// its own beside the generated ones; it is an error of the catalogue read
// through its methods, as any other implementation of Error is.
func ownOf(x any) (variant, bool) {
	v, ok := x.(variant)
	if !ok {
		return nil, false
	}
	if _, own := ownVariant(v); !own {
		return nil, false
	}
	return v, true
}

// ownType reports whether x is a pointer to a type declared in this
// package.
func ownType(x any) bool {
	t := reflect.TypeOf(x)
	return t.Kind() == reflect.Pointer && t.Elem().PkgPath() == reflect.TypeFor[Info]().PkgPath()
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

// logValue is LogValue of e, the variant infos[i]: a group of its message,
// code, number, category, class and retryability, then its fields (a
// duration in its unit, a cause as its own log value).
//
//go:noinline
func logValue(ev any) slog.Value {
	e := ev.(variant)
	return logVariant(e, variantIndex(e), nil, 0)
}

// logVariant is the log value of e, the variant infos[i], in the chain of
// the decoded error from, if any (nil otherwise), whose held cause it logs
// as the cause of the variant that could not hold it; depth groups of the
// log value hold it.
func logVariant(e variant, i int, from *RemoteError, depth int) slog.Value {
	in := &infos[i]
	// One reading of the class policy: a policy set meanwhile gives both
	// the old answers or both the new ones, never a mix.
	msg, class := render(e, i, textMessage), e.Class()
	retryable := class == ClassRetryable
	if from != nil && from.held != nil && !isNil(e) {
		// In a chain whose decoded error holds a cause for one of its
		// variants, e says what it would with that cause in its field: its
		// text, and for a variant whose cause decides, the retryability
		// and the class the cause gives it (retryable, else terminal:
		// model.ClassRule).
		msg = string(appendTemplate(nil, e, i, in.Message, from, false))
		if r := from.retryableOf(e); r != retryable && in.RetryableFromCause && !in.Configurable {
			retryable, class = r, classOf(r, ClassTerminal)
		}
	}
	attrs := make([]slog.Attr, 0, 6+len(forms[i].fields))
	attrs = append(attrs, slog.String("error", scrub(msg)), slog.String("code", string(e.Code())),
		slog.Int("num", in.Num), slog.String("category", string(in.Category)),
		slog.String("class", class.String()), slog.Bool("retryable", retryable))
	if isNil(e) {
		return slog.GroupValue(attrs...)
	}
	return slog.GroupValue(appendLogFields(attrs, e, i, nil, from, depth)...)
}

// appendLogFields appends the fields of e, the variant infos[i], to attrs
// as logValue logs them; with sent given, only the fields the sender sent.
// from is the decoded error in whose chain e is, if any, and depth the
// groups that hold e's (see logVariant). A cause at the maxChain-th group
// is logged as its text, as deep as the wire form goes.
func appendLogFields(attrs []slog.Attr, e variant, i int, sent map[string]bool, from *RemoteError, depth int) []slog.Attr {
	for k := range forms[i].fields {
		f := &forms[i].fields[k]
		if sent != nil && !sent[f.name] {
			continue
		}
		if f.cause {
			cause := from.causeOf(e)
			if depth+1 >= maxChain && cause != nil {
				attrs = append(attrs, slog.String(f.name, scrub(errorText(cause))))
				continue
			}
			v := logValueOf(cause, depth+1)
			if c, ok := ownOf(cause); ok && from.decodedAs(c) != nil {
				v = from.decodedAs(c).logValue(depth + 1)
			} else if ok && from != nil && from.held != nil {
				if k, ok := lookupCode(c.Code()); ok && !isNil(c) {
					v = logVariant(c, k, from, depth+1)
				}
			}
			if s, ok := imported(cause); ok && f.imported {
				if lv, ok := s.(slog.LogValuer); ok {
					v = scrubLogValue(lv.LogValue())
				}
			}
			attrs = append(attrs, slog.Attr{Key: f.name, Value: v})
			continue
		}
		if f.sensitive {
			attrs = append(attrs, slog.String(f.name, Redacted))
			continue
		}
		var a slog.Attr
		switch p := fieldOf(e, k).(type) {
		case *string:
			a = slog.String(f.name, scrub(*p))
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
			a = slog.Int64(f.name, f.inUnit(*p))
		case *[]string:
			a = slog.Any(f.name, scrubAll(*p))
		default:
			continue
		}
		attrs = append(attrs, a)
	}
	return attrs
}

// LogValueOf returns the log value of err: the log value of the outermost
// error of the catalogue in its chain, found through fmt.Errorf wraps and
// decoded errors alike, with err's own text when it wraps that error; its
// text alone when the chain holds none.
func LogValueOf(err error) slog.Value { return logValueOf(err, 0) }

// logValueOf is LogValueOf for an error depth groups of a log value hold.
func logValueOf(err error, depth int) slog.Value {
	if err == nil {
		return slog.StringValue("<nil>")
	}
	c := find(err)
	if c == nil {
		return slog.StringValue(scrub(errorText(err)))
	}
	var v slog.Value
	switch c := c.(type) {
	case *RemoteError:
		v = c.logValue(depth)
	case variant:
		if i, own := ownVariant(c); own && !isNil(c) {
			v = logVariant(c, i, nil, depth)
		} else {
			v = slog.AnyValue(c).Resolve()
		}
	case slog.LogValuer:
		v = slog.AnyValue(c).Resolve()
	default:
		v = slog.GroupValue(slog.String("error", scrub(errorText(c))), slog.String("code", scrubName("code", string(c.Code()))),
			slog.Int("num", c.CodeNum()), slog.String("category", scrubName("category", string(c.Category()))),
			slog.String("class", c.Class().String()), slog.Bool("retryable", c.Retryable()))
	}
	if text := errorText(err); text != errorText(c) {
		// The wrapper's text in place of the error's own: the first
		// attribute of a group that starts with it, as the catalogue's
		// and decoded errors' do; before any other group, and beside any
		// other value, which is then its cause.
		attrs := []slog.Attr{slog.String("error", scrub(text))}
		switch {
		case v.Kind() != slog.KindGroup:
			attrs = append(attrs, slog.Attr{Key: "cause", Value: v})
		case len(v.Group()) > 0 && v.Group()[0].Key == "error":
			attrs = append(attrs, v.Group()[1:]...)
		default:
			attrs = append(attrs, v.Group()...)
		}
		v = slog.GroupValue(attrs...)
	}
	return v
}

// LogAttr returns the attribute "error" with the log value of err (see
// LogValueOf), for slog.Logger.LogAttrs or as an argument of Info and the
// like.
func LogAttr(err error) slog.Attr {
	return slog.Attr{Key: "error", Value: LogValueOf(err)}
}

// Redacted is what a sensitive field shows as in logs and in fmt's output,
// and what ScrubSecrets writes in place of a secret.
const Redacted = "[REDACTED]"

// scrubber is the function SetScrubber set, nil for none.
var scrubber atomic.Pointer[func(string) string]

// SetScrubber sets the function applied to every string value that leaves
// the package through an LLM payload, a wire form, a projection or a log:
// rendered messages and suppression keys, text fields, hints an instance
// sets, the text of foreign causes, and what a decoded error arrived with,
// its code, category and payload type included (its Code and Category
// methods return them as they were sent, for the program). Fields declared sensitive never
// leave at all; the scrubber is for free text that may hold a secret no
// declaration catches, such as an upstream error body. Set it once at
// start-up (ScrubSecrets, or a function of your own that calls it); nil
// removes it. It is safe to call beside concurrent use, and f must be safe
// for concurrent use too. The scrubber changes values only: keys, their
// order and the JSON's validity stay as they are.
func SetScrubber(f func(string) string) {
	if f == nil {
		scrubber.Store(nil)
		return
	}
	scrubber.Store(&f)
}

// scrub applies the scrubber, if one is set, to s.
func scrub(s string) string {
	if f := scrubber.Load(); f != nil {
		return (*f)(s)
	}
	return s
}

// scrubAll returns list with each item scrubbed: list itself when no
// scrubber is set, else a copy.
func scrubAll(list []string) []string {
	f := scrubber.Load()
	if f == nil {
		return list
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = (*f)(s)
	}
	return out
}

// scrubLogValue returns v, the log value of another package's error, with
// the scrubber, if one is set, applied to its string values, as it is to
// that error's wire form: this package's log must not carry a secret its
// scrubber removes, whatever the other package's scrubber is.
func scrubLogValue(v slog.Value) slog.Value {
	if scrubber.Load() == nil {
		return v
	}
	switch v = v.Resolve(); v.Kind() {
	case slog.KindString:
		return slog.StringValue(scrub(v.String()))
	case slog.KindGroup:
		attrs := slices.Clone(v.Group())
		for i := range attrs {
			attrs[i].Value = scrubLogValue(attrs[i].Value)
		}
		return slog.GroupValue(attrs...)
	case slog.KindAny:
		switch a := v.Any().(type) {
		case []string:
			return slog.AnyValue(scrubAll(a))
		case json.RawMessage:
			if !json.Valid(a) {
				return slog.StringValue(scrub(string(a)))
			}
			return slog.AnyValue(json.RawMessage(rewriteJSON(nil, a, true)))
		}
	}
	return v
}

// secretPattern is one shape of secret ScrubSecrets looks for: what matches
// re is replaced by with, which may name re's groups ($1).
type secretPattern struct {
	re   *regexp.Regexp
	with string
}

// secretPatterns are compiled on first use, so a program that never
// scrubs never compiles them.
var secretPatterns = sync.OnceValue(func() []secretPattern {
	return []secretPattern{
		// URL userinfo: https://user:pass@host, to the last @ before the
		// host (a password may hold an @).
		{regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://)[^/?#\s]*@`), "${1}" + Redacted + "@"},
		// The same with a password that holds an unescaped /, ? or #
		// (https://user:pa/ss@host), which ends the authority above
		// before its @: a user, a colon, then up to the next @, when
		// what follows the colon is not a port (not digits alone).
		{regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.-]*://)[^/?#\s@:]*:[^/?#\s@]*[^0-9/?#\s@][^\s@]*@`), "${1}" + Redacted + "@"},
		// JSON Web Tokens: base64url of {"...} twice, and a signature.
		{regexp.MustCompile(`\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*`), Redacted},
		// sk- style API keys (sk-..., sk-proj-..., sk-ant-...).
		{regexp.MustCompile(`\bsk-[A-Za-z0-9_-]{16,}`), Redacted},
		// Google API keys.
		{regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`), Redacted},
		// AWS access key ids.
		{regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|AROA|ANPA|ANVA)[A-Z0-9]{16}\b`), Redacted},
	}
})

// paramRE finds name=value pairs of a URL query or a form body, and the
// like in free text: after ?, &, ; or a blank, or at the start.
var paramRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[?&;\s])([A-Za-z0-9_.\-\[\]]+)=("[^"]*"|'[^']*'|[^&#\s"',;]*)`)
})

// credentialRE finds a bearer or basic credential: the scheme, then the
// token (group 3), after "Authorization:" (group 1) in a header, also
// written as a JSON member ("Authorization": "Bearer ...") or with =.
var credentialRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)(\bauthorization"?\s*[:=]\s*"?)?\b(bearer|basic)\s+([A-Za-z0-9._~+/-]+=*)`)
})

// scrubCredentials replaces the token of each bearer and basic credential
// in s: every one in an Authorization header, and elsewhere one that looks
// like a credential rather than a word of prose ("the basic plan", "an
// invalid bearer token"): it holds a digit or one of . _ ~ + / =, a capital
// letter after its first, or 20 characters or more.
func scrubCredentials(s string) string {
	var b strings.Builder
	last := 0
	for _, m := range credentialRE().FindAllStringSubmatchIndex(s, -1) {
		end := m[7]
		if m[2] < 0 {
			// In prose, a full stop after the word ends the sentence.
			end = m[6] + len(strings.TrimRight(s[m[6]:m[7]], "."))
			if !credentialLike(s[m[6]:end]) {
				continue
			}
		}
		b.WriteString(s[last:m[4]])
		b.WriteString(s[m[4]:m[5]])
		b.WriteString(" " + Redacted)
		last = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// credentialLike reports whether a word after "bearer" or "basic" looks
// like a token (see scrubCredentials).
func credentialLike(token string) bool {
	if len(token) >= 20 {
		return true
	}
	for i := 0; i < len(token); i++ {
		switch c := token[i]; {
		case '0' <= c && c <= '9', strings.IndexByte("._~+/=", c) >= 0, i > 0 && 'A' <= c && c <= 'Z':
			return true
		}
	}
	return false
}

// ScrubSecrets is the built-in scrubber, for SetScrubber: it replaces with
// Redacted the common shapes of secrets in free text, namely bearer and
// basic credentials (in an Authorization header, or shaped like a token),
// sk- style API keys, Google API keys, AWS access key
// ids, JSON Web Tokens, the userinfo of URLs (https://user:pass@host, a
// password with an unescaped / included), and the value of every
// name=value pair (a URL's query, a form body, quoted or not) whose name
// looks like a secret (token, api_key, password, X-Amz-Signature, ...; the
// same rule that makes errgen lint ask whether a field is sensitive). It
// keeps everything else, and returns s itself when it finds nothing.
func ScrubSecrets(s string) string {
	s = scrubCredentials(s)
	for _, p := range secretPatterns() {
		if p.re.MatchString(s) {
			s = p.re.ReplaceAllString(s, p.with)
		}
	}
	re := paramRE()
	m := re.FindAllStringSubmatchIndex(s, -1)
	if m == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, loc := range m {
		start, end := loc[4], loc[5]
		if end-start >= 2 && (s[start] == '"' || s[start] == '\'') {
			// A quoted value keeps its quotes.
			start, end = start+1, end-1
		}
		if name, value := s[loc[2]:loc[3]], s[start:end]; value != "" && value != Redacted && looksSecret(name) {
			b.WriteString(s[last:start])
			b.WriteString(Redacted)
			last = end
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// secretWords and quantityWords are errgen's rule for names that look like
// they hold a secret, the one errgen lint applies to field names: a name
// split into lower-case words (at underscores, hyphens, dots and case
// changes) looks secret when one word, or two neighbouring words joined, is
// a secret word, unless it has more than one word and its last is a
// quantity word (token_count, session_ttl).
var (
	secretWords = []string{
		"accesskey", "apikey", "auth", "authorization", "bearer", "cookie", "credential", "credentials",
		"jwt", "passphrase", "passwd", "password", "privatekey", "secret", "session", "sessionid",
		"sig", "signature", "token",
	}
	quantityWords = []string{
		"at", "budget", "count", "expiry", "expires", "kind", "len", "length", "limit", "max",
		"method", "min", "name", "remaining", "scheme", "size", "total", "ttl", "type", "usage", "used",
	}
)

// looksSecret reports whether a name looks like it holds a secret; see
// secretWords.
func looksSecret(name string) bool {
	var words []string
	start := -1
	for i := 0; i <= len(name); i++ {
		var c byte
		if i < len(name) {
			c = name[i]
		}
		alnum := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= utf8.RuneSelf
		upper := 'A' <= c && c <= 'Z'
		split := !alnum || upper && start >= 0 && i > start && (isLower(name[i-1]) ||
			isUpper(name[i-1]) && i+1 < len(name) && isLower(name[i+1]))
		if split && start >= 0 {
			words = append(words, strings.ToLower(name[start:i]))
			start = -1
		}
		if alnum && start < 0 {
			start = i
		}
	}
	if len(words) == 0 || len(words) > 1 && slices.Contains(quantityWords, words[len(words)-1]) {
		return false
	}
	for i, w := range words {
		if slices.Contains(secretWords, w) || i > 0 && slices.Contains(secretWords, words[i-1]+w) {
			return true
		}
	}
	return false
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// format is Format of e, the variant infos[i], which has a sensitive
// field: %#v prints the struct as fmt would, with each sensitive field as
// Redacted; every other verb formats the error's text, as fmt does for an
// error without a Format method.
//
//go:noinline
func format(ev any, s fmt.State, verb rune) {
	e := ev.(variant)
	i := variantIndex(e)
	if verb == 'v' && s.Flag('#') {
		s.Write([]byte(goString(e, i)))
		return
	}
	fmt.Fprintf(s, fmt.FormatString(s, verb), errorText(e))
}

// goString is e as fmt's %#v prints it, with its sensitive fields as
// Redacted.
func goString(e variant, i int) string {
	v := reflect.ValueOf(e)
	if v.IsNil() {
		return fmt.Sprintf("(%T)(nil)", e)
	}
	el := v.Elem()
	t := el.Type()
	b := append([]byte("&"), t.String()...)
	b = append(b, '{')
	for k := range el.NumField() {
		if k > 0 {
			b = append(b, ", "...)
		}
		b = append(append(b, t.Field(k).Name...), ':')
		switch f := el.Field(k); {
		case k < len(forms[i].fields) && forms[i].fields[k].sensitive:
			b = strconv.AppendQuote(b, Redacted)
		case f.Kind() == reflect.Interface && f.IsNil():
			// As fmt prints a nil interface field: error(nil), not the
			// <nil> of a nil interface value.
			b = append(append(b, f.Type().String()...), "(nil)"...)
		default:
			b = fmt.Appendf(b, "%#v", f.Interface())
		}
	}
	return string(append(b, '}'))
}

// RetryAfterOf returns the retry-after value of the first error in err's
// chain that carries one (a variant with a retry_after field), looking
// through wrappers of the catalogue too, so a rate limit wrapped by a
// higher layer still tells the caller how long to wait. It walks the chain
// as Chain does, As methods included. An error of another catalogue whose
// family is a cause field here is asked through its own package's
// RetryAfterOf. A decoded error answers only when the sender sent the
// value, in its field or in the shape it came in (a gRPC status's
// RetryInfo). A zero (or negative) value is no value: the walk goes on
// past it, and when nothing further down carries a wait the answer is
// false, not "retry at once", as a provider's Retry-After of 0 and a field
// left unset both mean nothing to wait for.
func RetryAfterOf(err error) (time.Duration, bool) {
	return retryAfterDepth(err, 0)
}

func retryAfterDepth(err error, depth int) (time.Duration, bool) {
	var from *RemoteError
	for ; err != nil && depth < maxChain && !isNil(err); depth++ {
		// Each link is what the chain walk (walk) takes it for: an error
		// of the catalogue itself, or through its As method.
		c, ok := catalogueError(err)
		if r, remote := c.(*RemoteError); remote {
			// The shape's own wait is the sender's RetryAfterOf, exact; a
			// field holds it only in its unit.
			if r.wait > 0 {
				return r.wait, true
			}
			if r.err != nil {
				if d, ok := retryAfterField(r.err, r.sent); ok {
					return d, true
				}
			}
			if r.err != nil && err == error(r) {
				from = r
				err, _ = r.next(r.err)
				continue
			}
		}
		if v, isVariant := ownOf(c); isVariant {
			if d, ok := retryAfterField(v, nil); ok {
				return d, true
			}
		} else if _, isImported := imported(err); !ok && isImported && retryAfterImported != nil {
			if d, ok := retryAfterImported(err); ok && d > 0 {
				return d, true
			}
		}
		one, many := from.next(err)
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

// retryAfterField returns the value of v's retry_after field, if it has
// one and it is positive; with sent given, only when the sender sent it.
func retryAfterField(v variant, sent map[string]bool) (time.Duration, bool) {
	i, ok := lookupCode(v.Code())
	if !ok {
		return 0, false
	}
	for k, f := range forms[i].fields {
		if f.retryAfter && (sent == nil || sent[f.name]) {
			if p, ok := fieldOf(v, k).(*time.Duration); ok && *p > 0 {
				return *p, true
			}
		}
	}
	return 0, false
}

// RetryPolicy says how to retry a retryable error: at most MaxRetries
// times, waiting before the n-th retry Base doubled n-1 times, at most Cap,
// spread by up to ±Jitter of it, so that clients that failed together do
// not retry together. A retry-after the error carries comes first. A
// catalogue may declare one for all its errors and one per family
// (RetryPolicyOf); any other value works as well.
type RetryPolicy struct {
	// MaxRetries is how many retries may follow the first attempt.
	MaxRetries int
	// Base is the delay before the first retry; Cap the longest delay.
	Base, Cap time.Duration
	// Jitter is the spread, a fraction: 0.2 is ±20 %.
	Jitter float64
}

// Backoff returns the delay before retry n (1 for the first): Base doubled
// n-1 times, at most Cap, times 1 + Jitter×(2r-1), r being a number in
// [0, 1) (0.5 for no jitter). It is 0 for n below 1, and when Base or Cap
// is not positive. Whatever the values, it is never negative, a doubling
// that would pass Cap (or the longest Duration) stops at Cap, a jitter
// that would pass the longest Duration stops there, and it takes at most
// about 63 doublings however large n is.
func (p RetryPolicy) Backoff(n int, r float64) time.Duration {
	if n < 1 || p.Base <= 0 || p.Cap <= 0 {
		return 0
	}
	d := min(p.Base, p.Cap)
	// Each doubling at least doubles d, so the loop ends within 63 steps:
	// d reaches Cap, which it never passes, or n.
	for i := 1; i < n && d < p.Cap; i++ {
		if d > p.Cap/2 {
			d = p.Cap
			break
		}
		d *= 2
	}
	f := 1 + p.Jitter*(2*r-1)
	switch {
	case f == 1 || math.IsNaN(f):
		// No jitter: d exactly, not d through a float64.
		return d
	case f <= 0:
		return 0
	}
	if x := float64(d) * f; x < math.MaxInt64 {
		return time.Duration(x)
	}
	return math.MaxInt64
}

// Delay reports whether to retry after err, the failures-th failure in a
// row (1 when the first attempt failed), and how long to wait first. Only
// a retryable err (IsRetryable) is retried, at most MaxRetries times. A
// positive retry-after anywhere in err's chain (RetryAfterOf) is the wait;
// otherwise Backoff(failures, random()). random returns numbers in
// [0, 1), as math/rand/v2's Float64 does; a test passes a fixed one, and
// nil means no jitter.
func (p RetryPolicy) Delay(err error, failures int, random func() float64) (time.Duration, bool) {
	if failures < 1 || failures > p.MaxRetries || !IsRetryable(err) {
		return 0, false
	}
	if d, ok := RetryAfterOf(err); ok {
		return d, true
	}
	r := 0.5
	if random != nil {
		r = random()
	}
	return p.Backoff(failures, r), true
}

// foreignRule classifies a foreign error in whose chain errors.Is finds
// err (or, with err nil, an error whose Timeout method reports true) as the
// variant with code.
type foreignRule struct {
	err  error
	code Code
}

// keywordRule classifies a foreign error whose text contains text, in any
// letter case, as the variant with code. text is in lower case.
type keywordRule struct {
	text string
	code Code
}

// classify returns the error of the catalogue that err stands for: nil for
// nil; the outermost error of the catalogue in err's chain, when there is
// one; otherwise a new error of the variant of the first rule that
// matches, trying is, then statuses against the status an error in the
// chain reports with a StatusCode() int method, then contains; and
// otherwise of fallback. The new error holds err as its cause and, when a
// status matched, that status in its http_status field; no other field is
// set. A rule whose matching panics (errors.Is and errors.As call the
// methods of every error in the chain; see answers) matches nothing, and
// neither does any after it: err is then of fallback.
func classify(err error, is []foreignRule, statuses []statusRange, contains []keywordRule, fallback Code) Error {
	if err == nil || isNil(err) {
		return nil
	}
	if c := find(err); c != nil {
		return c
	}
	if v := matchRule(err, is, statuses, contains); v != nil {
		return v
	}
	return foreign(fallback, err)
}

// matchRule is the error of the first rule of classify that err matches,
// nil when none does or matching panics.
func matchRule(err error, is []foreignRule, statuses []statusRange, contains []keywordRule) (v variant) {
	defer func() {
		if recover() != nil {
			v = nil
		}
	}()
	for _, r := range is {
		if r.err != nil && errors.Is(err, r.err) || r.err == nil && isTimeout(err) {
			return foreign(r.code, err)
		}
	}
	var s interface{ StatusCode() int }
	if errors.As(err, &s) && !isNil(s) {
		status := s.StatusCode()
		if i, ok := statusIndex(statuses, status); ok {
			v := foreign(infos[i].Code, err)
			setStatus(v, i, status)
			return v
		}
	}
	if len(contains) > 0 {
		text := strings.ToLower(errorText(err))
		for _, r := range contains {
			if strings.Contains(text, r.text) {
				return foreign(r.code, err)
			}
		}
	}
	return nil
}

// isTimeout reports whether an error in err's chain has a Timeout method,
// and the first such reports true: a net.Error timeout,
// os.ErrDeadlineExceeded, context.DeadlineExceeded.
func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && !isNil(t) && t.Timeout()
}

// foreign returns a new error of the variant with code, holding err in its
// cause field (the catalogue gives every variant Classify returns one of
// type error).
func foreign(code Code, err error) variant {
	i, _ := lookupCode(code)
	v := newVariant(i)
	for k, f := range forms[i].fields {
		if p, ok := fieldOf(v, k).(*error); ok && f.cause {
			*p = err
		}
	}
	return v
}

// Lookup returns the entry with the given code, or whose sub-codes include
// it. Reserved and unknown codes are not found. It allocates nothing: the
// entry's RequiredFields and Subcodes are shared, not to be changed (see
// Info).
func Lookup(code Code) (Info, bool) {
	if i, ok := lookupCode(code); ok {
		return infos[i], true
	}
	return Info{}, false
}

// codeSlot is one slot of the code index: a code, and the position in
// infos of the entry it names. An empty code marks a free slot.
type codeSlot struct {
	code  Code
	index int
}

// codeIndex is an open-addressing hash table of every code and sub-code,
// with at least twice as many slots as codes, probed linearly from
// hashCode; it is built on the first lookup. A Go map does the same job
// at about twice the cost: its hash is keyed for hostile input, which a
// catalogue's own codes are not.
var codeIndex = sync.OnceValue(func() []codeSlot {
	n := 0
	for i := range infos {
		n += 1 + len(forms[i].subcodes)
	}
	size := 1
	for size < 2*n {
		size <<= 1
	}
	t := make([]codeSlot, size)
	put := func(c Code, i int) {
		j := hashCode(c) & uint64(size-1)
		for t[j].code != "" {
			j = (j + 1) & uint64(size-1)
		}
		t[j] = codeSlot{code: c, index: i}
	}
	for i := range infos {
		put(infos[i].Code, i)
		for _, c := range forms[i].subcodes {
			put(c, i)
		}
	}
	return t
})

// hashCode mixes the length and the bytes of a code, eight at a time,
// so that codes differing in any one byte start their probes apart.
func hashCode(c Code) uint64 {
	h := uint64(len(c))
	for ; len(c) >= 8; c = c[8:] {
		w := uint64(c[0]) | uint64(c[1])<<8 | uint64(c[2])<<16 | uint64(c[3])<<24 |
			uint64(c[4])<<32 | uint64(c[5])<<40 | uint64(c[6])<<48 | uint64(c[7])<<56
		h = mix(h ^ w)
	}
	var w uint64
	for i := 0; i < len(c); i++ {
		w |= uint64(c[i]) << (8 * i)
	}
	return mix(h ^ w)
}

// mix is the finaliser of SplitMix64: every bit of h reaches every bit of
// the result, the low bits the table is indexed by included.
func mix(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

// lookupCode returns the position in infos of the entry with the given
// code or sub-code.
func lookupCode(code Code) (int, bool) {
	t := codeIndex()
	mask := uint64(len(t) - 1)
	for j := hashCode(code) & mask; ; j = (j + 1) & mask {
		switch t[j].code {
		case "":
			return 0, false
		case code:
			return t[j].index, true
		}
	}
}

// indexOf returns the position in infos of the outermost error of the
// catalogue in err's chain: what the lookups of the catalogue's attributes
// read their tables at.
func indexOf(err error) (int, bool) {
	if c := find(err); c != nil {
		return lookupCode(c.Code())
	}
	return 0, false
}

// ClassPolicy gives the variants the catalogue marks configurable the
// class this deployment treats them with, by code: whether an error the
// catalogue cannot judge for every deployment (a policy refusal, a content
// filter) is retried, ends the run, or is logged while the run carries on.
type ClassPolicy map[Code]Class

// classPolicy holds the class of every entry of infos as the last
// SetClassPolicy set it; nil until then, when every variant has its
// default class.
var classPolicy atomic.Pointer[[len(infos)]Class]

// SetClassPolicy sets the class of the configurable variants, typically
// once at start-up; codes the policy does not name get their default class
// back. It refuses, changing nothing, a policy that names a code that is
// not the code of a configurable variant (a sub-code included), or gives a
// class other than ClassTerminal, ClassRetryable or ClassNonFatal. Errors
// and ClassOf may be read from other goroutines while it runs: each reads
// the old policy or the new one, never a mix.
func SetClassPolicy(p ClassPolicy) error {
	var table [len(infos)]Class
	var errs []error
	for code, class := range p {
		i, ok := lookupCode(code)
		switch {
		case !ok || infos[i].Code != code:
			errs = append(errs, fmt.Errorf("%s: class policy: %q is not a code of the catalogue", packageName, code))
		case !infos[i].Configurable:
			errs = append(errs, fmt.Errorf("%s: class policy: %q is not configurable; its class is %s", packageName, code, infos[i].Class))
		case class != ClassTerminal && class != ClassRetryable && class != ClassNonFatal:
			errs = append(errs, fmt.Errorf("%s: class policy: %q cannot be %s; give it %s, %s or %s", packageName, code, class, ClassTerminal, ClassRetryable, ClassNonFatal))
		default:
			table[i] = class
		}
	}
	if len(errs) > 0 {
		// In code order, so the error reads the same on every run. With
		// sort.Slice, not slices.SortFunc: the generic sort would be
		// compiled anew into every generated package (BENCHMARKS.md).
		sort.Slice(errs, func(a, b int) bool { return errs[a].Error() < errs[b].Error() })
		return errors.Join(errs...)
	}
	classPolicy.Store(&table)
	return nil
}

// policyClass is the class of the configurable variant infos[i]: the
// policy's, else its default.
func policyClass(i int) Class {
	if t := classPolicy.Load(); t != nil && t[i] != ClassUnknown {
		return t[i]
	}
	return infos[i].Class
}

// LookupNum returns the entry with the given number. Reserved and unknown
// numbers are not found. Its slices are shared, as Lookup's are.
func LookupNum(num int) (Info, bool) {
	if i := searchNum(num); i < len(infos) && infos[i].Num == num {
		return infos[i], true
	}
	return Info{}, false
}

// searchNum returns the position in infos of the entry with the given
// number, or of the first with a larger one, where it would stand.
func searchNum(num int) int {
	lo, hi := 0, len(infos)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if infos[m].Num < num {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// All returns every entry of the catalogue, sorted by Num. The slice and
// each entry's RequiredFields and Subcodes are copies the caller may keep
// and change.
func All() []Info {
	all := append([]Info(nil), infos[:]...)
	for i := range all {
		if in := &all[i]; in.RequiredFields != nil || in.Subcodes != nil {
			in.RequiredFields = append([]string(nil), in.RequiredFields...)
			in.Subcodes = append([]Code(nil), in.Subcodes...)
		}
	}
	return all
}

// LookupHTTPStatus returns the entry that stands for an HTTP status: the
// one whose http_status is the most specific that covers it (429 before
// "4xx"). Its slices are shared, as Lookup's are.
func LookupHTTPStatus(status int) (Info, bool) {
	if i, ok := statusIndex(httpStatuses[:], status); ok {
		return infos[i], true
	}
	return Info{}, false
}

// statusIndex returns the entry of the first of ranges that covers status.
func statusIndex(ranges []statusRange, status int) (int, bool) {
	for _, s := range ranges {
		if s.lo <= status && status <= s.hi {
			return s.index, true
		}
	}
	return 0, false
}

// now is the clock FromHTTP reads an HTTP date against.
var now = time.Now

// FromHTTP returns a new error of the variant that stands for an HTTP
// status (see LookupHTTPStatus), its fields unset but for its http_status
// field, set to status, and its retry-after field, set from the
// Retry-After header when there is one: a number of seconds (past what a
// time.Duration holds, the longest one), or an HTTP date, in GMT (the time
// until then, rounded up to whole seconds). header is an http.Header, or
// anything with its Get method.
func FromHTTP(status int, header interface{ Get(key string) string }) (Error, bool) {
	i, ok := statusIndex(httpStatuses[:], status)
	if !ok {
		return nil, false
	}
	v := newVariant(i)
	setStatus(v, i, status)
	if header == nil || isNil(header) {
		return v, true
	}
	d, ok := parseRetryAfter(header.Get("Retry-After"))
	if !ok {
		return v, true
	}
	for k, f := range forms[i].fields {
		if f.retryAfter {
			*fieldOf(v, k).(*time.Duration) = d
		}
	}
	return v, true
}

// setStatus sets the http_status field of v, an error of the i-th entry of
// infos, to status, when it has one.
func setStatus(v variant, i, status int) {
	for k, f := range forms[i].fields {
		if f.httpStatus {
			*fieldOf(v, k).(*int) = status
		}
	}
}

// httpDates are the layouts an HTTP date may have (RFC 9110, 5.6.7), all
// in GMT: IMF-fixdate, the obsolete RFC 850 form, and asctime's, which
// names no zone (time.Parse reads it as UTC). A date in another zone is
// not an HTTP date.
var httpDates = []string{"Mon, 02 Jan 2006 15:04:05 GMT", "Monday, 02-Jan-06 15:04:05 GMT", time.ANSIC}

// parseRetryAfter reads a Retry-After value: delay seconds, or an HTTP
// date, which is read as the time from now until then in whole seconds,
// rounded up (none when past).
func parseRetryAfter(s string) (time.Duration, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if strings.Trim(s, "0123456789") == "" {
		// Delay seconds, any number of digits: past what a Duration
		// holds, the longest one, never a shorter wait.
		if n, err := strconv.ParseUint(s, 10, 64); err == nil && n <= math.MaxInt64/uint64(time.Second) {
			return time.Duration(n) * time.Second, true
		}
		return math.MaxInt64, true
	}
	for _, layout := range httpDates {
		if t, err := time.Parse(layout, s); err == nil {
			// The date counts whole seconds; the time until it, rounded
			// up, never ends before it.
			if d := t.Sub(now()); d > 0 {
				if r := d % time.Second; r != 0 && d <= math.MaxInt64-time.Second {
					d += time.Second - r
				}
				return d, true
			}
			return 0, true
		}
	}
	return 0, false
}

// newVariant returns a new, zero variant of infos[i]'s type.
func newVariant(i int) variant {
	return reflect.New(reflect.TypeOf(variantTypes[i]).Elem()).Interface().(variant)
}

// Payload is the JSON object the model reads to correct itself, as
// LLMPayload made it: its values are copied when it is made, so changing
// the error afterwards does not change the payload. The caller may set
// RequiredFields and UsageHint (or change any hint) before encoding it with
// json.Marshal or AppendJSON. Keys come in a fixed order, empty optional
// keys are left out, and the bytes are exactly those encoding/json would
// produce: those AppendLLMPayload writes, a scrubber's work included (each
// value scrubbed once, the catalogue's own payload type, category and code
// not at all). json.Unmarshal reads a payload back into it.
type Payload struct {
	Type           string
	Category       Category
	Code           Code
	CodeNum        int
	Error          string
	Retryable      bool
	SuppressRetry  bool
	SuppressionKey string
	// Fields are the variant's payload fields that are set, in payload
	// order, each with its value as JSON.
	Fields []PayloadField
	// SuggestedTool, SuggestedAction and UsageHint start as the catalogue's
	// static hints.
	SuggestedTool   string
	SuggestedAction string
	// RequiredFields lists the parameters the tool requires, typically
	// filled from its schema when the model sent invalid arguments.
	RequiredFields []string
	UsageHint      string

	// scrubbedBy is the scrubber that LLMPayload scrubbed the Fields'
	// values with, nil when none was set: encoding does not scrub them
	// again with the same one.
	scrubbedBy *func(string) string
}

// PayloadField is a payload field and its value as JSON.
type PayloadField struct {
	Name  string
	Value json.RawMessage
}

// newPayload is LLMPayload of e, the variant infos[i].
//
//go:noinline
func newPayload(ev any) *Payload {
	e := ev.(variant)
	i := variantIndex(e)
	in := &infos[i]
	p := &Payload{
		Type:            in.PayloadType,
		Category:        in.Category,
		Code:            e.Code(),
		CodeNum:         in.Num,
		Error:           render(e, i, textMessage),
		Retryable:       e.Retryable(),
		SuppressRetry:   in.SuppressRetry,
		SuggestedTool:   orStatic(override(e, forms[i].toolField), in.SuggestedTool),
		SuggestedAction: orStatic(override(e, forms[i].actionField), in.SuggestedAction),
		RequiredFields:  slices.Clone(forms[i].required),
		UsageHint:       in.UsageHint,
	}
	if isNil(e) {
		return p
	}
	p.SuppressionKey = e.SuppressionKey()
	p.scrubbedBy = scrubber.Load()
	// The values share one buffer, so the payload costs a few allocations
	// however many fields it has.
	type span struct {
		name       string
		start, end int
	}
	var spans []span
	var buf []byte
	for k := range forms[i].fields {
		if f := &forms[i].fields[k]; f.payload {
			start := len(buf)
			if buf = appendFieldValue(buf, e, k, f); len(buf) > start {
				spans = append(spans, span{f.name, start, len(buf)})
			}
		}
	}
	if len(spans) > 0 {
		p.Fields = make([]PayloadField, len(spans))
		for k, sp := range spans {
			p.Fields[k] = PayloadField{sp.name, buf[sp.start:sp.end:sp.end]}
		}
	}
	return p
}

// MarshalJSON encodes the payload; see AppendJSON.
func (p Payload) MarshalJSON() ([]byte, error) {
	return p.AppendJSON(make([]byte, 0, p.size())), nil
}

// size is about how long the payload's JSON is, so that encoding it
// allocates once.
func (p *Payload) size() int {
	n := 256 + len(p.Type) + len(p.Category) + len(p.Code) + len(p.SuppressionKey) +
		len(p.SuggestedTool) + len(p.SuggestedAction) + len(p.UsageHint) + 5*len(p.Error)/4
	for _, f := range p.Fields {
		n += len(f.Name) + len(f.Value) + 4
	}
	for _, r := range p.RequiredFields {
		n += len(r) + 3
	}
	return n
}

// AppendJSON appends the payload's JSON encoding to dst and returns the
// extended buffer. A payload without a type (decoded from the wire form of
// a family that has none) has no "type" key.
func (p *Payload) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	first := true
	// The values LLMPayload wrote are scrubbed already, and a payload type,
	// category and code of the catalogue's own are its constants; any other
	// (read from JSON, or set by the caller) is scrubbed here, once.
	s := scrubber.Load()
	scrubFields := s != nil && s != p.scrubbedBy
	for _, k := range payloadShape {
		mark := len(dst)
		if !first {
			dst = append(dst, ',')
		}
		if k.kind == keyFields {
			dst = dst[:mark]
			for _, f := range p.Fields {
				if !first {
					dst = append(dst, ',')
				}
				dst = appendString(dst, f.Name)
				dst = append(dst, ':')
				switch {
				case len(f.Value) == 0:
					// A field without a value is null, as encoding/json
					// writes a nil json.RawMessage.
					dst = append(dst, "null"...)
				case scrubFields:
					dst = rewriteJSON(dst, f.Value, true)
				default:
					dst = append(dst, f.Value...)
				}
				first = false
			}
			continue
		}
		dst = appendKey(dst, k.name)
		start := len(dst)
		switch k.kind {
		case keyType:
			// Only a family with a payload type has one; a payload of
			// another (decoded from its wire form) may hold a field so
			// named.
			if p.Type == "" {
				dst = dst[:mark]
				continue
			}
			dst = appendString(dst, scrubName("type", p.Type))
		case keyCategory:
			dst = appendString(dst, scrubName("category", string(p.Category)))
		case keyCode:
			dst = appendString(dst, scrubName("code", string(p.Code)))
		case keyCodeNum:
			dst = strconv.AppendInt(dst, int64(p.CodeNum), 10)
		case keyError:
			dst = appendString(dst, scrub(p.Error))
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

// UnmarshalJSON reads a payload as DecodePayload reads one: at most 1 MiB,
// keys matched exactly, a key given twice refused. Keys that are not the
// payload's own are its fields, in the order they came.
func (p *Payload) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		return nil // as encoding/json leaves a value for null
	}
	if err := sizeError(data); err != nil {
		return err
	}
	members, _, err := readObject(data)
	if err != nil {
		return fmt.Errorf("%s: payload: %w", packageName, err)
	}
	var q Payload
	get := func(key string) (json.RawMessage, bool) {
		raw, ok := members[key]
		return raw, ok
	}
	// A field of the code's variant named like a payload key (in a family
	// without a payload type) is a field, as decode reads it.
	var fields []field
	var code Code
	if json.Unmarshal(members["code"], &code) == nil {
		if i, ok := lookupCode(code); ok {
			fields = forms[i].fields
		}
	}
	if err := q.read(get, fields); err != nil {
		return err
	}
	// What the catalogue marks sensitive is left out, as DecodePayload
	// leaves it out: a field of the code, and inside the others, at any
	// depth, a field of an error of a code the catalogue knows.
	d := decoder{doc: bytes.Clone(data)}
	root, _, _ := d.parse(0, 0)
	for k := range root.members {
		m := &root.members[k]
		if isPayloadKey(m.name) && !hasField(fields, m.name) || sensitiveIn(entriesOf(code), m.name) {
			continue
		}
		value := json.RawMessage(d.doc[m.vstart:m.vend:m.vend])
		if e := d.clean(m.node); e != nil {
			value = d.write(nil, m.node, e)
		}
		q.Fields = append(q.Fields, PayloadField{m.name, value})
	}
	*p = q
	return nil
}

// entriesOf is the entry of infos of code, as a list for sensitiveIn:
// none for a code the catalogue does not know.
func entriesOf(code Code) []int {
	if i, ok := lookupCode(code); ok {
		return []int{i}
	}
	return nil
}

// read sets the payload's own keys from the members get returns by key,
// but for those fields names as their own (in a family without a payload
// type, a field may be named like a payload key).
func (p *Payload) read(get func(key string) (json.RawMessage, bool), fields []field) error {
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
		if hasField(fields, f.key) {
			continue
		}
		if raw, ok := get(f.key); ok {
			if err := json.Unmarshal(raw, f.to); err != nil {
				return fmt.Errorf("%s: payload key %q: %w", packageName, f.key, err)
			}
		}
	}
	return nil
}

// isPayloadKey reports whether name is one of the payload's own keys
// rather than a field.
//
//go:noinline
func isPayloadKey(name string) bool {
	for _, k := range payloadShape {
		if k.name == name && k.kind != keyFields {
			return true
		}
	}
	return false
}

// appendOptional appends s, scrubbed, as a JSON string, or nothing when it
// is empty.
func appendOptional(dst []byte, s string) []byte {
	if s == "" {
		return dst
	}
	return appendString(dst, scrub(s))
}

// appendPayload is AppendLLMPayload of e, the variant infos[i], without
// building a Payload: the texts are rendered straight into dst and escaped
// in place, so encoding allocates nothing beyond growing dst.
//
//go:noinline
func appendPayload(dst []byte, ev any) []byte {
	e := ev.(variant)
	return appendObject(dst, e, variantIndex(e), false, 0, nil, nil)
}

// marshalWire is MarshalJSON of e, the variant infos[i]: its wire form.
//
//go:noinline
func marshalWire(ev any) ([]byte, error) {
	e := ev.(variant)
	return appendObject(nil, e, variantIndex(e), true, 0, nil, nil), nil
}

// appendObject appends the JSON object of e, the variant infos[i], in the
// payload's key order: its LLM payload, or, with wire set, its wire form,
// which has every field (the cause nested), and "type" only for a family
// with a payload type. depth counts the causes above. With from set, e is
// the variant of the decoded error from, and holds only the fields that
// travelled, which may not be all that its templates name: the texts are
// then those from arrived with (its message; its suppression key and
// hints, where it carried them), and the retryability is from's. top is the
// decoded error in whose chain e is, if any: a cause it holds outside a
// field (see RemoteError.held) is written as the cause of the variant that
// could not hold it.
func appendObject(dst []byte, e variant, i int, wire bool, depth int, from, top *RemoteError) []byte {
	in := &infos[i]
	got := &noPayload
	if from != nil {
		got = &from.Payload
	}
	dst = append(dst, '{')
	first := true
	live := !isNil(e)
	for _, k := range payloadShape {
		mark := len(dst)
		if !first {
			dst = append(dst, ',')
		}
		if k.kind == keyFields {
			dst = dst[:mark]
			if live {
				n := len(dst)
				dst = appendFields(dst, e, i, !first, wire, depth, top, appendKey)
				first = first && len(dst) == n
			}
			continue
		}
		if k.kind == keyType && wire && in.PayloadType == "" {
			dst = dst[:mark]
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
			dst = appendName(dst, string(e.Code()))
		case keyCodeNum:
			dst = strconv.AppendInt(dst, int64(in.Num), 10)
		case keyError:
			if from != nil {
				dst = appendString(dst, scrub(from.Error()))
				break
			}
			dst = append(dst, '"')
			if live {
				dst = appendTemplate(dst, e, i, in.Message, top, false)
			} else {
				dst = append(dst, "<nil>"...)
			}
			dst = closeString(dst, start+1)
		case keyRetryable:
			if from != nil {
				dst = strconv.AppendBool(dst, from.Retryable())
			} else {
				dst = strconv.AppendBool(dst, top.retryableOf(e))
			}
		case keySuppressRetry:
			dst = strconv.AppendBool(dst, in.SuppressRetry)
		case keySuppressionKey:
			switch key := override(e, forms[i].keyField); {
			case got.SuppressionKey != "":
				dst = appendString(dst, scrub(got.SuppressionKey))
			case from != nil && from.texts:
				// The sender had none.
			case key != "":
				dst = appendString(dst, scrub(key))
			case live && forms[i].key != "" && (from == nil || from.sent == nil || payloadOnly(forms[i].key, forms[i].fields)):
				// Decoded from a projection, which carries the payload
				// fields only, e renders the key as the sender did only
				// when the key names no other.
				dst = append(dst, '"')
				if dst = appendTemplate(dst, e, i, forms[i].key, top, false); len(dst) == start+1 {
					dst = dst[:start]
				} else {
					dst = closeString(dst, start+1)
				}
			}
		case keySuggestedTool:
			dst = appendOptional(dst, orSent(from, got.SuggestedTool, orStatic(override(e, forms[i].toolField), in.SuggestedTool)))
		case keySuggestedAction:
			dst = appendOptional(dst, orSent(from, got.SuggestedAction, orStatic(override(e, forms[i].actionField), in.SuggestedAction)))
		case keyRequiredFields:
			if wire {
				break
			}
			if len(got.RequiredFields) > 0 {
				dst = appendStrings(dst, got.RequiredFields)
			} else if len(forms[i].required) > 0 {
				dst = appendStrings(dst, forms[i].required)
			}
		case keyUsageHint:
			dst = appendOptional(dst, orSent(from, got.UsageHint, in.UsageHint))
		}
		if k.omit && len(dst) == start {
			dst = dst[:mark]
			continue
		}
		first = false
	}
	return append(dst, '}')
}

// orSent is the hint a decoded error from arrived with, sent; when from
// is nil, or its shape carries no hints, sent if set, else own, the
// catalogue's or the instance's.
func orSent(from *RemoteError, sent, own string) string {
	if from != nil && from.texts {
		return sent
	}
	return orStatic(sent, own)
}

// payloadOnly reports whether every field the template t names is a
// payload field of fields, which every projection carries.
func payloadOnly(t string, fields []field) bool {
	for {
		j := strings.IndexByte(t, '{')
		switch {
		case j < 0 || j+1 == len(t):
			return true
		case t[j+1] == '{':
			t = t[j+2:]
			continue
		}
		end := strings.IndexByte(t[j:], '}')
		if end < 0 {
			return true
		}
		if k := fieldIndex(fields, t[j+1:j+end]); k >= 0 && !fields[k].payload {
			return false
		}
		t = t[j+end+1:]
	}
}

// noPayload is the payload appendObject reads its texts from for an error
// that was not decoded: it arrived with none.
var noPayload Payload

// appendFields appends the fields of e, the variant infos[i], as members
// of a JSON object, each after a comma when comma is true or a member came
// before it, leaving out zero values as omitempty does: its payload fields,
// or with wire set every field, the cause as its own wire form (top: see
// appendObject); key appends each member's key and colon.
func appendFields(dst []byte, e variant, i int, comma, wire bool, depth int, top *RemoteError, key func([]byte, string) []byte) []byte {
	for k := range forms[i].fields {
		f := &forms[i].fields[k]
		if !wire && !f.payload || f.sensitive {
			continue
		}
		mark := len(dst)
		if comma {
			dst = append(dst, ',')
		}
		dst = key(dst, f.name)
		start := len(dst)
		if f.cause && f.imported {
			dst = appendImported(dst, top.causeOf(e), depth+1, top)
		} else if f.cause {
			// A cause field of a family cannot hold the text that marks
			// where the chain was cut, which a decoder would refuse: the
			// chain ends before it.
			if _, plain := fieldOf(e, k).(*error); plain || depth+1 < maxChain-1 {
				dst = appendCause(dst, top.causeOf(e), depth+1, top)
			}
		} else {
			dst = appendFieldJSON(dst, fieldOf(e, k), f)
		}
		if len(dst) == start {
			dst = dst[:mark]
			continue
		}
		comma = true
	}
	return dst
}

// appendFieldValue returns the JSON value of e's field k, nil when it is
// its type's zero value.
func appendFieldValue(dst []byte, e variant, k int, f *field) []byte {
	if f.cause {
		return appendCause(dst, causeOf(e), 1, nil)
	}
	return appendFieldJSON(dst, fieldOf(e, k), f)
}

// appendFieldJSON appends the JSON value of f, the field p points to, or
// nothing when it is its type's zero value: a duration as a whole number
// of its unit (see field.inUnit).
func appendFieldJSON(dst []byte, p any, f *field) []byte {
	switch p := p.(type) {
	case *string:
		if *p != "" {
			dst = appendString(dst, scrub(*p))
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
			dst = strconv.AppendInt(dst, f.inUnit(*p), 10)
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
	return dst
}

// appendImported appends a cause of a family of another catalogue in a
// wire form: that package's own, else as appendCause does.
func appendImported(dst []byte, cause error, depth int, top *RemoteError) []byte {
	if s, ok := imported(cause); ok {
		if m, ok := s.(json.Marshaler); ok {
			if data, err := m.MarshalJSON(); err == nil && json.Valid(data) {
				return rewriteJSON(dst, data, scrubber.Load() != nil)
			}
		}
	}
	return appendCause(dst, cause, depth, top)
}

// appendCause appends a cause in a wire form: an error of the catalogue as
// its own wire form (a decoded one as it was received), a wrap of one as
// that error's wire form with the wrap's text, any other error as an
// object holding its text under "error", nothing for none (top: see
// appendObject).
func appendCause(dst []byte, cause error, depth int, top *RemoteError) []byte {
	switch {
	case cause == nil || isNil(cause):
		return dst
	case depth >= maxChain-1:
		// The deepest cause a decoder reads (see decoder.setCause).
		return append(appendString(append(dst, `{"error":`...), "(cause chain too deep)"), '}')
	}
	if r, ok := cause.(*RemoteError); ok {
		return r.appendAsCause(dst, "", depth)
	}
	if v, ok := ownOf(cause); ok {
		if i, ok := lookupCode(v.Code()); ok {
			return appendObject(dst, v, i, true, depth, top.decodedAs(v), top)
		}
	}
	// An error of the catalogue inside a wrap (fmt.Errorf's %w) travels as
	// itself with the wrap's text, so that a decoder finds it, and with it
	// its retryability and its wait.
	switch c := find(cause).(type) {
	case *RemoteError:
		// As it arrived (its causes, and members this catalogue does not
		// declare, a newer sender's), with the wrap's text.
		return c.appendAsCause(dst, errorText(cause), depth)
	case variant:
		if _, own := ownVariant(c); !own {
			break
		}
		if i, ok := lookupCode(c.Code()); ok && !isNil(c) {
			w := &RemoteError{Payload: Payload{Error: errorText(cause), Retryable: top.retryableOf(c)}, err: c, index: i}
			return appendObject(dst, c, i, true, depth, w, top)
		}
	}
	if c := find(cause); c != nil {
		if _, known := lookupCode(c.Code()); known {
			// An error of the catalogue that is none of its variants (a
			// type that embeds one, which a field of its family may hold):
			// what its methods report, with the wrap's text, so that a
			// decoder reads it as the variant of its code.
			return appendErrorJSON(dst, c, errorText(cause))
		}
	}
	dst = append(dst, `{"error":`...)
	dst = appendString(dst, scrub(errorText(cause)))
	return append(dst, '}')
}

// appendErrorJSON appends the JSON object of c, an Error of neither this
// package's variants nor a decoded payload (an adapter, a test double, a
// type that embeds a variant), with text as its "error": what its methods
// report, in the payload's key order.
func appendErrorJSON(dst []byte, c Error, text string) []byte {
	dst = appendString(append(dst, `{"category":`...), scrubName("category", string(c.Category())))
	dst = appendString(append(dst, `,"code":`...), scrubName("code", string(c.Code())))
	dst = strconv.AppendInt(append(dst, `,"code_num":`...), int64(c.CodeNum()), 10)
	dst = appendString(append(dst, `,"error":`...), scrub(text))
	dst = strconv.AppendBool(append(dst, `,"retryable":`...), c.Retryable())
	return append(dst, '}')
}

// appendAsCause appends e as a cause depth causes deep: as it arrived (see
// appendJSON), with text, when not "", as its "error"; but as an object of
// its text alone when what it arrived with is nested so deep that the wire
// form would go deeper than a decoder reads.
func (e *RemoteError) appendAsCause(dst []byte, text string, depth int) []byte {
	if !e.texts && e.err != nil {
		if text == "" {
			return e.appendWire(dst, depth)
		}
		w := *e
		w.Payload.Error = text
		return appendObject(dst, e.err, e.index, true, depth, &w, &w)
	}
	if depth+jsonDepth(e.Raw) >= maxChain {
		if text == "" {
			text = errorText(e)
		}
		return append(appendString(append(dst, `{"error":`...), scrub(text)), '}')
	}
	if text == "" {
		return e.appendWire(dst, depth)
	}
	return e.appendRewritten(dst, text, depth)
}

// jsonDepth is how deep the objects and arrays of the JSON value data
// nest: 0 for a scalar (or nothing), 1 for an object of scalars.
func jsonDepth(data []byte) int {
	depth, most := 0, 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			if depth++; depth > most {
				most = depth
			}
		case '}', ']':
			depth--
		}
	}
	return most
}

// appendKey appends the key of an object member and its colon. Keys are
// snake_case, so they need no escaping.
func appendKey(dst []byte, name string) []byte {
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"', ':')
}

// appendName appends s, a code, category or payload type of the
// catalogue, as a JSON string: the resolver holds them to [a-z0-9_], so
// they need no escaping.
func appendName(dst []byte, s string) []byte {
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// closeString turns the raw text dst[start:], which follows an opening
// quote, into the rest of a JSON string: scrubbed, escaped in place, then
// closed.
func closeString(dst []byte, start int) []byte {
	if f := scrubber.Load(); f != nil {
		dst = append(dst[:start], (*f)(string(dst[start:]))...)
	}
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
//
//go:noinline
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

// appendStrings appends a JSON array of strings, each scrubbed.
func appendStrings(dst []byte, list []string) []byte {
	dst = append(dst, '[')
	for i, s := range list {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendString(dst, scrub(s))
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

// RemoteError is an error decoded from a payload or a wire form another
// service sent. Its message is the sender's. When this catalogue knows the
// code (with the same number), Unwrap returns the exact variant with the
// fields that travelled, and its cause as far as it was sent, so errors.As
// and the As<Family> helpers find it; otherwise the payload is all there
// is, and CodeOf, IsRetryable and ClassOf still answer from it: a newer
// service's errors do not break an older client. That holds for a cause
// too: a cause with a code this catalogue does not know, in a field typed
// with a family (a newer service's variant of it), leaves the field nil
// and is held by the RemoteError, as a *RemoteError that Chain, RootCodeOf,
// HasCode, the log, the wire form and the projections reach after the
// variant whose field could not hold it.
type RemoteError struct {
	// Payload is what was decoded.
	Payload Payload
	// Raw is the payload exactly as received, including keys this
	// catalogue does not know.
	Raw json.RawMessage

	err   variant
	index int             // err's entry in infos
	sent  map[string]bool // the fields the sender sent
	// wait is a retry-after the shape carried apart from the fields (a
	// gRPC status's RetryInfo), 0 for none.
	wait time.Duration
	// user is the user message the shape carried (a problem document's
	// detail, a gRPC status's LocalizedMessage), "" for none.
	user string
	// texts says the shape carried the suppression key and the hints (a
	// payload or a wire form): one it left out, the sender had none of, and
	// none is passed on. Another shape (a projection) carries only the
	// payload fields, and what it did not carry is the catalogue's.
	texts bool
	// held is a cause the sender sent with a code this catalogue does not
	// know (a newer sender's variant) in a field typed with a family,
	// which no error of the family can stand for: the field of heldBy, the
	// variant in err's chain it belongs to, stays nil, and e holds the
	// cause, a *RemoteError (of the package of the field's family), for
	// the walks of the chain, the log, the wire form and the projections,
	// which take it for heldBy's cause.
	held   error
	heldBy variant
	// causes are the decoded errors of the causes in err's chain (their
	// objects in the payload), by the variant each decoded into: written
	// again (a projection, a wire form, the log), a cause is written with
	// what it arrived with, its message, suppression key, hints and
	// retryability, as e itself is, not texts rendered again from the
	// fields that travelled. Shared by every error of the chain.
	causes map[variant]*RemoteError
}

// decodedAs returns the decoded error v, a variant in e's chain, was
// decoded from, nil when it was not. e may be nil.
func (e *RemoteError) decodedAs(v variant) *RemoteError {
	if e == nil {
		return nil
	}
	return e.causes[v]
}

// causeOf returns the cause of v, a variant in e's chain: the cause e
// holds for it (held), else its own. e may be nil.
func (e *RemoteError) causeOf(v variant) error {
	if e != nil && e.held != nil && v == e.heldBy {
		return e.held
	}
	return causeOf(v)
}

// next is next(err) for a link of e's chain: after the variant whose
// field could not hold it, the cause e holds (held). e may be nil.
func (e *RemoteError) next(err error) (error, []error) {
	if e != nil && e.held != nil && err == error(e.heldBy) {
		return e.held, nil
	}
	return next(err)
}

// variantRetryable is what e's variant answers to Retryable, for a shape
// that does not carry the sender's answer; when e holds a cause (held),
// as the variants would answer with it in its field: through the
// variants retryable exactly when their cause is, down to the one that
// could not hold it, the held cause's answer.
func (e *RemoteError) variantRetryable() bool { return e.retryableOf(e.err) }

// retryableOf is what v, a variant in e's chain, answers to Retryable with
// the cause e holds for the variant that could not hold it (see
// variantRetryable). e may be nil.
func (e *RemoteError) retryableOf(v variant) bool {
	for range maxChain {
		if e == nil || isNil(v) {
			break
		}
		i, ok := lookupCode(v.Code())
		if e.held == nil || !ok || !infos[i].RetryableFromCause || infos[i].Configurable {
			break
		}
		if v == e.heldBy {
			if r, ok := e.held.(interface{ Retryable() bool }); ok {
				return r.Retryable()
			}
			break
		}
		cause, ok := ownOf(causeOf(v))
		if !ok || isNil(cause) {
			break
		}
		v = cause
	}
	return v.Retryable()
}

// Error returns the message the sender wrote.
func (e *RemoteError) Error() string {
	if e == nil {
		return "<nil>"
	}
	return e.Payload.Error
}

// Unwrap returns the decoded variant, or nil when the code is not in this
// catalogue.
func (e *RemoteError) Unwrap() error {
	if e == nil || e.err == nil {
		return nil
	}
	return e.err
}

// The methods of a nil *RemoteError, like those of a nil variant, never
// panic: it has no code, and is not an error of the catalogue (its class
// is ClassUnknown, and errors.Is matches nothing).

// Code returns the payload's code.
func (e *RemoteError) Code() Code {
	if e == nil {
		return ""
	}
	return e.Payload.Code
}

// CodeNum returns the payload's number.
func (e *RemoteError) CodeNum() int {
	if e == nil {
		return 0
	}
	return e.Payload.CodeNum
}

// Category returns the payload's category.
func (e *RemoteError) Category() Category {
	if e == nil {
		return ""
	}
	return e.Payload.Category
}

// Retryable reports what the sender said; for a variant the catalogue
// marks configurable, what this deployment's ClassPolicy says, as for the
// variant itself: the sender's answer is its own deployment's.
func (e *RemoteError) Retryable() bool {
	if e.configurable() {
		return e.err.Retryable()
	}
	return e != nil && e.Payload.Retryable
}

// Class returns ClassRetryable when the sender said retryable, otherwise
// the class this catalogue gives the code (terminal for an unknown code).
// A variant the catalogue marks configurable has the class this
// deployment's ClassPolicy gives it, whatever the sender said.
func (e *RemoteError) Class() Class {
	switch {
	case e == nil:
		return ClassUnknown
	case e.configurable():
		return e.err.Class()
	case e.Payload.Retryable:
		return ClassRetryable
	case e.err != nil && infos[e.index].Class != ClassRetryable:
		return infos[e.index].Class
	}
	return ClassTerminal
}

// configurable reports whether the application's ClassPolicy decides the
// class of e, a decoded variant: the catalogue marks it configurable, or
// its retryability is its cause's (retryable_from_cause), down to a cause
// that is marked so. Then e's variant answers with this deployment's
// policy, not the sender's.
func (e *RemoteError) configurable() bool {
	if e == nil || e.err == nil {
		return false
	}
	v, i := e.err, e.index
	for range maxChain {
		if infos[i].Configurable {
			return true
		}
		if !infos[i].RetryableFromCause {
			return false
		}
		c, ok := ownOf(find(e.causeOf(v)))
		if !ok || isNil(c) {
			return false
		}
		if i, ok = lookupCode(c.Code()); !ok {
			return false
		}
		v = c
	}
	return false
}

// UserMessage returns the user message the shape it was decoded from
// carried (a problem document's detail, a gRPC status's
// LocalizedMessage); otherwise the decoded variant's (with the fields
// that travelled), and for a code this catalogue does not know, its
// default user message, or errgen's neutral sentence naming the code.
func (e *RemoteError) UserMessage() string {
	if e == nil {
		return ""
	}
	if e.user != "" {
		return e.user
	}
	if e.err != nil {
		return e.err.UserMessage()
	}
	return renderCode(defaultUserMessage, e.Payload.Code)
}

// Is reports whether target is an error of the catalogue with the same
// code, or the code of the variant whose sub-code the payload carries.
func (e *RemoteError) Is(target error) bool {
	if e == nil {
		return false
	}
	c := codeOf(target)
	return c != "" && (c == e.Code() || sameVariant(e.Code(), c))
}

// LogValue logs what was decoded: the sender's message, the code, number
// and category, the class and retryability this catalogue gives them,
// "remote", then the fields that travelled, as the decoded variant logs
// them (a cause as its own log value; a sensitive field never travels);
// for a code this catalogue does not know, the payload's fields as they
// came, a text as itself and any other value as its JSON, scrubbed.
func (e *RemoteError) LogValue() slog.Value { return e.logValue(0) }

// logValue is LogValue of e, which depth groups of a log value hold.
func (e *RemoteError) logValue(depth int) slog.Value {
	if e == nil {
		return slog.StringValue("<nil>")
	}
	class := e.Class() // retryable from it: one reading of the class policy
	attrs := []slog.Attr{slog.String("error", scrub(e.Error())), slog.String("code", scrubName("code", string(e.Payload.Code))),
		slog.Int("num", e.Payload.CodeNum), slog.String("category", scrubName("category", string(e.Payload.Category))),
		slog.String("class", class.String()), slog.Bool("retryable", class == ClassRetryable), slog.Bool("remote", true)}
	if e.err != nil {
		return slog.GroupValue(appendLogFields(attrs, e.err, e.index, e.sent, e, depth)...)
	}
	for _, f := range e.Payload.Fields {
		// No catalogue has a field named like a key above: a member so
		// named would log a second value under it.
		if !slices.Contains(logKeys[:], f.Name) {
			attrs = append(attrs, logJSON(f.Name, f.Value))
		}
	}
	return slog.GroupValue(attrs...)
}

// logKeys are the keys of a decoded error's log value before its fields,
// in order; a variant's has all but the last.
var logKeys = [...]string{"error", "code", "num", "category", "class", "retryable", "remote"}

// logJSON is the log attribute of a JSON value: a text as a string, true
// and false as a bool, a number as a json.Number (a number to a JSON
// handler), null as nil, and an object or an array as its JSON; every
// string in it scrubbed.
func logJSON(name string, raw json.RawMessage) slog.Attr {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return slog.Any(name, nil)
	}
	switch raw[0] {
	case '"':
		var s string
		json.Unmarshal(raw, &s)
		return slog.String(name, scrub(s))
	case 't', 'f':
		return slog.Bool(name, raw[0] == 't')
	case 'n':
		return slog.Any(name, nil)
	case '{', '[':
		return slog.Any(name, json.RawMessage(rewriteJSON(nil, raw, scrubber.Load() != nil)))
	}
	return slog.Any(name, json.Number(raw))
}

// MarshalJSON returns the payload exactly as it was received; null for
// a nil *RemoteError.
func (e *RemoteError) MarshalJSON() ([]byte, error) {
	if e == nil {
		return []byte("null"), nil
	}
	return e.appendJSON(nil), nil
}

// appendJSON appends the payload e arrived with: Raw, its string values
// scrubbed when a scrubber is set; for a RemoteError built by hand without
// Raw, its Payload. An error of a code this catalogue knows, decoded from a
// projection, whose Raw is the document the projection's decoder rebuilt
// (without the suppression key and hints a wire form has), is written as
// its variant's wire form, with the texts it arrived with.
func (e *RemoteError) appendJSON(dst []byte) []byte {
	return e.appendWire(dst, 0)
}

// appendWire is appendJSON of e depth causes deep. An error whose
// retryability this deployment's class policy decides otherwise than the
// sender did, or whose decoded cause down the chain is such an error, is
// written with the policy's answers, as its projections are.
func (e *RemoteError) appendWire(dst []byte, depth int) []byte {
	switch {
	case !e.texts && e.err != nil:
		return appendObject(dst, e.err, e.index, true, depth, e, e)
	case len(e.Raw) == 0:
		return e.Payload.AppendJSON(dst)
	case e.sentOtherwise():
		return e.appendRewritten(dst, "", depth)
	case scrubber.Load() == nil:
		return append(dst, e.Raw...)
	}
	return rewriteJSON(dst, e.Raw, true)
}

// appendRewritten appends Raw, depth causes deep, with text, when not "",
// as its "error", and the class policy's retryability as its "retryable"
// (see rewrite).
func (e *RemoteError) appendRewritten(dst []byte, text string, depth int) []byte {
	return e.rewrite(dst, e.Raw, text, depth)
}

// rewrite appends raw, the object e arrived as, with text, when not "",
// as its "error", the class policy's retryability as its "retryable", and
// the member of its decoded cause rewritten the same way when the policy
// decides that cause's, or one below it, otherwise than it was sent; the
// other members as they came, scrubbed.
func (e *RemoteError) rewrite(dst, raw []byte, text string, depth int) []byte {
	members, order, err := readObject(raw)
	if err != nil {
		// Built by hand, without Raw.
		p := e.Payload
		if text != "" {
			p.Error = text
		}
		p.Retryable = e.Retryable()
		return p.AppendJSON(dst)
	}
	set := func(name string, value []byte) {
		if members[name] == nil {
			order = append(order, name)
		}
		members[name] = value
	}
	if text != "" {
		set("error", appendString(nil, text))
	}
	set("retryable", strconv.AppendBool(nil, e.Retryable()))
	cause, key := e.decodedCause()
	if cause == nil || members[key] == nil || !cause.sentOtherwise() || depth >= maxChain {
		cause = nil
	}
	scrubbing := scrubber.Load() != nil
	dst = append(dst, '{')
	for k, name := range order {
		if k > 0 {
			dst = append(dst, ',')
		}
		if cause != nil && name == key {
			dst = cause.rewrite(append(appendString(dst, name), ':'), members[name], "", depth+1)
			continue
		}
		// Each member is scrubbed as the member of an object, so that
		// rewriteJSON knows the key its value has (ownName).
		one := append(append(appendString([]byte{'{'}, name), ':'), members[name]...)
		one = rewriteJSON(nil, append(one, '}'), scrubbing)
		dst = append(dst, one[1:len(one)-1]...)
	}
	return append(dst, '}')
}

// decodedCause returns the decoded error of e's cause, the cause e's
// variant has or the one e holds for it (held), and the key of the cause's
// member; nil when e has no cause of this catalogue that was decoded.
func (e *RemoteError) decodedCause() (*RemoteError, string) {
	if e == nil || e.err == nil {
		return nil, ""
	}
	k := slices.IndexFunc(forms[e.index].fields, func(f field) bool { return f.cause })
	if k < 0 {
		return nil, ""
	}
	switch c := e.causeOf(e.err).(type) {
	case *RemoteError:
		return c, forms[e.index].fields[k].name
	case variant:
		if _, own := ownVariant(c); !own {
			break
		}
		if r := e.decodedAs(c); r != nil {
			return r, forms[e.index].fields[k].name
		}
	}
	return nil, ""
}

// sentOtherwise reports whether e, or a decoded cause down its chain,
// answers Retryable otherwise than its sender said: this deployment's
// ClassPolicy decides it.
func (e *RemoteError) sentOtherwise() bool {
	for range maxChain {
		if e == nil {
			return false
		}
		if e.Retryable() != e.Payload.Retryable {
			return true
		}
		e, _ = e.decodedCause()
	}
	return false
}

// rewriteJSON appends the JSON value data (valid JSON) again, with
// scrubbing set every string value (not key) scrubbed; key order and
// everything else stay as they are.
func rewriteJSON(dst, data []byte, scrubbing bool) []byte {
	if !scrubbing {
		return append(dst, data...)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	// open holds, per open object or array, whether it is an object, how
	// many keys and values it has had, and an object's last key.
	type open struct {
		object bool
		n      int
		key    string
	}
	var stack []open
	for {
		tok, err := d.Token()
		if err != nil {
			return dst
		}
		if delim, ok := tok.(json.Delim); ok && (delim == '}' || delim == ']') {
			stack = stack[:len(stack)-1]
			dst = append(dst, byte(delim))
			continue
		}
		key, of := false, ""
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			key = top.object && top.n%2 == 0
			if top.n > 0 && (key || !top.object) {
				dst = append(dst, ',')
			}
			if key {
				top.key = tok.(string)
			} else if top.object {
				of = top.key
			}
			top.n++
		}
		switch t := tok.(type) {
		case json.Delim:
			stack = append(stack, open{object: t == '{'})
			dst = append(dst, byte(t))
		case string:
			switch {
			case key:
				dst = append(appendString(dst, t), ':')
			case ownName(of, t):
				// The catalogue's constants are written as they are, so
				// the next decoder knows the error.
				dst = appendString(dst, t)
			default:
				dst = appendString(dst, scrub(t))
			}
		case json.Number:
			dst = append(dst, t...)
		case bool:
			dst = strconv.AppendBool(dst, t)
		case nil:
			dst = append(dst, "null"...)
		}
	}
}

// scrubName is s, the code, category or payload type that key names,
// scrubbed unless it is one of the catalogue's own (ownName): the next
// decoder must know it as it is.
func scrubName(key, s string) string {
	if ownName(key, s) {
		return s
	}
	return scrub(s)
}

// ownName reports whether s, the value of a member named key, is one of
// the catalogue's own names that key holds: a code (or sub-code), a
// category or a payload type.
func ownName(key, s string) bool {
	switch key {
	case "code":
		_, ok := lookupCode(Code(s))
		return ok
	case "category", "type":
		for i := range infos {
			if key == "category" && string(infos[i].Category) == s || key == "type" && infos[i].PayloadType == s && s != "" {
				return true
			}
		}
	}
	return false
}

// maxPayload bounds the payloads DecodePayload and the projections'
// decoders read.
const maxPayload = 1 << 20

// sizeError is the error of a decoder given more than maxPayload bytes;
// nil for data within the bound.
func sizeError(data []byte) error { return sizeOver(len(data)) }

// sizeOver refuses a payload of n bytes past maxPayload.
func sizeOver(n int) error {
	if n > maxPayload {
		return fmt.Errorf("%s: payload of %d bytes; at most %d are decoded", packageName, n, maxPayload)
	}
	return nil
}

// DecodePayload decodes what LLMPayload, AppendLLMPayload or json.Marshal
// of an error of this catalogue wrote, in this service or another one
// sharing the catalogue: an LLM payload or a wire form, the nested causes
// of a wire form included. Keys are matched exactly, as every other JSON
// reader of the payload matches them, and a key given twice is refused, so
// no sender can make this reader see a different payload than they do. A
// code this catalogue knows but with another number, or with a "type" that
// is not its family's payload type, is an error: the two services do not
// share the catalogue. Decoding takes time and memory in proportion to the
// payload's size, however its errors nest.
func DecodePayload(data []byte) (*RemoteError, error) {
	return decode(data)
}

// decode decodes a payload, as DecodePayload describes, with a decoder of
// its own.
func decode(data []byte) (*RemoteError, error) {
	var d decoder
	return d.decode(data)
}

// A decoder reads one payload, and every error nested in it, in time and
// memory in proportion to the payload's size: the payload is split into
// its objects and arrays once (jsonNode), each object is decoded at most
// once whatever asks for it (a cause field, a member no field declares, or
// a look into the members of an object around it that failed to decode),
// and what is passed on is written once, at the end, for the errors that
// are kept (edit, finish). Decoding every object anew wherever it was
// asked for took time exponential in the depth of the errors a hostile
// payload nests, and reading each object's bytes anew, time quadratic in
// its size.
type decoder struct {
	// doc is the decoder's own copy of the payload; every node is a span
	// of it, and the Raw and fields of what is passed on as it came are
	// slices of it.
	doc []byte
	// causes are the errors decoded into cause fields (RemoteError.causes).
	causes map[variant]*RemoteError
	// rebuilt says the payload is one a projection's decoder wrote from
	// the document it was given, which it bounded: the payload may be a
	// few times longer (a "<" in a text is written as six bytes), and is
	// not held to maxPayload again.
	rebuilt bool
	// key, when set, gives the key a field of the top-level object had in
	// the document a projection's decoder rebuilt the payload from, for
	// the errors that name it (an agent response's metadata key).
	key func(name string) string
	// objects counts the objects decoded, for tests.
	objects int
}

// keyOf names the member of the field named name of an object n in the
// errors that refuse its value: the key it had in the document given.
func (d *decoder) keyOf(n *jsonNode, name string) string {
	if d.key != nil && n.level == 0 {
		return d.key(name)
	}
	return name
}

// jsonNode is an object or an array of the payload: its span in the
// decoder's doc, and its members (an object's, in order) or the items that
// are objects or arrays (an array's; nothing else in one is ever passed on
// otherwise than it came).
type jsonNode struct {
	start, end int
	level      int // how many objects and arrays hold it
	object     bool
	members    []jsonMember
	index      map[string]int // an object's members by key: the first of each
	dup        string         // an object's first key given twice, when twice
	twice      bool           // an object has a key given twice
	items      []*jsonNode
	// decoded is the object decoded as an error, once it was asked for;
	// clean is what clean returned for the node, once it was asked for.
	decoded *decodeResult
	cleaned bool
	clean   *edit
}

// jsonMember is a member of an object: its key, the spans of the key (its
// quotes included) and of its value, and the value's node when it is an
// object or an array that is split.
type jsonMember struct {
	name         string
	kstart, kend int
	vstart, vend int
	node         *jsonNode
}

// member returns the member of the object n with the given key.
//
//go:noinline
func (n *jsonNode) member(name string) (*jsonMember, int, bool) {
	k, ok := n.index[name]
	if !ok {
		return nil, 0, false
	}
	return &n.members[k], k, true
}

// value returns the value of n's member with the given key, nil when it
// has none.
//
//go:noinline
func (d *decoder) value(n *jsonNode, name string) json.RawMessage {
	if m, _, ok := n.member(name); ok {
		return d.doc[m.vstart:m.vend:m.vend]
	}
	return nil
}

// parse splits the JSON value at doc[pos:] (valid JSON, held by level
// objects and arrays) and returns its node, nil for a value that is not an
// object or an array, and its span. Every object and array is split,
// however deep (json.Valid holds the nesting to 10 000): a sensitive field
// is left out at any depth (see clean).
func (d *decoder) parse(pos, level int) (n *jsonNode, start, end int) {
	doc := d.doc
	start = skipSpace(doc, pos)
	if c := doc[start]; c != '{' && c != '[' {
		return nil, start, skipValue(doc, start)
	}
	n = &jsonNode{start: start, level: level, object: doc[start] == '{'}
	pos = skipSpace(doc, start+1)
	if doc[pos] == '}' || doc[pos] == ']' {
		n.end = pos + 1
		return n, start, n.end
	}
	for {
		if n.object {
			kstart := skipSpace(doc, pos)
			kend := skipString(doc, kstart)
			name := readKey(doc[kstart:kend])
			child, vstart, vend := d.parse(skipSpace(doc, kend)+1, level+1)
			if n.index == nil {
				n.index = map[string]int{}
			}
			if _, dup := n.index[name]; !dup {
				n.index[name] = len(n.members)
			} else if !n.twice {
				n.dup, n.twice = name, true
			}
			n.members = append(n.members, jsonMember{name, kstart, kend, vstart, vend, child})
			pos = vend
		} else {
			child, _, vend := d.parse(pos, level+1)
			if child != nil {
				n.items = append(n.items, child)
			}
			pos = vend
		}
		if pos = skipSpace(doc, pos); doc[pos] == ',' {
			pos++
			continue
		}
		n.end = pos + 1
		return n, start, n.end
	}
}

// skipSpace returns the position of the first byte at or after i in doc
// that is not JSON white space.
//
//go:noinline
func skipSpace(doc []byte, i int) int {
	for i < len(doc) && (doc[i] == ' ' || doc[i] == '\t' || doc[i] == '\n' || doc[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the position after the JSON string that starts at
// doc[i].
func skipString(doc []byte, i int) int {
	for i++; i < len(doc); i++ {
		switch doc[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

// skipValue returns the position after the JSON value that starts at
// doc[i], without looking into it beyond its brackets and strings.
func skipValue(doc []byte, i int) int {
	switch doc[i] {
	case '"':
		return skipString(doc, i)
	case '{', '[':
		depth := 0
		for i < len(doc) {
			switch doc[i] {
			case '"':
				i = skipString(doc, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(doc) && !strings.ContainsRune(",}] \t\n\r", rune(doc[i])) {
		i++
	}
	return i
}

// readKey returns the text of the JSON string key, a key as encoding/json
// reads it (escapes decoded, invalid UTF-8 as U+FFFD).
func readKey(key []byte) string {
	plain := true
	for _, c := range key {
		plain = plain && c != '\\' && c < utf8.RuneSelf
	}
	if plain {
		return string(key[1 : len(key)-1])
	}
	var s string
	json.Unmarshal(key, &s)
	return s
}

// decodeResult is an object of the payload decoded as an error: the
// error, whose Raw and Payload.Fields finish writes for the errors that
// are kept (a decoded cause that a field holds as its variant is not);
// and what it decoded of its cause (how the object is passed on, and what
// is kept with it).
type decodeResult struct {
	r    *RemoteError
	node *jsonNode
	err  error
	decodedCause
}

// decodedCause is what decoding a cause gave, and what a decoded error
// takes on from it: how the value is passed on (nil: as it came); the
// *RemoteError further down, if any, that is kept (a cause field holds it
// as it is, or it is held), whose Raw finish writes; and a cause held
// outside a field further down, with the variant whose field could not
// hold it (see RemoteError.held). A chain of causes ends at the first
// *RemoteError, so it has at most one of each.
type decodedCause struct {
	edit   *edit
	leaf   *decodeResult
	held   error
	heldBy variant
}

// edit says how a node is passed on when not as it came: as the bytes
// another package's decoder passes on, or with members left out (drop)
// and members or items (by their position in members or items) passed on
// as their own edit says (sub).
type edit struct {
	bytes []byte
	drop  map[int]bool
	sub   map[int]*edit
}

// setSub records that member or item k is passed on as s says, when s
// changes it.
//
//go:noinline
func (e *edit) setSub(k int, s *edit) {
	if s == nil {
		return
	}
	if e.sub == nil {
		e.sub = map[int]*edit{}
	}
	e.sub[k] = s
}

// setDrop records that member k is left out.
func (e *edit) setDrop(k int) {
	if e.drop == nil {
		e.drop = map[int]bool{}
	}
	e.drop[k] = true
}

// orNil returns e, or nil when it changes nothing.
func (e *edit) orNil() *edit {
	if e.bytes == nil && e.drop == nil && e.sub == nil {
		return nil
	}
	return e
}

// write appends the node n as e says it is passed on: an object that
// changes is written member by member, each key as it came.
func (d *decoder) write(dst []byte, n *jsonNode, e *edit) []byte {
	switch {
	case e == nil:
		return append(dst, d.doc[n.start:n.end]...)
	case e.bytes != nil:
		return append(dst, e.bytes...)
	case !n.object:
		pos := n.start
		for k, it := range n.items {
			if s := e.sub[k]; s != nil {
				dst = d.write(append(dst, d.doc[pos:it.start]...), it, s)
				pos = it.end
			}
		}
		return append(dst, d.doc[pos:n.end]...)
	}
	dst = append(dst, '{')
	first := true
	for k := range n.members {
		if e.drop[k] {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		m := &n.members[k]
		dst = append(append(dst, d.doc[m.kstart:m.kend]...), ':')
		dst = d.writeValue(dst, m, e.sub[k])
	}
	return append(dst, '}')
}

// writeValue appends the value of member m as e says it is passed on.
func (d *decoder) writeValue(dst []byte, m *jsonMember, e *edit) []byte {
	if e == nil {
		return append(dst, d.doc[m.vstart:m.vend]...)
	}
	return d.write(dst, m.node, e)
}

func (d *decoder) decode(data []byte) (*RemoteError, error) {
	if err := sizeError(data); err != nil && !d.rebuilt {
		return nil, err
	}
	if !json.Valid(data) {
		// readObject says what is wrong as the other readers do.
		_, _, err := readObject(data)
		if err == nil {
			err = errors.New("invalid JSON")
		}
		return nil, fmt.Errorf("%s: payload: %w", packageName, err)
	}
	d.doc = bytes.Clone(data)
	root, _, _ := d.parse(0, 0)
	if root == nil || !root.object {
		return nil, fmt.Errorf("%s: payload: not a JSON object", packageName)
	}
	res := d.decodeObject(root)
	if res.err != nil {
		return nil, res.err
	}
	res.r.held, res.r.heldBy = res.held, res.heldBy
	res.r.causes = d.causes
	// A payload a projection's decoder rebuilt has no key or hints of its
	// own; the wire forms of causes inside it do.
	res.r.texts = !d.rebuilt
	for _, c := range d.causes {
		// Each is of the same chain, which holds the same cause.
		c.held, c.heldBy, c.causes = res.held, res.heldBy, d.causes
	}
	d.finish(res)
	if res.edit == nil {
		// Exactly as received, the white space around the object too.
		res.r.Raw = d.doc
	}
	if res.leaf != nil {
		d.finish(res.leaf)
	}
	return res.r, nil
}

// decodeObject decodes the object n as an error, once: a second call
// returns what the first did.
func (d *decoder) decodeObject(n *jsonNode) *decodeResult {
	if n.decoded == nil {
		d.objects++
		res := &decodeResult{node: n}
		n.decoded = res
		res.r, res.err = d.decodeOnce(n, &res.decodedCause)
	}
	return n.decoded
}

// decodeOnce decodes the object n as an error, and sets in got how it is
// passed on and what it took on from its cause.
func (d *decoder) decodeOnce(n *jsonNode, got *decodedCause) (*RemoteError, error) {
	if n.twice {
		return nil, fmt.Errorf("%s: payload: key %q appears twice", packageName, n.dup)
	}
	e := &RemoteError{texts: true}
	p := &e.Payload
	if err := json.Unmarshal(d.value(n, "code"), &p.Code); err != nil || p.Code == "" {
		return nil, errors.New(packageName + ": payload has no code")
	}
	i, known := lookupCode(p.Code)
	var fields []field
	if known {
		fields = forms[i].fields
	}
	get := func(key string) (json.RawMessage, bool) {
		raw := d.value(n, key)
		return raw, raw != nil
	}
	if err := p.read(get, fields); err != nil {
		return nil, err
	}
	// ed holds how the object is passed on otherwise than it came: a
	// sensitive field is never sent, and one that arrives anyway (from an
	// older sender) is left out, so it is never passed on; a cause is
	// passed on as it was decoded, its own sensitive fields left out the
	// same way, at every depth.
	var ed edit
	if known {
		in := &infos[i]
		switch {
		case in.Num != p.CodeNum:
			return nil, fmt.Errorf("%s: code %q has code_num %d in the payload, but %d in this catalogue", packageName, p.Code, p.CodeNum, in.Num)
		case in.PayloadType != p.Type:
			return nil, fmt.Errorf("%s: code %q has type %q in the payload, but %q in this catalogue", packageName, p.Code, p.Type, in.PayloadType)
		}
		v := newVariant(i)
		e.sent = map[string]bool{}
		for k := range fields {
			f := &fields[k]
			m, at, ok := n.member(f.name)
			switch {
			case !ok:
				continue
			case f.sensitive:
				ed.setDrop(at)
				continue
			}
			e.sent[f.name] = true
			if f.cause {
				c, err := d.setCause(v, k, f, m, n.level)
				if err != nil {
					return nil, fmt.Errorf("%s: payload key %q: %w", packageName, d.keyOf(n, f.name), err)
				}
				ed.setSub(at, c.edit)
				*got = c
				continue
			}
			if err := readField(fieldOf(v, k), d.doc[m.vstart:m.vend], f.unit); err != nil {
				return nil, fmt.Errorf("%s: payload key %q: %w", packageName, d.keyOf(n, f.name), err)
			}
		}
		setInstance(v, i, p)
		for k := range fields {
			// A shape that does not carry the field that decides (an
			// LLM payload, a projection, of a field that is no payload
			// field) says it through its "retryable": the variant
			// answers as the sender's did, and a relay of it, or a
			// wrapper of it, says so too.
			if f := &fields[k]; f.retryable && !e.sent[f.name] && p.Retryable {
				*fieldOf(v, k).(*bool) = true
			}
		}
		e.err, e.index = v, i
	}
	// What the catalogue does not declare (every member of a code it does
	// not know, a newer sender's member of one it does) is passed on as it
	// came, but for the errors of codes it knows inside it, cleaned as a
	// cause is.
	for k := range n.members {
		m := &n.members[k]
		if isPayloadKey(m.name) || hasField(fields, m.name) {
			continue
		}
		ed.setSub(k, d.clean(m.node))
	}
	got.edit = ed.orNil()
	return e, nil
}

// finish sets the Raw and the Payload.Fields of the error res decoded, as
// it is passed on.
func (d *decoder) finish(res *decodeResult) {
	r, n, e := res.r, res.node, res.edit
	if e == nil {
		r.Raw = d.doc[n.start:n.end:n.end]
		e = &edit{}
	} else {
		r.Raw = d.write(nil, n, e)
	}
	var fields []field
	if r.err != nil {
		fields = forms[r.index].fields
	}
	for k := range n.members {
		m := &n.members[k]
		if e.drop[k] || isPayloadKey(m.name) && !hasField(fields, m.name) {
			continue
		}
		value := json.RawMessage(d.doc[m.vstart:m.vend:m.vend])
		if s := e.sub[k]; s != nil {
			value = d.write(nil, m.node, s)
		}
		r.Payload.Fields = append(r.Payload.Fields, PayloadField{m.name, value})
	}
}

// clean returns how the node n, a value decode passes on without a field
// that says what it is, is passed on: with every error of a code this
// catalogue knows inside it (an object with such a "code", in an object
// or an array, at any depth) cleaned as a cause is, its sensitive fields
// left out (also when the object does not decode as that error: a key
// given twice, a field of the wrong type, causes nested too deep), at any
// depth; nil when nothing in it changes. It looks into each node once.
func (d *decoder) clean(n *jsonNode) *edit {
	if n == nil {
		return nil
	}
	if !n.cleaned {
		n.cleaned = true
		n.clean = d.cleanOnce(n)
	}
	return n.clean
}

func (d *decoder) cleanOnce(n *jsonNode) *edit {
	var ed edit
	if !n.object {
		for k, it := range n.items {
			ed.setSub(k, d.clean(it))
		}
		return ed.orNil()
	}
	if _, ok := n.index["code"]; ok && !n.twice {
		if res := d.decodeObject(n); res.err == nil {
			return res.edit
		}
	}
	// Not an error this catalogue decodes: the members that are sensitive
	// fields of any code of the catalogue it names (under each "code" it
	// gives) are left out all the same.
	var codes []int
	for _, m := range n.members {
		var code Code
		if m.name == "code" && json.Unmarshal(d.doc[m.vstart:m.vend], &code) == nil {
			if i, ok := lookupCode(code); ok {
				codes = append(codes, i)
			}
		}
	}
	for k := range n.members {
		m := &n.members[k]
		if sensitiveIn(codes, m.name) {
			ed.setDrop(k)
			continue
		}
		ed.setSub(k, d.clean(m.node))
	}
	return ed.orNil()
}

// sensitiveIn reports whether name is a sensitive field of a variant of
// one of the entries of infos in codes.
func sensitiveIn(codes []int, name string) bool {
	for _, i := range codes {
		if k := fieldIndex(forms[i].fields, name); k >= 0 && forms[i].fields[k].sensitive {
			return true
		}
	}
	return false
}

// setInstance sets what an instance of v (infos[i]) carries beside its
// fields from the payload p that was decoded into it: the sub-code it
// selects, and the hints that differ from the catalogue's.
func setInstance(v variant, i int, p *Payload) {
	f, in := &forms[i], &infos[i]
	if p.Code != in.Code && f.subcodeField != 0 {
		*fieldOf(v, int(f.subcodeField)-1).(*Code) = p.Code
	}
	for _, h := range [...]struct {
		n           uint8
		got, static string
	}{{f.toolField, p.SuggestedTool, in.SuggestedTool}, {f.actionField, p.SuggestedAction, in.SuggestedAction}} {
		if h.n != 0 && h.got != h.static {
			*fieldOf(v, int(h.n)-1).(*string) = h.got
		}
	}
	if f.keyField != 0 && p.SuppressionKey != v.SuppressionKey() {
		*fieldOf(v, int(f.keyField)-1).(*string) = p.SuppressionKey
	}
}

// readField sets the field p points to from its JSON value: a duration
// as a whole number of its unit, held at the largest (or smallest)
// Duration when it is beyond them (a wait of more than 292 years), so
// that a wait never wraps round to a short one, or to none; a float that
// is null as NaN, since only a value that is not a finite number is sent
// as null (a zero is left out), and NaN is sent on as null again.
func readField(p any, raw json.RawMessage, unit time.Duration) error {
	switch p := p.(type) {
	case *time.Duration:
		var n int64
		if err := json.Unmarshal(raw, &n); err != nil {
			return err
		}
		*p = inDuration(n, unit)
		return nil
	case *float64:
		if string(raw) == "null" {
			*p = math.NaN()
			return nil
		}
	}
	return json.Unmarshal(raw, p)
}

// inDuration is n of unit as a Duration, held at the largest or smallest
// Duration when it is beyond them.
func inDuration(n int64, unit time.Duration) time.Duration {
	switch {
	case n > int64(math.MaxInt64/unit):
		return math.MaxInt64
	case n < int64(math.MinInt64/unit):
		return math.MinInt64
	}
	return time.Duration(n) * unit
}

// setCause sets the cause field k of v, f, from its wire form, the value
// of member m of an object held by level others, and returns what it
// decoded: an error of the catalogue is decoded (its own causes too, as
// deep as maxChain) and passed on without the sensitive fields that
// arrived; any other becomes an error of its text and is passed on as it
// came. A cause with a code this catalogue (or, for a family of another
// catalogue, that catalogue) does not know, in a field typed with a
// family, is a newer sender's variant of it: the field stays nil, and the
// decoded error holds the cause (see RemoteError.held). A cause of a code
// it knows whose type does not fit the field (another family's error) is
// refused: the two services do not share the catalogue.
func (d *decoder) setCause(v variant, k int, f *field, m *jsonMember, level int) (decodedCause, error) {
	var got decodedCause
	if level+1 >= maxChain {
		return got, errors.New("causes nested too deep")
	}
	n := m.node
	switch {
	case n == nil || !n.object:
		return got, errors.New("not a JSON object")
	case n.twice:
		return got, fmt.Errorf("key %q appears twice", n.dup)
	}
	raw := d.doc[m.vstart:m.vend:m.vend]
	slot := reflect.ValueOf(v).Elem().Field(k)
	var code Code
	json.Unmarshal(d.value(n, "code"), &code)
	_, known := lookupCode(code)
	if decodeImported != nil {
		c, clean, ok, refused := decodeImported(slot.Type(), raw)
		if refused != nil {
			return got, refused
		}
		if ok {
			if !bytes.Equal(clean, raw) {
				got.edit = &edit{bytes: clean}
			}
			switch {
			case reflect.TypeOf(c).AssignableTo(slot.Type()):
				slot.Set(reflect.ValueOf(c))
			case known:
				// The other package does not know the code, and this one
				// does: an error of this catalogue where that family belongs.
				return got, fmt.Errorf("a cause with code %q is not a %s", code, slot.Type())
			default:
				got.held, got.heldBy = c, v
			}
			return got, nil
		}
	}
	var cause error
	if _, ok := n.index["code"]; ok {
		res := d.decodeObject(n)
		if res.err != nil {
			return got, res.err
		}
		got = res.decodedCause
		if res.r.err != nil {
			cause = res.r.err
			if d.causes == nil {
				d.causes = map[variant]*RemoteError{}
			}
			d.causes[res.r.err] = res.r
		} else {
			// The decoded error itself is the cause, and is kept.
			cause, got.leaf = res.r, res
		}
	} else {
		raw := d.value(n, "error")
		if raw == nil {
			return got, errors.New(`neither "code" nor "error": not a cause`)
		}
		var text string
		if err := json.Unmarshal(raw, &text); err != nil {
			return got, fmt.Errorf(`"error": %w`, err)
		}
		cause = errors.New(text)
	}
	c := reflect.ValueOf(cause)
	if !c.Type().AssignableTo(slot.Type()) {
		if r, ok := cause.(*RemoteError); ok && r.err == nil && !f.imported {
			// A code this catalogue does not know, in a family's field (of
			// another catalogue's family, that catalogue's package said
			// whether it knows the code, above).
			got.held, got.heldBy = r, v
			return got, nil
		}
		return got, fmt.Errorf("a cause with code %q is not a %s", CodeOf(cause), slot.Type())
	}
	slot.Set(c)
	return got, nil
}

// readObject reads a JSON object into its members by key, and their keys
// in order, refusing a key that appears twice.
func readObject(data []byte) (map[string]json.RawMessage, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil {
		return nil, nil, err
	} else if tok != json.Delim('{') {
		return nil, nil, errors.New("not a JSON object")
	}
	members := map[string]json.RawMessage{}
	var order []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key := tok.(string)
		if _, dup := members[key]; dup {
			return nil, nil, fmt.Errorf("key %q appears twice", key)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, nil, err
		}
		members[key] = raw
		order = append(order, key)
	}
	if _, err := dec.Token(); err != nil {
		return nil, nil, err
	}
	if rest := bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n"); len(rest) > 0 {
		return nil, nil, errors.New("data after the object")
	}
	return members, order, nil
}
