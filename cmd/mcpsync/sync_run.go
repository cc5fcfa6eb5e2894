package main

// Shared code of sync, resolve and watch: print what a reconcile did.

import (
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/render"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/reconcile"
	"github.com/urfave/cli/v3"
)

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

// syncJSON is the --json form of a sync (render.Sync): with the diffs for
// a dry run.
func (a *App) syncJSON(run *engine.SyncRun, dryRun, showSecrets bool, res *emitters.Result) render.SyncJSON {
	var diff *emitters.DiffOptions
	if dryRun {
		d := a.diffOptions(run.Result.Plan, showSecrets)
		diff = &d
	}
	return render.Sync(run, dryRun, res, a.paths(), diff)
}

// conflictText shows a conflict with every side's version (render.Conflict).
func (a *App) conflictText(c reconcile.Conflict) string { return render.Conflict(c, a.paths()) }

func joinAnd(names []string) string { return engine.JoinWith(names, "and") }
