package render

import (
	"io"

	"github.com/mcpsync/mcpsync/reconcile"
)

// SyncOutcomes writes a line per server that a sync changed, each after
// prefix ("would sync " for a dry run): in whole lines, many per write, as
// a sync that brings 10,000 servers into the store has as many lines.
func SyncOutcomes(out io.Writer, prefix string, outcomes []reconcile.Outcome) {
	w := batchLines(out)
	defer w.flush()
	for _, o := range outcomes {
		io.WriteString(w, prefix+o.Line()+"\n") //nolint:errcheck // the stream's error is the command's
	}
}
