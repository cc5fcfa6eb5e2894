package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/reconcile"
	"github.com/mcpsync/mcpsync/watch"
)

// WatchOptions say what watch keeps in step and how it waits.
type WatchOptions struct {
	Sync SyncOptions
	// Debounce is how long the files must be quiet before a sync.
	Debounce time.Duration
	// Once ends the watch after the first sync that changed something or
	// found a conflict.
	Once bool
}

// WatchEvents are what a watch tells its caller as it runs. Each is
// optional. Diagnostics are given once each: a standing warning is not
// repeated every cycle.
type WatchEvents struct {
	// Started is told the files watched, the store first.
	Started func(paths []string)
	// Line is an event for the log: a change propagated, a file left out,
	// the clients to restart.
	Line func(string)
	// Diagnostics are new warnings or errors in the files.
	Diagnostics func(canonical.Diagnostics)
	// Conflict is a conflict found for the first time.
	Conflict func(reconcile.Conflict)
	// Error is a cycle that could not sync (a broken file, a failed write);
	// the watch goes on.
	Error func(error)
	// Cycle is told after each sync whether it wrote files.
	Cycle func(wrote bool)
}

// Watch syncs o.Sync.Scope whenever one of its files changes, until ctx
// ends (it then returns nil). The first sync runs at once, so that
// everything starts in step.
func (e *Engine) Watch(ctx context.Context, o WatchOptions, ev WatchEvents) error {
	paths, err := e.WatchPaths(o.Sync.Scope, o.Sync.Only)
	if err != nil {
		return err
	}
	o.Sync.Views = reconcile.NewViewCache() // clients do not change while mcpsync runs
	// Each cycle reads the files the last one wrote and decoded.
	o.Sync.Decoded = e.decodes(emitters.NewDecodeMemo())
	wr := &watcher{e: e, o: o, ev: ev, seen: map[string]bool{}}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := watch.New(paths, watch.Options{Debounce: o.Debounce, OnError: wr.error})
	if err != nil {
		return err
	}
	defer w.Close()
	wr.w = w
	if ev.Started != nil {
		ev.Started(paths)
	}
	w.Kick()
	err = w.Run(ctx, func(ctx context.Context, b watch.Batch) error {
		did, err := wr.cycle(b)
		if o.Once && did {
			cancel()
		}
		return err
	})
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// watcher is one run of Watch: the sync wired to the file watcher.
type watcher struct {
	e    *Engine
	o    WatchOptions
	ev   WatchEvents
	w    *watch.Watcher
	seen map[string]bool // diagnostics and notes already given
}

func (wr *watcher) line(format string, args ...any) {
	if wr.ev.Line != nil {
		wr.ev.Line(fmt.Sprintf(format, args...))
	}
}

func (wr *watcher) error(err error) {
	if wr.ev.Error != nil {
		wr.ev.Error(err)
	}
}

// cycle runs one sync and reports whether it changed something or found a
// new conflict. A file that is half written (it does not parse, or is
// empty) makes the batch not ready: the watcher tries again a little
// later. On the last attempt a file that still does not parse is reported
// and nothing is synced until the next change; an empty file takes no part.
func (wr *watcher) cycle(b watch.Batch) (bool, error) {
	e := wr.e
	run, err := e.PlanSync(wr.o.Sync)
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
		wr.diagnostics(run.StoreDiags)
		return false, fmt.Errorf("%s has errors; waiting for the next change", e.StoreDisplay(run.Store.Path))
	}
	r := run.Result
	if errs := r.Plan.Diags.Errors(); len(errs) > 0 {
		if retry(errorFiles(errs)) {
			return false, watch.NotReady(errs.Err(), errorFiles(errs)...)
		}
		wr.diagnostics(errs)
		var shown []string
		for _, f := range errorFiles(errs) {
			shown = append(shown, e.Display(f))
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
			wr.line("left out %s (%s): %s", s.Client, e.Display(s.Path), s.Reason)
		}
	}
	wr.diagnostics(r.Plan.Diags)
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
		wr.line("%s", o.Line())
	}
	// Clients read their servers at start: say which ones to restart, each
	// time, since a long-running watch is where a user forgets.
	if note := RestartNote(r.Plan); note != "" && len(r.Outcomes) > 0 {
		wr.line("%s", note)
	}
	if wr.ev.Conflict != nil {
		for _, c := range fresh {
			wr.ev.Conflict(c)
		}
	}
	if wr.ev.Cycle != nil {
		wr.ev.Cycle(r.Changed())
	}
	return len(r.Outcomes) > 0 || len(fresh) > 0, nil
}

// diagnostics gives the diagnostics not given before in this watch.
func (wr *watcher) diagnostics(ds canonical.Diagnostics) {
	var out canonical.Diagnostics
	for _, d := range ds {
		if k := d.Error(); !wr.seen[k] {
			wr.seen[k] = true
			out = append(out, d)
		}
	}
	if len(out) > 0 && wr.ev.Diagnostics != nil {
		wr.ev.Diagnostics(out)
	}
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
