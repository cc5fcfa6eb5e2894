package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

const sourceDescription = `Adds, removes and lists the team sources of the user store: git
repositories holding a team's MCP servers (see 'mcpsync pull --help').

'source add' writes a source block into the user store, keeping every other
byte of it. 'source remove' takes the block out and forgets the source's
pulls and approvals; its servers leave your clients at the next
'mcpsync export --prune' (or 'mcpsync sync', or at once while 'mcpsync
watch' runs), which removes exactly the entries mcpsync wrote for them and
leaves every other entry as it is, and the keys and files mcpsync added to
hold them.

Examples:
  mcpsync source add acme --git https://github.com/acme/team-mcp.git --ref main --path mcp/
  mcpsync source list
  mcpsync source remove acme && mcpsync export --to all --prune`

func (a *App) sourceCommand() *cli.Command {
	return &cli.Command{
		Name:        "source",
		Usage:       "add, remove or list team sources (git repositories of shared servers)",
		Description: sourceDescription,
		Commands: []*cli.Command{
			{
				Name:      "add",
				Usage:     "add a team source to the user store",
				ArgsUsage: "NAME --git URL [--ref REF] [--path DIR]",
				Flags: []cli.Flag{
					&cli.StringFlag{Name: "git", Usage: "the repository: any `URL` git fetches, or a local path", Required: true},
					&cli.StringFlag{Name: "ref", Usage: "the branch, tag or commit `REF` to follow (default: the remote's HEAD)"},
					&cli.StringFlag{Name: "path", Usage: "the `DIR` (or file) of the repository holding the servers (default: its root)"},
				},
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if cmd.Args().Len() != 1 {
						return usagef("source add takes one name, for example: mcpsync source add acme --git URL")
					}
					return a.runSourceAdd(store.Source{Name: cmd.Args().First(), Git: cmd.String("git"), Ref: cmd.String("ref"), Path: cmd.String("path")})
				},
			},
			{
				Name:      "remove",
				Aliases:   []string{"rm"},
				Usage:     "remove a team source from the user store",
				ArgsUsage: "NAME",
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if cmd.Args().Len() != 1 {
						return usagef("source remove takes one name, for example: mcpsync source remove acme")
					}
					return a.runSourceRemove(cmd.Args().First())
				},
			},
			{
				Name:    "list",
				Aliases: []string{"ls"},
				Usage:   "list the team sources and their last pulls",
				Action: func(ctx context.Context, cmd *cli.Command) error {
					if cmd.Args().Len() > 0 {
						return usagef("source list takes no arguments")
					}
					return a.runSourceList()
				},
			},
		},
	}
}

func (a *App) runSourceAdd(src store.Source) error {
	lock, err := a.acquireLock()
	if err != nil {
		return err
	}
	defer lock.Unlock()
	st, err := a.openStore(canonical.ScopeUser)
	if err != nil {
		return err
	}
	for _, s := range st.Sources {
		if s.Name == src.Name {
			return fmt.Errorf("%s already has a source %q (at %s); remove it first or choose another name",
				a.storeDisplay(st.Path), src.Name, s.Pos)
		}
	}
	if ds := sources.CheckSource(src); ds.HasErrors() {
		return usageError{ds.Err()}
	}
	data := sources.AddSourceBlock(st.Original(), src)
	if err := a.writeStoreText(st, data, src.Name, true); err != nil {
		return err
	}
	if a.JSON {
		return a.printJSON(map[string]any{"store": st.Path, "added": src})
	}
	fmt.Fprintf(a.Stdout, "added source %s to %s\n", src.Name, a.storeDisplay(st.Path))
	fmt.Fprintf(a.Stderr, "next: 'mcpsync pull %s', review with 'mcpsync status', then 'mcpsync approve'\n", src.Name)
	return nil
}

