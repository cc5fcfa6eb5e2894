package engine

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/emitters/unidiff"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/parsecache"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/store"
)

// LocateStore returns the store file that StorePath (relative to the
// working directory), or else scope, selects, and the scope it is.
func (e *Engine) LocateStore(scope canonical.Scope) (string, canonical.Scope) {
	explicit := e.StorePath
	if explicit != "" && !filepath.IsAbs(explicit) {
		explicit = filepath.Join(e.Cwd, explicit)
	}
	return store.Locate(e.ProjectRoot(), e.Dirs, explicit, scope)
}

// LoadStore reads the store that StorePath, or else scope, selects. A
// project's own mcpsync.hcl came with a repository: it is read (and later
// written) beneath the project directory only. A file named with StorePath
// is the user's choice, read as it is. A missing file is an empty store.
func (e *Engine) LoadStore(scope canonical.Scope) (*store.Store, canonical.Diagnostics) {
	path, sc := e.LocateStore(scope)
	root := ""
	if sc == canonical.ScopeProject && e.StorePath == "" {
		root = filepath.Dir(path)
	}
	st, ds := store.LoadCached(path, root, e.parseCache())
	st.Scope = sc
	return st, ds
}

// parseCache keeps parsed stores between runs ($XDG_CACHE_HOME/mcpsync/
// parsed): a store that has not changed is not parsed again.
func (e *Engine) parseCache() store.Cache {
	if e.Dirs.Cache == "" {
		return nil
	}
	return parsecache.Open(filepath.Join(e.Dirs.Cache, "parsed"))
}

// decodes is m (nil: a new memo) keeping what built-in clients' files
// decode to in the parse cache as well, so that a file unchanged since the
// last run is not decoded again.
func (e *Engine) decodes(m *emitters.DecodeMemo) *emitters.DecodeMemo {
	c := e.parseCache()
	if c == nil {
		return m
	}
	reg := e.Registry()
	return m.Persist(c, func(id string) bool { return reg.Origin(id).Builtin })
}

// StoreNote names a project store found above the directory the command
// runs for, or returns "".
func (e *Engine) StoreNote(st *store.Store) string {
	if st.Root == "" || !st.Exists || filepath.Clean(st.Root) == filepath.Clean(e.ProjectRoot()) {
		return ""
	}
	return "using the project store " + e.StoreDisplay(st.Path)
}

// OpenStore loads the store of scope for a verb that uses it: a store with
// errors is a *ProblemsError (nothing may be written over a broken file).
// The diagnostics returned are its warnings, and for a project's store the
// attributes it may not use (ProjectWarnings).
func (e *Engine) OpenStore(scope canonical.Scope) (*store.Store, canonical.Diagnostics, error) {
	st, ds := e.LoadStore(scope)
	if st.Scope == canonical.ScopeProject {
		ds = append(ds, ProjectWarnings(st)...)
	}
	if ds.HasErrors() {
		return nil, ds, &ProblemsError{Diags: ds, Msg: e.StoreDisplay(st.Path) + " has errors; nothing was changed"}
	}
	return st, ds, nil
}

// StoreDisplay shortens a store's path for messages: ~ for the home directory.
func (e *Engine) StoreDisplay(path string) string {
	if home := e.Dirs.Home; home != "" {
		if rel, err := filepath.Rel(home, path); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.Join("~", rel)
		}
	}
	return path
}

