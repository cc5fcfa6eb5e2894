package render

import (
	"fmt"
	"io"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/store"
)

// AddOutcomes says what add did to each server in the store.
func AddOutcomes(out io.Writer, st *store.Store, outcomes []engine.AddOutcome, o Paths) {
	where := o.storeShow(st.Path)
	w := batchLines(out)
	defer w.flush()
	for _, oc := range outcomes {
		switch oc.Action {
		case "unchanged":
			fmt.Fprintf(w, "%s is already in %s, unchanged\n", oc.Name, where)
		case "added":
			fmt.Fprintf(w, "%s %s to %s\n", Style(o.Color).Paint(Green, "added"), oc.Name, where)
		default:
			fmt.Fprintf(w, "%s %s in %s\n", Style(o.Color).Paint(Yellow, oc.Action), oc.Name, where)
		}
	}
}
