package load

import (
	"go.yaml.in/yaml/v3"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
)

// Keys lists the keys each kind of mapping accepts, in the order the
// documentation gives them. The JSON Schema is tested against it.
var Keys = map[string][]string{
	"catalogue": {"version", "package", "code_case", "user_message", "retry", "classify", "projections", "problem", "grpc", "categories", "attributes", "families", "compat"},
	"attribute": {"name", "type", "values", "default", "doc"},
	"family":    {"name", "doc", "payload_type", "user_message", "nums", "reserved", "attributes", "retry", "maps_to", "grpc_code", "variants"},
	"reserved":  {"nums", "codes"},
	"variant": {"name", "code", "num", "category", "doc", "message", "user_message",
		"retryable", "retryable_from_cause", "suppress_retry", "non_fatal", "configurable",
		"suppression_key", "suggested_tool", "suggested_action", "usage_hint", "required_fields",
		"instance_hints", "subcodes", "http_status", "match", "maps_to", "mcp_error", "grpc_code", "attributes", "fields"},
	"subcode":  {"code", "doc"},
	"field":    {"name", "type", "doc", "payload", "retry_after", "http_status", "retryable", "sensitive", "unit", "example"},
	"compat":   {"rule", "code", "family", "reason"},
	"retry":    {"max_retries", "base", "cap", "jitter"},
	"classify": {"fallback"},
	"problem":  {"type_base", "status"},
	"grpc":     {"domain", "locale"},
	"maps_to":  {"family", "default"},
	"match":    {"is", "contains"},
}

func (ld *loader) catalogue(root *yaml.Node) *ast.Catalogue {
	cat := &ast.Catalogue{File: ld.file, Pos: ld.pos(root)}
	m, ok := ld.mapping(root, "the catalogue", Keys["catalogue"], "version", "package", "categories", "families")
	if !ok {
		return cat
	}
	cat.Keys = ld.keys(m)
	cat.Version = ld.num(get(m, "version"))
	cat.Package = ld.str(m, "package", false)
	cat.CodeCase = ld.str(m, "code_case", false)
	cat.UserMessage = ld.template(m, "user_message")
	if e, ok := m["retry"]; ok {
		cat.Retry = ld.retry(e.val)
	}
	if e, ok := m["classify"]; ok {
		if cm, ok := ld.mapping(e.val, "classify", Keys["classify"], "fallback"); ok {
			cat.Classify = &ast.Classify{Pos: ld.pos(e.val), Keys: ld.keys(cm), Fallback: ld.str(cm, "fallback", false)}
		}
	}
	cat.Projections = ld.texts(m["projections"], has(m, "projections"), "projections")
	if e, ok := m["problem"]; ok {
		if pm, ok := ld.mapping(e.val, "problem", Keys["problem"], "type_base"); ok {
			cat.Problem = &ast.Problem{Pos: ld.pos(e.val), Keys: ld.keys(pm), TypeBase: ld.str(pm, "type_base", false)}
			if se, ok := pm["status"]; ok {
				cat.Problem.Status = ld.integer(se.val, "problem status")
			}
		}
	}
	if e, ok := m["grpc"]; ok {
		if gm, ok := ld.mapping(e.val, "grpc", Keys["grpc"], "domain"); ok {
			cat.GRPC = &ast.GRPC{Pos: ld.pos(e.val), Keys: ld.keys(gm), Domain: ld.str(gm, "domain", false), Locale: ld.str(gm, "locale", false)}
		}
	}
	if e, ok := m["categories"]; ok {
		cat.Categories = ld.categories(e)
	}
	if e, ok := m["attributes"]; ok {
		if items, isList := ld.items(e, "attributes"); isList {
			for _, it := range items {
				cat.Attributes = append(cat.Attributes, ld.attribute(it))
			}
		}
	}
	if e, ok := m["families"]; ok {
		if items, isList := ld.items(e, "families"); isList {
			if len(items) == 0 {
				ld.errorf(e.val, "families must list at least one family")
			}
			cat.Families = make([]*ast.Family, 0, len(items))
			for i, it := range items {
				cat.Families = append(cat.Families, ld.family(it))
				items[i] = nil // read: let the collector have it
			}
		}
	}
	if e, ok := m["compat"]; ok {
		if items, isList := ld.items(e, "compat"); isList {
			for _, it := range items {
				cat.Compat = append(cat.Compat, ld.waiver(it))
			}
		}
	}
	return cat
}

