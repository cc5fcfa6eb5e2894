package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/sources"
	"github.com/mcpsync/mcpsync/store"
)

// Team sources: a git repository of servers an organisation shares, named
// in the user's store. Pull fetches each into a cache and records what it
// holds; a server reaches the clients only once approved.

// PullOutcome is one source's pull.
type PullOutcome struct {
	Name    string               `json:"name"`
	Git     string               `json:"git"`
	Ref     string               `json:"ref,omitempty"`
	Path    string               `json:"path,omitempty"`
	Commit  string               `json:"commit,omitempty"`
	Servers []sources.PullResult `json:"servers,omitempty"`
	// Error says why the source was not updated; InEffect then names the
	// commit of the last good pull still in effect ("" when none), pulled
	// at PulledAt.
	Error    string                `json:"error,omitempty"`
	InEffect string                `json:"inEffect,omitempty"`
	PulledAt time.Time             `json:"-"`
	Diags    canonical.Diagnostics `json:"diagnostics,omitempty"`
}

// PullResult is what a pull did.
type PullResult struct {
	Sources []PullOutcome `json:"sources"`
	// Pending counts the servers of the store's sources that wait for
	// approval.
	Pending int                   `json:"pending"`
	Diags   canonical.Diagnostics `json:"-"`
	Notes   []string              `json:"-"`
}

// Failed counts the sources that were not updated.
func (r *PullResult) Failed() int {
	n := 0
	for _, o := range r.Sources {
		if o.Error != "" {
			n++
		}
	}
	return n
}

// Pull fetches the named team sources of the user's store (all of them
// when none is named) and records what each holds now. A source that
// cannot be fetched, or whose servers do not read, keeps its last good
// pull in effect; it is an outcome with Error, not a failure of the pull.
func (e *Engine) Pull(ctx context.Context, names []string, timeout time.Duration) (*PullResult, error) {
	res := &PullResult{}
	st, ds, err := e.OpenStore(canonical.ScopeUser)
	res.Diags = ds
	if err != nil {
		return nil, err
	}
	srcs, err := e.selectSources(st, names)
	if err != nil {
		return nil, err
	}
	var bad canonical.Diagnostics
	for _, s := range srcs {
		bad = append(bad, sources.CheckSource(s)...)
	}
	if err := problems(bad, fmt.Sprintf("fix the source blocks in %s; nothing was pulled", e.StoreDisplay(st.Path))); err != nil {
		return nil, err
	}
	cacheDir := filepath.Join(e.Dirs.Cache, "sources")
	cacheLock, err := ledger.Acquire(cacheDir, e.LockWaitFor())
	if err != nil {
		return nil, fmt.Errorf("another 'mcpsync pull' is running: %w", err)
	}
	defer cacheLock.Unlock()
	type fetched struct {
		servers canonical.Set
		commit  string
	}
	got := make([]fetched, len(srcs))
	res.Sources = make([]PullOutcome, len(srcs))
	for i, src := range srcs {
		o := &res.Sources[i]
		*o = PullOutcome{Name: src.Name, Git: src.Git, Ref: src.Ref, Path: src.Path}
		co, err := sources.Fetch(ctx, src, sources.FetchOptions{CacheDir: cacheDir, BaseDir: filepath.Dir(st.Path), Timeout: timeout})
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			o.Error = err.Error()
			continue
		}
		set, ds := sources.Read(co.Dir, src.Path)
		o.Diags = ds
		if ds.HasErrors() {
			o.Error = fmt.Sprintf("commit %s is refused: %s", ShortHash(co.Commit), CountOf(len(ds.Errors()), "error"))
			continue
		}
		got[i] = fetched{set, co.Commit}
	}
	lock, recs, err := e.lockRecords()
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	now := time.Now()
	for i, src := range srcs {
		o := &res.Sources[i]
		if o.Error != "" {
			recs.Failed(src.Name, o.Error, now)
			if rec := recs.Get(src.Name); rec != nil {
				o.InEffect, o.PulledAt = rec.Commit, rec.PulledAt
			}
			continue
		}
		o.Commit = got[i].commit
		o.Servers = recs.Update(src, got[i].commit, got[i].servers, now)
	}
	if len(names) == 0 {
		var keep []string
		for _, s := range st.Sources {
			keep = append(keep, s.Name)
		}
		recs.Keep(keep) // sources removed from the store by hand
	}
	if err := recs.Save(); err != nil {
		return nil, err
	}
	for _, s := range st.Sources {
		for _, ss := range recs.Statuses(s.Name) {
			if ss.Pending() {
				res.Pending++
			}
		}
	}
	return res, nil
}

