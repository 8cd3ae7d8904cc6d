// errgen runtime: copied into every generated package as errgen_runtime_test.go.

package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// These tests hold every variant of the catalogue to the golden files
// errgen wrote for it (testdata/<code>.golden.json): its code, number,
// message and LLM payload. errgen computes those files without running this
// code, so a test that fails here is a fault in the generated code or in
// errgen, or a catalogue change that alters what goes over the wire. The
// examples are in errgen_test.go.

// The -update flag may already be defined by a package-level variable of
// the package's own tests, so it is shared rather than defined twice. An
// external test package, or an init function, that defines it again makes
// the flag package panic: there, read it with flag.Lookup("update").
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files")
	}
}

// TestErrgenGolden checks every example's code, number, message and payload
// against testdata/<code>.golden.json.
func TestErrgenGolden(t *testing.T) {
	// The golden files hold what every variant gives with no scrubber and
	// no class policy, as errgen computes them. One the package sets at
	// start-up (in an init function, or its tests in TestMain) is put
	// aside while they are compared, and in place again after.
	scrub, policy := scrubber.Swap(nil), classPolicy.Swap(nil)
	defer func() {
		scrubber.Store(scrub)
		classPolicy.Store(policy)
	}()
	update := flag.Lookup("update").Value.String() == "true"
	// The command that rewrites the golden files names the package by its
	// import path, so that it works from any folder of the module, and
	// tests no other package, which may not define -update.
	rewrite := "go test " + reflect.TypeOf(Payload{}).PkgPath() + " -update"
	for _, e := range errgenExamples() {
		t.Run(string(e.Code()), func(t *testing.T) {
			got := errgenGolden(t, e)
			path := filepath.Join("testdata", string(e.Code())+".golden.json")
			if update {
				if err := os.MkdirAll("testdata", 0o777); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o666); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go generate to create it, or %s)", err, rewrite)
			}
			// A checkout that turned LF into CRLF (git's core.autocrlf)
			// changes no golden file: the JSON holds no other CR.
			want = bytes.ReplaceAll(want, []byte("\r\n"), []byte("\n"))
			if !bytes.Equal(got, want) {
				t.Errorf("%s is stale; if the change is intended, run %s and review the diff\n%s", path, rewrite, errgenFirstDiff(want, got))
			}
		})
	}
}

// errgenFirstDiff describes where got first differs from want, two
// golden files that are not equal: the line's number, the lines before it
// that both share, then the line as want has it (-) and as got has it (+),
// and a few of the lines that follow on either side, enough to find the
// key without printing both files whole.
func errgenFirstDiff(want, got []byte) string {
	const context = 3
	w := strings.Split(strings.TrimSuffix(string(want), "\n"), "\n")
	g := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	if i == len(w) && i == len(g) {
		// Every line the same: only the newline at the end differs,
		// which the lines as split do not show.
		return fmt.Sprintf("the files differ only at their end: want ends %q, got ends %q", errgenTail(want), errgenTail(got))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "first difference at line %d (- want, + got):\n", i+1)
	for _, line := range w[max(0, i-context):i] {
		fmt.Fprintf(&b, "  %s\n", line)
	}
	side := func(mark string, lines []string) {
		if i >= len(lines) {
			fmt.Fprintf(&b, "%s (end of file)\n", mark)
			return
		}
		for _, line := range lines[i:min(len(lines), i+context)] {
			fmt.Fprintf(&b, "%s %s\n", mark, line)
		}
		if more := len(lines) - i - context; more > 0 {
			fmt.Fprintf(&b, "%s ... %d more lines\n", mark, more)
		}
	}
	side("-", w)
	side("+", g)
	return strings.TrimSuffix(b.String(), "\n")
}

// errgenTail is the last few bytes of data, where a difference in its
// final newline shows.
func errgenTail(data []byte) string {
	return string(data[max(0, len(data)-8):])
}

// errgenGolden returns the golden file contents for e, after checking that
// both payload encoders agree, that the payload and the wire form decode
// back to e's code, and that the wire form decodes to a variant that
// encodes the same bytes again.
func errgenGolden(t *testing.T, e variant) []byte {
	t.Helper()
	wire, err := json.Marshal(e)
	if err != nil {
		t.Fatalf("json.Marshal: %v", err)
	}
	g := struct {
		Code        Code                       `json:"code"`
		CodeNum     int                        `json:"code_num"`
		Error       string                     `json:"error"`
		UserMessage string                     `json:"user_message"`
		Payload     json.RawMessage            `json:"payload,omitempty"`
		Wire        json.RawMessage            `json:"wire"`
		Projections map[string]json.RawMessage `json:"projections,omitempty"`
	}{Code: e.Code(), CodeNum: e.CodeNum(), Error: e.Error(), UserMessage: e.UserMessage(), Wire: wire}
	for name, data := range errgenProjections(e) {
		if g.Projections == nil {
			g.Projections = map[string]json.RawMessage{}
		}
		g.Projections[name] = data
	}
	r, err := DecodePayload(wire)
	if err != nil {
		t.Fatalf("DecodePayload(wire form): %v", err)
	}
	if r.Code() != e.Code() || r.Retryable() != e.Retryable() || reflect.TypeOf(r.Unwrap()) != reflect.TypeOf(e) {
		t.Errorf("decoded wire form: code %q, retryable %v, type %T", r.Code(), r.Retryable(), r.Unwrap())
	}
	if again, err := json.Marshal(r.Unwrap()); err != nil || !bytes.Equal(again, wire) {
		t.Errorf("the variant decoded from the wire form encodes differently (%v):\n%s\n%s", err, again, wire)
	}
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
		var back Payload
		if err := json.Unmarshal(fast, &back); err != nil || !reflect.DeepEqual(&back, p.LLMPayload()) {
			t.Errorf("json.Unmarshal of the payload (%v):\n%+v\nwant\n%+v", err, back, p.LLMPayload())
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
		if !ok1 || !ok2 || byCode.Code != byNum.Code || byCode.Num != e.CodeNum() || !sameVariant(e.Code(), byCode.Code) || byCode.Category != e.Category() {
			t.Errorf("Lookup(%q) and LookupNum(%d) disagree", e.Code(), e.CodeNum())
		}
	}
	if CodeOf(nil) != "" || IsRetryable(nil) || ClassOf(errors.New("x")) != ClassUnknown {
		t.Error("errors outside the catalogue must not classify")
	}
	for _, in := range all {
		for _, c := range append([]Code{in.Code}, in.Subcodes...) {
			if got, ok := Lookup(c); !ok || got.Num != in.Num {
				t.Errorf("Lookup(%q) = %d, %v; want %d", c, got.Num, ok, in.Num)
			}
			for _, near := range []Code{c[:len(c)-1], c + "_", "_" + c} {
				if got, ok := Lookup(near); ok && got.Code != near && !slices.Contains(got.Subcodes, near) {
					t.Errorf("Lookup(%q) found %q", near, got.Code)
				}
			}
		}
	}
	if got, ok := Lookup(""); ok {
		t.Errorf("Lookup(\"\") found %q", got.Code)
	}
}
