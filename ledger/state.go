// Package ledger remembers what mcpsync wrote, so that it can later tell its
// own entries from the user's.
//
// The state lives in $XDG_STATE_HOME/mcpsync/state.json (written atomically,
// mode 0600) and holds:
//
//   - per client file (by absolute path): the SHA-256 of the bytes mcpsync
//     last wrote, whether mcpsync created the file, and per server map in
//     the file (a "section": "" for the file's own map, or the project
//     directory for Claude Code's projects[dir].mcpServers) the managed
//     entries: each server mcpsync wrote there, with a snapshot of the entry
//     as the client reads it back and the snapshot's hash. Prune removes only
//     these; a managed entry whose hash no longer matches was edited by hand.
//   - per store file and server: the base snapshot, what mcpsync last synced
//     (exported or imported). Two-way sync merges three ways against it.
//
// A process that changes client files or the state takes the advisory lock
// (Lock) on the state directory first, so two mcpsync runs cannot interleave.
package ledger

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/atomicfile"
	"github.com/mcpsync/mcpsync/internal/jsonwrite"
)

// FileName is the state file's name inside the state directory.
const FileName = "state.json"

// Version is the schema version written to state.json. A newer version is
// refused rather than misread.
//
// Version 2: two-way sync's records (Sync.Clients and Sync.Deleted) keep
// their servers in Snapshots, as the records of files and bases do; in
// version 1 each held its server itself. A version 1 state reads as it was
// (an entry that holds a server keeps it); a build that reads only version
// 1 refuses a version 2 state instead of reading sync entries without
// their servers.
const Version = 2

// State is the whole state file.
type State struct {
	Version int `json:"version"`
	// Files is keyed by the client file's absolute path as its Location
	// names it (not the symlink target: the user thinks in these paths).
	Files map[string]*File `json:"files,omitempty"`
	// Bases is keyed by store path, then server name.
	Bases map[string]map[string]*Entry `json:"bases,omitempty"`
	// Sync is keyed by store path: what two-way sync remembers beyond the
	// bases (see sync.go).
	Sync map[string]*Sync `json:"sync,omitempty"`
	// Snapshots holds each entry's server once, by its hash: the same
	// server written to 21 clients' files (or kept as a sync base) is one
	// copy in the file, not 22. Entries read from it on Load; an entry
	// saved by an older mcpsync holds its server itself.
	Snapshots map[string]canonical.Server `json:"snapshots,omitempty"`

	path    string
	changes int // see Changes
	// shared lets entries made through the state share snapshots
	// (State.NewEntry); nil in a State made as a literal.
	shared *sharedSnapshots
}

// File is what mcpsync knows about one client file.
type File struct {
	// SHA256 is the hash of the bytes mcpsync last wrote ("" if it never wrote).
	SHA256 string `json:"sha256,omitempty"`
	// Written is when mcpsync last wrote the file.
	Written time.Time `json:"written,omitzero"`
	// Created says mcpsync created the file; prune may then remove it once
	// it holds no server and nothing the user added.
	Created bool `json:"created,omitempty"`
	// Sections holds the managed entries per server map in the file.
	Sections map[string]*Section `json:"sections,omitempty"`
	// AddedKeys holds, per section, how many of the keys leading to its
	// server map mcpsync added to the file ("mcpServers" in a Gemini
	// settings.json that had none; see formats.SectionRemover). Once the
	// map is empty again they go, so that no empty wrapper is left behind.
	// Keys the file already had are never counted.
	AddedKeys map[string]int `json:"addedKeys,omitempty"`
	// AddedSideKeys holds, per section, the keys beside its server map that
	// mcpsync added to the file (VS Code's "inputs"; see
	// formats.SideKeyRemover). Once one holds nothing again it goes. Keys
	// the file already had are never listed.
	AddedSideKeys map[string][]string `json:"addedSideKeys,omitempty"`
	// CreatedDirs are the directories mcpsync created to write the file
	// (~/.codex for config.toml), innermost first. When mcpsync removes the
	// file, it removes them too, each only while empty.
	CreatedDirs []string `json:"createdDirs,omitempty"`
}

