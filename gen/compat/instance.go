package compat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/errgen/errgen/gen/diag"
	"github.com/errgen/errgen/gen/model"
)

// The comparisons of what the catalogue adds to the fixed API: sub-codes,
// instance hints, static required fields, configurable classes and custom
// attributes.

// subcodesGone reports the sub-codes of base variant bv that head no
// longer has as sub-codes of hv (nil when the variant is gone) and does not
// reserve: a service that stored one can no longer look it up.
func (c *comparer) subcodesGone(bv, hv *model.Variant, pos diag.Pos) {
	for _, sc := range bv.Subcodes {
		code := c.h(sc.Code)
		owner := c.head.subcodes[code]
		if owner == nil {
			owner = c.head.byCode[code]
		}
		switch {
		case hv != nil && owner == hv && c.head.subcodes[code] == hv:
			continue
		case owner != nil:
			c.add(SubcodeRemovedUnreserved, owner.KeyPos("subcodes"), sc.Pos, c.h(bv.Code),
				"sub-code %s of %s now belongs to %s: a service that stored it finds another variant", q(code), q(c.h(bv.Code)), q(owner.Code))
		case c.head.resCodes[code] != nil || c.others.ReservedCodes[strings.ToLower(code)]:
			// Reserved here, or by another catalogue of the registry
			// (its family moved there with it), where it stays retired.
			continue
		case c.others.Elsewhere[strings.ToLower(code)] != (Held{}):
			// Another catalogue of the registry holds it now: CODE_MOVED
			// says so, and this one may not reserve it.
			continue
		default:
			c.add(SubcodeRemovedUnreserved, pos, sc.Pos, c.h(bv.Code),
				"sub-code %s of %s was removed without reserving it; add it under reserved codes", q(code), q(c.h(bv.Code)))
		}
	}
}

// instance reports the struct fields an instance lost, and changes to
// required_fields and to whether the class is configurable.
func (c *comparer) instance(bv, hv *model.Variant) {
	code := hv.Code
	if len(bv.Subcodes) > 0 && len(hv.Subcodes) == 0 {
		c.addFinding(Finding{Rule: InstanceHintRemoved, Pos: hv.Pos, BasePos: bv.KeyPos("subcodes"), Code: code, Family: c.familyOf(code), Key: "subcodes",
			Message: fmt.Sprintf("%s no longer has sub-codes: its field %s is gone", q(code), model.SubcodeField)})
	}
	for _, h := range bv.InstanceHints {
		if !hv.HasHint(h) {
			c.add(InstanceHintRemoved, hv.KeyPos("instance_hints"), bv.KeyPos("instance_hints"), code,
				"an instance of %s can no longer set %s: its field %s is gone", q(code), h, h.Field())
		}
	}
	if b, h := strings.Join(bv.RequiredFields, ", "), strings.Join(hv.RequiredFields, ", "); b != h {
		c.add(RequiredFieldsChanged, hv.KeyPos("required_fields"), bv.KeyPos("required_fields"), code,
			"the required_fields of %s are now %s; in base they were %s", q(code), orNone(h), orNone(b))
	}
	if bv.Configurable && !hv.Configurable {
		c.add(ConfigurableRemoved, hv.KeyPos("configurable"), bv.KeyPos("configurable"), code,
			"%s is no longer configurable: a ClassPolicy that names it is refused; its class is now %s", q(code), hv.ClassRule())
	}
	for _, bs := range bv.Attrs {
		hs, ok := hv.Attr(bs.Attr.Name)
		if !ok || hs.Attr.Type != bs.Attr.Type {
			continue // the attribute is gone or retyped: reported once, at its declaration
		}
		if b, h := bs.Text(), hs.Text(); b != h {
			if bs.From == model.AttrFromDefault && hs.From == model.AttrFromDefault {
				// The default changed: reported once, at the declaration,
				// for every variant that takes it (attributeDefaults).
				c.attrByDefault[bs.Attr.Name] = append(c.attrByDefault[bs.Attr.Name], code)
				continue
			}
			c.addFinding(Finding{Rule: AttributeChanged, Pos: attrPos(hv, hs), BasePos: attrPos(bv, bs), Code: code, Family: c.familyOf(code),
				Attribute: bs.Attr.Name,
				Message:   fmt.Sprintf("attribute %s of %s is now %s; in base it was %s", bs.Attr.Name, q(code), q(h), q(b))})
		}
	}
}

