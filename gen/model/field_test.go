package model

import (
	"slices"
	"testing"
)

// TestFieldKeys pins the keys explain lists for a field, each from the
// flag it stands for, in the catalogue's spelling.
func TestFieldKeys(t *testing.T) {
	for _, tc := range []struct {
		f    Field
		want []string
	}{
		{Field{}, nil},
		{Field{Payload: true, Type: Type{Kind: String}}, []string{"payload"}},
		{Field{RetryAfter: true, Type: Type{Kind: Duration}}, []string{"retry_after"}},
		{Field{HTTPStatus: true, Type: Type{Kind: Int}}, []string{"http_status"}},
		{Field{Retryable: true, Type: Type{Kind: Bool}}, []string{"retryable"}},
		{Field{Sensitive: true, Type: Type{Kind: String}}, []string{"sensitive"}},
		{Field{Type: Type{Kind: Error}}, []string{"cause"}},
	} {
		if got := tc.f.Keys(); !slices.Equal(got, tc.want) {
			t.Errorf("Keys of %+v = %q, want %q", tc.f, got, tc.want)
		}
	}
}
