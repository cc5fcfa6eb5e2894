package main

// Shared code of sync, resolve and watch: plan a reconcile, apply it,
// print what it did.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/engine"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/emitters/unidiff"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/reconcile"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

// syncWriteHook, when set (by tests), is told which files a sync is about
// to write, right before it writes them.
var syncWriteHook func(paths []string)

// syncRequest says what one reconcile covers.
type syncRequest struct {
	scope canonical.Scope
	// only names the clients taking part (--only); empty is every client
	// of the scope whose file exists.
	only    []string
	take    map[string]string
	servers []string
	// views, when set, is kept across syncs (watch).
	views *reconcile.ViewCache
}

// syncRun is a planned reconcile, ready to print or apply.
type syncRun struct {
	res       *reconcile.Result
	db        *ledger.State
	lock      *ledger.Lock
	store     *store.Store
	storeDiag canonical.Diagnostics
	// desired is the store's servers and its team sources' approved ones.
	desired *desired.Servers
}

func (r *syncRun) close() { r.lock.Unlock() }

func syncScopeFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "scope", Value: "user",
		Usage: "which files: `user` (your own files, with the user store) or project (the project's shared files, with its mcpsync.hcl)"}
}

func onlyFlag() *cli.StringSliceFlag {
	return &cli.StringSliceFlag{Name: "only", Aliases: []string{"to"},
		Usage: "sync only these clients: `CLIENT`[,CLIENT…]; a named client's file is created if it does not exist (default: every client whose file exists)"}
}

// parseSyncScope validates --scope for sync, resolve and watch.
func parseSyncScope(cmd *cli.Command) (canonical.Scope, error) {
	switch s := canonical.Scope(cmd.String("scope")); s {
	case canonical.ScopeUser, canonical.ScopeProject:
		return s, nil
	default:
		return "", usagef("--scope %q: use user or project", string(s))
	}
}

// syncTargets returns the client sections of the scope: every client, or
// those named, each at the file mcpsync writes for that scope.
func (a *App) syncTargets(reg *formats.Registry, scope canonical.Scope, only []string) ([]emitters.Target, map[string]bool, error) {
	adapters := reg.All()
	named := map[string]bool{}
	if len(only) > 0 {
		var all bool
		var err error
		if adapters, all, err = a.engine().SelectClients(only); err != nil {
			return nil, nil, err
		}
		if !all {
			for _, ad := range adapters {
				named[ad.ID()] = true
			}
		}
	}
	targets, _ := engine.ExportTargets(adapters, a.engine().FormatsEnv(a.GOOS, "", nil), scope, false)
	return targets, named, nil
}

// syncStorePath is the store the scope syncs with (--store wins).
func (a *App) syncStorePath(scope canonical.Scope) string {
	path, _ := a.engine().LocateStore(scope)
	return path
}

// planSync loads the store and the state and plans the reconcile. With
// lock, the state lock is held until close, so that another mcpsync waits
// rather than interleaving. A store with errors is returned in storeDiag
// (and no plan).
func (a *App) planSync(reg *formats.Registry, req syncRequest, lock bool) (*syncRun, error) {
	targets, named, err := a.syncTargets(reg, req.scope, req.only)
	if err != nil {
		return nil, err
	}
	run := &syncRun{}
	if lock {
		if run.lock, err = a.engine().Lock(); err != nil {
			return nil, err
		}
	}
	st, ds := a.loadStore(engine.StoreScope(req.scope))
	run.store, run.storeDiag = st, ds
	if ds.HasErrors() {
		return run, nil
	}
	// Team-source servers take part as export writes them: read-only.
	if run.db, run.desired, err = a.engine().StateDesired(st); err != nil {
		run.close()
		return nil, err
	}
	run.res = reconcile.Plan(reconcile.Options{
		Store: st, Targets: targets, State: run.db, Named: named,
		Take: req.take, Servers: req.servers, Views: req.views,
		Encode: formats.EncodeOptions{OS: a.GOOS}, Desired: run.desired,
	})
	// A source never pulled, or a name taken twice: said with the plan's
	// own warnings (watch says each once).
	run.res.Plan.Diags = append(run.res.Plan.Diags, run.desired.Diags...)
	run.res.Plan.Diags.Sort()
	return run, nil
}

// applySync writes the plan and records the outcome in the ledger. expect,
// when set, is told each file's new bytes right before it is written (watch
// ignores the events of its own writes).
func (a *App) applySync(run *syncRun, expect func(path string, data []byte)) (*emitters.Result, error) {
	p := run.res.Plan
	ao := a.engine().ApplyOptions(run.db)
	ao.BeforeWrite = func(paths []string) {
		if expect != nil {
			for _, fc := range p.Changes() {
				expect(fc.Path, fc.After)
			}
		}
		if syncWriteHook != nil {
			syncWriteHook(paths)
		}
	}
	res, err := emitters.Apply(p, ao)
	if err != nil {
		return nil, err
	}
	before, _ := json.Marshal(run.db)
	run.res.Record(run.db, time.Now().UTC())
	if after, _ := json.Marshal(run.db); !bytes.Equal(before, after) {
		if err := run.db.Save(); err != nil {
			return res, fmt.Errorf("the files were written, but %w; the next sync may see old changes again", err)
		}
	}
	return res, nil
}

