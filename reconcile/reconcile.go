package reconcile

import (
	"bytes"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/desired"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/atomicfile"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/store"
)

// StoreSide is the name of the store among the sides of a sync, as
// resolve --take spells it.
const StoreSide = "store"

// Options are the inputs of one sync.
type Options struct {
	// Store is the store of the scope, loaded without errors. Plan edits
	// its servers in memory; the plan writes them.
	Store *store.Store
	// Targets are the client sections of the scope, one per client (see
	// package doc for which take part).
	Targets []emitters.Target
	// State is what the last syncs and exports recorded; nil is empty.
	State *ledger.State
	// Named clients were named by the user: their file is created (and
	// filled) when it does not exist yet. Other clients without a file
	// take no part.
	Named map[string]bool
	// Take settles servers by side: server name → StoreSide or a client
	// id, whose version then goes everywhere (resolve --take).
	Take map[string]string
	// Servers, when not empty, limits the sync to these servers (resolve
	// settles one server and touches nothing else).
	Servers []string
	Encode  formats.EncodeOptions
	// Desired is what the store's clients get (desired.Load): the store's
	// servers and its team sources' approved ones. Team-source servers are
	// read-only for the sync (see team.go); nil means the store has none.
	Desired *desired.Servers
	// Views caches how each client holds each version of a server; watch
	// keeps one across syncs. Nil uses a new one.
	Views *ViewCache
	// ParseCache, when set, keeps the parse of the store's new bytes that
	// checks they read back, so that the next run (watch's next cycle)
	// loads the store it wrote without parsing it again.
	ParseCache store.Cache
	// Decoded, when set, keeps what the client files decoded to, so that
	// watch's next cycle does not decode the files this one wrote again.
	Decoded *emitters.DecodeMemo
	// KeepDecoded says the plan is to be written: what the files it
	// writes read back as is kept in Decoded for the next run
	// (emitters.SyncOptions.KeepDecoded).
	KeepDecoded bool
}

// ViewCache remembers how a client holds a server (its adapter's encode
// and decode of that server alone), which does not change while mcpsync
// runs. It is safe for concurrent use: a plan merges servers side by side.
type ViewCache struct {
	mu sync.Mutex
	m  map[string]viewResult
}

func (c *ViewCache) get(k string) (viewResult, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *ViewCache) put(k string, v viewResult) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
}

// NewViewCache returns an empty cache.
func NewViewCache() *ViewCache { return &ViewCache{m: map[string]viewResult{}} }

// maxViews bounds a long watch's cache; past it the cache starts afresh.
const maxViews = 20000

// Outcome is what the sync does with one server: one log line.
type Outcome struct {
	Server string `json:"server"`
	// Action is added, changed, disabled, enabled, removed, copied (a
	// client that lacked it gets it) or resolved.
	Action string `json:"action"`
	// From are the sides the change came from; To the sides written.
	From []string `json:"from,omitempty"`
	To   []string `json:"to,omitempty"`
	// Removed are the clients it was removed from.
	Removed []string `json:"removed,omitempty"`
	// Kept are clients that keep an entry of their own that mcpsync did
	// not write, although the server went (mcpsync never removes those).
	Kept []string `json:"kept,omitempty"`
}

// Conflict is a server changed differently on several sides since the last
// sync. Nothing is written for it on any side until resolve settles it.
type Conflict struct {
	Server string                `json:"server"`
	Base   *canonical.Server     `json:"base,omitempty"`
	Sides  []ledger.ConflictSide `json:"sides"`
	// Choices are the sides resolve --take accepts.
	Choices []string `json:"choices"`
}

// Skip is a client section that took no part in the sync.
type Skip struct {
	Client string `json:"client"`
	Path   string `json:"path"`
	Reason string `json:"reason"`
	// Wiped names the servers a section lost all at once (see bindClients).
	Wiped []string `json:"wiped,omitempty"`
}

// Result is a planned sync: print Plan's diff, or apply it and then
// Record the outcome in the ledger.
type Result struct {
	Plan      *emitters.Plan `json:"-"`
	StorePath string         `json:"store"`
	Outcomes  []Outcome      `json:"servers,omitempty"`
	Conflicts []Conflict     `json:"conflicts,omitempty"`
	Skipped   []Skip         `json:"skipped,omitempty"`
	// Waiting lists files that exist but are empty: most likely being
	// written right now. They take no part (the store: it is not read as
	// having lost every server); watch retries a little later.
	Waiting []string `json:"waiting,omitempty"`
	// Settled are the conflicts that Options.Take settles.
	Settled []string `json:"settled,omitempty"`

	names   []nameRecord
	clients []clientRecord
}

// Changed reports whether applying the plan writes any file.
func (r *Result) Changed() bool { return r.Plan != nil && len(r.Plan.Changes()) > 0 }

type nameRecord struct {
	name     string
	verdict  verdict
	del      bool
	base     *ledger.Entry // the base before the sync (for the record of a removal)
	conflict *ledger.Conflict
}

// clientRecord says how to update one client's memory of one server.
type clientRecord struct {
	*clientSection
	name string
	// forget drops the record; otherwise it becomes ref, or else the entry
	// the section holds after the plan (absent: dropped).
	forget bool
	ref    *canonical.Server
}