// ProjectWarnings says what a project's store may not say: a repository
// may not send writes to another file on the user's machine (a client's
// file attribute) nor make mcpsync run a command (a resolver plugin), so
// only the user's own store does either.
func ProjectWarnings(st *store.Store) canonical.Diagnostics {
	ids := make([]string, 0, len(st.ClientFiles))
	for id := range st.ClientFiles {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var ds canonical.Diagnostics
	for _, id := range ids {
		d := canonical.Warnf("client %q: file is not used in a project's mcpsync.hcl", id)
		d.Detail = "only your own store (" + filepath.Join("$XDG_CONFIG_HOME", "mcpsync", store.FileName) + ") moves a client's file"
		ds = append(ds, d.At(st.ClientFiles[id].Pos))
	}
	for _, r := range st.Resolvers {
		d := canonical.Warnf("resolver %q: not used in a project's mcpsync.hcl", r.Name)
		d.Detail = "a repository may not make mcpsync run a command: only your own store (" +
			filepath.Join("$XDG_CONFIG_HOME", "mcpsync", store.FileName) + ") declares resolver plugins"
		ds = append(ds, d.At(r.Pos))
	}
	return ds
}

// UserResolvers are the resolver plugins of the user's own store: st's
// when it is that store, never a project's.
func (e *Engine) UserResolvers(st *store.Store) []store.Resolver {
	if st.Scope != canonical.ScopeProject {
		return st.Resolvers
	}
	user, ds := e.LoadStore(canonical.ScopeUser)
	if ds.HasErrors() {
		return nil
	}
	return user.Resolvers
}

// StateDesired reads the ledger and what the store asks for: its own
// servers and the approved ones of its team sources.
func (e *Engine) StateDesired(st *store.Store) (*ledger.State, *desired.Servers, error) {
	return e.stateDesired(st, nil)
}

// stateDesired is StateDesired with the state from aside, when a run
// started reading it there (loadStateAside).
func (e *Engine) stateDesired(st *store.Store, aside *stateLoad) (*ledger.State, *desired.Servers, error) {
	var db *ledger.State
	var err error
	if aside != nil {
		db, err = aside.wait()
	} else {
		db, err = ledger.Load(e.Dirs.State)
	}
	if err != nil {
		return nil, nil, err
	}
	want, err := desired.Load(st, e.Dirs.State)
	if err != nil {
		return nil, nil, err
	}
	return db, want, nil
}

// SaveStore writes the store's edits like any client file: backed up under
// the state directory (so that restore can bring the store back), refused
// when the file changed since it was read, atomic, and beneath the project
// for a project's store. A project's store may not receive a literal
// secret. The caller holds the lock; st is reloaded from what was written.
func (e *Engine) SaveStore(st *store.Store) error {
	data := st.Bytes()
	var before []byte
	if st.Exists {
		before = st.Original()
		if before == nil {
			before = []byte{}
		}
	}
	if bytes.Equal(data, before) && (st.Exists || len(data) == 0) {
		return nil
	}
	if st.Scope == canonical.ScopeProject {
		// A project's store is shared through git: a server this edit adds
		// or changes may not bring a literal secret into it. The store as
		// read is in the parse cache (one entry per file); read before the
		// edited store is parsed, so that the edited one is what stays
		// there for the next run.
		old, _ := store.ParseCached(st.Path, before, e.parseCache())
		had := old.Servers.Indexed() // by name: Set.Get scans, and this asks once per server
		var ds canonical.Diagnostics
		for _, srv := range st.Servers.Servers {
			if prev, ok := had.Get(srv.Name); ok && canonical.Equal(prev, srv) {
				continue
			}
			if d := emitters.SharedSecret(srv, st.Path); d != nil {
				ds = append(ds, d)
			}
		}
		if err := problems(ds, "nothing was written"); err != nil {
			return err
		}
	}
	verified, ds := store.ParseEdited(st.Path, before, data, e.parseCache())
	if ds.HasErrors() {
		// Bytes only writes what Parse reads; reaching this is a bug.
		return fmt.Errorf("%s: the edited store would not read back (%v); nothing was written", st.Path, ds.Err())
	}
	return e.writeStoreAs(st, before, data, verified)
}

// writeStore writes data over the store st was read from (before its
// bytes, nil when it did not exist): backed up, refused when the file
// changed since, atomic, beneath the project for a project's store. st is
// reloaded from what was written.
func (e *Engine) writeStore(st *store.Store, before, data []byte) error {
	return e.writeStoreAs(st, before, data, nil)
}

// writeStoreAs is writeStore with data already parsed (parsed, or nil):
// st becomes it, instead of the file being read and parsed again (at
// 10,000 servers a second of every add).
func (e *Engine) writeStoreAs(st *store.Store, before, data []byte, parsed *store.Store) error {
	p := emitters.PlanWrite(st.Path, st.Root, before, data)
	if err := problems(p.Diags, "nothing was written"); err != nil {
		return err
	}
	if _, err := emitters.Apply(p, e.ApplyOptions(nil)); err != nil {
		return fmt.Errorf("%s: cannot write the store: %w", st.Path, err)
	}
	fresh := parsed
	if fresh == nil {
		var ds canonical.Diagnostics
		if fresh, ds = store.LoadCached(st.Path, st.Root, e.parseCache()); ds.HasErrors() {
			return fmt.Errorf("%s: the written store does not read back: %w", st.Path, ds.Err())
		}
	}
	fresh.Exists, fresh.Root, fresh.Scope = true, st.Root, st.Scope
	*st = *fresh
	return nil
}

// movedClientFiles reads the file attributes of the client blocks in the
// user's store (or StorePath): where this machine keeps a client's
// user-scope file when it is not the default. Only the user's own store
// moves files. A store that does not load moves nothing here: every verb
// that writes loads it itself and refuses it with its diagnostics. open,
// when it is that store, is used instead of reading it again.
func (e *Engine) movedClientFiles(open *store.Store) map[string]formats.MovedFile {
	path, _ := e.LocateStore(canonical.ScopeUser)
	st := open
	if st == nil || st.Path != path {
		var ds canonical.Diagnostics
		if st, ds = store.LoadCached(path, "", e.parseCache()); ds.HasErrors() {
			return nil
		}
	}
	if len(st.ClientFiles) == 0 {
		return nil
	}
	files := make(map[string]formats.MovedFile, len(st.ClientFiles))
	for id, f := range st.ClientFiles {
		p := f.Path
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			p = filepath.Join(e.Dirs.Home, rest)
		}
		files[id] = formats.MovedFile{Path: filepath.Clean(p), OS: f.OS}
	}
	return files
}

// StoreDiff is the change to the store's file that saving st would make,
// as a unified diff for a dry run: secret-looking values masked.
func (e *Engine) StoreDiff(st *store.Store) string {
	name := strings.TrimPrefix(filepath.ToSlash(e.StoreDisplay(st.Path)), "/")
	return unidiff.Diff(unidiff.File{Name: name, Data: st.Original(), Absent: !st.Exists},
		unidiff.File{Name: name, Data: st.Bytes(), Mode: 0o600}, unidiff.Options{Mask: secrets.ScrubberFor(st.Servers).Line})
}

// stateLoad is mcpsync's state, read on a goroutine of its own while the
// run reads its store: the two files are independent, and with 10,000
// servers in four clients' files each takes tens of milliseconds of one
// processor (the state is 9 MB of JSON), one after the other before.
type stateLoad struct {
	done  chan struct{}
	state *ledger.State
	err   error
}

// loadStateAside starts reading the state. A run that writes calls it once
// it holds the lock, so that what it reads is what it will update, as
// when it read the state after its store.
func (e *Engine) loadStateAside() *stateLoad {
	l := &stateLoad{done: make(chan struct{})}
	go func() {
		defer close(l.done)
		l.state, l.err = ledger.Load(e.Dirs.State)
	}()
	return l
}

// wait returns the state once read.
func (l *stateLoad) wait() (*ledger.State, error) {
	<-l.done
	return l.state, l.err
}
