package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/render"

	"github.com/mcpsync/mcpsync/emitters"
	"github.com/urfave/cli/v3"
)

func (a *App) restoreCommand() *cli.Command {
	return &cli.Command{
		Name:        "restore",
		Usage:       "bring client files (and the store) back from mcpsync's backups",
		ArgsUsage:   "[FILE…]",
		UsageText:   "mcpsync restore --list [FILE…] | FILE… [--at TIME] | --all [--at TIME] [--dry-run] [--force]",
		Description: help("restore"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "list", Aliases: []string{"l"}, Usage: "list the backups per file (of the FILEs given, or all)"},
			&cli.BoolFlag{Name: "all", Usage: "restore every file the chosen write changed (the last write, or every write after --at)"},
			&cli.StringFlag{Name: "at", Usage: "restore as things were at `TIME`: a backup id, a local date and time, or a duration ago (2h, 3d)"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the diff that would be written and write nothing"},
			&cli.BoolFlag{Name: "force", Usage: "restore a file even if it changed since mcpsync last wrote it (its current bytes are backed up first)"},
			&cli.BoolFlag{Name: "prune", Usage: "remove old backups now (see --keep and --max-age)"},
			&cli.IntFlag{Name: "keep", Usage: "with --prune: keep the newest `N` backups of each file (default 20, or MCPSYNC_BACKUP_KEEP)"},
			&cli.StringFlag{Name: "max-age", Usage: "with --prune: remove backups older than `AGE` such as 30d or 12h (default 30d, or MCPSYNC_BACKUP_MAX_AGE)"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			paths := make([]string, 0, cmd.Args().Len())
			for _, p := range cmd.Args().Slice() {
				paths = append(paths, a.engine().AbsPath(p))
			}
			switch {
			case cmd.Bool("prune"):
				if len(paths) > 0 || cmd.Bool("list") || cmd.Bool("all") || cmd.String("at") != "" {
					return usagef("--prune takes no files and no --list, --all or --at")
				}
				return a.runPruneBackups(cmd)
			case cmd.Int("keep") != 0 || cmd.String("max-age") != "":
				return usagef("--keep and --max-age go with --prune")
			case cmd.Bool("list"):
				if cmd.Bool("all") || cmd.String("at") != "" || cmd.Bool("force") {
					return usagef("--list takes no --all, --at or --force")
				}
				return a.runRestoreList(paths)
			}
			return a.runRestore(engine.RestoreOptions{Paths: paths, All: cmd.Bool("all"), At: cmd.String("at"),
				Force: cmd.Bool("force"), DryRun: cmd.Bool("dry-run")})
		},
	}
}

func (a *App) runRestoreList(paths []string) error {
	files, err := a.engine().Backups(paths)
	if err != nil {
		return err
	}
	if a.JSON {
		return a.printJSON(map[string]any{"backupDir": a.engine().BackupDir(), "files": files})
	}
	if len(files) == 0 {
		fmt.Fprintf(a.Stderr, "no backups yet: mcpsync keeps one in %s each time it writes a file\n", a.engine().Display(a.engine().BackupDir()))
		return nil
	}
	render.Backups(a.Stdout, files, a.paths())
	fmt.Fprintln(a.Stderr, "each line is a file as it was just before that write; restore one with: mcpsync restore FILE --at ID")
	return nil
}

func (a *App) runRestore(o engine.RestoreOptions) error {
	run, err := a.engine().Restore(o)
	if err != nil {
		return err
	}
	defer run.Close()
	p, dryRun := run.Plan, o.DryRun
	diffOpts := emitters.DiffOptions{Base: a.engine().ProjectRoot(), Mask: emitters.MaskSecrets}
	out := func(res *emitters.Result) error {
		return a.printJSON(render.Restore(p, dryRun, res, a.paths(), diffOpts))
	}
	if p.Diags.HasErrors() {
		if a.JSON {
			out(nil)
		}
		a.printDiagnostics(p.Diags)
		fmt.Fprintf(a.Stderr, "mcpsync: %d error(s); no file was restored\n", len(p.Diags.Errors()))
		return reportedError{p.Err()}
	}
	if dryRun {
		if a.JSON {
			return out(nil)
		}
		a.printDiffWith(p, diffOpts)
		fmt.Fprintf(a.Stderr, "dry run: %d file(s) would be restored; nothing was written\n", len(p.Changes()))
		return nil
	}
	res, err := run.Apply()
	if err != nil {
		return err
	}
	if a.JSON {
		return out(res)
	}
	render.Restored(a.Stdout, p, a.paths())
	if res.BackedUp > 0 {
		fmt.Fprintf(a.Stderr, "the replaced bytes are backed up too: undo this with 'mcpsync restore --all'\n")
	}
	return nil
}

func (a *App) runPruneBackups(cmd *cli.Command) error {
	r := a.engine().Retention()
	if n := cmd.Int("keep"); n != 0 {
		r.Keep = int(n)
	}
	if v := cmd.String("max-age"); v != "" {
		d, err := engine.ParseAge(v)
		if err != nil {
			return usagef("--max-age: %v", err)
		}
		r.MaxAge = d
	}
	touched, err := a.engine().PruneBackups(r)
	if err != nil {
		return err
	}
	if a.JSON {
		return a.printJSON(map[string]any{"keep": r.Keep, "maxAge": r.MaxAge.String(), "pruned": touched})
	}
	fmt.Fprintf(a.Stderr, "pruned %d backup director%s (keeping the newest %d of each file, none older than %s but each file's newest)\n",
		len(touched), map[bool]string{true: "y", false: "ies"}[len(touched) == 1], r.Keep, r.MaxAge)
	return nil
}