func (a *App) runSourceRemove(name string) error {
	st, err := a.openStore(canonical.ScopeUser)
	if err != nil {
		return err
	}
	if _, err := a.selectSources(st, []string{name}); err != nil {
		return err
	}
	data, ok := sources.RemoveSourceBlock(st.Original(), name)
	if !ok {
		return fmt.Errorf("cannot find the block of source %q in %s", name, a.storeDisplay(st.Path))
	}
	lock, recs, err := a.lockRecords()
	if err != nil {
		return err
	}
	defer lock.Unlock()
	servers := len(recs.InEffect(store.Source{Name: name}))
	if err := a.writeStoreText(st, data, name, false); err != nil {
		return err
	}
	if recs.Forget(name) {
		if err := recs.Save(); err != nil {
			return err
		}
	}
	// The checkout is only a cache; a source added again is fetched afresh.
	cache := filepath.Join(a.Dirs.Cache, "sources", name)
	os.RemoveAll(cache)
	if a.JSON {
		return a.printJSON(map[string]any{"store": st.Path, "removed": name})
	}
	fmt.Fprintf(a.Stdout, "removed source %s from %s\n", name, a.storeDisplay(st.Path))
	if servers > 0 {
		verb := "leave"
		if servers == 1 {
			verb = "leaves"
		}
		fmt.Fprintf(a.Stderr, "its %s %s your clients at the next 'mcpsync export --to all --prune' (or 'mcpsync sync')\n", countOf(servers, "server"), verb)
	}
	return nil
}

// writeStoreText writes new store text after checking that it reads back
// with the source added (or gone) and nothing else changed in meaning.
func (a *App) writeStoreText(st *store.Store, data []byte, name string, added bool) error {
	back, ds := store.Parse(st.Path, data)
	has := false
	for _, s := range back.Sources {
		has = has || s.Name == name
	}
	if ds.HasErrors() || has != added || back.Servers.Len() != st.Servers.Len() {
		// The edit only appends or cuts a whole block; reaching this is a bug.
		return fmt.Errorf("%s: the edited store does not read back as expected; nothing was written", a.storeDisplay(st.Path))
	}
	// Backed up and checked against changes since it was read, like every
	// write of the store (the caller holds the state lock).
	var before []byte
	if st.Exists {
		before = append([]byte{}, st.Original()...)
	}
	p := emitters.PlanWrite(st.Path, st.Root, before, data)
	if err := p.Err(); err != nil {
		a.printDiagnostics(p.Diags)
		return reportedError{err}
	}
	if _, err := emitters.Apply(p, a.applyOptions(nil)); err != nil {
		return fmt.Errorf("%s: cannot write the store: %w", a.storeDisplay(st.Path), err)
	}
	return nil
}

type sourceListJSON struct {
	store.Source
	Commit   string `json:"commit,omitempty"`
	PulledAt string `json:"pulledAt,omitempty"`
	Approved int    `json:"approved"`
	Pending  int    `json:"pending"`
}

func (a *App) runSourceList() error {
	st, err := a.openStore(canonical.ScopeUser)
	if err != nil {
		return err
	}
	recs, err := sources.LoadRecords(a.Dirs.State)
	if err != nil {
		return err
	}
	out := []sourceListJSON{}
	for _, s := range st.Sources {
		row := sourceListJSON{Source: s}
		if rec := recs.Get(s.Name); rec != nil {
			row.Commit, row.PulledAt = rec.Commit, rec.PulledAt.Format("2006-01-02T15:04:05Z07:00")
		}
		for _, ss := range recs.Statuses(s.Name) {
			if ss.Pending() {
				row.Pending++
			} else {
				row.Approved++
			}
		}
		out = append(out, row)
	}
	if a.JSON {
		return a.printJSON(map[string]any{"store": st.Path, "sources": out})
	}
	if len(out) == 0 {
		fmt.Fprintf(a.Stderr, "no team source in %s yet; add one with: mcpsync source add NAME --git URL\n", a.storeDisplay(st.Path))
		return nil
	}
	tw := a.newTable()
	fmt.Fprintln(tw, a.paint(false, styleBold, "NAME\tGIT\tREF\tPATH\tCOMMIT\tSERVERS"))
	for _, r := range out {
		commit, servers := "not pulled", "-"
		if r.Commit != "" {
			commit = shortHash(r.Commit)
			servers = fmt.Sprintf("%d approved, %d pending", r.Approved, r.Pending)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.Name, r.Git, orDash(r.Ref), orDash(r.Path), commit, servers)
	}
	return tw.Flush()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
