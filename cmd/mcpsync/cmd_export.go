package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpsync/mcpsync/engine"

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
			return a.runExport(o, cmd.Bool("show-secrets"))
		},
	}
}

// planJSON is the --json form of a plan.
type planJSON struct {
	DryRun   bool             `json:"dryRun"`
	Changed  bool             `json:"changed"`
	Files    []fileJSON       `json:"files"`
	Skipped  []engine.Skip    `json:"skipped,omitempty"`
	Pending  []string         `json:"pending,omitempty"` // team-source servers left out until approved
	Warnings any              `json:"warnings,omitempty"`
	Errors   any              `json:"errors,omitempty"`
	Result   *emitters.Result `json:"result,omitempty"`
}

type fileJSON struct {
	*emitters.FileChange
	Display string `json:"display"`
	Diff    string `json:"diff,omitempty"`
}

func (a *App) planJSON(run *engine.ExportRun, dryRun, withDiff, showSecrets bool) planJSON {
	out := planJSON{DryRun: dryRun, Skipped: run.Skipped, Pending: run.Pending()}
	opts := a.diffOptions(run.Plan, showSecrets)
	for _, fc := range run.Plan.Files {
		f := fileJSON{FileChange: fc, Display: a.engine().Display(fc.Path)}
		if withDiff {
			f.Diff = fc.Diff(opts)
		}
		if fc.Changed() {
			out.Changed = true
		}
		out.Files = append(out.Files, f)
	}
	if w := run.Plan.Diags.Warnings(); len(w) > 0 {
		out.Warnings = w
	}
	if e := run.Plan.Diags.Errors(); len(e) > 0 {
		out.Errors = e
	}
	return out
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
	a.printFileLines(p, false)
	a.printSkipped(run.Skipped, false)
	if res.BackedUp > 0 {
		fmt.Fprintf(a.Stderr, "backup of the old files: %s\n", a.engine().Display(res.BackupDir))
	}
	a.printRestartNote(p)
	return nil
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
	a.printExact(a.diffText(p, showSecrets))
	a.printSkipped(run.Skipped, true)
	if p.Diags.HasErrors() {
		a.printDiagnostics(a.planDiagnostics(p))
		fmt.Fprintf(a.Stderr, "dry run: %d file(s) would change, but %d error(s) stop the export: it writes no file until they are fixed\n",
			len(p.Changes()), len(p.Diags.Errors()))
		return reportedError{p.Err()}
	}
	a.printDiagnostics(a.planDiagnostics(p))
	fmt.Fprintf(a.Stderr, "dry run: %d file(s) would change; nothing was written\n", len(p.Changes()))
	return nil
}

// printFileLines prints one line per file: what happened (or would) to it.
// When nothing changed, the files already as they should be share one
// line; a file with an entry left alone for the user to settle, or none to
// create, keeps its own.
func (a *App) printFileLines(p *emitters.Plan, dryRun bool) {
	tw := a.newTable()
	var same []string
	noop := len(p.Changes()) == 0
	for _, fc := range p.Files {
		if noop && fc.Before != nil && leftAlone(fc) == 0 && !a.Verbose {
			same = append(same, a.engine().Display(fc.Path))
			continue
		}
		verb := map[emitters.ChangeKind]string{emitters.Create: "created", emitters.Modify: "updated",
			emitters.Delete: "removed", emitters.Unchanged: "unchanged"}[fc.Kind]
		style := map[emitters.ChangeKind]string{emitters.Create: styleGreen, emitters.Modify: styleYellow,
			emitters.Delete: styleRed}[fc.Kind]
		line := fmt.Sprintf("%s\t%s\t%s", a.paint(false, style, verb), a.engine().Display(fc.Path), fileClients(fc))
		if c := entryCounts(fc); c != "" {
			line += "\t" + c
		} else if fc.Before == nil && fc.Kind == emitters.Unchanged {
			line += "\t(no file, nothing to write)"
		}
		fmt.Fprintln(tw, line)
	}
	if len(same) == 1 && len(p.Files) == 1 {
		// One file: its own line is the one line.
		fc := p.Files[0]
		fmt.Fprintf(tw, "%s\t%s\t%s\n", "unchanged", same[0], fileClients(fc))
		same = nil
	}
	tw.Flush()
	switch {
	case len(same) == 1:
		fmt.Fprintf(a.Stdout, "nothing to change: %s already holds the store's servers\n", same[0])
	case len(same) > 1 && len(same) <= 3:
		fmt.Fprintf(a.Stdout, "nothing to change: %s already hold the store's servers\n", joinAnd(same))
	case len(same) > 3:
		fmt.Fprintf(a.Stdout, "nothing to change: %d files already hold the store's servers\n", len(same))
	}
}

// printSkipped says which clients got no file and why. With --to all, the
// clients that are simply not installed share one line, to keep the output
// short (--json has each reason).
func (a *App) printSkipped(skipped []engine.Skip, toStderr bool) {
	w := a.Stdout
	if toStderr {
		w = a.Stderr
	}
	var undetected []string
	for _, s := range skipped {
		if s.Undetected {
			undetected = append(undetected, s.Client)
			continue
		}
		fmt.Fprintf(w, "skipped %s: %s\n", s.Client, s.Reason)
	}
	if len(undetected) > 0 {
		fmt.Fprintf(w, "skipped %s: not detected on this machine (name a client in --to to create its file)\n",
			strings.Join(undetected, ", "))
	}
}
