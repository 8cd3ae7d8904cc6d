package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// These tests hold what an instance carries beside its fields (a sub-code,
// hints it overrides), static required fields, the class policy and the
// lookups of custom attributes, on the stand-in's CapabilityDenied.

func TestSubcodes(t *testing.T) {
	plain := &CapabilityDenied{Tool: "shell", Capability: "automation"}
	sub := &CapabilityDenied{Tool: "shell", Capability: "automation", Subcode: CodeMacosAutomationDenied}
	stray := &CapabilityDenied{Tool: "shell", Subcode: CodeToolTimeout}
	for _, c := range []struct {
		e    *CapabilityDenied
		want Code
	}{{plain, CodeCapabilityDenied}, {sub, CodeMacosAutomationDenied}, {stray, CodeCapabilityDenied}, {nil, CodeCapabilityDenied}} {
		if got := c.e.Code(); got != c.want {
			t.Errorf("Code() of %+v = %q, want %q", c.e, got, c.want)
		}
	}
	if got := sub.Error(); got != "Capability automation denied (macos_automation_denied)" {
		t.Errorf("{code} in the message = %q", got)
	}
	if got := sub.SuppressionKey(); got != "shell:macos_automation_denied" {
		t.Errorf("SuppressionKey() = %q", got)
	}
	p := sub.LLMPayload()
	if p.Code != CodeMacosAutomationDenied || p.CodeNum != 1007 {
		t.Errorf("payload code %q num %d", p.Code, p.CodeNum)
	}
	// Lookup finds the variant by any of its sub-codes.
	in, ok := Lookup(CodeMacosAutomationUnknown)
	if !ok || in.Code != CodeCapabilityDenied || len(in.Subcodes) != 2 {
		t.Errorf("Lookup(sub-code) = %+v, %v", in, ok)
	}
	// errors.Is: the variant's code matches every instance, a sub-code only
	// its own.
	wrapped := fmt.Errorf("run: %w", sub)
	for _, c := range []struct {
		target error
		want   bool
	}{
		{&CapabilityDenied{}, true},
		{&CapabilityDenied{Subcode: CodeMacosAutomationDenied}, true},
		{&CapabilityDenied{Subcode: CodeMacosAutomationUnknown}, false},
		{&ToolTimeout{}, false},
	} {
		if got := errors.Is(wrapped, c.target); got != c.want {
			t.Errorf("errors.Is(sub-code instance, %v) = %v, want %v", c.target.(Error).Code(), got, c.want)
		}
	}
	if !HasCode(wrapped, CodeCapabilityDenied) || !HasCode(wrapped, CodeMacosAutomationDenied) || HasCode(wrapped, CodeMacosAutomationUnknown) {
		t.Error("HasCode must find the instance by its variant's code and its own sub-code only")
	}
	// The wire form travels with the sub-code and comes back with it.
	data, err := json.Marshal(sub)
	if err != nil {
		t.Fatal(err)
	}
	r, err := DecodePayload(data)
	if err != nil {
		t.Fatal(err)
	}
	back, ok := r.Unwrap().(*CapabilityDenied)
	if !ok || back.Subcode != CodeMacosAutomationDenied || r.Code() != CodeMacosAutomationDenied {
		t.Fatalf("decoded %#v", r.Unwrap())
	}
	if !errors.Is(r, &CapabilityDenied{}) || !HasCode(r, CodeCapabilityDenied) {
		t.Error("a decoded sub-code must still be the variant's")
	}
	if again, _ := json.Marshal(back); string(again) != string(data) {
		t.Errorf("round trip:\n%s\n%s", data, again)
	}
}

