package compat

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/errgen/errgen/gen/ast"
	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/model"
)

// RegistryCatalogue is one catalogue of a registry at one revision: its
// entry and its resolved model (an empty model when the catalogue is new).
type RegistryCatalogue struct {
	Entry *ast.RegistryEntry
	Model *model.Catalogue
	// MovedTo is, for a catalogue of the base, the path head lists it
	// under when that is not its own (see Moved); "" otherwise.
	MovedTo string
	// Name is how findings name the catalogue's file, as the command
	// names its positions; its path in the registry when "".
	Name string
}

// name is how findings name the catalogue (see Name).
func (rc RegistryCatalogue) name() string {
	if rc.Name != "" {
		return rc.Name
	}
	return path.Clean(rc.Entry.Path.Value)
}

// key is the path that identifies the catalogue across the two
// revisions: the one head lists it under.
func (rc RegistryCatalogue) key() string {
	if rc.MovedTo != "" {
		return rc.MovedTo
	}
	return path.Clean(rc.Entry.Path.Value)
}

// Moved returns the index of the catalogue of gone (listed in base, not
// in head) that head is, listed under a new path: the one of which head
// holds the most codes, if that is more than half of them; -1 for none.
// A folder renamed in the same change as a few codes is still the same
// catalogue.
func Moved(gone []RegistryCatalogue, head *model.Catalogue) int {
	codes := map[string]bool{}
	for _, v := range head.Variants {
		codes[strings.ToLower(v.Code)] = true
	}
	best, most := -1, 0
	for i, g := range gone {
		n := 0
		for _, v := range g.Model.Variants {
			if codes[strings.ToLower(v.Code)] {
				n++
			}
		}
		if 2*n > len(g.Model.Variants) && n > most {
			best, most = i, n
		}
	}
	return best
}

// Held is where another catalogue of a registry holds a code: the
// catalogue's path and the code's num there (0 for a sub-code).
type Held struct {
	Catalogue string
	Num       int
}

// OthersOf is what the catalogues of head other than the i-th hold, for
// the i-th's comparison (CompareIn, DiffIn): each code (lower case), with
// where and its num (Others.Elsewhere), and each num (Others.Nums);
// renamed is the registry's family renames (RenamedFamilies).
func OthersOf(head []RegistryCatalogue, i int, renamed map[string]string) Others {
	o := Others{Elsewhere: map[string]Held{}, Nums: map[int]string{}, Renamed: renamed,
		ReservedCodes: map[string]bool{}, ReservedNums: map[int]bool{}}
	for k, h := range head {
		if k == i {
			continue
		}
		for _, v := range h.Model.Variants {
			o.Elsewhere[strings.ToLower(v.Code)] = Held{h.name(), v.Num}
			o.Nums[v.Num] = h.key()
			for _, sc := range v.Subcodes {
				o.Elsewhere[strings.ToLower(sc.Code)] = Held{h.name(), 0}
			}
		}
		for _, f := range h.Model.Families {
			for _, c := range f.ReservedCodes {
				o.ReservedCodes[strings.ToLower(c)] = true
			}
			for _, n := range f.ReservedNums {
				o.ReservedNums[n] = true
			}
		}
	}
	return o
}

// RenamedFamilies maps the family types of a registry's catalogues,
// PACKAGE.Family as a field of another catalogue writes them in base, to
// what they became in head, where the family was renamed or its package
// changed: each catalogue's families matched as Compare matches them.
// pairs holds each catalogue at base and in head.
func RenamedFamilies(pairs [][2]*model.Catalogue) map[string]string {
	out := map[string]string{}
	for _, p := range pairs {
		for bf, hf := range newComparer(p[0], p[1]).family {
			if b, h := p[0].Package+"."+bf.Name, p[1].Package+"."+hf.Name; b != h {
				out[b] = h
			}
		}
	}
	return out
}

