package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/engine"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/reconcile"
	"github.com/mcpsync/mcpsync/watch"
	"github.com/urfave/cli/v3"
)

// watchOptions are watch's flags.
type watchOptions struct {
	sync     engine.SyncOptions
	debounce time.Duration
	once     bool
}

func (a *App) watchCommand() *cli.Command {
	return &cli.Command{
		Name:        "watch",
		Usage:       "sync continuously: propagate each change to a client file or the store as it happens",
		UsageText:   "mcpsync watch [--scope user|project] [--only CLIENT[,CLIENT…]] [--debounce 150ms] [--once]",
		Description: help("watch"),
		Flags: []cli.Flag{
			syncScopeFlag(),
			onlyFlag(),
			&cli.DurationFlag{Name: "debounce", Value: watch.DefaultDebounce,
				Usage: "wait until the files have been quiet this `long` before syncing"},
			&cli.BoolFlag{Name: "once", Usage: "exit after the first sync that changed something or found a conflict"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("watch takes no arguments (got %q); name clients with --only", cmd.Args().First())
			}
			scope, err := parseSyncScope(cmd)
			if err != nil {
				return err
			}
			d := cmd.Duration("debounce")
			if d <= 0 || d > time.Minute {
				return usagef("--debounce %s: use a duration between 1ms and 1m, for example 150ms", d)
			}
			o := watchOptions{sync: engine.SyncOptions{Scope: scope, Only: clientList(cmd.StringSlice("only"))}, debounce: d, once: cmd.Bool("once")}
			return a.runWatch(ctx, o)
		},
	}
}

// watcher is one run of watch: the reconcile wired to the file watcher.
type watcher struct {
	a    *App
	o    watchOptions
	w    *watch.Watcher
	seen map[string]bool // warnings already printed
	// onCycle, when set (by tests), is told after each reconcile whether it
	// wrote files.
	onCycle func(wrote bool)
}

func (a *App) runWatch(ctx context.Context, o watchOptions) error {
	a.registry()
	paths, err := a.engine().WatchPaths(o.sync.Scope, o.sync.Only)
	if err != nil {
		return err
	}
	wr := &watcher{a: a, o: o, seen: map[string]bool{}}
	return wr.run(ctx, paths)
}

func (wr *watcher) run(ctx context.Context, paths []string) error {
	a := wr.a
	wr.o.sync.Views = reconcile.NewViewCache() // clients do not change while mcpsync runs
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := watch.New(paths, watch.Options{Debounce: wr.o.debounce, OnError: func(err error) {
		fmt.Fprintf(a.Stderr, "[%s] mcpsync: %v\n", time.Now().Format("15:04:05"), err)
	}})
	if err != nil {
		return err
	}
	defer w.Close()
	wr.w = w
	fmt.Fprintf(a.Stderr, "watching %d files for the %s scope (store %s); syncing %s after the last change; Ctrl-C stops\n",
		len(paths), wr.o.sync.Scope, a.engine().StoreDisplay(paths[0]), wr.o.debounce)
	w.Kick() // the first sync brings everything in step
	err = w.Run(ctx, func(ctx context.Context, b watch.Batch) error {
		did, err := wr.cycle(b)
		if wr.o.once && did {
			cancel()
		}
		return err
	})
	if errors.Is(err, context.Canceled) {
		if !wr.o.once {
			fmt.Fprintln(a.Stderr, "stopped")
		}
		return nil
	}
	return err
}

func (wr *watcher) logf(format string, args ...any) {
	fmt.Fprintf(wr.a.Stdout, "[%s] %s\n", time.Now().Format("15:04:05"), fmt.Sprintf(format, args...))
}

