package main

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

const approveDescription = `Approves team-source servers that are pending: new ones, and ones whose
content changed since you approved them. mcpsync records the content you
approve (its hash); export then writes exactly that content, and any later
change upstream is pending again.

Review first: 'mcpsync status' shows every pending server with a diff from
the version you approved, and its content as NAME@CONTENT. Name servers as
clients see them (SOURCE-NAME), or by their own name with --source; with
@CONTENT, approve takes exactly the content you reviewed and refuses if a
later pull changed it.

Approving writes no client file; run 'mcpsync export' afterwards.

Examples:
  mcpsync status
  mcpsync approve acme-github acme-linear
  mcpsync approve acme-github@3f2a9c1d7e04   # only the content status showed
  mcpsync approve --source acme github
  mcpsync approve --all
  mcpsync approve --all --source acme`

func (a *App) approveCommand() *cli.Command {
	return &cli.Command{
		Name:        "approve",
		Usage:       "approve pending team-source servers so that export writes them",
		ArgsUsage:   "NAME... | --all",
		Description: approveDescription,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "all", Usage: "approve every pending server (of --source, if given)"},
			&cli.StringFlag{Name: "source", Usage: "only servers of `SOURCE`; names may then be the servers' own"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			names := cmd.Args().Slice()
			switch {
			case cmd.Bool("all") && len(names) > 0:
				return usagef("give server names or --all, not both")
			case !cmd.Bool("all") && len(names) == 0:
				return usagef("name the servers to approve (see 'mcpsync status'), or use --all")
			}
			for _, n := range names {
				if name, content, ok := strings.Cut(n, "@"); ok && (name == "" || content == "") {
					return usagef("%q: give NAME@CONTENT, the content as 'mcpsync status' shows it", n)
				}
			}
			return a.runApprove(names, cmd.Bool("all"), cmd.String("source"))
		},
	}
}

type approvedJSON struct {
	Qualified string `json:"qualified"`
	Source    string `json:"source"`
	Name      string `json:"name"`
	Hash      string `json:"hash"`
	// Already is true when the content was approved before this run.
	Already bool `json:"already,omitempty"`
}

func (a *App) runApprove(names []string, all bool, only string) error {
	st, err := a.openStore(canonical.ScopeUser)
	if err != nil {
		return err
	}
	srcs := st.Sources
	if only != "" {
		if srcs, err = a.selectSources(st, []string{only}); err != nil {
			return err
		}
	} else if len(srcs) == 0 {
		_, err := a.selectSources(st, nil)
		return err
	}
	lock, recs, err := a.lockRecords()
	if err != nil {
		return err
	}
	defer lock.Unlock()
	var known []sources.ServerStatus
	for _, s := range srcs {
		known = append(known, recs.Statuses(s.Name)...)
	}
	var chosen []sources.ServerStatus
	if all {
		for _, s := range known {
			if s.Pending() {
				chosen = append(chosen, s)
			}
		}
		if len(chosen) == 0 {
			if a.JSON {
				return a.printJSON(map[string]any{"approved": []approvedJSON{}})
			}
			fmt.Fprintln(a.Stderr, "nothing is pending approval")
			return nil
		}
	} else {
		var unknown []string
		for _, n := range names {
			name, content, pinned := strings.Cut(n, "@")
			s, ok := findSourceServer(known, name, only)
			if !ok {
				unknown = append(unknown, name)
				continue
			}
			if pinned && (len(content) < 7 || !strings.HasPrefix(s.Hash, content)) {
				// What was reviewed is not what the last pull holds.
				return fmt.Errorf("%s changed since you reviewed it: its pulled content is %s, not %s; review it again with 'mcpsync status', "+
					"then approve %s@%s; nothing was approved", s.Qualified, shortHash(s.Hash), content, s.Qualified, shortHash(s.Hash))
			}
			chosen = append(chosen, s)
		}
		if len(unknown) > 0 {
			return fmt.Errorf("%s", unknownSourceServers(unknown, known, only))
		}
	}
	clashes := recs.Clashes(st.Sources)
	for _, s := range chosen {
		if by := clashes[s.Qualified]; len(by) > 0 {
			return fmt.Errorf("%s is the name in clients of servers of several sources (%s): one would shadow the other; "+
				"rename one of the sources in the store, then pull again; nothing was approved", s.Qualified, strings.Join(by, ", "))
		}
	}
	now := time.Now()
	var out []approvedJSON
	for _, s := range chosen {
		out = append(out, approvedJSON{Qualified: s.Qualified, Source: s.Source, Name: s.Name, Hash: s.Hash, Already: !s.Pending()})
		if s.Pending() {
			recs.Approve(s.Source, s.Name, now)
		}
	}
	if err := recs.Save(); err != nil {
		return err
	}
	if a.JSON {
		return a.printJSON(map[string]any{"approved": out})
	}
	newly := 0
	for _, o := range out {
		if o.Already {
			fmt.Fprintf(a.Stdout, "%s was already approved (content %s)\n", o.Qualified, shortHash(o.Hash))
			continue
		}
		newly++
		fmt.Fprintf(a.Stdout, "approved %s (content %s)\n", o.Qualified, shortHash(o.Hash))
	}
	if newly > 0 {
		fmt.Fprintln(a.Stderr, "run 'mcpsync export --to all' to write the approved servers to your clients")
	}
	return nil
}

// findSourceServer finds a server by the name clients see (acme-github),
// or by its own name within the source only.
func findSourceServer(known []sources.ServerStatus, name, only string) (sources.ServerStatus, bool) {
	for _, s := range known {
		if s.Qualified == name || (only != "" && s.Name == name) {
			return s, true
		}
	}
	return sources.ServerStatus{}, false
}

func unknownSourceServers(unknown []string, known []sources.ServerStatus, only string) string {
	var have []string
	for _, s := range known {
		have = append(have, s.Qualified)
		if only != "" {
			have = append(have, s.Name)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s not a server of any pulled source; nothing was approved", describeNames("server", unknown))
	for _, n := range unknown {
		if s := store.Suggest(n, have); s != "" {
			fmt.Fprintf(&b, "\n  %s: did you mean %q?", n, s)
		}
	}
	if len(known) == 0 {
		b.WriteString("\nNo source was pulled yet: run 'mcpsync pull' first.")
	} else {
		b.WriteString("\nSee them with: mcpsync status")
	}
	return b.String()
}
