package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/urfave/cli/v3"
)

func (a *App) removeCommand() *cli.Command {
	return &cli.Command{
		Name:          "remove",
		Aliases:       []string{"rm"},
		Usage:         "remove servers from the store",
		ArgsUsage:     "NAME...",
		Description:   help("remove"),
		Flags:         []cli.Flag{storeScopeFlag()},
		ShellComplete: a.completeServerNames,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return a.runRemove(canonical.Scope(cmd.String("scope")), cmd.Args().Slice())
		},
	}
}

func (a *App) runRemove(scope canonical.Scope, names []string) error {
	run, err := a.engine().Remove(scope, names)
	if err != nil {
		return err
	}
	defer run.Close()
	a.report(run.Diags, run.Notes)
	if err := run.Apply(); err != nil {
		return err
	}
	st := run.Store
	names = slices.Compact(slices.Clone(names))
	if a.JSON {
		return a.printJSON(map[string]any{"store": st.Path, "scope": st.Scope, "removed": names})
	}
	for _, n := range names {
		fmt.Fprintf(a.Stdout, "removed %s from %s\n", n, a.engine().StoreDisplay(st.Path))
	}
	return nil
}