// RenderedOtherwise maps the family types of a registry's catalogues,
// PACKAGE.Family as a field of another catalogue writes them in base, to
// the codes of the family whose message renders another text in head
// (reworded, a duration in another unit or rounded otherwise, a cause that
// did, of the catalogue's or of another's): a suppression key of another
// catalogue that renders such a cause changes with it. pairs holds each
// catalogue at base and in head. A catalogue whose errors render another's
// is answered again until nothing more changes, in whatever order the
// registry lists them.
func RenderedOtherwise(pairs [][2]*model.Catalogue) map[string][]string {
	out := map[string][]string{}
	for {
		next := map[string][]string{}
		for _, p := range pairs {
			c := newComparer(p[0], p[1])
			c.others.Rendered = out
			for _, bf := range p[0].Families {
				if c.family[bf] == nil {
					continue
				}
				if codes := c.messagesChanged(bf); len(codes) > 0 {
					next[p[0].Package+"."+bf.Name] = codes
				}
			}
		}
		if maps.EqualFunc(out, next, slices.Equal) {
			return out
		}
		out = next
	}
}

// CompareRegistry reports what changes across the catalogues of a
// registry between base and head, beside what each catalogue's own
// comparison (CompareIn) reports: a code that moved from one catalogue to
// another (CODE_MOVED; the catalogue it left must reserve its num unless
// the num moved too), a num that now identifies another code in another
// catalogue (NUM_REASSIGNED), a catalogue's range shrunk under a num it
// used or reserved in base and no catalogue holds now (RANGE_SHRUNK), an
// owner that changed (OWNER_CHANGED), a catalogue listed under a new path
// (CATALOGUE_MOVED, see Moved), and one no longer listed whose codes or
// nums no catalogue holds now (CATALOGUE_REMOVED), reported at listedAt,
// the head registry's catalogues key, where it would be listed again.
func CompareRegistry(base, head []RegistryCatalogue, listedAt diag.Pos) []Finding {
	var out []Finding
	add := func(f Finding) {
		r, _ := LookupRule(f.Rule)
		f.Tier, f.Severity = r.Tier, r.Severity
		out = append(out, f)
	}
	key := RegistryCatalogue.key
	// names are how messages name each catalogue, by its key: as head
	// names it, or else as base does.
	names := map[string]string{}
	for _, h := range head {
		names[key(h)] = h.name()
	}
	for _, b := range base {
		if _, ok := names[key(b)]; !ok {
			names[key(b)] = b.name()
		}
	}
	qn := func(k string) string { return q(names[k]) }
	headByKey := map[string]RegistryCatalogue{}
	// held are the codes (lower case) and nums some catalogue of head uses
	// or reserves: none of them is free for another to take.
	heldCodes, heldNums := map[string]bool{}, map[int]bool{}
	// usedCodes are the codes (lower case) a variant of head has as its
	// code or a sub-code, with where; reservedCodes those a family of head
	// reserves.
	type use struct {
		cat  string
		v    *model.Variant
		pos  diag.Pos
		code string
	}
	usedCodes, reservedCodes := map[string]use{}, map[string]bool{}
	for _, h := range head {
		headByKey[key(h)] = h
		for _, v := range h.Model.Variants {
			heldCodes[strings.ToLower(v.Code)], heldNums[v.Num] = true, true
			usedCodes[strings.ToLower(v.Code)] = use{key(h), v, v.KeyPos("code"), v.Code}
			for _, sc := range v.Subcodes {
				heldCodes[strings.ToLower(sc.Code)] = true
				usedCodes[strings.ToLower(sc.Code)] = use{key(h), v, sc.Pos, sc.Code}
			}
		}
		for _, f := range h.Model.Families {
			for _, n := range f.ReservedNums {
				heldNums[n] = true
			}
			for _, c := range f.ReservedCodes {
				heldCodes[strings.ToLower(c)], reservedCodes[strings.ToLower(c)] = true, true
			}
		}
	}
	type where struct {
		cat  string
		pos  diag.Pos
		code string
		num  int
	}
	baseCodes, baseNums := map[string]where{}, map[int]where{}
	// baseRetired are the codes (lower case) a catalogue reserved in base.
	baseRetired := map[string]where{}
	baseByPath := map[string]RegistryCatalogue{}
	for _, b := range base {
		baseByPath[key(b)] = b
		for _, f := range b.Model.Families {
			for _, c := range f.ReservedCodes {
				baseRetired[strings.ToLower(c)] = where{key(b), f.KeyPos("reserved"), c, 0}
			}
		}
		for _, v := range b.Model.Variants {
			baseCodes[strings.ToLower(v.Code)] = where{key(b), v.KeyPos("code"), v.Code, v.Num}
			baseNums[v.Num] = where{key(b), v.KeyPos("num"), v.Code, v.Num}
			for _, sc := range v.Subcodes {
				baseCodes[strings.ToLower(sc.Code)] = where{key(b), sc.Pos, sc.Code, 0}
			}
		}
		// A num reserved in base is retired: another catalogue's code
		// that takes it is NUM_REASSIGNED too (code "" says reserved).
		for _, f := range b.Model.Families {
			for _, n := range f.ReservedNums {
				if _, used := baseNums[n]; !used {
					baseNums[n] = where{key(b), f.KeyPos("reserved"), "", n}
				}
			}
		}
		if h, ok := headByKey[key(b)]; ok && b.MovedTo != "" {
			add(Finding{Rule: CatalogueMoved, Pos: entryKey(h.Entry, "path", h.Entry.Path.Pos), BasePos: entryKey(b.Entry, "path", b.Entry.Path.Pos),
				Message: fmt.Sprintf("catalogue %s is now listed as %s; it is compared with itself at its old path", q(b.name()), qn(b.MovedTo))})
		}
		if _, listed := headByKey[key(b)]; !listed {
			// What the catalogue held that no catalogue holds now is free;
			// codes moved to another catalogue with their nums are not.
			var free []string
			for _, v := range b.Model.Variants {
				if !heldCodes[strings.ToLower(v.Code)] || !heldNums[v.Num] {
					free = append(free, fmt.Sprintf("%s (%d)", q(v.Code), v.Num))
				}
				for _, sc := range v.Subcodes {
					if !heldCodes[strings.ToLower(sc.Code)] {
						free = append(free, fmt.Sprintf("sub-code %s", q(sc.Code)))
					}
				}
			}
			// What it reserved was retired for good: free now, another
			// catalogue could give it a new meaning.
			for _, f := range b.Model.Families {
				for _, c := range f.ReservedCodes {
					lc := strings.ToLower(c)
					u, used := usedCodes[lc]
					switch {
					case reservedCodes[lc]:
					case used:
						// Taken already: the code it retired names another
						// error now.
						add(Finding{Rule: CatalogueRemoved, Pos: u.pos, BasePos: f.KeyPos("reserved"), Code: u.v.Code, Family: u.v.Family.Name,
							Message: fmt.Sprintf("code %s, which %s retired (reserved) in base, now names an error of %s; %s is no longer in the registry to keep it retired", q(u.code), qn(key(b)), qn(u.cat), qn(key(b)))})
					default:
						free = append(free, fmt.Sprintf("reserved code %s", q(c)))
					}
				}
				for _, n := range f.ReservedNums {
					if !heldNums[n] {
						free = append(free, fmt.Sprintf("reserved num %d", n))
					}
				}
			}
			if len(free) > 0 {
				add(Finding{Rule: CatalogueRemoved, Pos: listedAt, BasePos: b.Entry.Pos,
					Message: fmt.Sprintf("catalogue %s is no longer in the registry, and no catalogue holds %s now: free for another catalogue to take; keep it listed with them under reserved, or move them to a catalogue that is", qn(key(b)), strings.Join(free, ", "))})
			}
		}
	}
	// retiredElsewhere reports code, of a variant of p at pos, when
	// another catalogue still listed retired it (reserved) in base: its
	// code now names another error, which no waiver of either catalogue
	// can accept. (One no longer listed is CATALOGUE_REMOVED.)
	retiredElsewhere := func(p string, v *model.Variant, code string, pos diag.Pos) {
		w, ok := baseRetired[strings.ToLower(code)]
		if _, listed := headByKey[w.cat]; !ok || w.cat == p || !listed {
			return
		}
		add(Finding{Rule: ReservedRemoved, Pos: pos, BasePos: w.pos, Code: v.Code, Family: v.Family.Name,
			Message: fmt.Sprintf("code %s, which %s retired (reserved) in base, now names an error of %s", q(code), qn(w.cat), qn(p))})
	}
	for _, h := range head {
		p := key(h)
		for _, v := range h.Model.Variants {
			retiredElsewhere(p, v, v.Code, v.KeyPos("code"))
			for _, sc := range v.Subcodes {
				retiredElsewhere(p, v, sc.Code, sc.Pos)
			}
			if w, ok := baseCodes[strings.ToLower(v.Code)]; ok && w.cat != p {
				msg := fmt.Sprintf("code %s moved from %s to %s with its num %d", q(v.Code), qn(w.cat), qn(p), v.Num)
				switch {
				case w.num == 0: // a sub-code in base
					msg = fmt.Sprintf("code %s moved from %s to %s", q(v.Code), qn(w.cat), qn(p))
				case w.num != v.Num:
					msg = fmt.Sprintf("code %s moved from %s to %s, its num from %d to %d", q(v.Code), qn(w.cat), qn(p), w.num, v.Num)
					if left, listed := headByKey[w.cat]; listed && !reserves(left.Model, w.num) {
						msg += fmt.Sprintf("; %s must reserve num %d", qn(w.cat), w.num)
					}
				}
				add(Finding{Rule: CodeMoved, Pos: v.KeyPos("code"), BasePos: w.pos, Code: v.Code, Family: v.Family.Name, Message: msg})
			}
			// A num another catalogue gave another meaning in base, whether
			// or not the code came with it from elsewhere.
			if w, ok := baseNums[v.Num]; ok && w.cat != p && !strings.EqualFold(w.code, v.Code) {
				was := fmt.Sprintf("in base it identified %s in %s", q(w.code), qn(w.cat))
				if w.code == "" {
					was = fmt.Sprintf("in base %s reserved it", qn(w.cat))
				}
				add(Finding{Rule: NumReassigned, Pos: v.KeyPos("num"), BasePos: w.pos, Code: v.Code, Family: v.Family.Name,
					Message: fmt.Sprintf("num %d now identifies %s in %s; %s", v.Num, q(v.Code), qn(p), was)})
			}
		}
		for _, v := range h.Model.Variants {
			for _, sc := range v.Subcodes {
				if w, ok := baseCodes[strings.ToLower(sc.Code)]; ok && w.cat != p {
					add(Finding{Rule: CodeMoved, Pos: sc.Pos, BasePos: w.pos, Code: v.Code, Family: v.Family.Name,
						Message: fmt.Sprintf("code %s moved from %s to %s, a sub-code of %s", q(sc.Code), qn(w.cat), qn(p), q(v.Code))})
				}
			}
		}
		b, ok := baseByPath[p]
		if !ok {
			continue
		}
		if bo, ho := b.Entry.Owner.Value, h.Entry.Owner.Value; bo != ho {
			add(Finding{Rule: OwnerChanged, Pos: entryKey(h.Entry, "owner", h.Entry.Owner.Pos), BasePos: entryKey(b.Entry, "owner", b.Entry.Owner.Pos),
				Message: fmt.Sprintf("%s is now owned by %s; in base by %s", qn(p), q(ho), q(bo))})
		}
		if len(h.Entry.Nums) == 0 {
			continue
		}
		var used []int
		for _, v := range b.Model.Variants {
			used = append(used, v.Num)
		}
		for _, f := range b.Model.Families {
			used = append(used, f.ReservedNums...)
		}
		for _, n := range used {
			// A num another catalogue holds now is not free: moved with
			// its code, or reserved there (given to another code, it is
			// NUM_REASSIGNED above).
			if br, ok := ast.RangeOf(b.Entry.Nums, n); ok && !ast.InRanges(h.Entry.Nums, n) && !heldNums[n] {
				pos, _ := h.Entry.Keys.Pos("nums")
				add(Finding{Rule: RangeShrunk, Pos: pos, BasePos: br.Pos,
					Message: fmt.Sprintf("the ranges of %s no longer cover num %d, which it used or reserved in base; another catalogue could take it", qn(p), n)})
			}
		}
	}
	return out
}

