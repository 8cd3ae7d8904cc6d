package golang

import (
	"github.com/dave/jennifer/jen"
)

// test emits the golden test the user's package runs. Its example values
// come from the catalogue; errgen writes the golden files it compares with
// when they are missing, and `go test -update` rewrites them.
func (e *emitter) test() *jen.File {
	f := jen.NewFile(e.m.Package)
	f.HeaderComment(e.header)

	// The -update flag may already be defined by the package's own tests;
	// share it rather than panic on a second definition.
	f.Func().Id("init").Params().Block(
		jen.If(jen.Qual("flag", "Lookup").Call(jen.Lit("update")).Op("==").Nil()).Block(
			jen.Qual("flag", "Bool").Call(jen.Lit("update"), jen.False(), jen.Lit("rewrite golden files")),
		),
	)
	f.Line()

	var examples []jen.Code
	for _, v := range e.m.Variants {
		examples = append(examples, exampleLit(v))
	}
	f.Comment("// errgenExamples returns one example of every variant, built from the")
	f.Comment("// catalogue's example values or errgen's placeholders.")
	f.Func().Id("errgenExamples").Params().Index().Id("variant").Block(
		jen.Return(jen.Index().Id("variant").Custom(multiValues, examples...)),
	)
	f.Line()
	for _, c := range testBody {
		f.Add(c)
	}
	return f
}

