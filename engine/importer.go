package engine

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/reconcile"
	"github.com/mcpsync/mcpsync/store"
)

// ImportOptions say what an import reads and how it settles conflicts.
type ImportOptions struct {
	// From is the client; Scope which of its files (user, project or
	// local); File, when set, a file in the client's shape to read instead.
	From  string
	Scope canonical.Scope
	File  string
	// Prefer settles conflicts: "store" keeps the store's definition,
	// "client" takes the client's. Rename imports a conflicting server (or
	// a team source's server changed in the client) as NAME-CLIENT.
	Prefer string
	Rename bool
	// Extract moves literal secrets out of the client's file (see
	// ImportSecrets); Reveal says their values can reach the user (a
	// terminal, or --show-secrets), without which nothing is extracted.
	Extract, Reveal bool
	// DryRun plans without taking the lock.
	DryRun bool
}

// Import outcomes, one per server.
const (
	ImportAdded     = "added"
	ImportUpdated   = "updated"
	ImportUnchanged = "unchanged"
	// ImportKeptStore: --prefer store kept the store's definition.
	ImportKeptStore = "kept-store"
	// ImportStoreNewer: the client holds what mcpsync last wrote there and
	// the store has changed (or removed) it since: the store's stands.
	ImportStoreNewer = "store-newer"
	ImportRenamed    = "renamed"
	ImportConflict   = "conflict"
	// ImportSkipped: a team source's server, which the store does not take.
	ImportSkipped = "skipped"
)

// ImportOutcome is what an import does with one server.
type ImportOutcome struct {
	Name   string `json:"name"`
	Action string `json:"action"`
	As     string `json:"as,omitempty"`
	From   string `json:"from,omitempty"`
	// Source is the team source a skipped server comes from.
	Source string `json:"source,omitempty"`
	// Removed: store-newer because the store removed the server.
	Removed bool `json:"removedInStore,omitempty"`
}

// Conflict is a server the store and the client define differently
// (both changed it, or the client's own entry differs): nothing changes
// for it until the user chooses.
type Conflict struct {
	Name   string
	Store  canonical.Server
	Client canonical.Server
	// Base is what they last agreed on, when known.
	Base *canonical.Server
}

// ImportRun is a planned import: show it, or Apply it. Close lets the lock
// go.
type ImportRun struct {
	Client    formats.Adapter
	Store     *store.Store
	Outcomes  []ImportOutcome
	Conflicts []Conflict
	// FromSources are the servers left out because a team source gives
	// them; SourceNote says so in one line.
	FromSources []ImportOutcome
	// Secrets is what was found of literal secrets; Rewrites, with
	// Extract, the plans that move them out of the client's files.
	Secrets  ImportSecrets
	Rewrites []*emitters.Plan
	Diags    canonical.Diagnostics
	Notes    []string

	e        *Engine
	o        ImportOptions
	puts     []canonical.Server
	incoming canonical.Set
	locs     []formats.Location
	lock     *ledger.Lock
	// db is the state as planning read it. While the run holds the lock
	// (from before that read to its last write) no other mcpsync writes
	// the state, so record takes it rather than reading the file again:
	// 50,000 entries (10,000 servers in five files) took a sixth of an
	// import to load a second time.
	db *ledger.State
}

// Close releases the lock of a run planned for writing.
func (r *ImportRun) Close() {
	if r != nil {
		r.lock.Unlock()
	}
}

// Changes counts the servers the store gets or changes.
func (r *ImportRun) Changes() int { return len(r.puts) }

// Import reads the client's servers and decides, server by server with the
// sync's three-way merge (reconcile.DecideImport), what the store takes.
// A conflict leaves that server alone; the others still import.
func (e *Engine) Import(o ImportOptions) (*ImportRun, error) {
	if o.Prefer != "" && o.Prefer != "store" && o.Prefer != "client" {
		return nil, Usagef("--prefer %q: use store or client", o.Prefer)
	}
	if o.Prefer != "" && o.Rename {
		return nil, Usagef("--prefer and --rename both resolve conflicts; choose one")
	}
	ad, err := e.Registry().Lookup(o.From)
	if err != nil {
		return nil, UsageError{Err: err}
	}
	o.Scope = orUser(o.Scope)
	run := &ImportRun{e: e, o: o, Client: ad}
	if !o.DryRun {
		// Held from reading the client's file to the last write.
		if run.lock, err = e.Lock(); err != nil {
			return nil, err
		}
	}
	if err := e.planImport(run); err != nil {
		run.Close()
		return nil, err
	}
	return run, nil
}