// clientSection is the client section of a clientRecord, one per side:
// a no-op sync of 10,000 servers to every client makes 210,000 records,
// and each held the section's place whole (96 bytes a record, not 48).
type clientSection struct {
	tp            *emitters.TargetPlan
	path, section string
	key           string
}

// record is a clientRecord of the server name in sd's section.
func (sd *side) record(name string) clientRecord {
	if sd.sec == nil {
		sd.sec = &clientSection{tp: sd.tp, path: sd.path, section: sd.section, key: sd.key}
	}
	return clientRecord{clientSection: sd.sec, name: name}
}

// side binds a merge side to a client section or the store.
type side struct {
	id      string
	tp      *emitters.TargetPlan // nil for the store
	path    string
	section string
	key     string
	fresh   bool
	views   *ViewCache
	want    *emitters.SyncWant
	changed bool
	// ownWant: want.Servers is this side's copy of tp.Current, made at
	// the first change (wantServers); until then it is empty.
	ownWant bool
	cur     *canonical.Indexed // tp.Current by name (it is what was read: it never changes)
	// managed are the ledger's records of the section: what mcpsync wrote
	// there, and what from (viewOf).
	managed map[string]*ledger.Entry
	sec     *clientSection // made by record
}

// wantServers is the section's desired list, to change: a copy of what
// it held, made on the first change. A copy of every section's list,
// made up front, was 80 MB of a no-op sync of 10,000 servers to every
// client (and most syncs change a few sections, if any).
func (sd *side) wantServers() *canonical.Set {
	if !sd.ownWant {
		sd.want.Servers, sd.ownWant = sd.tp.Current.Clone(), true
	}
	return &sd.want.Servers
}

// current is what the client's section held, by name: a plan looks up
// every server in every side, which a scan made quadratic.
func (sd *side) current() *canonical.Indexed {
	if sd.cur == nil {
		sd.cur = sd.tp.Current.Indexed()
	}
	return sd.cur
}

type viewResult struct {
	f  fields
	ok bool
}

// planner holds one Plan's work in progress.
type planner struct {
	opts         Options
	st           *ledger.State
	r            *Result
	sides        []*side
	store        *store.Index // opts.Store's servers by name; the store is changed through it
	storeFresh   bool
	storeChanged bool
	bases        []canonical.Server
	forgetBases  []string
	baseSources  map[string]string // team source of a base, by server
	warns        canonical.Diagnostics
	// snapFields memoises fieldsOf by ledger snapshot (entryFields); the
	// merges side by side share it.
	snapMu     sync.Mutex
	snapFields map[*canonical.Server]fields
}

// entryFields is fieldsOf the server e recorded, made once per snapshot:
// entries share snapshots (a server synced to five files and its base are
// most often one), a snapshot never changes, and the merge only reads the
// fields it is given (it clones what it changes). A no-op sync of 10,000
// servers in five files flattened each snapshot six times.
func (p *planner) entryFields(e *ledger.Entry) fields {
	if e.Server == nil {
		return fieldsOf(canonical.Server{})
	}
	p.snapMu.Lock()
	f, ok := p.snapFields[e.Server]
	p.snapMu.Unlock()
	if ok {
		return f
	}
	f = fieldsOf(*e.Server) // outside the lock: the same fields whoever makes them
	p.snapMu.Lock()
	p.snapFields[e.Server] = f
	p.snapMu.Unlock()
	return f
}

// Plan reads every side, merges each server three ways and plans the
// writes. Nothing is written; see Result.
func Plan(opts Options) *Result {
	st := opts.State
	if st == nil {
		st = ledger.New("")
	}
	if opts.Views == nil {
		opts.Views = NewViewCache()
	}
	if len(opts.Views.m) > maxViews {
		clear(opts.Views.m)
	}
	p := &planner{opts: opts, st: st, r: &Result{StorePath: opts.Store.Path}, store: opts.Store.Index(),
		snapFields: map[*canonical.Server]fields{}}
	in := emitters.ReadForSync(opts.Targets, opts.Decoded)
	if in.Diags.HasErrors() {
		p.r.Plan = emitters.PlanSync(in, emitters.SyncOptions{State: st})
		return p.r
	}
	p.sides = bindClients(in, opts, st, p.r)
	// A store that is not there, or empty, has no memory: its lack of a
	// server is not a removal.
	p.storeFresh = !opts.Store.Exists
	if opts.Store.Exists && len(bytes.TrimSpace(opts.Store.Original())) == 0 {
		p.storeFresh = true
		// Emptied while it had servers of its own: most likely being
		// written. One that held only team sources is empty for good.
		for _, b := range st.Bases[opts.Store.Path] {
			if b.Source == "" {
				p.r.Waiting = append(p.r.Waiting, opts.Store.Path)
				break
			}
		}
	}
	names := allNames(opts, p.sides, st)
	for _, sd := range p.sides {
		sd.current() // made now: the merges below only read it, several at once
	}
	// Room for a record of each server in each client (applyClient):
	// grown one by one, the records were copied over and over.
	if len(opts.Servers) == 0 {
		p.r.clients = make([]clientRecord, 0, len(names)*len(p.sides))
	}
	var merged []premerge
	for i, name := range names {
		if i%mergeBatch == 0 {
			merged = p.premergeBatch(names[i:min(i+mergeBatch, len(names))], merged)
		}
		switch r := p.route(name); r.kind {
		case routeBadName:
			// A name no client holds as it is (a tab in it) is never
			// spread; the store could not even hold it.
			d := canonical.Warnf("not synced: server name %q %s", name, r.problem)
			d.Detail, d.Server = "rename it where it is defined ("+canonical.NameAdvice+")", name
			p.warns = append(p.warns, d)
		case routeLocal:
			p.localServer(r.local)
		case routeTeam:
			p.teamServer(name, r.source, r.inEffect)
		case routeMerge:
			p.server(name, &merged[i%mergeBatch])
		}
	}
	p.pruneExcluded()
	so, storeReadBack := p.syncOptions()
	p.r.Plan = emitters.PlanSync(in, so)
	p.warns = append(p.warns, storeReadBack()...)
	p.r.Plan.Diags = append(p.r.Plan.Diags, p.warns...)
	p.r.Plan.Diags.Sort()
	return p.r
}

