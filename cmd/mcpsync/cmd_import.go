package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/emitters/state"
	"github.com/mcpsync/mcpsync/emitters/unidiff"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/safefile"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

const importDescription = `Reads a client's servers into the store: the user store for --scope user
(the default) and local (Claude Code's private per-project section), the
project's mcpsync.hcl for --scope project. --file reads another file in that
client's shape.

A server that the store already has with a different definition is a
conflict: both versions are printed and nothing changes, unless you choose
--prefer store (keep the store's), --prefer client (take the client's) or
--rename (import the client's as NAME-CLIENT). Client-specific keys the
store cannot model are kept for that client.

The client's entries the store now holds become the store's: export and
sync keep them in step with it from then on, as they do the entries
mcpsync wrote (without --force), and --prune or sync removes them once
you remove the server from the store.

Servers of a team source ('mcpsync source') are not imported: they reach
your clients from the source, and leave them when it goes, which a copy in
the store would prevent. One note names them. --rename copies the ones
whose version in the client differs from the source's (your edit) as
NAME-CLIENT, a server of your own.

Secrets: a literal token, key or password in the client's file (rather
than a reference such as ${GITHUB_TOKEN}) is a warning naming where it is.
--extract-secrets moves each one out: the store gets a reference
(${GITHUB_TOKEN}, named after the env key, the header or the provider), the
client's file is rewritten to hold the reference in its own spelling
(${env:GITHUB_TOKEN} for Cursor, env_vars for Codex, ...), backed up first,
and the 'export NAME=value' lines to set are printed. The values are printed
only there, and only on a terminal or with --show-secrets (then also into a
pipe); without either, nothing is extracted, so a value is never lost. The
store never holds a value.

Examples:
  mcpsync import --from cursor
  mcpsync import --from claude-code --scope local
  mcpsync import --from vscode --file ~/work/.vscode/mcp.json --prefer client
  mcpsync import --from codex --rename --dry-run
  mcpsync import --from cursor --extract-secrets`

// importOutcome is what happens to one imported server.
type importOutcome struct {
	Name   string `json:"name"`
	Action string `json:"action"` // added, updated, unchanged, kept-store, renamed, conflict, skipped
	As     string `json:"as,omitempty"`
	From   string `json:"from,omitempty"`
	// Source is the team source a skipped server comes from.
	Source string `json:"source,omitempty"`
}

func (a *App) importCommand() *cli.Command {
	return &cli.Command{
		Name:        "import",
		Usage:       "import servers from a client into the store",
		UsageText:   "mcpsync import --from CLIENT [--scope user|project|local] [--file F] [--prefer store|client | --rename] [--dry-run]",
		Description: importDescription,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "from", Usage: "the `CLIENT` to read (see 'mcpsync clients')", Required: true},
			scopeFlag("which of the client's files: `user`, project or local"),
			&cli.StringFlag{Name: "file", Usage: "read `FILE` (in the client's shape) instead of the client's own file", TakesFile: true},
			&cli.StringFlag{Name: "prefer", Usage: "resolve conflicts by keeping the `store`'s definition or taking the client's"},
			&cli.BoolFlag{Name: "rename", Usage: "import a conflicting server, or a team source's server you changed in the client, as NAME-CLIENT"},
			&cli.BoolFlag{Name: "dry-run", Aliases: []string{"n"}, Usage: "say what would change and change nothing"},
			&cli.BoolFlag{Name: "extract-secrets", Usage: "move literal secrets out of the client's file: references in the store and the file, and the export lines to set"},
			&cli.BoolFlag{Name: "show-secrets", Usage: "with --extract-secrets: print the values in the export lines even when stdout is not a terminal"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("import takes no arguments (got %q); use --file to read a file", cmd.Args().First())
			}
			prefer := cmd.String("prefer")
			if prefer != "" && prefer != "store" && prefer != "client" {
				return usagef("--prefer %q: use store or client", prefer)
			}
			if prefer != "" && cmd.Bool("rename") {
				return usagef("--prefer and --rename both resolve conflicts; choose one")
			}
			scope, err := parseScope(cmd)
			if err != nil {
				return err
			}
			if cmd.Bool("show-secrets") && !cmd.Bool("extract-secrets") {
				return usagef("--show-secrets goes with --extract-secrets (import prints no other value)")
			}
			return a.runImport(importOptions{from: cmd.String("from"), scope: scope, file: cmd.String("file"), prefer: prefer,
				rename: cmd.Bool("rename"), dryRun: cmd.Bool("dry-run"), extract: cmd.Bool("extract-secrets"), showSecrets: cmd.Bool("show-secrets")})
		},
	}
}

