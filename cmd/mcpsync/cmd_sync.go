package main

import (
	"context"
	"fmt"

	"github.com/mcpsync/mcpsync/engine"

	"github.com/mcpsync/mcpsync/emitters"
	"github.com/urfave/cli/v3"
)

const syncDescription = `Two-way sync: brings the store and every client file of the scope in step.
Edit any of them (Cursor's file by hand, a client's own 'mcp add', the store)
and run sync: each server added, changed, disabled or removed on one side goes
to the store and to every other client the store's rules allow it for.

Each server is merged three ways: what mcpsync last synced (the base, kept
under $XDG_STATE_HOME/mcpsync), the store, and each client's entry as that
client can express it. So a field a client cannot hold (a cwd for Claude
Code, a default in ${VAR:-x} for Qwen) never counts as an edit, and taking a
client's edit keeps what it could not express.

Nothing is ever silently overwritten:
  - the same server changed differently on two sides is a conflict: both
    versions are shown, nothing is written for it anywhere (the other servers
    still sync), and 'mcpsync resolve NAME --take CLIENT|store' settles it;
  - an entry mcpsync never synced that differs from the store is a conflict
    too, never taken over;
  - a removed server goes from every file where mcpsync wrote it; entries
    you wrote yourself stay;
  - a reference a client expanded into its value (Gemini and Qwen do so for
    other servers when they add one) is not copied anywhere: you are warned,
    with the value masked.

Servers of a team source ('mcpsync source') reach clients as export writes
them (the approved version; one pending approval reaches none), and only
the source changes them: they are never written into the store, an edit of
one in a client is reported and left there, and when a server leaves its
source (or the source leaves the store) it is removed from every client
where mcpsync wrote it.

Clients whose file does not exist (or is empty) take no part; --only creates
it. A missing or empty store is filled again from the others, never read as
"every server removed". All files are written or none, atomically, with
backups, as export does.

Examples:
  mcpsync sync --dry-run          # the exact diff of every file, write nothing
  mcpsync sync
  mcpsync sync --only cursor,codex
  mcpsync sync --scope project    # the project's files with its mcpsync.hcl
  mcpsync --json sync --dry-run   # a machine-readable plan

Exit codes: 0 in sync; 1 an error, a conflict left open, or (--exit-code)
files changed or would change; 2 usage.`

func (a *App) syncCommand() *cli.Command {
	return &cli.Command{
		Name:        "sync",
		Usage:       "two-way sync: propagate each change in the store or any client to all the others",
		UsageText:   "mcpsync sync [--dry-run] [--scope user|project] [--only CLIENT[,CLIENT…]] [--exit-code]",
		Description: syncDescription,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "print the diff that would be written and write nothing"},
			syncScopeFlag(),
			onlyFlag(),
			&cli.BoolFlag{Name: "exit-code", Usage: "exit 1 when files changed (or, with --dry-run, would change)"},
			&cli.BoolFlag{Name: "show-secrets", Usage: "print secret-looking literal values in diffs instead of masking them"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("sync takes no arguments (got %q); name clients with --only", cmd.Args().First())
			}
			scope, err := parseSyncScope(cmd)
			if err != nil {
				return err
			}
			return a.runSync(engine.SyncOptions{Scope: scope, Only: clientList(cmd.StringSlice("only")), DryRun: cmd.Bool("dry-run")},
				cmd.Bool("exit-code"), cmd.Bool("show-secrets"))
		},
	}
}

func (a *App) runSync(o engine.SyncOptions, exitCode, showSecrets bool) error {
	a.registry()
	dryRun := o.DryRun
	run, err := a.engine().Sync(o)
	if err != nil {
		return err
	}
	defer run.Close()
	a.report(run.StoreDiags, nil)
	r := run.Result
	if err := a.reportPlanProblems(r.Plan); err != nil {
		if a.JSON {
			a.printJSON(a.syncJSON(run, dryRun, showSecrets, nil))
		}
		return err
	}
	var res *emitters.Result
	if !dryRun {
		if res, err = run.Apply(nil); err != nil {
			return engine.ApplyError(err)
		}
	}
	switch {
	case a.JSON:
		a.printJSON(a.syncJSON(run, dryRun, showSecrets, res))
	case dryRun:
		a.printExact(a.diffText(r.Plan, showSecrets))
		for _, o := range r.Outcomes {
			fmt.Fprintln(a.Stderr, "would sync "+o.Line())
		}
	default:
		for _, o := range r.Outcomes {
			fmt.Fprintln(a.Stdout, o.Line())
		}
	}
	if !a.JSON {
		if note := run.Desired.PendingNote(); note != "" {
			fmt.Fprintln(a.Stderr, "note: "+note)
		}
		for _, c := range r.Conflicts {
			fmt.Fprint(a.Stderr, a.conflictText(c))
		}
		a.printSkippedSync(a.Stderr, r.Skipped)
		switch {
		case dryRun:
			fmt.Fprintf(a.Stderr, "dry run: %d file(s) would change; nothing was written\n", len(r.Plan.Changes()))
		case res != nil && len(r.Plan.Changes()) > 0:
			if res.BackedUp > 0 {
				fmt.Fprintf(a.Stderr, "backup of the old files: %s\n", a.engine().Display(res.BackupDir))
			}
			a.printRestartNote(r.Plan)
		case len(r.Outcomes) == 0 && len(r.Conflicts) == 0:
			fmt.Fprintln(a.Stderr, "in sync: nothing to change")
		}
	}
	if n := len(r.Conflicts); n > 0 {
		return exitCodeError{code: exitError, msg: fmt.Sprintf("%d conflict(s) left open; nothing was written for %s (see above); "+
			"settle each with 'mcpsync resolve NAME --take CLIENT|store'", n, conflictNames(r.Conflicts))}
	}
	if exitCode && r.Changed() {
		return exitCodeError{code: exitPending}
	}
	return nil
}
