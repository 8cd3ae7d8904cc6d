// Package golang emits the Go package of a resolved catalogue:
//
//   - errgen.go, what the catalogue declares: the typed constants of its
//     classes, codes and categories, one interface per family and one struct
//     per variant with its methods, and the tables the runtime reads;
//   - errgen_runtime.go and errgen_runtime_test.go, the fixed runtime and
//     golden-test harness, copied from the real package in ./runtime with
//     only their first line and package clause changed;
//   - errgen_test.go, one example of every variant for the harness.
//
// Every meaning comes from the model; layout belongs to the printer. The
// per-variant code is deliberately small (a struct, and one-line methods
// that return constants or hand the work to the runtime, which reads the
// fields by reflection), because the compile cost of the generated package
// grows with the code per variant (BENCHMARKS.md).
package golang

import (
	"cmp"
	_ "embed"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/errgen/errgen/gen/golang/printer"
	"github.com/errgen/errgen/gen/model"
)

// The files Emit returns, relative to the output folder.
const (
	CodeFile    = "errgen.go"
	RuntimeFile = "errgen_runtime.go"
	HarnessFile = "errgen_runtime_test.go"
	TestFile    = "errgen_test.go"
)

// Files are the names of every file errgen writes into a package: these
// four, the projections file and the opt-in gRPC file.
var Files = []string{CodeFile, RuntimeFile, HarnessFile, TestFile, ProjectionsFile, GRPCFile}

var (
	//go:embed runtime/runtime.go
	runtimeSource string
	//go:embed runtime/harness_test.go
	harnessSource string
)

// Header returns the generated-file line of the Go files generated from
// catalogue file.
func Header(file string) string { return "// " + model.GeneratedBy(file) }

// Emit returns the Go files of m by file name.
func Emit(m *model.Catalogue) (map[string][]byte, error) {
	header := Header(m.File)
	runtime, err := copyFixed(runtimeSource, header, m.Package)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", RuntimeFile, err)
	}
	harness, err := copyFixed(harnessSource, header, m.Package)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", HarnessFile, err)
	}
	projected, err := projections(m, header)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ProjectionsFile, err)
	}
	return map[string][]byte{
		CodeFile:        code(m, header),
		RuntimeFile:     runtime,
		ProjectionsFile: projected,
		HarnessFile:     harness,
		TestFile:        test(m, header),
	}, nil
}

// fixedPackage is the package clause of the runtime's own files.
const fixedPackage = "\npackage runtime\n"

// copyFixed returns a file of the runtime package as it stands in a
// generated package: its first comment replaced by the generated-file line
// and its package clause by pkg's.
func copyFixed(src, header, pkg string) ([]byte, error) {
	i := strings.Index(src, fixedPackage)
	if i < 0 {
		return nil, fmt.Errorf("the runtime source has no %q", strings.TrimSpace(fixedPackage))
	}
	rest := src[i+len(fixedPackage):]
	out := make([]byte, 0, len(header)+len(pkg)+len(rest)+16)
	out = append(out, header...)
	out = append(out, "\n\npackage "...)
	out = append(out, pkg...)
	out = append(out, '\n')
	return append(out, rest...), nil
}

// code writes errgen.go.
func code(m *model.Catalogue, header string) []byte {
	f := printer.NewFile(header, m.Package)
	f.Grow(estimate(m))
	genPackageName(f, m)
	genClasses(f)
	genCodes(f, m)
	genCategories(f, m)
	genAttributeTypes(f, m)
	for _, fam := range m.Families {
		genFamily(f, fam)
		for _, v := range fam.Variants {
			genVariant(f, v)
		}
	}
	genInfos(f, m)
	genForms(f, m)
	genPayloadShape(f)
	genVariantTypes(f, m)
	genHTTPStatuses(f, m)
	genAttributeTables(f, m)
	genBehaviour(f, m)
	genProjectionTables(f, m)
	genImportedCauses(f, m)
	return f.Bytes()
}

// estimate is about the size of errgen.go, so its buffer grows once.
func estimate(m *model.Catalogue) int {
	n := 4096
	for _, c := range m.Categories {
		n += 48 + 2*len(c.Doc) + 4*len(c.Name)
	}
	for _, v := range m.Variants {
		n += 1500 + 2*len(v.Doc) + 3*len(v.Message.Text) + 200*len(v.Fields)
	}
	return n
}

// genPackageName writes the name the runtime's errors start with:
//
//	const packageName = "agenterr"
func genPackageName(f *printer.File, m *model.Catalogue) {
	f.Doc("packageName starts the errors the package's own functions return.")
	f.Const(printer.Spec{Name: "packageName", Value: printer.Quote(m.Package)})
	f.Doc("defaultUserMessage is the user message of an error no other text is given", "for: the catalogue's user_message, or errgen's neutral sentence.")
	f.Const(printer.Spec{Name: "defaultUserMessage", Value: printer.Quote(m.DefaultUserMessage().Text)})
}