func (e *Engine) planImport(run *ImportRun) error {
	o, ad := run.o, run.Client
	client := ad.ID()
	var err error
	if run.locs, err = e.ClientFiles(ad, o.Scope, o.File); err != nil {
		return err
	}
	incoming, ds, err := e.ReadClient(ad, o.Scope, o.File, run.locs, "nothing was imported; fix the file and run the command again")
	run.Diags = append(run.Diags, ds...)
	if err != nil {
		return err
	}
	if owner, ok := ad.(formats.ClientOwner); ok {
		// The app's own entries stay in its file and out of the store.
		kept := incoming.Servers[:0:0]
		for _, srv := range incoming.Servers {
			if why := owner.OwnedByClient(srv); why != "" {
				run.Notes = append(run.Notes, fmt.Sprintf("left alone: %s (%s)", srv.Name, why))
				continue
			}
			kept = append(kept, srv)
		}
		incoming.Servers = kept
	}
	st, ds, err := e.OpenStore(StoreScope(o.Scope))
	run.Diags = append(run.Diags, ds...)
	if err != nil {
		return err
	}
	run.Store = st
	if note := e.StoreNote(st); note != "" {
		run.Notes = append(run.Notes, note)
	}
	run.Diags = append(run.Diags, notNFCWarnings(incoming.Servers)...)
	ex, ds := scanImportSecrets(incoming, o.Extract)
	run.Diags = append(run.Diags, ds...)
	run.Secrets = ex
	if o.Extract && len(ex.moved) > 0 && !o.DryRun && !o.Reveal {
		// The value leaves the file: it must reach the user, once.
		return Usagef("--extract-secrets prints each value once, in the export line to set, and stdout is not a terminal: " +
			"add --show-secrets to print the values into the pipe, or --dry-run to see what would move; nothing was changed")
	}
	if o.Extract {
		incoming = ex.extracted
	}
	run.incoming = incoming
	db, err := ledger.Load(e.Dirs.State)
	if err != nil {
		return err
	}
	run.db = db
	// A team source's servers reach the clients from the source; taken
	// into the store, they would stay after the source goes.
	team, err := desired.Load(st, e.Dirs.State)
	if err != nil {
		return err
	}
	taken := map[string]bool{}
	for _, n := range st.Servers.Names() {
		taken[n] = true
	}
	for _, srv := range team.Set.Servers {
		taken[srv.Name] = true
	}
	decide := reconcile.ImportOptions{Store: st, State: db, Adapter: ad, Foreign: o.File != "",
		Encode: formats.EncodeOptions{OS: e.GOOS}, Views: reconcile.NewViewCache()}
	rename := func(in canonical.Server, source string) {
		newName := uniqueName(in.Name+"-"+client, taken)
		taken[newName] = true
		renamed := in.Clone()
		renamed.Name = newName
		run.puts = append(run.puts, renamed)
		run.Outcomes = append(run.Outcomes, ImportOutcome{Name: newName, Action: ImportRenamed, From: in.Name, Source: source})
	}
	storeIdx, teamIdx := st.Servers.Indexed(), team.Set.Indexed() // neither changes until Apply
	decide.StoreIndex = storeIdx
	for _, in := range incoming.Servers {
		loc := run.locationOf(in)
		in = in.Clone()
		in.Origin = canonical.Pos{}
		if o.Scope == canonical.ScopeLocal {
			// A server of this project's local section stays this
			// project's: the store binds it, so that no other file gets it.
			in.Project = run.locs[0].Project
		}
		if source, inEffect := team.SourceOf(in.Name); source != "" {
			upstream, _ := teamIdx.Get(in.Name)
			if !o.Rename || inEffect && formats.SameAsHeld(ad, loc, upstream, in, formats.EncodeOptions{OS: e.GOOS}) {
				run.FromSources = append(run.FromSources, ImportOutcome{Name: in.Name, Action: ImportSkipped, Source: source})
				continue
			}
			// --rename: the client's version becomes a server of the
			// user's own, under another name.
			rename(in, source)
			continue
		}
		have, exists := storeIdx.Get(in.Name)
		if orig, moved := ex.original[in.Name]; moved && exists && canonical.Equal(have, orig) {
			// The store holds the literal from an earlier import: the
			// extracted server is the same server with the secret moved out.
			run.puts = append(run.puts, in)
			run.Outcomes = append(run.Outcomes, ImportOutcome{Name: in.Name, Action: ImportUpdated})
			continue
		}
		d := reconcile.DecideImport(decide, in, loc, false)
		if d.Action == reconcile.ImportConflict {
			switch {
			case o.Prefer == "store":
				run.Outcomes = append(run.Outcomes, ImportOutcome{Name: in.Name, Action: ImportKeptStore})
				continue
			case o.Prefer == "client":
				d = reconcile.DecideImport(decide, in, loc, true)
				if d.Action == reconcile.ImportSame || d.Action == reconcile.ImportStoreNewer {
					run.Outcomes = append(run.Outcomes, ImportOutcome{Name: in.Name, Action: ImportUnchanged})
					continue
				}
				if d.Action == reconcile.ImportConflict {
					d = reconcile.ImportDecision{Action: reconcile.ImportUpdate, Server: withClientExtra(withStoreExtras(in, have), in, client)}
				}
			case o.Rename:
				rename(in, "")
				continue
			default:
				c := Conflict{Name: in.Name, Store: have, Client: in}
				if d.Conflict != nil {
					c.Base = d.Conflict.Base
				}
				run.Conflicts = append(run.Conflicts, c)
				run.Outcomes = append(run.Outcomes, ImportOutcome{Name: in.Name, Action: ImportConflict})
				continue
			}
		}
		switch d.Action {
		case reconcile.ImportAdd:
			run.puts = append(run.puts, d.Server)
			run.Outcomes = append(run.Outcomes, ImportOutcome{Name: in.Name, Action: ImportAdded})
		case reconcile.ImportUpdate:
			// The client's edit, made since the last sync or export. A
			// user who chose how differences go is taken at their word:
			// --prefer store keeps the store's, --rename keeps both.
			switch {
			case o.Prefer == "store":
				run.Outcomes = append(run.Outcomes, ImportOutcome{Name: in.Name, Action: ImportKeptStore})
			case o.Rename:
				rename(in, "")
			default:
				run.puts = append(run.puts, d.Server)
				run.Outcomes = append(run.Outcomes, ImportOutcome{Name: in.Name, Action: ImportUpdated})
			}
		case reconcile.ImportStoreNewer:
			if o.Prefer == "client" {
				// The user asks for the client's version over the store's.
				srv := withClientExtra(withStoreExtras(in, have), in, client)
				run.puts = append(run.puts, srv)
				action := ImportUpdated
				if !exists {
					action = ImportAdded
				}
				run.Outcomes = append(run.Outcomes, ImportOutcome{Name: in.Name, Action: action})
				continue
			}
			run.Outcomes = append(run.Outcomes, ImportOutcome{Name: in.Name, Action: ImportStoreNewer, Removed: d.Removed})
		default:
			run.Outcomes = append(run.Outcomes, ImportOutcome{Name: in.Name, Action: ImportUnchanged})
		}
	}
	if len(run.FromSources) > 0 {
		run.Notes = append(run.Notes, sourceSkipNote(run.FromSources, client, o.Rename))
	}
	if o.Extract && len(ex.moved) > 0 {
		if run.Rewrites, err = e.planSecretRewrites(ad, run.locs, ex); err != nil {
			return err
		}
	}
	return nil
}

