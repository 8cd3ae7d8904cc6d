package model

import "testing"

// TestClassRule pins the class of every combination of the retry keys, and
// its wording, which the docs, explain and the generated Class doc all
// take from here.
func TestClassRule(t *testing.T) {
	for _, tc := range []struct {
		retry    Retry
		nonFatal bool
		static   Class
		text     string
		goDoc    string
	}{
		{Retry{}, false, Terminal, "terminal", ""},
		{Retry{Retryable: true}, false, Retryable, "retryable", ""},
		{Retry{}, true, NonFatal, "non_fatal", ""},
		{Retry{FromCause: true}, false, Terminal, "retryable when its cause is, otherwise terminal",
			"Class returns ClassRetryable when Retryable reports true, otherwise ClassTerminal."},
		// retryable only answers for a cause outside the catalogue (or
		// none): then the class is retryable; when Retryable() reports
		// false, terminal.
		{Retry{Retryable: true, FromCause: true}, false, Retryable, "retryable when its cause is retryable or holds no error of the catalogue, otherwise terminal",
			"Class returns ClassRetryable when Retryable reports true, otherwise ClassTerminal."},
	} {
		v := &Variant{Retry: tc.retry, NonFatal: tc.nonFatal}
		rule := v.ClassRule()
		if rule.Static != tc.static || rule.String() != tc.text || rule.FromCause != tc.retry.FromCause {
			t.Errorf("%+v non_fatal %v: rule %+v %q", tc.retry, tc.nonFatal, rule, rule.String())
		}
		if rule.FromCause && rule.GoDoc() != tc.goDoc {
			t.Errorf("%+v: GoDoc %q", tc.retry, rule.GoDoc())
		}
	}
}

// TestClassRuleImportedCause: a cause of another catalogue's family
// answers Retryable itself (retryableOfImported), so a retryable variant
// whose cause decides is retryable only without one, whatever catalogue
// the cause is of; the words must not promise more.
func TestClassRuleImportedCause(t *testing.T) {
	cause := &Field{Name: "cause", Type: Type{Kind: FamilyKind, Name: "gateway.ProviderError", Import: "example.com/gateway"}}
	v := &Variant{Retry: Retry{Retryable: true, FromCause: true}, Cause: cause}
	if got, want := v.ClassRule().String(), "retryable when its cause is retryable or it has none, otherwise terminal"; got != want {
		t.Errorf("retryable, cause of another catalogue: %q, want %q", got, want)
	}
	v.Retry.Retryable = false
	if got, want := v.ClassRule().String(), "retryable when its cause is, otherwise terminal"; got != want {
		t.Errorf("cause of another catalogue: %q, want %q", got, want)
	}
}

func TestClassNames(t *testing.T) {
	for c, want := range map[Class][2]string{
		Unknown: {"unknown", "ClassUnknown"}, Terminal: {"terminal", "ClassTerminal"},
		Retryable: {"retryable", "ClassRetryable"}, NonFatal: {"non_fatal", "ClassNonFatal"},
	} {
		if c.String() != want[0] || c.GoName() != want[1] {
			t.Errorf("class %d: %q %q", c, c.String(), c.GoName())
		}
	}
}

// TestRetryString: the rule's words, as compat, diff and the docs show
// them, hold for a cause of this catalogue, of another, or of none.
func TestRetryString(t *testing.T) {
	for retry, want := range map[Retry]string{
		{}:                                 "not retryable",
		{Retryable: true}:                  "retryable",
		{FromCause: true}:                  "retryable when its cause is",
		{Retryable: true, FromCause: true}: "retryable when its cause is, and when it has no cause of a catalogue",
	} {
		if got := retry.String(); got != want {
			t.Errorf("%+v: %q, want %q", retry, got, want)
		}
	}
}