// mergeBatch is how many servers are merged side by side (premergeBatch)
// before their verdicts are applied, one after the other. The merges of a
// batch are held until then: batches of 512 held 10 to 20 MB more of a
// no-op sync of 10,000 servers to every client, and gained it no time.
const mergeBatch = 128

// premerge is one server's merge: what its sides hold and offer
// (buildMerge), the verdict, and what each side is to do. Making it only
// reads the plan's inputs; applying it (server) changes the plan.
type premerge struct {
	made         bool
	formerSource string
	mi           mergeIn
	idx          []*side
	out          mergeOut
	takeMissing  bool // the side named by Options.Take takes no part
	settled      bool // Options.Take settles what is otherwise a conflict
	acts         []sideOut
}

// premergeBatch merges the servers of names that server will apply, on
// every processor, into into[i] for names[i] (into is reused, and returned).
// Why side by side: a no-op sync of 10,000 servers to five clients spent
// four fifths of its merging here (buildMerge, merge, decide), one server
// after the other. Why it is the same plan: a merge reads what the plan
// was given (the store's and each side's servers, the ledger, the
// options) and the caches of what never changes (ViewCache, entryFields);
// applying a server's verdict (server) changes only that server's place
// in the store and in each side's plan, which no other server's merge
// reads. The verdicts are applied in names' order.
func (p *planner) premergeBatch(names []string, into []premerge) []premerge {
	into = slices.Grow(into[:0], len(names))[:len(names)]
	clear(into)
	todo := make([]int, 0, len(names))
	for i, name := range names {
		if p.route(name).kind == routeMerge {
			todo = append(todo, i)
		}
	}
	workers := min(runtime.GOMAXPROCS(0), len(todo))
	if len(todo) < parallelMergeFrom || workers < 2 {
		return into // none made: server merges each as it comes to it
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				k := int(next.Add(1)) - 1
				if k >= len(todo) {
					return
				}
				i := todo[k]
				into[i] = p.premerge(names[i])
			}
		})
	}
	wg.Wait()
	return into
}

// parallelMergeFrom is the least number of servers in a batch merged
// side by side: below it, starting the workers costs more than they save,
// and each server is merged as server comes to it. A variable, for the
// tests.
var parallelMergeFrom = 64

// routeKind is what Plan does with a server name.
type routeKind int

const (
	routeNotNamed routeKind = iota // the sync is of other servers (Options.Servers)
	routeBadName                   // a name no client can hold: a warning
	routeLocal                     // a project's local server: left alone
	routeTeam                      // a team source's: teamServer
	routeMerge                     // merged three ways: server
)

// route is where Plan sends one server name, and what it needs there.
type route struct {
	kind     routeKind
	problem  string           // routeBadName: what is wrong with the name
	local    canonical.Server // routeLocal: the store's server
	source   string           // routeTeam: the source, and whether its
	inEffect bool             // server is in effect (approved)
}

// route says what Plan does with name. It only reads, and an earlier
// server's verdict does not change it: premergeBatch asks it ahead.
func (p *planner) route(name string) route {
	if len(p.opts.Servers) > 0 && !slices.Contains(p.opts.Servers, name) {
		return route{kind: routeNotNamed}
	}
	if prob := canonical.NameProblem(name); prob != "" {
		return route{kind: routeBadName, problem: prob}
	}
	if srv, ok := p.store.Get(name); ok && srv.Project != "" {
		return route{kind: routeLocal, local: srv}
	}
	if source, inEffect := p.teamSource(name); source != "" {
		return route{kind: routeTeam, source: source, inEffect: inEffect}
	}
	return route{kind: routeMerge}
}

