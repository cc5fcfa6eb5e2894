package render

import (
	"fmt"
	"io"

	"github.com/mcpsync/mcpsync/engine"
)

// ImportOutcomes writes one line per server the import considered.
func ImportOutcomes(out io.Writer, run *engine.ImportRun) {
	w := batchLines(out)
	defer w.flush()
	for _, o := range run.Outcomes {
		switch o.Action {
		case engine.ImportRenamed:
			fmt.Fprintf(w, "renamed   %s -> %s\n", o.From, o.Name)
		case engine.ImportKeptStore:
			fmt.Fprintf(w, "kept      %s (the store's definition)\n", o.Name)
		case engine.ImportStoreNewer:
			what := "changed it since mcpsync wrote it there"
			if o.Removed {
				what = "removed it since mcpsync wrote it there"
			}
			fmt.Fprintf(w, "kept      %s (the store %s; 'mcpsync export --to %s' brings %s up to date, --prefer client takes %s's)\n",
				o.Name, what, run.Client.ID(), run.Client.ID(), run.Client.ID())
		default:
			fmt.Fprintf(w, "%-9s %s\n", o.Action, o.Name)
		}
	}
}
