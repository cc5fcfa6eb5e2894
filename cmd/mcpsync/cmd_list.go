package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

func (a *App) listCommand() *cli.Command {
	return &cli.Command{
		Name:        "list",
		Aliases:     []string{"ls"},
		Usage:       "list the servers in the store",
		Description: help("list"),
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
	Servers []engine.ListedServer       `json:"servers"`
	Clients map[string]store.ClientRule `json:"clients"`
}

func (a *App) runList(scope canonical.Scope) error {
	l, err := a.engine().List(scope)
	if err != nil {
		return err
	}
	a.report(l.Diags, l.Notes)
	st, servers := l.Store, l.Servers
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
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s", srv.Name, srv.Transport, truncate(target(srv), 60), enabled, ls.Clients(st))
		if withSources {
			note := ls.SourceNote()
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