func TestInstanceHints(t *testing.T) {
	// Without overrides: the catalogue's hint and template.
	e := &CapabilityDenied{Tool: "shell", Capability: "automation"}
	p := e.LLMPayload()
	if p.SuggestedTool != "ask_user" || p.SuggestedAction != "" || p.SuppressionKey != "shell:capability_denied" {
		t.Errorf("defaults: tool %q action %q key %q", p.SuggestedTool, p.SuggestedAction, p.SuppressionKey)
	}
	// With them: the instance's, in LLMPayload, AppendLLMPayload, the wire
	// form and SuppressionKey alike.
	e = &CapabilityDenied{Tool: "shell", SuggestedTool: "osascript", SuggestedAction: "Ask for automation access.", SuppressionKeyOverride: "macos:automation"}
	p = e.LLMPayload()
	if p.SuggestedTool != "osascript" || p.SuggestedAction != "Ask for automation access." || p.SuppressionKey != "macos:automation" || e.SuppressionKey() != "macos:automation" {
		t.Errorf("overrides: %+v", p)
	}
	appended := string(e.AppendLLMPayload(nil))
	viaPayload, _ := json.Marshal(p)
	if appended != string(viaPayload) {
		t.Errorf("AppendLLMPayload and LLMPayload disagree:\n%s\n%s", appended, viaPayload)
	}
	wire, _ := json.Marshal(e)
	r, err := DecodePayload(wire)
	if err != nil {
		t.Fatal(err)
	}
	back := r.Unwrap().(*CapabilityDenied)
	if back.SuggestedTool != "osascript" || back.SuggestedAction != "Ask for automation access." || back.SuppressionKeyOverride != "macos:automation" {
		t.Errorf("decoded hints: %+v", back)
	}
	// A hint equal to the catalogue's is not made an override.
	plain, _ := json.Marshal(&CapabilityDenied{Tool: "shell"})
	r, _ = DecodePayload(plain)
	if back := r.Unwrap().(*CapabilityDenied); back.SuggestedTool != "" || back.SuppressionKeyOverride != "" {
		t.Errorf("decoded defaults became overrides: %+v", back)
	}
}

func TestStaticRequiredFields(t *testing.T) {
	e := &CapabilityDenied{Tool: "shell"}
	p := e.LLMPayload()
	if strings.Join(p.RequiredFields, ",") != "capability,reason" {
		t.Fatalf("RequiredFields = %q", p.RequiredFields)
	}
	// The caller can replace it, and the catalogue's list stays.
	p.RequiredFields[0] = "changed"
	if in, _ := Lookup(CodeCapabilityDenied); in.RequiredFields[0] != "capability" {
		t.Error("changing a payload's RequiredFields changed the catalogue's")
	}
	if !strings.Contains(string(e.AppendLLMPayload(nil)), `"required_fields":["capability","reason"]`) {
		t.Error("AppendLLMPayload lacks the static required_fields")
	}
	if wire, _ := json.Marshal(e); strings.Contains(string(wire), "required_fields") {
		t.Error("the wire form carries required_fields, which only the payload has")
	}
}

// The lists of an Info are the caller's to change when All returns them;
// Lookup shares them to stay free of allocation, and no error reads them,
// so even a caller that changes them (which Info's doc forbids) changes
// what lookups report and nothing any error does.
func TestInfoListsDoNotSteerTheErrors(t *testing.T) {
	e := &CapabilityDenied{Tool: "shell", Subcode: CodeMacosAutomationDenied}
	payload, code := string(e.AppendLLMPayload(nil)), e.Code()
	// All's copies are the caller's.
	all := All()
	for i := range all {
		if all[i].Code == CodeCapabilityDenied {
			all[i].RequiredFields[0], all[i].Subcodes[1] = "changed", "changed"
		}
	}
	if in, _ := Lookup(CodeCapabilityDenied); in.RequiredFields[0] != "capability" || in.Subcodes[1] != CodeMacosAutomationDenied {
		t.Errorf("changing All's lists changed the catalogue's: %+v", in)
	}
	// Lookup's are shared: changed behind the doc's back, the errors still
	// do what the catalogue says.
	in, _ := Lookup(CodeCapabilityDenied)
	keep := []string{in.RequiredFields[0], string(in.Subcodes[1])}
	in.RequiredFields[0], in.Subcodes[1] = "changed", "changed"
	t.Cleanup(func() { in.RequiredFields[0], in.Subcodes[1] = keep[0], Code(keep[1]) })
	if got := string(e.AppendLLMPayload(nil)); got != payload {
		t.Errorf("payload after a shared list changed:\n got %s\nwant %s", got, payload)
	}
	if e.Code() != code || !HasCode(e, CodeCapabilityDenied) || !errors.Is(e, &CapabilityDenied{Subcode: CodeMacosAutomationDenied}) {
		t.Errorf("the sub-code after a shared list changed: Code %q", e.Code())
	}
	if got, ok := Lookup(CodeMacosAutomationDenied); !ok || got.Num != 1007 {
		t.Errorf("Lookup of a sub-code after a shared list changed: %v", ok)
	}
	if r, err := DecodePayload([]byte(payload)); err != nil || r.Unwrap().(*CapabilityDenied).Subcode != CodeMacosAutomationDenied {
		t.Errorf("decoding a sub-code after a shared list changed: %v", err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = Lookup(CodeMacosAutomationDenied) }); n != 0 {
		t.Errorf("Lookup allocates %v times", n)
	}
}