// premerge merges one server (see premergeBatch): it only reads.
func (p *planner) premerge(name string) premerge {
	st, storePath := p.st, p.opts.Store.Path
	// A server that came from a team source and no longer does was never
	// the store's: the store's lack of it is its removal, even when the
	// store is empty (the source was all it held).
	pm := premerge{made: true}
	if b := st.Base(storePath, name); b != nil && b.Source != "" && !p.store.Has(name) {
		pm.formerSource = b.Source
	}
	pm.mi, pm.idx = buildMerge(name, p.opts, p.store, p.sides, st, p.storeFresh && pm.formerSource == "", p.entryFields)
	takeID, taking := p.opts.Take[name]
	if taking {
		pm.mi.Take = slices.IndexFunc(pm.idx, func(sd *side) bool { return sideID(sd) == takeID })
		if pm.mi.Take < 0 {
			pm.takeMissing = true
			return pm
		}
	}
	pm.out = merge(pm.mi)
	if pm.out.Err != "" {
		return pm
	}
	if taking {
		plain := pm.mi
		plain.Take = -1
		pm.settled = merge(plain).Verdict == conflict
	}
	pm.acts = decide(pm.mi, pm.out, taking)
	return pm
}

// server applies one server's merge (pre, made by premergeBatch, or now
// when it was not) to every side.
func (p *planner) server(name string, pre *premerge) {
	st, storePath := p.st, p.opts.Store.Path
	if !pre.made {
		*pre = p.premerge(name)
	}
	formerSource, mi, idx, out := pre.formerSource, pre.mi, pre.idx, pre.out
	takeID, taking := p.opts.Take[name]
	if pre.takeMissing {
		p.takeError(name, takeID, takeID+" does not take part in this sync")
		return
	}
	if out.Err != "" {
		p.takeError(name, takeID, out.Err)
		return
	}
	if pre.settled {
		p.r.Settled = append(p.r.Settled, name)
	}
	nr := nameRecord{name: name, verdict: out.Verdict, del: out.Del, base: st.Base(storePath, name)}
	if nr.base == nil {
		nr.base = st.Deleted(storePath, name)
	}
	switch out.Verdict {
	case nothing:
		return
	case conflict:
		p.warns = append(p.warns, expansionWarnings(name, out, idx, nil)...)
		c := conflictOf(name, storePath, mi, out, idx)
		p.r.Conflicts = append(p.r.Conflicts, c)
		nr.conflict = &ledger.Conflict{Sides: c.Sides}
		p.r.names = append(p.r.names, nr)
		return
	}
	p.r.names = append(p.r.names, nr)
	acts := pre.acts
	p.warns = append(p.warns, expansionWarnings(name, out, idx, acts)...)
	oc := Outcome{Server: name, Action: actionName(mi, out, taking)}
	for _, i := range out.From {
		id := sideID(idx[i])
		if id == StoreSide && formerSource != "" {
			id = "source " + formerSource
		}
		oc.From = append(oc.From, id)
	}
	for i, a := range acts {
		if sd := idx[i]; sd == nil {
			p.applyStore(name, a, &oc)
		} else {
			p.applyClient(sd, mi.Sides[i], name, a, &oc)
		}
	}
	if out.Del {
		if st.Base(storePath, name) != nil {
			p.forgetBases = append(p.forgetBases, name)
		}
	} else {
		p.bases = append(p.bases, out.Winner.server(name))
	}
	if len(oc.To) > 0 || len(oc.Removed) > 0 || len(oc.Kept) > 0 && out.Del && mi.Kind == hasBase {
		p.r.Outcomes = append(p.r.Outcomes, oc)
	}
}

// localServer leaves alone a store server bound to one project's local
// section (Server.Project): sync keeps the user scope in step, where that
// server does not belong, so no user-scope file gets it and no entry of
// the same name there changes it. Such an entry is pointed out.
func (p *planner) localServer(srv canonical.Server) {
	for _, sd := range p.sides {
		if have, ok := sd.current().Get(srv.Name); ok {
			d := canonical.Warnf("not synced: %s holds %q, which the store has as a local server of project %s", sd.id, srv.Name, srv.Project)
			d.Detail = "a local server stays in its project; rename one of them, or remove the store's with 'mcpsync remove " + srv.Name + "'"
			d.Server = srv.Name
			pos := have.Origin
			if pos.File == "" {
				pos.File = sd.path
			}
			p.warns = append(p.warns, d.At(pos))
		}
	}
}

func (p *planner) takeError(name, takeID, why string) {
	d := canonical.Errorf("cannot take %s's version of %q: %s", takeID, name, why)
	d.Detail = "choose the store or a client whose file holds it; 'mcpsync resolve' lists the open conflicts"
	d.Server = name
	p.warns = append(p.warns, d)
}

func (p *planner) applyStore(name string, a sideOut, oc *Outcome) {
	switch a.Act {
	case put:
		srv := a.Want.server(name)
		if p.opts.Store.Scope == canonical.ScopeProject {
			// A project's store is shared through git: a literal secret
			// from a client file never goes into it.
			if d := emitters.SharedSecret(srv, p.opts.Store.Path); d != nil {
				p.warns = append(p.warns, d)
				return
			}
		}
		p.store.Put(srv)
		p.storeChanged = true
		oc.To = append(oc.To, StoreSide)
	case remove:
		p.store.Remove(name)
		p.storeChanged = true
		oc.Removed = append(oc.Removed, StoreSide)
	}
}

