package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/render"
	"github.com/urfave/cli/v3"
)

func (a *App) listCommand() *cli.Command {
	return &cli.Command{
		Name:        "list",
		Aliases:     []string{"ls"},
		Usage:       "list the servers in the store",
		Description: help("list"),
		Flags:       []cli.Flag{storeScopeFlag()},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return a.runList(canonical.Scope(cmd.String("scope")))
		},
	}
}

func (a *App) runList(scope canonical.Scope) error {
	l, err := a.engine().List(scope)
	if err != nil {
		return err
	}
	a.report(l.Diags, l.Notes)
	st, servers := l.Store, l.Servers
	if a.JSON {
		return a.printJSON(render.ListOf(l))
	}
	if len(servers) == 0 {
		fmt.Fprintf(a.Stderr, "no servers in %s yet; add one with: mcpsync add NAME -- COMMAND\n", a.engine().StoreDisplay(st.Path))
		return nil
	}
	return render.List(a.Stdout, servers, st, a.paths())
}
