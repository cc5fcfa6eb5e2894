package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpsync/mcpsync/emitters"
	"github.com/urfave/cli/v3"
)

const exportDescription = `Writes the store's servers into client files. Each file is edited, not
rewritten: comments, unknown keys, key order, indentation, line endings and
the final newline stay as they were.

Every target file is read, edited and checked before the first write; if any
file has a problem (a syntax error, an entry the client cannot hold), no file
is written at all. Each file is written atomically, keeps its mode (0600 for
new files) and stays a symlink if it is one. The old bytes are backed up under
$XDG_STATE_HOME/mcpsync/backups/. If a file changes while mcpsync works,
nothing is written.

An entry you wrote yourself is never overwritten: if a client already has a
server of the same name that differs from the store, it is left alone with a
warning (--force replaces it). --prune removes only entries mcpsync wrote
there before and that the store no longer has, and removes a file mcpsync
created once it holds no server.

--to all writes every client detected on this machine; naming a client
writes its file even if it does not exist yet. Naming servers writes only
those; the client's other entries stay as they are.

Examples:
  mcpsync export --to all --dry-run        # print the exact diff, write nothing
  mcpsync export --to cursor,claude-code
  mcpsync export github linear --to codex  # only these two servers
  mcpsync export --to all --prune          # also remove servers you removed from the store
  mcpsync export --to claude-desktop --os windows --bridge-remote
  mcpsync --json export --to all --dry-run # a machine-readable plan`

func (a *App) exportCommand() *cli.Command {
	flags := append([]cli.Flag{
		&cli.StringSliceFlag{Name: "to", Usage: "the clients to write: `CLIENT`[,CLIENT…] or all (see 'mcpsync clients')"},
		&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the diff that would be written and write nothing"},
	}, exportFlags()...)
	return &cli.Command{
		Name:          "export",
		Usage:         "write the store's servers into client files",
		UsageText:     "mcpsync export [SERVER…] --to CLIENT[,CLIENT…]|all [--scope user|project|local] [--prune] [--dry-run]",
		Description:   exportDescription,
		Flags:         flags,
		ShellComplete: a.completeServerNames,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			o, err := a.exportOptions(cmd, nil)
			if err != nil {
				return err
			}
			if o.servers = cmd.Args().Slice(); len(o.servers) > 0 && o.prune {
				return usagef("--prune removes what the store no longer has; it takes no server names (got %q)", o.servers[0])
			}
			if o.goos != a.GOOS && o.home == "" && !cmd.Bool("dry-run") {
				// A dry run shows that machine's files as new ones; a write
				// needs to know where they are.
				return foreignWithoutHome(o.goos)
			}
			return a.runExport(o, cmd.Bool("dry-run"), cmd.Bool("show-secrets"))
		},
	}
}

// planJSON is the --json form of a plan.
type planJSON struct {
	DryRun   bool             `json:"dryRun"`
	Changed  bool             `json:"changed"`
	Files    []fileJSON       `json:"files"`
	Skipped  []skipNote       `json:"skipped,omitempty"`
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

func (a *App) planJSON(run *exportRun, dryRun, withDiff, showSecrets bool) planJSON {
	out := planJSON{DryRun: dryRun, Skipped: run.skipped}
	if run.desired != nil {
		for _, p := range run.desired.Pending {
			out.Pending = append(out.Pending, p.Qualified)
		}
	}
	opts := a.diffOptions(run.plan, showSecrets)
	for _, fc := range run.plan.Files {
		f := fileJSON{FileChange: fc, Display: a.displayPath(fc.Path)}
		if withDiff {
			f.Diff = fc.Diff(opts)
		}
		if fc.Changed() {
			out.Changed = true
		}
		out.Files = append(out.Files, f)
	}
	if w := run.plan.Diags.Warnings(); len(w) > 0 {
		out.Warnings = w
	}
	if e := run.plan.Diags.Errors(); len(e) > 0 {
		out.Errors = e
	}
	return out
}

func (a *App) runExport(o planExportOptions, dryRun, showSecrets bool) error {
	run, err := a.planExport(o, !dryRun)
	if err != nil {
		return err
	}
	defer run.close()
	p := run.plan
	if dryRun {
		return a.printDryRun(run, showSecrets)
	}
	if err := a.reportPlanProblems(p); err != nil {
		if a.JSON {
			a.printJSON(a.planJSON(run, dryRun, false, showSecrets))
		}
		return err
	}
	ao := a.applyOptions(run.state)
	ao.BeforeWrite = beforeApplyHook
	res, err := emitters.Apply(p, ao)
	if err != nil {
		return applyError(err)
	}
	if a.JSON {
		out := a.planJSON(run, false, false, showSecrets)
		out.Result = res
		return a.printJSON(out)
	}
	a.printFileLines(p, false)
	a.printSkipped(run.skipped, false)
	if res.BackedUp > 0 {
		fmt.Fprintf(a.Stderr, "backup of the old files: %s\n", a.displayPath(res.BackupDir))
	}
	a.printRestartNote(p)
	return nil
}

// printDryRun prints a planned export without writing: the diff of every
// file that planned cleanly, then the problems of those that did not. One
// broken file hides no other file's changes; the real export still writes
// nothing until every file plans (it is all or nothing).
func (a *App) printDryRun(run *exportRun, showSecrets bool) error {
	p := run.plan
	if a.JSON {
		a.printJSON(a.planJSON(run, true, true, showSecrets))
		if p.Diags.HasErrors() {
			return reportedError{p.Err()}
		}
		return nil
	}
	a.printExact(a.diffText(p, showSecrets))
	a.printSkipped(run.skipped, true)
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
			same = append(same, a.displayPath(fc.Path))
			continue
		}
		verb := map[emitters.ChangeKind]string{emitters.Create: "created", emitters.Modify: "updated",
			emitters.Delete: "removed", emitters.Unchanged: "unchanged"}[fc.Kind]
		style := map[emitters.ChangeKind]string{emitters.Create: styleGreen, emitters.Modify: styleYellow,
			emitters.Delete: styleRed}[fc.Kind]
		line := fmt.Sprintf("%s\t%s\t%s", a.paint(false, style, verb), a.displayPath(fc.Path), fileClients(fc))
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
func (a *App) printSkipped(skipped []skipNote, toStderr bool) {
	w := a.Stdout
	if toStderr {
		w = a.Stderr
	}
	var undetected []string
	for _, s := range skipped {
		if s.undetected {
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
