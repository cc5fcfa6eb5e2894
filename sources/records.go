package sources

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/atomicfile"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/store"
)

// RecordsFile is the file in mcpsync's state directory that remembers each
// source's last good pull and the approvals.
const RecordsFile = "sources.json"

// RecordsVersion is the schema version of RecordsFile; a newer one is
// refused rather than misread.
const RecordsVersion = 1

// Records is RecordsFile: per source name, what the last good pull read
// and which content the user approved.
type Records struct {
	Version int                `json:"version"`
	Sources map[string]*Record `json:"sources,omitempty"`

	path string
}

// Record is one source's last good pull and its approvals.
type Record struct {
	// Git, Ref and Path are the source as it was when pulled.
	Git  string `json:"git"`
	Ref  string `json:"ref,omitempty"`
	Path string `json:"path,omitempty"`
	// Commit is the commit the servers were read from.
	Commit   string    `json:"commit"`
	PulledAt time.Time `json:"pulledAt"`
	// Servers are the source's servers under their own names, as read, in
	// the source's order; each with the hash of its content.
	Servers []*ledger.Entry `json:"servers"`
	// Approved holds, per server name, the content the user approved.
	// A server is in effect only as approved; a server whose content hash
	// differs from its approval is pending.
	Approved map[string]*ledger.Entry `json:"approved,omitempty"`
	// LastError is the last pull that failed since the last good one: the
	// last good pull stays in effect.
	LastError *PullError `json:"lastError,omitempty"`
}

// PullError is a failed pull.
type PullError struct {
	At      time.Time `json:"at"`
	Message string    `json:"message"`
}

// LoadRecords reads stateDir/sources.json; a missing file is empty records.
func LoadRecords(stateDir string) (*Records, error) {
	r := &Records{Version: RecordsVersion, path: filepath.Join(stateDir, RecordsFile)}
	data, err := os.ReadFile(r.path)
	if errors.Is(err, fs.ErrNotExist) {
		return r, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read the sources' records: %w", r.path, err)
	}
	if err := json.Unmarshal(data, r); err != nil {
		return nil, fmt.Errorf("%s: the sources' records are damaged (%v); move the file aside and run 'mcpsync pull' "+
			"(every source server is then pending approval again)", r.path, err)
	}
	if r.Version > RecordsVersion {
		return nil, fmt.Errorf("%s: written by a newer mcpsync (version %d, this one reads %d); upgrade mcpsync", r.path, r.Version, RecordsVersion)
	}
	r.Version = RecordsVersion
	return r, nil
}

// Path is where Save writes.
func (r *Records) Path() string { return r.path }

// Save writes the records atomically (0600). The caller holds the state
// lock (ledger.Acquire on the same directory).
func (r *Records) Save() error {
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(r.path, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("%s: cannot save the sources' records: %w", r.path, err)
	}
	return nil
}

// Get returns the record of a source, or nil when it was never pulled.
func (r *Records) Get(name string) *Record { return r.Sources[name] }

// Forget drops a source's record (the source was removed from the store).
func (r *Records) Forget(name string) bool {
	_, ok := r.Sources[name]
	delete(r.Sources, name)
	return ok
}

// Keep drops the records of every source not named, and returns the names dropped.
func (r *Records) Keep(names []string) []string {
	keep := map[string]bool{}
	for _, n := range names {
		keep[n] = true
	}
	var dropped []string
	for _, n := range mapkeys.Sorted(r.Sources) {
		if !keep[n] {
			delete(r.Sources, n)
			dropped = append(dropped, n)
		}
	}
	return dropped
}

// Change is what a pull did to one server.
type Change string

const (
	// Added: the server was not in the previous pull.
	Added Change = "new"
	// Modified: the server's content differs from the previous pull.
	Modified Change = "changed"
	// Same: the server is as in the previous pull.
	Same Change = "unchanged"
	// Dropped: the server was in the previous pull and is gone upstream.
	Dropped Change = "removed"
)

// PullResult is one server's outcome of a pull.
type PullResult struct {
	Name      string `json:"name"`
	Qualified string `json:"qualified"`
	Change    Change `json:"change"`
	// Approved says whether the content pulled is the approved content.
	Approved bool `json:"approved"`
}

