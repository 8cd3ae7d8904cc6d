package model

import (
	"errors"
	"strings"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
)

// Importer gives the resolver the catalogues of other services: a field
// may have the type of a family declared in another catalogue of the
// registry, written PACKAGE.Family (gateway.ProviderError).
type Importer interface {
	// Import returns the resolved catalogue whose package is pkg, which
	// the catalogue of package from imports, and the Go import path of its
	// generated package; or an error that says why there is none (no
	// registry, no such catalogue, an import cycle, or the catalogue's own
	// errors).
	Import(from, pkg string) (*Catalogue, string, error)
}

// EchoError is an Importer's error that repeats the problems of another
// file: a catalogue the import needs that has errors of its own, or the
// registry, whose entry for it cannot be read. Where that file's errors
// are reported too (lint over the registry), the field's error is left
// out: it would say the same a second time (diag.Diagnostic.Echoes).
type EchoError struct {
	// File is the file as diagnostics name it.
	File string
	Err  error
}

func (e *EchoError) Error() string { return e.Err.Error() }
func (e *EchoError) Unwrap() error { return e.Err }

// ImportedType is PACKAGE.Family split, and whether t has that form.
func ImportedType(t string) (pkg, family string, ok bool) {
	pkg, family, ok = strings.Cut(t, ".")
	return pkg, family, ok && pkg != "" && family != ""
}

// ResolveWith is Resolve for a catalogue whose fields may have the types
// of families of other catalogues, which imp provides.
func ResolveWith(cat *ast.Catalogue, imp Importer) (*Catalogue, diag.List) {
	return resolve(cat, imp)
}

// importedFamily resolves a field type PACKAGE.Family through the
// importer, reporting at pos why it cannot.
func (r *resolver) importedFamily(t string, pos diag.Pos) (Type, bool) {
	pkg, name, _ := ImportedType(t)
	if r.imports == nil {
		r.errorf(pos, "field type %s names a family of another catalogue; check and generate this catalogue beside the errgen.registry.yaml that lists both", diag.Quote(t))
		return Type{}, false
	}
	if pkg == r.cat.Package.Value {
		r.errorf(pos, "field type %s names this catalogue's own package; write %s", diag.Quote(t), diag.Quote(name))
		return Type{}, false
	}
	other, path, err := r.imports.Import(r.cat.Package.Value, pkg)
	var echo *EchoError
	switch {
	case errors.As(err, &echo):
		r.diags.Echof(echo.File, pos, "field type %s: %v", diag.Quote(t), err)
		return Type{}, false
	case err != nil:
		r.errorf(pos, "field type %s: %v", diag.Quote(t), err)
		return Type{}, false
	}
	for _, f := range other.Families {
		if f.Name == name {
			return Type{Kind: FamilyKind, Family: f, Name: t, Import: path}, true
		}
	}
	var fams []string
	for _, f := range other.Families {
		fams = append(fams, f.Name)
	}
	r.errorf(pos, "catalogue %s (package %s) has no family %s (families: %s)%s", diag.Quote(other.File), pkg, diag.Quote(name), strings.Join(fams, ", "), suggestFrom(name, fams))
	return Type{}, false
}

// ImportName is the name the generated package imports the package of an
// imported family under: its package name and "errs" (gatewayerrs), so
// that it can clash neither with a standard package the generated code
// imports (a catalogue may be package reflect or time) nor with a name of
// the runtime.
func (t Type) ImportName() string {
	pkg, _, _ := ImportedType(t.Name)
	return pkg + "errs"
}
