package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/doctor"
	"github.com/mcpsync/mcpsync/internal/safefile"
	"github.com/mcpsync/mcpsync/store"
)

// DoctorOptions choose what doctor checks and whether it fixes.
type DoctorOptions struct {
	// Clients and Scopes limit the check; empty checks everything.
	Clients []string
	Scopes  []canonical.Scope
	// Fix fixes what needs no decision (see fixFindings), then checks again.
	Fix bool
}

// DoctorResult is doctor's report, after Fix what is left, and what Fix did.
type DoctorResult struct {
	Report *doctor.Report
	Fixed  []DoctorFix
	// Stores counts the stores checked.
	Stores int
}

// Doctor checks every client file and the store for problems and leaks.
// With Fix, it takes the lock, fixes what needs no decision and reports
// what is left; an error while fixing is returned with what was fixed.
func (e *Engine) Doctor(o DoctorOptions) (*DoctorResult, error) {
	reg := e.Registry()
	var ids []string
	for _, c := range o.Clients {
		ad, err := reg.Lookup(c)
		if err != nil {
			return nil, UsageError{Err: err}
		}
		ids = append(ids, ad.ID())
	}
	for _, s := range o.Scopes {
		switch s {
		case canonical.ScopeUser, canonical.ScopeProject, canonical.ScopeLocal:
		default:
			return nil, Usagef("--scope %q: use user, project or local", string(s))
		}
	}
	teamSet, teamSource := e.teamServers()
	stores := e.doctorStores()
	opts := doctor.Options{
		Registry:   reg,
		Env:        e.FormatsEnv(e.GOOS, "", nil),
		LookupEnv:  e.LookupEnv,
		Stores:     stores,
		StateDir:   e.Dirs.State,
		Clients:    ids,
		Scopes:     o.Scopes,
		Team:       teamSet,
		TeamSource: teamSource,
		ParseCache: e.parseCache(),
	}
	res := &DoctorResult{Report: doctor.Run(opts), Stores: len(stores)}
	if !o.Fix {
		return res, nil
	}
	lock, err := e.Lock()
	if err != nil {
		return nil, err
	}
	res.Fixed, err = fixFindings(res.Report.Findings)
	lock.Unlock()
	if len(res.Fixed) > 0 {
		res.Report = doctor.Run(opts) // what is left
	}
	return res, err
}

// DoctorFix is one change doctor --fix made.
type DoctorFix struct {
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
func fixFindings(findings []doctor.Finding) ([]DoctorFix, error) {
	var fixed []DoctorFix
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
			fixed = append(fixed, DoctorFix{f.Kind, f.File, fmt.Sprintf("mode %04o, was %04o (only you can read it now)", mode, fi.Mode().Perm())})
		case doctor.LeftoverTempFile:
			if err := safefile.Remove(f.File, f.Root); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fixed, fmt.Errorf("cannot remove %s: %w", f.File, err)
			}
			fixed = append(fixed, DoctorFix{f.Kind, f.File, "removed the temporary file a killed mcpsync left"})
		default:
			continue
		}
		done[f.File] = true
	}
	return fixed, nil
}

// doctorStores are the stores that exist: --store, or the user store and
// the project's.
func (e *Engine) doctorStores() []doctor.StoreFile {
	root := e.ProjectRoot()
	var out []doctor.StoreFile
	if e.StorePath != "" {
		p, sc := store.Locate(root, e.Dirs, e.StorePath, canonical.ScopeUser)
		return []doctor.StoreFile{{Path: p, Scope: sc}}
	}
	for _, scope := range []canonical.Scope{canonical.ScopeUser, canonical.ScopeProject} {
		p, sc := store.Locate(root, e.Dirs, "", scope)
		if _, err := os.Stat(p); err == nil && !slices.ContainsFunc(out, func(s doctor.StoreFile) bool { return s.Path == p }) {
			out = append(out, doctor.StoreFile{Path: p, Scope: sc})
		}
	}
	return out
}

// teamServers returns the user store's team-source servers in effect and
// their sources, for doctor to compare clients with; none when the store
// does not load (doctor reports why) or has no source.
func (e *Engine) teamServers() (canonical.Set, map[string]string) {
	path, sc := e.LocateStore(canonical.ScopeUser)
	st, ds := store.Load(path)
	if ds.HasErrors() || len(st.Sources) == 0 {
		return canonical.Set{}, nil
	}
	st.Scope = sc
	d, err := desired.Load(st, e.Dirs.State)
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
