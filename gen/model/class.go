package model

// Class is how a handler should treat an error: the classification of
// the runpolicy example's failure matrix. Every output names a class through its methods, so
// its wording is written once, here.
type Class int

// The classes. Unknown is what the generated ClassOf answers for an error
// outside the catalogue; no variant has it.
const (
	Unknown Class = iota
	Terminal
	Retryable
	NonFatal
)

// Classes lists every class in the order the generated constants declare
// them.
var Classes = []Class{Unknown, Terminal, Retryable, NonFatal}

var classText = [...]struct{ name, goName, handling, doc string }{
	Unknown:   {"unknown", "ClassUnknown", "not an error of the catalogue", "is the class of an error that is not in the catalogue."},
	Terminal:  {"terminal", "ClassTerminal", "stop and report", "errors will not go away on retry: stop and report."},
	Retryable: {"retryable", "ClassRetryable", "retry with backoff", "errors are transient: retry with backoff."},
	NonFatal:  {"non_fatal", "ClassNonFatal", "log and carry on", "errors can be logged while the run carries on."},
}

// String returns the class's name as the generated Class.String, Info and
// the docs spell it: terminal, retryable, non_fatal, unknown.
func (c Class) String() string { return classText[c].name }

// GoName returns the generated constant: ClassTerminal.
func (c Class) GoName() string { return classText[c].goName }

// Handling says in a few words what a handler does with an error of the
// class.
func (c Class) Handling() string { return classText[c].handling }

// Doc is the doc comment of the generated constant, after its name.
func (c Class) Doc() string { return classText[c].doc }

// Retry is a variant's retryability rule: whether trying again may work,
// either fixed, decided by its cause, or decided per instance by a field.
type Retry struct {
	// Retryable is the answer when the cause does not decide: always
	// without FromCause, and with it when the cause is not an error of the
	// catalogue (or there is none). With Field it is false.
	Retryable bool
	// FromCause reports whether the first catalogue error in the cause's
	// chain decides.
	FromCause bool
	// Field names the bool field (retryable: true) whose value decides,
	// instance by instance; "" when none does.
	Field string
}

// String says the rule in words, as compat, diff and the docs show it.
func (r Retry) String() string {
	switch {
	case r.Field != "":
		return "retryable when its " + r.Field + " field is true"
	case r.FromCause && r.Retryable:
		// True of every cause: one of another catalogue's family always
		// answers, and an error of no catalogue (or none) leaves it
		// retryable.
		return "retryable when its cause is, and when it has no cause of a catalogue"
	case r.FromCause:
		return "retryable when its cause is"
	case r.Retryable:
		return "retryable"
	}
	return "not retryable"
}

// Short says the rule in a table cell: yes, no, from cause, or per
// instance.
func (r Retry) Short() string {
	switch {
	case r.Field != "":
		return "per instance"
	case r.FromCause:
		return "from cause"
	case r.Retryable:
		return "yes"
	}
	return "no"
}

// RetryShort is the variant's retryability as the docs' tables show it:
// Retry.Short, or for a configurable variant, that ClassPolicy decides,
// with the default.
func (v *Variant) RetryShort() string {
	if v.Configurable {
		return "by policy (default " + v.Retry.Short() + ")"
	}
	return v.Retry.Short()
}

// GoDoc is the doc comment of a generated Retryable method whose cause
// decides.
func (r Retry) GoDoc() string {
	return "Retryable reports whether the first error of the catalogue in the cause's chain is retryable; " +
		boolText(r.Retryable) + " when there is none."
}

// ImportedGoDoc is GoDoc for a variant whose cause, a family of another
// catalogue, decides: the cause itself answers, whatever catalogue it is
// of.
func (r Retry) ImportedGoDoc() string {
	return "Retryable reports whether its cause, an error of another catalogue, is retryable; " +
		boolText(r.Retryable) + " when there is none."
}