func TestClassPolicy(t *testing.T) {
	t.Cleanup(func() { SetClassPolicy(nil) })
	e := fmt.Errorf("step: %w", &CapabilityDenied{Tool: "shell"})
	if ClassOf(e) != ClassTerminal || IsRetryable(e) {
		t.Fatalf("default: class %v", ClassOf(e))
	}
	if err := SetClassPolicy(ClassPolicy{CodeCapabilityDenied: ClassRetryable}); err != nil {
		t.Fatal(err)
	}
	if ClassOf(e) != ClassRetryable || !IsRetryable(e) || !(&CapabilityDenied{}).LLMPayload().Retryable {
		t.Errorf("policy retryable: class %v", ClassOf(e))
	}
	// A refused policy changes nothing, and says every problem.
	err := SetClassPolicy(ClassPolicy{CodeToolTimeout: ClassTerminal, "nope": ClassTerminal, CodeCapabilityDenied: ClassUnknown, CodeMacosAutomationDenied: ClassNonFatal})
	// One line a problem, in code order whatever the map's order.
	var got []string
	if err != nil {
		got = strings.Split(err.Error(), "\n")
	}
	want := []string{
		packageName + `: class policy: "capability_denied" cannot be unknown; give it terminal, retryable or non_fatal`,
		packageName + `: class policy: "macos_automation_denied" is not a code of the catalogue`,
		packageName + `: class policy: "nope" is not a code of the catalogue`,
		packageName + `: class policy: "tool_timeout" is not configurable; its class is retryable`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("SetClassPolicy error:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ClassOf(e) != ClassRetryable {
		t.Error("a refused policy changed the class")
	}
	if err := SetClassPolicy(ClassPolicy{CodeCapabilityDenied: ClassNonFatal}); err != nil || ClassOf(e) != ClassNonFatal || IsRetryable(e) {
		t.Errorf("policy non_fatal: %v %v", err, ClassOf(e))
	}
	// Decoded errors take this service's policy.
	wire, _ := json.Marshal(&CapabilityDenied{})
	if r, _ := DecodePayload(wire); r.Class() != ClassNonFatal {
		t.Errorf("decoded class %v", r.Class())
	}
	if err := SetClassPolicy(nil); err != nil || ClassOf(e) != ClassTerminal {
		t.Errorf("reset: %v %v", err, ClassOf(e))
	}
	if in, _ := Lookup(CodeCapabilityDenied); !in.Configurable || in.Class != ClassTerminal {
		t.Errorf("Info: %+v", in)
	}
}

// A decoded configurable error has the class this deployment's policy
// gives it, whatever the sender's policy said, as the variant itself has:
// the policy that retries it, the one that ends the run, and one set after
// the error was decoded.
func TestDecodedFollowsClassPolicy(t *testing.T) {
	t.Cleanup(func() { SetClassPolicy(nil) })
	// The sender runs the default policy: terminal, not retryable.
	sent := (&CapabilityDenied{Tool: "shell"}).AppendLLMPayload(nil)
	if err := SetClassPolicy(ClassPolicy{CodeCapabilityDenied: ClassRetryable}); err != nil {
		t.Fatal(err)
	}
	r, err := DecodePayload(sent)
	if err != nil {
		t.Fatal(err)
	}
	wrapped := fmt.Errorf("step: %w", r)
	if r.Class() != ClassRetryable || !r.Retryable() || ClassOf(wrapped) != ClassRetryable || !IsRetryable(wrapped) {
		t.Errorf("policy retryable: decoded class %v, retryable %v", r.Class(), r.Retryable())
	}
	if err := SetClassPolicy(ClassPolicy{CodeCapabilityDenied: ClassNonFatal}); err != nil {
		t.Fatal(err)
	}
	if ClassOf(wrapped) != ClassNonFatal || IsRetryable(wrapped) {
		t.Errorf("policy set after decoding: class %v, retryable %v", ClassOf(wrapped), IsRetryable(wrapped))
	}
	// A sender whose policy retries it, read where the policy does not.
	SetClassPolicy(ClassPolicy{CodeCapabilityDenied: ClassRetryable})
	retried := (&CapabilityDenied{Tool: "shell"}).AppendLLMPayload(nil)
	SetClassPolicy(nil)
	if r, err = DecodePayload(retried); err != nil || !r.Payload.Retryable {
		t.Fatalf("the sender's payload: %s, %v", retried, err)
	}
	if r.Class() != ClassTerminal || r.Retryable() {
		t.Errorf("default policy here: decoded class %v, retryable %v; want terminal", r.Class(), r.Retryable())
	}
}

// TestDecodedWrapperFollowsClassPolicy: a decoded error whose
// retryability is its cause's (retryable_from_cause), down to a
// configurable cause, answers with this deployment's policy, as the
// variant it unwraps to and the error before sending do, not with the
// sender's retryable.
func TestDecodedWrapperFollowsClassPolicy(t *testing.T) {
	t.Cleanup(func() { SetClassPolicy(nil) })
	local := &OperatorFailed{Cause: &OperatorFailed{Cause: &CapabilityDenied{Tool: "shell"}}}
	sent := mustMarshal(t, local) // under the default policy: not retryable
	if err := SetClassPolicy(ClassPolicy{CodeCapabilityDenied: ClassRetryable}); err != nil {
		t.Fatal(err)
	}
	r, err := DecodePayload(sent)
	if err != nil {
		t.Fatal(err)
	}
	if !IsRetryable(local) || !IsRetryable(r) || ClassOf(r) != ClassRetryable || !r.Unwrap().(Error).Retryable() {
		t.Errorf("under a policy that retries the cause: local %t, decoded %t, class %v, its variant %t",
			IsRetryable(local), IsRetryable(r), ClassOf(r), r.Unwrap().(Error).Retryable())
	}
	if _, ok := RetryDelay(r, 1); !ok {
		t.Error("RetryDelay does not retry the decoded error")
	}
	// A wrapper that is not retryable_from_cause keeps the sender's answer.
	if r, err := DecodePayload(mustMarshal(t, &ProviderTimeout{Cause: &CapabilityDenied{}})); err != nil || !r.Retryable() {
		t.Errorf("a wrapper retryable of its own: %v, %v", r, err)
	}
}

// TestLogReadsThePolicyOnce: a log value's class and retryable come from
// one reading of the class policy, so a policy set meanwhile gives both
// the old answers or both the new ones.
func TestLogReadsThePolicyOnce(t *testing.T) {
	t.Cleanup(func() { SetClassPolicy(nil) })
	// The writer has stopped before the test returns and the cleanup
	// resets the policy: a last write after that would leak into the next
	// test.
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			class := ClassRetryable
			if i%2 == 1 {
				class = ClassTerminal
			}
			SetClassPolicy(ClassPolicy{CodeCapabilityDenied: class})
		}
	}()
	defer func() {
		close(done)
		<-stopped
	}()
	r, err := DecodePayload((&CapabilityDenied{}).AppendLLMPayload(nil))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 5000 {
		for _, v := range []slog.Value{(&CapabilityDenied{}).LogValue(), r.LogValue()} {
			var class string
			var retryable bool
			for _, a := range v.Group() {
				switch a.Key {
				case "class":
					class = a.Value.String()
				case "retryable":
					retryable = a.Value.Bool()
				}
			}
			if retryable != (class == "retryable") {
				t.Fatalf("read %d: class %s with retryable %t", i, class, retryable)
			}
		}
	}
}

