package main

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters/state"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

const pullDescription = `Fetches each team source of the user store with the system git (a shallow
fetch into $XDG_CACHE_HOME/mcpsync/sources/NAME, hooks off, no prompts) and
reads its servers: the mcpsync.hcl at the source's path (server blocks
only), or one NAME.json file per server there.

A source is a block of the user store (or use 'mcpsync source add'):

  source "acme" {
    git  = "https://github.com/acme/team-mcp.git"  # or a path, relative to the store
    ref  = "main"      # branch, tag or commit (default: the remote's HEAD)
    path = "mcp/"      # where the servers are (default: the root)
  }

Clients see the source's servers as SOURCE-NAME (acme-github). Nothing
reaches a client without your approval: a server is pending when it first
appears and whenever its content changes; review it with 'mcpsync status',
approve it with 'mcpsync approve', then 'mcpsync export'. Until a change is
approved, clients keep the version you approved; a server removed upstream
leaves them at the next 'mcpsync export --prune'.

A source must hold no secrets: a value in env or headers that is not a
reference (such as ${GITHUB_TOKEN}) is refused with its file:line:col, and
that source is not updated. Each source is pulled on its own: one that is
unreachable or refused keeps its last good pull in effect, and the others
are still updated. The exit code is 1 if any source failed.

Examples:
  mcpsync pull                 # every source
  mcpsync pull acme            # one source
  mcpsync pull --timeout 30s
  mcpsync --json pull`

func (a *App) pullCommand() *cli.Command {
	return &cli.Command{
		Name:        "pull",
		Usage:       "fetch the team sources and show what is new or changed",
		ArgsUsage:   "[SOURCE...]",
		Description: pullDescription,
		Flags: []cli.Flag{
			&cli.DurationFlag{Name: "timeout", Value: sources.DefaultTimeout, Usage: "give up on a source's fetch after `DURATION`"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Duration("timeout") <= 0 {
				return usagef("--timeout must be longer than zero")
			}
			return a.runPull(ctx, cmd.Args().Slice(), cmd.Duration("timeout"))
		},
	}
}

// pullOutcome is one source's pull.
type pullOutcome struct {
	Name    string               `json:"name"`
	Git     string               `json:"git"`
	Ref     string               `json:"ref,omitempty"`
	Path    string               `json:"path,omitempty"`
	Commit  string               `json:"commit,omitempty"`
	Servers []sources.PullResult `json:"servers,omitempty"`
	// Error says why the source was not updated; InEffect then names the
	// commit of the last good pull still in effect ("" when none).
	Error    string                `json:"error,omitempty"`
	InEffect string                `json:"inEffect,omitempty"`
	Diags    canonical.Diagnostics `json:"diagnostics,omitempty"`
}

type pullJSON struct {
	Sources []pullOutcome `json:"sources"`
	Pending int           `json:"pending"`
}

func (a *App) runPull(ctx context.Context, names []string, timeout time.Duration) error {
	st, err := a.openStore(canonical.ScopeUser)
	if err != nil {
		return err
	}
	srcs, err := a.selectSources(st, names)
	if err != nil {
		return err
	}
	var bad canonical.Diagnostics
	for _, s := range srcs {
		bad = append(bad, sources.CheckSource(s)...)
	}
	if bad.HasErrors() {
		a.printDiagnostics(bad)
		fmt.Fprintf(a.Stderr, "mcpsync: fix the source blocks in %s; nothing was pulled\n", a.storeDisplay(st.Path))
		return reportedError{bad.Err()}
	}

	cacheDir := filepath.Join(a.Dirs.Cache, "sources")
	cacheLock, err := state.Acquire(cacheDir, lockWait)
	if err != nil {
		return fmt.Errorf("another 'mcpsync pull' is running: %w", err)
	}
	defer cacheLock.Unlock()
	type fetched struct {
		servers canonical.Set
		commit  string
	}
	got := make([]fetched, len(srcs))
	outcomes := make([]pullOutcome, len(srcs))
	for i, src := range srcs {
		o := &outcomes[i]
		*o = pullOutcome{Name: src.Name, Git: src.Git, Ref: src.Ref, Path: src.Path}
		co, err := sources.Fetch(ctx, src, sources.FetchOptions{CacheDir: cacheDir, BaseDir: filepath.Dir(st.Path), Timeout: timeout})
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			o.Error = err.Error()
			continue
		}
		set, ds := sources.Read(co.Dir, src.Path)
		o.Diags = ds
		if ds.HasErrors() {
			o.Error = fmt.Sprintf("commit %s is refused: %s", shortHash(co.Commit), countOf(len(ds.Errors()), "error"))
			continue
		}
		got[i] = fetched{set, co.Commit}
	}

	lock, recs, err := a.lockRecords()
	if err != nil {
		return err
	}
	defer lock.Unlock()
	now := time.Now()
	failed := 0
	for i, src := range srcs {
		o := &outcomes[i]
		if o.Error != "" {
			failed++
			recs.Failed(src.Name, o.Error, now)
			if rec := recs.Get(src.Name); rec != nil {
				o.InEffect = rec.Commit
			}
			continue
		}
		o.Commit = got[i].commit
		o.Servers = recs.Update(src, got[i].commit, got[i].servers, now)
	}
	if len(names) == 0 {
		var keep []string
		for _, s := range st.Sources {
			keep = append(keep, s.Name)
		}
		recs.Keep(keep) // sources removed from the store by hand
	}
	if err := recs.Save(); err != nil {
		return err
	}
	pending := 0
	for _, s := range st.Sources {
		for _, ss := range recs.Statuses(s.Name) {
			if ss.Pending() {
				pending++
			}
		}
	}
	if a.JSON {
		if err := a.printJSON(pullJSON{Sources: outcomes, Pending: pending}); err != nil {
			return err
		}
	} else {
		a.printPull(outcomes, recs, pending)
	}
	if failed > 0 {
		return reportedError{fmt.Errorf("%d source(s) not updated", failed)}
	}
	return nil
}