// testBody is the fixed part of the generated test. It is Go that does not
// depend on the catalogue, kept here as jennifer so the whole file is
// formatted and its imports managed in one place.
var testBody = []jen.Code{
	jen.Comment("// TestErrgenGolden checks every example's code, number, message and payload"),
	jen.Comment("// against testdata/<code>.golden.json."),
	jen.Func().Id("TestErrgenGolden").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Id("update").Op(":=").Qual("flag", "Lookup").Call(jen.Lit("update")).Dot("Value").Dot("String").Call().Op("==").Lit("true"),
		jen.For(jen.List(jen.Id("_"), jen.Id("e")).Op(":=").Range().Id("errgenExamples").Call()).Block(
			jen.Id("t").Dot("Run").Call(jen.Id("e").Dot("Code").Call(), jen.Func().Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
				jen.Id("got").Op(":=").Id("errgenGolden").Call(jen.Id("t"), jen.Id("e")),
				jen.Id("path").Op(":=").Qual("path/filepath", "Join").Call(jen.Lit("testdata"), jen.Id("e").Dot("Code").Call().Op("+").Lit(".golden.json")),
				jen.If(jen.Id("update")).Block(
					jen.If(jen.Err().Op(":=").Qual("os", "MkdirAll").Call(jen.Lit("testdata"), jen.Id("0o755")), jen.Err().Op("!=").Nil()).Block(
						jen.Id("t").Dot("Fatal").Call(jen.Err())),
					jen.If(jen.Err().Op(":=").Qual("os", "WriteFile").Call(jen.Id("path"), jen.Id("got"), jen.Id("0o644")), jen.Err().Op("!=").Nil()).Block(
						jen.Id("t").Dot("Fatal").Call(jen.Err())),
					jen.Return(),
				),
				jen.List(jen.Id("want"), jen.Err()).Op(":=").Qual("os", "ReadFile").Call(jen.Id("path")),
				jen.If(jen.Err().Op("!=").Nil()).Block(
					jen.Id("t").Dot("Fatalf").Call(jen.Lit("%v (run go generate to create it, or go test -update)"), jen.Err())),
				jen.If(jen.Op("!").Qual("bytes", "Equal").Call(jen.Id("got"), jen.Id("want"))).Block(
					jen.Id("t").Dot("Errorf").Call(jen.Lit("%s is stale; if the change is intended, run go test -update and review the diff\n--- want\n%s\n+++ got\n%s"), jen.Id("path"), jen.Id("want"), jen.Id("got"))),
			)),
		),
	),
	jen.Line(),
	jen.Comment("// errgenGolden returns the golden file contents for e, after checking that"),
	jen.Comment("// both payload encoders agree and that the payload decodes back to e's code."),
	jen.Func().Id("errgenGolden").Params(jen.Id("t").Op("*").Qual("testing", "T"), jen.Id("e").Id("variant")).Index().Byte().Block(
		jen.Id("t").Dot("Helper").Call(),
		jen.Id("g").Op(":=").Struct(
			jen.Id("Code").String().Tag(map[string]string{"json": "code"}),
			jen.Id("CodeNum").Int().Tag(map[string]string{"json": "code_num"}),
			jen.Id("Error").String().Tag(map[string]string{"json": "error"}),
			jen.Id("Payload").Qual("encoding/json", "RawMessage").Tag(map[string]string{"json": "payload,omitempty"}),
		).Values(jen.Id("Code").Op(":").Id("e").Dot("Code").Call(), jen.Id("CodeNum").Op(":").Id("e").Dot("CodeNum").Call(), jen.Id("Error").Op(":").Id("e").Dot("Error").Call()),
		jen.If(jen.List(jen.Id("p"), jen.Id("ok")).Op(":=").Id("e").Assert(jen.Interface(
			jen.Id("LLMPayload").Params().Op("*").Id("Payload"),
			jen.Id("AppendLLMPayload").Params(jen.Index().Byte()).Index().Byte(),
		)), jen.Id("ok")).Block(
			jen.Id("fast").Op(":=").Id("p").Dot("AppendLLMPayload").Call(jen.Nil()),
			jen.List(jen.Id("slow"), jen.Err()).Op(":=").Qual("encoding/json", "Marshal").Call(jen.Id("p").Dot("LLMPayload").Call()),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Id("t").Dot("Fatal").Call(jen.Err())),
			jen.If(jen.Op("!").Qual("bytes", "Equal").Call(jen.Id("fast"), jen.Id("slow"))).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("AppendLLMPayload and LLMPayload disagree:\n%s\n%s"), jen.Id("fast"), jen.Id("slow"))),
			jen.List(jen.Id("r"), jen.Err()).Op(":=").Id("DecodePayload").Call(jen.Id("fast")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Id("t").Dot("Fatalf").Call(jen.Lit("DecodePayload: %v"), jen.Err())),
			jen.If(jen.Id("CodeOf").Call(jen.Id("r")).Op("!=").Id("e").Dot("Code").Call().Op("||").Id("IsRetryable").Call(jen.Id("r")).Op("!=").Id("e").Dot("Retryable").Call()).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("decoded payload: CodeOf = %q, IsRetryable = %v"), jen.Id("CodeOf").Call(jen.Id("r")), jen.Id("IsRetryable").Call(jen.Id("r")))),
			jen.If(jen.Qual("reflect", "TypeOf").Call(jen.Id("r").Dot("Unwrap").Call()).Op("!=").Qual("reflect", "TypeOf").Call(jen.Id("e"))).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("decoded payload unwraps to %T, want %T"), jen.Id("r").Dot("Unwrap").Call(), jen.Id("e"))),
			jen.If(jen.Id("again").Op(":=").Id("r").Dot("Payload").Dot("AppendJSON").Call(jen.Nil()), jen.Op("!").Qual("bytes", "Equal").Call(jen.Id("again"), jen.Id("fast"))).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("decoded payload re-encodes differently:\n%s\n%s"), jen.Id("again"), jen.Id("fast"))),
			jen.Id("g").Dot("Payload").Op("=").Id("fast"),
		),
		jen.List(jen.Id("out"), jen.Err()).Op(":=").Qual("encoding/json", "MarshalIndent").Call(jen.Id("g"), jen.Lit(""), jen.Lit("  ")),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Id("t").Dot("Fatal").Call(jen.Err())),
		jen.Return(jen.Append(jen.Id("out"), jen.LitRune('\n'))),
	),
	jen.Line(),
	jen.Comment("// TestErrgenCatalogue checks lookups and classification for every example."),
	jen.Func().Id("TestErrgenCatalogue").Params(jen.Id("t").Op("*").Qual("testing", "T")).Block(
		jen.Id("all").Op(":=").Id("All").Call(),
		jen.For(jen.Id("i").Op(":=").Lit(1), jen.Id("i").Op("<").Len(jen.Id("all")), jen.Id("i").Op("++")).Block(
			jen.If(jen.Id("all").Index(jen.Id("i").Op("-").Lit(1)).Dot("Num").Op(">=").Id("all").Index(jen.Id("i")).Dot("Num")).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("All is not sorted by Num at %d"), jen.Id("i")))),
		jen.For(jen.List(jen.Id("_"), jen.Id("e")).Op(":=").Range().Id("errgenExamples").Call()).Block(
			jen.Id("wrapped").Op(":=").Qual("fmt", "Errorf").Call(jen.Lit("outer: %w"), jen.Qual("fmt", "Errorf").Call(jen.Lit("inner: %w"), jen.Id("e"))),
			jen.If(jen.Id("got").Op(":=").Id("CodeOf").Call(jen.Id("wrapped")), jen.Id("got").Op("!=").Id("e").Dot("Code").Call()).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("CodeOf(wrapped %s) = %q"), jen.Id("e").Dot("Code").Call(), jen.Id("got"))),
			jen.If(jen.Id("IsRetryable").Call(jen.Id("wrapped")).Op("!=").Id("e").Dot("Retryable").Call()).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("IsRetryable(wrapped %s) != Retryable()"), jen.Id("e").Dot("Code").Call())),
			jen.If(jen.Id("ClassOf").Call(jen.Qual("errors", "Join").Call(jen.Qual("errors", "New").Call(jen.Lit("other")), jen.Id("e"))).Op("!=").Id("e").Dot("Class").Call()).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("ClassOf(joined %s) != Class()"), jen.Id("e").Dot("Code").Call())),
			jen.List(jen.Id("byCode"), jen.Id("ok1")).Op(":=").Id("Lookup").Call(jen.Id("e").Dot("Code").Call()),
			jen.List(jen.Id("byNum"), jen.Id("ok2")).Op(":=").Id("LookupNum").Call(jen.Id("e").Dot("CodeNum").Call()),
			jen.If(jen.Op("!").Id("ok1").Op("||").Op("!").Id("ok2").Op("||").Id("byCode").Dot("Code").Op("!=").Id("byNum").Dot("Code").Op("||").Id("byCode").Dot("Num").Op("!=").Id("e").Dot("CodeNum").Call().Op("||").Id("e").Dot("info").Call().Dot("Code").Op("!=").Id("e").Dot("Code").Call()).Block(
				jen.Id("t").Dot("Errorf").Call(jen.Lit("Lookup(%q) and LookupNum(%d) disagree"), jen.Id("e").Dot("Code").Call(), jen.Id("e").Dot("CodeNum").Call())),
		),
		jen.If(jen.Id("CodeOf").Call(jen.Nil()).Op("!=").Lit("").Op("||").Id("IsRetryable").Call(jen.Nil()).Op("||").Id("ClassOf").Call(jen.Qual("errors", "New").Call(jen.Lit("x"))).Op("!=").Id("ClassUnknown")).Block(
			jen.Id("t").Dot("Error").Call(jen.Lit("errors outside the catalogue must not classify"))),
	),
}
