// Package gen runs errgen's pipeline: load a catalogue, check it, build the
// resolved model. The emitters and commands start from its result.
package gen

import (
	"github.com/errgen/errgen/gen/check"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/load"
	"github.com/errgen/errgen/gen/model"
)

// Parse loads and checks src, the contents of file, and builds its model.
// The model is nil when any diagnostic is an error; warnings come back with
// a model. The list is sorted by position.
func Parse(file string, src []byte) (*model.Catalogue, diag.List) {
	cat, diags := load.Load(file, src)
	if cat == nil {
		return nil, diags.Sort()
	}
	// Check even a catalogue with form errors: values of the wrong form are
	// left unset and skipped, so the rest is still reported in one run.
	diags = append(diags, check.Check(cat)...).Sort()
	if diags.HasErrors() {
		return nil, diags
	}
	m, err := model.Build(cat)
	if err != nil {
		// The checker accepted something the model cannot resolve: a bug in
		// errgen, reported rather than hidden.
		diags.Errorf(diag.Pos{File: file, Line: 1, Col: 1}, "errgen: internal error: %v", err)
		return nil, diags
	}
	return m, diags
}