// get adapts a map lookup to the (entry, ok, what) arguments of the readers.
func get(m map[string]entry, key string) (entry, bool, string) {
	e, ok := m[key]
	return e, ok, key
}

// str reads the text value of key in m, if present.
func (ld *loader) str(m map[string]entry, key string, multiline bool) ast.String {
	e, ok := m[key]
	return ld.text(e, ok, key, multiline)
}

// template reads a template: one-line text whose characters errors can
// point at.
func (ld *loader) template(m map[string]entry, key string) ast.String {
	s := ld.str(m, key, false)
	if s.Set {
		s.At = ld.src.locator(ld.file, m[key].val)
	}
	return s
}

func has(m map[string]entry, key string) bool {
	_, ok := m[key]
	return ok
}

func (ld *loader) categories(e entry) []ast.Category {
	n := e.val
	if n.Kind != yaml.MappingNode {
		ld.errorf(n, "categories must be a mapping of name to description, got %s", describe(n))
		return nil
	}
	if len(n.Content) == 0 {
		ld.errorf(n, "categories must declare at least one category")
		return nil
	}
	// The nodes read are let go as the loop goes, so that the tree and
	// what is read from it are not both held whole: a catalogue of many
	// categories peaks lower. The resolver, which keeps a map of the
	// categories by name anyway, reports a name given twice.
	out := make([]ast.Category, 0, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		n.Content[i], n.Content[i+1] = nil, nil
		name := ld.text(entry{val: k}, true, "a category name", false)
		if !name.Set {
			continue
		}
		doc := ld.text(entry{key: k, val: v}, true, "the description of category "+diag.Quote(name.Value), true)
		out = append(out, ast.Category{Name: name, Doc: doc})
	}
	return out
}

// family reads one family. Like variant and field, it returns an entry with
// nothing set when n is not a mapping, so the checker still knows something
// stood there (a category its variants use, a field its templates name).
func (ld *loader) family(n *yaml.Node) *ast.Family {
	f := &ast.Family{Pos: ld.pos(n)}
	m, ok := ld.mapping(n, "a family", Keys["family"], "name", "variants")
	if !ok {
		return f
	}
	f.Keys = ld.keys(m)
	f.Name = ld.str(m, "name", false)
	f.Doc = ld.str(m, "doc", true)
	f.PayloadType = ld.str(m, "payload_type", false)
	f.UserMessage = ld.template(m, "user_message")
	if e, ok := m["nums"]; ok {
		f.NumsPos = ld.pos(e.val)
		nums := ld.ints(e, true, "nums", "nums bound")
		if e.val.Kind == yaml.SequenceNode && len(e.val.Content) != 2 {
			ld.errorf(e.val, "nums must be a range of two numbers [first, last], got a list of %d", len(e.val.Content))
		} else if len(nums) == 2 {
			f.Nums = nums
		}
	}
	if e, ok := m["reserved"]; ok {
		if rm, ok := ld.mapping(e.val, "reserved", Keys["reserved"]); ok {
			f.ReservedNums = ld.ints(rm["nums"], has(rm, "nums"), "reserved nums", "reserved num")
			f.ReservedCodes = ld.texts(rm["codes"], has(rm, "codes"), "reserved codes")
		}
	}
	f.Attributes = ld.attrValues(m)
	if e, ok := m["retry"]; ok {
		f.Retry = ld.retry(e.val)
	}
	if e, ok := m["maps_to"]; ok {
		if mm, ok := ld.mapping(e.val, "maps_to", Keys["maps_to"], "family"); ok {
			f.MapsTo = &ast.MapsTo{Pos: ld.pos(e.val), Keys: ld.keys(mm), Family: ld.str(mm, "family", false), Default: ld.str(mm, "default", false)}
		}
	}
	f.GRPCCode = ld.str(m, "grpc_code", false)
	if e, ok := m["variants"]; ok {
		if items, isList := ld.items(e, "variants"); isList {
			if len(items) == 0 {
				ld.errorf(e.val, "variants must list at least one variant")
			}
			f.Variants = make([]*ast.Variant, 0, len(items))
			for i, it := range items {
				f.Variants = append(f.Variants, ld.variant(it))
				items[i] = nil // read: let the collector have it
			}
		}
	}
	return f
}