func (p *planner) applyClient(sd *side, s sideIn, name string, a sideOut, oc *Outcome) {
	switch a.Act {
	case put:
		sd.putServer(a.Want.server(name))
		oc.To = append(oc.To, sd.id)
	case remove:
		sd.removeServer(name)
		oc.Removed = append(oc.Removed, sd.id)
	case leave:
		oc.Kept = append(oc.Kept, sd.id)
	case keep:
		// A managed entry the client edited, now settled everywhere: its
		// snapshot follows, so that export sees no hand edit in it.
		if s.Present && s.Managed && a.Ref == nil {
			if cur, ok := sd.current().Get(name); ok && !p.st.Managed(sd.path, sd.section)[name].Holds(cur) {
				sd.want.Refresh = append(sd.want.Refresh, name)
			}
		}
	}
	rec := sd.record(name)
	if a.Ref != nil {
		srv := a.Ref.server(name)
		rec.ref = &srv // the references it expanded, not their values
	}
	p.r.clients = append(p.r.clients, rec)
}

// pruneExcluded removes, from clients the store's rules no longer allow a
// server, the entries mcpsync wrote, unless edited since (as export --prune).
func (p *planner) pruneExcluded() {
	for _, sd := range p.sides {
		for _, srv := range sd.tp.Current.Servers {
			if p.opts.Store.Allows(sd.id, srv.Name) || len(p.opts.Servers) > 0 && !slices.Contains(p.opts.Servers, srv.Name) {
				continue
			}
			rec := sd.record(srv.Name)
			rec.forget = true
			p.r.clients = append(p.r.clients, rec)
			m := p.st.Managed(sd.path, sd.section)[srv.Name]
			if m == nil || !m.Holds(srv) || sd.fresh {
				continue
			}
			sd.removeServer(srv.Name)
			p.r.Outcomes = append(p.r.Outcomes, Outcome{Server: srv.Name, Action: "removed", From: []string{StoreSide},
				Removed: []string{sd.id + " (excluded by the store's client rules)"}})
		}
	}
}

// syncOptions gathers what the plan writes: each changed section, the
// store's new bytes, the bases; and readBack, which waits for the check
// that the store's new bytes read back and returns its problem, if any.
// The check (a parse of the whole store, kept in the parse cache for the
// next run) is made side by side with the plan of the clients' files: at
// 1,000 servers it was 39 ms of a 175 ms sync after an edit
// (BenchmarkSyncEdit), one after the other. readBack is called once.
func (p *planner) syncOptions() (so emitters.SyncOptions, readBack func() canonical.Diagnostics) {
	storePath := p.opts.Store.Path
	want := map[*emitters.TargetPlan]emitters.SyncWant{}
	for _, sd := range p.sides {
		if sd.changed || len(sd.want.Refresh) > 0 {
			sd.wantServers()
			want[sd.tp] = *sd.want
		}
	}
	so = emitters.SyncOptions{Want: want, State: p.st, StorePath: storePath, Bases: p.bases, ForgetBases: p.forgetBases,
		BaseSources: p.baseSources, Encode: p.opts.Encode, Decoded: p.opts.Decoded, KeepDecoded: p.opts.KeepDecoded}
	readBack = func() canonical.Diagnostics { return nil }
	if p.storeChanged {
		after := p.opts.Store.Bytes()
		checked := make(chan canonical.Diagnostics, 1)
		go func() {
			var problem canonical.Diagnostics
			if _, ds := store.ParseEdited(storePath, p.opts.Store.Original(), after, p.opts.ParseCache); ds.HasErrors() {
				d := canonical.Errorf("the edited store does not read back")
				d.Detail = "this is a bug in mcpsync; nothing was written. First problem: " + ds.Errors()[0].Error()
				problem = append(problem, d.At(canonical.Pos{File: storePath}))
			}
			checked <- problem
		}()
		readBack = func() canonical.Diagnostics { return <-checked }
		so.Store = &emitters.StoreEdit{Path: storePath, Root: p.opts.Store.Root, Before: p.opts.Store.Original(), After: after}
	}
	return so, readBack
}

