// Package docs renders what a person reads about a catalogue: the Markdown
// reference (from templates/docs.md.tmpl: per family a table of its
// errors, then each error's doc, fields and example payload) and the
// terminal page errgen explain prints for one error. Every meaning it shows
// (a class, a retry rule, where a user message comes from, an example)
// comes from the model and the oracle; this package only lays it out.
//
// The template receives text already escaped for Markdown, so no catalogue
// text can break a table or inject HTML, whatever the template does with
// it.
package docs

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/errgen/errgen/gen/markdown"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/oracle"
	"github.com/errgen/errgen/templates"
)

// Template is the name of the template Render executes.
const Template = "docs.md.tmpl"

// Marker returns the generated-file line of the reference of catalogue
// file: an HTML comment, invisible when rendered, holding the same
// "Code generated ... DO NOT EDIT." text as the Go files.
func Marker(file string) string {
	return "<!-- " + model.GeneratedBy(file) + " -->"
}

// Render returns the Markdown reference of m.
func Render(m *model.Catalogue) ([]byte, error) {
	t, err := templates.Get()
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, Template, view(m)); err != nil {
		return nil, err
	}
	return append(bytes.TrimRight(buf.Bytes(), "\n"), '\n'), nil
}

// The view types hold what the template prints, escaped: fields named
// like catalogue keys hold Markdown, never raw text.
type (
	catalogueView struct {
		Marker     string
		Package    string
		Count      int
		Categories []categoryView
		Attributes []attributeView
		Families   []familyView
		// Classify says what Classify returns when no rule matches.
		Classify string
	}
	attributeView struct{ Name, Type, Default, Doc string }
	categoryView  struct{ Name, Doc string }
	familyView    struct {
		Name, Anchor, Doc, PayloadType, UserMessage, Nums string
		ReservedNums, ReservedCodes                       string
		Retry, MapsTo                                     string
		Variants                                          []variantView
	}
	variantView struct {
		Code, Anchor, Num, Name, Category, Class   string
		Retryable, SuppressRetry                   string
		Doc, Message, MessageCell, UserMessage     string
		SuppressionKey                             string
		SuggestedTool, SuggestedAction, UsageHint  string
		HTTPStatus, ExampleMessage, ExamplePayload string
		InstanceHints, RequiredFields              string
		MapsTo, Classify, Projections              string
		Fields                                     []fieldView
		Subcodes                                   []subcodeView
		Attributes                                 []attrView
	}
	subcodeView struct{ Code, Doc string }
	attrView    struct{ Name, Value string }
	fieldView   struct{ Name, Type, Payload, Doc string }
)

func view(m *model.Catalogue) catalogueView {
	v := catalogueView{Marker: Marker(m.File), Package: markdown.Code(m.Package), Count: len(m.Variants)}
	for _, c := range m.Categories {
		v.Categories = append(v.Categories, categoryView{markdown.Code(c.Name), markdown.Text(c.Doc)})
	}
	for _, a := range m.Attributes {
		av := attributeView{Name: markdown.Code(a.Name), Type: markdown.Text(a.Type.String()), Doc: markdown.Text(a.Doc)}
		if a.Type == model.AttrEnum {
			av.Type += " (" + codes(a.Values) + ")"
		}
		if a.HasDefault {
			av.Default = markdown.CodeCell(a.Shown(a.Default))
		}
		v.Attributes = append(v.Attributes, av)
	}
	if c := m.Classify; c != nil {
		v.Classify = "`Classify` returns a new [" + markdown.Code(c.Fallback.Code) + "](#" + c.Fallback.Code + ") for a foreign error no rule matches. It tries every variant's `is` rules in catalogue order, then `http_status` of the variants that hold a cause of type `error` (the most specific entry that covers the status), then every `contains` rule in catalogue order; the first that matches decides."
	}
	for _, f := range m.Families {
		fv := familyView{
			Name: markdown.Text(f.Name), Anchor: FamilyAnchor(m, f), Doc: markdown.Para(f.Doc),
			ReservedNums: joinInts(f.ReservedNums), ReservedCodes: codes(f.ReservedCodes),
		}
		if f.HasPayload() {
			fv.PayloadType = markdown.Code(f.PayloadType)
		}
		if f.UserMessage != nil {
			fv.UserMessage = markdown.Code(f.UserMessage.Text)
		}
		if f.Retry != nil {
			fv.Retry = markdown.Text(f.Retry.String())
		}
		if mp := f.MapsTo; mp != nil {
			fv.MapsTo = "[" + markdown.Text(mp.To.Name) + "](#" + FamilyAnchor(m, mp.To) + ") by " + markdown.Code(mp.Func())
			if mp.Default != nil {
				fv.MapsTo += ", default " + markdown.Code(mp.Default.Code)
			}
		}
		if f.HasNums {
			fv.Nums = strconv.Itoa(f.Nums[0]) + "–" + strconv.Itoa(f.Nums[1])
		}
		for _, vr := range f.Variants {
			vv := variant(m, vr)
			vv.Projections = markdown.Text(strings.Join(vr.ProjectionText(m), "; "))
			fv.Variants = append(fv.Variants, vv)
		}
		v.Families = append(v.Families, fv)
	}
	return v
}