func (ld *loader) variant(n *yaml.Node) *ast.Variant {
	v := &ast.Variant{Pos: ld.pos(n)}
	m, ok := ld.mapping(n, "a variant", Keys["variant"], "name", "code", "num", "category", "message")
	if !ok {
		return v
	}
	v.Keys = ld.keys(m)
	v.Name = ld.str(m, "name", false)
	v.Code = ld.str(m, "code", false)
	v.Num = ld.num(get(m, "num"))
	v.Category = ld.str(m, "category", false)
	v.Doc = ld.str(m, "doc", true)
	v.Message = ld.template(m, "message")
	v.UserMessage = ld.template(m, "user_message")
	v.SuppressionKey = ld.template(m, "suppression_key")
	v.SuggestedTool = ld.str(m, "suggested_tool", false)
	v.SuggestedAction = ld.str(m, "suggested_action", false)
	v.UsageHint = ld.str(m, "usage_hint", false)
	v.Retryable = ld.boolean(get(m, "retryable"))
	v.RetryableFromCause = ld.boolean(get(m, "retryable_from_cause"))
	v.SuppressRetry = ld.boolean(get(m, "suppress_retry"))
	v.NonFatal = ld.boolean(get(m, "non_fatal"))
	v.Configurable = ld.boolean(get(m, "configurable"))
	v.HTTPStatus = ld.statuses(get(m, "http_status"))
	v.RequiredFields = ld.texts(m["required_fields"], has(m, "required_fields"), "required_fields")
	if e, ok := m["required_fields"]; ok {
		v.RequiredFieldsPos = ld.pos(e.val)
	}
	v.InstanceHints = ld.texts(m["instance_hints"], has(m, "instance_hints"), "instance_hints")
	if e, ok := m["subcodes"]; ok {
		if items, isList := ld.items(e, "subcodes"); isList {
			for _, it := range items {
				v.Subcodes = append(v.Subcodes, ld.subcode(it))
			}
		}
	}
	v.Attributes = ld.attrValues(m)
	v.MapsTo = ld.str(m, "maps_to", false)
	v.GRPCCode = ld.str(m, "grpc_code", false)
	if e, ok := m["mcp_error"]; ok {
		v.MCPError = ld.integer(e.val, "mcp_error")
	}
	if e, ok := m["match"]; ok {
		if mm, ok := ld.mapping(e.val, "match", Keys["match"]); ok {
			// No rule at all: no key, or only empty lists. A key errgen
			// does not know, or a value that is not a list, is reported
			// as such.
			empty := len(mm)*2 == len(e.val.Content)
			for _, x := range mm {
				if x.val.Kind != yaml.SequenceNode || len(x.val.Content) > 0 {
					empty = false
				}
			}
			if empty {
				ld.errorf(e.val, "match must give at least one rule: is, contains")
			}
			v.Match = &ast.Match{Pos: ld.pos(e.val), Keys: ld.keys(mm),
				Is:       ld.texts(mm["is"], has(mm, "is"), "match is"),
				Contains: ld.texts(mm["contains"], has(mm, "contains"), "match contains")}
		}
	}
	if e, ok := m["fields"]; ok {
		items, isList := ld.items(e, "fields")
		if !isList {
			// Fields that could not be read still stand for fields: the
			// checker must not report the placeholders naming them.
			v.Fields = append(v.Fields, &ast.Field{Pos: ld.pos(e.val)})
		}
		for _, it := range items {
			v.Fields = append(v.Fields, ld.field(it))
		}
	}
	return v
}