// attrPos is where v's value of an attribute is set: on the variant, on
// its family, or as the declaration's default.
func attrPos(v *model.Variant, s model.AttrSetting) diag.Pos {
	switch s.From {
	case model.AttrFromVariant:
		return v.KeyPos("attributes")
	case model.AttrFromFamily:
		return v.Family.KeyPos("attributes")
	}
	return s.Attr.Pos
}

// attributeDefaults reports, once per attribute at its default: key,
// the variants whose value changed with the default, set on neither them
// nor their family on either side. The finding names no code or family:
// a waiver that names neither accepts it.
func (c *comparer) attributeDefaults() {
	for _, ha := range c.head.cat.Attributes {
		codes := c.attrByDefault[ha.Name]
		if len(codes) == 0 {
			continue
		}
		i := slices.IndexFunc(c.base.cat.Attributes, func(a *model.Attribute) bool { return a.Name == ha.Name })
		ba := c.base.cat.Attributes[i]
		c.addFinding(Finding{Rule: AttributeChanged, Pos: ha.KeyPos("default"), BasePos: ba.KeyPos("default"), Attribute: ha.Name, Codes: codes,
			Message: fmt.Sprintf("the default of attribute %s is now %s; in base it was %s, for %s", ha.Name, q(ha.Text(ha.Default)), q(ba.Text(ba.Default)), quoteAll(codes))})
	}
}

// attributes reports attribute declarations that head removed or retyped,
// and enum values it dropped: the generated names a program uses go away.
func (c *comparer) attributes() {
	head := c.head.cat
	for _, ba := range c.base.cat.Attributes {
		i := slices.IndexFunc(head.Attributes, func(a *model.Attribute) bool { return a.Name == ba.Name })
		var msg string
		pos := c.catPos("attributes")
		switch {
		case i < 0:
			msg = fmt.Sprintf("attribute %s was removed: %s and its values are gone", q(ba.Name), ba.Lookup())
		case head.Attributes[i].Type != ba.Type:
			pos = head.Attributes[i].KeyPos("type")
			msg = fmt.Sprintf("attribute %s is now of type %s; in base it was %s: %s returns another type", q(ba.Name), head.Attributes[i].Type, ba.Type, ba.Lookup())
		default:
			pos = head.Attributes[i].KeyPos("values")
			var gone []string
			for _, val := range ba.Values {
				if !slices.Contains(head.Attributes[i].Values, val) {
					gone = append(gone, val)
				}
			}
			if len(gone) == 0 {
				continue
			}
			msg = fmt.Sprintf("attribute %s no longer has the value %s: its constant is gone", q(ba.Name), strings.Join(gone, ", "))
		}
		c.addFinding(Finding{Rule: AttributeRemoved, Pos: pos, BasePos: ba.Pos, Attribute: ba.Name, Message: msg})
	}
}

// categories reports categories that head no longer declares: their
// Category constants go away, whether or not a variant used them (one
// that did also reports CATEGORY_CHANGED).
func (c *comparer) categories() {
	head := c.head.cat
	for _, bc := range c.base.cat.Categories {
		if slices.ContainsFunc(head.Categories, func(h *model.Category) bool { return h.Name == bc.Name }) {
			continue
		}
		c.addFinding(Finding{Rule: CategoryRemoved, Pos: c.catPos("categories"), BasePos: bc.Pos, Category: bc.Name,
			Message: fmt.Sprintf("category %s was removed: its constant %s is gone", q(bc.Name), bc.GoName)})
	}
}
