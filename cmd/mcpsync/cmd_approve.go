package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/urfave/cli/v3"
)

func (a *App) approveCommand() *cli.Command {
	return &cli.Command{
		Name:        "approve",
		Usage:       "approve pending team-source servers so that export writes them",
		ArgsUsage:   "NAME... | --all",
		Description: help("approve"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "approve every pending server (of --source, if given)"},
			&cli.StringFlag{Name: "source", Usage: "only servers of `SOURCE`; names may then be the servers' own"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return a.runApprove(engine.ApproveOptions{Names: cmd.Args().Slice(), All: cmd.Bool("all"), Source: cmd.String("source")})
		},
	}
}

func (a *App) runApprove(o engine.ApproveOptions) error {
	res, err := a.engine().Approve(o)
	if err != nil {
		return err
	}
	a.report(res.Diags, nil)
	if a.JSON {
		return a.printJSON(map[string]any{"approved": res.Approved})
	}
	if len(res.Approved) == 0 {
		fmt.Fprintln(a.Stderr, "nothing is pending approval")
		return nil
	}
	newly := 0
	for _, o := range res.Approved {
		if o.Already {
			fmt.Fprintf(a.Stdout, "%s was already approved (content %s)\n", o.Qualified, engine.ShortHash(o.Hash))
			continue
		}
		newly++
		fmt.Fprintf(a.Stdout, "approved %s (content %s)\n", o.Qualified, engine.ShortHash(o.Hash))
	}
	if newly > 0 {
		fmt.Fprintln(a.Stderr, "run 'mcpsync export --to all' to write the approved servers to your clients")
	}
	return nil
}
