package doctor

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/store"
)

// storeClass is the store a client scope pairs with: the project's store
// feeds project files, the user store the rest.
func storeClass(s canonical.Scope) canonical.Scope {
	if s == canonical.ScopeProject {
		return canonical.ScopeProject
	}
	return canonical.ScopeUser
}

// team is the user store's team-source servers in effect, by source.
type team struct {
	servers canonical.Set
	source  map[string]string
}

// drift reports servers whose definition differs between a client and the
// store (or the team source that gives it), or, for names neither has,
// between clients.
func drift(entries []entry, stores map[canonical.Scope]*store.Store, os string, tm team) []Finding {
	var out []Finding
	type key struct {
		class canonical.Scope
		name  string
	}
	groups := map[key][]entry{}
	var order []key
	// Each store's servers and the team's by name, once: every entry of
	// every file is looked up, and Set.Get scans (at 10,000 servers in
	// five files this was most of mcpsync doctor).
	indexed := map[canonical.Scope]*canonical.Indexed{}
	for class, st := range stores {
		if st != nil {
			indexed[class] = st.Servers.Indexed()
		}
	}
	teamServers := tm.servers.Indexed()
	for _, e := range entries {
		if e.loc.Scope == canonical.ScopeManaged {
			continue // not the user's to change
		}
		class := storeClass(e.loc.Scope)
		if st := stores[class]; st != nil {
			if want, ok := indexed[class].Get(e.srv.Name); ok && formats.ServerInScope(want, e.loc) {
				want.Project = "" // where the entry sits says it (want is a copy; its maps are the store's, only read)
				if !st.Allows(e.client.ID(), e.srv.Name) {
					continue
				}
				caps := e.client.Capabilities()
				if len(differing(want, e.srv, caps, caps)) == 0 {
					continue // the usual case, without encoding anything
				}
				// Compare with what the client would read back, so that what it
				// cannot express (a cwd for Claude Code) is no difference.
				view := formats.ViewOr(e.client, e.loc, want.Clone(), formats.EncodeOptions{OS: os})
				if fields := differing(view, e.srv, caps, caps); len(fields) > 0 {
					out = append(out, storeDrift(e, st, fields))
				}
				continue
			}
		}
		if want, ok := teamServers.Get(e.srv.Name); ok && class == canonical.ScopeUser {
			if st := stores[class]; st != nil && !st.Allows(e.client.ID(), e.srv.Name) {
				continue
			}
			caps := e.client.Capabilities()
			if fields := differing(want, e.srv, caps, caps); len(fields) > 0 {
				if fields = differing(formats.ViewOr(e.client, e.loc, want, formats.EncodeOptions{OS: os}), e.srv, caps, caps); len(fields) > 0 {
					out = append(out, teamDrift(e, tm.source[e.srv.Name], fields))
				}
			}
			continue
		}
		k := key{class, e.srv.Name}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], e)
	}
	for _, k := range order {
		if f, ok := clientDrift(groups[k]); ok {
			out = append(out, f)
		}
	}
	return out
}

func storeDrift(e entry, st *store.Store, fields []string) Finding {
	id := e.client.ID()
	scopeFlag := ""
	if e.loc.Scope != canonical.ScopeUser {
		scopeFlag = " --scope " + string(e.loc.Scope)
	}
	f := Finding{Severity: SevWarning, Kind: Drift, Client: id, Scope: e.loc.Scope, Server: e.srv.Name,
		File: e.srv.Origin.File, Line: e.srv.Origin.Line, Column: e.srv.Origin.Column,
		Message: fmt.Sprintf("%s's definition differs from the store's (%s): %s", e.client.DisplayName(), st.Path, strings.Join(fields, ", ")),
		Fix: fmt.Sprintf("'mcpsync diff --to %s%s' shows it; 'mcpsync export --to %s%s' writes the store's (--force if mcpsync did not write this entry), "+
			"'mcpsync import --from %s%s --prefer client' takes this one", id, scopeFlag, id, scopeFlag, id, scopeFlag)}
	if f.File == "" {
		f.File = e.loc.Path
	}
	return f
}

// teamDrift is a client's entry of a team source's server that differs
// from the source's approved version: only the source changes it.
func teamDrift(e entry, source string, fields []string) Finding {
	id := e.client.ID()
	f := Finding{Severity: SevWarning, Kind: Drift, Client: id, Scope: e.loc.Scope, Server: e.srv.Name,
		File: e.srv.Origin.File, Line: e.srv.Origin.Line, Column: e.srv.Origin.Column,
		Message: fmt.Sprintf("%s's definition differs from the version team source %s gives: %s", e.client.DisplayName(), source, strings.Join(fields, ", ")),
		Fix: fmt.Sprintf("the source alone changes it (upstream, then 'mcpsync pull' and 'mcpsync approve'); 'mcpsync export --to %s --force' writes the source's version back, "+
			"'mcpsync import --from %s --rename' keeps this one as a server of your own", id, id)}
	if f.File == "" {
		f.File = e.loc.Path
	}
	return f
}

// clientDrift compares the entries of one name across clients (no store
// definition): every client against the first, on what both can express.
func clientDrift(g []entry) (Finding, bool) {
	if len(g) < 2 {
		return Finding{}, false
	}
	ref := g[0]
	var parts []string
	var fields []string
	for _, e := range g[1:] {
		if e.client.ID() == ref.client.ID() {
			continue // one client's scopes: see duplicates
		}
		if d := differing(ref.srv, e.srv, ref.client.Capabilities(), e.client.Capabilities()); len(d) > 0 {
			parts = append(parts, fmt.Sprintf("%s differs in %s", e.client.ID(), strings.Join(d, ", ")))
			for _, x := range d {
				if !slices.Contains(fields, x) {
					fields = append(fields, x)
				}
			}
		}
	}
	if len(parts) == 0 {
		return Finding{}, false
	}
	f := Finding{Severity: SevWarning, Kind: Drift, Client: ref.client.ID(), Scope: ref.loc.Scope, Server: ref.srv.Name,
		File: ref.srv.Origin.File, Line: ref.srv.Origin.Line, Column: ref.srv.Origin.Column,
		Message: fmt.Sprintf("the clients disagree on this server: compared with %s here, %s", ref.client.ID(), strings.Join(parts, "; ")),
		Fix: "choose the definition you want, bring it into the store ('mcpsync import --from CLIENT'), then 'mcpsync export --to all --force' " +
			"(or 'mcpsync sync' to keep them in step)"}
	if f.File == "" {
		f.File = ref.loc.Path
	}
	return f, true
}

// differing names the fields in which a and b differ, among those both
// clients can express. Values are not shown: they may be secrets.
func differing(a, b canonical.Server, ca, cb formats.Capabilities) []string {
	a, b = a.Normalized(), b.Normalized()
	var out []string
	if a.Transport != b.Transport && ca.Supports(b.Transport) && cb.Supports(a.Transport) {
		out = append(out, "transport")
	}
	if a.Command != b.Command {
		out = append(out, "command")
	}
	if !slices.Equal(a.Args, b.Args) {
		out = append(out, "args")
	}
	if !maps.Equal(a.Env, b.Env) {
		out = append(out, "env")
	}
	if a.URL != b.URL {
		out = append(out, "url")
	}
	if ca.Headers && cb.Headers && !maps.Equal(a.Headers, b.Headers) {
		out = append(out, "headers")
	}
	if ca.Cwd && cb.Cwd && a.Cwd != b.Cwd {
		out = append(out, "cwd")
	}
	if ca.Disabled && cb.Disabled && a.Disabled != b.Disabled {
		out = append(out, "disabled")
	}
	return out
}