func (a *App) printPull(outcomes []pullOutcome, recs *sources.Records, pending int) {
	removed := false
	for _, o := range outcomes {
		a.printDiagnostics(o.Diags)
		if o.Error != "" {
			msg := fmt.Sprintf("mcpsync: source %q not updated: %s", o.Name, o.Error)
			if rec := recs.Get(o.Name); rec != nil && o.InEffect != "" {
				msg += fmt.Sprintf("; the last good pull (commit %s of %s) stays in effect", shortHash(rec.Commit), rec.PulledAt.Format(time.RFC3339))
			} else {
				msg += "; it was never pulled, so none of its servers is exported"
			}
			fmt.Fprintln(a.Stderr, msg)
			continue
		}
		fmt.Fprintf(a.Stdout, "%s: commit %s, %s\n", o.Name, shortHash(o.Commit), countOf(countPulled(o.Servers), "server"))
		tw := a.newTable()
		for _, r := range o.Servers {
			mark, what := " ", string(r.Change)
			switch r.Change {
			case sources.Added:
				mark = a.paint(false, styleGreen, "+")
			case sources.Modified:
				mark = a.paint(false, styleYellow, "~")
			case sources.Dropped:
				mark, what = a.paint(false, styleRed, "-"), "removed upstream"
				removed = true
			}
			if r.Change != sources.Dropped {
				if r.Approved {
					what += ", approved"
				} else {
					what += ", " + a.paint(false, styleYellow, "pending approval")
				}
			}
			fmt.Fprintf(tw, "  %s %s\t%s\n", mark, r.Qualified, what)
		}
		tw.Flush()
	}
	switch {
	case pending > 0:
		fmt.Fprintf(a.Stderr, "%s pending approval: review with 'mcpsync status', then 'mcpsync approve NAME...' (or --all)\n",
			countOf(pending, "server"))
	case removed:
		fmt.Fprintln(a.Stderr, "run 'mcpsync export --to all --prune' to remove the servers gone upstream from your clients")
	}
}

func countPulled(rs []sources.PullResult) int {
	n := 0
	for _, r := range rs {
		if r.Change != sources.Dropped {
			n++
		}
	}
	return n
}

// lockRecords takes the lock of the state directory and reads the team
// sources' records under it; the caller unlocks.
func (a *App) lockRecords() (*state.Lock, *sources.Records, error) {
	lock, err := a.acquireLock()
	if err != nil {
		return nil, nil, err
	}
	recs, err := sources.LoadRecords(a.Dirs.State)
	if err != nil {
		lock.Unlock()
		return nil, nil, err
	}
	return lock, recs, nil
}

// selectSources returns the store's sources that names name (all of them
// when none is named). An unknown name is an error with a suggestion.
func (a *App) selectSources(st *store.Store, names []string) ([]store.Source, error) {
	if len(st.Sources) == 0 {
		return nil, fmt.Errorf("%s has no team source; add one with: mcpsync source add NAME --git URL [--ref REF] [--path DIR]",
			a.storeDisplay(st.Path))
	}
	if len(names) == 0 {
		return st.Sources, nil
	}
	var have []string
	for _, s := range st.Sources {
		have = append(have, s.Name)
	}
	var out []store.Source
	seen := map[string]bool{}
	for _, n := range names {
		found := false
		for _, s := range st.Sources {
			if s.Name == n {
				found = true
				if !seen[n] {
					out = append(out, s)
					seen[n] = true
				}
			}
		}
		if !found {
			msg := fmt.Sprintf("%s has no source %q", a.storeDisplay(st.Path), n)
			if sug := store.Suggest(n, have); sug != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", sug)
			}
			return nil, fmt.Errorf("%s; its sources: %s", msg, strings.Join(have, ", "))
		}
	}
	return out, nil
}

// shortHash abbreviates a commit or content hash for people.
func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// countOf writes "1 server", "2 servers".
func countOf(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
