package render

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/store"
)

// Switch says what enable or disable changed, what was already so, and
// what to run to carry the change into the clients' files.
func Switch(w, ew io.Writer, st *store.Store, on bool, clients []formats.Adapter, changes []engine.SwitchChange, o Paths) {
	where := o.storeShow(st.Path)
	verb := map[bool]string{true: "enabled", false: "disabled"}[on]
	scopeFlag := ""
	if st.Scope == canonical.ScopeProject {
		scopeFlag = " --scope project"
	}
	var changedServers []string
	for _, c := range changes {
		if c.Client == "" && c.Action != "unchanged" {
			changedServers = append(changedServers, c.Server)
		}
	}
	for _, c := range changes {
		switch {
		case c.Client != "":
		case c.Action == "unchanged":
			fmt.Fprintf(w, "%s is already %s\n", c.Server, verb)
		case on:
			fmt.Fprintf(w, "%s %s in %s: clients that get it start it again\n", Style(o.Color).Paint(Green, "enabled"), c.Server, where)
		default:
			fmt.Fprintf(w, "%s %s in %s: clients keep it but do not start it\n", Style(o.Color).Paint(Yellow, "disabled"), c.Server, where)
		}
	}
	var touched []formats.Adapter
	var touchedServers []string
	for _, ad := range clients {
		var changed, same []string
		for _, c := range changes {
			if c.Client != ad.ID() {
				continue
			}
			if c.Action == "unchanged" {
				same = append(same, c.Server)
			} else {
				changed = append(changed, c.Server)
				if !slices.Contains(touchedServers, c.Server) {
					touchedServers = append(touchedServers, c.Server)
				}
			}
		}
		if len(changed) > 0 {
			touched = append(touched, ad)
			gets := "now gets"
			if !on {
				gets = "no longer gets"
			}
			fmt.Fprintf(w, "%s %s %s (%s)\n", ad.ID(), gets, strings.Join(changed, ", "), where)
		}
		for _, n := range same {
			fmt.Fprintf(w, "%s is already %s for %s\n", n, verb, ad.ID())
		}
	}
	if on {
		var off []string
		for _, n := range touchedServers {
			if srv, ok := st.Servers.Get(n); ok && srv.Disabled {
				off = append(off, n)
			}
		}
		if len(off) > 0 {
			fmt.Fprintf(ew, "note: %s disabled for every client; 'mcpsync enable %s%s' switches %s on\n",
				engine.DescribeNames("server", off), strings.Join(off, " "), scopeFlag, engine.Them(off))
		}
	}
	it := engine.Them(append(changedServers, touchedServers...))
	if len(changedServers) > 0 {
		fmt.Fprintf(ew, "next: run 'mcpsync export --to all%s' (or 'mcpsync sync%s') to write that into your clients' files\n", scopeFlag, scopeFlag)
		if !on {
			fmt.Fprintf(ew, "note: a client that cannot mark a server disabled (export names it) keeps its entry on; "+
				"'mcpsync disable %s --client CLIENT%s' takes %s away from that client\n", strings.Join(changedServers, " "), scopeFlag, engine.Them(changedServers))
		}
	}
	if len(touched) == 0 {
		return
	}
	ids := make([]string, len(touched))
	for i, ad := range touched {
		ids[i] = ad.ID()
	}
	files := "their files"
	if len(touched) == 1 {
		files = touched[0].DisplayName() + "'s file"
	}
	if on {
		fmt.Fprintf(ew, "next: run 'mcpsync export --to %s%s' (or 'mcpsync sync%s') to write %s into %s\n",
			strings.Join(ids, ","), scopeFlag, scopeFlag, it, files)
	} else {
		fmt.Fprintf(ew, "next: run 'mcpsync export --to %s%s --prune' (or 'mcpsync sync%s') to take %s out of %s\n",
			strings.Join(ids, ","), scopeFlag, scopeFlag, it, files)
	}
}
