// Package parallel runs independent pieces of work, as many at once as
// there are processors: the files of a plan, the files doctor checks, the
// locations clients reads. Each piece writes only its own result, by
// index, so that the caller reads the results in its own order.
package parallel

import (
	"runtime"
	"sync"
)

// Each runs f(0) … f(n-1), as many at once as there are processors, and
// returns when all have returned.
func Each(n int, f func(i int)) {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	In(order, f)
}

// In is Each over the indexes of order, started in that order: the
// costliest first, so that no processor waits for the last one alone.
func In(order []int, f func(i int)) {
	workers := min(len(order), runtime.GOMAXPROCS(0))
	if workers <= 1 {
		for _, i := range order {
			f(i)
		}
		return
	}
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
	for _, i := range order {
		next <- i
	}
	close(next)
	wg.Wait()
}
