// This file is written by hand, not generated: errgen never deletes or
// overwrites a file without its generated-file line. It checks the word-at-
// a-time scan of the runtime's JSON string encoder, which the fuzz tests
// reach only through whole payloads.

package agenterr

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestSafePrefix puts every byte value at every position of a word of safe
// bytes: safePrefix may call a safe word unsafe, never an unsafe one safe.
func TestSafePrefix(t *testing.T) {
	for b := 0; b < 256; b++ {
		for pos := 0; pos < 8; pos++ {
			for _, fill := range []byte{'a', ' ', '~', '!', '=', '?'} {
				w := []byte(strings.Repeat(string(fill), 8))
				w[pos] = byte(b)
				if safePrefix(w) == 8 && !jsonSafe[b] {
					t.Fatalf("safePrefix(%q) passes it, but %#x needs escaping", w, b)
				}
			}
		}
	}
	if safePrefix([]byte("plain ok")) != 8 {
		t.Error("safePrefix refuses a plain ASCII word")
	}
}

// TestCloseString checks the in-place quoting of rendered text against
// encoding/json, for every byte value at every position of texts that are
// shorter, as long as, and longer than a word.
func TestCloseString(t *testing.T) {
	for _, n := range []int{1, 7, 8, 9, 17, 30} {
		for pos := 0; pos < n; pos++ {
			for b := 0; b < 256; b++ {
				text := []byte(strings.Repeat("x", n))
				text[pos] = byte(b)
				want, _ := json.Marshal(string(text))
				dst := append([]byte(`{"error":"`), text...)
				got := closeString(dst, len(`{"error":"`))
				if string(got) != `{"error":`+string(want) {
					t.Fatalf("closeString(%q) = %s, want %s", text, got[len(`{"error":`):], want)
				}
			}
		}
	}
}
