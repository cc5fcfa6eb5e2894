package main

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

func (a *App) showCommand() *cli.Command {
	return &cli.Command{
		Name:          "show",
		Usage:         "show one server of the store",
		ArgsUsage:     "NAME",
		Description:   help("show"),
		Flags:         []cli.Flag{storeScopeFlag()},
		ShellComplete: a.completeServerNames,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			args := cmd.Args().Slice()
			if len(args) != 1 {
				return usagef("show takes one server name, for example: mcpsync show github")
			}
			return a.runShow(canonical.Scope(cmd.String("scope")), args[0])
		},
	}
}

func (a *App) runShow(scope canonical.Scope, name string) error {
	l, err := a.engine().List(scope)
	if err != nil {
		return err
	}
	a.report(l.Diags, l.Notes)
	st, servers := l.Store, l.Servers
	i := slices.IndexFunc(servers, func(ls engine.ListedServer) bool { return ls.Name == name })
	if i < 0 {
		names := make([]string, len(servers))
		for i, ls := range servers {
			names[i] = ls.Name
		}
		msg := fmt.Sprintf("server %q is not in %s", name, a.engine().StoreDisplay(st.Path))
		if s := store.Suggest(name, names); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return fmt.Errorf("%s; list the servers with: mcpsync list", msg)
	}
	ls := servers[i]
	srv := secrets.MaskServer(ls.Server) // a literal secret is shown masked: ghp_***
	if a.JSON {
		if ls.Source == "" {
			return a.printJSON(srv)
		}
		ls.Server = srv
		return a.printJSON(ls)
	}
	w := a.Stdout
	where := a.engine().StoreDisplay(srv.Origin.String())
	if ls.Source != "" {
		where = "team source " + ls.Source + " (" + where + ")"
	}
	fmt.Fprintf(w, "%s  %s\n", a.paint(false, styleBold, srv.Name), a.paint(false, styleDim, where))
	row := func(key, value string) {
		if value != "" {
			fmt.Fprintf(w, "  %-16s %s\n", key, value)
		}
	}
	if ls.Source != "" {
		row("approval", approvalLine(ls))
	}
	if srv.Project != "" {
		row("project", a.engine().StoreDisplay(srv.Project)+" (Claude Code's local scope: only that project's section gets it)")
	}
	row("transport", string(srv.Transport))
	if srv.Command != "" {
		row("command", shellJoin(append([]string{srv.Command}, srv.Args...)))
	}
	row("cwd", srv.Cwd)
	row("url", srv.URL)
	for _, kv := range sortedPairs(srv.Env) {
		row("env", kv)
	}
	for _, kv := range sortedPairs(srv.Headers) {
		row("header", strings.Replace(kv, "=", ": ", 1))
	}
	if srv.Disabled {
		row("enabled", "no (clients keep it but do not start it)")
	} else {
		row("enabled", "yes")
	}
	row("tools allowed", strings.Join(srv.ToolsAllow, ", "))
	row("tools denied", strings.Join(srv.ToolsDeny, ", "))
	if srv.StartupTimeout > 0 {
		row("startup timeout", srv.StartupTimeout.String())
	}
	if srv.ToolTimeout > 0 {
		row("tool timeout", srv.ToolTimeout.String())
	}
	if o := srv.Auth.OAuth; !o.IsZero() {
		row("oauth client", o.ClientID)
		row("oauth secret", o.ClientSecret)
		row("oauth scopes", strings.Join(o.Scopes, " "))
		if o.CallbackPort != 0 {
			row("oauth port", fmt.Sprint(o.CallbackPort))
		}
		row("oauth redirect", o.RedirectURI)
		row("oauth metadata", o.AuthServerMetadataURL)
		row("oauth resource", o.Resource)
	}
	row("clients", ls.Clients(st))
	clients := make([]string, 0, len(srv.Extra))
	for c := range srv.Extra {
		clients = append(clients, c)
	}
	sort.Strings(clients)
	for _, c := range clients {
		keys := make([]string, 0, len(srv.Extra[c]))
		for k := range srv.Extra[c] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			row("extra "+c, k+" = "+string(srv.Extra[c][k]))
		}
	}
	return nil
}

func sortedPairs(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// approvalLine says where a team source's server stands.
func approvalLine(ls engine.ListedServer) string {
	switch ls.Approval {
	case sources.PendingNew:
		return "pending: new, not exported until approved (review with 'mcpsync status', then 'mcpsync approve " + ls.Name + "')"
	case sources.PendingChange:
		return "a change is pending: clients keep the approved version below until 'mcpsync approve " + ls.Name + "'"
	}
	return "approved"
}