// readClientServers decodes the client's files of the scope (or file),
// first location first. A file that does not parse stops the import.
func (a *App) readClientServers(ad formats.Adapter, scope canonical.Scope, file string) (canonical.Set, error) {
	locs, err := a.clientLocations(ad, scope, file)
	if err != nil {
		return canonical.Set{}, err
	}
	return a.readLocations(ad, scope, file, locs)
}

// clientLocations are the client's files of the scope, or file in the
// client's shape.
func (a *App) clientLocations(ad formats.Adapter, scope canonical.Scope, file string) ([]formats.Location, error) {
	env := a.formatsEnv(a.GOOS)
	var locs []formats.Location
	if file != "" {
		loc := shapeLocation(ad, env, scope)
		loc.Path = file
		if !filepath.IsAbs(file) {
			loc.Path = filepath.Join(a.Cwd, file)
		}
		locs = append(locs, loc)
	} else {
		for _, loc := range formats.Locate(ad, env) {
			if loc.Scope == scope && (scope != canonical.ScopeLocal || loc.Project == env.ProjectDir) {
				locs = append(locs, loc)
			}
		}
		if len(locs) == 0 {
			return nil, fmt.Errorf("%s has no %s-scope file; see 'mcpsync clients'", ad.ID(), scope)
		}
	}
	return locs, nil
}

func (a *App) readLocations(ad formats.Adapter, scope canonical.Scope, file string, locs []formats.Location) (canonical.Set, error) {
	var set canonical.Set
	var all canonical.Diagnostics
	read := 0
	for _, loc := range locs {
		data, _, err := safefile.ReadFile(loc.Path, loc.Root)
		var linkOut *safefile.LinkOutError
		if errors.Is(err, fs.ErrNotExist) && !errors.As(err, &linkOut) && file == "" {
			continue
		}
		if err != nil {
			return set, fmt.Errorf("cannot read %s: %w; nothing was imported", a.displayPath(loc.Path), err)
		}
		read++
		got, ds := ad.Decode(loc, data)
		all = append(all, ds.WithFile(loc.Path)...)
		for _, srv := range got.Servers {
			if p := canonical.NameProblem(srv.Name); p != "" {
				d := canonical.Warnf("not imported: server name %q %s", srv.Name, p)
				d.Detail, d.Server = "rename it in "+ad.DisplayName()+"'s file ("+canonical.NameAdvice+"), then import again", srv.Name
				all = append(all, d.At(srv.Origin))
				continue
			}
			if prev, dup := set.Get(srv.Name); dup {
				if !canonical.Equal(prev, srv) {
					d := canonical.Warnf("%s is also defined in %s; the first definition is imported", srv.Name, prev.Origin.File)
					d.Server = srv.Name
					all = append(all, d.At(srv.Origin))
				}
				continue
			}
			set.Servers = append(set.Servers, srv)
		}
	}
	all.Sort()
	a.printDiagnostics(all)
	if all.HasErrors() {
		fmt.Fprintln(a.Stderr, "mcpsync: nothing was imported; fix the file and run the command again")
		return set, reportedError{all.Err()}
	}
	if read == 0 {
		msg := fmt.Sprintf("%s has no %s-scope file on this machine (looked for %s)", ad.ID(), scope, a.displayPath(locs[0].Path))
		if other := a.existingScopeFile(ad, scope); other != nil {
			msg += fmt.Sprintf("; there is %s: import it with --scope %s", a.displayPath(other.Path), other.Scope)
		}
		return set, errors.New(msg)
	}
	return set, nil
}

// existingScopeFile is a file of the client in another scope that exists,
// so that the error for an empty scope can point at the one the user
// probably meant (a project's .cursor/mcp.json when ~/.cursor has none).
func (a *App) existingScopeFile(ad formats.Adapter, scope canonical.Scope) *formats.Location {
	env := a.formatsEnv(a.GOOS)
	for _, loc := range formats.Locate(ad, env) {
		if loc.Scope == scope || loc.ReadOnly || loc.Scope == canonical.ScopeLocal {
			continue
		}
		if exists(loc.Path) {
			return &loc
		}
	}
	return nil
}

// importOptions are import's flags.
type importOptions struct {
	from         string
	scope        canonical.Scope
	file, prefer string
	rename       bool
	dryRun       bool
	extract      bool
	showSecrets  bool
}

