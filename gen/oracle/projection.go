package oracle

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/errgen/errgen/gen/model"
)

// The tool call ids and the problem instance the golden files use.
const (
	GoldenToolUseID  = "toolu_golden"
	GoldenToolCallID = "call_golden"
)

// Projections returns what each projection m selects writes for v's
// example, by projection name; nil when m selects none. MCP is asked for
// structured content, the problem document has no instance, and the
// provider blocks answer GoldenToolUseID and GoldenToolCallID.
func Projections(m *model.Catalogue, v *model.Variant) map[string]json.RawMessage {
	if len(m.Projections) == 0 {
		return nil
	}
	llm := Payload(v)
	if llm == nil {
		llm = Wire(v)
	}
	llmText := str(string(llm))
	out := map[string]json.RawMessage{}
	for _, name := range m.Projections {
		var o obj
		switch name {
		case "mcp":
			if v.MCPError != 0 {
				o.add("code", v.MCPError).add("message", Message(v)).raw("data", llm)
			} else {
				var text obj
				text.add("type", "text").raw("text", llmText)
				o.raw("content", []byte("["+string(text.bytes())+"]")).raw("structuredContent", llm).add("isError", true)
			}
		case "anthropic":
			o.add("type", "tool_result").add("tool_use_id", GoldenToolUseID).raw("content", llmText).add("is_error", true)
		case "openai":
			o.add("role", "tool").add("tool_call_id", GoldenToolCallID).raw("content", llmText)
		case "problem":
			o.add("type", v.ProblemType(m)).add("title", v.Title()).add("status", v.ProblemStatus(m)).
				add("detail", UserMessage(v)).add("code", v.ExampleCode()).add("code_num", v.Num).
				add("category", v.Category.Name).add("retryable", v.ExampleRetryable())
			// The wait Retry-After carries, in the body too: whole
			// milliseconds, rounded up.
			if d, ok := retryAfter(v); ok {
				ms := d / time.Millisecond
				if d%time.Millisecond > 0 {
					ms++
				}
				o.add("retry_after_ms", int64(ms))
			}
			o.members(fields(v, v.Payload()))
		case "grpc":
			var info obj
			info.add("@type", "type.googleapis.com/google.rpc.ErrorInfo").add("reason", strings.ToUpper(v.ExampleCode())).add("domain", m.GRPCDomain)
			var md obj
			for _, kv := range fields(v, v.Payload()) {
				var s string
				if json.Unmarshal(kv.value, &s) != nil {
					s = string(kv.value)
				}
				md.add(kv.name, s)
			}
			if len(md.keys) > 0 {
				info.raw("metadata", md.bytes())
			}
			details := []string{string(info.bytes())}
			// A retryable error has a RetryInfo: with its wait, or of no
			// delay where its code alone does not say it is retryable (its code
			// is not, or its cause decides).
			if d, ok := retryAfter(v); v.ExampleRetryable() && (ok && d > 0 || !v.Retry.Retryable || v.Retry.FromCause) {
				if !ok || d <= 0 {
					d = 0
				}
				var ri obj
				ri.add("@type", "type.googleapis.com/google.rpc.RetryInfo").add("retryDelay", durationJSON(d))
				details = append(details, string(ri.bytes()))
			}
			var lm obj
			lm.add("@type", "type.googleapis.com/google.rpc.LocalizedMessage").add("locale", m.GRPCLocale).add("message", UserMessage(v))
			details = append(details, string(lm.bytes()))
			o.add("code", v.GRPCCodeNum()).add("message", Message(v)).raw("details", []byte("["+strings.Join(details, ",")+"]"))
		case "agent_response":
			o.add("success", false).add("error", v.ExampleCode()).add("message", Message(v))
			if fs := fields(v, v.Wire()); len(fs) > 0 {
				var md obj
				for _, f := range fs {
					md.raw(f.field.MetadataKey(), f.value)
				}
				o.raw("metadata", md.bytes())
			}
		case "tool_output":
			o.add("error", Message(v))
		}
		out[name] = o.bytes()
	}
	return out
}

// member is one member of a JSON object: its key and its value as JSON;
// the field it is, for a member fields returns.
type member struct {
	name  string
	value []byte
	field *model.Field
}

// obj builds a JSON object with its members in the order added.
type obj struct{ keys []member }

func (o *obj) add(name string, v any) *obj {
	data, err := json.Marshal(v)
	if err != nil {
		data = []byte("null")
	}
	return o.raw(name, data)
}

func (o *obj) raw(name string, data []byte) *obj {
	o.keys = append(o.keys, member{name: name, value: data})
	return o
}

func (o *obj) members(ms []member) { o.keys = append(o.keys, ms...) }

func (o *obj) bytes() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(str(m.name))
		b.WriteByte(':')
		b.Write(m.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func str(s string) []byte {
	data, _ := json.Marshal(s)
	return data
}

// fields returns the members of the example's object of keys that are
// fields, in order: the payload fields or the wire form's.
func fields(v *model.Variant, keys []model.PayloadKey) []member {
	var out []member
	for _, k := range keys {
		if k.Kind != model.KeyFields {
			continue
		}
		if val, ok := value(v, k); ok {
			data, err := json.Marshal(val)
			if err != nil {
				data = []byte("null")
			}
			out = append(out, member{k.Name, data, k.Field})
		}
	}
	return out
}

// retryAfter is what RetryAfterOf reports for v's example: the value of
// the first error in its chain whose retry_after field is positive (a
// zero one is no wait, and the chain is read on past it).
func retryAfter(v *model.Variant) (time.Duration, bool) {
	for depth := 0; v != nil && depth < 100; depth++ {
		if v.RetryAfter != nil && v.RetryAfter.Example.Duration > 0 {
			return v.RetryAfter.Example.Duration, true
		}
		if v.Cause == nil || v.Cause.Type.Kind != model.FamilyKind {
			return 0, false
		}
		v = v.Cause.Example.Variant
	}
	return 0, false
}

// durationJSON is d, a positive wait, in protobuf's JSON mapping of
// Duration: seconds with 0, 3, 6 or 9 fractional digits. Whole numbers
// only: a float64 holds nanoseconds exactly only up to 2^53 of them (104
// days), past which the last digits were wrong.
func durationJSON(d time.Duration) string {
	whole := strconv.FormatInt(int64(d/time.Second), 10)
	frac := strconv.FormatInt(int64(d%time.Second)+int64(time.Second), 10)[1:] // nine digits
	for len(frac) > 0 && strings.HasSuffix(frac, "000") {
		frac = frac[:len(frac)-3]
	}
	if frac == "" {
		return whole + "s"
	}
	return whole + "." + frac + "s"
}
