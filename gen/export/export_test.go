package export_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/export"
	"github.com/errgen/errgen/gen/jsonschema"
	"github.com/errgen/errgen/gen/model"
)

var update = flag.Bool("update", false, "rewrite golden files")

// siblings resolves the other catalogues of testdata/registry by package,
// as the registry's importer does (model.Importer).
type siblings struct{ t *testing.T }

func (s siblings) Import(from, pkg string) (*model.Catalogue, string, error) {
	c := load(s.t, filepath.Join("..", "..", "testdata", "registry", pkg, "errors.yaml"), pkg+"/errors.yaml")
	return c.Model, "example.com/agents/" + pkg, nil
}

// load resolves the catalogue at path, named name in the export.
func load(t *testing.T, path, name string) export.Catalogue {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	m, diags := gen.ParseWith(name, src, siblings{t})
	if m == nil {
		t.Fatal(diags)
	}
	return export.Catalogue{Model: m}
}

// TestExportGolden: the export of testdata/registry's three catalogues
// (owners and ranges as its registry gives them) and of the reference
// catalogue is testdata/export/*.json, byte for byte, valid against the
// export's schema, and the same on a second run.
func TestExportGolden(t *testing.T) {
	root := filepath.Join("..", "..", "testdata")
	registry := []export.Catalogue{
		load(t, filepath.Join(root, "registry", "tools", "errors.yaml"), "tools/errors.yaml"),
		load(t, filepath.Join(root, "registry", "orchestrator", "errors.yaml"), "orchestrator/errors.yaml"),
		load(t, filepath.Join(root, "registry", "gateway", "errors.yaml"), "gateway/errors.yaml"),
	}
	registry[0].Owner, registry[0].Ranges = "tool-runtime", [][2]int{{1000, 1999}}
	registry[1].Owner, registry[1].Ranges = "orchestrator", [][2]int{{3000, 3499}, {3900, 3999}}
	registry[2].Owner, registry[2].Ranges = "provider-gateway", [][2]int{{2000, 2999}}
	for name, cats := range map[string][]export.Catalogue{
		"registry.json":  registry,
		"reference.json": {load(t, filepath.Join("..", "..", "errors.yaml"), "errors.yaml")},
	} {
		got, err := export.JSON(cats)
		if err != nil {
			t.Fatal(err)
		}
		if again, _ := export.JSON(cats); !bytes.Equal(got, again) {
			t.Errorf("%s: two runs differ", name)
		}
		schemaFile := filepath.Join(t.TempDir(), "export.schema.json")
		if err := os.WriteFile(schemaFile, export.Schema(), 0o644); err != nil {
			t.Fatal(err)
		}
		problems, err := jsonschema.Validate(schemaFile, "", got)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range problems {
			t.Errorf("%s: %s", name, p)
		}
		path := filepath.Join(root, "export", name)
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the export; run go test ./gen/export -update and review the diff", path)
		}
	}
}

// TestSchemaRefuses: the export schema refuses an export with a key it
// does not define and one that lacks a required key, so validating against
// it can fail.
func TestSchemaRefuses(t *testing.T) {
	file := filepath.Join(t.TempDir(), "export.schema.json")
	if err := os.WriteFile(file, export.Schema(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, doc := range []string{
		`{"version":1,"catalogues":[],"extra":true}`,
		`{"version":2,"catalogues":[]}`,
		`{"version":1,"catalogues":[{"file":"a","package":"a","code_case":"snake","errors":[{"code":"x"}],"reserved":{"nums":[],"codes":[]}}]}`,
	} {
		problems, err := jsonschema.Validate(file, "", []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if len(problems) == 0 {
			t.Errorf("the export schema accepts %s", doc)
		}
	}
}

// TestPublishedSchemaIsCurrent: docs/export.schema.json is the schema
// errgen schema --export prints.
func TestPublishedSchemaIsCurrent(t *testing.T) {
	docs, err := os.ReadFile(filepath.Join("..", "..", "docs", "export.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(docs, export.Schema()) {
		t.Error("docs/export.schema.json differs from the export schema; run go run ./cmd/errgen schema --export > docs/export.schema.json")
	}
}

// TestExportRetryAndAttributes: an error's retry policy is its family's
// own over the catalogue's, null for a family of neither, and each
// attribute's value has its type's JSON type.
func TestExportRetryAndAttributes(t *testing.T) {
	const src = `version: 1
package: demo
user_message: Something failed ({code}).
retry: {base: 500ms}
attributes:
  - {name: paging, type: bool, doc: Whether it pages someone., default: false}
  - {name: weight, type: int, doc: How much it counts., default: 1}
  - {name: layer, type: enum, values: [tool, model], doc: Where it starts., default: tool}
categories:
  other: Anything.
families:
  - name: DemoError
    retry: {max_retries: 1, cap: 2s}
    attributes: {paging: true}
    variants:
      - {name: Busy, code: busy, num: 1, category: other, message: busy, retryable: true, attributes: {weight: 3, layer: model}}
`
	m, diags := gen.Parse("errors.yaml", []byte(src))
	if m == nil || diags.HasErrors() {
		t.Fatal(diags)
	}
	got, err := export.JSON([]export.Catalogue{{Model: m}})
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Catalogues []struct {
			Errors []struct {
				Retry      map[string]any `json:"retry"`
				Attributes map[string]any `json:"attributes"`
			} `json:"errors"`
		} `json:"catalogues"`
	}
	if err := json.Unmarshal(got, &doc); err != nil {
		t.Fatal(err)
	}
	e := doc.Catalogues[0].Errors[0]
	wantRetry := map[string]any{"max_retries": 1.0, "base_ms": 500.0, "cap_ms": 2000.0, "jitter": 0.2}
	wantAttrs := map[string]any{"layer": "model", "paging": true, "weight": 3.0}
	if diff := cmp.Diff(wantRetry, e.Retry); diff != "" {
		t.Errorf("retry (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantAttrs, e.Attributes); diff != "" {
		t.Errorf("attributes (-want +got):\n%s", diff)
	}
}
