package main

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters/unidiff"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/secrets"
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
	a.printSwitch(st, on, run.Clients, run.Changes)
	return nil
}

func (a *App) printSwitchDryRun(st *store.Store, changed bool, changes []engine.SwitchChange) error {
	name := strings.TrimPrefix(filepath.ToSlash(a.engine().StoreDisplay(st.Path)), "/")
	diff := unidiff.Diff(unidiff.File{Name: name, Data: st.Original(), Absent: !st.Exists},
		unidiff.File{Name: name, Data: st.Bytes(), Mode: 0o600}, unidiff.Options{Mask: secrets.ScrubberFor(st.Servers).Line})
	if a.JSON {
		return a.printJSON(map[string]any{"store": st.Path, "scope": st.Scope, "changed": changed, "changes": changes, "dryRun": true, "diff": diff})
	}
	a.printExact(diff)
	fmt.Fprintln(a.Stderr, "dry run: nothing was written")
	return nil
}

// printSwitch says what changed, what was already so, and what to run to
// carry the change into the clients' files.
func (a *App) printSwitch(st *store.Store, on bool, clients []formats.Adapter, changes []engine.SwitchChange) {
	where := a.engine().StoreDisplay(st.Path)
	verb := map[bool]string{true: "enabled", false: "disabled"}[on]
	scopeFlag := ""
	if st.Scope == canonical.ScopeProject {
		scopeFlag = " --scope project"
	}
	var changedServers []string
	for _, c := range changes {
		if c.Client == "" && c.Action != "unchanged" {
			changedServers = append(changedServers, c.Server)
		}
	}
	for _, c := range changes {
		switch {
		case c.Client != "":
		case c.Action == "unchanged":
			fmt.Fprintf(a.Stdout, "%s is already %s\n", c.Server, verb)
		case on:
			fmt.Fprintf(a.Stdout, "%s %s in %s: clients that get it start it again\n", a.paint(false, styleGreen, "enabled"), c.Server, where)
		default:
			fmt.Fprintf(a.Stdout, "%s %s in %s: clients keep it but do not start it\n", a.paint(false, styleYellow, "disabled"), c.Server, where)
		}
	}
	var touched []formats.Adapter
	var touchedServers []string
	for _, ad := range clients {
		var changed, same []string
		for _, c := range changes {
			if c.Client != ad.ID() {
				continue
			}
			if c.Action == "unchanged" {
				same = append(same, c.Server)
			} else {
				changed = append(changed, c.Server)
				if !slices.Contains(touchedServers, c.Server) {
					touchedServers = append(touchedServers, c.Server)
				}
			}
		}
		if len(changed) > 0 {
			touched = append(touched, ad)
			gets := "now gets"
			if !on {
				gets = "no longer gets"
			}
			fmt.Fprintf(a.Stdout, "%s %s %s (%s)\n", ad.ID(), gets, strings.Join(changed, ", "), where)
		}
		for _, n := range same {
			fmt.Fprintf(a.Stdout, "%s is already %s for %s\n", n, verb, ad.ID())
		}
	}
	if on {
		var off []string
		for _, n := range touchedServers {
			if srv, ok := st.Servers.Get(n); ok && srv.Disabled {
				off = append(off, n)
			}
		}
		if len(off) > 0 {
			fmt.Fprintf(a.Stderr, "note: %s disabled for every client; 'mcpsync enable %s%s' switches %s on\n",
				engine.DescribeNames("server", off), strings.Join(off, " "), scopeFlag, engine.Them(off))
		}
	}
	it := engine.Them(append(changedServers, touchedServers...))
	if len(changedServers) > 0 {
		fmt.Fprintf(a.Stderr, "next: run 'mcpsync export --to all%s' (or 'mcpsync sync%s') to write that into your clients' files\n", scopeFlag, scopeFlag)
		if !on {
			fmt.Fprintf(a.Stderr, "note: a client that cannot mark a server disabled (export names it) keeps its entry on; "+
				"'mcpsync disable %s --client CLIENT%s' takes %s away from that client\n", strings.Join(changedServers, " "), scopeFlag, engine.Them(changedServers))
		}
	}
	if len(touched) == 0 {
		return
	}
	ids := make([]string, len(touched))
	for i, ad := range touched {
		ids[i] = ad.ID()
	}
	files := "their files"
	if len(touched) == 1 {
		files = touched[0].DisplayName() + "'s file"
	}
	if on {
		fmt.Fprintf(a.Stderr, "next: run 'mcpsync export --to %s%s' (or 'mcpsync sync%s') to write %s into %s\n",
			strings.Join(ids, ","), scopeFlag, scopeFlag, it, files)
	} else {
		fmt.Fprintf(a.Stderr, "next: run 'mcpsync export --to %s%s --prune' (or 'mcpsync sync%s') to take %s out of %s\n",
			strings.Join(ids, ","), scopeFlag, scopeFlag, it, files)
	}
}
