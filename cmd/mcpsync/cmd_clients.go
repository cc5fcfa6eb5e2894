package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/render"
	"github.com/urfave/cli/v3"
)

func (a *App) clientsCommand() *cli.Command {
	return &cli.Command{
		Name:        "clients",
		Usage:       "list the clients mcpsync knows and their files",
		UsageText:   "mcpsync clients [--os OS [--home DIR]] [--spec ID]",
		Description: help("clients"),
		Flags: []cli.Flag{
			osFlag(),
			homeFlag(),
			&cli.StringFlag{Name: "spec", Usage: "print the built-in spec of client `ID`"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("clients takes no arguments (got %q)", cmd.Args().First())
			}
			goos, err := a.targetOS(cmd)
			if err != nil {
				return err
			}
			reg := a.registry()
			if id := cmd.String("spec"); id != "" {
				ad, err := reg.Lookup(id)
				if err != nil {
					return usageError{Err: err}
				}
				src, ok := builtinSpec(ad.ID())
				if !ok {
					return fmt.Errorf("%s has no built-in spec: it is written in Go (a client with quirks a spec cannot describe)", ad.ID())
				}
				return a.printExact(string(src))
			}
			home, err := a.homeOption(cmd)
			if err != nil {
				return err
			}
			list := a.engine().Clients(goos, home)
			if a.JSON {
				return a.printJSON(list)
			}
			render.Clients(a.Stdout, list, a.engine().ProjectRoot(), a.paths())
			return nil
		},
	}
}