// lockRecords takes the lock of the state directory and reads the team
// sources' records under it; the caller unlocks.
func (e *Engine) lockRecords() (*ledger.Lock, *sources.Records, error) {
	lock, err := e.Lock()
	if err != nil {
		return nil, nil, err
	}
	recs, err := sources.LoadRecords(e.Dirs.State)
	if err != nil {
		lock.Unlock()
		return nil, nil, err
	}
	return lock, recs, nil
}

// selectSources returns the store's sources that names name (all of them
// when none is named). An unknown name is an error with a suggestion.
func (e *Engine) selectSources(st *store.Store, names []string) ([]store.Source, error) {
	if len(st.Sources) == 0 {
		return nil, fmt.Errorf("%s has no team source; add one with: mcpsync source add NAME --git URL [--ref REF] [--path DIR]",
			e.StoreDisplay(st.Path))
	}
	if len(names) == 0 {
		return st.Sources, nil
	}
	var have []string
	for _, s := range st.Sources {
		have = append(have, s.Name)
	}
	var out []store.Source
	seen := map[string]bool{}
	for _, n := range names {
		found := false
		for _, s := range st.Sources {
			if s.Name == n {
				found = true
				if !seen[n] {
					out = append(out, s)
					seen[n] = true
				}
			}
		}
		if !found {
			msg := fmt.Sprintf("%s has no source %q", e.StoreDisplay(st.Path), n)
			if sug := store.Suggest(n, have); sug != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", sug)
			}
			return nil, fmt.Errorf("%s; its sources: %s", msg, strings.Join(have, ", "))
		}
	}
	return out, nil
}

// Approved is one server approve settled.
type Approved struct {
	Qualified string `json:"qualified"`
	Source    string `json:"source"`
	Name      string `json:"name"`
	Hash      string `json:"hash"`
	// Already is true when the content was approved before this run.
	Already bool `json:"already,omitempty"`
}

// ApproveOptions name what to approve: Names (NAME or NAME@CONTENT, the
// content as status shows it, so that what was reviewed is what is
// approved), or All pending; Source limits both to one source, whose
// servers may then be named by their own names.
type ApproveOptions struct {
	Names  []string
	All    bool
	Source string
}

// ApproveResult is what approve did.
type ApproveResult struct {
	Approved []Approved
	Diags    canonical.Diagnostics
}