func (ld *loader) field(n *yaml.Node) *ast.Field {
	f := &ast.Field{Pos: ld.pos(n)}
	m, ok := ld.mapping(n, "a field", Keys["field"], "name", "type")
	if !ok {
		return f
	}
	f.Keys = ld.keys(m)
	f.Name = ld.str(m, "name", false)
	f.Type = ld.str(m, "type", false)
	f.Doc = ld.str(m, "doc", true)
	f.Payload = ld.boolean(get(m, "payload"))
	f.RetryAfter = ld.boolean(get(m, "retry_after"))
	f.HTTPStatus = ld.boolean(get(m, "http_status"))
	f.Retryable = ld.boolean(get(m, "retryable"))
	f.Sensitive = ld.boolean(get(m, "sensitive"))
	f.Unit = ld.str(m, "unit", false)
	if e, ok := m["example"]; ok {
		f.Example = ld.example(e.val, f.Type.Set && f.Type.Value != "strings")
	}
	return f
}

// example keeps a field's example as written; the checker matches it to the
// field's type.
//
// single reports that the field's type takes a single value: a list is
// the mistake, which the checker reports, not the form of its items.
func (ld *loader) example(n *yaml.Node, single bool) *ast.Example {
	ex := &ast.Example{Pos: ld.pos(n)}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			ld.errorf(n, "example has no value; write one (or leave out the key where it is optional)")
			return nil
		}
		ld.checkRunes(n, "example", false)
		ex.Scalar = n.Value
		ex.Quoted = n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0
	case yaml.SequenceNode:
		ex.IsList = true
		if !single {
			ex.List = ld.texts(entry{val: n}, true, "example")
		}
	default:
		ld.errorf(n, "example must be a value or a list of text, got %s", describe(n))
		return nil
	}
	return ex
}

// attribute reads the declaration of a custom attribute.
func (ld *loader) attribute(n *yaml.Node) *ast.Attribute {
	a := &ast.Attribute{Pos: ld.pos(n)}
	m, ok := ld.mapping(n, "an attribute", Keys["attribute"], "name", "type")
	if !ok {
		return a
	}
	a.Keys = ld.keys(m)
	a.Name = ld.str(m, "name", false)
	a.Type = ld.str(m, "type", false)
	a.Doc = ld.str(m, "doc", true)
	if e, ok := m["values"]; ok {
		switch a.Type.Value {
		case "string", "bool", "int":
			// Only an enum has values: the key is the mistake, which
			// the checker reports, not the form of its items.
		default:
			a.Values = ld.texts(e, true, "values")
			a.ValuesRefused = e.val.Kind != yaml.SequenceNode || len(a.Values) < len(e.val.Content)
		}
	}
	if e, ok := m["default"]; ok {
		a.Default = ld.scalar(e.val, "default")
	}
	return a
}

// attrValues reads the attributes mapping of a family or a variant: an
// attribute's name to its value, whose type the declaration decides.
func (ld *loader) attrValues(m map[string]entry) []ast.AttrValue {
	e, ok := m["attributes"]
	if !ok {
		return nil
	}
	n := e.val
	if n.Kind != yaml.MappingNode {
		ld.errorf(n, "attributes must be a mapping of attribute name to value, got %s", describe(n))
		return nil
	}
	var out []ast.AttrValue
	seen := map[string]diag.Pos{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name := ld.text(entry{val: k}, true, "an attribute name", false)
		if !name.Set {
			continue
		}
		if first, dup := seen[name.Value]; dup {
			ld.errorf(k, "duplicate key %s in attributes (first at %d:%d)", diag.Quote(name.Value), first.Line, first.Col)
			continue
		}
		seen[name.Value] = name.Pos
		if val := ld.scalar(v, "the value of attribute "+diag.Quote(name.Value)); val != nil {
			out = append(out, ast.AttrValue{Name: name, Value: *val})
		}
	}
	return out
}

