package engine

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/wslpath"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/store"
)

// ExportOptions say what an export (or a diff) writes.
type ExportOptions struct {
	// To names the clients; "all" is every client detected here.
	To []string
	// Scope is which files: user (from the user store), project (from the
	// project's mcpsync.hcl) or local (Claude Code's per-project section,
	// from the user store).
	Scope canonical.Scope
	// GOOS is the machine whose files to write (default: this one); Home
	// its home directory as this machine sees it (--home).
	GOOS, Home string
	// Prune also removes the entries mcpsync wrote that the store no
	// longer has; Force replaces entries mcpsync did not write.
	Prune, Force bool
	// BridgeRemote writes remote servers for stdio-only clients through
	// mcp-remote; PromptInputs makes VS Code prompt for secrets.
	BridgeRemote, PromptInputs bool
	// Servers, when not empty, limits the export to these servers of the
	// store; the client's other entries are left as they are.
	Servers []string
	// DryRun plans without taking the lock: the plan is only shown.
	DryRun bool
	// WriteOnly says the plan will be applied and never shown. Every
	// export lets each file's server sets go as soon as it is planned and
	// checked (emitters.ExportOptions.DropSets), which at 10,000 servers
	// in every client's file was half the memory of the run; one that may
	// be shown keeps the secret values its diff's mask needs of them
	// first (KeepMask), and WriteOnly spares that scan. Its diff can still
	// be shown, at the cost of reading the files' bytes again to mask it.
	WriteOnly bool
}

// ExportRun is a planned export: print its Plan (a diff, --json), or Apply
// it. Close lets the lock go.
type ExportRun struct {
	Plan    *emitters.Plan
	Skipped []Skip
	Store   *store.Store
	// Desired is the store's servers and its team sources' approved ones.
	Desired *desired.Servers
	// Diags are the store's and the team sources' warnings; the plan's own
	// are in Plan.Diags. Notes are lines to tell the user.
	Diags canonical.Diagnostics
	Notes []string

	e     *Engine
	state *ledger.State
	lock  *ledger.Lock
	// stateAside is the state being read while the store is (Export);
	// nil where the plan reads it itself (ExportOf).
	stateAside *stateLoad
}

// Close releases the lock of a run planned for writing.
func (r *ExportRun) Close() {
	if r != nil {
		r.lock.Unlock()
	}
}

// Pending names the team-source servers left out until approved.
func (r *ExportRun) Pending() []string {
	var out []string
	if r.Desired != nil {
		for _, p := range r.Desired.Pending {
			out = append(out, p.Qualified)
		}
	}
	return out
}

// Export opens the store and the ledger and plans the export. Unless
// DryRun, the lock is held until Close, so that the plan and the writes are
// not interleaved with another mcpsync.
func (e *Engine) Export(o ExportOptions) (*ExportRun, error) {
	if len(o.Servers) > 0 && o.Prune {
		return nil, Usagef("--prune removes what the store no longer has; it takes no server names (got %q)", o.Servers[0])
	}
	o.Scope = orUser(o.Scope)
	if o.GOOS == "" {
		o.GOOS = e.GOOS
	}
	var wslNote string
	if o.GOOS == "windows" && o.Home == "" {
		// In WSL the Windows home is on the mounted C: drive.
		if home, _ := e.WindowsHome(WindowsUsers); home != "" {
			o.Home = home
			wslNote = "--os windows in WSL: writing the files of the Windows user at " + home + " (give --home DIR for another)"
		}
	}
	if o.GOOS != e.GOOS && o.Home == "" && !o.DryRun {
		// A dry run shows that machine's files as new ones; a write needs
		// to know where they are.
		return nil, ForeignWithoutHome(o.GOOS)
	}
	adapters, fromAll, err := e.SelectClients(o.To)
	if err != nil {
		return nil, err
	}
	// The clients' descriptions are parsed on another processor while the
	// lock is taken and the store and the state are read: ExportTargets
	// asks them where they write next, and its own Prepare waits for each
	// one not parsed yet (each is parsed once).
	go formats.Prepare(adapters)
	run := &ExportRun{e: e}
	if wslNote != "" {
		run.Notes = append(run.Notes, wslNote)
	}
	if !o.DryRun {
		// Held from reading the store to the last write.
		if run.lock, err = e.Lock(); err != nil {
			return nil, err
		}
	}
	run.stateAside = e.loadStateAside()
	st, ds, err := e.OpenStore(StoreScope(o.Scope))
	run.Diags = ds
	if err != nil {
		run.Close()
		return nil, err
	}
	// An export reads the store and never edits it: what it parsed of
	// the store's syntax need not be held while it plans and writes.
	st.DropSyntax()
	if note := e.StoreNote(st); note != "" {
		run.Notes = append(run.Notes, note)
	}
	if st.Servers.Len() == 0 && len(st.Sources) == 0 && !o.Prune {
		run.Notes = append(run.Notes, fmt.Sprintf("the store %s has no servers; add some with 'mcpsync add' or 'mcpsync import --from CLIENT'",
			e.Display(st.Path)))
	}
	if err := e.planExport(run, o, st, adapters, fromAll); err != nil {
		run.Close()
		return nil, err
	}
	return run, nil
}

