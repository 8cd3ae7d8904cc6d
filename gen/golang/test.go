package golang

// test emits the golden test the user's package runs. Its example values
// come from the catalogue; errgen writes the golden files it compares with
// when they are missing, and `go test -update` rewrites them.
func (e *emitter) test() ([]byte, error) {
	f := newFile(e.header, e.m.Package)
	for _, p := range []string{"bytes", "encoding/json", "errors", "flag", "fmt", "os", "path/filepath", "reflect", "testing"} {
		f.use(p)
	}
	f.text(testInit)
	f.s("// errgenExamples returns one example of every variant, built from the\n")
	f.s("// catalogue's example values or errgen's placeholders.\n")
	f.s("func errgenExamples() []variant {\n\treturn []variant{\n")
	for _, v := range e.m.Variants {
		f.s("\t\t", f.exampleLit(v), ",\n")
	}
	f.s("\t}\n}\n\n")
	// The assertions cost the compiler an itab each, so they live in the
	// test, which compiles only under go test and go vet. Conversions in a
	// list, unlike a var block, have no columns for gofmt to align.
	f.s("// Every variant implements its family's interface.\nvar _ = []any{\n")
	for _, v := range e.m.Variants {
		f.s("\t", v.Family.Name, "((*", v.Name, ")(nil)),\n")
	}
	f.s("}\n\n")
	f.text(testBody)
	return f.bytes()
}

// testInit and testBody are the fixed parts of the generated test, written
// as gofmt writes them (TestEmitIsFormatted).
//
// The -update flag may already be defined by the package's own tests, so
// init shares it rather than panic on a second definition.
const testInit = `func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}
`

const testBody = `// TestErrgenGolden checks every example's code, number, message and payload
// against testdata/<code>.golden.json.
func TestErrgenGolden(t *testing.T) {
	update := flag.Lookup("update").Value.String() == "true"
	for _, e := range errgenExamples() {
		t.Run(e.Code(), func(t *testing.T) {
			got := errgenGolden(t, e)
			path := filepath.Join("testdata", e.Code()+".golden.json")
			if update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go generate to create it, or go test -update)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s is stale; if the change is intended, run go test -update and review the diff\n--- want\n%s\n+++ got\n%s", path, want, got)
			}
		})
	}
}

// errgenGolden returns the golden file contents for e, after checking that
// both payload encoders agree and that the payload decodes back to e's code.
func errgenGolden(t *testing.T, e variant) []byte {
	t.Helper()
	g := struct {
		Code    string          ` + "`" + `json:"code"` + "`" + `
		CodeNum int             ` + "`" + `json:"code_num"` + "`" + `
		Error   string          ` + "`" + `json:"error"` + "`" + `
		Payload json.RawMessage ` + "`" + `json:"payload,omitempty"` + "`" + `
	}{Code: e.Code(), CodeNum: e.CodeNum(), Error: e.Error()}
	if p, ok := e.(interface {
		LLMPayload() *Payload
		AppendLLMPayload([]byte) []byte
	}); ok {
		fast := p.AppendLLMPayload(nil)
		slow, err := json.Marshal(p.LLMPayload())
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fast, slow) {
			t.Errorf("AppendLLMPayload and LLMPayload disagree:\n%s\n%s", fast, slow)
		}
		r, err := DecodePayload(fast)
		if err != nil {
			t.Fatalf("DecodePayload: %v", err)
		}
		if CodeOf(r) != e.Code() || IsRetryable(r) != e.Retryable() {
			t.Errorf("decoded payload: CodeOf = %q, IsRetryable = %v", CodeOf(r), IsRetryable(r))
		}
		if reflect.TypeOf(r.Unwrap()) != reflect.TypeOf(e) {
			t.Errorf("decoded payload unwraps to %T, want %T", r.Unwrap(), e)
		}
		if again := r.Payload.AppendJSON(nil); !bytes.Equal(again, fast) {
			t.Errorf("decoded payload re-encodes differently:\n%s\n%s", again, fast)
		}
		g.Payload = fast
	}
	out, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(out, '\n')
}

// TestErrgenCatalogue checks lookups and classification for every example.
func TestErrgenCatalogue(t *testing.T) {
	all := All()
	for i := 1; i < len(all); i++ {
		if all[i-1].Num >= all[i].Num {
			t.Errorf("All is not sorted by Num at %d", i)
		}
	}
	for _, e := range errgenExamples() {
		wrapped := fmt.Errorf("outer: %w", fmt.Errorf("inner: %w", e))
		if got := CodeOf(wrapped); got != e.Code() {
			t.Errorf("CodeOf(wrapped %s) = %q", e.Code(), got)
		}
		if IsRetryable(wrapped) != e.Retryable() {
			t.Errorf("IsRetryable(wrapped %s) != Retryable()", e.Code())
		}
		if ClassOf(errors.Join(errors.New("other"), e)) != e.Class() {
			t.Errorf("ClassOf(joined %s) != Class()", e.Code())
		}
		byCode, ok1 := Lookup(e.Code())
		byNum, ok2 := LookupNum(e.CodeNum())
		if !ok1 || !ok2 || byCode.Code != byNum.Code || byCode.Num != e.CodeNum() || byCode.Code != e.Code() || byCode.Category != e.Category() {
			t.Errorf("Lookup(%q) and LookupNum(%d) disagree", e.Code(), e.CodeNum())
		}
	}
	if CodeOf(nil) != "" || IsRetryable(nil) || ClassOf(errors.New("x")) != ClassUnknown {
		t.Error("errors outside the catalogue must not classify")
	}
}
`
