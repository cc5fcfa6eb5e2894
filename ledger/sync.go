package ledger

import (
	"sort"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// Sync is what two-way sync remembers about one store, beyond the bases:
//
//   - Clients: per client section (ClientKey), per server, the entry as
//     that client held it at the end of the last sync (as the client reads
//     it back). A client entry that differs from it was edited since; one
//     that equals it is merely behind and follows the others.
//   - Deleted: servers removed by a sync, with the base they had. A client
//     that still holds such a server unchanged (an entry mcpsync did not
//     write, which it never removes) does not bring it back.
//   - Conflicts: servers changed differently on several sides, left alone
//     until 'mcpsync resolve' settles them or the sides agree again.
//
// State files written before sync existed have no Sync; every accessor
// treats a missing record as empty.
type Sync struct {
	Clients   map[string]map[string]*Entry `json:"clients,omitempty"`
	Deleted   map[string]*Entry            `json:"deleted,omitempty"`
	Conflicts map[string]*Conflict         `json:"conflicts,omitempty"`
}

// Conflict is one open sync conflict: every side's version when it was found.
type Conflict struct {
	At    time.Time      `json:"at,omitzero"`
	Sides []ConflictSide `json:"sides"`
}

// ConflictSide is one side's version of a conflicting server: a client (or
// the store) that changed it, or removed it (Removed, no Server).
type ConflictSide struct {
	Side    string            `json:"side"`
	Path    string            `json:"path,omitempty"`
	Removed bool              `json:"removed,omitempty"`
	Server  *canonical.Server `json:"server,omitempty"`
	// Own marks a client entry mcpsync had never synced, different from
	// what the other sides agreed on.
	Own bool `json:"own,omitempty"`
}

// ClientKey names one client section in Sync.Clients: the file's path, and
// the project for Claude Code's per-project sections.
func ClientKey(path, section string) string {
	if section == "" {
		return path
	}
	return path + " [project " + section + "]"
}

// SyncFor returns the sync record of a store, or nil. The result must not be
// modified; use the Set/Forget methods.
func (st *State) SyncFor(storePath string) *Sync { return st.Sync[storePath] }

func (st *State) ensureSync(storePath string) *Sync {
	if st.Sync == nil {
		st.Sync = map[string]*Sync{}
	}
	s := st.Sync[storePath]
	if s == nil {
		s = &Sync{}
		st.Sync[storePath] = s
	}
	return s
}

// dropEmptySync removes a store's record once it holds nothing.
func (st *State) dropEmptySync(storePath string) {
	s := st.Sync[storePath]
	if s != nil && len(s.Clients) == 0 && len(s.Deleted) == 0 && len(s.Conflicts) == 0 {
		delete(st.Sync, storePath)
	}
	if len(st.Sync) == 0 {
		st.Sync = nil
	}
}

// ClientBase returns what the client section held for the server at the
// last sync, or nil.
func (st *State) ClientBase(storePath, clientKey, name string) *Entry {
	s := st.Sync[storePath]
	if s == nil {
		return nil
	}
	return s.Clients[clientKey][name]
}

// SetClientBase records what the client section holds for the server after a sync.
func (st *State) SetClientBase(storePath, clientKey, name string, e *Entry) {
	s := st.ensureSync(storePath)
	if s.Clients == nil {
		s.Clients = map[string]map[string]*Entry{}
	}
	if s.Clients[clientKey] == nil {
		s.Clients[clientKey] = map[string]*Entry{}
	}
	if !sameEntry(s.Clients[clientKey][name], e) {
		st.changes++
	}
	s.Clients[clientKey][name] = e
}

// ForgetClientBase drops the record of a server in a client section.
func (st *State) ForgetClientBase(storePath, clientKey, name string) {
	s := st.Sync[storePath]
	if s == nil || s.Clients[clientKey] == nil {
		return
	}
	if _, ok := s.Clients[clientKey][name]; ok {
		st.changes++
	}
	delete(s.Clients[clientKey], name)
	if len(s.Clients[clientKey]) == 0 {
		delete(s.Clients, clientKey)
	}
	st.dropEmptySync(storePath)
}

// HasClientBase reports whether any client section of the store still has
// a record of the server.
func (st *State) HasClientBase(storePath, name string) bool {
	s := st.Sync[storePath]
	if s == nil {
		return false
	}
	for _, servers := range s.Clients {
		if _, ok := servers[name]; ok {
			return true
		}
	}
	return false
}

// ManagedAnywhere reports whether mcpsync manages an entry of that name in
// any client file.
func (st *State) ManagedAnywhere(name string) bool {
	for _, f := range st.Files {
		for _, sec := range f.Sections {
			if _, ok := sec.Managed[name]; ok {
				return true
			}
		}
	}
	return false
}

// Deleted returns the base a server had when a sync removed it, or nil.
func (st *State) Deleted(storePath, name string) *Entry {
	s := st.Sync[storePath]
	if s == nil {
		return nil
	}
	return s.Deleted[name]
}

// SetDeleted records that a sync removed the server, whose base was e.
func (st *State) SetDeleted(storePath, name string, e *Entry) {
	s := st.ensureSync(storePath)
	if s.Deleted == nil {
		s.Deleted = map[string]*Entry{}
	}
	if !sameEntry(s.Deleted[name], e) {
		st.changes++
	}
	s.Deleted[name] = e
}

// ForgetDeleted drops the record of a removed server.
func (st *State) ForgetDeleted(storePath, name string) {
	if s := st.Sync[storePath]; s != nil {
		if _, ok := s.Deleted[name]; ok {
			st.changes++
		}
		delete(s.Deleted, name)
		st.dropEmptySync(storePath)
	}
}

// Conflict returns the open conflict of a server, or nil.
func (st *State) Conflict(storePath, name string) *Conflict {
	s := st.Sync[storePath]
	if s == nil {
		return nil
	}
	return s.Conflicts[name]
}

// SetConflict records an open conflict.
func (st *State) SetConflict(storePath, name string, c *Conflict) {
	s := st.ensureSync(storePath)
	if s.Conflicts == nil {
		s.Conflicts = map[string]*Conflict{}
	}
	st.changes++ // a conflict is recorded only when it is new or changed
	s.Conflicts[name] = c
}

// ForgetConflict drops a settled conflict.
func (st *State) ForgetConflict(storePath, name string) {
	if s := st.Sync[storePath]; s != nil {
		if _, ok := s.Conflicts[name]; ok {
			st.changes++
		}
		delete(s.Conflicts, name)
		st.dropEmptySync(storePath)
	}
}

// ConflictNames returns the servers with an open conflict, sorted.
func (st *State) ConflictNames(storePath string) []string {
	s := st.Sync[storePath]
	if s == nil {
		return nil
	}
	names := make([]string, 0, len(s.Conflicts))
	for n := range s.Conflicts {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// DeletedNames returns the servers recorded as removed by a sync, sorted.
func (st *State) DeletedNames(storePath string) []string {
	s := st.Sync[storePath]
	if s == nil {
		return nil
	}
	names := make([]string, 0, len(s.Deleted))
	for n := range s.Deleted {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// BaseNames returns the servers with a sync base for the store, sorted.
func (st *State) BaseNames(storePath string) []string {
	names := make([]string, 0, len(st.Bases[storePath]))
	for n := range st.Bases[storePath] {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// SyncedNames returns, sorted, every server mcpsync knows a client section
// held: the entries it wrote there and those a sync of the store recorded
// there.
func (st *State) SyncedNames(storePath, path, section string) []string {
	seen := map[string]bool{}
	for n := range st.Managed(path, section) {
		seen[n] = true
	}
	if s := st.Sync[storePath]; s != nil {
		for n := range s.Clients[ClientKey(path, section)] {
			seen[n] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