// Approve approves team-source servers so that export writes them. A name
// that is not a pulled server, content that changed since it was
// reviewed, or a name two sources would both give, approves nothing.
func (e *Engine) Approve(o ApproveOptions) (*ApproveResult, error) {
	switch {
	case o.All && len(o.Names) > 0:
		return nil, Usagef("give server names or --all, not both")
	case !o.All && len(o.Names) == 0:
		return nil, Usagef("name the servers to approve (see 'mcpsync status'), or use --all")
	}
	for _, n := range o.Names {
		if name, content, ok := strings.Cut(n, "@"); ok && (name == "" || content == "") {
			return nil, Usagef("%q: give NAME@CONTENT, the content as 'mcpsync status' shows it", n)
		}
	}
	st, ds, err := e.OpenStore(canonical.ScopeUser)
	res := &ApproveResult{Diags: ds}
	if err != nil {
		return nil, err
	}
	srcs := st.Sources
	if o.Source != "" {
		if srcs, err = e.selectSources(st, []string{o.Source}); err != nil {
			return nil, err
		}
	} else if len(srcs) == 0 {
		_, err := e.selectSources(st, nil)
		return nil, err
	}
	lock, recs, err := e.lockRecords()
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	var known []sources.ServerStatus
	for _, s := range srcs {
		known = append(known, recs.Statuses(s.Name)...)
	}
	var chosen []sources.ServerStatus
	if o.All {
		for _, s := range known {
			if s.Pending() {
				chosen = append(chosen, s)
			}
		}
	} else {
		var unknown []string
		for _, n := range o.Names {
			name, content, pinned := strings.Cut(n, "@")
			s, ok := findSourceServer(known, name, o.Source)
			if !ok {
				unknown = append(unknown, name)
				continue
			}
			if pinned && (len(content) < 7 || !strings.HasPrefix(s.Hash, content)) {
				// What was reviewed is not what the last pull holds.
				return nil, fmt.Errorf("%s changed since you reviewed it: its pulled content is %s, not %s; review it again with 'mcpsync status', "+
					"then approve %s@%s; nothing was approved", s.Qualified, ShortHash(s.Hash), content, s.Qualified, ShortHash(s.Hash))
			}
			chosen = append(chosen, s)
		}
		if len(unknown) > 0 {
			return nil, fmt.Errorf("%s", unknownSourceServers(unknown, known, o.Source))
		}
	}
	clashes := recs.Clashes(st.Sources)
	for _, s := range chosen {
		if by := clashes[s.Qualified]; len(by) > 0 {
			return nil, fmt.Errorf("%s is the name in clients of servers of several sources (%s): one would shadow the other; "+
				"rename one of the sources in the store, then pull again; nothing was approved", s.Qualified, strings.Join(by, ", "))
		}
	}
	now := time.Now()
	res.Approved = []Approved{}
	for _, s := range chosen {
		res.Approved = append(res.Approved, Approved{Qualified: s.Qualified, Source: s.Source, Name: s.Name, Hash: s.Hash, Already: !s.Pending()})
		if s.Pending() {
			recs.Approve(s.Source, s.Name, now)
		}
	}
	if len(chosen) == 0 {
		return res, nil
	}
	if err := recs.Save(); err != nil {
		return nil, err
	}
	return res, nil
}

// findSourceServer finds a server by the name clients see (acme-github),
// or by its own name within the source only.
func findSourceServer(known []sources.ServerStatus, name, only string) (sources.ServerStatus, bool) {
	for _, s := range known {
		if s.Qualified == name || (only != "" && s.Name == name) {
			return s, true
		}
	}
	return sources.ServerStatus{}, false
}

