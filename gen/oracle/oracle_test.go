package oracle

import (
	"encoding/json"
	"math"
	"testing"
	"time"
)

// FuzzIndent holds the oracle's indenter to json.MarshalIndent, which the
// generated tests use to write the same golden files: for any valid JSON
// text, compacted as encoding/json writes it, the two agree byte for byte.
func FuzzIndent(f *testing.F) {
	for _, s := range []string{
		`{}`, `[]`, `{"a":{}}`, `{"a":[]}`, `[[],{},[{}]]`, `null`, `"x"`, `0`,
		`{"code":"x","code_num":1,"error":"a \"quoted\" \\ back\\slash","wire":{"n":[1,2.5,-3e7],"t":true,"f":false,"z":null}}`,
		`{"html":"<b>&amp;</b>","sep":"a` + "\u2028" + `b` + "\u2029" + `c","tab":"\t","é":"ü€😀"}`,
		`{"s":"\u003c already escaped \u2028"}`,
		`{"k":"ends in a backslash \\","l":["\\\"",":",",","{","}"]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) {
			return
		}
		want, err := json.MarshalIndent(json.RawMessage(s), "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		compact, err := json.Marshal(json.RawMessage(s))
		if err != nil {
			t.Fatal(err)
		}
		// The oracle feeds indent what its own json.Marshal calls wrote,
		// and the raw projections it assembles, unescaped.
		for _, src := range [][]byte{compact, []byte(s)} {
			if !json.Valid(src) || hasSpace(src) {
				continue
			}
			if got := indent(nil, src); string(got) != string(want) {
				t.Errorf("indent(%s) =\n%s\nwant\n%s", src, got, want)
			}
		}
	})
}

// hasSpace reports whether JSON text has whitespace outside its strings,
// which compact text has not.
func hasSpace(src []byte) bool {
	in := false
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == ' ' || c == '\n' || c == '\t' || c == '\r'):
			return true
		}
	}
	return false
}

// TestDurationJSON: a wait in protobuf's JSON mapping of Duration, exact to
// the nanosecond however long: past 2^53 nanoseconds (104 days) a float64
// no longer holds it, and the golden files of such examples were wrong.
func TestDurationJSON(t *testing.T) {
	for d, want := range map[time.Duration]string{
		2 * time.Second: "2s", 1500 * time.Millisecond: "1.500s", time.Nanosecond: "0.000000001s",
		90*time.Minute + 250*time.Microsecond: "5400.000250s",
		2600*time.Hour + time.Nanosecond:      "9360000.000000001s",
		300000*time.Hour + time.Millisecond:   "1080000000.001s",
		time.Duration(math.MaxInt64):          "9223372036.854775807s",
	} {
		if got := durationJSON(d); got != want {
			t.Errorf("durationJSON(%v) = %s, want %s", d, got, want)
		}
	}
}
