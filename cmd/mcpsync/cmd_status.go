package main

import (
	"context"

	"github.com/mcpsync/mcpsync/engine"
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
			&cli.BoolFlag{Name: "strict", Usage: "fleet health check: exit 1 on drift, a missing managed file, a pending approval or a failed pull"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("status takes no arguments (got %q)", cmd.Args().First())
			}
			return a.runStatus(cmd.Bool("exit-code"), cmd.Bool("strict"))
		},
	}
}

func (a *App) runStatus(exitCode, strict bool) error {
	e := a.engine()
	st, out, err := e.Status()
	if err != nil {
		return err
	}
	var health *engine.Health
	if strict {
		if health, err = e.Health(out); err != nil {
			return err
		}
	}
	if a.JSON {
		doc := struct {
			*engine.Status
			Health *engine.Health `json:"health,omitempty"`
		}{out, health}
		if err := a.printJSON(doc); err != nil {
			return err
		}
	} else if strict {
		render.Health(a.Stdout, a.Stderr, health)
	} else {
		render.Status(a.Stdout, a.Stderr, st, out, a.paths())
	}
	if strict && !health.Healthy {
		return exitCodeError{code: exitPending} // each problem was printed
	}
	if exitCode && out.Pending > 0 {
		return exitCodeError{code: exitPending}
	}
	return nil
}