// syncJSON is the --json form of a sync.
type syncJSON struct {
	DryRun    bool                 `json:"dryRun"`
	Changed   bool                 `json:"changed"`
	Store     string               `json:"store"`
	Servers   []reconcile.Outcome  `json:"servers"`
	Conflicts []reconcile.Conflict `json:"conflicts,omitempty"`
	Skipped   []reconcile.Skip     `json:"skipped,omitempty"`
	Files     []fileJSON           `json:"files"`
	Warnings  any                  `json:"warnings,omitempty"`
	Errors    any                  `json:"errors,omitempty"`
	Result    *emitters.Result     `json:"result,omitempty"`
}

func (a *App) syncJSON(run *syncRun, dryRun, showSecrets bool, res *emitters.Result) syncJSON {
	r := run.res
	out := syncJSON{DryRun: dryRun, Changed: r.Changed(), Store: r.StorePath, Servers: r.Outcomes,
		Conflicts: r.Conflicts, Skipped: r.Skipped, Files: []fileJSON{}, Result: res}
	if out.Servers == nil {
		out.Servers = []reconcile.Outcome{}
	}
	opts := a.diffOptions(r.Plan, showSecrets)
	for _, fc := range r.Plan.Files {
		f := fileJSON{FileChange: fc, Display: a.engine().Display(fc.Path)}
		if dryRun {
			f.Diff = fc.Diff(opts)
		}
		out.Files = append(out.Files, f)
	}
	if w := r.Plan.Diags.Warnings(); len(w) > 0 {
		out.Warnings = w
	}
	if e := r.Plan.Diags.Errors(); len(e) > 0 {
		out.Errors = e
	}
	return out
}

// conflictText shows a conflict with every side's version: a diff from
// the base (or, never synced, from the first side) to each side.
func (a *App) conflictText(c reconcile.Conflict) string {
	var b strings.Builder
	var names []string
	own := false
	for _, s := range c.Sides {
		names = append(names, s.Side)
		own = own || s.Own
	}
	switch {
	case c.Base == nil:
		fmt.Fprintf(&b, "conflict: %q is defined differently in %s and was never synced; nothing was written for it\n",
			c.Server, joinAnd(names))
	case own && len(c.Sides) == 1:
		fmt.Fprintf(&b, "conflict: %q in %s (%s) is its own entry, different from the store's, and mcpsync has not synced it before; nothing was written for it\n",
			c.Server, c.Sides[0].Side, a.engine().Display(c.Sides[0].Path))
	default:
		fmt.Fprintf(&b, "conflict: %q was changed differently in %s since the last sync; nothing was written for it\n",
			c.Server, joinAnd(names))
	}
	from, fromName := c.Base, "base"
	sides := c.Sides
	if from == nil && len(sides) > 0 {
		from, fromName, sides = sides[0].Server, sides[0].Side, sides[1:]
	}
	for _, s := range sides {
		if s.Removed {
			fmt.Fprintf(&b, "%s removed it\n", s.Side)
			continue
		}
		b.WriteString(unidiff.Diff(
			unidiff.File{Name: fromName + "/" + c.Server, Data: serverJSON(from)},
			unidiff.File{Name: s.Side + "/" + c.Server, Data: serverJSON(s.Server)},
			unidiff.Options{Mask: emitters.MaskSecrets}))
	}
	fmt.Fprintf(&b, "settle it with: mcpsync resolve %s --take %s\n", engine.ShellWord(c.Server), strings.Join(c.Choices, "|"))
	return b.String()
}

// serverJSON renders a server for a conflict diff.
func serverJSON(srv *canonical.Server) []byte {
	if srv == nil {
		return nil
	}
	return canonical.DisplayJSON(ledger.Snapshot(*srv))
}

func joinAnd(names []string) string { return engine.JoinWith(names, "and") }

// printSkippedSync says which clients took no part and why, except those
// without a file (most clients on any machine; --json lists them).
func (a *App) printSkippedSync(w io.Writer, skipped []reconcile.Skip) {
	for _, s := range skipped {
		if !strings.HasPrefix(s.Reason, "its file does not exist") {
			fmt.Fprintf(w, "skipped %s (%s): %s\n", s.Client, a.engine().Display(s.Path), s.Reason)
		}
	}
}

func conflictNames(cs []reconcile.Conflict) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = fmt.Sprintf("%q", c.Server)
	}
	return joinAnd(names)
}