// TestGoldenUnderDeploymentState: a scrubber and a class policy the
// package sets at start-up (an init function, its tests' TestMain) do not
// make the generated golden test fail, since the golden files hold the
// defaults; both are in place again after it.
func TestGoldenUnderDeploymentState(t *testing.T) {
	t.Cleanup(func() {
		SetClassPolicy(nil)
		SetScrubber(nil)
	})
	if err := SetClassPolicy(ClassPolicy{CodeCapabilityDenied: ClassRetryable}); err != nil {
		t.Fatal(err)
	}
	SetScrubber(strings.ToUpper)
	TestErrgenGolden(t)
	e := &CapabilityDenied{Tool: "shell"}
	if e.Class() != ClassRetryable || !strings.Contains(string(e.AppendLLMPayload(nil)), `"SHELL"`) {
		t.Errorf("after the golden test: class %v, payload %s; want the policy and the scrubber back", e.Class(), e.AppendLLMPayload(nil))
	}
}

func TestClassPolicyConcurrentReaders(t *testing.T) {
	t.Cleanup(func() { SetClassPolicy(nil) })
	e := &CapabilityDenied{}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if c := e.Class(); c != ClassTerminal && c != ClassRetryable {
					t.Errorf("read class %v", c)
					return
				}
			}
		}()
	}
	for i := range 200 {
		class := ClassTerminal
		if i%2 == 0 {
			class = ClassRetryable
		}
		if err := SetClassPolicy(ClassPolicy{CodeCapabilityDenied: class}); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
}

