package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/doctor"
	"github.com/mcpsync/mcpsync/internal/safefile"
	"github.com/mcpsync/mcpsync/store"
	"github.com/urfave/cli/v3"
)

const doctorDescription = `Checks every client's files (user, project and local scopes) and your
stores, and reports, each at file:line:col with what to do:

  parse_error              a file that does not parse, or that its client refuses
  duplicate_name           one server name twice in one file
  skipped_entry            an entry the client skips (a url without the type it needs, …)
  unknown_type             a type spelling the client does not know
  missing_command          an entry with neither a command nor a url
  unexpanded_reference     a reference in a syntax the client passes on literally
  duplicate_across_scopes  one server in several scopes, and which one the client uses
  literal_secret           a token, key or password written as a value, and the
                           reference to use instead (values are never printed)
  world_readable_secret    a file other users can read that holds a secret
  unset_reference          a reference to a variable that is not set here
  drift                    a server defined differently by two clients, or by a
                           client and the store
  leftover_temp_file       a temporary file left by an mcpsync that was killed

Nothing is written, unless --fix: it fixes what needs no decision (a file
or directory holding secrets that others can read loses its group and other
permissions; a leftover temporary file is removed), says what it did, and
reports what is left. Exit status 1 when any finding is an error (a file a
client cannot load, a literal secret in a shared project file, a file others
can read that holds a secret); warnings and notes exit 0.

Examples:
  mcpsync doctor
  mcpsync doctor --client cursor,codex --scope project
  mcpsync doctor --fix
  mcpsync doctor --fix
  mcpsync --json doctor | jq '.findings[] | select(.kind == "literal_secret")'`

func (a *App) doctorCommand() *cli.Command {
	return &cli.Command{
		Name:        "doctor",
		Usage:       "check every client file and the store for problems and leaks",
		UsageText:   "mcpsync doctor [--client CLIENT[,CLIENT…]] [--scope user|project|local] [--fix]",
		Description: doctorDescription,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "client", Usage: "check only `CLIENT`[,CLIENT…] (see 'mcpsync clients')"},
			&cli.StringSliceFlag{Name: "scope", Usage: "check only the `SCOPE`s given: user, project, local"},
			&cli.BoolFlag{Name: "fix", Usage: "fix what needs no decision: close files and directories others can read, remove leftover temporary files"},
		},
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usagef("doctor takes no arguments (got %q); choose clients with --client", cmd.Args().First())
			}
			return a.runDoctor(clientList(cmd.StringSlice("client")), clientList(cmd.StringSlice("scope")), cmd.Bool("fix"))
		},
	}
}

func (a *App) runDoctor(clients, scopes []string, fix bool) error {
	reg := a.registry()
	var ids []string
	for _, c := range clients {
		ad, err := reg.Lookup(c)
		if err != nil {
			return usageError{Err: err}
		}
		ids = append(ids, ad.ID())
	}
	var sc []canonical.Scope
	for _, s := range scopes {
		switch s := canonical.Scope(s); s {
		case canonical.ScopeUser, canonical.ScopeProject, canonical.ScopeLocal:
			sc = append(sc, s)
		default:
			return usagef("--scope %q: use user, project or local", string(s))
		}
	}
	teamSet, teamSource := a.teamServers()
	opts := doctor.Options{
		Registry:   reg,
		Env:        a.engine().FormatsEnv(a.GOOS, "", nil),
		LookupEnv:  a.LookupEnv,
		Stores:     a.doctorStores(),
		StateDir:   a.Dirs.State,
		Clients:    ids,
		Scopes:     sc,
		Team:       teamSet,
		TeamSource: teamSource,
	}
	rep := doctor.Run(opts)
	var fixed []doctorFix
	if fix {
		lock, err := a.engine().Lock()
		if err != nil {
			return err
		}
		fixed, err = fixFindings(rep.Findings)
		lock.Unlock()
		if len(fixed) > 0 {
			rep = doctor.Run(opts) // what is left
		}
		if !a.JSON {
			for _, f := range fixed {
				fmt.Fprintf(a.Stdout, "%s  %s: %s\n", a.paint(false, styleGreen, "fixed"), a.engine().Display(f.Path), f.Action)
			}
		}
		if err != nil {
			return err
		}
	}
	if a.JSON {
		byKind := rep.ByKind()
		out := map[string]any{
			"files":    rep.Files,
			"findings": rep.Findings,
			"summary": map[string]any{"errors": rep.Count(doctor.SevError), "warnings": rep.Count(doctor.SevWarning),
				"info": rep.Count(doctor.SevInfo), "byKind": byKind},
		}
		if fix {
			out["fixed"] = append([]doctorFix{}, fixed...)
		}
		err := a.printJSON(out)
		if err == nil && rep.HasErrors() {
			return reportedError{fmt.Errorf("doctor found errors")}
		}
		return err
	}
	for _, f := range rep.Findings {
		a.printFinding(f)
	}
	files, servers, clientsSeen := 0, 0, map[string]bool{}
	for _, f := range rep.Files {
		if f.Exists {
			files++
			servers += f.Servers
			clientsSeen[f.Client] = true
		}
	}
	summary := fmt.Sprintf("checked %d file(s) of %d client(s) holding %d server(s)", files, len(clientsSeen), servers)
	if n := len(a.doctorStores()); n > 0 {
		summary += fmt.Sprintf(", and %d store(s)", n)
	}
	e, w, i := rep.Count(doctor.SevError), rep.Count(doctor.SevWarning), rep.Count(doctor.SevInfo)
	if e+w+i == 0 {
		fmt.Fprintln(a.Stdout, summary+": no problems found")
		return nil
	}
	fmt.Fprintf(a.Stdout, "%s: %d error(s), %d warning(s), %d note(s)\n", summary, e, w, i)
	if rep.HasErrors() {
		return reportedError{fmt.Errorf("doctor found %d error(s)", e)}
	}
	return nil
}

