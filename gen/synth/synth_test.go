package synth_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/synth"
)

func TestCatalogueIsValid(t *testing.T) {
	for _, n := range []int{1, 7, 100, 250, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			m, diags := gen.Parse("synth.yaml", synth.Catalogue(n))
			if len(diags) > 0 || m == nil {
				t.Fatalf("synthetic catalogue of %d variants has problems:\n%v", n, diags)
			}
			if len(m.Variants) != n {
				t.Errorf("got %d variants, want %d", len(m.Variants), n)
			}
		})
	}
}

func TestCatalogueIsDeterministic(t *testing.T) {
	if !bytes.Equal(synth.Catalogue(300), synth.Catalogue(300)) {
		t.Error("two builds of the same size differ")
	}
}