// entryKey is where a registry entry writes key, where a finding about
// that key points, as RANGE_SHRUNK points at nums: or else at, where its
// value is (an entry without the key, whose value is empty).
func entryKey(en *ast.RegistryEntry, key string, at diag.Pos) diag.Pos {
	if p, ok := en.Keys.Pos(key); ok {
		return p
	}
	return at
}

// holds reports whether m has code, in any case, as a variant's code or
// a sub-code.
func holds(m *model.Catalogue, code string) bool {
	return slices.ContainsFunc(m.Variants, func(v *model.Variant) bool {
		return strings.EqualFold(v.Code, code) || slices.ContainsFunc(v.Subcodes, func(sc *model.Subcode) bool { return strings.EqualFold(sc.Code, code) })
	})
}

// reserves reports whether a family of m reserves num n.
func reserves(m *model.Catalogue, n int) bool {
	for _, f := range m.Families {
		if slices.Contains(f.ReservedNums, n) {
			return true
		}
	}
	return false
}

// Origin is where a code stood in base: a variant of another catalogue of
// the registry than the one that holds it now, or one of its sub-codes.
type Origin struct {
	// Path names the catalogue, as RegistryCatalogue.Name does.
	Path      string
	Catalogue *model.Catalogue
	Variant   *model.Variant
	// Code is the code as it was spelled there: the variant's own, or
	// one of its sub-codes.
	Code string
}

