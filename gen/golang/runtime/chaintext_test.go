package runtime

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// refText is the text of err as each Error method of a chain gave it
// when it checked its own cause and called its cause's Error method: the
// reference the one-pass rendering (appendCauseText) is compared with. A
// variant of the package renders its message with the cause it would
// have after its own check (refCause), a join joins its errors' texts,
// and any other error gives what its Error method does.
func refText(err error) string {
	if err == nil {
		return "<nil>"
	}
	if i := refVariant(err); i >= 0 {
		if isNil(err) {
			return "<nil>"
		}
		return refTemplate(err.(variant), i)
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok && reflect.TypeOf(err).String() == "*errors.joinError" {
		var texts []string
		for _, e := range j.Unwrap() {
			texts = append(texts, refText(e))
		}
		return strings.Join(texts, "\n")
	}
	return errorText(err)
}

// refVariant is the row of infos of err's type, -1 when err is of no
// variant's type.
func refVariant(err error) int {
	for i, v := range variantTypes {
		if reflect.TypeOf(err) == reflect.TypeOf(v) {
			return i
		}
	}
	return -1
}

// refTemplate renders the message of e, infos[i].
func refTemplate(e variant, i int) string {
	t, out := infos[i].Message, ""
	for t != "" {
		switch {
		case strings.HasPrefix(t, "{{"), strings.HasPrefix(t, "}}"):
			out, t = out+t[:1], t[2:]
		case t[0] == '{':
			end := strings.IndexByte(t, '}')
			out += refField(e, i, t[1:end])
			t = t[end+1:]
		default:
			out, t = out+t[:1], t[1:]
		}
	}
	return out
}

// refField is the text of the field name of e, infos[i].
func refField(e variant, i int, name string) string {
	if name == "code" {
		return string(e.Code())
	}
	k := fieldIndex(forms[i].fields, name)
	f := forms[i].fields[k]
	if f.cause {
		return refText(refCause(e))
	}
	switch v := reflect.ValueOf(e).Elem().Field(k).Interface().(type) {
	case time.Duration:
		n := v / f.unit
		if f.retryAfter && v%f.unit > 0 {
			n++
		}
		return strconv.FormatInt(int64(n), 10)
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case []string:
		return strings.Join(v, ", ")
	default:
		return fmt.Sprint(v)
	}
}

// refCause is e's cause, nil when the chain below it comes back to e or
// goes on past maxCycle links.
func refCause(e variant) error {
	cause := e.(interface{ Unwrap() error }).Unwrap()
	var back func(err error, depth int) bool
	back = func(err error, depth int) bool {
		for ; err != nil; depth++ {
			if depth >= maxCycle || err == error(e) {
				return true
			}
			if isNil(err) {
				return false
			}
			switch u := err.(type) {
			case interface{ Unwrap() error }:
				err = u.Unwrap()
			case interface{ Unwrap() []error }:
				for _, m := range u.Unwrap() {
					if back(m, depth+1) {
						return true
					}
				}
				return false
			default:
				return false
			}
		}
		return false
	}
	if back(cause, 0) {
		return nil
	}
	return cause
}

// textOf is a wrapper whose text is its cause's, asked at each call.
type textOf struct{ err error }

func (w *textOf) Error() string { return "[" + errorText(w.err) + "]" }
func (w *textOf) Unwrap() error { return w.err }

// lookalike has every method of a variant, but is no type of the package.
type lookalike struct{ *ProviderTimeout }

func (l lookalike) Error() string { return "lookalike: " + l.ProviderTimeout.Error() }

// chains builds random chains of the package's wrappers, with every other
// kind of link and cause a chain can hold.
type chains struct {
	r     *rand.Rand
	links []error
	// as adds links an As method stands for (standsFor).
	as bool
}

func (c *chains) leaf() error {
	decoded := func(payload string) error {
		r, err := DecodePayload([]byte(payload))
		if err != nil {
			panic(err)
		}
		return r
	}
	switch c.r.IntN(11) {
	case 0:
		return nil
	case 1:
		return errors.New("leaf {x}")
	case 2:
		return (*RateLimited)(nil)
	case 3:
		return (*MemoryUnavailable)(nil)
	case 4:
		return &RateLimited{Provider: "p", RetryAfter: 1500 * time.Microsecond}
	case 5:
		return &AuthFailed{Provider: "q", APIKey: "sk-secret", Headers: []string{"a"}}
	case 6:
		return &ToolUnavailable{Tool: "t", Reason: "r", Alternatives: []string{"x", "y"}, Load: 0.25, Since: 1500 * time.Microsecond, Credential: "c"}
	case 7:
		// A held cause: a newer sender's variant of the wrapper's family.
		return decoded(`{"category":"model","code":"model_call_failed","code_num":3001,"error":"model call failed: overloaded","retryable":false,"cause":{"category":"server","code":"provider_from_the_future","code_num":2050,"error":"overloaded","retryable":false}}`)
	case 8:
		return decoded(`{"category":"timeout","code":"provider_timeout","code_num":2004,"error":"as sent","retryable":true,"cause":{"category":"rate_limit","code":"rate_limited","code_num":2001,"error":"rl","retryable":true}}`)
	case 9:
		return lookalike{&ProviderTimeout{Cause: errors.New("in")}}
	default:
		return &ServerError{Provider: "s", Status: 503}
	}
}

func (c *chains) provider(depth int) ProviderError {
	switch c.r.IntN(5) {
	case 0:
		return nil
	case 1:
		return (*ProviderTimeout)(nil)
	case 2:
		return &ProviderTimeout{Cause: c.build(depth - 1)}
	case 3:
		return &ProviderUnreachable{Cause: c.build(depth - 1)}
	default:
		return &ProviderFailed{Cause: c.build(depth - 1)}
	}
}

func (c *chains) build(depth int) error {
	var e error
	if depth <= 0 || c.r.IntN(8) == 0 {
		e = c.leaf()
	} else {
		kinds := 9
		if c.as {
			kinds++
		}
		switch c.r.IntN(kinds) {
		case 0:
			e = &MemoryUnavailable{Err: c.build(depth - 1)}
		case 1:
			e = &ProviderTimeout{Cause: c.build(depth - 1)}
		case 2:
			e = &ProviderFailed{Cause: c.build(depth - 1)}
		case 3:
			e = &OperatorFailed{Cause: c.build(depth - 1)}
		case 4:
			e = &ModelCallFailed{Cause: c.provider(depth), Provider: "m"}
		case 5:
			e = fmt.Errorf("w: %w", c.build(depth-1))
		case 6:
			e = errors.Join(c.build(depth-1), c.build(depth-1))
		case 7:
			e = &textOf{c.build(depth - 1)}
		case 9:
			// A variant an As method stands for, whose chain no check
			// of the wrappers above covers: a chain of its own, with
			// cycles of its own (one through the As method, which no
			// walk can see, would not end).
			inner := &chains{r: c.r}
			if v, ok := inner.build(depth - 1).(Error); ok {
				for range c.r.IntN(3) {
					inner.loop()
				}
				e = standsFor{v}
			} else {
				e = c.leaf()
			}
		default:
			e = lookalike{&ProviderTimeout{Cause: c.build(depth - 1)}}
		}
	}
	c.links = append(c.links, e)
	return e
}

// loop makes one of the chain's wrappers take another link as its cause,
// which may close a cycle.
func (c *chains) loop() {
	to := c.links[c.r.IntN(len(c.links))]
	for _, i := range c.r.Perm(len(c.links)) {
		switch w := c.links[i].(type) {
		case *MemoryUnavailable:
			if w != nil {
				w.Err = to
				return
			}
		case *OperatorFailed:
			if w != nil {
				w.Cause = to
				return
			}
		case *ProviderFailed:
			w.Cause = to
			return
		}
	}
}

// TestChainTextAsEachErrorMethodGaveIt: the text of a chain, rendered in
// one pass with each cause of the package in place under the one check
// that the chain ends, is the text each Error method gave when it checked
// its own cause: for chains of every kind of link (the package's
// wrappers, fmt.Errorf, errors.Join, a wrapper asking its cause's text,
// a type outside the package with a variant's methods), every kind of
// cause (nil, a typed nil pointer, a variant with sensitive fields,
// decoded errors, one holding a newer sender's cause), with cycles, and
// as long as maxCycle allows.
func TestChainTextAsEachErrorMethodGaveIt(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 3000 {
		c := &chains{r: r}
		err := c.build(1 + r.IntN(12))
		for range r.IntN(3) {
			c.loop()
		}
		if err == nil {
			continue
		}
		if got, want := err.Error(), refText(err); got != want {
			t.Fatalf("chain %d: text\n%q, want\n%q", n, got, want)
		}
		if v, ok := err.(variant); ok && refVariant(err) >= 0 && !isNil(v) {
			if got, want := v.LogValue().Group()[0].Value.String(), refText(err); got != want {
				t.Fatalf("chain %d: logged text\n%q, want\n%q", n, got, want)
			}
		}
	}
	for _, n := range []int{maxChain, maxChain + 1, maxCycle - 1, maxCycle, maxCycle + 1} {
		var err error = errors.New("root")
		for range n {
			err = &MemoryUnavailable{Err: err}
		}
		// The check walks the chain below the top one, n-1 wrappers and
		// the root: as far as maxCycle, no further.
		want := strings.Repeat("memory unavailable: ", n) + "root"
		if n > maxCycle {
			want = "memory unavailable: <nil>"
		}
		if got := err.Error(); got != want {
			t.Errorf("a chain of %d: text of %d bytes, want %d: ...%s", n, len(got), len(want), got[max(0, len(got)-40):])
		}
	}
}

// refRetryable is Retryable of e as each link's Retryable gave it when it
// checked its own cause (refCause) and asked its cause's Retryable: the
// reference retryableOf's one walk is compared with.
func refRetryable(e variant) bool {
	i := refVariant(e)
	if i < 0 || isNil(e) || !fromCause(i) {
		return e.Retryable()
	}
	c := find(refCause(e))
	if c == nil {
		return infos[i].Retryable
	}
	if v, ok := c.(variant); ok && refVariant(v) >= 0 {
		return refRetryable(v)
	}
	return c.Retryable()
}

// refUserMessage is UserMessage of e as each link's gave it when it
// checked its own cause and asked its cause's UserMessage.
func refUserMessage(e variant) string {
	i := refVariant(e)
	if i < 0 || isNil(e) || !forms[i].userCause {
		return e.UserMessage()
	}
	cause := refCause(e)
	if c := find(cause); c != nil {
		m := c.UserMessage()
		if v, ok := c.(variant); ok && refVariant(v) >= 0 {
			m = refUserMessage(v)
		}
		if m != "" {
			return m
		}
	} else if s, ok := imported(cause); ok && importsCause(i) {
		if m := s.UserMessage(); m != "" {
			return m
		}
	}
	return renderCode(forms[i].user, e.Code())
}

// TestChainFromCauseAsEachLinkGaveIt: the retryability and the user
// message of every link of a chain, found in one walk down it under the
// one check that it ends, are what each link gave when it checked its own
// cause and asked its cause, for chains of every kind of link and cause,
// with cycles.
func TestChainFromCauseAsEachLinkGaveIt(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 3000 {
		c := &chains{r: r, as: true}
		c.build(1 + r.IntN(12))
		for range r.IntN(3) {
			c.loop()
		}
		for _, link := range c.links {
			v, ok := link.(variant)
			if !ok || refVariant(link) < 0 || isNil(v) {
				continue
			}
			if got, want := v.Retryable(), refRetryable(v); got != want {
				t.Fatalf("chain %d: Retryable of %T = %v, want %v: %s", n, v, got, want, refText(v))
			}
			if got, want := v.UserMessage(), refUserMessage(v); got != want {
				t.Fatalf("chain %d: UserMessage of %T = %q, want %q: %s", n, v, got, want, refText(v))
			}
		}
	}
}

// standsFor is a wrapper outside the package whose As method stands for
// an error of the catalogue it does not wrap.
type standsFor struct{ e Error }

func (s standsFor) Error() string { return "stands for an error" }
func (s standsFor) As(target any) bool {
	if p, ok := target.(*Error); ok {
		*p = s.e
		return true
	}
	return false
}

// TestChainFromCauseThroughAnAsMethod: a wrapper whose cause decides and
// whose cause stands, through an As method, for a variant whose own chain
// comes back to itself answers as each link's Retryable and UserMessage
// did (the variant's check finds the cycle, and it gives its own answer),
// and returns.
func TestChainFromCauseThroughAnAsMethod(t *testing.T) {
	loop := &OperatorFailed{}
	loop.Cause = loop
	top := &ModelCallFailed{Cause: &ProviderFailed{Cause: standsFor{loop}}}
	done := make(chan [2]any, 1)
	go func() { done <- [2]any{top.Retryable(), top.UserMessage()} }()
	select {
	case got := <-done:
		if want := [2]any{loop.Retryable(), loop.UserMessage()}; got != want {
			t.Errorf("Retryable, UserMessage = %v, want %v", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Retryable or UserMessage of a chain through an As method does not return")
	}
}
