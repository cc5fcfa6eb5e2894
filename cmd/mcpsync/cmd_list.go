package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

const listDescription = `List the servers in the store: name, transport, what runs (the command
line, or the URL), whether clients start it, and which clients get it under
the client "NAME" rules of the store.

--json prints the servers in canonical form with the store's client rules,
for scripts.

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
	Servers []canonical.Server          `json:"servers"`
	Clients map[string]store.ClientRule `json:"clients"`
}

func (a *App) runList(scope canonical.Scope) error {
	st, err := a.openStore(scope)
	if err != nil {
		return err
	}
	if a.JSON {
		servers := []canonical.Server{}
		for _, srv := range st.Servers.Servers {
			servers = append(servers, secrets.MaskServer(srv)) // a literal secret is never printed
		}
		return a.printJSON(listJSON{Store: st.Path, Scope: st.Scope, Servers: servers, Clients: st.Clients})
	}
	if st.Servers.Len() == 0 {
		fmt.Fprintf(a.Stderr, "no servers in %s yet; add one with: mcpsync add NAME -- COMMAND\n", a.storeDisplay(st.Path))
		return nil
	}
	tw := a.newTable()
	fmt.Fprintln(tw, a.paint(false, styleBold, "NAME\tTRANSPORT\tCOMMAND/URL\tENABLED\tCLIENTS"))
	for _, srv := range st.Servers.Servers {
		srv = secrets.MaskServer(srv)
		enabled := "yes"
		if srv.Disabled {
			enabled = a.paint(false, styleDim, "no")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", srv.Name, srv.Transport, truncate(target(srv), 60), enabled, clientsFor(st, srv.Name))
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
