package model

import "testing"

// TestIsDeviceName: every name Windows reserves for a device, COM0, LPT0
// and the superscript-digit forms included, in either case; Go's module
// check refuses only those it lists.
func TestIsDeviceName(t *testing.T) {
	for _, tc := range []struct {
		name              string
		device, goRefuses bool
	}{
		{"nul", true, true},
		{"CON", true, true},
		{"com1", true, true},
		{"LPT9", true, true},
		{"com0", true, false},
		{"LPT0", true, false},
		{"COM\u00b9", true, false},
		{"com\u00b2", true, false},
		{"COM\u00b3", true, false},
		{"lpt\u00b9", true, false},
		{"LPT\u00b2", true, false},
		{"lpt\u00b3", true, false},
		{"com10", false, false},
		{"lpt", false, false},
		{"console", false, false},
		{"com\u2074", false, false},
	} {
		device, goRefuses := isDeviceName(tc.name)
		if device != tc.device || goRefuses != tc.goRefuses {
			t.Errorf("isDeviceName(%q) = %v, %v; want %v, %v", tc.name, device, goRefuses, tc.device, tc.goRefuses)
		}
	}
}
