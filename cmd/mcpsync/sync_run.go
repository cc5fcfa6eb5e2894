package main

// Shared code of sync, resolve and watch: print what a reconcile did.

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpsync/mcpsync/engine"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/emitters/unidiff"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/reconcile"
	"github.com/urfave/cli/v3"
)

func syncScopeFlag() *cli.StringFlag {
	return &cli.StringFlag{Name: "scope", Value: "user",
		Usage: "which files: `user` (your own files, with the user store) or project (the project's shared files, with its mcpsync.hcl)"}
}

func onlyFlag() *cli.StringSliceFlag {
	return &cli.StringSliceFlag{Name: "only", Aliases: []string{"to"},
		Usage: "sync only these clients: `CLIENT`[,CLIENT…]; a named client's file is created if it does not exist (default: every client whose file exists)"}
}

// parseSyncScope validates --scope for sync, resolve and watch.
func parseSyncScope(cmd *cli.Command) (canonical.Scope, error) {
	switch s := canonical.Scope(cmd.String("scope")); s {
	case canonical.ScopeUser, canonical.ScopeProject:
		return s, nil
	default:
		return "", usagef("--scope %q: use user or project", string(s))
	}
}

// syncJSON is the --json form of a sync.
type syncJSON struct {
	DryRun    bool                 `json:"dryRun"`
	Changed   bool                 `json:"changed"`
	Store     string               `json:"store"`
	Servers   []reconcile.Outcome  `json:"servers"`
	Conflicts []reconcile.Conflict `json:"conflicts,omitempty"`
	Skipped   []reconcile.Skip     `json:"skipped,omitempty"`
	Files     []fileJSON           `json:"files"`
	Warnings  any                  `json:"warnings,omitempty"`
	Errors    any                  `json:"errors,omitempty"`
	Result    *emitters.Result     `json:"result,omitempty"`
}

func (a *App) syncJSON(run *engine.SyncRun, dryRun, showSecrets bool, res *emitters.Result) syncJSON {
	r := run.Result
	out := syncJSON{DryRun: dryRun, Changed: r.Changed(), Store: r.StorePath, Servers: r.Outcomes,
		Conflicts: r.Conflicts, Skipped: r.Skipped, Files: []fileJSON{}, Result: res}
	if out.Servers == nil {
		out.Servers = []reconcile.Outcome{}
	}
	opts := a.diffOptions(r.Plan, showSecrets)
	for _, fc := range r.Plan.Files {
		f := fileJSON{FileChange: fc, Display: a.engine().Display(fc.Path)}
		if dryRun {
			f.Diff = fc.Diff(opts)
		}
		out.Files = append(out.Files, f)
	}
	if w := r.Plan.Diags.Warnings(); len(w) > 0 {
		out.Warnings = w
	}
	if e := r.Plan.Diags.Errors(); len(e) > 0 {
		out.Errors = e
	}
	return out
}

// conflictText shows a conflict with every side's version: a diff from
// the base (or, never synced, from the first side) to each side.
func (a *App) conflictText(c reconcile.Conflict) string {
	var b strings.Builder
	var names []string
	own := false
	for _, s := range c.Sides {
		names = append(names, s.Side)
		own = own || s.Own
	}
	switch {
	case c.Base == nil:
		fmt.Fprintf(&b, "conflict: %q is defined differently in %s and was never synced; nothing was written for it\n",
			c.Server, joinAnd(names))
	case own && len(c.Sides) == 1:
		fmt.Fprintf(&b, "conflict: %q in %s (%s) is its own entry, different from the store's, and mcpsync has not synced it before; nothing was written for it\n",
			c.Server, c.Sides[0].Side, a.engine().Display(c.Sides[0].Path))
	default:
		fmt.Fprintf(&b, "conflict: %q was changed differently in %s since the last sync; nothing was written for it\n",
			c.Server, joinAnd(names))
	}
	from, fromName := c.Base, "base"
	sides := c.Sides
	if from == nil && len(sides) > 0 {
		from, fromName, sides = sides[0].Server, sides[0].Side, sides[1:]
	}
	for _, s := range sides {
		if s.Removed {
			fmt.Fprintf(&b, "%s removed it\n", s.Side)
			continue
		}
		b.WriteString(unidiff.Diff(
			unidiff.File{Name: fromName + "/" + c.Server, Data: serverJSON(from)},
			unidiff.File{Name: s.Side + "/" + c.Server, Data: serverJSON(s.Server)},
			unidiff.Options{Mask: emitters.MaskSecrets}))
	}
	fmt.Fprintf(&b, "settle it with: mcpsync resolve %s --take %s\n", engine.ShellWord(c.Server), strings.Join(c.Choices, "|"))
	return b.String()
}

// serverJSON renders a server for a conflict diff.
func serverJSON(srv *canonical.Server) []byte {
	if srv == nil {
		return nil
	}
	return canonical.DisplayJSON(ledger.Snapshot(*srv))
}

func joinAnd(names []string) string { return engine.JoinWith(names, "and") }

// printSkippedSync says which clients took no part and why, except those
// without a file (most clients on any machine; --json lists them).
func (a *App) printSkippedSync(w io.Writer, skipped []reconcile.Skip) {
	for _, s := range skipped {
		if !strings.HasPrefix(s.Reason, "its file does not exist") {
			fmt.Fprintf(w, "skipped %s (%s): %s\n", s.Client, a.engine().Display(s.Path), s.Reason)
		}
	}
}

func conflictNames(cs []reconcile.Conflict) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = fmt.Sprintf("%q", c.Server)
	}
	return joinAnd(names)
}