// Update records a good pull of src: its commit and servers. Approvals of
// servers that are gone upstream are dropped, so that a server that comes
// back later is pending again. It returns each server's outcome, in the
// source's order, removed servers last.
func (r *Records) Update(src store.Source, commit string, servers canonical.Set, at time.Time) []PullResult {
	if r.Sources == nil {
		r.Sources = map[string]*Record{}
	}
	old := r.Sources[src.Name]
	rec := &Record{Git: src.Git, Ref: src.Ref, Path: src.Path, Commit: commit, PulledAt: at.UTC()}
	before := map[string]*ledger.Entry{}
	if old != nil {
		rec.Approved = old.Approved
		for _, e := range old.Servers {
			before[e.Snap().Name] = e
		}
	}
	var out []PullResult
	seen := map[string]bool{}
	for _, srv := range servers.Servers {
		e := ledger.NewEntry("", srv, time.Time{})
		rec.Servers = append(rec.Servers, e)
		seen[srv.Name] = true
		change := Added
		if prev := before[srv.Name]; prev != nil {
			change = Modified
			if prev.Hash == e.Hash {
				change = Same
			}
		}
		ok := rec.Approved[srv.Name] != nil && rec.Approved[srv.Name].Hash == e.Hash
		out = append(out, PullResult{Name: srv.Name, Qualified: QualifiedName(src.Name, srv.Name), Change: change, Approved: ok})
	}
	if old != nil {
		for _, e := range old.Servers {
			if !seen[e.Snap().Name] {
				out = append(out, PullResult{Name: e.Snap().Name, Qualified: QualifiedName(src.Name, e.Snap().Name), Change: Dropped})
			}
		}
	}
	for name := range rec.Approved {
		if !seen[name] {
			delete(rec.Approved, name)
		}
	}
	if len(rec.Approved) == 0 {
		rec.Approved = nil
	}
	r.Sources[src.Name] = rec
	return out
}

// Failed records a failed pull of a source that was pulled before; its last
// good pull stays in effect. A source never pulled has nothing to keep, and
// no record is made.
func (r *Records) Failed(name, message string, at time.Time) {
	if rec := r.Sources[name]; rec != nil {
		rec.LastError = &PullError{At: at.UTC(), Message: message}
	}
}

// Approval is where one source server stands.
type Approval string

const (
	// Approved: the pulled content is the approved content; it is exported.
	Approved Approval = "approved"
	// PendingNew: never approved; it is not exported.
	PendingNew Approval = "pending-new"
	// PendingChange: the pulled content differs from the approved one; the
	// approved content stays exported until the change is approved.
	PendingChange Approval = "pending-change"
)

// ServerStatus is one source server's approval ledger.
type ServerStatus struct {
	Source    string   `json:"source"`
	Name      string   `json:"name"`
	Qualified string   `json:"qualified"`
	Approval  Approval `json:"approval"`
	// Hash is the pulled content's hash; ApprovedHash the approved one's.
	Hash         string `json:"hash"`
	ApprovedHash string `json:"approvedHash,omitempty"`
	// Pulled is the content of the last good pull; Approval is the
	// approved content (nil when never approved), both under the source's
	// own name.
	Pulled       canonical.Server  `json:"-"`
	ApprovedAs   *canonical.Server `json:"-"`
	ApprovedAt   time.Time         `json:"approvedAt,omitzero"`
	PulledCommit string            `json:"commit"`
}

// Pending reports whether the server waits for approval.
func (s ServerStatus) Pending() bool { return s.Approval != Approved }

// Statuses returns the approval state of every server of the source's last
// good pull, in the source's order; nil when it was never pulled.
func (r *Records) Statuses(source string) []ServerStatus {
	rec := r.Sources[source]
	if rec == nil {
		return nil
	}
	out := make([]ServerStatus, 0, len(rec.Servers))
	for _, e := range rec.Servers {
		st := ServerStatus{Source: source, Name: e.Snap().Name, Qualified: QualifiedName(source, e.Snap().Name),
			Hash: e.Hash, Pulled: e.Snap(), PulledCommit: rec.Commit, Approval: PendingNew}
		if a := rec.Approved[e.Snap().Name]; a != nil {
			srv := a.Snap()
			st.ApprovedAs, st.ApprovedHash, st.ApprovedAt = &srv, a.Hash, a.At
			st.Approval = PendingChange
			if a.Hash == e.Hash {
				st.Approval = Approved
			}
		}
		out = append(out, st)
	}
	return out
}

// Approve records the content of the source's last good pull of server as
// approved. It reports false when the source has no such server.
func (r *Records) Approve(source, server string, at time.Time) bool {
	rec := r.Sources[source]
	if rec == nil {
		return false
	}
	for _, e := range rec.Servers {
		if e.Snap().Name == server {
			if rec.Approved == nil {
				rec.Approved = map[string]*ledger.Entry{}
			}
			approved := *e
			approved.At = at.UTC()
			rec.Approved[server] = &approved
			return true
		}
	}
	return false
}

// InEffect returns the servers of a source that clients get, under their
// qualified names, in the source's order: each approved server as approved
// (a pending change leaves the approved content in effect; a server never
// approved is left out). Origin points at the source's block in the store.
func (r *Records) InEffect(src store.Source) []canonical.Server {
	var out []canonical.Server
	for _, st := range r.Statuses(src.Name) {
		if st.ApprovedAs == nil {
			continue
		}
		srv := st.ApprovedAs.Clone()
		srv.Name = st.Qualified
		srv.Origin = src.Pos
		out = append(out, srv)
	}
	return out
}

// Names returns the recorded source names, sorted.
func (r *Records) Names() []string {
	return mapkeys.Sorted(r.Sources)
}