// Arrived maps each code (lower case) that a catalogue of base other than
// the one the i-th of head is compared with held to where it stood: what
// CompareArrived takes for the i-th.
func Arrived(base, head []RegistryCatalogue, i int) map[string]Origin {
	out := map[string]Origin{}
	own := head[i].key()
	for _, b := range base {
		if b.key() == own {
			continue
		}
		for _, v := range b.Model.Variants {
			out[strings.ToLower(v.Code)] = Origin{b.name(), b.Model, v, v.Code}
			for _, sc := range v.Subcodes {
				out[strings.ToLower(sc.Code)] = Origin{b.name(), b.Model, v, sc.Code}
			}
		}
	}
	return out
}

// CompareArrived compares each variant of head whose code another
// catalogue of the registry held in base (arrived; see Arrived), and base
// did not, with what it was there: a code that moves between services
// keeps its meaning and its JSON, as one that stays does. The move itself
// is CODE_MOVED, across the registry. What a move changes anyway is left
// out: its Go API (another package), its num (CODE_MOVED says it), its
// family, sub-codes and the catalogues' classify rules and conversions,
// which each catalogue's own comparison covers. The findings are head's,
// so its waivers accept them.
func CompareArrived(base, head *model.Catalogue, arrived map[string]Origin) []Finding {
	var out []Finding
	for _, hv := range head.Variants {
		out = append(out, respelled(base, hv, hv.Code, hv.KeyPos("code"), arrived)...)
		for _, sc := range hv.Subcodes {
			out = append(out, respelled(base, hv, sc.Code, sc.Pos, arrived)...)
		}
		// Each variant of another catalogue whose codes hv now answers
		// to, once: hv's own code, or a sub-code of hv that was a
		// variant's code there or a sub-code of another variant than hv
		// (a variant that moved with its sub-codes is compared once, by
		// its code).
		var from []Origin
		if o, ok := arrived[strings.ToLower(hv.Code)]; ok && !holds(base, hv.Code) {
			from = append(from, o)
		}
		for _, sc := range hv.Subcodes {
			o, ok := arrived[strings.ToLower(sc.Code)]
			if !ok || holds(base, sc.Code) || (o.Code != o.Variant.Code && strings.EqualFold(o.Variant.Code, hv.Code)) ||
				slices.ContainsFunc(from, func(f Origin) bool { return f.Variant == o.Variant }) {
				continue
			}
			from = append(from, o)
		}
		for _, o := range from {
			out = append(out, compareArrival(o, head, hv)...)
		}
	}
	Sort(out)
	return out
}