// genClasses writes the classes and their names:
//
//	const (
//		// ClassUnknown is ...
//		ClassUnknown Class = 0
//		...
//	)
//	var classNames = [...]string{ClassUnknown: "unknown", ...}
func genClasses(f *printer.File) {
	var specs []printer.Spec
	var names []printer.KeyValue
	for _, c := range model.Classes {
		specs = append(specs, printer.Spec{Doc: []string{c.GoName() + " " + c.Doc()}, Name: c.GoName(), Type: "Class", Value: strconv.Itoa(int(c))})
		names = append(names, printer.KeyValue{Key: c.GoName(), Value: printer.Quote(c.String())})
	}
	f.Doc("The classes say how a handler should treat an error.")
	f.Consts(specs)
	f.Doc("classNames are the names of the classes, as Class.String returns them.")
	f.KeyedVar("classNames", "[...]string", names)
}

// genCodes writes one typed constant per variant:
//
//	const (
//		CodeToolTimeout Code = "tool_timeout"
//	)
func genCodes(f *printer.File, m *model.Catalogue) {
	specs := make([]printer.Spec, len(m.Variants))
	for i, v := range m.Variants {
		specs[i] = printer.Spec{Name: v.CodeConst(), Type: "Code", Value: printer.Quote(v.Code)}
	}
	f.Doc("The codes of the catalogue's errors, one for each variant.")
	f.Consts(specs)
	var subs []printer.Spec
	for _, v := range m.Variants {
		for _, sc := range v.Subcodes {
			subs = append(subs, printer.Spec{Doc: docLines(sc.GoName+" is a sub-code of "+v.Name+".", sc.Doc), Name: sc.GoName, Type: "Code", Value: printer.Quote(sc.Code)})
		}
	}
	if len(subs) > 0 {
		f.Doc("The sub-codes an instance of a variant may select: its payload carries the", "sub-code as its code, and the variant's num.")
		f.Consts(subs)
	}
}

// genCategories writes one typed constant per category:
//
//	const (
//		// CategoryTimeout: the operation ran past its deadline.
//		CategoryTimeout Category = "timeout"
//	)
func genCategories(f *printer.File, m *model.Catalogue) {
	specs := make([]printer.Spec, len(m.Categories))
	for i, c := range m.Categories {
		specs[i] = printer.Spec{Doc: docLines(c.GoName+": "+lowerFirst(c.Doc), ""), Name: c.GoName, Type: "Category", Value: printer.Quote(c.Name)}
	}
	f.Doc("The categories of the catalogue.")
	f.Consts(specs)
}

// lowerFirst lowers the first letter of a sentence that follows a colon
// when its first word is an ordinary one, a capital then lower-case letters
// ("The", "A") ending at a space or punctuation; not a name or an
// initialism ("API", "OpenAI", "GitHub", "I/O").
func lowerFirst(s string) string {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return s
	}
	n := 1
	for n < len(s) && 'a' <= s[n] && s[n] <= 'z' {
		n++
	}
	if n < len(s) && strings.IndexByte(" ,;:.!?)", s[n]) < 0 {
		return s // more of the word: a capital, a digit, a slash
	}
	return string(s[0]+'a'-'A') + s[1:]
}

// docLines is a doc comment: a first sentence, then the catalogue's doc as
// paragraphs of its own, one line a line.
func docLines(first, doc string) []string {
	lines := []string{first}
	if strings.TrimSpace(doc) != "" {
		lines = append(lines, "")
		lines = append(lines, strings.Split(strings.TrimRight(doc, "\n"), "\n")...)
	}
	return lines
}

// genFamily writes a family's interface and its chain helper, with the
// function through which the helper asks the runtime's walk (findAs) about
// one error:
//
//	type ToolError interface {
//		Error
//		SuppressRetry() bool
//		...
//		isToolError()
//	}
//	func AsToolError(err error) (ToolError, bool) {
//		e, ok := findAs(err, asToolError)
//		t, _ := e.(ToolError)
//		return t, ok
//	}
//	func asToolError(err error, ask bool) (error, bool) { ... }
func genFamily(f *printer.File, fam *model.Family) {
	f.Doc(docLines(fam.Name+" is implemented by the errors of the "+fam.Name+" family; no type outside this package implements it.", fam.Doc)...)
	members := []printer.Member{
		{Text: "Error"},
		{Doc: []string{"SuppressRetry reports whether the model should stop retrying the same call."}, Text: "SuppressRetry() bool"},
		{Doc: []string{"SuppressionKey returns the key that groups repeats of this error, or \"\"."}, Text: "SuppressionKey() string"},
	}
	if fam.HasPayload() {
		members = append(members,
			printer.Member{Doc: []string{"LLMPayload returns the JSON payload the model reads."}, Text: "LLMPayload() *Payload"},
			printer.Member{Doc: []string{"AppendLLMPayload appends the payload's JSON to dst."}, Text: "AppendLLMPayload(dst []byte) []byte"})
	}
	members = append(members, printer.Member{Text: fam.Sealer() + "()"})
	f.Interface(fam.Name, members)

	b := f.Func([]string{fam.AsHelper() + " returns the first " + fam.Name + " in err's chain, as errors.As finds it."},
		"func "+fam.AsHelper()+"(err error) ("+fam.Name+", bool)")
	b.Line("e, ok := findAs(err, " + fam.AsFunc() + ")")
	b.Line("t, _ := e.(" + fam.Name + ")")
	b.Line("return t, ok")
	b.End()

	b = f.Func([]string{fam.AsFunc() + " returns err as a " + fam.Name + ", or, with ask set, what err's As method", "makes of one."},
		"func "+fam.AsFunc()+"(err error, ask bool) (error, bool)")
	b.Open("if !ask")
	b.Line("t, ok := err.(" + fam.Name + ")")
	b.Line("return t, ok")
	b.Close()
	b.Line("var t " + fam.Name)
	b.Line("ok := err.(interface{ As(any) bool }).As(&t)")
	b.Line("return t, ok")
	b.End()
}