// bindClients makes a side of every section that takes part: its file
// exists and holds something, or its client was named. Two clients reading
// the same section of the same file are one side (the first).
//
// A section that lost every server mcpsync synced there at once, however
// many, takes no part either: that is what a client rewriting its file
// from its own memory looks like (Claude Desktop does, while it runs, and
// so does any client that saves its settings without the key), and read as
// the user's edit it would remove those servers from the store and every
// other client. The check is made afresh on every run from what the state
// remembers, so the client stays out until its file holds one of them
// again or the user removes them from the store; removing them there stays
// one command away.
func bindClients(in *emitters.SyncInput, opts Options, st *ledger.State, r *Result) []*side {
	var sides []*side
	seen := map[string]bool{}
	for _, tp := range in.Sections {
		fc := in.FileOf(tp)
		loc := tp.Target.Location
		section := emitters.SectionKey(loc)
		real := loc.Path
		if p, err := atomicfile.Resolve(loc.Path); err == nil {
			real = p
		}
		if seen[real+"\x00"+section] {
			continue
		}
		seen[real+"\x00"+section] = true
		empty := fc.Before != nil && len(bytes.TrimSpace(fc.Before)) == 0
		missing := fc.Before == nil || empty
		if empty {
			r.Waiting = append(r.Waiting, loc.Path)
		}
		if missing && !opts.Named[tp.Client] {
			reason := "its file does not exist (name it with --only to create it)"
			if empty {
				reason = "its file is empty (being written?)"
			}
			r.Skipped = append(r.Skipped, Skip{Client: tp.Client, Path: loc.Path, Reason: reason})
			continue
		}
		if rm, ok := tp.Target.Adapter.(formats.RemoteManaged); ok && !missing {
			if why := rm.ManagedRemotely(loc, fc.Before); why != "" {
				// The app's edits, not the user's: taken in, they would
				// spread an account's servers everywhere and remove the
				// ones it dropped; written to, the file would be replaced.
				r.Skipped = append(r.Skipped, Skip{Client: tp.Client, Path: loc.Path, Reason: why +
					": its changes are not yours, and what mcpsync wrote there would not last; sync leaves it out ('mcpsync export --to " +
					tp.Client + "' still writes it)"})
				continue
			}
		}
		if wiped := wipedServers(st.SyncedNames(opts.Store.Path, fc.Path, section), tp.Current, opts); !missing && len(wiped) > 0 {
			r.Skipped = append(r.Skipped, Skip{Client: tp.Client, Path: loc.Path, Wiped: wiped, Reason: fmt.Sprintf(
				"every server mcpsync synced there (%d) is gone at once, which looks like the client rewriting its file rather than your edit; "+
					"nothing is removed elsewhere. Write them back with 'mcpsync export --to %s', or remove them everywhere with 'mcpsync remove %s' and sync",
				len(wiped), tp.Client, strings.Join(wiped, " "))})
			continue
		}
		sd := &side{id: tp.Client, tp: tp, path: fc.Path, section: section, key: ledger.ClientKey(fc.Path, section),
			fresh: missing, views: opts.Views, managed: st.Managed(fc.Path, section)}
		sd.want = &emitters.SyncWant{} // Servers: wantServers
		sides = append(sides, sd)
	}
	return sides
}

// wipedServers returns the servers mcpsync synced into a section (written
// there, or recorded there by a sync) that the store (or a team source)
// still has, when the section holds none of them any more; nil when it
// still holds one. Servers the store no longer has are left out: their
// removal was decided elsewhere.
func wipedServers(synced []string, current canonical.Set, opts Options) []string {
	var alive []string
	for _, n := range synced {
		if current.Index(n) >= 0 {
			return nil
		}
		if opts.Store.Servers.Index(n) >= 0 || opts.Desired != nil && opts.Desired.FromSource[n] != "" {
			alive = append(alive, n)
		}
	}
	return alive
}

