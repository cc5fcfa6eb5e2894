package main

import (
	"context"

	"github.com/mcpsync/mcpsync/render"
	"github.com/urfave/cli/v3"
)

func (a *App) statusCommand() *cli.Command {
	return &cli.Command{
		Name:        "status",
		Usage:       "show team sources, pending approvals with their diffs, and managed files",
		Description: help("status"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "exit-code", Usage: "exit 1 when a server is pending approval"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("status takes no arguments (got %q)", cmd.Args().First())
			}
			return a.runStatus(cmd.Bool("exit-code"))
		},
	}
}

func (a *App) runStatus(exitCode bool) error {
	st, out, err := a.engine().Status()
	if err != nil {
		return err
	}
	if a.JSON {
		if err := a.printJSON(out); err != nil {
			return err
		}
	} else {
		render.Status(a.Stdout, a.Stderr, st, out, a.paths())
	}
	if exitCode && out.Pending > 0 {
		return exitCodeError{code: exitPending}
	}
	return nil
}