// genVariant writes a variant's struct and its methods:
//
//	type ToolTimeout struct {
//		// The tool that timed out. Sent in the LLM payload.
//		Tool    string
//		Seconds uint64
//	}
//	func (*ToolTimeout) Code() Code { return CodeToolTimeout }
//	...
//	func (e *ToolTimeout) Error() string { return messageText(e) }
//	func (e *ToolTimeout) field(i int) any { ... }
func genVariant(f *printer.File, v *model.Variant) {
	first := fmt.Sprintf("%s is the error %s (%d) of the %s family, in category %s.", v.Name, v.Code, v.Num, v.Family.Name, v.Category.Name)
	f.Doc(docLines(first, v.Doc)...)
	fields := make([]printer.Field, len(v.Fields))
	for i, fd := range v.Fields {
		fields[i] = printer.Field{Doc: fieldDoc(v, fd), Name: fd.GoName, Type: goType(f, fd.Type)}
	}
	for _, inf := range v.InstanceFields() {
		fields = append(fields, printer.Field{Doc: inf.Doc, Name: inf.Name, Type: inf.GoType})
	}
	f.Struct(v.Name, fields)

	rule := v.ClassRule()
	r := "func (*" + v.Name + ") "
	re := "func (e *" + v.Name + ") "
	idx := strconv.Itoa(v.Index)
	// Room for the methods of nearly every variant, in one allocation.
	methods := make([]printer.Func, 1, 16)
	methods[0] = printer.Func{Header: r + v.Family.Sealer() + "()"}
	if !v.InstanceCode() {
		methods = append(methods, printer.Func{Header: r + "Code() Code", Body: "return " + v.CodeConst()})
	}
	methods = append(methods,
		printer.Func{Header: r + "CodeNum() int", Body: "return " + strconv.Itoa(v.Num)},
		printer.Func{Header: r + "Category() Category", Body: "return " + v.Category.GoName},
		printer.Func{Header: r + "SuppressRetry() bool", Body: "return " + strconv.FormatBool(v.SuppressRetry)})
	switch {
	case rule.Configurable:
		methods = append(methods,
			printer.Func{Doc: []string{"Retryable reports whether Class returns " + model.Retryable.GoName() + "."}, Header: r + "Retryable() bool",
				Body: "return policyClass(" + idx + ") == " + model.Retryable.GoName()},
			printer.Func{Doc: []string{rule.PolicyDoc()}, Header: r + "Class() Class", Body: "return policyClass(" + idx + ")"})
	case !rule.FromCause:
		methods = append(methods,
			printer.Func{Header: r + "Retryable() bool", Body: "return " + strconv.FormatBool(v.Retry.Retryable)},
			printer.Func{Header: r + "Class() Class", Body: "return " + rule.Static.GoName()})
	}
	if v.HasHint(model.HintSuppressionKey) {
		methods = append(methods, printer.Func{Doc: []string{"SuppressionKey returns SuppressionKeyOverride when set, else " + templateDoc(v, v.SuppressionKey) + "."},
			Header: re + "SuppressionKey() string", Body: "return keyText(e)"})
	} else {
		methods = append(methods, text(v, "SuppressionKey", v.SuppressionKey, "keyText", "")...)
	}
	methods = append(methods, printer.Func{Header: re + "Error() string", Body: "return messageText(e)"})
	methods = append(methods, userMessage(v)...)
	if v.Family.HasPayload() {
		methods = append(methods,
			printer.Func{Header: re + "LLMPayload() *Payload", Body: "return newPayload(e)"},
			printer.Func{Header: re + "AppendLLMPayload(dst []byte) []byte", Body: "return appendPayload(dst, e)"})
	}
	methods = append(methods, printer.Func{Header: re + "LogValue() slog.Value", Body: "return logValue(e)"})
	if v.HasSensitive() {
		// On the value, so that a struct value (not only a pointer) hides
		// its sensitive fields from encoding/json and fmt too.
		rv := "func (e " + v.Name + ") "
		methods = append(methods,
			printer.Func{Doc: []string{"MarshalJSON returns the wire form, without the sensitive fields, of the error or of a value of it."},
				Header: rv + "MarshalJSON() ([]byte, error)", Body: "return marshalWire(&e)"},
			printer.Func{Doc: []string{"Format prints the error for fmt, every verb, with its sensitive fields as " + printer.Quote(model.Redacted) + "."},
				Header: rv + "Format(s " + f.Import("fmt") + ".State, verb rune)", Body: "format(&e, s, verb)"})
	} else {
		methods = append(methods, printer.Func{Header: re + "MarshalJSON() ([]byte, error)", Body: "return marshalWire(e)"})
	}
	methods = append(methods, isMethod(v, idx))
	f.Import("log/slog")
	if rule.FromCause {
		doc := v.Retry.GoDoc()
		if rule.ImportedCause {
			doc = v.Retry.ImportedGoDoc()
		}
		body := "return " + retryableFunc(v) + "(e, " + strconv.FormatBool(v.Retry.Retryable) + ")"
		if rf := v.RetryableField; rule.Field != "" && rf != nil {
			// Nil is an error of no instance: not retryable, as Info says.
			doc, body = v.Retry.FieldGoDoc(rf.GoName), "return e != nil && e."+rf.GoName
		}
		methods = append(methods,
			printer.Func{Doc: []string{doc}, Header: re + "Retryable() bool", Body: body},
			printer.Func{Doc: []string{rule.GoDoc()}, Header: re + "Class() Class",
				Body: "return classOf(e.Retryable(), " + rule.Otherwise.GoName() + ")"})
	}
	f.Funcs(methods)
	if v.InstanceCode() {
		genSubcodeCode(f, v)
	}
	if v.Cause != nil {
		genUnwrap(f, v)
	}
}

