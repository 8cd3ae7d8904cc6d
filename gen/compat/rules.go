// Package compat compares two versions of a catalogue and reports the
// changes that break the services, logs, dashboards and Go code that
// depend on the older one: a number reassigned, a code renumbered, a
// variant removed without reserving it, a retryable error that stops being
// retryable, a payload field removed, a Go name changed.
//
// Every rule has a stable ID and belongs to a tier. The tiers nest like
// buf's FILE and WIRE categories: checking a tier checks every tier below it
// too.
package compat

import (
	"slices"
	"strings"

	"github.com/errgen/errgen/gen/diag"
)

// Tier groups rules by what a change breaks. Each tier includes the ones
// below it.
type Tier int

// The tiers, from the narrowest to the widest.
const (
	// Wire: the numbers and codes other services, logs and dashboards
	// store.
	Wire Tier = iota
	// JSON: the shape of the LLM payload: its type and its keys.
	JSON
	// Semantics: what an error means and how handlers treat it.
	Semantics
	// Go: the API of the generated Go package.
	Go
)

var tierNames = []string{"wire", "json", "semantics", "go"}

// String returns the tier's name as --tier takes it.
func (t Tier) String() string {
	if t < 0 || int(t) >= len(tierNames) {
		return "unknown"
	}
	return tierNames[t]
}

// MarshalText encodes the tier as its name.
func (t Tier) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// ParseTier returns the tier named s.
func ParseTier(s string) (Tier, bool) {
	i := slices.Index(tierNames, s)
	return Tier(i), i >= 0
}

// TierNames lists the tiers' names, narrowest first.
func TierNames() []string { return slices.Clone(tierNames) }

// Severity says whether a finding fails the check.
type Severity int

const (
	// Break is a breaking change: errgen compat fails unless a waiver in
	// the catalogue accepts it.
	Break Severity = iota
	// Note is a change worth a reviewer's look that never fails.
	Note
)

// String returns "break" or "note".
func (s Severity) String() string {
	if s == Note {
		return "note"
	}
	return "break"
}

// MarshalText encodes the severity as its name.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Rule is one compatibility rule.
type Rule struct {
	ID       string
	Tier     Tier
	Severity Severity
	// Doc says in one line what the rule reports.
	Doc string
}

