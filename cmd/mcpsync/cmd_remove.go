package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

const removeDescription = `Remove servers from the store. The rest of the file (comments,
other servers, client rules) stays as it is.

Every name must be in the store: if one is not, nothing is removed.
Clients keep the server until the next export.

Examples:
  mcpsync remove github
  mcpsync remove github linear
  mcpsync remove --scope project fetch`

func (a *App) removeCommand() *cli.Command {
	return &cli.Command{
		Name:          "remove",
		Aliases:       []string{"rm"},
		Usage:         "remove servers from the store",
		ArgsUsage:     "NAME...",
		Description:   removeDescription,
		Flags:         []cli.Flag{storeScopeFlag()},
		ShellComplete: a.completeServerNames,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return a.runRemove(canonical.Scope(cmd.String("scope")), cmd.Args().Slice())
		},
	}
}

func (a *App) runRemove(scope canonical.Scope, names []string) error {
	if len(names) == 0 {
		return usagef("name the servers to remove, for example: mcpsync remove github")
	}
	names = slices.Compact(slices.Clone(names))
	st, release, err := a.openStoreLocked(scope, false)
	if err != nil {
		return err
	}
	defer release()
	where := a.storeDisplay(st.Path)
	var unknown []string
	for _, n := range names {
		if _, ok := st.Servers.Get(n); !ok {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "%s not in %s; nothing was removed", describeNames("server", unknown), where)
		have := st.Servers.Names()
		team, _ := desired.Load(st, a.Dirs.State) // a hint only: nil on a damaged record
		for _, n := range unknown {
			if team != nil {
				if src, _ := team.SourceOf(n); src != "" {
					fmt.Fprintf(&b, "\n  %s: comes from team source %s, not the store; 'mcpsync source remove %s' takes all its servers out of your clients, "+
						"or keep this one out of a client with 'mcpsync disable %s --client CLIENT'", n, src, src, shellWord(n))
					continue
				}
			}
			if s := store.Suggest(n, have); s != "" {
				fmt.Fprintf(&b, "\n  %s: did you mean %q?", n, s)
			}
		}
		if len(have) > 0 {
			fmt.Fprintf(&b, "\nThe store has: %s", strings.Join(have, ", "))
		} else {
			b.WriteString("\nThe store has no servers.")
		}
		return fmt.Errorf("%s", b.String())
	}
	for _, n := range names {
		st.Remove(n)
	}
	if err := a.saveStore(st); err != nil {
		return err
	}
	if a.JSON {
		return a.printJSON(map[string]any{"store": st.Path, "scope": st.Scope, "removed": names})
	}
	for _, n := range names {
		fmt.Fprintf(a.Stdout, "removed %s from %s\n", n, where)
	}
	return nil
}
