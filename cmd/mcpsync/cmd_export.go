package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/render"

	"github.com/mcpsync/mcpsync/emitters"
	"github.com/urfave/cli/v3"
)

func (a *App) exportCommand() *cli.Command {
	flags := append([]cli.Flag{
		&cli.StringSliceFlag{Name: "to", Usage: "the clients to write: `CLIENT`[,CLIENT…] or all (see 'mcpsync clients')"},
		&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the diff that would be written and write nothing"},
	}, exportFlags()...)
	return &cli.Command{
		Name:          "export",
		Usage:         "write the store's servers into client files",
		UsageText:     "mcpsync export [SERVER…] --to CLIENT[,CLIENT…]|all [--scope user|project|local] [--prune] [--dry-run]",
		Description:   help("export"),
		Flags:         flags,
		ShellComplete: a.completeServerNames,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			o, err := a.exportOptions(cmd, nil)
			if err != nil {
				return err
			}
			o.DryRun = cmd.Bool("dry-run")
			o.WriteOnly = !o.DryRun // the plan is written, not shown: see runExport
			return a.runExport(o, cmd.Bool("show-secrets"))
		},
	}
}

// planJSON is the --json form of a plan (render.Export), with the diffs
// when withDiff.
func (a *App) planJSON(run *engine.ExportRun, dryRun, withDiff, showSecrets bool) render.PlanJSON {
	var diff *emitters.DiffOptions
	if withDiff {
		d := a.diffOptions(run.Plan, showSecrets)
		diff = &d
	}
	return render.Export(run, dryRun, a.paths(), diff)
}

// planRun plans an export (or a diff) and prints what the engine said
// besides the plan.
func (a *App) planRun(o engine.ExportOptions) (*engine.ExportRun, error) {
	a.registry()
	run, err := a.engine().Export(o)
	if err != nil {
		return nil, err
	}
	a.report(run.Diags, run.Notes)
	return run, nil
}

func (a *App) runExport(o engine.ExportOptions, showSecrets bool) error {
	run, err := a.planRun(o)
	if err != nil {
		return err
	}
	defer run.Close()
	p := run.Plan
	if o.DryRun {
		return a.printDryRun(run, showSecrets)
	}
	if err := a.reportPlanProblems(p); err != nil {
		if a.JSON {
			a.printJSON(a.planJSON(run, false, false, showSecrets))
		}
		return err
	}
	res, err := run.Apply()
	if err != nil {
		return err
	}
	if a.JSON {
		out := a.planJSON(run, false, false, showSecrets)
		out.Result = res
		return a.printJSON(out)
	}
	a.printWritten(run, res)
	return nil
}

// printWritten says what an export wrote: a line per file, the clients
// skipped, where the backups are, which clients to restart.
func (a *App) printWritten(run *engine.ExportRun, res *emitters.Result) {
	a.printFileLines(run.Plan, false)
	a.printSkipped(run.Skipped, false)
	a.printBackup(res)
	a.printRestartNote(run.Plan)
}

// printBackup says where the bytes a write replaced are kept.
func (a *App) printBackup(res *emitters.Result) {
	if res != nil && res.BackedUp > 0 {
		fmt.Fprintf(a.Stderr, "backup of the old files: %s\n", a.engine().Display(res.BackupDir))
	}
}

// printDryRun prints a planned export without writing: the diff of every
// file that planned cleanly, then the problems of those that did not. One
// broken file hides no other file's changes; the real export still writes
// nothing until every file plans (it is all or nothing).
func (a *App) printDryRun(run *engine.ExportRun, showSecrets bool) error {
	p := run.Plan
	if a.JSON {
		a.printJSON(a.planJSON(run, true, true, showSecrets))
		if p.Diags.HasErrors() {
			return reportedError{p.Err()}
		}
		return nil
	}
	a.printDiff(p, showSecrets)
	a.printSkipped(run.Skipped, true)
	if p.Diags.HasErrors() {
		a.printDiagnostics(render.PlanDiagnostics(p, a.Verbose))
		fmt.Fprintf(a.Stderr, "dry run: %d file(s) would change, but %d error(s) stop the export: it writes no file until they are fixed\n",
			len(p.Changes()), len(p.Diags.Errors()))
		return reportedError{p.Err()}
	}
	a.printDiagnostics(render.PlanDiagnostics(p, a.Verbose))
	fmt.Fprintf(a.Stderr, "dry run: %d file(s) would change; nothing was written\n", len(p.Changes()))
	return nil
}

// printFileLines prints one line per file (render.FileLines).
func (a *App) printFileLines(p *emitters.Plan, dryRun bool) { render.FileLines(a.Stdout, p, a.paths()) }

// printSkipped says which clients got no file and why (render.Skipped).
func (a *App) printSkipped(skipped []engine.Skip, toStderr bool) {
	w := a.Stdout
	if toStderr {
		w = a.Stderr
	}
	render.Skipped(w, skipped)
}
