// Package gen runs errgen's pipeline: load a catalogue, check it, build the
// resolved model. The emitters and commands start from its result.
package gen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/errgen/errgen/gen/compat"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/golang"
	"github.com/errgen/errgen/gen/load"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/oracle"
)

// Parse loads src, the contents of file, and resolves it into its model.
// The model is nil when any diagnostic is an error; warnings come back with
// a model. The list is sorted by position.
func Parse(file string, src []byte) (*model.Catalogue, diag.List) {
	return ParseWith(file, src, nil)
}

// ParseWith is Parse for a catalogue of a registry, whose fields may have
// the types of families of other catalogues, which imp provides.
func ParseWith(file string, src []byte, imp model.Importer) (*model.Catalogue, diag.List) {
	cat, diags := load.Load(file, src)
	if cat == nil {
		return nil, diags.Sort()
	}
	// Resolve even a catalogue with form errors: values of the wrong form
	// are left unset and skipped, so the rest is still reported in one run.
	m, more := model.ResolveWith(cat, imp)
	diags = append(diags, more...)
	if m != nil {
		// The waivers name rules, which belong to compat.
		diags = append(diags, compat.CheckWaivers(m)...)
	}
	diags = diags.Sort()
	if diags.HasErrors() {
		return nil, diags
	}
	return m, diags
}

// File is one file Generate produces, its path relative to the output
// folder.
type File struct {
	Path string
	Data []byte
	// CreateOnly marks a file errgen writes only when it is missing: the
	// golden files of the generated tests belong to the user once created,
	// so a wire change shows as a failing test and a reviewable diff.
	CreateOnly bool
}

// Generate returns every file for the catalogue m, sorted by path. It writes
// nothing: the generate command writes the files, --check compares them.
func Generate(m *model.Catalogue) ([]File, error) {
	code, err := golang.Emit(m)
	if err != nil {
		return nil, fmt.Errorf("errgen: internal error: %w", err)
	}
	var files []File
	for name, data := range code {
		files = append(files, File{Path: name, Data: data})
	}
	for _, v := range m.Variants {
		g, err := oracle.Golden(m, v)
		if err != nil {
			return nil, fmt.Errorf("errgen: internal error: golden file of %s: %w", v.Code, err)
		}
		files = append(files, File{Path: "testdata/" + v.ExampleCode() + model.GoldenSuffix, Data: g, CreateOnly: true})
	}
	slices.SortFunc(files, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return files, nil
}

// GenerateGRPC returns errgen_grpc.go, the opt-in file of gRPC's status
// type, for a catalogue that selects the grpc projection.
func GenerateGRPC(m *model.Catalogue) (File, error) {
	data, err := golang.EmitGRPC(m)
	if err != nil {
		return File{}, err
	}
	return File{Path: golang.GRPCFile, Data: data}, nil
}
