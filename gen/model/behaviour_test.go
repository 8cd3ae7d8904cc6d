package model

import (
	"slices"
	"testing"
)

// TestUnknownRetry: an error of a code the catalogue does not know takes
// the catalogue's own policy, which is in the generated table even when
// every family declares its own; without one it has none.
func TestUnknownRetry(t *testing.T) {
	own, other, shared := &RetryPolicy{MaxRetries: 1}, &RetryPolicy{MaxRetries: 2}, &RetryPolicy{MaxRetries: 3}
	for _, c := range []struct {
		name     string
		cat      *Catalogue
		policies []*RetryPolicy
	}{
		{"none", &Catalogue{Families: []*Family{{}, {}}}, nil},
		{"families' only", &Catalogue{Families: []*Family{{Retry: own}, {}}}, []*RetryPolicy{own}},
		{"the catalogue's, used by a family", &Catalogue{Retry: shared, Families: []*Family{{Retry: own}, {Retry: shared}}}, []*RetryPolicy{own, shared}},
		{"the catalogue's, every family its own", &Catalogue{Retry: shared, Families: []*Family{{Retry: own}, {Retry: other}}}, []*RetryPolicy{own, other, shared}},
	} {
		if got := c.cat.UnknownRetry(); got != c.cat.Retry {
			t.Errorf("%s: UnknownRetry = %v, want the catalogue's %v", c.name, got, c.cat.Retry)
		}
		if got := c.cat.RetryPolicies(); !slices.Equal(got, c.policies) {
			t.Errorf("%s: RetryPolicies = %v, want %v", c.name, got, c.policies)
		}
	}
}
