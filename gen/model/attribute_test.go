package model

import "testing"

// TestAttrSettingShown pins how the docs and explain show an attribute's
// value: as its text, but an empty string as "", which a Markdown code
// span or a name=value list would otherwise show as nothing.
func TestAttrSettingShown(t *testing.T) {
	str := &Attribute{Name: "limit", Type: AttrString}
	flag := &Attribute{Name: "fallback", Type: AttrBool}
	v := &Variant{Attrs: []AttrSetting{
		{Attr: str, Value: AttrValue{}},
		{Attr: flag, Value: AttrValue{Bool: false}},
		{Attr: str, Value: AttrValue{Str: "max_steps"}},
	}}
	if got, want := v.AttrsText(), `limit="", fallback=false, limit=max_steps`; got != want {
		t.Errorf("AttrsText = %s, want %s", got, want)
	}
	// Compat compares and quotes the text itself: an empty value stays empty.
	if got := v.Attrs[0].Text(); got != "" {
		t.Errorf("Text of an empty string = %q, want it empty", got)
	}
}