// retryableFunc is the runtime function that answers Retryable of a
// variant whose cause decides: one for a cause of this catalogue's
// families, one for a family of another catalogue's package.
func retryableFunc(v *model.Variant) string {
	if v.Cause != nil && v.Cause.Type.Import != "" {
		return "retryableOfImported"
	}
	return "retryableOf"
}

// genSubcodeCode writes Code of a variant with sub-codes, which reads its
// Subcode field directly (reflection would cost ten times as much on a
// method callers use to classify):
//
//	func (e *CapabilityDenied) Code() Code {
//		if e == nil {
//			return CodeCapabilityDenied
//		}
//		return subcodeOf(e.Subcode, 1)
//	}
func genSubcodeCode(f *printer.File, v *model.Variant) {
	b := f.Func([]string{"Code returns the sub-code the instance selects, else " + v.CodeConst() + "."}, "func (e *"+v.Name+") Code() Code")
	b.Open("if e == nil")
	b.Line("return " + v.CodeConst())
	b.Close()
	b.Line("return subcodeOf(e." + model.SubcodeField + ", " + strconv.Itoa(v.Index) + ")")
	b.End()
}

// isMethod is Is of v: a match of the code, or, for a variant with
// sub-codes, of the variant's code or the instance's.
func isMethod(v *model.Variant, idx string) printer.Func {
	if v.InstanceCode() {
		return printer.Func{Doc: []string{"Is reports whether target has the variant's code, or the same sub-code as e."},
			Header: "func (e *" + v.Name + ") Is(target error) bool", Body: "return isInstance(target, e)"}
	}
	return printer.Func{Header: "func (*" + v.Name + ") Is(target error) bool", Body: "return isCode(target, " + idx + ")"}
}

// templateDoc names a template in a doc comment: its text quoted, or
// "\"\"" when there is none.
func templateDoc(v *model.Variant, t *model.Template) string {
	switch {
	case t == nil:
		return printer.Quote("")
	case v.Constant(t):
		return printer.Quote(t.Literal(v.Code))
	}
	return "the rendering of " + printer.Quote(t.Text)
}