// Section is one server map in a file.
type Section struct {
	Managed map[string]*Entry `json:"managed,omitempty"`
}

// Entry is a snapshot of one server: what mcpsync wrote into a client file
// (as the client reads it back), or a store server's sync base.
type Entry struct {
	// Client is the client id the entry was written for (informational).
	Client string `json:"client,omitempty"`
	// Hash is Hash(Server).
	Hash string `json:"hash"`
	// Server is the snapshot; in state.json it is in State.Snapshots. It
	// is nil when there is none, and is never changed once made: entries
	// share it (a server written to 21 clients' files is one snapshot), so
	// an entry that changes gets a new one. A pointer, not a copy: an
	// export of 10,000 servers to every client holds 300,000 entries, and
	// a server is 272 bytes.
	Server *canonical.Server `json:"server,omitzero"`
	At     time.Time         `json:"at,omitzero"`
	// From, for an entry the client holds in its own spelling (not equal
	// to the store's definition), names what it was written from: the
	// definition, the client, file, options and build (emitters'
	// WrittenFrom). While the file's entry is unchanged and From matches,
	// it is known to hold that definition without writing it again.
	From string `json:"from,omitempty"`
	// Source, for a sync base, is the team source the server came from
	// (it was never the store's own): once it is no longer a source's,
	// the store's lack of it is its removal, even from an empty store.
	Source string `json:"source,omitempty"`
}

// NewEntry snapshots srv. The snapshot shares srv's lists and maps where
// normalising changes none of them in place (canonical.Server.Normalized):
// nothing changes a server in place (each writer clones first), and a deep
// copy of every store server was 3.6 MB of an export of 10,000 servers,
// held to its end (TestNewEntrySharesNormalServers).
func NewEntry(client string, srv canonical.Server, at time.Time) *Entry {
	snap := sharedSnapshot(srv)
	return &Entry{Client: client, Hash: hashSnapshot(snap), Server: &snap, At: at}
}

// sharedSnapshot is Snapshot, sharing srv's lists and maps where
// normalising changes none of them in place (canonical.Server.Normalized),
// but for its Extra, which hashSnapshot compacts in place: copied, so
// that srv's stays as the client wrote it.
func sharedSnapshot(srv canonical.Server) canonical.Server {
	s := srv.Normalized()
	s.Origin = canonical.Pos{}
	if len(s.Extra) > 0 {
		extra := make(map[string]map[string]json.RawMessage, len(s.Extra))
		for c, keys := range s.Extra {
			extra[c] = maps.Clone(keys)
		}
		s.Extra = extra
	}
	return s
}

// Holds reports whether srv is what e recorded: Hash(srv) == e.Hash. A
// server Equal to e's snapshot, with every client's keys, hashes the same
// (FuzzHolds), and comparing costs a small part of hashing: a no-op sync
// of 10,000 servers in five clients asks this 50,000 times. Where they
// differ, or e holds no snapshot, the hashes decide.
func (e *Entry) Holds(srv canonical.Server) bool {
	if e.SameServer(srv) {
		return true
	}
	return e.Hash == Hash(srv)
}

// SameServer reports whether e's snapshot is srv, with every client's
// keys: Holds without its fallback to hashing srv, for a caller that makes
// srv's own entry when it is not.
func (e *Entry) SameServer(srv canonical.Server) bool {
	return e.HasServer() && canonical.Equal(*e.Server, srv, extraClients(*e.Server, srv)...)
}

// extraClients lists the clients either server holds keys of.
func extraClients(a, b canonical.Server) []string {
	if len(a.Extra)+len(b.Extra) == 0 {
		return nil
	}
	out := make([]string, 0, len(a.Extra)+len(b.Extra))
	for c := range a.Extra {
		out = append(out, c)
	}
	for c := range b.Extra {
		if _, ok := a.Extra[c]; !ok {
			out = append(out, c)
		}
	}
	return out
}

// Renew is NewEntry(client, srv, at) for a server that e, the record of
// the same entry, may hold: then its hash is e's, not computed again (a
// no-op export renews every entry of every file). e may be nil.
func Renew(e *Entry, client string, srv canonical.Server, at time.Time) *Entry {
	if e == nil || !e.Holds(srv) {
		return NewEntry(client, srv, at)
	}
	snap := sharedSnapshot(srv)
	return &Entry{Client: client, Hash: e.Hash, Server: &snap, At: at}
}

