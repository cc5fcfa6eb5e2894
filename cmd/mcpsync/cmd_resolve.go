package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/engine"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/reconcile"
	"github.com/mcpsync/mcpsync/render"
	"github.com/urfave/cli/v3"
)

func (a *App) resolveCommand() *cli.Command {
	return &cli.Command{
		Name:        "resolve",
		Usage:       "settle a sync conflict by taking one side's version, or list the open conflicts",
		UsageText:   "mcpsync resolve [NAME --take CLIENT|store] [--scope user|project] [--dry-run]",
		ArgsUsage:   "[NAME]",
		Description: help("resolve"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "take", Usage: "the side whose version wins: `CLIENT` (a client id) or store"},
			syncScopeFlag(),
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the diff that would be written and write nothing"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			scope, err := parseSyncScope(cmd)
			if err != nil {
				return err
			}
			take := cmd.String("take")
			switch cmd.Args().Len() {
			case 0:
				if take != "" {
					return usagef("--take needs the server: mcpsync resolve NAME --take %s", take)
				}
				return a.listConflicts(scope)
			case 1:
				if take == "" {
					return usagef("say which version wins: mcpsync resolve %s --take CLIENT|store", cmd.Args().First())
				}
				return a.runResolve(scope, cmd.Args().First(), take, cmd.Bool("dry-run"))
			default:
				return usagef("resolve settles one server at a time (got %d names)", cmd.Args().Len())
			}
		},
	}
}

// listConflicts merges without writing and prints the conflicts it finds.
func (a *App) listConflicts(scope canonical.Scope) error {
	a.registry()
	run, err := a.engine().Conflicts(scope)
	if err != nil {
		return err
	}
	a.report(run.StoreDiags, nil)
	if err := a.reportPlanProblems(run.Result.Plan); err != nil {
		return err
	}
	cs := run.Result.Conflicts
	if a.JSON {
		if cs == nil {
			cs = []reconcile.Conflict{}
		}
		return a.printJSON(map[string]any{"store": run.Result.StorePath, "conflicts": cs})
	}
	if len(cs) == 0 {
		fmt.Fprintln(a.Stdout, "no open conflicts")
		return nil
	}
	for _, c := range cs {
		fmt.Fprint(a.Stdout, a.conflictText(c))
	}
	return nil
}

func (a *App) runResolve(scope canonical.Scope, name, take string, dryRun bool) error {
	a.registry()
	run, wasConflict, err := a.engine().Resolve(engine.ResolveOptions{Scope: scope, Name: name, Take: take, DryRun: dryRun})
	if err != nil {
		return err
	}
	defer run.Close()
	a.report(run.StoreDiags, nil)
	r := run.Result
	if err := a.reportPlanProblems(r.Plan); err != nil {
		return err
	}
	if dryRun {
		a.printDiff(r.Plan, false)
		render.SyncOutcomes(a.Stderr, "would sync ", r.Outcomes)
		fmt.Fprintf(a.Stderr, "dry run: %d file(s) would change; nothing was written\n", len(r.Plan.Changes()))
		return nil
	}
	res, err := run.Apply(nil)
	if err != nil {
		return engine.ApplyError(err)
	}
	if a.JSON {
		return a.printJSON(a.syncJSON(run, false, false, res))
	}
	render.SyncOutcomes(a.Stdout, "", r.Outcomes)
	switch {
	case len(r.Outcomes) == 0:
		fmt.Fprintf(a.Stderr, "%s: every side already holds %s's version; nothing to change\n", name, take)
	case !wasConflict:
		fmt.Fprintf(a.Stderr, "note: %s had no open conflict; %s's version was written everywhere\n", name, take)
	}
	a.printBackup(res)
	return nil
}
