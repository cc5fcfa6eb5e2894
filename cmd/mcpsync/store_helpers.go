package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/emitters/state"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

// loadStateDesired reads the state and what the store asks for: its own
// servers and the approved ones of its team sources.
func (a *App) loadStateDesired(st *store.Store) (*state.State, *desired.Servers, error) {
	db, err := state.Load(a.Dirs.State)
	if err != nil {
		return nil, nil, err
	}
	want, err := desired.Load(st, a.Dirs.State)
	if err != nil {
		return nil, nil, err
	}
	return db, want, nil
}

// locateStore returns the store file that --store (relative to the working
// directory), or else scope, selects, and the scope it is.
func (a *App) locateStore(scope canonical.Scope) (string, canonical.Scope) {
	explicit := a.StorePath
	if explicit != "" && !filepath.IsAbs(explicit) {
		explicit = filepath.Join(a.Cwd, explicit)
	}
	root := a.projectRoot()
	if !filepath.IsAbs(root) {
		root = filepath.Join(a.Cwd, root)
	}
	return store.Locate(root, a.Dirs, explicit, scope)
}

// openStore loads the store that --store, or else scope, selects: the user
// store ($XDG_CONFIG_HOME/mcpsync/mcpsync.hcl) or the project's mcpsync.hcl
// at the repository root. A missing file is an empty store, created by the
// first save. Diagnostics are printed; a store with errors is refused
// (reportedError), so that nothing is ever written over a broken file.
// openStoreLocked takes the state lock (not for a dry run) and opens the
// store of scope, so that the lock is held from reading the store to its
// last write; release lets the lock go.
func (a *App) openStoreLocked(scope canonical.Scope, dryRun bool) (st *store.Store, release func(), err error) {
	release = func() {}
	if !dryRun {
		lock, err := a.acquireLock()
		if err != nil {
			return nil, release, err
		}
		release = func() { lock.Unlock() }
	}
	st, err = a.openStore(scope)
	if err != nil {
		release()
		return nil, func() {}, err
	}
	return st, release, nil
}

// loadStore reads the store that --store, or else scope, selects. A
// project's own mcpsync.hcl came with a repository: it is read (and later
// written) beneath the project directory only. A file named with --store
// is the user's choice, read as it is.
func (a *App) loadStore(scope canonical.Scope) (*store.Store, canonical.Diagnostics) {
	path, sc := a.locateStore(scope)
	root := ""
	if sc == canonical.ScopeProject && a.StorePath == "" {
		root = filepath.Dir(path)
	}
	st, ds := store.LoadBeneath(path, root)
	st.Scope = sc
	if root != "" && st.Exists && filepath.Clean(root) != filepath.Clean(a.absProjectRoot()) && !a.JSON {
		// Found above the directory the command runs for: say which.
		fmt.Fprintf(a.Stderr, "note: using the project store %s\n", a.storeDisplay(path))
	}
	return st, ds
}

// absProjectRoot is projectRoot made absolute.
func (a *App) absProjectRoot() string {
	root := a.projectRoot()
	if !filepath.IsAbs(root) {
		root = filepath.Join(a.Cwd, root)
	}
	return root
}

func (a *App) openStore(scope canonical.Scope) (*store.Store, error) {
	st, ds := a.loadStore(scope)
	path, sc := st.Path, st.Scope
	if sc == canonical.ScopeProject {
		ds = append(ds, projectClientFiles(st)...)
	}
	if len(ds) > 0 {
		a.printDiagnostics(ds)
	}
	if ds.HasErrors() {
		fmt.Fprintf(a.Stderr, "mcpsync: %s has errors; nothing was changed\n", a.storeDisplay(path))
		return nil, reportedError{ds.Err()}
	}
	return st, nil
}

// storeDisplay shortens the store path for messages: ~ for the home directory.
func (a *App) storeDisplay(path string) string {
	if home := a.Dirs.Home; home != "" {
		if rel, err := filepath.Rel(home, path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.Join("~", rel)
		}
	}
	return path
}

// storeScopeFlag is --scope for the commands that read or change the store.
func storeScopeFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:  "scope",
		Usage: "which store: `user` ($XDG_CONFIG_HOME/mcpsync/mcpsync.hcl) or project (mcpsync.hcl at the repository root); --store wins",
		Value: string(canonical.ScopeUser),
		Validator: func(s string) error {
			if s != string(canonical.ScopeUser) && s != string(canonical.ScopeProject) {
				return fmt.Errorf("--scope must be user or project, not %q", s)
			}
			return nil
		},
	}
}

// completeServerNames is the ShellComplete of commands that take server
// names: it prints the names in the store, quietly giving up on any error.
func (a *App) completeServerNames(ctx context.Context, cmd *cli.Command) {
	scope := canonical.Scope(cmd.String("scope"))
	explicit := a.StorePath
	if explicit == "" {
		explicit = cmd.Root().String("store")
	}
	path, _ := store.Locate(a.projectRoot(), a.Dirs, explicit, scope)
	st, ds := store.Load(path)
	if ds.HasErrors() {
		return
	}
	for _, n := range st.Servers.Names() {
		fmt.Fprintln(a.Stdout, n)
	}
}

// projectClientFiles warns about what a project's store may not say: a
// repository may not send writes to another file on the user's machine (a
// client's file attribute) nor make mcpsync run a command (a resolver
// plugin), so only the user's own store does either.
func projectClientFiles(st *store.Store) canonical.Diagnostics {
	ids := make([]string, 0, len(st.ClientFiles))
	for id := range st.ClientFiles {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var ds canonical.Diagnostics
	for _, id := range ids {
		d := canonical.Warnf("client %q: file is not used in a project's mcpsync.hcl", id)
		d.Detail = "only your own store (" + filepath.Join("$XDG_CONFIG_HOME", "mcpsync", store.FileName) + ") moves a client's file"
		ds = append(ds, d.At(st.ClientFiles[id].Pos))
	}
	for _, r := range st.Resolvers {
		d := canonical.Warnf("resolver %q: not used in a project's mcpsync.hcl", r.Name)
		d.Detail = "a repository may not make mcpsync run a command: only your own store (" +
			filepath.Join("$XDG_CONFIG_HOME", "mcpsync", store.FileName) + ") declares resolver plugins"
		ds = append(ds, d.At(r.Pos))
	}
	return ds
}