// Snapshot returns srv in the form that is stored and hashed: a normalised
// deep copy without its Origin (where it was read is not part of what it is).
func Snapshot(srv canonical.Server) canonical.Server {
	s := srv.Clone()
	s.Normalize()
	s.Origin = canonical.Pos{}
	return s
}

// Hash returns a stable SHA-256 of the server's definition. Two servers that
// mean the same thing (canonical.Equal with every client's Extra) hash the same.
func Hash(srv canonical.Server) string { return hashSnapshot(sharedSnapshot(srv)) }

// hashSnapshot hashes a Snapshot; it compacts the snapshot's Extra values
// in place.
func hashSnapshot(s canonical.Server) string {
	// Extra values are compact JSON from the adapters; re-marshal them so
	// that spacing differences do not change the hash.
	for _, keys := range s.Extra {
		for k, raw := range keys {
			var v any
			if json.Unmarshal(raw, &v) == nil {
				if c, err := json.Marshal(v); err == nil {
					keys[k] = c
				}
			}
		}
	}
	sum := sha256.Sum256(jsonwrite.AppendServer(nil, &s)) // json.Marshal(s)'s bytes
	return hex.EncodeToString(sum[:])
}

// HashBytes returns the hex SHA-256 of data.
func HashBytes(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// New returns an empty state that Save writes to dir/state.json.
func New(dir string) *State {
	return &State{Version: Version, path: filepath.Join(dir, FileName), shared: &sharedSnapshots{}}
}

// Load reads dir/state.json. A missing file is an empty state.
func Load(dir string) (*State, error) {
	st := New(dir)
	data, err := os.ReadFile(st.path)
	if errors.Is(err, fs.ErrNotExist) {
		return st, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read mcpsync's state: %w", st.path, err)
	}
	if err := decodeState(data, st); err != nil {
		return nil, fmt.Errorf("%s: mcpsync's state file is damaged (%v); move it aside to start afresh "+
			"(mcpsync then no longer knows which entries it wrote, so --prune removes nothing until the next export)", st.path, err)
	}
	if err := st.settle(); err != nil {
		return nil, fmt.Errorf("%s: %w", st.path, err)
	}
	return st, nil
}

// settle makes a state just decoded (a state file, a backup's records)
// ready for use: refused when a newer mcpsync wrote it, else at this
// build's version, without null records, its entries holding their
// snapshots.
func (st *State) settle() error {
	if st.Version > Version {
		return fmt.Errorf("written by a newer mcpsync (state version %d, this one reads %d); upgrade mcpsync", st.Version, Version)
	}
	st.Version = Version
	st.dropNulls()
	st.linkSnapshots()
	return nil
}

// linkSnapshots gives every entry written without its server the snapshot
// of its hash (State.Snapshots), and lets the snapshots go. Entries of the
// same hash share its snapshot (a snapshot is never changed; see
// Entry.Server).
func (st *State) linkSnapshots() {
	shared := make(map[string]*canonical.Server, len(st.Snapshots))
	st.eachEntry(func(e *Entry) {
		if e.HasServer() {
			return
		}
		snap, ok := shared[e.Hash]
		if !ok {
			s, found := st.Snapshots[e.Hash]
			if !found || s.Name == "" {
				return
			}
			snap = &s
			shared[e.Hash] = snap
		}
		e.Server = snap
	})
	st.Snapshots = nil
}

// eachEntry calls f with every entry of the state: the managed entries of
// every file, every sync base, and two-way sync's records of what each
// client held and what it deleted. (A conflict's sides hold their servers
// themselves: they are few, and not entries.) Null records (a file, a
// section or an entry that is nil) are passed over.
func (st *State) eachEntry(f func(*Entry)) {
	each := func(entries map[string]*Entry) {
		for _, e := range entries {
			if e != nil {
				f(e)
			}
		}
	}
	for _, file := range st.Files {
		if file == nil {
			continue
		}
		for _, sec := range file.Sections {
			if sec != nil {
				each(sec.Managed)
			}
		}
	}
	for _, bases := range st.Bases {
		each(bases)
	}
	for _, s := range st.Sync {
		if s == nil {
			continue
		}
		for _, entries := range s.Clients {
			each(entries)
		}
		each(s.Deleted)
	}
}

// snapshots is every snapshot the state's entries keep in State.Snapshots
// (Entry.inSnapshots), by hash, each once; most is the room to make.
func (st *State) snapshots(most int) map[string]*canonical.Server {
	snaps := make(map[string]*canonical.Server, most)
	st.eachEntry(func(e *Entry) {
		if e.inSnapshots() {
			if _, ok := snaps[e.Hash]; !ok {
				snaps[e.Hash] = e.Server
			}
		}
	})
	return snaps
}

// Path is where Save writes.
func (st *State) Path() string { return st.path }

// Save writes the state atomically with mode 0600: each snapshot once
// (State.Snapshots), as compact JSON (it is mcpsync's own file, read and
// written on every run; 'mcpsync status --json' is the view for people).
func (st *State) Save() error {
	if err := atomicfile.Write(st.path, 0o600, st.writeJSON); err != nil {
		return fmt.Errorf("%s: cannot save mcpsync's state: %w", st.path, err)
	}
	return nil
}

// writeJSON writes the state to f as Save saves it.
func (st *State) writeJSON(f io.Writer) error {
	// Two at once: this goroutine writes the records of files, bases and
	// sync while another gathers the snapshots they point to and encodes
	// them, handing its text over a chunk at a time (saveChunk), at most
	// snapChunksAhead chunks ahead. One after the other they were a
	// single processor's 40 ms at the end of an export of 10,000 servers
	// to four clients (BenchmarkSave).
	most, n := 0, 0
	for _, f := range st.Files {
		for _, sec := range f.Sections {
			most, n = max(most, len(sec.Managed)), n+len(sec.Managed)
		}
	}
	for _, bases := range st.Bases {
		n += len(bases)
	}
	snapText := make(chan []byte, snapChunksAhead)
	stop := make(chan struct{})
	go func() {
		defer close(snapText)
		st.snapshotText(snapText, stop, most)
	}()
	defer func() {
		close(stop)
		for range snapText { // let it finish, if the write stopped early
		}
	}()
	// The entries are written without their servers, which are in
	// snapshots: moving each server out of its entry and back, as this
	// did, was about a quarter of the time a save of 10,000 servers took
	// (BenchmarkSave).
	w := stateJSON{bySnapshot: true, snapsAfter: true, times: &timeMemo{}, names: &nameOrder{}, out: f}
	rest, err := w.state(make([]byte, 0, min(256*n+1024, saveChunk+64<<10)), st)
	if err != nil {
		return err
	}
	if _, err := f.Write(rest); err != nil {
		return err
	}
	for chunk := range snapText {
		if _, err := f.Write(chunk); err != nil {
			return err
		}
	}
	_, err = f.Write([]byte("}\n"))
	return err
}

// snapChunksAhead is how many chunks of snapshots Save's encoder may make
// before the file takes them: what it holds beyond the file's own buffer.
const snapChunksAhead = 4

// snapshotText sends the state's snapshots member (",\"snapshots\":{…}",
// nothing when no entry has one) to out a chunk at a time: each snapshot
// once, by its hash, found in one pass over the entries. By pointer:
// entries share their snapshots, and the servers were copied into the map
// and sorted as 288-byte members (BenchmarkSave). A server is in several
// files, as one snapshot: the largest file holds about as many as there
// are. It stops when stop is closed.
func (st *State) snapshotText(out chan<- []byte, stop <-chan struct{}, most int) {
	snaps := st.snapshots(most)
	if len(snaps) == 0 {
		return
	}
	w := stateJSON{out: chunkSender{out, stop}}
	b := append(jsonwrite.AppendString(append(make([]byte, 0, min(512*len(snaps)+64, saveChunk+64<<10)), ','), "snapshots"), ':')
	b, err := w.snapshots(b, snaps)
	if err == nil {
		chunkSender{out, stop}.Write(b)
	}
}

// chunkSender sends a copy of each write (the writer reuses its buffer)
// until stop is closed, and then fails.
type chunkSender struct {
	out  chan<- []byte
	stop <-chan struct{}
}

func (c chunkSender) Write(p []byte) (int, error) {
	select {
	case c.out <- slices.Clone(p):
		return len(p), nil
	case <-c.stop:
		return 0, errSaveStopped
	}
}

var errSaveStopped = errors.New("the state's save stopped")

// inSnapshots reports whether Save keeps e's server in State.Snapshots
// rather than in the entry: it has one, and its hash.
func (e *Entry) inSnapshots() bool { return e.HasServer() && e.Hash != "" }

// HasServer reports whether e holds a snapshot of its server.
func (e *Entry) HasServer() bool { return e.Server != nil && e.Server.Name != "" }

// File returns what is known about path, or nil.
func (st *State) File(path string) *File { return st.Files[path] }

// EnsureFile returns the record for path, creating an empty one.
func (st *State) EnsureFile(path string) *File {
	if st.Files == nil {
		st.Files = map[string]*File{}
	}
	f := st.Files[path]
	if f == nil {
		f = &File{}
		st.Files[path] = f
		st.changes++
	}
	return f
}

// SetFile replaces what is known about path with f (a restore puts back
// what was known when the file held the restored bytes); nil forgets it.
func (st *State) SetFile(path string, f *File) {
	if f == nil {
		st.RemoveFile(path)
		return
	}
	if st.Files == nil {
		st.Files = map[string]*File{}
	}
	st.Files[path] = f.Clone()
	st.changes++
}

// Clone returns a deep copy of f; nil for nil.
func (f *File) Clone() *File {
	if f == nil {
		return nil
	}
	c := *f
	c.AddedKeys = maps.Clone(f.AddedKeys)
	if f.AddedSideKeys != nil {
		c.AddedSideKeys = make(map[string][]string, len(f.AddedSideKeys))
		for k, v := range f.AddedSideKeys {
			c.AddedSideKeys[k] = slices.Clone(v)
		}
	}
	c.CreatedDirs = slices.Clone(f.CreatedDirs)
	if f.Sections != nil {
		c.Sections = make(map[string]*Section, len(f.Sections))
		for k, sec := range f.Sections {
			ns := &Section{}
			if sec != nil && sec.Managed != nil {
				ns.Managed = make(map[string]*Entry, len(sec.Managed))
				for n, e := range sec.Managed {
					if e == nil {
						continue
					}
					ec := *e // its snapshot is shared: it is never changed
					ns.Managed[n] = &ec
				}
			}
			c.Sections[k] = ns
		}
	}
	return &c
}

// RecordKeys notes that a write added n keys leading to a section's
// server map (n > 0), or removed those mcpsync had added (removed).
func (f *File) RecordKeys(section string, n int, removed bool) {
	switch {
	case removed:
		delete(f.AddedKeys, section)
		if len(f.AddedKeys) == 0 {
			f.AddedKeys = nil
		}
	case n > f.AddedKeys[section]:
		if f.AddedKeys == nil {
			f.AddedKeys = map[string]int{}
		}
		f.AddedKeys[section] = n
	}
}

// RecordSideKeys notes that a write added the side keys added beside a
// section's server map, and that those of gone are no longer in the file.
func (f *File) RecordSideKeys(section string, added, gone []string) {
	keys := slices.DeleteFunc(slices.Clone(f.AddedSideKeys[section]), func(k string) bool { return slices.Contains(gone, k) })
	for _, k := range added {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	if len(keys) > 0 {
		if f.AddedSideKeys == nil {
			f.AddedSideKeys = map[string][]string{}
		}
		f.AddedSideKeys[section] = keys
		return
	}
	delete(f.AddedSideKeys, section)
	if len(f.AddedSideKeys) == 0 {
		f.AddedSideKeys = nil
	}
}

// RemoveFile forgets path (after mcpsync removed the file).
func (st *State) RemoveFile(path string) {
	if _, ok := st.Files[path]; ok {
		st.changes++
	}
	delete(st.Files, path)
}

// Changes counts the changes made through the setters (SetManaged,
// Forget, SetBase, RemoveBase, SetFile, EnsureFile, RemoveFile and the sync
// records'): a caller compares it before and after recording, to save the
// state only when that changed it, without encoding it twice. A record
// changed in place (File's fields) is not counted: that caller writes the
// file then, and saves anyway.
func (st *State) Changes() int { return st.changes }

// sameEntry reports whether two records say the same, their time included.
func sameEntry(a, b *Entry) bool {
	return a != nil && b != nil && a.Hash == b.Hash && a.Client == b.Client && a.Source == b.Source && a.From == b.From && a.At.Equal(b.At)
}

// Managed returns the managed entries of one server map, or nil. The map
// must not be modified; use SetManaged and Forget.
func (st *State) Managed(path, section string) map[string]*Entry {
	f := st.Files[path]
	if f == nil || f.Sections[section] == nil {
		return nil
	}
	return f.Sections[section].Managed
}

// IsManaged reports whether mcpsync wrote the named entry there.
func (st *State) IsManaged(path, section, name string) bool {
	_, ok := st.Managed(path, section)[name]
	return ok
}

// SetManaged records that mcpsync wrote e as name in the server map.
func (st *State) SetManaged(path, section, name string, e *Entry) {
	s := st.ensureSection(path, section)
	if s.Managed == nil {
		s.Managed = map[string]*Entry{}
	}
	if !sameEntry(s.Managed[name], e) {
		st.changes++
	}
	s.Managed[name] = e
}

// AdoptManaged makes m the managed entries of a section that has none,
// and reports whether it did: a file's first export records every server
// in it, and copying them one by one into a new map was most of the time
// Apply took to record an export of 10,000 servers to four clients. m is
// the state's from then on.
func (st *State) AdoptManaged(path, section string, m map[string]*Entry) bool {
	s := st.ensureSection(path, section)
	if len(s.Managed) > 0 {
		return false
	}
	s.Managed = m
	st.changes += len(m)
	return true
}

// ensureSection returns the record of a section of path, creating it
// (and the file's) when there is none.
func (st *State) ensureSection(path, section string) *Section {
	f := st.EnsureFile(path)
	if f.Sections == nil {
		f.Sections = map[string]*Section{}
	}
	s := f.Sections[section]
	if s == nil {
		s = &Section{}
		f.Sections[section] = s
	}
	return s
}

// Forget drops the managed record of name (the entry was removed, or is no
// longer mcpsync's).
func (st *State) Forget(path, section, name string) {
	f := st.Files[path]
	if f == nil || f.Sections[section] == nil {
		return
	}
	if _, ok := f.Sections[section].Managed[name]; ok {
		st.changes++
	}
	delete(f.Sections[section].Managed, name)
	if len(f.Sections[section].Managed) == 0 {
		delete(f.Sections, section)
	}
}

// ManagedNames returns the managed entry names of a server map, sorted.
func (st *State) ManagedNames(path, section string) []string {
	m := st.Managed(path, section)
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Base returns the sync base of a store server, or nil.
func (st *State) Base(storePath, name string) *Entry { return st.Bases[storePath][name] }

// SetBase records what was last synced for a store server.
func (st *State) SetBase(storePath, name string, e *Entry) {
	if st.Bases == nil {
		st.Bases = map[string]map[string]*Entry{}
	}
	if st.Bases[storePath] == nil {
		st.Bases[storePath] = map[string]*Entry{}
	}
	if !sameEntry(st.Bases[storePath][name], e) {
		st.changes++
	}
	st.Bases[storePath][name] = e
}

// RemoveBase forgets a store server's base (it was removed from the store).
func (st *State) RemoveBase(storePath, name string) {
	if _, ok := st.Bases[storePath][name]; ok {
		st.changes++
	}
	delete(st.Bases[storePath], name)
	if len(st.Bases[storePath]) == 0 {
		delete(st.Bases, storePath)
	}
}

// Snap returns a copy of e's snapshot: a zero server when it has none
// (an entry read from a file that gave none).
func (e *Entry) Snap() canonical.Server {
	if e.Server == nil {
		return canonical.Server{}
	}
	return *e.Server
}
