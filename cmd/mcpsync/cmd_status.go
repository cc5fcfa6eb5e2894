package main

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters/state"
	"github.com/mcpsync/mcpsync/emitters/unidiff"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

const statusDescription = `Shows the team sources of the user store and where their servers stand:
when each source was last pulled and at which commit (and whether a later
pull failed), every server approved or pending, with a diff from the version
you approved (or its whole definition when it is new), and the client files
mcpsync manages with the entries it wrote there.

Approve what you reviewed with 'mcpsync approve', then run 'mcpsync export'.

Examples:
  mcpsync status
  mcpsync status --exit-code   # exit 1 when a server is pending approval
  mcpsync --json status`

func (a *App) statusCommand() *cli.Command {
	return &cli.Command{
		Name:        "status",
		Usage:       "show team sources, pending approvals with their diffs, and managed files",
		Description: statusDescription,
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

type statusJSON struct {
	Store        string              `json:"store"`
	Sources      []sourceStatusJSON  `json:"sources"`
	Pending      int                 `json:"pending"`
	ManagedFiles []managedFileStatus `json:"managedFiles"`
}

type sourceStatusJSON struct {
	Name string `json:"name"`
	Git  string `json:"git"`
	Ref  string `json:"ref,omitempty"`
	Path string `json:"path,omitempty"`
	// Pulled is the last good pull; nil when the source was never pulled.
	Pulled *pulledJSON `json:"pulled,omitempty"`
	// Moved says that the store names another repository, ref or path
	// than the one pulled: the next pull reads the new one.
	Moved     bool               `json:"moved,omitempty"`
	LastError *sources.PullError `json:"lastError,omitempty"`
	Servers   []serverStatusJSON `json:"servers"`
	Files     []string           `json:"files,omitempty"`
	statuses  []sources.ServerStatus
}

type pulledJSON struct {
	Commit string    `json:"commit"`
	At     time.Time `json:"at"`
	Git    string    `json:"git"`
	Ref    string    `json:"ref,omitempty"`
	Path   string    `json:"path,omitempty"`
}

type serverStatusJSON struct {
	sources.ServerStatus
	// Diff is from the approved version to the pulled one, for pending servers.
	Diff string `json:"diff,omitempty"`
}

type managedFileStatus struct {
	Path    string         `json:"path"`
	Display string         `json:"display"`
	Exists  bool           `json:"exists"`
	Created bool           `json:"created,omitempty"`
	Entries []managedEntry `json:"entries"`
}

type managedEntry struct {
	Name    string `json:"name"`
	Client  string `json:"client,omitempty"`
	Section string `json:"section,omitempty"`
	Source  string `json:"source,omitempty"`
}

func (a *App) runStatus(exitCode bool) error {
	st, err := a.openStore(canonical.ScopeUser)
	if err != nil {
		return err
	}
	recs, err := sources.LoadRecords(a.Dirs.State)
	if err != nil {
		return err
	}
	ms, err := state.Load(a.Dirs.State)
	if err != nil {
		return err
	}
	out := statusJSON{Store: st.Path, Sources: []sourceStatusJSON{}}
	owner := map[string]string{} // qualified name → source
	for _, src := range st.Sources {
		s := sourceStatusJSON{Name: src.Name, Git: src.Git, Ref: src.Ref, Path: src.Path, Servers: []serverStatusJSON{}}
		if rec := recs.Get(src.Name); rec != nil {
			s.Pulled = &pulledJSON{Commit: rec.Commit, At: rec.PulledAt, Git: rec.Git, Ref: rec.Ref, Path: rec.Path}
			s.Moved = rec.Git != src.Git || rec.Ref != src.Ref || rec.Path != src.Path
			s.LastError = rec.LastError
		}
		s.statuses = recs.Statuses(src.Name)
		for _, ss := range s.statuses {
			owner[ss.Qualified] = src.Name
			j := serverStatusJSON{ServerStatus: ss}
			if ss.Pending() {
				out.Pending++
				j.Diff = approvalDiff(ss)
			}
			s.Servers = append(s.Servers, j)
		}
		out.Sources = append(out.Sources, s)
	}
	out.ManagedFiles = a.managedFiles(ms, owner)
	for i := range out.Sources {
		s := &out.Sources[i]
		for _, f := range out.ManagedFiles {
			for _, e := range f.Entries {
				if e.Source == s.Name {
					s.Files = append(s.Files, f.Path)
					break
				}
			}
		}
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

// approvalDiff is a unified diff of a server from its approved version to
// the pulled one, both written as store blocks under the name clients see;
// a server never approved is all additions.
func approvalDiff(s sources.ServerStatus) string {
	var before []byte
	approvedLabel := "(never approved)"
	if s.ApprovedAs != nil {
		old := s.ApprovedAs.Clone()
		old.Name = s.Qualified
		before = store.Format(old)
		approvedLabel = "(approved " + s.ApprovedAt.Format(time.RFC3339) + ")"
	}
	cur := s.Pulled.Clone()
	cur.Name = s.Qualified
	d := unidiff.Diff(unidiff.File{Name: s.Qualified, Data: before, Absent: s.ApprovedAs == nil},
		unidiff.File{Name: s.Qualified, Data: store.Format(cur)}, unidiff.Options{})
	// Keep the hunks; the file headers of a git diff mean nothing here.
	i := strings.Index(d, "\n@@")
	if i < 0 {
		return ""
	}
	return fmt.Sprintf("--- %s %s\n+++ %s (pulled, commit %s)\n", s.Qualified, approvedLabel, s.Qualified, shortHash(s.PulledCommit)) + d[i+1:]
}

// managedFiles lists the client files the state says mcpsync wrote entries
// into, with those entries; owner marks the ones a source gave.
func (a *App) managedFiles(ms *state.State, owner map[string]string) []managedFileStatus {
	out := []managedFileStatus{}
	paths := make([]string, 0, len(ms.Files))
	for p := range ms.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f := ms.Files[p]
		mf := managedFileStatus{Path: p, Display: a.displayPath(p), Exists: exists(p), Created: f.Created, Entries: []managedEntry{}}
		sections := make([]string, 0, len(f.Sections))
		for sec := range f.Sections {
			sections = append(sections, sec)
		}
		sort.Strings(sections)
		for _, sec := range sections {
			for _, name := range ms.ManagedNames(p, sec) {
				e := ms.Managed(p, sec)[name]
				mf.Entries = append(mf.Entries, managedEntry{Name: name, Client: e.Client, Section: sec, Source: owner[name]})
			}
		}
		if len(mf.Entries) > 0 {
			out = append(out, mf)
		}
	}
	return out
}

func (a *App) printStatus(st *store.Store, out statusJSON) {
	w := a.Stdout
	if len(out.Sources) == 0 {
		fmt.Fprintf(w, "no team source in %s (add one with: mcpsync source add NAME --git URL)\n", a.storeDisplay(st.Path))
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
			fmt.Fprintf(w, "  pulled %s, commit %s\n", s.Pulled.At.Format(time.RFC3339), shortHash(s.Pulled.Commit))
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
					ss.Qualified, ss.Qualified, shortHash(ss.Hash))
			case sources.PendingChange:
				fmt.Fprintf(tw, "  %s\t%s\tchanged: clients keep the approved version until approved (mcpsync approve %s@%s)\n",
					a.paint(false, styleYellow, "pending"), ss.Qualified, ss.Qualified, shortHash(ss.Hash))
			}
		}
		tw.Flush()
		for _, ss := range s.Servers {
			if ss.Diff != "" {
				fmt.Fprintln(w)
				for _, l := range strings.SplitAfter(strings.TrimSuffix(a.colorDiff(ss.Diff), "\n"), "\n") {
					fmt.Fprint(w, "    "+l)
				}
				fmt.Fprintln(w)
			}
		}
		if len(s.Files) > 0 {
			var shown []string
			for _, f := range s.Files {
				shown = append(shown, a.displayPath(f))
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
					n += " [" + a.displayPath(e.Section) + "]"
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
			"refused if it changed since), or 'mcpsync approve NAME...' / 'mcpsync approve --all'\n", countOf(out.Pending, "server"))
	}
}
