// Package tmpl parses the message templates of a catalogue: literal text
// with {field} placeholders, {code} for the variant's code, and {{ and }}
// for literal braces.
package tmpl

import (
	"fmt"
	"strings"
)

// Segment is a piece of a template: literal text, or a reference to a name.
type Segment struct {
	// Lit is literal text; it is set when Ref is empty.
	Lit string
	// Ref is the placeholder's name, without braces.
	Ref string
	// Offset is the byte offset of a placeholder's "{" in the template.
	Offset int
}

// Template is a parsed template.
type Template []Segment

// Error is a problem in a template, at a byte offset of its text.
type Error struct {
	Offset int
	Msg    string
}

func (e *Error) Error() string { return fmt.Sprintf("at offset %d: %s", e.Offset, e.Msg) }

// Parse splits s into segments. Adjacent literal text is merged, so a
// template without placeholders is a single literal.
func Parse(s string) (Template, error) {
	var t Template
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t = append(t, Segment{Lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '{' && strings.HasPrefix(s[i:], "{{"):
			lit.WriteByte('{')
			i += 2
		case c == '}' && strings.HasPrefix(s[i:], "}}"):
			lit.WriteByte('}')
			i += 2
		case c == '}':
			return nil, &Error{i, "unmatched }; write }} for a literal brace"}
		case c == '{':
			end := strings.IndexByte(s[i+1:], '}')
			if end < 0 {
				return nil, &Error{i, "unclosed {; write {{ for a literal brace"}
			}
			name := s[i+1 : i+1+end]
			if name == "" {
				return nil, &Error{i, "empty placeholder {}"}
			}
			if strings.ContainsRune(name, '{') {
				return nil, &Error{i, "unclosed {; write {{ for a literal brace"}
			}
			flush()
			t = append(t, Segment{Ref: name, Offset: i})
			i += end + 2
		default:
			lit.WriteByte(c)
			i++
		}
	}
	flush()
	return t, nil
}

// Refs returns the placeholder names of t in order, each once.
func (t Template) Refs() []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range t {
		if s.Ref != "" && !seen[s.Ref] {
			seen[s.Ref] = true
			out = append(out, s.Ref)
		}
	}
	return out
}

// String writes t back in template syntax.
func (t Template) String() string {
	var b strings.Builder
	for _, s := range t {
		if s.Ref != "" {
			b.WriteString("{" + s.Ref + "}")
			continue
		}
		b.WriteString(strings.NewReplacer("{", "{{", "}", "}}").Replace(s.Lit))
	}
	return b.String()
}