// allNames lists every server any side, the team sources or the state
// knows, sorted.
func allNames(opts Options, sides []*side, db *ledger.State) []string {
	storePath := opts.Store.Path
	set := map[string]bool{}
	for _, n := range opts.Store.Servers.Names() {
		set[n] = true
	}
	if opts.Desired != nil {
		for n := range opts.Desired.FromSource {
			set[n] = true
		}
	}
	for _, sd := range sides {
		owner, _ := sd.tp.Target.Adapter.(formats.ClientOwner)
		for _, srv := range sd.tp.Current.Servers {
			if owner != nil && owner.OwnedByClient(srv) != "" {
				continue // the app's own entry: it stays where it is, synced nowhere
			}
			set[srv.Name] = true
		}
	}
	for _, n := range db.BaseNames(storePath) {
		set[n] = true
	}
	for _, n := range db.DeletedNames(storePath) {
		set[n] = true
	}
	for _, n := range db.ConflictNames(storePath) {
		set[n] = true
	}
	names := make([]string, 0, len(set))
	for n := range set {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// buildMerge gathers one server's sides: the store, then every client the
// store's rules allow it for. idx maps merge sides back (nil: the store).
func buildMerge(name string, opts Options, storeIdx *store.Index, sides []*side, st *ledger.State, storeFresh bool, entryFields func(*ledger.Entry) fields) (mergeIn, []*side) {
	storePath := opts.Store.Path
	mi := mergeIn{Take: -1}
	if e := st.Base(storePath, name); e != nil {
		mi.Kind, mi.Base = hasBase, entryFields(e)
	} else if e := st.Deleted(storePath, name); e != nil {
		mi.Kind, mi.Base = deletedBase, entryFields(e)
	}
	identity := func(f fields) (fields, bool) { return f, true }
	s := sideIn{ID: StoreSide, Store: true, Fresh: storeFresh, View: identity}
	storeSrv, inStore := storeIdx.Get(name)
	if inStore {
		s.Present, s.Cur = true, fieldsOf(storeSrv)
	}
	mi.Sides = append(mi.Sides, s)
	idx := []*side{nil}
	for _, sd := range sides {
		if !opts.Store.Allows(sd.id, name) {
			continue
		}
		c := sideIn{ID: sd.id, View: sd.viewOf(name, opts.Encode), Fresh: sd.fresh}
		if srv, ok := sd.current().Get(name); ok {
			c.Present, c.Cur = true, curFields(srv, storeSrv, inStore, s.Cur)
		}
		if !sd.fresh {
			if ref := clientRef(st, storePath, sd, name); ref != nil {
				c.Ref, c.HasRef = entryFields(ref), true
			}
			c.Managed = st.IsManaged(sd.path, sd.section, name)
		}
		mi.Sides = append(mi.Sides, c)
		idx = append(idx, sd)
	}
	return mi, idx
}

// curFields is fieldsOf(srv), a client's entry: the store's own fields
// (storeF, of storeSrv) where the entry is the store's server, as most
// are once synced. A merge never changes a side's fields in place, so
// the sides share them; flattening every client's entry of every server
// into fields of its own was half of building a merge (a no-op sync of
// 10,000 servers to five clients: 60,000 maps). An Extra on either side
// is compared by fieldsOf, which keeps every client's.
func curFields(srv, storeSrv canonical.Server, inStore bool, storeF fields) fields {
	if inStore && len(srv.Extra) == 0 && len(storeSrv.Extra) == 0 && canonical.Equal(srv, storeSrv) {
		return storeF
	}
	return fieldsOf(srv)
}

// clientRef is what the client held at its last sync: the sync's record,
// or what mcpsync last wrote there (an export), whichever is newer.
func clientRef(st *ledger.State, storePath string, sd *side, name string) *ledger.Entry {
	cb := st.ClientBase(storePath, sd.key, name)
	m := st.Managed(sd.path, sd.section)[name]
	switch {
	case cb == nil:
		return m
	case m == nil:
		return cb
	case m.At.After(cb.At):
		return m
	}
	return cb
}

// viewOf returns how this client holds a server (formats.View), cached:
// what it cannot express is gone, so comparing views never counts a field
// the client cannot hold as an edit.
func (sd *side) viewOf(name string, enc formats.EncodeOptions) func(fields) (fields, bool) {
	t := sd.tp.Target
	prefix := t.Adapter.ID() + "\x00" + t.Location.Path + "\x00" + t.Location.Project + "\x00" + name + "\x00"
	return func(f fields) (fields, bool) {
		k := prefix + f.key()
		if v, ok := sd.views.get(k); ok {
			return v.f, v.ok
		}
		v := viewResult{}
		want := f.server(name)
		if m := sd.managed[name]; m != nil && m.From != "" && m.From == emitters.WrittenFrom(t, want, enc) {
			// mcpsync wrote this very definition there, with these options
			// and this build, and recorded how the client read it back.
			v = viewResult{f: fieldsOf(m.Snap()), ok: true}
		} else if got, ok := formats.View(t.Adapter, t.Location, want, enc); ok {
			v = viewResult{f: fieldsOf(got), ok: true}
		}
		sd.views.put(k, v)
		return v.f, v.ok
	}
}

func (sd *side) putServer(srv canonical.Server) {
	sd.wantServers().Put(srv)
	sd.want.Written = append(sd.want.Written, srv.Name)
	sd.changed = true
	action := emitters.Update
	if !sd.current().Has(srv.Name) {
		action = emitters.Add
	}
	sd.want.Entries = append(sd.want.Entries, emitters.EntryChange{Name: srv.Name, Action: action})
}

func (sd *side) removeServer(name string) {
	if sd.wantServers().Remove(name) {
		sd.want.Removed = append(sd.want.Removed, name)
		sd.changed = true
		sd.want.Entries = append(sd.want.Entries, emitters.EntryChange{Name: name, Action: emitters.Remove})
	}
}

func sideID(sd *side) string {
	if sd == nil {
		return StoreSide
	}
	return sd.id
}

// actionName says in one word what happened to the server.
func actionName(mi mergeIn, out mergeOut, taking bool) string {
	switch {
	case taking:
		return "resolved"
	case out.Del:
		return "removed"
	case mi.Kind != hasBase:
		return "added"
	case len(out.From) == 0:
		return "copied"
	}
	_, was := mi.Base["disabled"]
	_, is := out.Winner["disabled"]
	switch {
	case is && !was:
		return "disabled"
	case was && !is:
		return "enabled"
	}
	return "changed"
}

// conflictOf describes a conflict with every side's version.
func conflictOf(name, storePath string, mi mergeIn, out mergeOut, idx []*side) Conflict {
	c := Conflict{Server: name, Choices: []string{StoreSide}}
	if mi.Kind == hasBase {
		b := mi.Base.server(name)
		c.Base = &b
	}
	for _, cd := range out.Cands {
		cs := ledger.ConflictSide{Side: sideID(idx[cd.side]), Path: storePath, Removed: cd.del, Own: cd.own}
		if sd := idx[cd.side]; sd != nil {
			cs.Path = sd.path
			c.Choices = append(c.Choices, sd.id)
		}
		if !cd.del {
			srv := cd.f.server(name)
			cs.Server = &srv
		}
		c.Sides = append(c.Sides, cs)
	}
	c.Choices = slices.Compact(c.Choices)
	return c
}

// expansionWarnings reports every reference a client replaced by its
// literal value, masked, unless the sync writes that client's entry anew.
func expansionWarnings(name string, out mergeOut, idx []*side, acts []sideOut) canonical.Diagnostics {
	var ds canonical.Diagnostics
	for i := range idx {
		sd, exps := idx[i], out.Exps[i]
		if sd == nil || acts != nil && acts[i].Act != keep {
			continue
		}
		for _, x := range exps {
			d := canonical.Warnf("%s now holds a literal value (%s) for %s, where it held %s when last synced; not copied to the other sides",
				sd.id, Mask(x.Value), x.Field, x.Ref)
			d.Detail = "the client expanded the reference (Gemini CLI and Qwen Code do so when they add a server); " +
				"a value that may be a secret is never spread to other clients. Put " + x.Ref + " back in the file, or run " +
				"'mcpsync resolve " + name + " --take store' to write it back"
			d.Server, d.Field = name, x.Field
			pos := canonical.Pos{File: sd.tp.Target.Location.Path}
			if srv, ok := sd.current().Get(name); ok && srv.Origin.File != "" {
				pos = srv.Origin
			}
			ds = append(ds, d.At(pos))
		}
	}
	return ds
}

// Record writes the outcome of an applied sync into the state: each
// client's memory of each server, removals, open conflicts. Call it after
// emitters.Apply succeeded, then save the ledger.
func (r *Result) Record(st *ledger.State, at time.Time) {
	sp := r.StorePath
	for _, nr := range r.names {
		switch nr.verdict {
		case settled:
			st.ForgetConflict(sp, nr.name)
			if nr.del {
				if nr.base != nil {
					st.SetDeleted(sp, nr.name, nr.base)
				}
			} else {
				st.ForgetDeleted(sp, nr.name)
			}
		case conflict:
			if old := st.Conflict(sp, nr.name); old != nil && sameSides(old.Sides, nr.conflict.Sides) {
				continue // still the same conflict: keep when it was found
			}
			c := *nr.conflict
			c.At = at
			st.SetConflict(sp, nr.name, &c)
		}
	}
	after := map[*emitters.TargetPlan]*canonical.Indexed{}
	for _, cr := range r.clients {
		if after[cr.tp] == nil {
			after[cr.tp] = cr.tp.After.Indexed()
		}
		srv, ok := after[cr.tp].Get(cr.name)
		if cr.ref != nil {
			srv, ok = *cr.ref, true
		}
		if cr.forget || !ok {
			st.ForgetClientBase(sp, cr.key, cr.name)
			continue
		}
		if m := st.Managed(cr.path, cr.section)[cr.name]; m != nil && m.Holds(srv) {
			// What mcpsync wrote there says the same: one record is enough.
			st.ForgetClientBase(sp, cr.key, cr.name)
			continue
		}
		if old := st.ClientBase(sp, cr.key, cr.name); old != nil && old.Holds(srv) {
			continue
		}
		st.SetClientBase(sp, cr.key, cr.name, st.NewEntry(cr.tp.Client, srv, at)) // sharing the snapshot of the file's entry of the same server
	}
	for _, name := range st.DeletedNames(sp) {
		if st.Base(sp, name) != nil || !st.HasClientBase(sp, name) && !st.ManagedAnywhere(name) {
			st.ForgetDeleted(sp, name)
		}
	}
	// The store is not a client file; Apply notes every file it wrote.
	if f := st.File(sp); f != nil && len(f.Sections) == 0 {
		st.RemoveFile(sp)
	}
}

func sameSides(a, b []ledger.ConflictSide) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Side != b[i].Side || a[i].Removed != b[i].Removed || (a[i].Server == nil) != (b[i].Server == nil) {
			return false
		}
		if a[i].Server != nil && ledger.Hash(*a[i].Server) != ledger.Hash(*b[i].Server) {
			return false
		}
	}
	return true
}