// cycle runs one reconcile and reports whether it changed something or
// found a new conflict. A file that is half written (it does not parse, or
// is empty) makes the batch not ready: the watcher tries again a little
// later. On the last attempt a file that still does not parse is printed
// and nothing is synced until the next change; an empty file takes no part.
func (wr *watcher) cycle(b watch.Batch) (bool, error) {
	a := wr.a
	run, err := a.engine().PlanSync(wr.o.sync)
	if err != nil {
		return false, watch.NotReady(err, b.Paths...)
	}
	defer run.Close()
	// A file that changed in this batch and does not parse (or is empty) is
	// most likely being written: try again. One that was already so is
	// simply broken: say so now.
	retry := func(files []string) bool {
		return !b.Last && slices.ContainsFunc(files, func(f string) bool { return slices.Contains(b.Paths, filepath.Clean(f)) })
	}
	if run.StoreDiags.HasErrors() {
		if retry([]string{run.Store.Path}) {
			return false, watch.NotReady(run.StoreDiags.Err(), run.Store.Path)
		}
		wr.printNew(run.StoreDiags)
		return false, fmt.Errorf("%s has errors; waiting for the next change", a.engine().StoreDisplay(run.Store.Path))
	}
	r := run.Result
	if errs := r.Plan.Diags.Errors(); len(errs) > 0 {
		if retry(errorFiles(errs)) {
			return false, watch.NotReady(errs.Err(), errorFiles(errs)...)
		}
		wr.printNew(errs)
		var shown []string
		for _, f := range errorFiles(errs) {
			shown = append(shown, a.engine().Display(f))
		}
		return false, fmt.Errorf("nothing was synced: %s has errors (above); waiting for the next change", strings.Join(shown, ", "))
	}
	if retry(r.Waiting) {
		return false, watch.NotReady(errors.New("empty file"), r.Waiting...)
	}
	// A client file that lost every synced server at once may be mid-way
	// through its client's rewrite: look again; if it stays so, say once
	// that it is left out (its servers are not removed elsewhere).
	var wiped []string
	for _, s := range r.Skipped {
		if len(s.Wiped) > 0 {
			wiped = append(wiped, s.Path)
		}
	}
	if retry(wiped) {
		return false, watch.NotReady(errors.New("every synced server gone at once"), wiped...)
	}
	for _, s := range r.Skipped {
		if key := "wiped\x00" + s.Path + "\x00" + strings.Join(s.Wiped, ","); len(s.Wiped) > 0 && !wr.seen[key] {
			wr.seen[key] = true
			wr.logf("left out %s (%s): %s", s.Client, a.engine().Display(s.Path), s.Reason)
		}
	}
	wr.printNew(r.Plan.Diags)
	fresh := r.NewConflicts(run.State)
	if _, err := run.Apply(wr.w.Expect); err != nil {
		for _, fc := range r.Plan.Changes() {
			wr.w.Refresh(fc.Path)
		}
		var drift *emitters.DriftError
		if errors.As(err, &drift) {
			return false, watch.NotReady(err, drift.Paths...)
		}
		return false, err
	}
	for _, o := range r.Outcomes {
		wr.logf("%s", o.Line())
	}
	// Clients read their servers at start: say which ones to restart, each
	// time, since a long-running watch is where a user forgets.
	if note := engine.RestartNote(r.Plan); note != "" && len(r.Outcomes) > 0 {
		wr.logf("%s", note)
	}
	for _, c := range fresh {
		wr.logf("%s", strings.TrimRight(a.conflictText(c), "\n"))
	}
	if wr.onCycle != nil {
		wr.onCycle(r.Changed())
	}
	return len(r.Outcomes) > 0 || len(fresh) > 0, nil
}

// printNew prints the diagnostics not printed before in this watch, so that
// a standing warning (an expanded reference) is said once.
func (wr *watcher) printNew(ds canonical.Diagnostics) {
	var out canonical.Diagnostics
	for _, d := range ds {
		if k := d.Error(); !wr.seen[k] {
			wr.seen[k] = true
			out = append(out, d)
		}
	}
	wr.a.printDiagnostics(out)
}

func errorFiles(ds canonical.Diagnostics) []string {
	var files []string
	for _, d := range ds {
		if d.File != "" && !slices.Contains(files, d.File) {
			files = append(files, d.File)
		}
	}
	return files
}