func (a *App) runImport(o importOptions) error {
	from, scope, file, prefer, rename, dryRun := o.from, o.scope, o.file, o.prefer, o.rename, o.dryRun
	reg := a.registry()
	ad, err := reg.Lookup(from)
	if err != nil {
		return usageError{err}
	}
	client := ad.ID()
	if !dryRun {
		// Held from reading the client's file to the last write.
		lock, err := a.acquireLock()
		if err != nil {
			return err
		}
		defer lock.Unlock()
	}
	locs, err := a.clientLocations(ad, scope, file)
	if err != nil {
		return err
	}
	incoming, err := a.readLocations(ad, scope, file, locs)
	if err != nil {
		return err
	}
	st, err := a.openStore(storeScope(scope))
	if err != nil {
		return err
	}
	a.warnNotNFC(incoming.Servers)
	ex := a.scanImportSecrets(ad, incoming, o.extract)
	if o.extract && len(ex.moved) > 0 && !dryRun && !o.showSecrets && !a.stdoutTTY {
		// The value leaves the file: it must reach the user, once.
		return usagef("--extract-secrets prints each value once, in the export line to set, and stdout is not a terminal: " +
			"add --show-secrets to print the values into the pipe, or --dry-run to see what would move; nothing was changed")
	}
	if o.extract {
		incoming = ex.extracted
	}
	var outcomes, fromSources []importOutcome
	var puts []canonical.Server
	var conflicts [][2]canonical.Server
	taken := map[string]bool{}
	for _, n := range st.Servers.Names() {
		taken[n] = true
	}
	// A team source's servers reach the clients from the source; taken
	// into the store, they would stay after the source goes.
	team, err := desired.Load(st, a.Dirs.State)
	if err != nil {
		return err
	}
	for _, srv := range team.Set.Servers {
		taken[srv.Name] = true
	}
	for _, in := range incoming.Servers {
		in = in.Clone()
		in.Origin = canonical.Pos{}
		if scope == canonical.ScopeLocal {
			// A server of this project's local section stays this
			// project's: the store binds it, so that no other file gets it.
			in.Project = locs[0].Project
		}
		if source, inEffect := team.SourceOf(in.Name); source != "" {
			upstream, _ := team.Set.Get(in.Name)
			if !rename || inEffect && sameAsClientHolds(ad, locs[0], upstream, in) {
				fromSources = append(fromSources, importOutcome{Name: in.Name, Action: "skipped", Source: source})
				continue
			}
			// --rename: the client's version becomes a server of the
			// user's own, under another name.
			newName := uniqueName(in.Name+"-"+client, taken)
			taken[newName] = true
			renamed := in.Clone()
			renamed.Name = newName
			puts = append(puts, renamed)
			outcomes = append(outcomes, importOutcome{Name: newName, Action: "renamed", From: in.Name, Source: source})
			continue
		}
		have, exists := st.Servers.Get(in.Name)
		if orig, moved := ex.original[in.Name]; moved && exists && canonical.Equal(have, orig) {
			// The store holds the literal from an earlier import: the
			// extracted server is the same server with the secret moved out.
			puts = append(puts, in)
			outcomes = append(outcomes, importOutcome{Name: in.Name, Action: "updated"})
			continue
		}
		switch {
		case !exists:
			puts = append(puts, in)
			outcomes = append(outcomes, importOutcome{Name: in.Name, Action: "added"})
		case canonical.Equal(have, in):
			if in.Extra[client] != nil && !canonical.Equal(have, in, client) {
				puts = append(puts, withClientExtra(have, in, client))
				outcomes = append(outcomes, importOutcome{Name: in.Name, Action: "updated"})
			} else {
				outcomes = append(outcomes, importOutcome{Name: in.Name, Action: "unchanged"})
			}
		case prefer == "store":
			outcomes = append(outcomes, importOutcome{Name: in.Name, Action: "kept-store"})
		case prefer == "client":
			merged := in.Clone()
			merged.Extra = maps.Clone(have.Extra)
			merged = withClientExtra(merged, in, client)
			puts = append(puts, merged)
			outcomes = append(outcomes, importOutcome{Name: in.Name, Action: "updated"})
		case rename:
			newName := uniqueName(in.Name+"-"+client, taken)
			taken[newName] = true
			renamed := in.Clone()
			renamed.Name = newName
			puts = append(puts, renamed)
			outcomes = append(outcomes, importOutcome{Name: newName, Action: "renamed", From: in.Name})
		default:
			conflicts = append(conflicts, [2]canonical.Server{have, in})
			outcomes = append(outcomes, importOutcome{Name: in.Name, Action: "conflict"})
		}
	}
	if len(fromSources) > 0 && !a.JSON {
		fmt.Fprintln(a.Stderr, "note: "+sourceSkipNote(fromSources, client, rename))
	}
	if len(conflicts) > 0 {
		if a.JSON {
			a.printJSON(map[string]any{"imported": false, "servers": append(outcomes, fromSources...)})
		}
		for _, c := range conflicts {
			fmt.Fprintf(a.Stderr, "conflict: %q differs between the store (%s) and %s:\n", c[0].Name, a.displayPath(st.Path), client)
			fmt.Fprint(a.Stderr, serverDiff(c[0], c[1], client))
		}
		fmt.Fprintf(a.Stderr, "mcpsync: %d conflict(s); nothing was imported. Choose --prefer store, --prefer client or --rename\n", len(conflicts))
		return reportedError{fmt.Errorf("%d import conflicts", len(conflicts))}
	}
	var rewrites []*emitters.Plan
	if o.extract && len(ex.moved) > 0 {
		if rewrites, err = a.planSecretRewrites(ad, locs, ex); err != nil {
			return err
		}
	}
	if !dryRun && len(puts) > 0 {
		for _, srv := range puts {
			st.Put(srv)
		}
		if err := a.saveStore(st); err != nil {
			return err
		}
	}
	if !dryRun {
		if err := a.recordImport(st, ad, puts, incoming, outcomes, locs, file, ex); err != nil {
			return err
		}
	}
	if !dryRun {
		// The store holds the references first; only then does the value
		// leave the client's file.
		for _, p := range rewrites {
			db, err := state.Load(a.Dirs.State)
			if err != nil {
				return err
			}
			if _, err := emitters.Apply(p, a.applyOptions(db)); err != nil {
				return fmt.Errorf("the store holds the references, but the client's file was not rewritten: %w; its secrets are still in it, run the command again", err)
			}
		}
	}
	if a.JSON {
		out := map[string]any{"imported": !dryRun, "dryRun": dryRun, "store": st.Path, "servers": append(outcomes, fromSources...)}
		if len(ex.moved) > 0 {
			out["extracted"] = ex.movedJSON(o.extract && (o.showSecrets || a.stdoutTTY) && !dryRun)
			if o.extract && (o.showSecrets || a.stdoutTTY) && !dryRun {
				a.showSecrets = true
			}
		}
		return a.printJSON(out)
	}
	for _, o := range outcomes {
		switch o.Action {
		case "renamed":
			fmt.Fprintf(a.Stdout, "renamed   %s -> %s\n", o.From, o.Name)
		case "kept-store":
			fmt.Fprintf(a.Stdout, "kept      %s (the store's definition)\n", o.Name)
		default:
			fmt.Fprintf(a.Stdout, "%-9s %s\n", o.Action, o.Name)
		}
	}
	if o.extract && len(ex.moved) > 0 {
		for _, p := range rewrites {
			if dryRun {
				a.printExact(a.diffText(p, false))
			} else {
				for _, fc := range p.Changes() {
					fmt.Fprintf(a.Stdout, "rewrote   %s (the secrets now come from the environment)\n", a.displayPath(fc.Path))
				}
			}
		}
		a.printExports(ex, dryRun || !(o.showSecrets || a.stdoutTTY))
	}
	if dryRun {
		fmt.Fprintf(a.Stderr, "dry run: %d server(s) would change in %s; nothing was written\n", len(puts), a.displayPath(st.Path))
	} else if len(outcomes) == 0 && len(fromSources) == 0 {
		fmt.Fprintf(a.Stderr, "%s has no servers to import\n", client)
	}
	return nil
}

