package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/atomicfile"
	"github.com/mcpsync/mcpsync/render"
	"github.com/urfave/cli/v3"
)

// plan export|sync --out FILE saves a plan; apply FILE writes it, unless a
// file changed since (engine.SavedPlan).
func (a *App) planCommand() *cli.Command {
	out := &cli.StringFlag{Name: "out", Aliases: []string{"o"}, Required: true, Usage: "write the plan to `FILE` (JSON; it holds hashes, never contents)"}
	exitCode := &cli.BoolFlag{Name: "exit-code", Usage: "exit 1 when the plan changes files"}
	exportFl := append([]cli.Flag{
		&cli.StringSliceFlag{Name: "to", Usage: "the clients to write: `CLIENT`[,CLIENT…] or all (see 'mcpsync clients')"},
		out, exitCode,
	}, exportFlags()...)
	return &cli.Command{
		Name:        "plan",
		Usage:       "save an export or a sync as a plan file, to apply later without a prompt",
		UsageText:   "mcpsync plan export [SERVER…] --to CLIENT[,CLIENT…]|all --out FILE\n   mcpsync plan sync [--scope user|project] [--only CLIENT…] --out FILE",
		Description: help("plan"),
		Commands: []*cli.Command{
			{
				Name:          "export",
				Usage:         "plan an export (the flags of 'mcpsync export')",
				Description:   help("plan-export"),
				Flags:         exportFl,
				ShellComplete: a.completeServerNames,
				Action: func(ctx context.Context, cmd *cli.Command) error {
					o, err := a.exportOptions(cmd, nil)
					if err != nil {
						return err
					}
					a.registry()
					run, sp, err := a.engine().PlanExport(o)
					if err != nil {
						return err
					}
					a.report(run.Diags, run.Notes)
					return a.savePlan(sp, run.Plan, cmd.String("out"), cmd.Bool("exit-code"), cmd.Bool("show-secrets"))
				},
			},
			{
				Name:        "sync",
				Usage:       "plan a two-way sync (the flags of 'mcpsync sync')",
				Description: help("plan-sync"),
				Flags: []cli.Flag{syncScopeFlag(), onlyFlag(), out, exitCode,
					&cli.BoolFlag{Name: "show-secrets", Usage: "print secret-looking literal values in the diff instead of masking them (never in the plan file)"}},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if cmd.Args().Len() > 0 {
						return usagef("plan sync takes no arguments (got %q); name clients with --only", cmd.Args().First())
					}
					scope, err := parseSyncScope(cmd)
					if err != nil {
						return err
					}
					a.registry()
					run, sp, err := a.engine().PlanSyncSaved(engine.SyncOptions{Scope: scope, Only: clientList(cmd.StringSlice("only"))})
					if err != nil {
						return err
					}
					defer run.Close()
					a.report(run.StoreDiags, nil)
					return a.savePlan(sp, run.Result.Plan, cmd.String("out"), cmd.Bool("exit-code"), cmd.Bool("show-secrets"))
				},
			},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return usagef("plan what? use 'mcpsync plan export …' or 'mcpsync plan sync …'")
		},
	}
}

// savePlan prints the plan's diff and writes the plan file. A plan with
// errors is not saved: it could never be applied.
func (a *App) savePlan(sp *engine.SavedPlan, p *emitters.Plan, path string, exitCode, showSecrets bool) error {
	if err := a.reportPlanProblems(p); err != nil {
		return err
	}
	data, err := json.MarshalIndent(sp, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("cannot write the plan: %w", err)
	}
	if a.JSON {
		if err := a.printJSON(sp); err != nil {
			return err
		}
	} else {
		a.printDiff(p, showSecrets)
		fmt.Fprintf(a.Stderr, "plan saved to %s: %s to write; review it, then run 'mcpsync apply %s'\n",
			path, engine.CountOf(len(sp.Files), "file"), path)
	}
	if exitCode && len(sp.Files) > 0 {
		return exitCodeError{code: exitPending}
	}
	return nil
}

func (a *App) applyCommand() *cli.Command {
	return &cli.Command{
		Name:        "apply",
		Usage:       "write a saved plan, unless a file changed since it was made",
		UsageText:   "mcpsync apply PLAN_FILE",
		Description: help("apply"),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return usagef("apply takes one plan file (made with 'mcpsync plan … --out FILE')")
			}
			sp, err := engine.ReadSavedPlan(cmd.Args().First())
			if err != nil {
				return err
			}
			a.registry()
			out, err := a.engine().ApplySaved(sp)
			if err != nil {
				var stale *engine.StalePlanError
				if errors.As(err, &stale) && a.JSON {
					a.printJSON(map[string]any{"applied": false, "stale": true, "file": stale.File, "error": err.Error()}) //nolint:errcheck // the error below is what matters
				}
				return err
			}
			if a.JSON {
				return a.printJSON(map[string]any{"applied": true, "verb": sp.Verb, "files": sp.Files, "result": out.Result})
			}
			render.FileLines(a.Stdout, out.Plan, a.paths())
			a.printBackup(out.Result)
			a.printRestartNote(out.Plan)
			if len(out.Plan.Changes()) == 0 {
				fmt.Fprintln(a.Stdout, "nothing to write: every file already holds what the plan shows")
			}
			return nil
		},
	}
}
