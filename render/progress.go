package render

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/mcpsync/mcpsync/probe"
)

// Progress keeps a live line on the terminal w while probes run: how many
// are done, the time, and the last result. It returns the function that
// clears it.
func Progress(w io.Writer, color bool, opts *probe.Options) (stop func()) {
	var mu sync.Mutex
	done, total, last := 0, 0, ""
	start := time.Now()
	draw := func() {
		line := fmt.Sprintf("probing… %.1fs", time.Since(start).Seconds())
		if total > 0 {
			line = fmt.Sprintf("probing %d server%s… %d done, %.1fs", total, plural(total), done, time.Since(start).Seconds())
		}
		if last != "" {
			line += " (last: " + last + ")"
		}
		ClearLine(w)
		fmt.Fprint(w, Style(color).Paint(Dim, line))
	}
	opts.Progress = func(d, n int, r probe.Result) {
		mu.Lock()
		defer mu.Unlock()
		done, total, last = d, n, r.Server+" "+string(r.State)
		draw()
	}
	ticker := time.NewTicker(200 * time.Millisecond)
	quit := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for {
			select {
			case <-ticker.C:
				mu.Lock()
				draw()
				mu.Unlock()
			case <-quit:
				return
			}
		}
	}()
	return func() {
		ticker.Stop()
		close(quit)
		<-finished
		ClearLine(w)
	}
}