// The rule IDs. They are stable: waivers and CI configuration name them.
const (
	NumReassigned              = "NUM_REASSIGNED"
	CodeRenumbered             = "CODE_RENUMBERED"
	VariantRemovedUnreserved   = "VARIANT_REMOVED_UNRESERVED"
	ReservedRemoved            = "RESERVED_REMOVED"
	PayloadTypeChanged         = "PAYLOAD_TYPE_CHANGED"
	PayloadFieldRemoved        = "PAYLOAD_FIELD_REMOVED"
	PayloadFieldRenamed        = "PAYLOAD_FIELD_RENAMED"
	PayloadFieldRetyped        = "PAYLOAD_FIELD_RETYPED"
	PayloadFieldDropped        = "PAYLOAD_FIELD_DROPPED"
	UnitChanged                = "UNIT_CHANGED"
	PayloadFieldOrderChanged   = "PAYLOAD_FIELD_ORDER_CHANGED"
	FieldOrderChanged          = "FIELD_ORDER_CHANGED"
	FamilyChanged              = "FAMILY_CHANGED"
	CategoryChanged            = "CATEGORY_CHANGED"
	RetryableChanged           = "RETRYABLE_CHANGED"
	SuppressRetryChanged       = "SUPPRESS_RETRY_CHANGED"
	NonFatalChanged            = "NON_FATAL_CHANGED"
	RetryAfterDropped          = "RETRY_AFTER_DROPPED"
	HTTPStatusFieldDropped     = "HTTP_STATUS_FIELD_DROPPED"
	SuppressionKeyChanged      = "SUPPRESSION_KEY_CHANGED"
	HTTPStatusRemoved          = "HTTP_STATUS_REMOVED"
	MessagePlaceholdersChanged = "MESSAGE_PLACEHOLDERS_CHANGED"
	MessageReworded            = "MESSAGE_REWORDED"
	FieldRemoved               = "FIELD_REMOVED"
	FieldRenamed               = "FIELD_RENAMED"
	FieldRetyped               = "FIELD_RETYPED"
	GoFieldChanged             = "GO_FIELD_CHANGED"
	GoNameChanged              = "GO_NAME_CHANGED"
	PackageRenamed             = "PACKAGE_RENAMED"
	CodeCaseChanged            = "CODE_CASE_CHANGED"
	SubcodeRemovedUnreserved   = "SUBCODE_REMOVED_UNRESERVED"
	RequiredFieldsChanged      = "REQUIRED_FIELDS_CHANGED"
	ConfigurableRemoved        = "CONFIGURABLE_REMOVED"
	AttributeChanged           = "ATTRIBUTE_CHANGED"
	InstanceHintRemoved        = "INSTANCE_HINT_REMOVED"
	AttributeRemoved           = "ATTRIBUTE_REMOVED"
	MappingChanged             = "MAPPING_CHANGED"
	MappingRemoved             = "MAPPING_REMOVED"
	ClassifyRuleRemoved        = "CLASSIFY_RULE_REMOVED"
	ClassifyRemoved            = "CLASSIFY_REMOVED"
	RetryPolicyRemoved         = "RETRY_POLICY_REMOVED"
	RetryPolicyChanged         = "RETRY_POLICY_CHANGED"
	SensitiveAdded             = "SENSITIVE_ADDED"
	SensitiveRemoved           = "SENSITIVE_REMOVED"
	ProblemTypeChanged         = "PROBLEM_TYPE_CHANGED"
	ProblemStatusChanged       = "PROBLEM_STATUS_CHANGED"
	MCPKindChanged             = "MCP_KIND_CHANGED"
	GRPCCodeChanged            = "GRPC_CODE_CHANGED"
	CodeMoved                  = "CODE_MOVED"
	RangeShrunk                = "RANGE_SHRUNK"
	OwnerChanged               = "OWNER_CHANGED"
	CatalogueRemoved           = "CATALOGUE_REMOVED"
	CatalogueMoved             = "CATALOGUE_MOVED"
	ProjectionRemoved          = "PROJECTION_REMOVED"
	CategoryRemoved            = "CATEGORY_REMOVED"
)

