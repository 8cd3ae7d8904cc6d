package model

import (
	"slices"
	"testing"
)

// TestProjectionNamesAreReserved: every name a projection declares is in
// PackageScope, so a catalogue cannot take it whether or not it selects
// the projection.
func TestProjectionNamesAreReserved(t *testing.T) {
	for _, p := range Projections {
		for _, name := range p.Names {
			if !slices.Contains(PackageScope, name) {
				t.Errorf("projection %s declares %s, which PackageScope does not reserve", p.Name, name)
			}
		}
	}
}

// TestProblemStatusIsAnErrorStatus: a variant's problem documents take
// its first http_status from 400 to 599 (the lowest of a range in it): a
// status below classifies a response, but a problem document sent with a
// 1xx would go out as 200, and one with a 2xx or 3xx reads as no error.
func TestProblemStatusIsAnErrorStatus(t *testing.T) {
	c := &Catalogue{ProblemStatus: 503}
	for _, tc := range []struct {
		http []StatusRange
		want int
	}{
		{nil, 503},
		{[]StatusRange{{Lo: 429, Hi: 429}, {Lo: 503, Hi: 503}}, 429},
		{[]StatusRange{{Lo: 103, Hi: 103}, {Lo: 429, Hi: 429}}, 429},
		{[]StatusRange{{Lo: 300, Hi: 499}}, 400},
		{[]StatusRange{{Lo: 200, Hi: 299}, {Lo: 302, Hi: 302}}, 503},
		{[]StatusRange{{Lo: 500, Hi: 599}}, 500},
	} {
		if got := (&Variant{HTTP: tc.http}).ProblemStatus(c); got != tc.want {
			t.Errorf("http_status %v: problem status %d, want %d", tc.http, got, tc.want)
		}
	}
}

// TestLocaleIsABCP47Tag: grpc.locale takes every well-formed BCP 47 tag,
// extensions and private use included, and nothing that is not one.
func TestLocaleIsABCP47Tag(t *testing.T) {
	for _, tag := range []string{"en", "en-US", "zh-Hant-TW", "es-419", "sl-rozaj-biske", "de-CH-1901", "zh-yue-HK",
		"en-u-ca-gregory", "en-US-x-twain", "en-a-bbb-x-a-ccc", "x-private", "EN-us"} {
		if !localeRE.MatchString(tag) {
			t.Errorf("%s is refused", tag)
		}
	}
	for _, tag := range []string{"", "e", "en-", "en--US", "en-a", "en-US-x", "en-x-", "en_US", "12", "toolonglang", "en-US-x-toolongpart"} {
		if localeRE.MatchString(tag) {
			t.Errorf("%s is taken", tag)
		}
	}
}
