package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestEachRunsEveryIndexOnce: every index is run once, whatever the number
// of processors, and Each returns after the last.
func TestEachRunsEveryIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		runs := make([]atomic.Int32, n)
		Each(n, func(i int) { runs[i].Add(1) })
		for i := range runs {
			if got := runs[i].Load(); got != 1 {
				t.Fatalf("n=%d: index %d ran %d times", n, i, got)
			}
		}
	}
}

// TestInStartsInOrder: with one processor's worth of work at a time, the
// indexes start in the order given.
func TestInStartsInOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	var got []int
	In([]int{3, 1, 2, 0}, func(i int) { got = append(got, i) })
	if len(got) != 4 || got[0] != 3 || got[1] != 1 || got[2] != 2 || got[3] != 0 {
		t.Fatalf("started in %v", got)
	}
}
