// Package desired says what the clients fed by one store should hold: the
// store's own servers, then the approved servers of the store's team
// sources. export, diff, sync and watch all start from Load, so that a
// source server reaches clients the same way whichever command writes.
package desired

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
)

// Servers is the desired state of one store's clients.
type Servers struct {
	// Set holds the store's servers in store order, then each source's
	// servers in effect (approved content, qualified names), source by
	// source in store order.
	Set canonical.Set
	// FromSource names, for each server of Set that comes from a source,
	// that source. Such a server is not in the store: it is changed by
	// pulling and approving, never by editing the store, and a sync must
	// not write it back there.
	FromSource map[string]string
	// Pending lists the source servers waiting for approval.
	Pending []sources.ServerStatus
	// Diags are warnings: a name taken twice, a source never pulled, or
	// source blocks in a project store.
	Diags canonical.Diagnostics

	own *canonical.Indexed // Set by name, built on first use
}

// Load reads the sources' records from stateDir ($XDG_STATE_HOME/mcpsync)
// and combines them with the store.
func Load(st *store.Store, stateDir string) (*Servers, error) {
	recs, err := sources.LoadRecords(stateDir)
	if err != nil {
		return nil, err
	}
	return FromRecords(st, recs), nil
}

// FromRecords combines a store with the sources' records. Sources are read
// from the user store only: a project's mcpsync.hcl is itself the team's
// list, and a source named there is reported and left out. A source server
// whose name the store already uses is left out with a warning (the store's
// own server wins), as is a name another source already gave.
//
// The set holds the store's servers by value, in a list of its own (a
// server the store puts or appends later does not reach it), sharing
// their lists and maps: nothing changes a server in place (each writer,
// an adapter's Encode, Normalize on a definition to keep, works on a
// Clone), and a deep copy of every server was 8 MB of an export of 10,000,
// held to its end (TestFromRecordsSharesDefinitions).
func FromRecords(st *store.Store, recs *sources.Records) *Servers {
	out := &Servers{Set: canonical.Set{Servers: slices.Clone(st.Servers.Servers)}, FromSource: map[string]string{}}
	if len(st.Sources) == 0 {
		return out
	}
	if st.Scope == canonical.ScopeProject {
		for _, src := range st.Sources {
			d := canonical.Warnf("source %q is ignored: sources are read from the user store only", src.Name)
			d.Detail = "move the source block to the user store ($XDG_CONFIG_HOME/mcpsync/mcpsync.hcl); a project's mcpsync.hcl is already shared through the project's own repository"
			out.Diags = append(out.Diags, d.At(src.Pos))
		}
		return out
	}
	clashes := recs.Clashes(st.Sources)
	reported := map[string]bool{}
	for _, src := range st.Sources {
		if sources.CheckSource(src).HasErrors() {
			continue // the store reports it where the source is used (pull)
		}
		if recs.Get(src.Name) == nil {
			d := canonical.Warnf("source %q was never pulled; its servers are not exported yet", src.Name)
			d.Detail = "run 'mcpsync pull " + src.Name + "', review with 'mcpsync status', then 'mcpsync approve'"
			out.Diags = append(out.Diags, d.At(src.Pos))
			continue
		}
		for _, s := range recs.Statuses(src.Name) {
			if s.Pending() {
				out.Pending = append(out.Pending, s)
			}
		}
		for _, srv := range recs.InEffect(src) {
			if by := clashes[srv.Name]; len(by) > 0 {
				// One source could shadow another's server: neither is
				// exported, whichever comes first.
				if !reported[srv.Name] {
					reported[srv.Name] = true
					d := canonical.Warnf("sources %s each give a server named %q in clients; none of them is exported", joinQuoted(by), srv.Name)
					d.Detail = "rename one of the sources in the store (the name prefixes its servers), then pull and approve again"
					out.Diags = append(out.Diags, d.At(src.Pos))
				}
				continue
			}
			if own, ok := st.Servers.Get(srv.Name); ok {
				d := canonical.Warnf("source %q offers %q, which is also a server of the store; the store's own is used", src.Name, srv.Name)
				d.Detail = fmt.Sprintf("remove or rename the store's server (at %s) to use the source's", own.Origin)
				out.Diags = append(out.Diags, d.At(src.Pos))
				continue
			}
			out.Set.Servers = append(out.Set.Servers, srv)
			out.FromSource[srv.Name] = src.Name
		}
	}
	return out
}

// PendingNote is the one line commands print when servers wait for
// approval, or "" when none does.
func (s *Servers) PendingNote() string {
	switch n := len(s.Pending); n {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("1 server pending approval (%s): run 'mcpsync status'", s.Pending[0].Qualified)
	default:
		return fmt.Sprintf("%d servers pending approval: run 'mcpsync status'", n)
	}
}

// SourceOf names the team source a server name belongs to: one of Set
// (approved, in effect) or one waiting for approval that the store does
// not define itself. inEffect says it is in Set. "" when the name is the
// store's own, or nobody's.
func (s *Servers) SourceOf(name string) (source string, inEffect bool) {
	if src, ok := s.FromSource[name]; ok {
		return src, true
	}
	if s.own == nil {
		s.own = s.Set.Indexed() // the set is complete once built
	}
	if s.own.Has(name) {
		return "", false // the store's own server wins over a pending one
	}
	for _, p := range s.Pending {
		if p.Qualified == name {
			return p.Source, false
		}
	}
	return "", false
}

func joinQuoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, " and ")
}
