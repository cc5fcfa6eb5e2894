package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

const listDescription = `List the servers in the store: name, transport, what runs (the command
line, or the URL), whether clients start it, and which clients get it under
the client "NAME" rules of the store.

The servers of the store's team sources ('mcpsync source') are listed too,
after the store's own, with a SOURCE column: the source, and whether a
server waits for approval (a new one reaches no client until approved; a
changed one stays at its approved version).

--json prints the servers in canonical form with the store's client rules,
for scripts; a team source's server also has "source" and "approval".

Examples:
  mcpsync list
  mcpsync list --scope project
  mcpsync --json list | jq -r '.servers[].name'`

func (a *App) listCommand() *cli.Command {
	return &cli.Command{
		Name:        "list",
		Aliases:     []string{"ls"},
		Usage:       "list the servers in the store",
		Description: listDescription,
		Flags:       []cli.Flag{storeScopeFlag()},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return a.runList(canonical.Scope(cmd.String("scope")))
		},
	}
}

// listJSON is list's --json output.
type listJSON struct {
	Store   string                      `json:"store"`
	Scope   canonical.Scope             `json:"scope"`
	Servers []listServer                `json:"servers"`
	Clients map[string]store.ClientRule `json:"clients"`
}

// listServer is a server as list and show print it: canonical form, and
// for a team source's server the source and its approval.
type listServer struct {
	canonical.Server
	Source string `json:"source,omitempty"`
	// Approval is approved, pending-change (the approved version is in
	// effect) or pending-new (the pulled version, in no client yet).
	Approval sources.Approval `json:"approval,omitempty"`
}

// listedServers returns the store's servers, then its team sources'
// servers: those in effect, then those never approved (as pulled).
func (a *App) listedServers(st *store.Store) ([]listServer, error) {
	out := []listServer{}
	for _, srv := range st.Servers.Servers {
		out = append(out, listServer{Server: srv})
	}
	if len(st.Sources) == 0 || st.Scope == canonical.ScopeProject {
		return out, nil
	}
	d, err := desired.Load(st, a.Dirs.State)
	if err != nil {
		return nil, err
	}
	pending := map[string]sources.ServerStatus{}
	for _, p := range d.Pending {
		pending[p.Qualified] = p
	}
	for _, srv := range d.Set.Servers {
		if src, ok := d.FromSource[srv.Name]; ok {
			ls := listServer{Server: srv, Source: src, Approval: sources.Approved}
			if p, ok := pending[srv.Name]; ok {
				ls.Approval = p.Approval
			}
			out = append(out, ls)
		}
	}
	for _, p := range d.Pending {
		if p.Approval != sources.PendingNew || d.Set.Index(p.Qualified) >= 0 {
			continue
		}
		srv := p.Pulled.Clone()
		srv.Name = p.Qualified
		for _, src := range st.Sources {
			if src.Name == p.Source {
				srv.Origin = src.Pos
			}
		}
		out = append(out, listServer{Server: srv, Source: p.Source, Approval: p.Approval})
	}
	return out, nil
}

// sourceNote says where a team source's server comes from, for list's
// SOURCE column: "acme", "acme (change pending)", "acme (pending approval)".
func (s listServer) sourceNote() string {
	switch s.Approval {
	case "":
		return "store"
	case sources.PendingNew:
		return s.Source + " (pending approval)"
	case sources.PendingChange:
		return s.Source + " (change pending)"
	}
	return s.Source
}

// clientsOf is clientsFor, or "none until approved" for a server that
// waits for its first approval.
func (s listServer) clientsOf(st *store.Store) string {
	if s.Approval == sources.PendingNew {
		return "none until approved"
	}
	if s.Project != "" {
		return "claude-code (local, one project)"
	}
	return clientsFor(st, s.Name)
}

func (a *App) runList(scope canonical.Scope) error {
	st, err := a.openStore(scope)
	if err != nil {
		return err
	}
	servers, err := a.listedServers(st)
	if err != nil {
		return err
	}
	if a.JSON {
		for i := range servers {
			servers[i].Server = secrets.MaskServer(servers[i].Server) // a literal secret is never printed
		}
		return a.printJSON(listJSON{Store: st.Path, Scope: st.Scope, Servers: servers, Clients: st.Clients})
	}
	if len(servers) == 0 {
		fmt.Fprintf(a.Stderr, "no servers in %s yet; add one with: mcpsync add NAME -- COMMAND\n", a.engine().StoreDisplay(st.Path))
		return nil
	}
	withSources := servers[len(servers)-1].Source != ""
	tw := a.newTable()
	header := "NAME\tTRANSPORT\tCOMMAND/URL\tENABLED\tCLIENTS"
	if withSources {
		header += "\tSOURCE"
	}
	fmt.Fprintln(tw, a.paint(false, styleBold, header))
	for _, ls := range servers {
		srv := secrets.MaskServer(ls.Server)
		enabled := "yes"
		if srv.Disabled {
			enabled = a.paint(false, styleDim, "no")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s", srv.Name, srv.Transport, truncate(target(srv), 60), enabled, ls.clientsOf(st))
		if withSources {
			note := ls.sourceNote()
			if ls.Approval != "" && ls.Approval != sources.Approved {
				note = a.paint(false, styleYellow, note)
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
	return shellJoin(append([]string{srv.Command}, srv.Args...))
}

// clientsFor summarises the client rules for one server: "all", "all but
// cursor", or "none of cursor, zed" style lists.
func clientsFor(st *store.Store, server string) string {
	var denied []string
	for client := range st.Clients {
		if !st.Allows(client, server) {
			denied = append(denied, client)
		}
	}
	if len(denied) == 0 {
		return "all"
	}
	sort.Strings(denied)
	return "all but " + strings.Join(denied, ", ")
}

// shellJoin writes a command line a shell would split back into args.
func shellJoin(args []string) string {
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
