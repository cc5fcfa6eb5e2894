package engine

import (
	"fmt"
	"path/filepath"
	"slices"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/reconcile"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
)

// SyncOptions say what one reconcile covers.
type SyncOptions struct {
	// Scope is user or project.
	Scope canonical.Scope
	// Only names the clients taking part; empty is every client of the
	// scope whose file exists. A named client's file is created.
	Only []string
	// Take settles servers by side (resolve --take): server name → "store"
	// or a client id; Servers, when not empty, limits the sync to these.
	Take    map[string]string
	Servers []string
	// Views and Decoded, when set, are kept across syncs (watch).
	Views   *reconcile.ViewCache
	Decoded *emitters.DecodeMemo
	// DryRun plans without taking the lock.
	DryRun bool
}

// SyncRun is a planned reconcile: print Result.Plan, or Apply it.
type SyncRun struct {
	Result *reconcile.Result
	Store  *store.Store
	// StoreDiags are the store's problems; with errors, Result is nil
	// (PlanSync) or Sync returned a *ProblemsError.
	StoreDiags canonical.Diagnostics
	// Desired is the store's servers and its team sources' approved ones.
	Desired *desired.Servers
	State   *ledger.State

	e    *Engine
	lock *ledger.Lock
}

// Close releases the lock of a run planned for writing.
func (r *SyncRun) Close() {
	if r != nil {
		r.lock.Unlock()
	}
}

// Sync plans a two-way sync of the scope's store and client files. A store
// with errors is a *ProblemsError: nothing is synced over a broken store.
func (e *Engine) Sync(o SyncOptions) (*SyncRun, error) {
	run, err := e.PlanSync(o)
	if err != nil {
		return nil, err
	}
	if run.StoreDiags.HasErrors() {
		run.Close()
		return nil, &ProblemsError{Diags: run.StoreDiags, Msg: e.StoreDisplay(run.Store.Path) + " has errors; nothing was synced"}
	}
	return run, nil
}

// PlanSync is Sync for a caller that handles a broken store itself (watch
// waits for the next change): its problems are in StoreDiags, with no
// Result.
func (e *Engine) PlanSync(o SyncOptions) (*SyncRun, error) {
	if o.Scope == "" {
		o.Scope = canonical.ScopeUser
	}
	if o.Scope != canonical.ScopeUser && o.Scope != canonical.ScopeProject {
		return nil, Usagef("--scope %q: use user or project", string(o.Scope))
	}
	targets, named, err := e.SyncTargets(o.Scope, o.Only)
	if err != nil {
		return nil, err
	}
	run := &SyncRun{e: e}
	if !o.DryRun {
		if run.lock, err = e.Lock(); err != nil {
			return nil, err
		}
	}
	aside := e.loadStateAside() // read while the store is
	st, ds := e.LoadStore(StoreScope(o.Scope))
	run.Store, run.StoreDiags = st, ds
	if ds.HasErrors() {
		return run, nil
	}
	// Team-source servers take part as export writes them: read-only.
	if run.State, run.Desired, err = e.stateDesired(st, aside); err != nil {
		run.Close()
		return nil, err
	}
	run.Result = reconcile.Plan(reconcile.Options{
		Store: st, Targets: targets, State: run.State, Named: named,
		Take: o.Take, Servers: o.Servers, Views: o.Views, Decoded: e.decodes(o.Decoded),
		Encode: formats.EncodeOptions{OS: e.GOOS}, Desired: run.Desired, ParseCache: e.parseCache(),
		// A sync to be written keeps what its files read back as for the
		// next run; watch's memo keeps them in memory for its next cycle.
		KeepDecoded: !o.DryRun && o.Decoded == nil,
	})
	// A source never pulled, or a name taken twice: said with the plan's
	// own warnings (watch says each once).
	run.Result.Plan.Diags = append(run.Result.Plan.Diags, run.Desired.Diags...)
	run.Result.Plan.Diags = append(run.Result.Plan.Diags, e.lostExtras(run.Result.Plan)...)
	syncEnv := e.FormatsEnv(e.GOOS, "", st)
	run.Result.Plan.Diags = append(run.Result.Plan.Diags, e.unapprovedRefs(run.Result.Plan, syncEnv)...)
	run.Result.Plan.Diags = append(run.Result.Plan.Diags, e.otherReaders(run.Result.Plan, syncEnv)...)
	run.Result.Plan.Diags.Sort()
	return run, nil
}

