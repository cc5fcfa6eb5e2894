package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/render"
	"github.com/urfave/cli/v3"
)

func (a *App) doctorCommand() *cli.Command {
	return &cli.Command{
		Name:        "doctor",
		Usage:       "check every client file and the store for problems and leaks",
		UsageText:   "mcpsync doctor [--client CLIENT[,CLIENT…]] [--scope user|project|local] [--fix]",
		Description: help("doctor"),
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "client", Usage: "check only `CLIENT`[,CLIENT…] (see 'mcpsync clients')"},
			&cli.StringSliceFlag{Name: "scope", Usage: "check only the `SCOPE`s given: user, project, local"},
			&cli.BoolFlag{Name: "fix", Usage: "fix what needs no decision: close files and directories others can read, remove leftover temporary files"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("doctor takes no arguments (got %q); choose clients with --client", cmd.Args().First())
			}
			return a.runDoctor(clientList(cmd.StringSlice("client")), clientList(cmd.StringSlice("scope")), cmd.Bool("fix"))
		},
	}
}

func (a *App) runDoctor(clients, scopes []string, fix bool) error {
	a.registry()
	o := engine.DoctorOptions{Clients: clients, Fix: fix}
	for _, s := range scopes {
		o.Scopes = append(o.Scopes, canonical.Scope(s))
	}
	res, err := a.engine().Doctor(o)
	if res != nil && !a.JSON {
		for _, f := range res.Fixed {
			fmt.Fprintf(a.Stdout, "%s  %s: %s\n", a.paint(false, styleGreen, "fixed"), a.engine().Display(f.Path), f.Action)
		}
	}
	if err != nil {
		return err
	}
	if a.JSON {
		err := a.printJSON(render.Doctor(res, fix))
		if err == nil && res.Report.HasErrors() {
			return reportedError{fmt.Errorf("doctor found errors")}
		}
		return err
	}
	if n := render.DoctorText(a.Stdout, res, a.paths()); n > 0 {
		return reportedError{fmt.Errorf("doctor found %d error(s)", n)}
	}
	return nil
}
