package emitters

import (
	"sync"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/ledger"
)

// storeEntries is, for each store server an export writes, its snapshot
// and hash, made once (by the first file that needs it) and shared by
// every file's entries of it and by its sync base. Each file made its own:
// a lookup in the state's shared snapshots under a lock, hashing anew where
// two files planned at once both missed, and, where the client holds the
// server in its own spelling, the store definition's hash again for
// WrittenFrom; then the bases hashed or compared once more, one after the
// other, after the writes.
//
// It is safe for concurrent use: files are planned side by side.
type storeEntries struct {
	st      *ledger.State
	servers *canonical.Indexed
	once    []sync.Once
	entries []*ledger.Entry
}

func newStoreEntries(st *ledger.State, servers *canonical.Indexed) *storeEntries {
	n := len(servers.Set.Servers)
	return &storeEntries{st: st, servers: servers, once: make([]sync.Once, n), entries: make([]*ledger.Entry, n)}
}

// of returns the entry of the store server name, with no client and no
// time (an entry to copy, never to record as it is); nil for a name the
// store does not hold.
func (s *storeEntries) of(name string) *ledger.Entry {
	if s == nil {
		return nil
	}
	i := s.servers.Index(name)
	if i < 0 {
		return nil
	}
	s.once[i].Do(func() { s.entries[i] = s.st.NewEntry("", s.servers.Set.Servers[i], time.Time{}) })
	return s.entries[i]
}

// entry returns a new entry of client for srv: sharing the snapshot of
// the store server of its name when srv is the same server, else one of
// the state's (ledger.State.NewEntry).
func (s *storeEntries) entry(client string, srv canonical.Server) *ledger.Entry {
	if base := s.of(srv.Name); base != nil && base.SameServer(srv) {
		return &ledger.Entry{Client: client, Hash: base.Hash, Server: base.Server}
	}
	return s.st.NewEntry(client, srv, time.Time{})
}