// compareArrival compares hv with the variant of another catalogue whose
// code o, its own or a sub-code, hv now answers to: see CompareArrived.
func compareArrival(o Origin, head *model.Catalogue, hv *model.Variant) []Finding {
	c := newComparer(o.Catalogue, head)
	bv := o.Variant
	// The variant left its family whatever the two are named: what it
	// took from its family and catalogue (payload type, gRPC code,
	// problem status, attribute defaults, retry policy) is compared
	// as its own.
	delete(c.family, bv.Family)
	c.variant(bv, hv)
	c.arrivedDefaults(bv, hv)
	moved := fmt.Sprintf(" (it moved here from %s)", q(o.Path))
	switch {
	case o.Code != bv.Code:
		moved = fmt.Sprintf(" (%s, a sub-code of %s in %s in base, is %s here)", q(o.Code), q(bv.Code), q(o.Path), kindIn(hv, o.Code))
	case !strings.EqualFold(o.Code, hv.Code):
		moved = fmt.Sprintf(" (%s, a variant of %s in base, is %s here)", q(o.Code), q(o.Path), kindIn(hv, o.Code))
	}
	var out []Finding
	for _, f := range c.findings {
		switch f.Rule {
		case CodeRenumbered, FamilyChanged, SubcodeRemovedUnreserved, ClassifyRuleRemoved, MappingChanged:
			continue
		}
		if f.Tier == Go {
			continue
		}
		f.Message += moved
		out = append(out, f)
	}
	return out
}

