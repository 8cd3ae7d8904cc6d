// Package names converts catalogue names to Go identifiers and says which
// identifiers the generated package already uses.
package names

import (
	"go/token"
	"regexp"
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

var (
	snakeRE    = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	exportedRE = regexp.MustCompile(`^[A-Z][A-Za-z0-9]*$`)
	codeRE     = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	packageRE  = regexp.MustCompile(`^[a-z][a-z0-9]*$`)
)

// IsSnake reports whether s is a snake_case name: lower-case ASCII words
// joined by single underscores.
func IsSnake(s string) bool { return snakeRE.MatchString(s) }

// IsExported reports whether s is an exported ASCII Go identifier.
// Underscores are refused: Go names are MixedCaps.
func IsExported(s string) bool { return exportedRE.MatchString(s) }

// IsCode reports whether s is a valid error code.
func IsCode(s string) bool { return codeRE.MatchString(s) }

// IsPackage reports whether s is a usable Go package name: lower-case ASCII
// letters and digits, not a keyword, and not main (which cannot be imported).
func IsPackage(s string) bool {
	return packageRE.MatchString(s) && !token.IsKeyword(s) && s != "main"
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

// Methods are the methods every generated variant has. A field whose Go name
// is one of these would not compile.
var Methods = []string{
	"Error", "Unwrap", "Code", "CodeNum", "Category", "Retryable", "SuppressRetry",
	"SuppressionKey", "LLMPayload", "AppendLLMPayload", "UserMessage", "Class",
	"LogValue",
}

// PackageScope are the identifiers the generated package declares besides
// the catalogue's own families and variants.
var PackageScope = []string{
	"Info", "Class", "ClassUnknown", "ClassTerminal", "ClassRetryable", "ClassNonFatal",
	"Payload", "RemoteError", "DecodePayload", "Lookup", "LookupNum", "LookupHTTPStatus",
	"All", "IsRetryable", "CodeOf", "ClassOf", "RetryAfterOf", "UserMessageOf",
}

// FamilyHelper is the name of the generated function that finds a family's
// error in a wrap chain.
func FamilyHelper(family string) string { return "As" + family }
