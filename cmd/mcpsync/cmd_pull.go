package main

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpsync/mcpsync/render"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/urfave/cli/v3"
)

func (a *App) pullCommand() *cli.Command {
	return &cli.Command{
		Name:        "pull",
		Usage:       "fetch the team sources and show what is new or changed",
		ArgsUsage:   "[SOURCE...]",
		Description: help("pull"),
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "timeout", Value: sources.DefaultTimeout, Usage: "give up on a source's fetch after `DURATION`"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Duration("timeout") <= 0 {
				return usagef("--timeout must be longer than zero")
			}
			return a.runPull(ctx, cmd.Args().Slice(), cmd.Duration("timeout"))
		},
	}
}

func (a *App) runPull(ctx context.Context, names []string, timeout time.Duration) error {
	res, err := a.engine().Pull(ctx, names, timeout)
	if err != nil {
		return err
	}
	a.report(res.Diags, res.Notes)
	if a.JSON {
		if err := a.printJSON(res); err != nil {
			return err
		}
	} else {
		render.Pull(a.Stdout, a.Stderr, res, a.paths(), a.printDiagnostics)
	}
	if failed := res.Failed(); failed > 0 {
		return reportedError{fmt.Errorf("%d source(s) not updated", failed)}
	}
	return nil
}
