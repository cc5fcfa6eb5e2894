package mapkeys

import (
	"slices"
	"testing"
)

func TestSortedListsEveryKeyInOrder(t *testing.T) {
	for _, m := range []map[string]int{nil, {}, {"b": 1}, {"b": 1, "a": 2, "C": 3, "": 4}} {
		got := Sorted(m)
		if len(got) != len(m) || !slices.IsSorted(got) {
			t.Fatalf("Sorted(%v) = %q: want every key, in order", m, got)
		}
		for _, k := range got {
			if _, ok := m[k]; !ok {
				t.Fatalf("Sorted(%v) = %q: %q is not a key", m, got, k)
			}
		}
	}
}

func TestSortedAllocatesOnceAtMost(t *testing.T) {
	empty, one := map[string]string{}, map[string]string{"API_KEY": "x"}
	if n := testing.AllocsPerRun(100, func() { Sorted(empty) }); n != 0 {
		t.Errorf("Sorted of an empty map: %v allocations, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { Sorted(one) }); n != 1 {
		t.Errorf("Sorted of a map of one key: %v allocations, want 1", n)
	}
}