func unknownSourceServers(unknown []string, known []sources.ServerStatus, only string) string {
	var have []string
	for _, s := range known {
		have = append(have, s.Qualified)
		if only != "" {
			have = append(have, s.Name)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s not a server of any pulled source; nothing was approved", DescribeNames("server", unknown))
	for _, n := range unknown {
		if s := store.Suggest(n, have); s != "" {
			fmt.Fprintf(&b, "\n  %s: did you mean %q?", n, s)
		}
	}
	if len(known) == 0 {
		b.WriteString("\nNo source was pulled yet: run 'mcpsync pull' first.")
	} else {
		b.WriteString("\nSee them with: mcpsync status")
	}
	return b.String()
}

// AddSource adds a source block to the user's store; every other byte of
// the store stays. It returns the store as saved.
func (e *Engine) AddSource(src store.Source) (*store.Store, error) {
	lock, err := e.Lock()
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	st, _, err := e.OpenStore(canonical.ScopeUser)
	if err != nil {
		return nil, err
	}
	for _, s := range st.Sources {
		if s.Name == src.Name {
			return nil, fmt.Errorf("%s already has a source %q (at %s); remove it first or choose another name",
				e.StoreDisplay(st.Path), src.Name, s.Pos)
		}
	}
	if ds := sources.CheckSource(src); ds.HasErrors() {
		return nil, UsageError{Err: ds.Err()}
	}
	if err := e.writeSourceEdit(st, store.AppendSourceBlock(st.Original(), src), src.Name, true); err != nil {
		return nil, err
	}
	return st, nil
}

// RemoveSource takes a source out of the user's store, forgets what its
// pulls recorded and drops its cached checkout. It returns the store as
// saved and how many of the source's servers were in effect (they leave
// the clients at the next export --prune or sync).
func (e *Engine) RemoveSource(name string) (*store.Store, int, error) {
	st, _, err := e.OpenStore(canonical.ScopeUser)
	if err != nil {
		return nil, 0, err
	}
	if _, err := e.selectSources(st, []string{name}); err != nil {
		return nil, 0, err
	}
	data, ok := store.CutSourceBlock(st.Original(), name)
	if !ok {
		return nil, 0, fmt.Errorf("cannot find the block of source %q in %s", name, e.StoreDisplay(st.Path))
	}
	lock, recs, err := e.lockRecords()
	if err != nil {
		return nil, 0, err
	}
	defer lock.Unlock()
	servers := len(recs.InEffect(store.Source{Name: name}))
	if err := e.writeSourceEdit(st, data, name, false); err != nil {
		return nil, 0, err
	}
	if recs.Forget(name) {
		if err := recs.Save(); err != nil {
			return nil, 0, err
		}
	}
	// The checkout is only a cache; a source added again is fetched afresh.
	os.RemoveAll(filepath.Join(e.Dirs.Cache, "sources", name))
	return st, servers, nil
}

// writeSourceEdit writes new store text after checking that it reads back
// with the source added (or gone) and nothing else changed in meaning.
func (e *Engine) writeSourceEdit(st *store.Store, data []byte, name string, added bool) error {
	back, ds := store.Parse(st.Path, data)
	has := false
	for _, s := range back.Sources {
		has = has || s.Name == name
	}
	if ds.HasErrors() || has != added || back.Servers.Len() != st.Servers.Len() {
		// The edit only appends or cuts a whole block; reaching this is a bug.
		return fmt.Errorf("%s: the edited store does not read back as expected; nothing was written", e.StoreDisplay(st.Path))
	}
	var before []byte
	if st.Exists {
		before = append([]byte{}, st.Original()...)
	}
	return e.writeStore(st, before, data)
}

// SourceInfo is one source of the store and its last pull.
type SourceInfo struct {
	store.Source
	Commit   string `json:"commit,omitempty"`
	PulledAt string `json:"pulledAt,omitempty"`
	Approved int    `json:"approved"`
	Pending  int    `json:"pending"`
}

// ListSources lists the user store's team sources with their last pulls.
func (e *Engine) ListSources() (*store.Store, []SourceInfo, error) {
	st, _, err := e.OpenStore(canonical.ScopeUser)
	if err != nil {
		return nil, nil, err
	}
	recs, err := sources.LoadRecords(e.Dirs.State)
	if err != nil {
		return nil, nil, err
	}
	out := []SourceInfo{}
	for _, s := range st.Sources {
		row := SourceInfo{Source: s}
		if rec := recs.Get(s.Name); rec != nil {
			row.Commit, row.PulledAt = rec.Commit, rec.PulledAt.Format("2006-01-02T15:04:05Z07:00")
		}
		for _, ss := range recs.Statuses(s.Name) {
			if ss.Pending() {
				row.Pending++
			} else {
				row.Approved++
			}
		}
		out = append(out, row)
	}
	return st, out, nil
}

// ShortHash abbreviates a commit or content hash for people.
func ShortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// CountOf writes "1 server", "2 servers".
func CountOf(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
