package render

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
)

// Server writes one server of the store as mcpsync show prints it: where
// it is defined, how it runs, its references, which clients get it. srv is
// ls's server with its literal secrets masked.
func Server(w io.Writer, ls engine.ListedServer, srv canonical.Server, st *store.Store, o Paths) {
	where := o.storeShow(srv.Origin.String())
	if ls.Source != "" {
		where = "team source " + ls.Source + " (" + where + ")"
	}
	fmt.Fprintf(w, "%s  %s\n", Style(o.Color).Paint(Bold, srv.Name), Style(o.Color).Paint(Dim, where))
	row := func(key, value string) {
		if value != "" {
			fmt.Fprintf(w, "  %-16s %s\n", key, value)
		}
	}
	if ls.Source != "" {
		row("approval", approvalLine(ls))
	}
	if srv.Project != "" {
		row("project", o.storeShow(srv.Project)+" (Claude Code's local scope: only that project's section gets it)")
	}
	row("transport", string(srv.Transport))
	if srv.Command != "" {
		row("command", ShellJoin(append([]string{srv.Command}, srv.Args...)))
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
