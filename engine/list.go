package engine

import (
	"sort"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
)

// Listing is the servers of a store, with what opening it had to say.
type Listing struct {
	Store   *store.Store
	Servers []ListedServer
	Diags   canonical.Diagnostics
	Notes   []string
}

// List opens the store of scope and lists its servers (Listed).
func (e *Engine) List(scope canonical.Scope) (*Listing, error) {
	st, ds, err := e.OpenStore(orUser(scope))
	if err != nil {
		return nil, err
	}
	l := &Listing{Store: st, Diags: ds}
	if note := e.StoreNote(st); note != "" {
		l.Notes = append(l.Notes, note)
	}
	l.Servers, err = e.Listed(st)
	return l, err
}

// ListedServer is a server as list and show print it: canonical form, and
// for a team source's server the source and its approval.
type ListedServer struct {
	canonical.Server
	Source string `json:"source,omitempty"`
	// Approval is approved, pending-change (the approved version is in
	// effect) or pending-new (the pulled version, in no client yet).
	Approval sources.Approval `json:"approval,omitempty"`
}

// Listed returns the store's servers, then its team sources'
// servers: those in effect, then those never approved (as pulled).
func (e *Engine) Listed(st *store.Store) ([]ListedServer, error) {
	out := []ListedServer{}
	for _, srv := range st.Servers.Servers {
		out = append(out, ListedServer{Server: srv})
	}
	if len(st.Sources) == 0 || st.Scope == canonical.ScopeProject {
		return out, nil
	}
	d, err := desired.Load(st, e.Dirs.State)
	if err != nil {
		return nil, err
	}
	pending := map[string]sources.ServerStatus{}
	for _, p := range d.Pending {
		pending[p.Qualified] = p
	}
	for _, srv := range d.Set.Servers {
		if src, ok := d.FromSource[srv.Name]; ok {
			ls := ListedServer{Server: srv, Source: src, Approval: sources.Approved}
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
		out = append(out, ListedServer{Server: srv, Source: p.Source, Approval: p.Approval})
	}
	return out, nil
}

// SourceNote says where a team source's server comes from, for list's
// SOURCE column: "acme", "acme (change pending)", "acme (pending approval)".
func (s ListedServer) SourceNote() string {
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

// Clients is ClientsFor, or "none until approved" for a server that
// waits for its first approval.
func (s ListedServer) Clients(st *store.Store) string {
	if s.Approval == sources.PendingNew {
		return "none until approved"
	}
	if s.Project != "" {
		return "claude-code (local, one project)"
	}
	return ClientsFor(st, s.Name)
}

// ClientsFor summarises the client rules for one server: "all", "all but
// cursor", or "none of cursor, zed" style lists.
func ClientsFor(st *store.Store, server string) string {
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
