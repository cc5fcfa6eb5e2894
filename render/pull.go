package render

import (
	"fmt"
	"io"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/sources"
)

// Pull writes what a pull did per source: the servers added, changed or
// gone upstream, and what is pending approval.
func Pull(w, ew io.Writer, res *engine.PullResult, po Paths, diags func(canonical.Diagnostics)) {
	pending := res.Pending
	removed := false
	for _, o := range res.Sources {
		diags(o.Diags)
		if o.Error != "" {
			msg := fmt.Sprintf("mcpsync: source %q not updated: %s", o.Name, o.Error)
			if o.InEffect != "" {
				msg += fmt.Sprintf("; the last good pull (commit %s of %s) stays in effect", engine.ShortHash(o.InEffect), o.PulledAt.Format(time.RFC3339))
			} else {
				msg += "; it was never pulled, so none of its servers is exported"
			}
			fmt.Fprintln(ew, msg)
			continue
		}
		fmt.Fprintf(w, "%s: commit %s, %s\n", o.Name, engine.ShortHash(o.Commit), engine.CountOf(countPulled(o.Servers), "server"))
		tw := NewTable(w, po.Color)
		for _, r := range o.Servers {
			mark, what := " ", string(r.Change)
			switch r.Change {
			case sources.Added:
				mark = Style(po.Color).Paint(Green, "+")
			case sources.Modified:
				mark = Style(po.Color).Paint(Yellow, "~")
			case sources.Dropped:
				mark, what = Style(po.Color).Paint(Red, "-"), "removed upstream"
				removed = true
			}
			if r.Change != sources.Dropped {
				if r.Approved {
					what += ", approved"
				} else {
					what += ", " + Style(po.Color).Paint(Yellow, "pending approval")
				}
			}
			fmt.Fprintf(tw, "  %s %s\t%s\n", mark, r.Qualified, what)
		}
		tw.Flush()
	}
	switch {
	case pending > 0:
		fmt.Fprintf(ew, "%s pending approval: review with 'mcpsync status', then 'mcpsync approve NAME...' (or --all)\n",
			engine.CountOf(pending, "server"))
	case removed:
		fmt.Fprintln(ew, "run 'mcpsync export --to all --prune' to remove the servers gone upstream from your clients")
	}
}

func countPulled(rs []sources.PullResult) int {
	n := 0
	for _, r := range rs {
		if r.Change != sources.Dropped {
			n++
		}
	}
	return n
}