// FieldGoDoc is the doc comment of a generated Retryable method whose
// field decides; goName is the field's Go name.
func (r Retry) FieldGoDoc(goName string) string {
	return "Retryable returns " + goName + ", which decides for each error whether it is retryable; false for nil."
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

// ClassRule says how a variant's class is decided.
type ClassRule struct {
	// Static is the class when the cause does not decide: always without
	// FromCause, and with it when the cause is not an error of the
	// catalogue (Info.Class in the generated tables).
	Static Class
	// FromCause reports whether the class follows Retryable(), which the
	// cause (or, with Field, a field) decides: Retryable when it reports
	// true, else Otherwise.
	FromCause bool
	Otherwise Class
	// Configurable reports whether the application's ClassPolicy decides
	// the class at run time; Static is then the default.
	Configurable bool
	// ImportedCause reports whether the cause that decides is a family of
	// another catalogue: the cause's own Retryable answers, and Static
	// only for a variant without a cause.
	ImportedCause bool
	// Field names the field whose value decides, instance by instance:
	// the class follows Retryable(), which returns the field, as with
	// FromCause (which is then also set): Retryable when it is true, else
	// Otherwise.
	Field string
}

// ClassRule returns the rule of v's class. A non-fatal variant is never
// retryable (the resolver refuses both), so its class is fixed. With
// retryable_from_cause, the class is Retryable exactly when Retryable()
// reports true; otherwise it is Terminal, whatever `retryable` says,
// because `retryable` only answers for a cause outside the catalogue.
func (v *Variant) ClassRule() ClassRule {
	rule := v.fixedRule()
	rule.Configurable = v.Configurable
	rule.ImportedCause = rule.FromCause && rule.Field == "" && v.Cause != nil && v.Cause.Type.Import != ""
	return rule
}

func (v *Variant) fixedRule() ClassRule {
	switch {
	case v.NonFatal:
		return ClassRule{Static: NonFatal}
	case v.Retry.Field != "":
		return ClassRule{Static: Terminal, FromCause: true, Otherwise: Terminal, Field: v.Retry.Field}
	case v.Retry.FromCause && v.Retry.Retryable:
		return ClassRule{Static: Retryable, FromCause: true, Otherwise: Terminal}
	case v.Retry.FromCause:
		return ClassRule{Static: Terminal, FromCause: true, Otherwise: Terminal}
	case v.Retry.Retryable:
		return ClassRule{Static: Retryable}
	}
	return ClassRule{Static: Terminal}
}

// NeverRetryable reports whether no instance of v is ever retryable: its
// rule is fixed, not the cause's or the application's, and says no.
func (v *Variant) NeverRetryable() bool {
	rule := v.ClassRule()
	return !rule.Configurable && !rule.FromCause && rule.Static != Retryable
}

// Class is the class of v's example values: the rule applied with its
// example cause.
func (v *Variant) Class() Class {
	rule := v.ClassRule()
	if !rule.FromCause {
		return rule.Static
	}
	if v.ExampleRetryable() {
		return Retryable
	}
	return rule.Otherwise
}

// ExampleRetryable is what Retryable() reports for v's example values: the
// example cause's, when the cause decides and the example has a catalogue
// cause.
func (v *Variant) ExampleRetryable() bool {
	if v.Retry.Field != "" {
		if f := v.Field(v.Retry.Field); f != nil {
			return f.Example.Bool
		}
		return false
	}
	if v.Retry.FromCause && v.Cause != nil && v.Cause.Type.Kind == FamilyKind && v.Cause.Example.Variant != nil {
		return v.Cause.Example.Variant.ExampleRetryable()
	}
	return v.Retry.Retryable
}

// String says the rule in words: "retryable", "terminal", or "retryable
// when its cause is, otherwise terminal". When the cause decides and the
// variant says retryable, a nil cause or one that holds no error of the
// catalogue makes Retryable() report true, and the class retryable; the
// words say so. A cause of another catalogue's family is itself asked,
// whatever catalogue it is of: only without one is the class Static.
func (c ClassRule) String() string {
	if c.Configurable {
		return "configurable, " + c.Static.String() + " by default"
	}
	if c.Field != "" {
		return Retryable.String() + " when its " + c.Field + " field is true, otherwise " + c.Otherwise.String()
	}
	if c.FromCause && c.Static != c.Otherwise && c.ImportedCause {
		return c.Static.String() + " when its cause is retryable or it has none, otherwise " + c.Otherwise.String()
	}
	if c.FromCause && c.Static != c.Otherwise {
		return c.Static.String() + " when its cause is retryable or holds no error of the catalogue, otherwise " + c.Otherwise.String()
	}
	if c.FromCause {
		return "retryable when its cause is, otherwise " + c.Otherwise.String()
	}
	return c.Static.String()
}

// PolicyDoc is the doc comment of the Class method of a configurable
// variant.
func (c ClassRule) PolicyDoc() string {
	return "Class returns the class the application's ClassPolicy gives the code, else " + c.Static.GoName() + "."
}

// GoDoc is the doc comment of a generated Class method that follows the
// cause.
func (c ClassRule) GoDoc() string {
	return "Class returns " + Retryable.GoName() + " when Retryable reports true, otherwise " + c.Otherwise.GoName() + "."
}
