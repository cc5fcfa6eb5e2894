package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

func (a *App) sourceCommand() *cli.Command {
	return &cli.Command{
		Name:        "source",
		Usage:       "add, remove or list team sources (git repositories of shared servers)",
		Description: help("source"),
		Commands: []*cli.Command{
			{
				Name:        "add",
				Usage:       "add a team source to the user store",
				Description: help("source-add"),
				ArgsUsage:   "NAME --git URL [--ref REF] [--path DIR]",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "git", Usage: "the repository: any `URL` git fetches, or a local path", Required: true},
					&cli.StringFlag{Name: "ref", Usage: "the branch, tag or commit `REF` to follow (default: the remote's HEAD)"},
					&cli.StringFlag{Name: "path", Usage: "the `DIR` (or file) of the repository holding the servers (default: its root)"},
				},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if cmd.Args().Len() != 1 {
						return usagef("source add takes one name, for example: mcpsync source add acme --git URL")
					}
					return a.runSourceAdd(store.Source{Name: cmd.Args().First(), Git: cmd.String("git"), Ref: cmd.String("ref"), Path: cmd.String("path")})
				},
			},
			{
				Name:        "remove",
				Aliases:     []string{"rm"},
				Usage:       "remove a team source from the user store",
				Description: help("source-remove"),
				ArgsUsage:   "NAME",
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if cmd.Args().Len() != 1 {
						return usagef("source remove takes one name, for example: mcpsync source remove acme")
					}
					return a.runSourceRemove(cmd.Args().First())
				},
			},
			{
				Name:        "list",
				Aliases:     []string{"ls"},
				Usage:       "list the team sources and their last pulls",
				Description: help("source-list"),
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if cmd.Args().Len() > 0 {
						return usagef("source list takes no arguments")
					}
					return a.runSourceList()
				},
			},
		},
	}
}

func (a *App) runSourceAdd(src store.Source) error {
	st, err := a.engine().AddSource(src)
	if err != nil {
		return err
	}
	if a.JSON {
		return a.printJSON(map[string]any{"store": st.Path, "added": src})
	}
	fmt.Fprintf(a.Stdout, "added source %s to %s\n", src.Name, a.engine().StoreDisplay(st.Path))
	fmt.Fprintf(a.Stderr, "next: 'mcpsync pull %s', review with 'mcpsync status', then 'mcpsync approve'\n", src.Name)
	return nil
}

func (a *App) runSourceRemove(name string) error {
	st, servers, err := a.engine().RemoveSource(name)
	if err != nil {
		return err
	}
	if a.JSON {
		return a.printJSON(map[string]any{"store": st.Path, "removed": name})
	}
	fmt.Fprintf(a.Stdout, "removed source %s from %s\n", name, a.engine().StoreDisplay(st.Path))
	if servers > 0 {
		verb := "leave"
		if servers == 1 {
			verb = "leaves"
		}
		fmt.Fprintf(a.Stderr, "its %s %s your clients at the next 'mcpsync export --to all --prune' (or 'mcpsync sync')\n", engine.CountOf(servers, "server"), verb)
	}
	return nil
}

func (a *App) runSourceList() error {
	st, out, err := a.engine().ListSources()
	if err != nil {
		return err
	}
	if a.JSON {
		return a.printJSON(map[string]any{"store": st.Path, "sources": out})
	}
	if len(out) == 0 {
		fmt.Fprintf(a.Stderr, "no team source in %s yet; add one with: mcpsync source add NAME --git URL\n", a.engine().StoreDisplay(st.Path))
		return nil
	}
	tw := a.newTable()
	fmt.Fprintln(tw, a.paint(false, styleBold, "NAME\tGIT\tREF\tPATH\tCOMMIT\tSERVERS"))
	for _, r := range out {
		commit, servers := "not pulled", "-"
		if r.Commit != "" {
			commit = engine.ShortHash(r.Commit)
			servers = fmt.Sprintf("%d approved, %d pending", r.Approved, r.Pending)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.Git, orDash(r.Ref), orDash(r.Path), commit, servers)
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
