package model

import (
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Redacted is what a sensitive field's value shows as in logs and in fmt's
// output, and what the built-in scrubber writes in place of a secret.
const Redacted = "[REDACTED]"

// SecretWords are the words that make a name look like it holds a secret:
// lint warns about a field named with one that does not say whether it is
// sensitive, and the generated package's built-in scrubber redacts the
// value of a URL query parameter named with one. A name is split into
// lower-case words at underscores, hyphens, dots and case changes; it
// looks secret when one word, or two neighbouring words joined, is listed
// here (api_key, apiKey and API-KEY all give "apikey"), unless its last word
// is one of QuantityWords.
var SecretWords = []string{
	"accesskey", "apikey", "auth", "authorization", "bearer", "cookie", "credential", "credentials",
	"jwt", "passphrase", "passwd", "password", "privatekey", "secret", "session", "sessionid",
	"sig", "signature", "token",
}

// QuantityWords end names that count, limit or describe a secret rather
// than hold it: token_count, session_ttl, auth_type.
var QuantityWords = []string{
	"at", "budget", "count", "expiry", "expires", "kind", "len", "length", "limit", "max",
	"method", "min", "name", "remaining", "scheme", "size", "total", "ttl", "type", "usage", "used",
}

// LooksSecret reports whether a field or parameter name looks like it holds
// a secret; see SecretWords.
func LooksSecret(name string) bool {
	words := splitWords(name)
	if len(words) == 0 || (len(words) > 1 && slices.Contains(QuantityWords, words[len(words)-1])) {
		return false
	}
	for i, w := range words {
		if slices.Contains(SecretWords, w) {
			return true
		}
		if i > 0 && slices.Contains(SecretWords, words[i-1]+w) {
			return true
		}
	}
	return false
}

// splitWords splits a name into lower-case words at every byte that is
// not an ASCII letter or digit (bytes of other scripts count as letters),
// and before an upper-case letter that follows a lower-case one or starts
// a capitalised word (APIKey → api, key).
func splitWords(name string) []string {
	var words []string
	start := -1
	for i := 0; i <= len(name); i++ {
		var c byte
		if i < len(name) {
			c = name[i]
		}
		alnum := isLower(c) || isUpper(c) || '0' <= c && c <= '9' || c >= utf8.RuneSelf
		split := !alnum || isUpper(c) && start >= 0 && i > start && (isLower(name[i-1]) ||
			isUpper(name[i-1]) && i+1 < len(name) && isLower(name[i+1]))
		if split && start >= 0 {
			words = append(words, strings.ToLower(name[start:i]))
			start = -1
		}
		if alnum && start < 0 {
			start = i
		}
	}
	return words
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }

// placeholderRE is what a sensitive field's example must be: a placeholder
// in angle brackets, such as <redacted> or <api key>, which no one takes
// for a real value.
var placeholderRE = regexp.MustCompile(`^<[^<>]+>$`)

// SensitivePlaceholder is the example errgen gives a sensitive text field
// that declares none.
const SensitivePlaceholder = "<redacted>"
