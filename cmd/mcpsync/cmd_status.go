package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/render"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

func (a *App) statusCommand() *cli.Command {
	return &cli.Command{
		Name:        "status",
		Usage:       "show team sources, pending approvals with their diffs, and managed files",
		Description: help("status"),
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "exit-code", Usage: "exit 1 when a server is pending approval"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("status takes no arguments (got %q)", cmd.Args().First())
			}
			return a.runStatus(cmd.Bool("exit-code"))
		},
	}
}

func (a *App) runStatus(exitCode bool) error {
	st, out, err := a.engine().Status()
	if err != nil {
		return err
	}
	if a.JSON {
		if err := a.printJSON(out); err != nil {
			return err
		}
	} else {
		a.printStatus(st, out)
	}
	if exitCode && out.Pending > 0 {
		return exitCodeError{code: exitPending}
	}
	return nil
}

func (a *App) printStatus(st *store.Store, out *engine.Status) {
	w := a.Stdout
	if len(out.Sources) == 0 {
		fmt.Fprintf(w, "no team source in %s (add one with: mcpsync source add NAME --git URL)\n", a.engine().StoreDisplay(st.Path))
	}
	for _, s := range out.Sources {
		where := "git " + s.Git
		if s.Ref != "" {
			where += ", ref " + s.Ref
		}
		if s.Path != "" {
			where += ", path " + s.Path
		}
		fmt.Fprintf(w, "source %s (%s)\n", a.paint(false, styleBold, s.Name), where)
		if s.Pulled == nil {
			fmt.Fprintf(w, "  not pulled yet: run 'mcpsync pull %s'\n", s.Name)
		} else {
			fmt.Fprintf(w, "  pulled %s, commit %s\n", s.Pulled.At.Format(time.RFC3339), engine.ShortHash(s.Pulled.Commit))
		}
		if s.Moved {
			fmt.Fprintf(w, "  %s the store has changed the source since that pull; run 'mcpsync pull %s'\n", a.paint(false, styleYellow, "!"), s.Name)
		}
		if s.LastError != nil {
			fmt.Fprintf(w, "  %s the pull of %s failed: %s; the pull above stays in effect\n", a.paint(false, styleRed, "!"),
				s.LastError.At.Format(time.RFC3339), s.LastError.Message)
		}
		tw := a.newTable()
		for _, ss := range s.Servers {
			switch ss.Approval {
			case sources.Approved:
				fmt.Fprintf(tw, "  approved\t%s\t\n", ss.Qualified)
			case sources.PendingNew:
				fmt.Fprintf(tw, "  %s\t%s\tnew: not exported until approved (mcpsync approve %s@%s)\n", a.paint(false, styleYellow, "pending"),
					ss.Qualified, ss.Qualified, engine.ShortHash(ss.Hash))
			case sources.PendingChange:
				fmt.Fprintf(tw, "  %s\t%s\tchanged: clients keep the approved version until approved (mcpsync approve %s@%s)\n",
					a.paint(false, styleYellow, "pending"), ss.Qualified, ss.Qualified, engine.ShortHash(ss.Hash))
			}
		}
		tw.Flush()
		for _, ss := range s.Servers {
			if ss.Diff != "" {
				fmt.Fprintln(w)
				for _, l := range strings.SplitAfter(strings.TrimSuffix(render.ColorDiff(ss.Diff, a.color(false)), "\n"), "\n") {
					fmt.Fprint(w, "    "+l)
				}
				fmt.Fprintln(w)
			}
		}
		if len(s.Files) > 0 {
			var shown []string
			for _, f := range s.Files {
				shown = append(shown, a.engine().Display(f))
			}
			fmt.Fprintf(w, "  in clients: %s\n", strings.Join(shown, ", "))
		}
	}
	if len(out.ManagedFiles) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, a.paint(false, styleBold, "managed files"))
		tw := a.newTable()
		for _, f := range out.ManagedFiles {
			var names []string
			for _, e := range f.Entries {
				n := e.Name
				if e.Section != "" {
					n += " [" + a.engine().Display(e.Section) + "]"
				}
				names = append(names, n)
			}
			note := ""
			if !f.Exists {
				note = " (missing)"
			}
			fmt.Fprintf(tw, "  %s%s\t%s\n", f.Display, note, strings.Join(names, ", "))
		}
		tw.Flush()
	}
	if out.Pending > 0 {
		fmt.Fprintf(a.Stderr, "%s pending approval: review the diffs above, then 'mcpsync approve NAME@CONTENT' as listed (the content you reviewed, "+
			"refused if it changed since), or 'mcpsync approve NAME...' / 'mcpsync approve --all'\n", engine.CountOf(out.Pending, "server"))
	}
}
