package main

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpsync/mcpsync/engine"
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
		a.printPull(res)
	}
	if failed := res.Failed(); failed > 0 {
		return reportedError{fmt.Errorf("%d source(s) not updated", failed)}
	}
	return nil
}

func (a *App) printPull(res *engine.PullResult) {
	pending := res.Pending
	removed := false
	for _, o := range res.Sources {
		a.printDiagnostics(o.Diags)
		if o.Error != "" {
			msg := fmt.Sprintf("mcpsync: source %q not updated: %s", o.Name, o.Error)
			if o.InEffect != "" {
				msg += fmt.Sprintf("; the last good pull (commit %s of %s) stays in effect", engine.ShortHash(o.InEffect), o.PulledAt.Format(time.RFC3339))
			} else {
				msg += "; it was never pulled, so none of its servers is exported"
			}
			fmt.Fprintln(a.Stderr, msg)
			continue
		}
		fmt.Fprintf(a.Stdout, "%s: commit %s, %s\n", o.Name, engine.ShortHash(o.Commit), engine.CountOf(countPulled(o.Servers), "server"))
		tw := a.newTable()
		for _, r := range o.Servers {
			mark, what := " ", string(r.Change)
			switch r.Change {
			case sources.Added:
				mark = a.paint(false, styleGreen, "+")
			case sources.Modified:
				mark = a.paint(false, styleYellow, "~")
			case sources.Dropped:
				mark, what = a.paint(false, styleRed, "-"), "removed upstream"
				removed = true
			}
			if r.Change != sources.Dropped {
				if r.Approved {
					what += ", approved"
				} else {
					what += ", " + a.paint(false, styleYellow, "pending approval")
				}
			}
			fmt.Fprintf(tw, "  %s %s\t%s\n", mark, r.Qualified, what)
		}
		tw.Flush()
	}
	switch {
	case pending > 0:
		fmt.Fprintf(a.Stderr, "%s pending approval: review with 'mcpsync status', then 'mcpsync approve NAME...' (or --all)\n",
			engine.CountOf(pending, "server"))
	case removed:
		fmt.Fprintln(a.Stderr, "run 'mcpsync export --to all --prune' to remove the servers gone upstream from your clients")
	}
}

func countPulled(rs []sources.PullResult) int {
	n := 0
	for _, r := range rs {
		if r.Change != sources.Dropped {
			n++
		}
	}
	return n
}
