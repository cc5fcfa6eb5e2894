package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
)

// List writes the store's servers as a table (mcpsync list), with a
// SOURCE column when a team source gives some; literal secrets masked.
func List(w io.Writer, servers []engine.ListedServer, st *store.Store, o Paths) error {
	withSources := servers[len(servers)-1].Source != ""
	tw := NewTable(w, o.Color)
	header := "NAME\tTRANSPORT\tCOMMAND/URL\tENABLED\tCLIENTS"
	if withSources {
		header += "\tSOURCE"
	}
	fmt.Fprintln(tw, Style(o.Color).Paint(Bold, header))
	for _, ls := range servers {
		srv := secrets.MaskServer(ls.Server)
		enabled := "yes"
		if srv.Disabled {
			enabled = Style(o.Color).Paint(Dim, "no")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s", srv.Name, srv.Transport, truncate(target(srv), 60), enabled, ls.Clients(st))
		if withSources {
			note := ls.SourceNote()
			if ls.Approval != "" && ls.Approval != sources.Approved {
				note = Style(o.Color).Paint(Yellow, note)
			}
			fmt.Fprintf(tw, "\t%s", note)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// target is what a server runs: its command line, or its URL.
func target(srv canonical.Server) string {
	if srv.Transport.IsRemote() || srv.Command == "" {
		return srv.URL
	}
	return ShellJoin(append([]string{srv.Command}, srv.Args...))
}

// ShellJoin writes a command line a shell would split back into args.
func ShellJoin(args []string) string {
	out := make([]string, len(args))
	for i, s := range args {
		if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`*?[]{}()<>|&;#~") {
			out[i] = s
			continue
		}
		out[i] = "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// ListJSON is list's --json answer (and serve's list_servers): every
// server masked (secrets.MaskServer), the client rules.
type ListJSON struct {
	Store    string                      `json:"store"`
	Scope    canonical.Scope             `json:"scope"`
	Servers  []engine.ListedServer       `json:"servers"`
	Clients  map[string]store.ClientRule `json:"clients"`
	Notes    []string                    `json:"notes,omitempty"`
	Warnings canonical.Diagnostics       `json:"warnings,omitempty"`
}

// ListOf is the --json shape of a listing, a literal secret never in it.
func ListOf(l *engine.Listing) ListJSON {
	servers := make([]engine.ListedServer, len(l.Servers))
	for i, ls := range l.Servers {
		ls.Server = secrets.MaskServer(ls.Server)
		servers[i] = ls
	}
	return ListJSON{Store: l.Store.Path, Scope: l.Store.Scope, Servers: servers, Clients: l.Store.Clients}
}