func TestAttributeLookup(t *testing.T) {
	for _, c := range []struct {
		err  error
		want Layer
		ok   bool
	}{
		{&ToolTimeout{}, LayerTool, true},
		{fmt.Errorf("x: %w", &CapabilityDenied{Subcode: CodeMacosAutomationUnknown}), LayerTool, true},
		{&RateLimited{}, LayerAgent, true},
		{errors.New("plain"), "", false},
		{nil, "", false},
	} {
		got, ok := LayerOf(c.err)
		if got != c.want || ok != c.ok {
			t.Errorf("LayerOf(%v) = %q, %v; want %q, %v", c.err, got, ok, c.want, c.ok)
		}
	}
	wire, _ := json.Marshal(&ToolTimeout{})
	r, _ := DecodePayload(wire)
	if got, ok := LayerOf(r); got != LayerTool || !ok {
		t.Errorf("LayerOf(decoded) = %q, %v", got, ok)
	}
}

// TestGoldenCheckedOutWithCRLF: golden files that a checkout with git's
// core.autocrlf holds with CRLF line endings still pass the generated
// golden test.
func TestGoldenCheckedOutWithCRLF(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.golden.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files: %v", err)
	}
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "testdata"), 0o777); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		crlf := bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
		if err := os.WriteFile(filepath.Join(dir, f), crlf, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	TestErrgenGolden(t)
}

// TestAppendLLMPayloadAllocation holds AppendLLMPayload to what README.md
// says of it: into a buffer with room, nothing is allocated when no
// scrubber is set; with one, only the string each rendered text (the
// message, the suppression key) is handed to it as, at most one each.
func TestAppendLLMPayloadAllocation(t *testing.T) {
	errs := []interface{ AppendLLMPayload([]byte) []byte }{
		&ToolNotFound{Name: "x<y>"},
		&ToolUnavailable{Tool: "browser", Attempts: 2, Alternatives: []string{"x"}},
		&ToolTimeout{Tool: "terminal", Seconds: 3},
		&CapabilityDenied{Tool: "t", Subcode: CodeMacosAutomationDenied, SuggestedTool: "ask"},
	}
	buf := make([]byte, 0, 1<<14)
	for _, e := range errs {
		if n := testing.AllocsPerRun(50, func() { buf = e.AppendLLMPayload(buf[:0]) }); n != 0 {
			t.Errorf("%T without a scrubber: %v allocations", e, n)
		}
		SetScrubber(func(s string) string { return s })
		n := testing.AllocsPerRun(50, func() { buf = e.AppendLLMPayload(buf[:0]) })
		SetScrubber(nil)
		if n > 2 {
			t.Errorf("%T with a scrubber: %v allocations, more than one per rendered text", e, n)
		}
	}
}
