package engine

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters/unidiff"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
)

// Status is what status shows: the team sources, the servers pending
// approval, the files mcpsync manages.
type Status struct {
	Store        string         `json:"store"`
	Sources      []SourceStatus `json:"sources"`
	Pending      int            `json:"pending"`
	ManagedFiles []ManagedFile  `json:"managedFiles"`
}

type SourceStatus struct {
	Name string `json:"name"`
	Git  string `json:"git"`
	Ref  string `json:"ref,omitempty"`
	Path string `json:"path,omitempty"`
	// Pulled is the last good pull; nil when the source was never pulled.
	Pulled *Pull `json:"pulled,omitempty"`
	// Moved says that the store names another repository, ref or path
	// than the one pulled: the next pull reads the new one.
	Moved     bool                   `json:"moved,omitempty"`
	LastError *sources.PullError     `json:"lastError,omitempty"`
	Servers   []SourceServer         `json:"servers"`
	Files     []string               `json:"files,omitempty"`
	Statuses  []sources.ServerStatus `json:"-"`
}

type Pull struct {
	Commit string    `json:"commit"`
	At     time.Time `json:"at"`
	Git    string    `json:"git"`
	Ref    string    `json:"ref,omitempty"`
	Path   string    `json:"path,omitempty"`
}

type SourceServer struct {
	sources.ServerStatus
	// Diff is from the approved version to the pulled one, for pending servers.
	Diff string `json:"diff,omitempty"`
}

type ManagedFile struct {
	Path    string         `json:"path"`
	Display string         `json:"display"`
	Exists  bool           `json:"exists"`
	Created bool           `json:"created,omitempty"`
	Entries []ManagedEntry `json:"entries"`
}

type ManagedEntry struct {
	Name    string `json:"name"`
	Client  string `json:"client,omitempty"`
	Section string `json:"section,omitempty"`
	Source  string `json:"source,omitempty"`
}

// Status is where the user store's team sources and the files mcpsync
// manages stand.
func (e *Engine) Status() (*store.Store, *Status, error) {
	st, _, err := e.OpenStore(canonical.ScopeUser)
	if err != nil {
		return nil, nil, err
	}
	recs, err := sources.LoadRecords(e.Dirs.State)
	if err != nil {
		return nil, nil, err
	}
	ms, err := ledger.Load(e.Dirs.State)
	if err != nil {
		return nil, nil, err
	}
	out := &Status{Store: st.Path, Sources: []SourceStatus{}}
	owner := map[string]string{} // qualified name → source
	for _, src := range st.Sources {
		s := SourceStatus{Name: src.Name, Git: src.Git, Ref: src.Ref, Path: src.Path, Servers: []SourceServer{}}
		if rec := recs.Get(src.Name); rec != nil {
			s.Pulled = &Pull{Commit: rec.Commit, At: rec.PulledAt, Git: rec.Git, Ref: rec.Ref, Path: rec.Path}
			s.Moved = rec.Git != src.Git || rec.Ref != src.Ref || rec.Path != src.Path
			s.LastError = rec.LastError
		}
		s.Statuses = recs.Statuses(src.Name)
		for _, ss := range s.Statuses {
			owner[ss.Qualified] = src.Name
			j := SourceServer{ServerStatus: ss}
			if ss.Pending() {
				out.Pending++
				j.Diff = approvalDiff(ss)
			}
			s.Servers = append(s.Servers, j)
		}
		out.Sources = append(out.Sources, s)
	}
	out.ManagedFiles = e.managedFiles(ms, owner)
	for i := range out.Sources {
		s := &out.Sources[i]
		for _, f := range out.ManagedFiles {
			for _, e := range f.Entries {
				if e.Source == s.Name {
					s.Files = append(s.Files, f.Path)
					break
				}
			}
		}
	}
	return st, out, nil
}

// approvalDiff is a unified diff of a server from its approved version to
// the pulled one, both written as store blocks under the name clients see;
// a server never approved is all additions.
func approvalDiff(s sources.ServerStatus) string {
	var before []byte
	approvedLabel := "(never approved)"
	if s.ApprovedAs != nil {
		old := s.ApprovedAs.Clone()
		old.Name = s.Qualified
		before = store.Format(old)
		approvedLabel = "(approved " + s.ApprovedAt.Format(time.RFC3339) + ")"
	}
	cur := s.Pulled.Clone()
	cur.Name = s.Qualified
	d := unidiff.Diff(unidiff.File{Name: s.Qualified, Data: before, Absent: s.ApprovedAs == nil},
		unidiff.File{Name: s.Qualified, Data: store.Format(cur)}, unidiff.Options{})
	// Keep the hunks; the file headers of a git diff mean nothing here.
	i := strings.Index(d, "\n@@")
	if i < 0 {
		return ""
	}
	return fmt.Sprintf("--- %s %s\n+++ %s (pulled, commit %s)\n", s.Qualified, approvedLabel, s.Qualified, ShortHash(s.PulledCommit)) + d[i+1:]
}

// managedFiles lists the client files the state says mcpsync wrote entries
// into, with those entries; owner marks the ones a source gave.
func (e *Engine) managedFiles(ms *ledger.State, owner map[string]string) []ManagedFile {
	out := []ManagedFile{}
	paths := make([]string, 0, len(ms.Files))
	for p := range ms.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		f := ms.Files[p]
		mf := ManagedFile{Path: p, Display: e.Display(p), Exists: exists(p), Created: f.Created, Entries: []ManagedEntry{}}
		sections := make([]string, 0, len(f.Sections))
		for sec := range f.Sections {
			sections = append(sections, sec)
		}
		sort.Strings(sections)
		for _, sec := range sections {
			for _, name := range ms.ManagedNames(p, sec) {
				e := ms.Managed(p, sec)[name]
				mf.Entries = append(mf.Entries, ManagedEntry{Name: name, Client: e.Client, Section: sec, Source: owner[name]})
			}
		}
		if len(mf.Entries) > 0 {
			out = append(out, mf)
		}
	}
	return out
}
