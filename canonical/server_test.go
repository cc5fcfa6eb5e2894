package canonical

import (
	"slices"
	"testing"
)

// setEditor is what Set and Indexed both do.
type setEditor interface {
	Put(Server)
	Remove(string) bool
}

func TestIndexedAgreesWithSet(t *testing.T) {
	var plain Set
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		plain.Put(Server{Name: n, Command: n})
	}
	shadow := plain.Clone()
	x := shadow.Indexed()
	ops := []func(s setEditor){
		func(s setEditor) {
			s.Remove("b")
		},
		func(s setEditor) {
			s.Put(Server{Name: "f", Command: "f"})
		},
		func(s setEditor) {
			s.Put(Server{Name: "c", Command: "c2"})
		},
		func(s setEditor) {
			s.Remove("a")
			s.Remove("zz")
		},
	}
	for i, op := range ops {
		op(&plain)
		op(x)
		if got, want := shadow.Names(), plain.Names(); !slices.Equal(got, want) {
			t.Fatalf("after op %d: names %v, want %v", i, got, want)
		}
		for _, n := range []string{"a", "b", "c", "d", "e", "f", "zz"} {
			g, gok := x.Get(n)
			w, wok := plain.Get(n)
			if gok != wok || g.Command != w.Command || x.Index(n) != plain.Index(n) {
				t.Fatalf("after op %d: Get(%q) = %v %v, want %v %v", i, n, g.Command, gok, w.Command, wok)
			}
		}
	}
}