// SyncTargets returns the client sections of the scope: every client, or
// those named (named says which were), each at the file mcpsync writes for
// that scope.
func (e *Engine) SyncTargets(scope canonical.Scope, only []string) ([]emitters.Target, map[string]bool, error) {
	adapters := e.Registry().All()
	named := map[string]bool{}
	if len(only) > 0 {
		var all bool
		var err error
		if adapters, all, err = e.SelectClients(only); err != nil {
			return nil, nil, err
		}
		if !all {
			for _, ad := range adapters {
				named[ad.ID()] = true
			}
		}
	}
	targets, _ := ExportTargets(adapters, e.FormatsEnv(e.GOOS, "", nil), scope, false)
	return targets, named, nil
}

// Apply writes the plan and records the outcome in the ledger. expect,
// when set, is told each file's new bytes right before it is written
// (watch ignores the events of its own writes). A plan with errors writes
// nothing.
func (r *SyncRun) Apply(expect func(path string, data []byte)) (*emitters.Result, error) {
	p := r.Result.Plan
	if err := problems(p.Diags, "no file was written"); err != nil {
		return nil, err
	}
	ao := r.e.ApplyOptions(r.State)
	ao.BeforeWrite = func(paths []string) {
		if expect != nil {
			for _, fc := range p.Changes() {
				expect(fc.Path, fc.After)
			}
		}
		if r.e.Hooks.BeforeSyncWrite != nil {
			r.e.Hooks.BeforeSyncWrite(paths)
		}
	}
	// The sync's bases go into the same save as the writes' record: one
	// state file written per sync, not two.
	ao.Record = func(st *ledger.State, at time.Time) { r.Result.Record(st, at.UTC()) }
	return emitters.Apply(p, ao)
}

// Knows reports whether the store, the ledger or any client file of the
// sync knows the server.
func (r *SyncRun) Knows(name string) bool {
	if _, ok := r.Store.Servers.Get(name); ok {
		return true
	}
	if r.State.Base(r.Result.StorePath, name) != nil || r.State.Deleted(r.Result.StorePath, name) != nil {
		return true
	}
	for _, fc := range r.Result.Plan.Files {
		for _, tp := range fc.Targets {
			if tp.Current.Index(name) >= 0 {
				return true
			}
		}
	}
	return false
}

// ResolveOptions settle one server: Take's version ("store" or a client
// id) goes to the store and every client.
type ResolveOptions struct {
	Scope  canonical.Scope
	Name   string
	Take   string
	DryRun bool
}

// Resolve plans settling a server by one side's version, conflict or not
// (WasConflict says which). Only that server is touched.
func (e *Engine) Resolve(o ResolveOptions) (run *SyncRun, wasConflict bool, err error) {
	take := o.Take
	if take != reconcile.StoreSide {
		ad, err := e.Registry().Lookup(take)
		if err != nil {
			return nil, false, UsageError{Err: fmt.Errorf("--take: %w; or --take store", err)}
		}
		take = ad.ID()
	}
	run, err = e.Sync(SyncOptions{Scope: o.Scope, Take: map[string]string{o.Name: take}, Servers: []string{o.Name}, DryRun: o.DryRun})
	if err != nil {
		return nil, false, err
	}
	if !run.Knows(o.Name) {
		run.Close()
		return nil, false, fmt.Errorf("no side knows a server named %q; 'mcpsync resolve' lists the open conflicts", o.Name)
	}
	return run, slices.Contains(run.Result.Settled, o.Name), nil
}

// Conflicts merges without writing and returns the open conflicts.
func (e *Engine) Conflicts(scope canonical.Scope) (*SyncRun, error) {
	return e.Sync(SyncOptions{Scope: scope, DryRun: true})
}

// WatchPaths lists the files a watch of the scope follows: the store, the
// team sources' records (user scope: an approval reaches the clients while
// watch runs), and every file of the scope of every client taking part,
// existing or not, so that a client installed meanwhile joins in.
func (e *Engine) WatchPaths(scope canonical.Scope, only []string) ([]string, error) {
	adapters := e.Registry().All()
	if len(only) > 0 {
		var err error
		if adapters, _, err = e.SelectClients(only); err != nil {
			return nil, err
		}
	}
	storePath, _ := e.LocateStore(scope)
	paths := []string{storePath}
	if scope == canonical.ScopeUser {
		paths = append(paths, filepath.Join(e.Dirs.State, sources.RecordsFile))
	}
	env := e.FormatsEnv(e.GOOS, "", nil)
	for _, ad := range adapters {
		for _, loc := range formats.Locate(ad, env) {
			if loc.Scope == scope && !slices.Contains(paths, loc.Path) {
				paths = append(paths, loc.Path)
			}
		}
	}
	return paths, nil
}
