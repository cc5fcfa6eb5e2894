package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/render"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

func (a *App) disableCommand() *cli.Command { return a.switchCommand(false) }

func (a *App) enableCommand() *cli.Command { return a.switchCommand(true) }

// switchCommand is 'enable' (on) or 'disable'.
func (a *App) switchCommand(on bool) *cli.Command {
	name, usage, description := "disable", "switch servers off, for every client or for some (--client)", help("disable")
	if on {
		name, usage, description = "enable", "switch servers back on, for every client or for some (--client)", help("enable")
	}
	return &cli.Command{
		Name:        name,
		Usage:       usage,
		ArgsUsage:   "NAME... [--client CLIENT[,CLIENT…]]",
		Description: description,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "client", Usage: "change the rule of `CLIENT` (comma-separated or repeated; see 'mcpsync clients') instead of the server's own switch"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the change to the store as a diff and write nothing"},
			storeScopeFlag(),
		},
		ShellComplete: a.completeServerNames,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return a.runSwitch(on, canonical.Scope(cmd.String("scope")), cmd.Args().Slice(),
				cmd.IsSet("client"), clientList(cmd.StringSlice("client")), cmd.Bool("dry-run"))
		},
	}
}

func (a *App) runSwitch(on bool, scope canonical.Scope, names []string, clientSet bool, clientIDs []string, dryRun bool) error {
	if clientSet {
		a.registry()
	}
	run, err := a.engine().Switch(engine.SwitchOptions{On: on, Scope: scope, Names: names, Clients: clientIDs, ClientSet: clientSet, DryRun: dryRun})
	if err != nil {
		return err
	}
	defer run.Close()
	a.report(run.Diags, run.Notes)
	st := run.Store
	changed := st.Changed()
	if dryRun {
		return a.printSwitchDryRun(st, changed, run.Changes)
	}
	if err := run.Apply(); err != nil {
		return err
	}
	if a.JSON {
		return a.printJSON(map[string]any{"store": st.Path, "scope": st.Scope, "changed": changed, "changes": run.Changes})
	}
	render.Switch(a.Stdout, a.Stderr, st, on, run.Clients, run.Changes, a.paths())
	return nil
}

func (a *App) printSwitchDryRun(st *store.Store, changed bool, changes []engine.SwitchChange) error {
	diff := a.engine().StoreDiff(st)
	if a.JSON {
		return a.printJSON(map[string]any{"store": st.Path, "scope": st.Scope, "changed": changed, "changes": changes, "dryRun": true, "diff": diff})
	}
	a.printExact(diff)
	fmt.Fprintln(a.Stderr, "dry run: nothing was written")
	return nil
}
