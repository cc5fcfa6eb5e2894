package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/render"

	"github.com/urfave/cli/v3"
)

func (a *App) importCommand() *cli.Command {
	return &cli.Command{
		Name:        "import",
		Usage:       "import servers from a client into the store",
		UsageText:   "mcpsync import --from CLIENT [--scope user|project|local] [--file F] [--prefer store|client | --rename] [--dry-run]",
		Description: help("import"),
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "the `CLIENT` to read (see 'mcpsync clients')", Required: true},
			scopeFlag("which of the client's files: `user`, project or local"),
			&cli.StringFlag{Name: "file", Usage: "read `FILE` (in the client's shape) instead of the client's own file", TakesFile: true},
			&cli.StringFlag{Name: "prefer", Usage: "resolve conflicts by keeping the `store`'s definition or taking the client's"},
			&cli.BoolFlag{Name: "rename", Usage: "import a conflicting server, or a team source's server you changed in the client, as NAME-CLIENT"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "say what would change and change nothing"},
			&cli.BoolFlag{Name: "extract-secrets", Usage: "move literal secrets out of the client's file: references in the store and the file, and the export lines to set"},
			&cli.BoolFlag{Name: "show-secrets", Usage: "with --extract-secrets: print the values in the export lines even when stdout is not a terminal"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("import takes no arguments (got %q); use --file to read a file", cmd.Args().First())
			}
			scope, err := parseScope(cmd)
			if err != nil {
				return err
			}
			if cmd.Bool("show-secrets") && !cmd.Bool("extract-secrets") {
				return usagef("--show-secrets goes with --extract-secrets (import prints no other value)")
			}
			return a.runImport(engine.ImportOptions{From: cmd.String("from"), Scope: scope, File: cmd.String("file"),
				Prefer: cmd.String("prefer"), Rename: cmd.Bool("rename"), DryRun: cmd.Bool("dry-run"),
				Extract: cmd.Bool("extract-secrets"), Reveal: cmd.Bool("show-secrets") || a.stdoutTTY})
		},
	}
}

func (a *App) runImport(o engine.ImportOptions) error {
	a.registry()
	run, err := a.engine().Import(o)
	if err != nil {
		return err
	}
	defer run.Close()
	a.report(run.Diags, run.Notes)
	client, st := run.Client.ID(), run.Store
	if !o.DryRun {
		if err := run.Apply(); err != nil {
			return err
		}
	}
	reveal := o.Extract && o.Reveal && !o.DryRun
	moved := run.Secrets.Moved()
	for _, c := range run.Conflicts {
		fmt.Fprintf(a.Stderr, "conflict: %q differs between the store (%s) and %s:\n", c.Name, a.engine().Display(st.Path), client)
		fmt.Fprint(a.Stderr, render.ServerDiff(c.Store, c.Client, client))
	}
	if a.JSON {
		out := map[string]any{"imported": !o.DryRun && run.Changes() > 0, "dryRun": o.DryRun, "store": st.Path,
			"servers": append(run.Outcomes, run.FromSources...)}
		if len(moved) > 0 {
			out["extracted"] = run.Secrets.Extracted(reveal)
			if reveal {
				a.showSecrets = true
			}
		}
		a.printJSON(out)
	} else {
		render.ImportOutcomes(a.Stdout, run)
		if o.Extract && len(moved) > 0 {
			for _, p := range run.Rewrites {
				if o.DryRun {
					a.printDiff(p, false)
				} else {
					for _, fc := range p.Changes() {
						fmt.Fprintf(a.Stdout, "rewrote   %s (the secrets now come from the environment)\n", a.engine().Display(fc.Path))
					}
				}
			}
			a.printExports(run.Secrets, !reveal)
		}
	}
	switch {
	case len(run.Conflicts) > 0:
		others := "nothing else changed"
		if run.Changes() > 0 {
			others = fmt.Sprintf("the other %d server(s) were imported", run.Changes())
			if o.DryRun {
				others = fmt.Sprintf("the other %d server(s) would be imported", run.Changes())
			}
		}
		return exitCodeError{code: exitError, msg: fmt.Sprintf("%d conflict(s) left open: %s kept the store's definition; %s. "+
			"Choose --prefer store, --prefer client or --rename", len(run.Conflicts), importConflictNames(run.Conflicts), others)}
	case a.JSON:
	case o.DryRun:
		fmt.Fprintf(a.Stderr, "dry run: %d server(s) would change in %s; nothing was written\n", run.Changes(), a.engine().Display(st.Path))
	case len(run.Outcomes) == 0 && len(run.FromSources) == 0:
		fmt.Fprintf(a.Stderr, "%s has no servers to import\n", client)
	}
	return nil
}

func importConflictNames(cs []engine.Conflict) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = fmt.Sprintf("%q", c.Name)
	}
	return joinAnd(names)
}
