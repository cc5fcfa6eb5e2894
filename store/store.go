package store

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/safefile"
	"github.com/mcpsync/mcpsync/internal/suggest"
	"github.com/mcpsync/mcpsync/internal/xdg"
)

// FileName is the store's file name in every scope.
const FileName = "mcpsync.hcl"

// Store is one mcpsync.hcl: the servers it holds and the rules that say
// which client gets which.
//
// Change servers with Put and Remove (or by editing Servers directly):
// Bytes computes the edited file from the bytes as loaded and the servers
// as they are now, so that only what changed is rewritten.
type Store struct {
	Path  string
	Scope canonical.Scope
	// Exists says whether the file was there when it was loaded.
	Exists bool
	// Root, for a project's store, is the project directory: the store came
	// with a repository and is read and written beneath it only (a link
	// out of the project is refused; see internal/safefile).
	Root string

	Servers canonical.Set
	// Clients holds the client "NAME" rules, by client id.
	Clients map[string]ClientRule
	// ClientFiles holds the file attributes of client blocks, by client id:
	// where this machine keeps that client's user-scope file. mcpsync reads
	// them and never writes them.
	ClientFiles map[string]ClientFile
	// Resolvers and Sources are parsed and exposed for the GitHub resolver
	// and team sources; the store only keeps them.
	Resolvers []Resolver
	Sources   []Source

	src    []byte
	blocks map[string]*serverBlock // servers as they are in src; nil until needed for a store from the cache
	// cached, for a store from the cache (ParseCached), is the kept parse
	// it was decoded from: while its servers and rules are what that says,
	// Bytes needs no syntax tree.
	cached []byte
	// loaded is what cached decodes to, once a save has asked
	// (unchangedSinceCache) and found the store changed: for the edit
	// (blocksFromCache, ensureSyntax) not to decode it again.
	loaded *parsed
	broken bool // src did not parse; nothing may be written
}

// ClientRule is a client "NAME" block: which servers that client gets. With
// Include, only those; then Exclude removes some. No rule: every server.
type ClientRule struct {
	Include []string      `json:"include,omitempty"`
	Exclude []string      `json:"exclude,omitempty"`
	Pos     canonical.Pos `json:"pos,omitzero"`
}

// ClientFile is the file attribute of a client "NAME" block: the client's
// user-scope file when it is not where the client keeps it by default (VS
// Code Remote's ~/.vscode-server, Claude Desktop's file seen from WSL, a
// portable install). Path is absolute or starts with ~/. OS, when set, is
// the OS of the client that reads it (windows for Claude Desktop's file
// seen from WSL): what is written there takes that OS's shape.
type ClientFile struct {
	Path string        `json:"path"`
	OS   string        `json:"os,omitempty"`
	Pos  canonical.Pos `json:"pos,omitzero"`
}

// Resolver is a resolver "NAME" block: an external command the GitHub
// resolver may ask to turn a repository into a server entry.
type Resolver struct {
	Name    string        `json:"name"`
	Command []string      `json:"command"`
	Timeout time.Duration `json:"timeout,omitempty"`
	Pos     canonical.Pos `json:"pos,omitzero"`
}

// Source is a source "NAME" block: a git repository holding a team's servers.
type Source struct {
	Name string        `json:"name"`
	Git  string        `json:"git"`
	Ref  string        `json:"ref,omitempty"`
	Path string        `json:"path,omitempty"`
	Pos  canonical.Pos `json:"pos,omitzero"`
}

// Allows reports whether client gets server under the client rules.
func (s *Store) Allows(client, server string) bool {
	rule, ok := s.Clients[client]
	if !ok {
		return true
	}
	if len(rule.Include) > 0 && !slices.Contains(rule.Include, server) {
		return false
	}
	return !slices.Contains(rule.Exclude, server)
}

// Load reads the store at path. A missing file is an empty store with Path
// set and no diagnostic; it is created by the first Save.
func Load(path string) (*Store, canonical.Diagnostics) { return LoadBeneath(path, "") }

// LoadBeneath is Load for a store that came with a project: it is read
// beneath root only, and refused when it is a link out of it, a FIFO, a
// device or larger than any store (safefile).
func LoadBeneath(path, root string) (*Store, canonical.Diagnostics) {
	return LoadCached(path, root, nil)
}

// LoadCached is LoadBeneath with a parse cache (ParseCached): an unchanged
// store is not parsed again. c may be nil.
func LoadCached(path, root string, c Cache) (*Store, canonical.Diagnostics) {
	data, _, err := safefile.ReadFile(path, root)
	var linkOut *safefile.LinkOutError
	if errors.Is(err, fs.ErrNotExist) && !errors.As(err, &linkOut) {
		s := newStore(path)
		s.Root = root
		return s, nil
	}
	if err != nil {
		d := canonical.Errorf("cannot read the store: %v", err)
		d.Detail = "check the file's permissions, or choose another store with --store"
		if errors.As(err, &linkOut) {
			d = canonical.Errorf("%v", err)
			d.Detail = "a project's mcpsync.hcl is read inside the project only; nothing was changed"
		}
		s := newStore(path)
		s.Root, s.broken = root, true
		return s, canonical.Diagnostics{d.At(canonical.Pos{File: path})}
	}
	s, ds := ParseCached(path, data, c)
	s.Exists, s.Root = true, root
	return s, ds
}