// NewConflicts returns the conflicts that the state does not hold yet (or
// holds with other versions): watch reports a conflict once, not on every
// change.
func (r *Result) NewConflicts(st *ledger.State) []Conflict {
	var out []Conflict
	for _, c := range r.Conflicts {
		if old := st.Conflict(r.StorePath, c.Server); old == nil || !sameSides(old.Sides, c.Sides) {
			out = append(out, c)
		}
	}
	return out
}

// Line renders an outcome as one log line:
//
//	github: changed in cursor -> store, codex, vscode
func (o Outcome) Line() string {
	var b strings.Builder
	b.WriteString(o.Server + ": " + o.Action)
	if len(o.From) > 0 {
		switch o.Action {
		case "copied":
			b.WriteString(" from ")
		case "resolved":
			b.WriteString(" with the version of ")
		default:
			b.WriteString(" in ")
		}
		b.WriteString(strings.Join(o.From, ", "))
	}
	if len(o.From) == 0 && o.Action == "copied" {
		b.WriteString(" from " + StoreSide)
	}
	if len(o.To) > 0 {
		b.WriteString(" -> " + strings.Join(o.To, ", "))
	}
	if len(o.Removed) > 0 {
		if o.Action == "removed" {
			b.WriteString(" -> " + strings.Join(o.Removed, ", "))
			if len(o.From) == 0 {
				b.WriteString(" (catching up with an earlier sync)")
			}
		} else {
			why := "it cannot hold this server"
			if o.Action == "disabled" {
				why = "it has no way to turn a server off"
			}
			b.WriteString("; removed from " + strings.Join(o.Removed, ", ") + " (" + why + ")")
		}
	}
	if len(o.Kept) > 0 {
		fmt.Fprintf(&b, "; kept in %s (an entry mcpsync did not write; remove it by hand if you no longer want it)",
			strings.Join(o.Kept, ", "))
	}
	return b.String()
}