// FamilyAnchor is the id of the section of f, a family of m: its name in
// lower case, and for a family named like an earlier one but for case
// (ToolError, Toolerror), the count of such families, from 2. Codes cannot
// hold a hyphen, so it never collides with a code's anchor.
func FamilyAnchor(m *model.Catalogue, f *model.Family) string {
	a, n := "family-"+strings.ToLower(f.Name), 1
	for _, g := range m.Families {
		if g == f {
			break
		}
		if strings.EqualFold(g.Name, f.Name) {
			n++
		}
	}
	if n > 1 {
		a += "-" + strconv.Itoa(n)
	}
	return a
}

func variant(m *model.Catalogue, v *model.Variant) variantView {
	vv := variantView{
		Code: markdown.Code(v.Code), Anchor: v.Code, Num: strconv.Itoa(v.Num), Name: markdown.Code(v.Name),
		Category: markdown.Code(v.Category.Name), Class: v.ClassRule().String(), Retryable: v.RetryShort(),
		SuppressRetry: yesNo(v.SuppressRetry), Doc: markdown.Para(v.Doc), Message: markdown.Code(v.Message.Text),
		MessageCell: markdown.CodeCell(v.Message.Text),
		HTTPStatus:  markdown.Text(m.HTTPStatusText(v)), ExampleMessage: markdown.Code(oracle.Message(v)),
	}
	opt := func(s string, f func(string) string) string {
		if s == "" {
			return ""
		}
		return f(s)
	}
	// The user message in effect, and where it comes from, as explain
	// prints it.
	if u := v.UserMessage; u.Template != nil {
		vv.UserMessage = markdown.Code(u.Template.Text)
		if from := u.Describe(); from != "" {
			vv.UserMessage += " (" + markdown.Text(from) + ")"
		}
	}
	if v.SuppressionKey != nil {
		vv.SuppressionKey = markdown.Code(v.SuppressionKey.Text)
	}
	for _, sc := range v.Subcodes {
		vv.Subcodes = append(vv.Subcodes, subcodeView{markdown.Code(sc.Code), markdown.Text(sc.Doc)})
	}
	for _, a := range v.Attrs {
		vv.Attributes = append(vv.Attributes, attrView{markdown.Code(a.Attr.Name), markdown.Code(a.Shown())})
	}
	if len(v.InstanceHints) > 0 {
		vv.InstanceHints = markdown.Text(v.HintsText())
	}
	vv.RequiredFields = codes(v.RequiredFields)
	if c := v.MapCase(); c != nil {
		vv.MapsTo = "[" + markdown.Code(c.To.Code) + "](#" + c.To.Code + ")"
	}
	vv.Classify = opt(m.ClassifyText(v), markdown.Text)
	if f := v.HTTPStatusField; f != nil && vv.HTTPStatus != "" {
		vv.HTTPStatus += "; the status matched is kept in field " + markdown.Code(f.Name)
	}
	vv.SuggestedTool = opt(v.SuggestedTool, markdown.Code)
	vv.SuggestedAction = opt(v.SuggestedAction, markdown.Text)
	vv.UsageHint = opt(v.UsageHint, markdown.Text)
	if p := oracle.Payload(v); p != nil {
		vv.ExamplePayload = markdown.Fence(IndentJSON(p), "json")
	}
	for _, f := range v.Fields {
		payload := yesNo(f.Payload)
		if f.Sensitive {
			payload = "never: sensitive, " + markdown.Code(model.Redacted) + " in logs"
		}
		vv.Fields = append(vv.Fields, fieldView{markdown.Code(f.Name), markdown.Code(typeText(f)), payload, markdown.Text(f.Doc)})
	}
	return vv
}

// IndentJSON indents compact JSON by two spaces, ending with a newline.
func IndentJSON(data []byte) string {
	var b bytes.Buffer
	if err := json.Indent(&b, data, "", "  "); err != nil {
		return string(data) + "\n"
	}
	return b.String() + "\n"
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func joinInts(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	return strings.Join(s, ", ")
}

func codes(cs []string) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = markdown.Code(c)
	}
	return strings.Join(s, ", ")
}