// Rules documents every rule, by tier, then in the order a reviewer meets
// them. docs/compat.md is written from it and waivers are checked against
// it.
var Rules = []Rule{
	{NumReassigned, Wire, Break, "A num now identifies a different code than in the base, or one that the base reserved."},
	{CodeRenumbered, Wire, Break, "A code now has a different num than in the base."},
	{VariantRemovedUnreserved, Wire, Break, "A variant was removed without adding its num and code to reserved."},
	{ReservedRemoved, Wire, Break, "A num or code was removed from reserved: reserved lists only grow."},
	{CodeCaseChanged, Wire, Break, "The catalogue's code_case changed: every code is spelled anew, as if each variant were recoded. It is reported at code_case, or, in a catalogue that leaves it to its default, at package, beside which it is written. Or a code moved to a catalogue of the registry with another code_case, and is spelled anew there (the finding is that catalogue's, at the code)."},
	{CatalogueRemoved, Wire, Break, "A catalogue is no longer in the registry: its codes and nums, sub-codes and reserved ones included, are free for another catalogue to take; a code it reserved that another catalogue now uses is reused."},
	{RangeShrunk, Wire, Break, "A registry range no longer covers a num its catalogue used or reserved in base: another catalogue could take the num."},
	{CodeMoved, Wire, Note, "A code moved from one catalogue of the registry to another; the catalogue it left must reserve its old num unless the num moved too (VARIANT_REMOVED_UNRESERVED otherwise)."},
	{OwnerChanged, Wire, Note, "A catalogue of the registry has another owner."},
	{CatalogueMoved, Wire, Note, "A catalogue of the registry is listed under another path: it is compared with itself at its old path."},
	{SubcodeRemovedUnreserved, Wire, Break, "A sub-code was removed (or moved to another variant) without adding it to reserved codes."},

	{PayloadTypeChanged, JSON, Break, "The payload_type of a variant's family changed or was removed, or was added while the catalogue selects mcp, anthropic or openai, whose tool results then show the model the payload instead of the wire form."},
	{PayloadFieldRemoved, JSON, Break, "A payload field was removed: its key leaves the payload (and the Go struct)."},
	{PayloadFieldRenamed, JSON, Break, "A payload field was renamed: its key in the payload changed (and its Go name)."},
	{PayloadFieldRetyped, JSON, Break, "A payload field changed type: its value in the payload changed (and its Go type)."},
	{PayloadFieldDropped, JSON, Break, "A field lost its payload flag: its key leaves the payload."},
	{FieldRemoved, JSON, Break, "A field that is not in the payload was removed: its key leaves the wire form (and the Go struct)."},
	{FieldRenamed, JSON, Break, "A field that is not in the payload was renamed: its key in the wire form changed (and its Go name)."},
	{FieldRetyped, JSON, Break, "A field that is not in the payload changed type: its value in the wire form changed (and its Go type)."},
	{UnitChanged, JSON, Break, "A duration field's unit changed, or it became or stopped being the retry_after field, whose number alone is rounded up to the unit: its number in payloads, wire forms, logs and messages changes. Not for a sensitive field, whose number is never shown."},
	{ProblemTypeChanged, JSON, Break, "The problem projection's type_base changed: every problem document's type URI, which clients match on, changes."},
	{ProblemStatusChanged, JSON, Break, "A variant's problem documents have another HTTP status (its first http_status from 400 to 599, or the catalogue's problem status, changed)."},
	{GRPCCodeChanged, JSON, Break, "A variant's gRPC status has another canonical code (its grpc_code or its family's changed), or the ErrorInfo domain changed."},
	{MCPKindChanged, JSON, Break, "MCP answers a variant otherwise: with a tool result instead of a JSON-RPC error, or with another error code (mcp_error)."},
	{SensitiveAdded, JSON, Break, "A field became sensitive: its key leaves the wire form (and the payload), and logs show [REDACTED] instead of its value."},
	{PayloadFieldOrderChanged, JSON, Note, "A variant's payload fields come in another order: the payload's bytes change (and the wire form's), its meaning does not."},
	{FieldOrderChanged, JSON, Note, "A variant's fields come in another order, its payload fields not: the keys of its wire form and the attributes of its log come in another order, as do its Go struct's fields; the meaning does not change."},

	{FamilyChanged, Semantics, Break, "A variant moved to another family."},
	{CategoryChanged, Semantics, Break, "A variant's category changed."},
	{RetryableChanged, Semantics, Break, "A variant's retryable or retryable_from_cause changed."},
	{SuppressRetryChanged, Semantics, Break, "A variant's suppress_retry changed."},
	{NonFatalChanged, Semantics, Break, "A variant's non_fatal changed, and so its class."},
	{RetryAfterDropped, Semantics, Break, "A variant no longer has a retry_after field, or another field took the flag: callers stop waiting."},
	{HTTPStatusFieldDropped, Semantics, Break, "A variant no longer has an http_status field, or another field took the flag: FromHTTP and Classify stop setting the field callers read the HTTP status from."},
	{SuppressionKeyChanged, Semantics, Break, "A variant's suppression_key template changed or was removed, or it renders a cause of a family of the catalogue (or of another of the registry) whose message (the cause's text) renders otherwise, reworded or with a duration in another unit or rounded otherwise: repeats group differently."},
	{HTTPStatusRemoved, Semantics, Break, "An HTTP status was removed from a variant's http_status, or the variant no longer stands for a status it still lists because another variant's more specific http_status takes it, or a variant that stood for statuses was removed (retired or not; a waiver of its removal does not cover this): LookupHTTPStatus and FromHTTP give another variant for them, or none."},
	{MessagePlaceholdersChanged, Semantics, Break, "The placeholders of a variant's message changed."},
	{MessageReworded, Semantics, Note, "A variant's message was reworded with the same placeholders."},
	{ConfigurableRemoved, Semantics, Break, "A variant is no longer configurable: a ClassPolicy that names it is refused at start-up."},
	{AttributeChanged, Semantics, Break, "A variant's value of a custom attribute changed, set on it, on its family or by the default (a changed default is one finding, at the declaration)."},
	{RequiredFieldsChanged, Semantics, Note, "A variant's static required_fields changed: the model is told other parameters."},
	{MappingChanged, Semantics, Break, "A variant converts into another variant of its family's maps_to family (its own maps_to, or the default it takes)."},
	{ClassifyRuleRemoved, Semantics, Break, "A match rule was removed, moved to another variant or retired with its variant (as were the http_status entries Classify matched a retired variant by), or a variant's http_status no longer counts in Classify because its cause of type error was retyped or removed, or now comes after a rule of another variant that it came before or that is new (a new is rule comes before every status and contains rule, a new status before every contains rule), or the classify fallback changed: some foreign errors classify differently."},
	{RetryPolicyRemoved, Semantics, Break, "A family, or the catalogue, no longer has a retry policy, or its policy now allows no retries (max_retries: 0), or a variant moved to a family that has none: RetryDelay stops retrying its errors (the catalogue's: an error whose code it does not know; RetryDelay is gone when nothing has one)."},
	{SensitiveRemoved, Semantics, Break, "A field is no longer sensitive: a value that was never sent or logged now reaches the wire form, logs and fmt's output."},
	{RetryPolicyChanged, Semantics, Note, "A family's retry policy, or the catalogue's, changed, or a variant moved to a family with another one: its errors are retried more or less often, sooner or later."},

	{GoFieldChanged, Go, Break, "A field changed where no payload or wire form shows it: a sensitive field was removed, renamed or retyped, or a field's type changed between int and int64, whose JSON is the same."},
	{GoNameChanged, Go, Break, "A generated Go name (the variant's type or its family's interface) changed while the code stayed."},
	{PackageRenamed, Go, Break, "The catalogue's package changed: every import of the generated package breaks."},
	{InstanceHintRemoved, Go, Break, "A variant no longer lets an instance override a hint (or select a sub-code): its struct field is gone."},
	{CategoryRemoved, Go, Break, "A category was removed: its Category constant is gone from the generated package."},
	{AttributeRemoved, Go, Break, "A custom attribute, or a value of an enum attribute, was removed, or its type changed: its generated names change."},
	{MappingRemoved, Go, Break, "A family no longer converts into the family it mapped to: its <To>From<Family> function is gone."},
	{ProjectionRemoved, Go, Break, "The catalogue no longer selects a projection: its functions are gone from the generated package."},
	{ClassifyRemoved, Go, Break, "The catalogue no longer has a classify section: Classify is gone."},
}

