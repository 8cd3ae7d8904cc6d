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
