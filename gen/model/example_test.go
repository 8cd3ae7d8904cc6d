package model_test

import (
	"testing"

	"github.com/errgen/errgen/gen/load"
	"github.com/errgen/errgen/gen/model"
)

// TestHTTPStatusFieldExample: an http_status field without an example
// takes a status its variant stands for (the lowest of its first
// http_status entry), not the position other int fields take, so golden
// files and docs show a status; an example written out is kept, and a
// variant without an http_status list keeps the position.
func TestHTTPStatusFieldExample(t *testing.T) {
	for _, tc := range []struct {
		name, list, example string
		want                int64
	}{
		{"one status", "[429]", "", 429},
		{"class first", `["5xx", 429]`, "", 500},
		{"range first", `["502-504"]`, "", 502},
		{"example kept", "[429]", ", example: 418", 418},
		{"no list", "", "", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			list := ""
			if tc.list != "" {
				list = "\n        http_status: " + tc.list
			}
			src := `version: 1
package: p
categories:
  server: The provider failed on its side.
families:
  - name: ProviderError
    doc: Errors of a provider call.
    user_message: The provider failed.
    variants:
      - name: Failed
        code: failed
        num: 1
        category: server
        message: "failed with {status}"` + list + `
        fields:
          - {name: provider, type: string, doc: The provider.}
          - {name: status, type: int, http_status: true, doc: The status.` + tc.example + `}
`
			ac, errs := load.Load("errors.yaml", []byte(src))
			if errs.HasErrors() {
				t.Fatal(errs)
			}
			cat, errs := model.Resolve(ac)
			if errs.HasErrors() {
				t.Fatal(errs)
			}
			f := cat.Families[0].Variants[0].Fields[1]
			if f.Example.Int != tc.want {
				t.Errorf("example of the http_status field: %d, want %d", f.Example.Int, tc.want)
			}
		})
	}
}