// locationOf is the client file a server was read from.
func (r *ImportRun) locationOf(srv canonical.Server) formats.Location {
	for _, loc := range r.locs {
		if loc.Path == srv.Origin.File {
			return loc
		}
	}
	return r.locs[0]
}

// Apply saves the store, records in the ledger what the import settled,
// and then (with Extract) rewrites the client's files to hold the
// references: the store holds them first, so that a value never leaves a
// file before its reference is saved. Servers in conflict are left alone.
func (r *ImportRun) Apply() error {
	e, st := r.e, r.Store
	if len(r.puts) > 0 {
		for _, srv := range r.puts {
			st.Put(srv)
		}
		if err := e.SaveStore(st); err != nil {
			return err
		}
	}
	if err := r.record(); err != nil {
		return err
	}
	for _, p := range r.Rewrites {
		db, err := ledger.Load(e.Dirs.State)
		if err != nil {
			return err
		}
		if _, err := emitters.Apply(p, e.ApplyOptions(db)); err != nil {
			return fmt.Errorf("the store holds the references, but the client's file was not rewritten: %w; its secrets are still in it, run the command again", err)
		}
	}
	return nil
}

// record notes what import settled in the ledger. The servers put in the
// store become their sync base (what the store and the client agreed on),
// and so does a server the store already held as the client has it. The
// client's entries the store now holds, as it holds them or by the user's
// choice (--prefer), are adopted: they are the store's servers now, so
// export and sync keep them in step with the store like the entries
// mcpsync wrote, instead of leaving them alone as the client's own (and
// --prune, or a sync, removes them once the store no longer has them). An
// entry renamed into the store, one whose secret is being extracted (that
// rewrite records its own), one read from a --file, one that --prefer store
// kept apart from the store's (it says something else: it stays the user's
// own, which export leaves alone), one in conflict, and one older than the
// store's (export brings it up to date) are not adopted.
func (r *ImportRun) record() error {
	e, st, ad := r.e, r.Store, r.Client
	client := ad.ID()
	db := r.db // read under the lock this run still holds, and only read since
	if r.lock == nil || db == nil {
		var err error
		if db, err = ledger.Load(e.Dirs.State); err != nil {
			return err
		}
	}
	now := time.Now().UTC()
	for _, srv := range r.puts {
		db.SetBase(st.Path, srv.Name, ledger.NewEntry("", srv, now))
	}
	changed := len(r.puts) > 0
	stored, incoming := st.Servers.Indexed(), r.incoming.Indexed() // the store as saved: it no longer changes
	for _, o := range r.Outcomes {
		switch o.Action {
		case ImportAdded, ImportUpdated, ImportUnchanged, ImportKeptStore:
		default:
			continue
		}
		if _, extracted := r.Secrets.original[o.Name]; r.o.File != "" || extracted {
			continue
		}
		if db.Base(st.Path, o.Name) == nil {
			if srv, ok := stored.Get(o.Name); ok {
				db.SetBase(st.Path, o.Name, ledger.NewEntry("", srv, now))
				changed = true
			}
		}
		in, ok := incoming.Get(o.Name)
		if !ok {
			continue
		}
		for _, loc := range r.locs {
			if loc.Path != in.Origin.File || loc.ReadOnly {
				continue
			}
			if have, _ := stored.Get(o.Name); o.Action == ImportKeptStore && !formats.SameAsHeld(ad, loc, have, in, formats.EncodeOptions{OS: e.GOOS}) {
				break
			}
			section := emitters.SectionKey(loc)
			if old := db.Managed(loc.Path, section)[o.Name]; old != nil && old.Holds(in) {
				break // already mcpsync's, as it is
			}
			db.SetManaged(loc.Path, section, o.Name, ledger.NewEntry(client, in, now))
			changed = true
			break
		}
	}
	if !changed {
		return nil
	}
	return db.Save()
}