func newStore(path string) *Store {
	return &Store{Path: path, Scope: canonical.ScopeUser, Clients: map[string]ClientRule{}, ClientFiles: map[string]ClientFile{}, blocks: map[string]*serverBlock{}}
}

// Parse reads a store from src; filename is used in diagnostics. Every
// problem is reported with file:line:col, not only the first.
func Parse(filename string, src []byte) (*Store, canonical.Diagnostics) {
	s := newStore(filename)
	s.src = src
	ds := decodeFile(s, src)
	s.broken = ds.HasErrors()
	return s, ds
}

// Put adds srv, or replaces the server of the same name. Putting a server
// equal to the one stored changes nothing.
func (s *Store) Put(srv canonical.Server) { s.Servers.Put(asStored(srv, s.Servers.Get)) }

// asStored is srv as the store keeps it: a normalized copy, at the place
// (Origin) of the server it replaces.
func asStored(srv canonical.Server, get func(string) (canonical.Server, bool)) canonical.Server {
	srv = srv.Clone()
	srv.Normalize()
	if old, ok := get(srv.Name); ok {
		srv.Origin = old.Origin
	}
	return srv
}

// Indexed is Get and Put for many servers at once, through an index by
// name: Put in a loop scans the list for each server. Change the store
// only through them while they are in use.
func (s *Store) Indexed() (get func(name string) (canonical.Server, bool), put func(canonical.Server)) {
	idx := s.Index()
	return idx.Get, idx.Put
}

// Index is the store's servers through an index by name: Get, Put and
// Remove as the Store's own, without a scan of the list each. Change the
// store only through it while it is in use.
type Index struct {
	idx *canonical.Indexed
}

// Index returns an index of the store's servers.
func (s *Store) Index() *Index { return &Index{idx: s.Servers.Indexed()} }

// Get returns the named server.
func (x *Index) Get(name string) (canonical.Server, bool) { return x.idx.Get(name) }

// Has reports whether the store holds the named server.
func (x *Index) Has(name string) bool { return x.idx.Has(name) }

// Put is Store.Put.
func (x *Index) Put(srv canonical.Server) { x.idx.Put(asStored(srv, x.idx.Get)) }

// Remove is Store.Remove.
func (x *Index) Remove(name string) bool { return x.idx.Remove(name) }

// Remove deletes the named server and reports whether it was there.
func (s *Store) Remove(name string) bool { return s.Servers.Remove(name) }

// Bytes returns the file with the servers as they are now: blocks of
// unchanged servers, comments, blank lines and every other byte stay as
// loaded; a changed server is edited attribute by attribute; a removed one
// is cut out; new ones are added after the last server block.
func (s *Store) Bytes() []byte {
	return applyEdits(s.src, s.edits())
}

// Original returns the file as it was loaded (nil when it did not exist).
func (s *Store) Original() []byte { return s.src }

// Changed reports whether Bytes differs from the file as loaded.
func (s *Store) Changed() bool { return !bytes.Equal(s.Bytes(), s.src) }

// Locate finds the store to use. explicit (--store) wins; it is taken
// relative to cwd. Otherwise the user store is $XDG_CONFIG_HOME/mcpsync/
// mcpsync.hcl, and the project store is the mcpsync.hcl found walking up
// from cwd, or else the one at the repository root (the directory holding
// .git), or else cwd's.
func Locate(cwd string, dirs xdg.Dirs, explicit string, scope canonical.Scope) (string, canonical.Scope) {
	if scope == "" {
		scope = canonical.ScopeUser
	}
	if explicit != "" {
		if !filepath.IsAbs(explicit) {
			explicit = filepath.Join(cwd, explicit)
		}
		return filepath.Clean(explicit), scope
	}
	if scope != canonical.ScopeProject {
		return filepath.Join(dirs.Config, FileName), canonical.ScopeUser
	}
	return filepath.Join(ProjectRoot(cwd, dirs.Home), FileName), canonical.ScopeProject
}

// ProjectRoot walks up from dir to the first directory holding mcpsync.hcl
// or .git, and returns dir itself when there is none. The walk stops below
// home (the home directory is no project), at a filesystem boundary, and
// at a directory that another user owns or everyone may write to (/tmp):
// a mcpsync.hcl someone else can put there is not this project's.
func ProjectRoot(dir, home string) string {
	dir = filepath.Clean(dir)
	start, _ := os.Stat(dir)
	for d := dir; ; {
		if d != dir && (home != "" && d == filepath.Clean(home) || !sameFilesystem(start, d) || !ownDir(d)) {
			return dir
		}
		for _, marker := range []string{FileName, ".git"} {
			if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
				return d
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// Suggest returns the candidate closest to name, when it is close enough to
// be a typo, else "".
func Suggest(name string, candidates []string) string {
	return suggest.Closest(name, candidates, len(name)/3+2)
}