// sourceSkipNote is the one line that says which servers import left out
// because a team source gives them.
func sourceSkipNote(skipped []importOutcome, client string, rename bool) string {
	var names, srcs []string
	for _, o := range skipped {
		names = append(names, o.Name)
		if !slices.Contains(srcs, o.Source) {
			srcs = append(srcs, o.Source)
		}
	}
	what := "team source " + srcs[0]
	if len(srcs) > 1 {
		what = "team sources " + strings.Join(srcs, ", ")
	}
	they := "they come"
	if len(names) == 1 {
		they = "it comes"
	}
	why := "--rename copies one you changed there as NAME-" + client
	if rename {
		why = "what " + client + " holds is the source's version"
	}
	return fmt.Sprintf("skipped %s: %s from %s and change%s only upstream (%s)", strings.Join(names, ", "), they, what,
		map[bool]string{true: "s", false: ""}[len(names) == 1], why)
}

// sameAsClientHolds reports whether the client's entry in is want as that
// client holds it: what the client cannot express (a cwd for Claude Code)
// is no difference.
func sameAsClientHolds(ad formats.Adapter, loc formats.Location, want, in canonical.Server) bool {
	if canonical.Equal(want, in) {
		return true
	}
	data, ds := ad.Encode(loc, nil, canonical.Set{Servers: []canonical.Server{want}}, formats.EncodeOptions{})
	if ds.HasErrors() {
		return false
	}
	back, ds := ad.Decode(loc, data)
	if ds.HasErrors() {
		return false
	}
	view, ok := back.Get(want.Name)
	return ok && canonical.Equal(view, in)
}