// planExport plans the export of st, a store already open (and, for a
// write, locked), into run: add --to plans with the servers it is about
// to save, before anything is written.
func (e *Engine) planExport(run *ExportRun, o ExportOptions, st *store.Store, adapters []formats.Adapter, fromAll bool) error {
	o.Scope = orUser(o.Scope)
	if o.GOOS == "" {
		o.GOOS = e.GOOS
	}
	run.Store = st
	env := e.FormatsEnv(o.GOOS, o.Home, st)
	targets, skipped := ExportTargets(adapters, env, o.Scope, fromAll)
	run.Skipped = skipped
	// The store's servers plus the approved servers of its team sources;
	// pending ones stay out until 'mcpsync approve'.
	var err error
	if run.state, run.Desired, err = e.stateDesired(st, run.stateAside); err != nil {
		return err
	}
	run.Diags = append(run.Diags, run.Desired.Diags...)
	if note := run.Desired.PendingNote(); note != "" && len(o.Servers) == 0 {
		run.Notes = append(run.Notes, note)
	}
	servers := ScopeServers(run.Desired.Set, o.Scope, env.ProjectDir)
	if len(o.Servers) > 0 {
		if servers, err = e.onlyServers(servers, o.Servers, st, run.Desired); err != nil {
			return err
		}
	}
	if o.GOOS == "windows" && e.GOOS != "windows" {
		var ds canonical.Diagnostics
		servers, ds = windowsPaths(servers)
		run.Diags = append(run.Diags, ds...)
	}
	// The checks of each file run as soon as it is planned, while the
	// others are; their warnings are then added in the order they had
	// when they ran after the plan, one check over every file after the
	// other.
	e.Registry() // made now: the checks only read it, several at once
	checks := fileChecks{e: e, env: env, approvals: approvalLists{env: env}}
	var unreadLists canonical.Diagnostics // approval lists read first, for the checks to share
	for _, t := range targets {
		unreadLists = append(unreadLists, checks.approvals.load(t.Adapter)...)
	}
	run.Plan = emitters.PlanExport(targets, emitters.ExportOptions{
		Servers:   servers,
		Allows:    st.Allows,
		State:     run.state,
		StorePath: st.Path,
		Sources:   run.Desired.FromSource,
		Prune:     o.Prune,
		Force:     o.Force,
		Encode:    formats.EncodeOptions{OS: o.GOOS, BridgeRemote: o.BridgeRemote, PromptInputs: o.PromptInputs},
		Decoded:   e.decodes(nil),
		Planned:   checks.check,
		DropSets:  true,
		KeepMask:  !o.WriteOnly,
		// What a plan to be written reads back is what its files decode
		// to once written: the next run need not decode them again.
		KeepDecoded: o.WriteOnly,
	})
	run.Plan.Diags = append(run.Plan.Diags, checks.of(run.Plan, lostExtrasCheck)...)
	run.Plan.Diags = append(run.Plan.Diags, unreadLists...)
	run.Plan.Diags = append(run.Plan.Diags, checks.of(run.Plan, unapprovedCheck)...)
	run.Plan.Diags = append(run.Plan.Diags, checks.of(run.Plan, otherReadersCheck)...)
	run.Plan.Diags = append(run.Plan.Diags, remotelyManaged(run.Plan)...)
	run.Plan.Diags.Sort()
	return nil
}

// onlyServers keeps the named servers of set. A name the set does not hold
// is an error that suggests the nearest one (a pending team-source server
// says it needs approval first).
func (e *Engine) onlyServers(set canonical.Set, names []string, st *store.Store, want *desired.Servers) (canonical.Set, error) {
	var out canonical.Set
	for _, name := range names {
		srv, ok := set.Get(name)
		if !ok {
			for _, p := range want.Pending {
				if p.Qualified == name {
					return out, fmt.Errorf("server %q is pending approval: run 'mcpsync approve %s' first; nothing was written", name, name)
				}
			}
			msg := fmt.Sprintf("server %q is not in %s", name, e.StoreDisplay(st.Path))
			if s := store.Suggest(name, set.Names()); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			return out, errors.New(msg + "; nothing was written")
		}
		if out.Index(name) < 0 {
			out.Servers = append(out.Servers, srv)
		}
	}
	return out, nil
}

// Apply writes the planned export: every file or none, each backed up,
// and records what mcpsync wrote in the ledger. A plan with errors is a
// *ProblemsError and writes nothing.
func (r *ExportRun) Apply() (*emitters.Result, error) {
	if err := problems(r.Plan.Diags, "no file was written"); err != nil {
		return nil, err
	}
	ao := r.e.ApplyOptions(r.state)
	ao.BeforeWrite = r.e.Hooks.BeforeApply
	res, err := emitters.Apply(r.Plan, ao)
	if err != nil {
		return nil, ApplyError(err)
	}
	return res, nil
}

