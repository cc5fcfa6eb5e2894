package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/gctune"
	"github.com/mcpsync/mcpsync/reconcile"
	"github.com/mcpsync/mcpsync/watch"
	"github.com/urfave/cli/v3"
)

// watchOptions are watch's flags; onCycle, when set (by tests), is told
// after each sync whether it wrote files.
type watchOptions struct {
	sync     engine.SyncOptions
	debounce time.Duration
	once     bool
	onCycle  func(wrote bool)
}

func (a *App) watchCommand() *cli.Command {
	return &cli.Command{
		Name:        "watch",
		Usage:       "sync continuously: propagate each change to a client file or the store as it happens",
		UsageText:   "mcpsync watch [--scope user|project] [--only CLIENT[,CLIENT…]] [--debounce 50ms] [--once]",
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

// runWatch runs engine.Watch, printing its log with the time of day.
func (a *App) runWatch(ctx context.Context, o watchOptions) error {
	gctune.LongRun() // its heap is reused cycle after cycle
	a.registry()
	stamp := func() string { return time.Now().Format("15:04:05") }
	logf := func(line string) { fmt.Fprintf(a.Stdout, "[%s] %s\n", stamp(), line) }
	err := a.engine().Watch(ctx, engine.WatchOptions{Sync: o.sync, Debounce: o.debounce, Once: o.once}, engine.WatchEvents{
		Started: func(paths []string) {
			fmt.Fprintf(a.Stderr, "watching %d files for the %s scope (store %s); syncing %s after the last change; Ctrl-C stops\n",
				len(paths), o.sync.Scope, a.engine().StoreDisplay(paths[0]), o.debounce)
		},
		Line:        logf,
		Diagnostics: a.printDiagnostics,
		Conflict:    func(c reconcile.Conflict) { logf(strings.TrimRight(a.conflictText(c), "\n")) },
		Error:       func(err error) { fmt.Fprintf(a.Stderr, "[%s] mcpsync: %v\n", stamp(), err) },
		Cycle:       o.onCycle,
	})
	if err == nil && !o.once && ctx.Err() != nil {
		fmt.Fprintln(a.Stderr, "stopped")
	}
	return err
}
