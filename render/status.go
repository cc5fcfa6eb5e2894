package render

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/termsafe"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
)

// Status writes where the team sources and the managed files stand
// (mcpsync status): the table to w, the pending-approval advice to ew.
func Status(w, ew io.Writer, st *store.Store, out *engine.Status, o Paths) {
	if len(out.Sources) == 0 {
		fmt.Fprintf(w, "no team source in %s (add one with: mcpsync source add NAME --git URL)\n", o.storeShow(st.Path))
	}
	for _, s := range out.Sources {
		where := "git " + s.Git
		if s.Ref != "" {
			where += ", ref " + s.Ref
		}
		if s.Path != "" {
			where += ", path " + s.Path
		}
		fmt.Fprintf(w, "source %s (%s)\n", Style(o.Color).Paint(Bold, s.Name), where)
		if s.Pulled == nil {
			fmt.Fprintf(w, "  not pulled yet: run 'mcpsync pull %s'\n", s.Name)
		} else {
			fmt.Fprintf(w, "  pulled %s, commit %s\n", s.Pulled.At.Format(time.RFC3339), engine.ShortHash(s.Pulled.Commit))
		}
		if s.Moved {
			fmt.Fprintf(w, "  %s the store has changed the source since that pull; run 'mcpsync pull %s'\n", Style(o.Color).Paint(Yellow, "!"), s.Name)
		}
		if s.LastError != nil {
			fmt.Fprintf(w, "  %s the pull of %s failed: %s; the pull above stays in effect\n", Style(o.Color).Paint(Red, "!"),
				s.LastError.At.Format(time.RFC3339), s.LastError.Message)
		}
		tw := NewTable(w, o.Color)
		for _, ss := range s.Servers {
			switch ss.Approval {
			case sources.Approved:
				fmt.Fprintf(tw, "  approved\t%s\t\n", ss.Qualified)
			case sources.PendingNew:
				fmt.Fprintf(tw, "  %s\t%s\tnew: not exported until approved (mcpsync approve %s@%s)\n", Style(o.Color).Paint(Yellow, "pending"),
					ss.Qualified, ss.Qualified, engine.ShortHash(ss.Hash))
			case sources.PendingChange:
				fmt.Fprintf(tw, "  %s\t%s\tchanged: clients keep the approved version until approved (mcpsync approve %s@%s)\n",
					Style(o.Color).Paint(Yellow, "pending"), ss.Qualified, ss.Qualified, engine.ShortHash(ss.Hash))
			}
		}
		tw.Flush()
		for _, ss := range s.Servers {
			if ss.Diff != "" {
				fmt.Fprintln(w)
				for _, l := range strings.SplitAfter(strings.TrimSuffix(ColorDiff(ss.Diff, o.Color), "\n"), "\n") {
					fmt.Fprint(w, "    "+l)
				}
				fmt.Fprintln(w)
			}
		}
		if len(s.Files) > 0 {
			var shown []string
			for _, f := range s.Files {
				shown = append(shown, o.show(f))
			}
			fmt.Fprintf(w, "  in clients: %s\n", strings.Join(shown, ", "))
		}
	}
	if len(out.ManagedFiles) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, Style(o.Color).Paint(Bold, "managed files"))
		tw := NewTable(w, o.Color)
		for _, f := range out.ManagedFiles {
			var names []string
			for _, e := range f.Entries {
				n := e.Name
				if e.Section != "" {
					n += " [" + o.show(e.Section) + "]"
				}
				names = append(names, n)
			}
			note := ""
			if !f.Exists {
				note = " (missing)"
			}
			fmt.Fprintf(tw, "  %s%s\t%s\n", f.Display, note, strings.Join(names, ", "))
		}
		tw.Flush()
	}
	if out.Pending > 0 {
		fmt.Fprintf(ew, "%s pending approval: review the diffs above, then 'mcpsync approve NAME@CONTENT' as listed (the content you reviewed, "+
			"refused if it changed since), or 'mcpsync approve NAME...' / 'mcpsync approve --all'\n", engine.CountOf(out.Pending, "server"))
	}
}

// Health prints status --strict: one line per problem on ew ("drift: …"),
// or that everything is in step on w.
func Health(w, ew io.Writer, h *engine.Health) {
	for _, p := range h.Problems {
		fmt.Fprintf(ew, "%s: %s\n", p.Kind, termsafe.Escape(p.Message, false))
	}
	if h.Healthy {
		fmt.Fprintf(w, "healthy: %s in step, nothing pending\n", engine.CountOf(h.ManagedFiles, "managed file"))
	}
}
