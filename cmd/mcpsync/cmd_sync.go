package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/render"

	"github.com/mcpsync/mcpsync/emitters"
	"github.com/urfave/cli/v3"
)

func (a *App) syncCommand() *cli.Command {
	return &cli.Command{
		Name:        "sync",
		Usage:       "two-way sync: propagate each change in the store or any client to all the others",
		UsageText:   "mcpsync sync [--dry-run] [--scope user|project] [--only CLIENT[,CLIENT…]] [--exit-code]",
		Description: help("sync"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the diff that would be written and write nothing"},
			syncScopeFlag(),
			onlyFlag(),
			&cli.BoolFlag{Name: "exit-code", Usage: "exit 1 when files changed (or, with --dry-run, would change)"},
			&cli.BoolFlag{Name: "show-secrets", Usage: "print secret-looking literal values in diffs instead of masking them"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("sync takes no arguments (got %q); name clients with --only", cmd.Args().First())
			}
			scope, err := parseSyncScope(cmd)
			if err != nil {
				return err
			}
			return a.runSync(engine.SyncOptions{Scope: scope, Only: clientList(cmd.StringSlice("only")), DryRun: cmd.Bool("dry-run")},
				cmd.Bool("exit-code"), cmd.Bool("show-secrets"))
		},
	}
}

func (a *App) runSync(o engine.SyncOptions, exitCode, showSecrets bool) error {
	a.registry()
	dryRun := o.DryRun
	run, err := a.engine().Sync(o)
	if err != nil {
		return err
	}
	defer run.Close()
	a.report(run.StoreDiags, nil)
	r := run.Result
	if err := a.reportPlanProblems(r.Plan); err != nil {
		if a.JSON {
			a.printJSON(a.syncJSON(run, dryRun, showSecrets, nil))
		}
		return err
	}
	var res *emitters.Result
	if !dryRun {
		if res, err = run.Apply(nil); err != nil {
			return engine.ApplyError(err)
		}
	}
	switch {
	case a.JSON:
		a.printJSON(a.syncJSON(run, dryRun, showSecrets, res))
	case dryRun:
		a.printDiff(r.Plan, showSecrets)
		render.SyncOutcomes(a.Stderr, "would sync ", r.Outcomes)
	default:
		render.SyncOutcomes(a.Stdout, "", r.Outcomes)
	}
	if !a.JSON {
		if note := run.Desired.PendingNote(); note != "" {
			fmt.Fprintln(a.Stderr, "note: "+note)
		}
		for _, c := range r.Conflicts {
			fmt.Fprint(a.Stderr, a.conflictText(c))
		}
		render.SkippedSync(a.Stderr, r.Skipped, a.paths())
		switch {
		case dryRun:
			fmt.Fprintf(a.Stderr, "dry run: %d file(s) would change; nothing was written\n", len(r.Plan.Changes()))
		case res != nil && len(r.Plan.Changes()) > 0:
			a.printBackup(res)
			a.printRestartNote(r.Plan)
		case len(r.Outcomes) == 0 && len(r.Conflicts) == 0:
			fmt.Fprintln(a.Stderr, "in sync: nothing to change")
		}
	}
	if n := len(r.Conflicts); n > 0 {
		return exitCodeError{code: exitError, msg: fmt.Sprintf("%d conflict(s) left open; nothing was written for %s (see above); "+
			"settle each with 'mcpsync resolve NAME --take CLIENT|store'", n, render.ConflictNames(r.Conflicts))}
	}
	if exitCode && r.Changed() {
		return exitCodeError{code: exitPending}
	}
	return nil
}
