package ledger

import (
	"sync"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// sharedSnapshots lets the entries of one state share a snapshot, and its
// hash, when their servers are the same: a server written to 21 clients'
// files reads back the same from most of them, and each entry took a
// normalised deep copy of its own and hashed it (a quarter of the memory
// an export of 10,000 servers to every client held once planned). A
// snapshot is never changed once made (an entry that changes
// gets a new one), so sharing it is safe; see Entry.Server.
//
// It is safe for concurrent use: files are planned side by side. It lives
// as long as its State, which is loaded for each run (and each watch
// cycle), so it holds no more than that run made.
type sharedSnapshots struct {
	mu     sync.Mutex
	byName map[string][]snapshot
}

// snapshot is a server as an entry holds it (Snapshot) and its hash.
type snapshot struct {
	hash string
	srv  *canonical.Server
}

// find returns a snapshot srv is Equal to (with every client's keys),
// which implies the same hash (FuzzHolds).
func (s *sharedSnapshots) find(srv canonical.Server) (snapshot, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, snap := range s.byName[srv.Name] {
		if canonical.Equal(*snap.srv, srv, extraClients(*snap.srv, srv)...) {
			return snap, true
		}
	}
	return snapshot{}, false
}

func (s *sharedSnapshots) add(snap snapshot) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byName == nil {
		s.byName = map[string][]snapshot{}
	}
	s.byName[snap.srv.Name] = append(s.byName[snap.srv.Name], snap)
}

// NewEntry is NewEntry, sharing the snapshot of an entry of st that holds
// the same server. A nil st, or one not made by New or Load, shares
// nothing.
func (st *State) NewEntry(client string, srv canonical.Server, at time.Time) *Entry {
	if st == nil || st.shared == nil {
		return NewEntry(client, srv, at)
	}
	if snap, ok := st.shared.find(srv); ok {
		return &Entry{Client: client, Hash: snap.hash, Server: snap.srv, At: at}
	}
	e := NewEntry(client, srv, at)
	st.shared.add(snapshot{e.Hash, e.Server})
	return e
}

// Renew is Renew, sharing snapshots as NewEntry does: an entry that still
// holds srv lends its own snapshot.
func (st *State) Renew(e *Entry, client string, srv canonical.Server, at time.Time) *Entry {
	if st == nil || st.shared == nil {
		return Renew(e, client, srv, at)
	}
	if e != nil && e.HasServer() && e.Holds(srv) {
		return &Entry{Client: client, Hash: e.Hash, Server: e.Server, At: at}
	}
	return st.NewEntry(client, srv, at)
}
