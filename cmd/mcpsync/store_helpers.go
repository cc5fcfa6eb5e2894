package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

// openStoreLocked takes the state lock (not for a dry run) and opens the
// store of scope, so that the lock is held from reading the store to its
// last write; release lets the lock go.
func (a *App) openStoreLocked(scope canonical.Scope, dryRun bool) (st *store.Store, release func(), err error) {
	release = func() {}
	if !dryRun {
		lock, err := a.engine().Lock()
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

// loadStore reads the store that --store, or else scope, selects (see
// engine.LoadStore), saying which project store it found above the
// directory the command runs for.
func (a *App) loadStore(scope canonical.Scope) (*store.Store, canonical.Diagnostics) {
	st, ds := a.engine().LoadStore(scope)
	if note := a.engine().StoreNote(st); note != "" && !a.JSON {
		fmt.Fprintln(a.Stderr, "note: "+note)
	}
	return st, ds
}

// openStore loads the store of scope for a command that uses it (see
// engine.OpenStore): its warnings are printed, and a store with errors is
// refused, so that nothing is ever written over a broken file.
func (a *App) openStore(scope canonical.Scope) (*store.Store, error) {
	st, ds, err := a.engine().OpenStore(scope)
	if err != nil {
		return nil, err
	}
	if note := a.engine().StoreNote(st); note != "" && !a.JSON {
		fmt.Fprintln(a.Stderr, "note: "+note)
	}
	a.report(ds, nil)
	return st, nil
}

// storeScopeFlag is --scope for the commands that read or change the store.
func storeScopeFlag() *cli.StringFlag {
	return &cli.StringFlag{
		Name:  "scope",
		Usage: "which store: `user` ($XDG_CONFIG_HOME/mcpsync/mcpsync.hcl) or project (mcpsync.hcl at the repository root); --store wins",
		Value: string(canonical.ScopeUser),
		Validator: func(s string) error {
			if s != string(canonical.ScopeUser) && s != string(canonical.ScopeProject) {
				return usagef("--scope must be user or project, not %q", s)
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
	path, _ := store.Locate(a.engine().ProjectRoot(), a.Dirs, explicit, scope)
	st, ds := store.Load(path)
	if ds.HasErrors() {
		return
	}
	for _, n := range st.Servers.Names() {
		fmt.Fprintln(a.Stdout, n)
	}
}