// WholeCatalogueRules are the rules whose findings can be about the
// whole catalogue rather than a code or a family: a waiver of one of them
// names neither.
var WholeCatalogueRules = []string{
	PackageRenamed, CodeCaseChanged, ProjectionRemoved, ProblemTypeChanged,
	ProblemStatusChanged, GRPCCodeChanged, ClassifyRemoved, AttributeRemoved,
	CategoryRemoved, RetryPolicyRemoved, AttributeChanged,
}

// LookupRule returns the rule with the given ID.
func LookupRule(id string) (Rule, bool) {
	i := slices.IndexFunc(Rules, func(r Rule) bool { return r.ID == id })
	if i < 0 {
		return Rule{}, false
	}
	return Rules[i], true
}

// nearestRule returns the rule ID closest to id: within three edits, or
// else the only one that contains it; "" when none is close.
func nearestRule(id string) string {
	up := strings.ToUpper(id)
	ids := make([]string, len(Rules))
	var containing []string
	for i, r := range Rules {
		ids[i] = r.ID
		if len(up) >= 4 && strings.Contains(r.ID, up) {
			containing = append(containing, r.ID)
		}
	}
	if best := diag.Closest(up, ids, 3); best != "" {
		return best
	}
	if len(containing) == 1 {
		return containing[0]
	}
	return ""
}
