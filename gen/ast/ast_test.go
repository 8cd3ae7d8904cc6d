package ast

import "testing"

func TestNumRanges(t *testing.T) {
	rs := []NumRange{{Lo: Int{Value: 1000}, High: Int{Value: 1999}}, {Lo: Int{Value: 3000}, High: Int{Value: 3000}}}
	for n, want := range map[int]bool{999: false, 1000: true, 1500: true, 1999: true, 2000: false, 2999: false, 3000: true, 3001: false} {
		if got := InRanges(rs, n); got != want {
			t.Errorf("InRanges(%d) = %v, want %v", n, got, want)
		}
		r, ok := RangeOf(rs, n)
		if ok != want || ok && !r.Contains(n) {
			t.Errorf("RangeOf(%d) = %v, %v", n, r, ok)
		}
	}
	if InRanges(nil, 0) {
		t.Error("no range contains anything")
	}
}
