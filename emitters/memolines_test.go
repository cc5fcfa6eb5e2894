package emitters

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

// memoLines masks each distinct line once, gives every line the mask's own
// answer, keeps no more than its bound and is safe for concurrent use.
func TestMemoLinesMasksEachDistinctLineOnce(t *testing.T) {
	var mu sync.Mutex
	calls := map[string]int{}
	mask := func(line string) string {
		mu.Lock()
		calls[line]++
		mu.Unlock()
		return strings.ToUpper(line) + "!"
	}
	const bound = 8
	memo := memoLines(mask, bound)
	var lines []string
	for i := range 200 {
		lines = append(lines, fmt.Sprintf(`"key-%d": "value"`, i%4)) // 4 distinct, under the bound
	}
	for i := range 40 {
		lines = append(lines, fmt.Sprintf("beyond %d", i)) // more than the bound
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for _, l := range lines {
				if got, want := memo(l), strings.ToUpper(l)+"!"; got != want {
					t.Errorf("memo(%q) = %q, want %q", l, got, want)
				}
			}
		})
	}
	wg.Wait()
	for i := range 4 {
		l := fmt.Sprintf(`"key-%d": "value"`, i)
		// Four goroutines may each miss a line before one stores it; a
		// memo that stored nothing masks it 200 times.
		if calls[l] > 4 {
			t.Errorf("%q masked %d times, want once per goroutine at most", l, calls[l])
		}
	}
	if n := len(calls); n != 44 {
		t.Errorf("%d distinct lines masked, want 44", n)
	}
	if calls["beyond 39"] < 4 {
		t.Errorf("a line beyond the bound was masked %d times: the memo kept more than %d lines", calls["beyond 39"], bound)
	}
}