// withClientExtra returns base with the client's own keys taken from in.
func withClientExtra(base, in canonical.Server, client string) canonical.Server {
	out := base.Clone()
	if in.Extra[client] == nil {
		return out
	}
	if out.Extra == nil {
		out.Extra = map[string]map[string]json.RawMessage{}
	}
	out.Extra[client] = maps.Clone(in.Extra[client])
	return out
}

func uniqueName(name string, taken map[string]bool) string {
	if !taken[name] {
		return name
	}
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s-%d", name, i); !taken[n] {
			return n
		}
	}
}

// serverDiff shows two definitions of one server as a diff of their
// canonical JSON (client-specific keys left out, secrets masked).
func serverDiff(store, client canonical.Server, clientID string) string {
	render := func(s canonical.Server) []byte {
		s = state.Snapshot(s)
		s.Extra = nil
		return canonical.DisplayJSON(s)
	}
	return unidiff.Diff(unidiff.File{Name: "store/" + store.Name, Data: render(store)},
		unidiff.File{Name: clientID + "/" + client.Name, Data: render(client)},
		unidiff.Options{Mask: emitters.MaskSecrets})
}

// recordImport notes what import settled in the state. The servers put in
// the store become their sync base (what the store and the client agreed
// on), and so does a server the store already held as the client has it.
// The client's entries the store now holds, as it holds them or by the
// user's choice (--prefer), are adopted: they are the store's servers now,
// so export and sync keep them in step with the store like the entries
// mcpsync wrote, instead of leaving them alone as the client's own (and
// --prune, or a sync, removes them once the store no longer has them). An
// entry renamed into the store, one whose secret is being extracted (that
// rewrite records its own), one read from a --file, and one that --prefer
// store kept apart from the store's (it says something else: it stays the
// user's own, which export leaves alone) are not adopted.
// The caller holds the state lock.
func (a *App) recordImport(st *store.Store, ad formats.Adapter, puts []canonical.Server, incoming canonical.Set,
	outcomes []importOutcome, locs []formats.Location, file string, ex importSecrets) error {
	client := ad.ID()
	db, err := state.Load(a.Dirs.State)
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	for _, srv := range puts {
		db.SetBase(st.Path, srv.Name, state.NewEntry("", srv, now))
	}
	changed := len(puts) > 0
	for _, o := range outcomes {
		switch o.Action {
		case "added", "updated", "unchanged", "kept-store":
		default:
			continue
		}
		if _, extracted := ex.original[o.Name]; file != "" || extracted {
			continue
		}
		if db.Base(st.Path, o.Name) == nil {
			if srv, ok := st.Servers.Get(o.Name); ok {
				db.SetBase(st.Path, o.Name, state.NewEntry("", srv, now))
				changed = true
			}
		}
		in, ok := incoming.Get(o.Name)
		if !ok {
			continue
		}
		for _, loc := range locs {
			if loc.Path != in.Origin.File || loc.ReadOnly {
				continue
			}
			if have, _ := st.Servers.Get(o.Name); o.Action == "kept-store" && !sameAsClientHolds(ad, loc, have, in) {
				break
			}
			section := emitters.SectionKey(loc)
			if old := db.Managed(loc.Path, section)[o.Name]; old != nil && old.Hash == state.Hash(in) {
				break // already mcpsync's, as it is
			}
			db.SetManaged(loc.Path, section, o.Name, state.NewEntry(client, in, now))
			changed = true
			break
		}
	}
	if !changed {
		return nil
	}
	return db.Save()
}