// fieldDoc is a field's comment: the catalogue's doc, then what the field
// is to the runtime when that is worth saying. A field with neither has no
// comment.
func fieldDoc(v *model.Variant, fd *model.Field) []string {
	var notes []string
	switch {
	case fd.Type.IsCause():
		notes = append(notes, "The cause, which Unwrap returns.")
	case fd.Payload:
		notes = append(notes, "Sent in the LLM payload.")
	case fd.Sensitive:
		notes = append(notes, "Sensitive: never sent, and "+model.Redacted+" in logs and fmt's output.")
	}
	if fd.RetryAfter {
		notes = append(notes, "RetryAfterOf reports it.")
	}
	if fd.Retryable && v.RetryableField == fd {
		notes = append(notes, "Retryable returns it, and Class follows.")
	}
	// Without an http_status list (a warning), neither sets it.
	if fd.HTTPStatus && len(v.HTTP) > 0 {
		if v.ClassifyByStatus {
			notes = append(notes, "FromHTTP, and Classify when it matches an HTTP status, set it to that status.")
		} else {
			notes = append(notes, "FromHTTP sets it to the HTTP status.")
		}
	}
	doc := strings.TrimSpace(fd.Doc)
	if doc == "" && len(notes) == 0 {
		return nil
	}
	lines := strings.Split(doc, "\n")
	if doc == "" {
		lines = nil
	}
	if len(notes) > 0 {
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, strings.Join(notes, " "))
	}
	return lines
}

// text returns the method that renders a template of v: a constant when
// the template uses no field, a call of the runtime's function render
// otherwise, and def when there is no template.
func text(v *model.Variant, name string, t *model.Template, render, def string) []printer.Func {
	switch {
	case t == nil:
		return []printer.Func{{Header: "func (*" + v.Name + ") " + name + "() string", Body: "return " + printer.Quote(def)}}
	case v.Constant(t):
		return []printer.Func{{Doc: []string{name + " returns " + printer.Quote(t.Literal(v.Code)) + "."},
			Header: "func (*" + v.Name + ") " + name + "() string", Body: "return " + printer.Quote(t.Literal(v.Code))}}
	}
	return []printer.Func{{Doc: []string{name + " renders " + printer.Quote(t.Text) + "."},
		Header: "func (e *" + v.Name + ") " + name + "() string", Body: "return " + render + "(e)"}}
}

// userMessage returns UserMessage of v, as the model's user-message rule
// decides it: a constant, a rendered template, or, when the cause may
// answer first, a call into the runtime.
func userMessage(v *model.Variant) []printer.Func {
	u := v.UserMessage
	if u.CauseFirst {
		// The fallback names the instance's code when a sub-code may
		// stand for it.
		fallback := "else " + printer.Quote(u.Template.Literal(v.Code)) + "."
		if !v.Constant(u.Template) {
			fallback = "else it renders " + printer.Quote(u.Template.Text) + "."
		}
		whose := []string{"UserMessage returns the user message of the cause when it is an error of", "the catalogue, " + fallback}
		if v.Cause.Type.Import != "" {
			whose = []string{"UserMessage returns the user message of the cause, an error of another", "catalogue, when it has one, " + fallback}
		}
		return []printer.Func{{Doc: whose,
			Header: "func (e *" + v.Name + ") UserMessage() string", Body: "return userMessageOf(e)"}}
	}
	return text(v, "UserMessage", u.Template, "userText", "")
}

// genUnwrap writes Unwrap of a variant with a cause; a nil receiver has no
// cause:
//
//	func (e *ModelCallFailed) Unwrap() error {
//		if e == nil {
//			return nil
//		}
//		return e.Cause
//	}
//
// A nil interface in the field converts to a nil error by itself.
func genUnwrap(f *printer.File, v *model.Variant) {
	b := f.Func([]string{"Unwrap returns the cause, " + v.Cause.GoName + "."}, "func (e *"+v.Name+") Unwrap() error")
	b.Open("if e == nil")
	b.Line("return nil")
	b.Close()
	b.Line("return e." + v.Cause.GoName)
	b.End()
}

// goType is the Go type of a field.
func goType(f *printer.File, t model.Type) string {
	switch t.Kind {
	case model.String:
		return "string"
	case model.Bool:
		return "bool"
	case model.Int:
		return "int"
	case model.Int64:
		return "int64"
	case model.Uint64:
		return "uint64"
	case model.Float64:
		return "float64"
	case model.Duration:
		return f.Import("time") + ".Duration"
	case model.Strings:
		return "[]string"
	case model.Error:
		return "error"
	}
	if t.Import != "" {
		return f.ImportAs(t.Import, t.ImportName()) + "." + t.Family.Name
	}
	return t.Family.Name
}