// sourceSkipNote is the one line that says which servers import left out
// because a team source gives them.
func sourceSkipNote(skipped []ImportOutcome, client string, rename bool) string {
	var names, srcs []string
	for _, o := range skipped {
		names = append(names, o.Name)
		if !slices.Contains(srcs, o.Source) {
			srcs = append(srcs, o.Source)
		}
	}
	what := "team source " + srcs[0]
	if len(srcs) > 1 {
		what = "team sources " + strings.Join(srcs, ", ")
	}
	they := "they come"
	if len(names) == 1 {
		they = "it comes"
	}
	why := "--rename copies one you changed there as NAME-" + client
	if rename {
		why = "what " + client + " holds is the source's version"
	}
	return fmt.Sprintf("skipped %s: %s from %s and change%s only upstream (%s)", strings.Join(names, ", "), they, what,
		map[bool]string{true: "s", false: ""}[len(names) == 1], why)
}

// withClientExtra returns base with the client's own keys taken from in.
func withClientExtra(base, in canonical.Server, client string) canonical.Server {
	out := base.Clone()
	if in.Extra[client] == nil {
		return out
	}
	out.Extra = maps.Clone(out.Extra)
	if out.Extra == nil {
		out.Extra = map[string]map[string]json.RawMessage{}
	}
	out.Extra[client] = maps.Clone(in.Extra[client])
	return out
}

// withStoreExtras returns in with the other clients' keys the store holds.
func withStoreExtras(in, have canonical.Server) canonical.Server {
	out := in.Clone()
	out.Extra = maps.Clone(have.Extra)
	return out
}

func uniqueName(name string, taken map[string]bool) string {
	if !taken[name] {
		return name
	}
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s-%d", name, i); !taken[n] {
			return n
		}
	}
}