// scalar reads a one-line value of any type; the resolver matches it to
// the type its declaration gives.
func (ld *loader) scalar(n *yaml.Node, what string) *ast.Scalar {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		ld.errorf(n, "%s must be a single value, got %s", what, describe(n))
		return nil
	}
	ld.checkRunes(n, what, false)
	return &ast.Scalar{Pos: ld.pos(n), Text: n.Value, NotText: notText(n),
		Quoted: n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0}
}

// subcode reads one entry of a variant's subcodes.
func (ld *loader) subcode(n *yaml.Node) ast.Subcode {
	s := ast.Subcode{Pos: ld.pos(n)}
	m, ok := ld.mapping(n, "a sub-code", Keys["subcode"], "code", "doc")
	if !ok {
		return s
	}
	s.Code = ld.str(m, "code", false)
	s.Doc = ld.str(m, "doc", true)
	return s
}

func (ld *loader) waiver(n *yaml.Node) ast.Waiver {
	w := ast.Waiver{Pos: ld.pos(n)}
	m, ok := ld.mapping(n, "a compat waiver", Keys["compat"], "rule", "reason")
	if !ok {
		return w
	}
	w.Rule = ld.str(m, "rule", false)
	w.Code = ld.str(m, "code", false)
	w.Family = ld.str(m, "family", false)
	w.Reason = ld.str(m, "reason", true)
	return w
}

// statuses reads http_status: a list of statuses (429) and ranges ("4xx",
// "500-599"), each kept as its text for the resolver to parse.
func (ld *loader) statuses(e entry, ok bool, what string) []ast.String {
	if !ok {
		return nil
	}
	items, isList := ld.list(e, what)
	if !isList {
		return nil
	}
	out := make([]ast.String, 0, len(items))
	for i, it := range items {
		items[i] = nil // read below: let the collector have it
		pos := ld.pos(it)
		switch {
		case it.Kind != yaml.ScalarNode || it.Tag == "!!null" || it.Tag == "!!bool" || it.Tag == "!!float":
			ld.errorf(it, "each item of %s must be a status such as 429 or a range such as \"5xx\" or \"500-599\", got %s", what, describe(it))
		case it.Tag == "!!int" && !decimalRE.MatchString(it.Value):
			ld.errorf(it, "each item of %s must be a plain decimal number, got %s", what, diag.Quote(it.Value))
		case it.Tag == "!!str" && it.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 && decimalRE.MatchString(it.Value):
			// A status is a number; only a class or a range is text.
			ld.errorf(it, "each item of %s that is one status is a number: write %s without quotes", what, it.Value)
		default:
			ld.checkRunes(it, "each item of "+what, false)
			out = append(out, ast.String{Value: it.Value, Pos: pos, Set: true})
		}
	}
	return out
}

// retry reads a retry policy; each key may be left out.
func (ld *loader) retry(n *yaml.Node) *ast.Retry {
	m, ok := ld.mapping(n, "retry", Keys["retry"])
	if !ok {
		return nil
	}
	r := &ast.Retry{Pos: ld.pos(n), Keys: ld.keys(m)}
	r.MaxRetries = ld.num(get(m, "max_retries"))
	// A number given as a delay (base: 1000) is a duration without its
	// unit: the checker says what a duration looks like, which quoting
	// the number would not fix.
	r.Base = ld.retryValue(m, "base")
	r.Cap = ld.retryValue(m, "cap")
	r.Jitter = ld.retryValue(m, "jitter")
	// jitter is a number, and a quoted number is text (as max_retries
	// refuses one); the checker reads base and cap, durations, as text.
	if e, ok := m["jitter"]; ok && r.Jitter.Set && e.val.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		ld.errorf(e.val, "retry jitter must be a number, got %s", describe(e.val))
		r.Jitter = ast.String{}
	}
	return r
}

// retryValue reads one value of a retry policy as written, for the checker
// to parse.
func (ld *loader) retryValue(m map[string]entry, key string) ast.String {
	if e, ok := m[key]; ok {
		if sc := ld.scalar(e.val, key); sc != nil {
			return ast.String{Value: sc.Text, Pos: sc.Pos, Set: true}
		}
	}
	return ast.String{}
}