// genInfos writes the public description of every variant, in number
// order, one line each:
//
//	var infos = [...]Info{
//		{Name: "ToolTimeout", Family: "ToolError", Code: CodeToolTimeout, Num: 1004, ...},
//	}
func genInfos(f *printer.File, m *model.Catalogue) {
	elems := make([]string, len(m.ByNum))
	var b strings.Builder
	for i, v := range m.ByNum {
		b.Reset()
		b.WriteString("{Name: " + printer.Quote(v.Name) + ", Family: " + printer.Quote(v.Family.Name) +
			", Code: " + v.CodeConst() + ", Num: " + strconv.Itoa(v.Num) +
			", Category: " + v.Category.GoName + ", Class: " + v.ClassRule().Static.GoName())
		for _, flag := range []struct {
			name string
			val  bool
		}{{"Retryable", v.Retry.Retryable}, {"RetryableFromCause", v.Retry.FromCause}, {"SuppressRetry", v.SuppressRetry}, {"Configurable", v.Configurable}} {
			if flag.val {
				b.WriteString(", " + flag.name + ": true")
			}
		}
		for _, s := range []struct{ name, val string }{
			{"PayloadType", v.Family.PayloadType}, {"SuggestedTool", v.SuggestedTool},
			{"SuggestedAction", v.SuggestedAction}, {"UsageHint", v.UsageHint},
			{"Message", v.Message.Text}, {"Doc", v.Doc},
		} {
			if s.val != "" {
				b.WriteString(", " + s.name + ": " + printer.Quote(s.val))
			}
		}
		if len(v.RequiredFields) > 0 {
			b.WriteString(", RequiredFields: []string{" + quoteAll(v.RequiredFields) + "}")
		}
		if len(v.Subcodes) > 0 {
			subs := make([]string, len(v.Subcodes))
			for k, sc := range v.Subcodes {
				subs[k] = sc.GoName
			}
			b.WriteString(", Subcodes: []Code{" + strings.Join(subs, ", ") + "}")
		}
		b.WriteString("}")
		elems[i] = b.String()
	}
	f.Doc("infos describes every variant, sorted by Num.")
	f.Var("infos", "[...]Info", elems)
}

// genForms writes what the runtime renders each variant's texts and
// payload from, in the order of infos, its templates as the catalogue
// writes them, and its sub-codes and required fields again, apart from
// the Info a lookup shares with its caller:
//
//	var forms = [...]form{
//		{key: "{tool}:{code}", fields: []field{{name: "tool", payload: true}, {name: "reason"}}},
//	}
func genForms(f *printer.File, m *model.Catalogue) {
	elems := make([]string, len(m.ByNum))
	var b strings.Builder
	for i, v := range m.ByNum {
		b.Reset()
		var parts []string
		if v.SuppressionKey != nil {
			parts = append(parts, "key: "+printer.Quote(v.SuppressionKey.Text))
		}
		parts = append(parts, "user: "+printer.Quote(v.UserMessage.Template.Text))
		if v.UserMessage.CauseFirst {
			parts = append(parts, "userCause: true")
		}
		if len(v.Subcodes) > 0 {
			subs := make([]string, len(v.Subcodes))
			for k, sc := range v.Subcodes {
				subs[k] = sc.GoName
			}
			parts = append(parts, "subcodes: []Code{"+strings.Join(subs, ", ")+"}")
		}
		if len(v.RequiredFields) > 0 {
			parts = append(parts, "required: []string{"+quoteAll(v.RequiredFields)+"}")
		}
		for _, inf := range v.InstanceFields() {
			name := "subcodeField"
			if !inf.Subcode {
				name = [...]string{model.HintSuggestedTool: "toolField", model.HintSuggestedAction: "actionField", model.HintSuppressionKey: "keyField"}[inf.Hint]
			}
			parts = append(parts, name+": "+strconv.Itoa(inf.Index+1))
		}
		if len(v.Fields) > 0 {
			fs := make([]string, len(v.Fields))
			for k, fd := range v.Fields {
				item := "{name: " + printer.Quote(fd.Name)
				if fd.Payload && v.Family.HasPayload() {
					item += ", payload: true"
				}
				if fd.Type.IsCause() {
					item += ", cause: true"
				}
				if fd.Type.Import != "" {
					item += ", imported: true"
				}
				if fd.RetryAfter {
					item += ", retryAfter: true"
				}
				if fd.HTTPStatus {
					item += ", httpStatus: true"
				}
				if fd.Retryable && v.RetryableField == fd {
					item += ", retryable: true"
				}
				if fd.Sensitive {
					item += ", sensitive: true"
				}
				if fd.Type.Kind == model.Duration {
					item += ", unit: " + unitLit(f, fd.Unit)
				}
				fs[k] = item + "}"
			}
			parts = append(parts, "fields: []field{"+strings.Join(fs, ", ")+"}")
		}
		b.WriteString("{" + strings.Join(parts, ", ") + "}")
		elems[i] = b.String()
	}
	f.Doc("forms holds what the runtime renders each variant's texts and payload from,", "in the order of infos.")
	f.Var("forms", "[...]form", elems)
}

// quoteAll quotes each string and joins them with commas.
func quoteAll(list []string) string {
	q := make([]string, len(list))
	for i, s := range list {
		q[i] = printer.Quote(s)
	}
	return strings.Join(q, ", ")
}

// unitLit is a duration unit as a Go expression: time.Millisecond.
func unitLit(f *printer.File, u model.Unit) string {
	names := map[string]string{"ms": "Millisecond", "s": "Second", "ns": "Nanosecond"}
	return f.Import("time") + "." + names[u.Name]
}

