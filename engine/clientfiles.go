package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/safefile"
)

// ClientFiles are the client's files of scope for this project, or file (a
// file in the client's shape, relative to the working directory).
func (e *Engine) ClientFiles(ad formats.Adapter, scope canonical.Scope, file string) ([]formats.Location, error) {
	env := e.FormatsEnv(e.GOOS, "", nil)
	if file != "" {
		loc := formats.ShapeLocation(ad, env, scope)
		loc.Path = file
		if !filepath.IsAbs(file) {
			loc.Path = filepath.Join(e.Cwd, file)
		}
		// A file the user named is theirs to name: read as it is.
		loc.Root = ""
		return []formats.Location{loc}, nil
	}
	locs := formats.ScopeLocations(ad, env, scope)
	if len(locs) == 0 {
		return nil, fmt.Errorf("%s has no %s-scope file; see 'mcpsync clients'", ad.ID(), scope)
	}
	return locs, nil
}

// ReadClient decodes the servers of the client's files (ClientFiles),
// first location first: a name read twice keeps the first definition. A
// file that does not parse is a *ProblemsError whose message is failMsg.
// A missing file is skipped, unless it is the one file named; none at all
// is an error that points at a file of another scope when there is one.
// The warnings are returned.
func (e *Engine) ReadClient(ad formats.Adapter, scope canonical.Scope, file string, locs []formats.Location, failMsg string) (canonical.Set, canonical.Diagnostics, error) {
	var set canonical.Set
	var all canonical.Diagnostics
	read := 0
	first := map[string]int{} // where each name was read first, in set
	// A large file unchanged since a run read or wrote it (an import after
	// an export) is taken from the parse cache, as export and sync take it.
	decodes := e.decodes(nil)
	for _, loc := range locs {
		data, _, err := safefile.ReadFile(loc.Path, loc.Root)
		var linkOut *safefile.LinkOutError
		if errors.Is(err, fs.ErrNotExist) && !errors.As(err, &linkOut) && file == "" {
			continue
		}
		if err != nil {
			return set, all, fmt.Errorf("cannot read %s: %w; nothing was imported", e.Display(loc.Path), err)
		}
		read++
		got, ds := decodes.Decode(ad, loc, data)
		all = append(all, ds.WithFile(loc.Path)...)
		if la, ok := ad.(formats.LeftAloner); ok {
			all = append(all, la.LeftAlone(loc, data)...)
		}
		for _, srv := range got.Servers {
			if p := canonical.NameProblem(srv.Name); p != "" {
				d := canonical.Warnf("not imported: server name %q %s", srv.Name, p)
				d.Detail, d.Server = "rename it in "+ad.DisplayName()+"'s file ("+canonical.NameAdvice+"), then import again", srv.Name
				all = append(all, d.At(srv.Origin))
				continue
			}
			if i, dup := first[srv.Name]; dup {
				if prev := set.Servers[i]; !canonical.Equal(prev, srv) {
					d := canonical.Warnf("%s is also defined in %s; the first definition is imported", srv.Name, prev.Origin.File)
					d.Server = srv.Name
					all = append(all, d.At(srv.Origin))
				}
				continue
			}
			first[srv.Name] = len(set.Servers)
			set.Servers = append(set.Servers, srv)
		}
	}
	all.Sort()
	if all.HasErrors() {
		return set, nil, &ProblemsError{Diags: all, Msg: failMsg}
	}
	if read == 0 {
		msg := fmt.Sprintf("%s has no %s-scope file on this machine (looked for %s)", ad.ID(), scope, e.Display(locs[0].Path))
		if other := e.existingScopeFile(ad, scope); other != nil {
			msg += fmt.Sprintf("; there is %s: import it with --scope %s", e.Display(other.Path), other.Scope)
		}
		return set, all, errors.New(msg)
	}
	return set, all, nil
}

// existingScopeFile is a file of the client in another scope that exists,
// so that the error for an empty scope can point at the one the user
// probably meant (a project's .cursor/mcp.json when ~/.cursor has none).
func (e *Engine) existingScopeFile(ad formats.Adapter, scope canonical.Scope) *formats.Location {
	for _, loc := range formats.Locate(ad, e.FormatsEnv(e.GOOS, "", nil)) {
		if loc.Scope == scope || loc.ReadOnly || loc.Scope == canonical.ScopeLocal {
			continue
		}
		if exists(loc.Path) {
			return &loc
		}
	}
	return nil
}

// FileClient names the client whose file path is on this machine (any of
// its scopes), so that a file the user names (add --file) is read as that
// client reads it.
func (e *Engine) FileClient(path string) (formats.Adapter, formats.Location, bool) {
	path = e.AbsPath(path)
	real := path
	if r, err := filepath.EvalSymlinks(path); err == nil {
		real = r
	}
	env := e.FormatsEnv(e.GOOS, "", nil)
	for _, ad := range e.Registry().All() {
		locs := formats.Locate(ad, env)
		for _, loc := range locs {
			if loc.Path != path && loc.Path != real {
				continue
			}
			for _, other := range locs {
				if other.Path == loc.Path && other.Project != loc.Project {
					// One file, a section per project (~/.claude.json): the
					// paste reader reads every section.
					return nil, formats.Location{}, false
				}
			}
			return ad, loc, true
		}
	}
	return nil, formats.Location{}, false
}