// kindIn says what code is in hv: its code, or one of its sub-codes.
func kindIn(hv *model.Variant, code string) string {
	if strings.EqualFold(hv.Code, code) {
		return "the code of variant " + q(hv.Code)
	}
	return "a sub-code of " + q(hv.Code)
}

// respelled reports code, a code or sub-code of hv at pos, when another
// catalogue of the registry held it in base, spelled otherwise (in
// another code_case), and base did not hold it: its text changed as a
// recode would change it. The finding is hv's, so a waiver of hv's code
// accepts it.
func respelled(base *model.Catalogue, hv *model.Variant, code string, pos diag.Pos, arrived map[string]Origin) []Finding {
	o, ok := arrived[strings.ToLower(code)]
	if !ok || o.Code == code || holds(base, code) {
		return nil
	}
	r, _ := LookupRule(CodeCaseChanged)
	basePos := o.Variant.KeyPos("code")
	for _, sc := range o.Variant.Subcodes {
		if sc.Code == o.Code {
			basePos = sc.Pos
		}
	}
	return []Finding{{Rule: r.ID, Tier: r.Tier, Severity: r.Severity, Pos: pos, BasePos: basePos, Code: hv.Code, Family: hv.Family.Name,
		Message: fmt.Sprintf("code %s moved here from %s, where it was spelled %s: its text changed, as if it were recoded", q(code), q(o.Path), q(o.Code))}}
}