// keyKinds names the runtime's constant for each kind of payload key.
var keyKinds = map[model.KeyKind]string{
	model.KeyType: "keyType", model.KeyCategory: "keyCategory", model.KeyCode: "keyCode",
	model.KeyCodeNum: "keyCodeNum", model.KeyError: "keyError", model.KeyRetryable: "keyRetryable",
	model.KeySuppressRetry: "keySuppressRetry", model.KeySuppressionKey: "keySuppressionKey",
	model.KeyFields: "keyFields", model.KeySuggestedTool: "keySuggestedTool",
	model.KeySuggestedAction: "keySuggestedAction", model.KeyRequiredFields: "keyRequiredFields",
	model.KeyUsageHint: "keyUsageHint",
}

// genPayloadShape writes the payload's keys in order, as the model decides
// them:
//
//	var payloadShape = [...]payloadKey{{name: "type", kind: keyType}, ...}
func genPayloadShape(f *printer.File) {
	var elems []string
	for _, k := range model.PayloadShape {
		e := "{name: " + printer.Quote(k.Name) + ", kind: " + keyKinds[k.Kind]
		if k.Omit {
			e += ", omit: true"
		}
		elems = append(elems, e+"}")
	}
	f.Doc("payloadShape is the order of the payload's keys; those marked omit are left", "out when empty.")
	f.Var("payloadShape", "[...]payloadKey", elems)
}

// genVariantTypes writes a nil pointer to each variant's type, in the order
// of infos, from which DecodePayload makes a new variant of a payload's
// code: a table is data, where a switch that made each type would be code
// to compile for every variant.
func genVariantTypes(f *printer.File, m *model.Catalogue) {
	elems := make([]string, len(m.ByNum))
	for i, v := range m.ByNum {
		elems[i] = "(*" + v.Name + ")(nil)"
	}
	f.Doc("variantTypes holds a nil pointer to each variant's type, in the order of", "infos.")
	f.Var("variantTypes", "[...]any", elems)
}

// genHTTPStatuses writes the HTTP statuses the variants stand for, most
// specific first (a status before a range, a narrow range before a wide
// one), so that the runtime's lookup takes the first that covers a status:
//
//	var httpStatuses = [...]statusRange{
//		{lo: 429, hi: 429, index: 7}, // rate_limited
//		{lo: 500, hi: 599, index: 8}, // server_error
//	}
func genHTTPStatuses(f *printer.File, m *model.Catalogue) {
	f.Doc("httpStatuses maps HTTP statuses to the entries of infos that stand for them,", "most specific first.")
	f.Var("httpStatuses", "[...]statusRange", statusElems(m.ByNum))
}

// statusElems are the statusRange elements of the http_status of vs, most
// specific first.
func statusElems(vs []*model.Variant) []string {
	type entry struct {
		s model.StatusRange
		v *model.Variant
	}
	var all []entry
	for _, v := range vs {
		for _, s := range v.HTTP {
			all = append(all, entry{s, v})
		}
	}
	slices.SortStableFunc(all, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.s.Span(), b.s.Span()), cmp.Compare(a.s.Lo, b.s.Lo))
	})
	elems := make([]string, len(all))
	for i, e := range all {
		elems[i] = "{lo: " + strconv.Itoa(e.s.Lo) + ", hi: " + strconv.Itoa(e.s.Hi) + ", index: " + strconv.Itoa(e.v.Index) + "}"
	}
	return elems
}

// exampleValue is the Go expression of a field's example value.
func exampleValue(f *printer.File, fd *model.Field) string {
	x := fd.Example
	switch fd.Type.Kind {
	case model.String:
		return printer.Quote(x.Str)
	case model.Bool:
		return strconv.FormatBool(x.Bool)
	case model.Int, model.Int64:
		return strconv.FormatInt(x.Int, 10)
	case model.Uint64:
		return strconv.FormatUint(x.Uint, 10)
	case model.Float64:
		return strconv.FormatFloat(x.Float, 'g', -1, 64)
	case model.Duration:
		return durationLit(f, x.Duration)
	case model.Strings:
		items := make([]string, len(x.List))
		for i, s := range x.List {
			items[i] = printer.Quote(s)
		}
		return "[]string{" + strings.Join(items, ", ") + "}"
	case model.Error:
		return f.Import("errors") + ".New(" + printer.Quote(x.Str) + ")"
	}
	if x.Variant == nil {
		return "nil"
	}
	return exampleLit(f, x.Variant)
}

// durationLit is a duration as a Go expression in its largest whole unit.
func durationLit(f *printer.File, d time.Duration) string {
	t := f.Import("time")
	for _, u := range []struct {
		unit time.Duration
		name string
	}{{time.Hour, "Hour"}, {time.Minute, "Minute"}, {time.Second, "Second"}, {time.Millisecond, "Millisecond"}} {
		if d != 0 && d%u.unit == 0 {
			return strconv.FormatInt(int64(d/u.unit), 10) + " * " + t + "." + u.name
		}
	}
	return t + ".Duration(" + strconv.FormatInt(int64(d), 10) + ")"
}

