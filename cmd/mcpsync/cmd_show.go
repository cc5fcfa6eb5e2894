package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/render"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

func (a *App) showCommand() *cli.Command {
	return &cli.Command{
		Name:          "show",
		Usage:         "show one server of the store",
		ArgsUsage:     "NAME",
		Description:   help("show"),
		Flags:         []cli.Flag{storeScopeFlag()},
		ShellComplete: a.completeServerNames,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			args := cmd.Args().Slice()
			if len(args) != 1 {
				return usagef("show takes one server name, for example: mcpsync show github")
			}
			return a.runShow(canonical.Scope(cmd.String("scope")), args[0])
		},
	}
}

func (a *App) runShow(scope canonical.Scope, name string) error {
	l, err := a.engine().List(scope)
	if err != nil {
		return err
	}
	a.report(l.Diags, l.Notes)
	st, servers := l.Store, l.Servers
	i := slices.IndexFunc(servers, func(ls engine.ListedServer) bool { return ls.Name == name })
	if i < 0 {
		names := make([]string, len(servers))
		for i, ls := range servers {
			names[i] = ls.Name
		}
		msg := fmt.Sprintf("server %q is not in %s", name, a.engine().StoreDisplay(st.Path))
		if s := store.Suggest(name, names); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		return fmt.Errorf("%s; list the servers with: mcpsync list", msg)
	}
	ls := servers[i]
	srv := secrets.MaskServer(ls.Server) // a literal secret is shown masked: ghp_***
	if a.JSON {
		if ls.Source == "" {
			return a.printJSON(srv)
		}
		ls.Server = srv
		return a.printJSON(ls)
	}
	render.Server(a.Stdout, ls, srv, st, a.paths())
	return nil
}
