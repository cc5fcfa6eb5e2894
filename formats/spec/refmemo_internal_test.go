package spec

import (
	"fmt"
	"testing"
)

// The memo renders a value said again and again once, and keeps at most
// refMemoCap values (and the first): a file whose every server says a
// reference of its own would otherwise hold a map of all of them for
// nothing.
func TestRefMemoKeepsWhatRepeats(t *testing.T) {
	made := 0
	render := func(v string) func() refResult {
		return func() refResult { made++; return refResult{out: "<" + v + ">"} }
	}
	var once refMemo
	for i := range 100 {
		v := fmt.Sprintf("${K_%d}", i)
		if r := once.get(true, v, render(v)); r.out != "<"+v+">" {
			t.Fatalf("%s rendered as %q", v, r.out)
		}
	}
	if n := len(once.m); n > refMemoCap {
		t.Errorf("100 values said once: the memo keeps %d, want at most %d", n, refMemoCap)
	}
	made = 0
	var repeated refMemo
	for i := range 1000 {
		v := fmt.Sprintf("${K_%d}", i%12)
		if r := repeated.get(i%2 == 0, v, render(v)); r.out != "<"+v+">" {
			t.Fatalf("%s rendered as %q", v, r.out)
		}
	}
	if made != 12 {
		t.Errorf("12 values said about 80 times each were rendered %d times, want 12", made)
	}
	var none *refMemo
	if r := none.get(true, "${X}", render("${X}")); r.out != "<${X}>" {
		t.Errorf("a nil memo rendered %q", r.out)
	}
}