// doctorFix is one change doctor --fix made.
type doctorFix struct {
	Kind   doctor.Kind `json:"kind"`
	Path   string      `json:"path"`
	Action string      `json:"action"`
}

// fixFindings fixes the findings that need no decision from the user: a
// file or directory holding secrets that others can read loses its group
// and other permissions (the owner's stay), and a temporary file a killed
// mcpsync left behind is removed (doctor lists only those whose writer is
// gone). Everything else (a literal secret, drift, a parse error) needs a
// choice, which the finding's fix line describes.
func fixFindings(findings []doctor.Finding) ([]doctorFix, error) {
	var fixed []doctorFix
	done := map[string]bool{}
	for _, f := range findings {
		if f.File == "" || done[f.File] {
			continue
		}
		switch f.Kind {
		case doctor.WorldReadableSecret:
			// A project's file is changed beneath the project only: a link
			// in a repository never makes doctor change a file outside it.
			fi, err := safefile.Stat(f.File, f.Root)
			if err != nil {
				return fixed, fmt.Errorf("cannot fix %s: %w", f.File, err)
			}
			mode := fi.Mode().Perm() &^ 0o077
			if err := safefile.Chmod(f.File, f.Root, mode); err != nil {
				return fixed, fmt.Errorf("cannot fix %s: %w; run chmod go-rwx on it yourself", f.File, err)
			}
			fixed = append(fixed, doctorFix{f.Kind, f.File, fmt.Sprintf("mode %04o, was %04o (only you can read it now)", mode, fi.Mode().Perm())})
		case doctor.LeftoverTempFile:
			if err := safefile.Remove(f.File, f.Root); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fixed, fmt.Errorf("cannot remove %s: %w", f.File, err)
			}
			fixed = append(fixed, doctorFix{f.Kind, f.File, "removed the temporary file a killed mcpsync left"})
		default:
			continue
		}
		done[f.File] = true
	}
	return fixed, nil
}

// doctorStores are the stores that exist: --store, or the user store and
// the project's.
func (a *App) doctorStores() []doctor.StoreFile {
	root := a.engine().ProjectRoot()
	if !filepath.IsAbs(root) {
		root = filepath.Join(a.Cwd, root)
	}
	var out []doctor.StoreFile
	if a.StorePath != "" {
		p, sc := store.Locate(root, a.Dirs, a.StorePath, canonical.ScopeUser)
		return []doctor.StoreFile{{Path: p, Scope: sc}}
	}
	for _, scope := range []canonical.Scope{canonical.ScopeUser, canonical.ScopeProject} {
		p, sc := store.Locate(root, a.Dirs, "", scope)
		if _, err := os.Stat(p); err == nil && !slices.ContainsFunc(out, func(s doctor.StoreFile) bool { return s.Path == p }) {
			out = append(out, doctor.StoreFile{Path: p, Scope: sc})
		}
	}
	return out
}

// printFinding writes one finding the way diagnostics are written, with
// its fix below.
func (a *App) printFinding(f doctor.Finding) {
	sev := string(f.Severity)
	style := map[doctor.Severity]string{doctor.SevError: styleRed + styleBold, doctor.SevWarning: styleYellow, doctor.SevInfo: styleCyan}[f.Severity]
	var b strings.Builder
	if f.File != "" {
		p := canonical.Pos{File: a.engine().Display(f.File), Line: f.Line, Column: f.Column}
		b.WriteString(p.String() + ": ")
	}
	b.WriteString(a.paint(false, style, sev) + " ")
	b.WriteString(a.paint(false, styleDim, "["+string(f.Kind)+"]") + " ")
	if f.Client != "" {
		who := f.Client
		if f.Scope != "" {
			who += ", " + string(f.Scope)
		}
		b.WriteString("(" + who + ") ")
	}
	if f.Server != "" {
		fmt.Fprintf(&b, "server %q: ", f.Server)
	}
	b.WriteString(f.Message)
	fmt.Fprintln(a.Stdout, b.String())
	if f.Fix != "" {
		for _, l := range strings.Split(f.Fix, "\n") {
			fmt.Fprintln(a.Stdout, "    fix: "+l)
		}
	}
}

// teamServers returns the user store's team-source servers in effect and
// their sources, for doctor to compare clients with; none when the store
// does not load (doctor reports why) or has no source.
func (a *App) teamServers() (canonical.Set, map[string]string) {
	explicit := a.StorePath
	if explicit != "" && !filepath.IsAbs(explicit) {
		explicit = filepath.Join(a.Cwd, explicit)
	}
	path, sc := store.Locate(a.engine().ProjectRoot(), a.Dirs, explicit, canonical.ScopeUser)
	st, ds := store.Load(path)
	if ds.HasErrors() || len(st.Sources) == 0 {
		return canonical.Set{}, nil
	}
	st.Scope = sc
	d, err := desired.Load(st, a.Dirs.State)
	if err != nil {
		return canonical.Set{}, nil
	}
	var set canonical.Set
	for _, srv := range d.Set.Servers {
		if _, ok := d.FromSource[srv.Name]; ok {
			set.Servers = append(set.Servers, srv)
		}
	}
	return set, d.FromSource
}
