// Package names converts catalogue names to Go identifiers and says which
// identifiers the generated package already uses.
package names

import (
	"go/token"
	"regexp"
	"slices"
	"strings"
)

// initialisms are the words Go spells in capitals (the list Go's own
// linters use, plus LLM). A field named tool_id becomes ToolID, not ToolId.
var initialisms = map[string]bool{
	"acl": true, "api": true, "ascii": true, "cpu": true, "css": true, "dns": true,
	"eof": true, "guid": true, "html": true, "http": true, "https": true, "id": true,
	"ip": true, "json": true, "llm": true, "lhs": true, "qps": true, "ram": true,
	"rhs": true, "rpc": true, "sla": true, "smtp": true, "sql": true, "ssh": true,
	"tcp": true, "tls": true, "ttl": true, "udp": true, "ui": true, "uid": true,
	"uuid": true, "uri": true, "url": true, "utf8": true, "vm": true, "xml": true,
	"xmpp": true, "xsrf": true, "xss": true,
}

// The patterns of catalogue names, as the diagnostics and the docs quote
// them.
const (
	// CodePattern is what codes, categories and payload types match.
	CodePattern = `^[a-z][a-z0-9_]*$`
	// UpperCodePattern is what codes match in a catalogue whose code_case
	// is upper_snake.
	UpperCodePattern = `^[A-Z][A-Z0-9_]*$`
	// ExportedPattern is what family and variant names match.
	ExportedPattern = `^[A-Z][A-Za-z0-9]*$`
	// SnakePattern is what field names match.
	SnakePattern = `^[a-z][a-z0-9]*(_[a-z0-9]+)*$`
	// LocalePattern is what a BCP 47 language tag matches (RFC 5646's
	// well-formed langtag, or a private-use tag; no grandfathered tags):
	// en-US, zh-Hant-TW, es-419, en-u-ca-gregory, en-US-x-twain.
	LocalePattern = `^([A-Za-z]{2,3}(-[A-Za-z]{3}){0,3}|[A-Za-z]{4,8})(-[A-Za-z]{4})?(-([A-Za-z]{2}|[0-9]{3}))?(-([A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*(-[0-9A-WY-Za-wy-z](-[A-Za-z0-9]{2,8})+)*(-[Xx](-[A-Za-z0-9]{1,8})+)?$|^[Xx](-[A-Za-z0-9]{1,8})+$`
	// PackagePattern is what the package name matches.
	PackagePattern = `^[a-z][a-z0-9]*$`
	// RulePattern is what a compat rule ID matches.
	RulePattern = `^[A-Z][A-Z0-9_]*$`
)

var (
	snakeRE    = regexp.MustCompile(SnakePattern)
	exportedRE = regexp.MustCompile(ExportedPattern)
	codeRE     = regexp.MustCompile(CodePattern)
	upperRE    = regexp.MustCompile(UpperCodePattern)
	packageRE  = regexp.MustCompile(PackagePattern)
	ruleRE     = regexp.MustCompile(RulePattern)
)

// IsRule reports whether s is shaped like a compat rule ID.
func IsRule(s string) bool { return ruleRE.MatchString(s) }

// IsSnake reports whether s is a snake_case name: lower-case ASCII words
// joined by single underscores.
func IsSnake(s string) bool { return snakeRE.MatchString(s) }

// IsExported reports whether s is an exported ASCII Go identifier.
// Underscores are refused: Go names are MixedCaps.
func IsExported(s string) bool { return exportedRE.MatchString(s) }

// IsCode reports whether s is a valid error code.
func IsCode(s string) bool { return codeRE.MatchString(s) }

// IsUpperCode reports whether s is a valid upper_snake error code.
func IsUpperCode(s string) bool { return upperRE.MatchString(s) }

// IsPackage reports whether s is a usable Go package name: lower-case ASCII
// letters and digits, not a keyword, not a predeclared identifier, not main
// (which cannot be imported), not init (which no file can import under its
// own name) and not documentation (whose files the go command ignores, as
// it does every file of a package so named).
func IsPackage(s string) bool {
	return packageRE.MatchString(s) && !token.IsKeyword(s) && !slices.Contains(Predeclared, s) &&
		s != "main" && s != "init" && s != "documentation"
}

// Predeclared are Go's predeclared identifiers (the universe scope) that a
// package name could spell. A package named like one of them compiles, but
// every file that imports it under that name loses the builtin: `import
// "example.com/errors/string"` hides the type string. The list is fixed
// rather than read from the running Go, so whether a catalogue is valid does
// not depend on the Go version errgen was built with.
var Predeclared = []string{
	"any", "append", "bool", "byte", "cap", "clear", "close", "comparable",
	"complex", "complex64", "complex128", "copy", "delete", "error", "false",
	"float32", "float64", "imag", "int", "int8", "int16", "int32", "int64",
	"iota", "len", "make", "max", "min", "new", "nil", "panic", "print",
	"println", "real", "recover", "rune", "string", "true", "uint", "uint8",
	"uint16", "uint32", "uint64", "uintptr",
}

// Go converts a snake_case name to an exported Go identifier:
// retry_after_ms → RetryAfterMs, tool_id → ToolID, http_status → HTTPStatus.
func Go(snake string) string {
	var b strings.Builder
	for _, w := range strings.Split(snake, "_") {
		if w == "" {
			continue
		}
		if initialisms[w] {
			b.WriteString(strings.ToUpper(w))
			continue
		}
		b.WriteString(strings.ToUpper(w[:1]))
		b.WriteString(w[1:])
	}
	return b.String()
}

// Camel converts a snake_case name to lowerCamelCase, as JavaScript
// spells member names: status_code → statusCode, retry_after_ms →
// retryAfterMs, tool_id → toolId (no Go initialisms). A word that starts
// with a digit stays as it is: a_1b → a1b.
func Camel(snake string) string {
	var b strings.Builder
	for _, w := range strings.Split(snake, "_") {
		if w == "" {
			continue
		}
		if b.Len() > 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		}
		b.WriteString(w)
	}
	return b.String()
}

// helperPrefix starts the name of each family's generated helper.
const helperPrefix = "As"

// FamilyHelper is the name of the generated function that finds a family's
// error in a wrap chain.
func FamilyHelper(family string) string { return helperPrefix + family }

// HelperFamily is FamilyHelper backwards: the family whose helper would be
// named name, and whether name has a helper's form at all.
func HelperFamily(name string) (string, bool) { return strings.CutPrefix(name, helperPrefix) }
