package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"
)

func (a *App) diffCommand() *cli.Command {
	flags := append([]cli.Flag{
		&cli.StringSliceFlag{Name: "to", Usage: "the clients to compare: `CLIENT`[,CLIENT…] or all (default all)"},
		&cli.BoolFlag{Name: "exit-code", Usage: "exit 1 when changes are pending, 0 when every file is in step"},
	}, exportFlags()...)
	return &cli.Command{
		Name:          "diff",
		Usage:         "print the changes export would make",
		UsageText:     "mcpsync diff [SERVER…] [--to CLIENT[,CLIENT…]|all] [--scope user|project|local] [--prune] [--exit-code]",
		Description:   help("diff"),
		Flags:         flags,
		ShellComplete: a.completeServerNames,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			o, err := a.exportOptions(cmd, []string{"all"})
			if err != nil {
				return err
			}
			o.DryRun = true
			run, err := a.planRun(o)
			if err != nil {
				return err
			}
			defer run.Close()
			showSecrets := cmd.Bool("show-secrets")
			pending := len(run.Plan.Changes()) > 0
			if a.JSON {
				a.printJSON(a.planJSON(run, true, true, showSecrets))
			} else {
				// Every file that plans cleanly shows its diff, whatever
				// another file's problem.
				a.printDiff(run.Plan, showSecrets)
			}
			if err := a.reportPlanProblems(run.Plan); err != nil {
				return err
			}
			if !pending && !a.JSON {
				fmt.Fprintf(a.Stderr, "no changes: %d file(s) already hold the store's servers\n", len(run.Plan.Files))
			}
			if pending && cmd.Bool("exit-code") {
				return exitCodeError{code: exitPending}
			}
			return nil
		},
	}
}
