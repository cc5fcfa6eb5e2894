package reconcile

import (
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/store"
)

// Import decides what one server read from a client becomes in the store,
// with the same three-way merge as a sync: the base (what the store and
// the clients last agreed on), the store, and the client's entry as that
// client reads it. So an import right after an export adopts what it finds
// unchanged; a field the client cannot hold (a cwd, a timeout, SSE read
// back as HTTP) is never a difference; an edit made in the client since
// mcpsync wrote it is taken, keeping what the client could not express;
// the store's own change since is kept; and only a server changed on both
// sides, or an entry of the client's own that differs, is a conflict.
//
// Import is a one-way sync into the store: it never writes the client's
// file and never reads the lack of a server in it as a removal.

// ImportAction is what the store does with one imported server.
type ImportAction int

const (
	// ImportSame: the store already holds it as the client does.
	ImportSame ImportAction = iota
	// ImportAdd: the store gets Server, a server it does not have.
	ImportAdd
	// ImportUpdate: the store's server becomes Server (the client's edit).
	ImportUpdate
	// ImportStoreNewer: the client holds what mcpsync last wrote there and
	// the store has changed it since (or removed it): the store's version
	// stands, and export or sync brings the client up to date.
	ImportStoreNewer
	// ImportConflict: both sides changed it, or the client's own entry
	// differs from the store's; Conflict shows both versions.
	ImportConflict
)

// ImportOptions are the inputs of an import decision.
type ImportOptions struct {
	Store *store.Store
	// State is the ledger: the bases and what mcpsync wrote in the client.
	State *ledger.State
	// Adapter reads the client's files.
	Adapter formats.Adapter
	// Foreign: the servers come from a file that is not the client's own
	// (import --file): nothing mcpsync wrote there is known.
	Foreign bool
	Encode  formats.EncodeOptions
	Views   *ViewCache
	// StoreIndex, when set, is Store.Servers by name: a caller deciding
	// every server of a file passes one, so that each is not a scan.
	StoreIndex *canonical.Indexed
}

// ImportDecision is the verdict on one server.
type ImportDecision struct {
	Action ImportAction
	// Server is what the store holds afterwards (ImportAdd, ImportUpdate).
	Server canonical.Server
	// Removed: ImportStoreNewer because the store removed the server.
	Removed bool
	// Conflict, for ImportConflict.
	Conflict *Conflict
}

// DecideImport merges the server in, read from the client's file at loc,
// with the store. takeClient settles a conflict with the client's version
// (import --prefer client).
func DecideImport(opts ImportOptions, in canonical.Server, loc formats.Location, takeClient bool) ImportDecision {
	st := opts.State
	if st == nil {
		st = ledger.New("")
	}
	if opts.Views == nil {
		opts.Views = NewViewCache()
	}
	name, storePath := in.Name, opts.Store.Path
	section := emitters.SectionKey(loc)
	sd := &side{id: opts.Adapter.ID(), path: loc.Path, section: section, key: ledger.ClientKey(loc.Path, section), views: opts.Views,
		tp: &emitters.TargetPlan{Target: emitters.Target{Adapter: opts.Adapter, Location: loc}, Client: opts.Adapter.ID()}}

	mi := mergeIn{Take: -1}
	if e := st.Base(storePath, name); e != nil {
		mi.Kind, mi.Base = hasBase, fieldsOf(e.Snap())
	} else if e := st.Deleted(storePath, name); e != nil {
		mi.Kind, mi.Base = deletedBase, fieldsOf(e.Snap())
	}
	identity := func(f fields) (fields, bool) { return f, true }
	storeSide := sideIn{ID: StoreSide, Store: true, Fresh: !opts.Store.Exists, View: identity}
	var have canonical.Server
	var inStore bool
	if opts.StoreIndex != nil {
		have, inStore = opts.StoreIndex.Get(name)
	} else {
		have, inStore = opts.Store.Servers.Get(name)
	}
	if inStore {
		storeSide.Present, storeSide.Cur = true, fieldsOf(have)
		if storeSide.Cur.equal(fieldsOf(in)) {
			// The client holds exactly the store's server: nothing to
			// merge, and no need to ask how the client reads it back.
			return ImportDecision{Action: ImportSame}
		}
	}
	client := sideIn{ID: sd.id, View: sd.viewOf(name, opts.Encode), Present: true, Cur: fieldsOf(in)}
	if !opts.Foreign {
		if ref := clientRef(st, storePath, sd, name); ref != nil {
			client.Ref, client.HasRef = fieldsOf(ref.Snap()), true
		}
		client.Managed = st.IsManaged(sd.path, sd.section, name)
	}
	mi.Sides = []sideIn{storeSide, client}
	if takeClient {
		mi.Take = 1
	}
	out := merge(mi)
	switch {
	case out.Err != "":
		// Nothing of the client's to take: it holds what was agreed.
		return ImportDecision{Action: ImportSame}
	case out.Verdict == conflict:
		c := conflictOf(name, storePath, mi, out, []*side{nil, sd})
		return ImportDecision{Action: ImportConflict, Conflict: &c}
	case out.Verdict != settled:
		return ImportDecision{Action: ImportSame}
	case out.Del:
		return ImportDecision{Action: ImportStoreNewer, Removed: true}
	}
	winner := out.Winner
	if inStore {
		// What the store says for other clients stays.
		for k, v := range storeSide.Cur {
			if _, ok := winner[k]; !ok && len(k) > len(extraPrefix) && k[:len(extraPrefix)] == extraPrefix && k != extraPrefix+sd.id {
				winner = winner.clone()
				winner[k] = v
			}
		}
		if winner.equal(storeSide.Cur) {
			// The store's version stands; the client holds it already, or
			// an older one that export or sync replaces.
			if v, ok := client.View(winner); ok {
				e, _ := realEdits(v, client.Cur)
				dropOwnExtra(e, winner, sd.id)
				if len(e) == 0 {
					return ImportDecision{Action: ImportSame}
				}
			}
			return ImportDecision{Action: ImportStoreNewer}
		}
	}
	srv := winner.server(name)
	srv.Project = in.Project
	if !inStore {
		return ImportDecision{Action: ImportAdd, Server: srv}
	}
	srv.Project = have.Project
	if in.Project != "" {
		srv.Project = in.Project
	}
	return ImportDecision{Action: ImportUpdate, Server: srv}
}