// exampleLit is the composite literal of a variant's example value.
func exampleLit(f *printer.File, v *model.Variant) string {
	vals := make([]string, len(v.Fields))
	for i, fd := range v.Fields {
		vals[i] = fd.GoName + ": " + exampleValue(f, fd)
	}
	for _, inf := range v.InstanceFields() {
		if inf.Subcode {
			vals = append(vals, inf.Name+": "+v.Subcodes[0].GoName)
		} else {
			vals = append(vals, inf.Name+": "+printer.Quote(v.ExampleHint(inf.Hint)))
		}
	}
	return "&" + v.Name + "{" + strings.Join(vals, ", ") + "}"
}

// test writes errgen_test.go: one example of every variant, built from the
// catalogue's example values or errgen's placeholders, for the harness of
// errgen_runtime_test.go, and the assertion that every variant implements
// its family's interface (in the test, which only go test and go vet
// compile, because each assertion costs the compiler an itab).
func test(m *model.Catalogue, header string) []byte {
	f := printer.NewFile(header, m.Package)
	examples := make([]string, len(m.Variants))
	for i, v := range m.Variants {
		examples[i] = exampleLit(f, v)
	}
	f.Doc("errgenExampleList holds one example of every variant, built from the", "catalogue's example values or errgen's placeholders.")
	f.Var("errgenExampleList", "[]variant", examples)
	f.Funcs([]printer.Func{{
		Doc:    []string{"errgenExamples returns the examples the tests of errgen_runtime_test.go check."},
		Header: "func errgenExamples() []variant",
		Body:   "return errgenExampleList",
	}})
	genGoldenProjections(f, m)
	elems := make([]string, len(m.Variants))
	for i, v := range m.Variants {
		elems[i] = v.Family.Name + "((*" + v.Name + ")(nil))"
	}
	f.Doc("Every variant implements its family's interface.")
	f.Var("_", "[]any", elems)
	return f.Bytes()
}

// genAttributeTypes writes the type and the constants of every enum
// attribute:
//
//	// TurnHandling is how a turn handles the failure.
//	type TurnHandling string
//
//	const (
//		TurnHandlingPropagate TurnHandling = "propagate"
//	)
func genAttributeTypes(f *printer.File, m *model.Catalogue) {
	for _, a := range m.Attributes {
		if a.Type != model.AttrEnum {
			continue
		}
		f.Doc(docLines(a.GoName+" is the type of the catalogue's attribute "+a.Name+"; "+a.Lookup()+" returns it.", a.Doc)...)
		f.Type(a.GoName, "string")
		specs := make([]printer.Spec, len(a.Values))
		for i, val := range a.Values {
			specs[i] = printer.Spec{Name: a.ValueConst(val), Type: a.GoName, Value: printer.Quote(val)}
		}
		f.Doc("The values of " + a.GoName + ".")
		f.Consts(specs)
	}
}

// genAttributeTables writes, for every attribute, its value for each
// variant in the order of infos, and its lookup:
//
//	var attrTurnHandling = [...]TurnHandling{TurnHandlingPropagate, ...}
//
//	func TurnHandlingOf(err error) (TurnHandling, bool) { ... }
func genAttributeTables(f *printer.File, m *model.Catalogue) {
	for _, a := range m.Attributes {
		elems := make([]string, len(m.ByNum))
		for i, v := range m.ByNum {
			s, _ := v.Attr(a.Name)
			elems[i] = attrLit(a, s.Value)
		}
		f.Doc(a.Table() + " holds the attribute " + a.Name + " of every variant, in the order of infos.")
		f.Var(a.Table(), "[...]"+a.GoType(), elems)
		doc := []string{a.Lookup() + " returns the attribute " + a.Name + " of the outermost error of the", "catalogue in err's chain; false when there is none."}
		if a.Doc != "" {
			doc = append(doc, "")
			doc = append(doc, strings.Split(strings.TrimRight(a.Doc, "\n"), "\n")...)
		}
		b := f.Func(doc, "func "+a.Lookup()+"(err error) ("+a.GoType()+", bool)")
		b.Open("if i, ok := indexOf(err); ok")
		b.Line("return " + a.Table() + "[i], true")
		b.Close()
		b.Line("return " + attrLit(a, model.AttrValue{}) + ", false")
		b.End()
	}
}

// attrLit is a value of attribute a as a Go expression: an enum's
// constant, or a literal; the zero value of an enum is "".
func attrLit(a *model.Attribute, v model.AttrValue) string {
	switch a.Type {
	case model.AttrEnum:
		if v.Str == "" {
			return `""`
		}
		return a.ValueConst(v.Str)
	case model.AttrBool:
		return strconv.FormatBool(v.Bool)
	case model.AttrInt:
		return strconv.FormatInt(v.Int, 10)
	}
	return printer.Quote(v.Str)
}
