package load

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// A list item whose mapping repeats its first key is taken for two items,
// the "- " before the second forgotten: one error at the repeated key,
// none for the other keys the second item repeats, and the second item
// stands as one that could not be read. A key other than the first given
// twice, and a flow mapping, are duplicate keys as before.
func TestForgottenDashIsOneError(t *testing.T) {
	const head = "version: 1\npackage: p\ncategories: {c: C.}\nfamilies:\n  - name: F\n    variants:\n"
	const hint = `; did you forget "- " to start a new item?`
	for _, tc := range []struct {
		name, variants string
		want           []string
		variantsRead   int
	}{
		{"second variant", "      - name: A\n        code: a\n        num: 1\n        category: c\n        message: m\n        name: B\n        code: b\n        num: 2\n        category: c\n        message: m\n",
			[]string{`errors.yaml:12:9: duplicate key "name" in a variant (first at 7:9)` + hint}, 2},
		{"head lacks a key the tail holds", "      - name: A\n        code: a\n        num: 1\n        name: B\n        category: c\n        message: m\n",
			[]string{`errors.yaml:10:9: duplicate key "name" in a variant (first at 7:9)` + hint}, 2},
		{"three items in one", "      - name: A\n        code: a\n        name: B\n        code: b\n        name: C\n        code: c\n",
			[]string{`errors.yaml:9:9: duplicate key "name" in a variant (first at 7:9)` + hint}, 2},
		{"another key twice", "      - name: A\n        code: a\n        num: 1\n        category: c\n        message: m\n        code: b\n        name: B\n",
			[]string{`errors.yaml:12:9: duplicate key "code" in a variant (first at 8:9)`, `errors.yaml:13:9: duplicate key "name" in a variant (first at 7:9)`}, 1},
		{"flow mapping", "      - {name: A, code: a, num: 1, category: c, message: m, name: B}\n",
			[]string{`errors.yaml:7:61: duplicate key "name" in a variant (first at 7:10)`}, 1},
	} {
		cat, diags, _ := load("errors.yaml", []byte(head+tc.variants))
		var got []string
		for _, d := range diags {
			got = append(got, d.String())
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
		if cat == nil || len(cat.Families) != 1 || len(cat.Families[0].Variants) != tc.variantsRead {
			t.Errorf("%s: want %d variants read", tc.name, tc.variantsRead)
		}
	}
}

// A registry entry whose "- " is forgotten is one error too.
func TestForgottenDashInRegistry(t *testing.T) {
	src := "version: 1\ncatalogues:\n  - path: a/errors.yaml\n    owner: a\n    nums: [[1, 9]]\n    path: b/errors.yaml\n    owner: b\n    nums: [[10, 19]]\n"
	reg, diags := LoadRegistry("errgen.registry.yaml", []byte(src))
	want := `errgen.registry.yaml:6:5: duplicate key "path" in a registry entry (first at 3:5); did you forget "- " to start a new item?`
	if len(diags) != 1 || diags[0].String() != want {
		t.Errorf("got %v\nwant %s", diags, want)
	}
	if reg == nil || len(reg.Catalogues) != 2 {
		t.Errorf("want two entries read")
	}
}

// repeatsKey finds a key given twice in a mapping of any size.
func TestRepeatsKey(t *testing.T) {
	content := func(keys ...string) []*yaml.Node {
		var out []*yaml.Node
		for _, k := range keys {
			out = append(out, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, &yaml.Node{Kind: yaml.ScalarNode, Value: k})
		}
		return out
	}
	many := make([]string, 100)
	for i := range many {
		many[i] = strconv.Itoa(i)
	}
	for _, tc := range []struct {
		keys []string
		want bool
	}{
		{nil, false},
		{[]string{"a", "b", "c"}, false},
		{[]string{"a", "b", "a"}, true},
		{many, false},
		{append(slices.Clone(many), "42"), true},
	} {
		if got := repeatsKey(content(tc.keys...)); got != tc.want {
			t.Errorf("repeatsKey(%d keys) = %v, want %v", len(tc.keys), got, tc.want)
		}
	}
}