// arrivedDefaults reports, for a variant that moved from another
// catalogue, what it took from a default there and takes from another
// here: the problem type_base, the gRPC domain, the problem status of a
// variant without an error http_status and an attribute's default. In one
// catalogue these are reported once, at the
// default; across two, at the variant. Its family's retry policy is
// compared as for any variant that changed family (comparer.variant).
func (c *comparer) arrivedDefaults(bv, hv *model.Variant) {
	b, h := c.base.cat, c.head.cat
	code := hv.Code
	if b.Selects("problem") && h.Selects("problem") && b.ProblemBase != h.ProblemBase {
		c.add(ProblemTypeChanged, c.catPos("problem"), b.KeyPos("problem"), code,
			"the problem type of %s is now %s; in base %s", q(code), q(hv.ProblemType(h)), q(bv.ProblemType(b)))
	}
	if b.Selects("grpc") && h.Selects("grpc") && b.GRPCDomain != h.GRPCDomain {
		c.add(GRPCCodeChanged, c.catPos("grpc"), b.KeyPos("grpc"), code,
			"the gRPC ErrorInfo domain of %s is now %s; in base %s: clients that match errors by reason and domain no longer match", q(code), q(h.GRPCDomain), q(b.GRPCDomain))
	}
	if len(c.statusByDefault) > 0 {
		c.add(ProblemStatusChanged, c.catPos("problem"), b.KeyPos("problem"), code,
			"the problem documents of %s now have status %d; in base %d", q(code), hv.ProblemStatus(h), bv.ProblemStatus(b))
	}
	for _, bs := range bv.Attrs {
		if hs, ok := hv.Attr(bs.Attr.Name); ok && len(c.attrByDefault[bs.Attr.Name]) > 0 {
			c.addFinding(Finding{Rule: AttributeChanged, Pos: attrPos(hv, hs), BasePos: attrPos(bv, bs), Code: code, Family: hv.Family.Name,
				Attribute: bs.Attr.Name,
				Message:   fmt.Sprintf("attribute %s of %s is now %s; in base it was %s", bs.Attr.Name, q(code), q(hs.Text()), q(bs.Text()))})
		}
	}
}

// EntryDiff is one entry of a registry listed, no longer listed or
// changed: the path, owner, docs or nums of the catalogue it lists. A
// reviewer sees it whether or not it breaks anything: a range widened is
// no finding, but it is a change to review.
type EntryDiff struct {
	// Path names the catalogue as the command names files: its path now,
	// or in base when the registry no longer lists it.
	Path    string   `json:"path"`
	Status  Status   `json:"status"`
	Changes []Change `json:"changes"`
}

// EntryPair is one catalogue's entry of a registry in base and in head,
// nil where the registry did not list it, and the catalogue's name as the
// command names files (Path, from the registry's folder, is not).
type EntryPair struct {
	Base, Head *ast.RegistryEntry
	Name       string
}

// DiffEntries compares the entries of a registry at base and in head. A
// catalogue listed under another path is one pair, its path one of its
// changes. Entries that did not change are left out.
func DiffEntries(pairs []EntryPair) []EntryDiff {
	var out []EntryDiff
	for _, p := range pairs {
		b, h := p.Base, p.Head
		d := EntryDiff{Path: p.Name, Status: Changed}
		switch {
		case b == nil && h == nil:
			continue
		case b == nil:
			d.Status = Added
		case h == nil:
			d.Status = Removed
		}
		bv, hv := entryValues(b), entryValues(h)
		for i, attr := range entryAttrs {
			if bv[i] != hv[i] {
				d.Changes = append(d.Changes, Change{Attr: attr, Before: bv[i], After: hv[i], Findings: []Finding{}})
			}
		}
		if len(d.Changes) > 0 {
			out = append(out, d)
		}
	}
	return out
}

// entryAttrs are the attributes of a registry entry DiffEntries compares,
// in the order entryValues gives them.
var entryAttrs = []string{"path", "owner", "docs", "nums"}

// entryValues gives en's attributes as a review shows them; all empty for
// no entry.
func entryValues(en *ast.RegistryEntry) []string {
	out := make([]string, len(entryAttrs))
	if en == nil {
		return out
	}
	ranges := make([]string, len(en.Nums))
	for i, r := range en.Nums {
		ranges[i] = fmt.Sprintf("[%d, %d]", r.Lo.Value, r.High.Value)
	}
	docs := en.Docs.Value
	if docs != "" {
		docs = path.Clean(docs)
	}
	out[0], out[1], out[2], out[3] = path.Clean(en.Path.Value), en.Owner.Value, docs, strings.Join(ranges, ", ")
	return out
}
