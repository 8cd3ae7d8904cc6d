package load

import (
	"go.yaml.in/yaml/v3"

	"github.com/errgen/errgen/gen/ast"
)

// RegistryKeys are the keys a registry and its entries may have.
var RegistryKeys = map[string][]string{
	"registry": {"version", "catalogues"},
	"entry":    {"path", "owner", "nums", "docs"},
}

func (ld *loader) registry(root *yaml.Node) *ast.Registry {
	reg := &ast.Registry{File: ld.file}
	m, ok := ld.mapping(root, "the registry", RegistryKeys["registry"], "version", "catalogues")
	if !ok {
		return reg
	}
	reg.Keys = ld.keys(m)
	reg.Version = ld.num(get(m, "version"))
	if e, ok := m["catalogues"]; ok {
		if items, isList := ld.items(e, "catalogues"); isList {
			if len(items) == 0 {
				ld.errorf(e.val, "catalogues must list at least one catalogue")
			}
			for _, it := range items {
				reg.Catalogues = append(reg.Catalogues, ld.registryEntry(it))
			}
		}
	}
	return reg
}

func (ld *loader) registryEntry(n *yaml.Node) *ast.RegistryEntry {
	en := &ast.RegistryEntry{Pos: ld.pos(n)}
	m, ok := ld.mapping(n, "a registry entry", RegistryKeys["entry"], "path", "owner", "nums")
	if !ok {
		return en
	}
	en.Keys = ld.keys(m)
	en.Path = ld.str(m, "path", false)
	en.Owner = ld.str(m, "owner", false)
	en.Docs = ld.str(m, "docs", false)
	if e, ok := m["nums"]; ok {
		if items, isList := ld.list(e, "nums"); isList {
			if len(items) == 0 {
				ld.errorf(e.val, "nums must list at least one range [first, last]")
			}
			if flat(items) {
				// One range written as a catalogue's family writes it:
				// one mistake, not one per number.
				ld.errorf(e.val, "nums is a list of ranges, got a list of numbers; write [[first, last]] for one range")
				items = nil
			}
			for _, it := range items {
				r := ast.NumRange{Pos: ld.pos(it)}
				pair := ld.ints(entry{val: it}, true, "a nums range", "nums bound")
				if it.Kind == yaml.SequenceNode && len(it.Content) != 2 {
					ld.errorf(it, "a nums range is two numbers [first, last], got %d", len(it.Content))
				}
				if len(pair) != 2 {
					continue // what is wrong with an item was said
				}
				r.Lo, r.High = pair[0], pair[1]
				en.Nums = append(en.Nums, r)
			}
		}
	}
	return en
}

// flat reports whether items are all scalars: numbers where ranges were
// expected.
func flat(items []*yaml.Node) bool {
	for _, it := range items {
		if it.Kind != yaml.ScalarNode || it.Tag != "!!int" {
			return false
		}
	}
	return len(items) > 0
}
