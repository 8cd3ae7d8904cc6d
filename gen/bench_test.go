package gen_test

import (
	"fmt"
	"go/format"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/errgen/errgen/gen"
	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/golang"
	"github.com/errgen/errgen/gen/load"
	"github.com/errgen/errgen/gen/model"
	"github.com/errgen/errgen/gen/oracle"
	"github.com/errgen/errgen/gen/synth"
)

// benchSizes are the catalogue sizes of BENCHMARKS.md.
var benchSizes = []int{100, 1000, 10000}

// BenchmarkGen times each stage of errgen on synthetic catalogues, and the
// floor beside them: the least any generator of the same output must do,
// decoding the same YAML into a yaml.Node and running go/format.Source on
// the very Go files errgen writes. BENCHMARKS.md reports generate/floor;
// compare the two columns with
//
//	benchstat -col /stage -row /n -filter '/stage:(floor OR generate)' file
//
// The stages:
//
//	yaml      the floor's first half: yaml.Unmarshal into a yaml.Node
//	format    the floor's second half: go/format.Source on each Go file written
//	floor     yaml + format
//	load      load.Load: YAML to the syntax tree, with every form check
//	resolve   model.Resolve on the loaded catalogue: every check, and the model
//	emit      golang.Emit: the Go files, formatted
//	golden    oracle.Golden for every variant
//	generate  gen.Parse + gen.Generate: everything errgen generate computes
func BenchmarkGen(b *testing.B) {
	for _, n := range benchSizes {
		// The inputs are built on first use, so -bench n=100 does not pay
		// for generating the 10 000-variant catalogue.
		var (
			src     []byte
			m       *model.Catalogue
			cat     *ast.Catalogue
			goFiles [][]byte
		)
		setup := func(b *testing.B) {
			if src != nil {
				return
			}
			src = synth.Catalogue(n)
			var diags diag.List
			if m, diags = gen.Parse("errors.yaml", src); m == nil {
				b.Fatalf("synthetic catalogue of %d variants: %v", n, diags)
			}
			files, err := gen.Generate(m)
			if err != nil {
				b.Fatal(err)
			}
			for _, f := range files {
				if strings.HasSuffix(f.Path, ".go") {
					goFiles = append(goFiles, f.Data)
				}
			}
			cat, _ = load.Load("errors.yaml", src)
		}
		run := func(stage string, f func(b *testing.B)) {
			b.Run(fmt.Sprintf("n=%d/stage=%s", n, stage), func(b *testing.B) {
				setup(b)
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					f(b)
				}
			})
		}
		decodeYAML := func(b *testing.B) {
			var node yaml.Node
			if err := yaml.Unmarshal(src, &node); err != nil {
				b.Fatal(err)
			}
		}
		formatGo := func(b *testing.B) {
			for _, data := range goFiles {
				if _, err := format.Source(data); err != nil {
					b.Fatal(err)
				}
			}
		}
		run("floor", func(b *testing.B) { decodeYAML(b); formatGo(b) })
		run("generate", func(b *testing.B) {
			m, diags := gen.Parse("errors.yaml", src)
			if m == nil {
				b.Fatal(diags)
			}
			if _, err := gen.Generate(m); err != nil {
				b.Fatal(err)
			}
		})
		run("yaml", decodeYAML)
		run("format", formatGo)
		run("load", func(b *testing.B) {
			if c, diags := load.Load("errors.yaml", src); c == nil || len(diags) > 0 {
				b.Fatal(diags)
			}
		})
		run("resolve", func(b *testing.B) {
			if m, diags := model.Resolve(cat); m == nil || len(diags) > 0 {
				b.Fatal(diags)
			}
		})
		run("emit", func(b *testing.B) {
			if _, err := golang.Emit(m); err != nil {
				b.Fatal(err)
			}
		})
		run("golden", func(b *testing.B) {
			for _, v := range m.Variants {
				if _, err := oracle.Golden(m, v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