// Display shortens a path for people: relative to the project when it is
// inside it, ~/… when inside the home directory (the more specific of the
// two wins), else as it is.
func (e *Engine) Display(path string) string {
	best, bestLen := path, -1
	for _, base := range []struct{ dir, prefix string }{{e.projectDir(), ""}, {e.Dirs.Home, "~/"}} {
		if base.dir == "" {
			continue
		}
		rel, err := filepath.Rel(base.dir, path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if len(base.dir) > bestLen {
			best, bestLen = base.prefix+filepath.ToSlash(rel), len(base.dir)
		}
	}
	return best
}

// RestartNote names the clients whose files a write changed: most clients
// read their MCP servers when they start (or when a session starts), so a
// running one keeps the old servers until it is restarted or told to
// reload them. "" when no client file changed.
func RestartNote(p *emitters.Plan) string {
	var names []string
	seen := map[string]bool{}
	for _, fc := range p.Changes() {
		for _, tp := range fc.Targets {
			if name := tp.Target.Adapter.DisplayName(); !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf("if %s is running, restart it (or reload its MCP servers) to use the change", JoinWith(names, "or"))
}

// ExportOf plans the export of st, a store the caller has open (and, for a
// write, locked): add --to plans with the servers it is about to save,
// before anything is written. Close does nothing on it.
func (e *Engine) ExportOf(st *store.Store, o ExportOptions) (*ExportRun, error) {
	adapters, fromAll, err := e.SelectClients(o.To)
	if err != nil {
		return nil, err
	}
	run := &ExportRun{e: e}
	if err := e.planExport(run, o, st, adapters, fromAll); err != nil {
		return nil, err
	}
	return run, nil
}

// windowsPaths readies servers written from a Unix machine (WSL) for
// Windows clients: a path on a mounted drive (/mnt/c/…) becomes its
// Windows path (C:\…) in the command, its arguments, its working
// directory and its environment; a server that names any other path of
// this machine (/home/me/…) is left out with a warning, since no Windows
// client could open it.
func windowsPaths(servers canonical.Set) (canonical.Set, canonical.Diagnostics) {
	var out canonical.Set
	var ds canonical.Diagnostics
	for _, srv := range servers.Servers {
		srv = srv.Clone()
		var bad []string
		mapOne := func(s string) string {
			m, unreachable := wslpath.Map(s)
			if unreachable {
				bad = append(bad, s)
			}
			return m
		}
		srv.Command = mapOne(srv.Command)
		for i, a := range srv.Args {
			srv.Args[i] = mapOne(a)
		}
		if srv.Cwd != "" {
			srv.Cwd = mapOne(srv.Cwd)
		}
		for k, v := range srv.Env {
			srv.Env[k] = mapOne(v)
		}
		if len(bad) > 0 {
			d := canonical.Warnf("server %q names %s, a path on this machine that Windows clients cannot open; server not written for --os windows", srv.Name, bad[0])
			d.Detail = "give the path as Windows sees it: under /mnt/c/… (written as C:\\…) or as C:\\… in the store"
			d.Server = srv.Name
			ds = append(ds, d.At(srv.Origin))
			continue
		}
		out.Servers = append(out.Servers, srv)
	}
	return out, ds
}

// fileChecks runs an export plan's checks of the servers written
// (lostExtras, unapprovedRefs, otherReaders) on each file as soon as it
// is planned (emitters.ExportOptions.Planned), while others are, and
// keeps what they found by file.
type fileChecks struct {
	e         *Engine
	env       formats.Env
	approvals approvalLists // loaded before the plan: the checks only read it
	mu        sync.Mutex
	found     map[*emitters.FileChange]*[numFileChecks]canonical.Diagnostics
}

// The checks of fileChecks, in the order their warnings are added.
const (
	lostExtrasCheck = iota
	unapprovedCheck
	otherReadersCheck
	numFileChecks
)

func (c *fileChecks) check(fc *emitters.FileChange) {
	var found [numFileChecks]canonical.Diagnostics
	found[lostExtrasCheck] = c.e.lostExtrasOf(fc)
	for _, tp := range fc.Targets {
		found[unapprovedCheck] = append(found[unapprovedCheck], c.approvals.check(fc, tp, c.e.Display)...)
	}
	found[otherReadersCheck] = c.e.otherReadersOf(fc, c.env)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.found == nil {
		c.found = map[*emitters.FileChange]*[numFileChecks]canonical.Diagnostics{}
	}
	c.found[fc] = &found
}

// of returns one check's findings, file after file in the plan's order:
// the order they had when each check ran over the whole plan in turn.
func (c *fileChecks) of(p *emitters.Plan, check int) canonical.Diagnostics {
	var ds canonical.Diagnostics
	for _, fc := range p.Files {
		if found := c.found[fc]; found != nil {
			ds = append(ds, found[check]...)
		}
	}
	return ds
}
