package emitters

import (
	"bytes"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/parallel"
	"github.com/mcpsync/mcpsync/internal/safefile"
	"github.com/mcpsync/mcpsync/ledger"
)

// Two-way sync (package reconcile) plans in two steps on the same bytes:
// ReadForSync reads and decodes every target once; the merge decides what
// each section should hold; PlanSync edits exactly the bytes that were read,
// so that Apply's drift check refuses to write if any file changed since.

// SyncInput is every target's file, read and decoded once.
type SyncInput struct {
	Files []*FileChange
	// Sections are the targets in the order given, each with Current set
	// (empty when its file does not parse; see Diags).
	Sections []*TargetPlan
	Diags    canonical.Diagnostics
}

// ReadForSync reads every target's file once and decodes each section.
// Targets that share a file are read together. A file that cannot be read
// or does not parse is an error diagnostic with file:line:col.
func ReadForSync(targets []Target, memo *DecodeMemo) *SyncInput {
	in := &SyncInput{}
	groups := groupByFile(targets)
	files := make([]*FileChange, len(groups))
	// Each file is read and decoded on its own (watch's cycle waits for
	// the slowest: a 1,000-server Codex TOML); the input keeps the order.
	eachFile(len(groups), func(i int) {
		group := groups[i]
		fc := readFile(group)
		for _, t := range group {
			tp := &TargetPlan{Target: t, Client: t.Adapter.ID(), Scope: t.Location.Scope, Project: t.Location.Project}
			fc.Targets = append(fc.Targets, tp)
			if fc.Diags.HasErrors() {
				continue
			}
			cur, ds := memo.Decode(t.Adapter, t.Location, fc.Before)
			fc.Diags = append(fc.Diags, ds.WithFile(t.Location.Path)...)
			tp.Current = cur
		}
		files[i] = fc
	})
	for _, fc := range files {
		in.Files = append(in.Files, fc)
		in.Sections = append(in.Sections, fc.Targets...)
		in.Diags = append(in.Diags, fc.Diags...)
	}
	return in
}

// eachFile runs f(0) … f(n-1), as many at once as there are processors:
// the files of a plan are independent of one another (each is read,
// decoded and encoded by its own clients), and the adapters keep no state
// between calls.
func eachFile(n int, f func(i int)) { parallel.Each(n, f) }

// eachFileCostliestFirst is eachFile over groups, a TOML or YAML file
// first: their clients' edits are verified with a second parser and cost
// about twice a JSON file's, and started last (Codex's is fourth of five
// in an export to Claude Code, Cursor, VS Code, Codex and OpenCode), one
// of them was the last file still planned while the other processor had
// nothing left.
func eachFileCostliestFirst(groups [][]Target, f func(i int)) { eachIn(costliestFirst(groups), f) }

// costliestFirst is the indexes of groups, the TOML and YAML files first,
// each kind in the groups' order.
func costliestFirst(groups [][]Target) []int {
	order := make([]int, 0, len(groups))
	for pass := range 2 {
		for i, g := range groups {
			if costly := g[0].Location.Format == formats.TOML || g[0].Location.Format == formats.YAML; costly == (pass == 0) {
				order = append(order, i)
			}
		}
	}
	return order
}

// eachIn is eachFile in the given order of the indexes.
func eachIn(order []int, f func(i int)) { parallel.In(order, f) }

// FileOf returns the file a section of the input lives in.
func (in *SyncInput) FileOf(tp *TargetPlan) *FileChange {
	for _, fc := range in.Files {
		for _, t := range fc.Targets {
			if t == tp {
				return fc
			}
		}
	}
	return nil
}

// SyncWant is what one section should hold after the sync.
type SyncWant struct {
	// Servers is the section's whole desired list; entries equal to what
	// the file holds are left byte for byte by the adapter.
	Servers canonical.Set
	// Written are the names mcpsync writes (recorded as managed entries),
	// Removed the names it removes (forgotten).
	Written []string
	Removed []string
	// Refresh are entries mcpsync manages that the sync settled without
	// writing them (the client's own edit, now everywhere): their managed
	// snapshot becomes what the file holds, so that export no longer sees
	// a hand edit in them.
	Refresh []string
	Entries []EntryChange
}

// StoreEdit is the store file's change in a sync plan.
type StoreEdit struct {
	Path          string
	Root          string // a project's store is written beneath the project
	Before, After []byte // Before nil: the store does not exist yet
}

// SyncOptions say what a sync plan writes.
type SyncOptions struct {
	// Want holds, per section of the input, what it should hold; a
	// section without an entry is left as it is.
	Want  map[*TargetPlan]SyncWant
	State *ledger.State
	// Store, when set, is written in the same all-or-nothing plan as the
	// client files, first.
	Store *StoreEdit
	// StorePath keys the bases: Bases are recorded as what was last
	// synced, ForgetBases are dropped.
	StorePath   string
	Bases       []canonical.Server
	ForgetBases []string
	// BaseSources names the team source of the Bases that come from one.
	BaseSources map[string]string
	Encode      formats.EncodeOptions
	// Decoded, when set, keeps the files the plan decodes (see DecodeMemo).
	Decoded *DecodeMemo
	// KeepDecoded says the plan is to be written, as ExportOptions'.
	KeepDecoded bool
}

// PlanSync turns the merge's decisions into a plan on the bytes that
// ReadForSync read. The plan prints and applies like an export plan.
func PlanSync(in *SyncInput, opts SyncOptions) *Plan {
	if opts.State == nil {
		opts.State = ledger.New("")
	}
	p := &Plan{storePath: opts.StorePath, bases: opts.Bases, forgetBases: opts.ForgetBases, baseSources: opts.BaseSources}
	if in.Diags.HasErrors() {
		p.Files = in.Files
		p.Diags = append(p.Diags, in.Diags...)
		return p
	}
	if opts.Store != nil {
		p.Files = append(p.Files, storeChange(opts.Store))
	}
	var clean cleanSnapshots // see projectSecrets
	eachFile(len(in.Files), func(i int) {
		fc := in.Files[i]
		planFileSync(fc, opts)
		if opts.KeepDecoded {
			keepWritten(fc, opts.Decoded)
		}
		if !fc.Diags.HasErrors() {
			fc.Diags = append(fc.Diags, projectSecrets(fc, &clean)...)
		}
	})
	for _, fc := range in.Files {
		p.Files = append(p.Files, fc)
		p.Diags = append(p.Diags, fc.Diags...)
	}
	return p
}

// storeChange is the store's bytes as a file change with no client section.
func storeChange(e *StoreEdit) *FileChange {
	fc := &FileChange{Path: e.Path, Root: e.Root, Kind: Unchanged, Mode: NewFileMode, Before: e.Before, After: e.After}
	if e.Before != nil {
		fc.BeforeHash = ledger.HashBytes(e.Before)
		if fi, err := safefile.Stat(e.Path, e.Root); err == nil {
			fc.Mode = fi.Mode().Perm()
		}
	}
	switch {
	case e.Before == nil && e.After != nil:
		fc.Kind = Create
	case !bytes.Equal(e.Before, e.After):
		fc.Kind = Modify
	}
	return fc
}

// planFileSync encodes each section's wanted servers onto the file's bytes,
// one section after the other, and checks that the result reads back.
func planFileSync(fc *FileChange, opts SyncOptions) {
	cur := fc.Before
	removed := false
	for _, tp := range fc.Targets {
		want, ok := opts.Want[tp]
		if !ok {
			tp.After = tp.Current
			continue
		}
		t := tp.Target
		loc := t.Location
		section := SectionKey(loc)
		tp.Desired = want.Servers
		tp.Entries = append(tp.Entries, want.Entries...)
		if len(want.Written) == 0 && len(want.Removed) == 0 {
			// Nothing to write: only snapshots to refresh.
			tp.After = tp.Current
			for _, name := range want.Refresh {
				if srv, ok := tp.Current.Get(name); ok && opts.State.IsManaged(fc.Path, section, name) {
					tp.manageSnapshot(opts.State, name, tp.Client, srv, nil, nil)
				}
			}
			continue
		}
		out, eds := t.Adapter.Encode(loc, cur, want.Servers, opts.Encode.For(loc))
		fc.Diags = append(fc.Diags, eds.WithFile(loc.Path)...)
		if eds.HasErrors() {
			return
		}
		after, ads := opts.Decoded.DecodeOutput(t.Adapter, loc, out) // the next cycle of watch reads these bytes
		if ads.HasErrors() {
			d := canonical.Errorf("the %s adapter produced a file it cannot read back", tp.Client)
			d.Detail = "this is a bug in mcpsync; nothing was written. First problem: " + ads.Errors()[0].Error()
			fc.Diags = append(fc.Diags, d.At(canonical.Pos{File: loc.Path}))
			return
		}
		tp.After, tp.readBack, tp.readBackDiags = after, out, ads
		if len(want.Written) > 0 {
			tp.addedKeys = addedKeys(t, cur, out, tp.Current.Len() > 0, after.Len() > 0)
		}
		out = tp.sideKeys(opts.State, fc.Path, cur, out, after)
		wantIdx := want.Servers.Indexed()
		for _, name := range want.Written {
			if srv, ok := after.Get(name); ok {
				e := tp.manageSnapshot(opts.State, name, tp.Client, srv, nil, nil)
				if w, ok := wantIdx.Get(name); ok && !sameDefinition(srv, w, tp.Client) {
					e.From = WrittenFrom(t, w, opts.Encode) // as export records it (recordWritten)
				}
			}
		}
		for _, name := range want.Refresh {
			if srv, ok := after.Get(name); ok && opts.State.IsManaged(fc.Path, section, name) {
				tp.manageSnapshot(opts.State, name, tp.Client, srv, nil, nil)
			}
		}
		for _, name := range want.Removed {
			if after.Index(name) < 0 {
				tp.forget = append(tp.forget, name)
				removed = true
			}
		}
		cur = out
	}
	fc.After = cur
	switch {
	case fc.Before == nil && (cur == nil || removedAllOrNone(fc.Targets)):
		fc.After = nil // a file holding no server is not created
	case fc.Before == nil:
		fc.Kind = Create
	case !bytes.Equal(fc.Before, cur):
		fc.Kind = Modify
	}
	// As with export --prune: a file mcpsync created goes away once it
	// holds no server and nothing but mcpsync's own bytes.
	if removed && fc.Before != nil && removedAllOrNone(fc.Targets) {
		group := make([]Target, len(fc.Targets))
		for i, tp := range fc.Targets {
			group[i] = tp.Target
		}
		f := opts.State.File(fc.Path)
		if f != nil && f.Created && (f.SHA256 == fc.BeforeHash || isEmptyShape(group, cur, opts.Encode)) {
			fc.Kind, fc.After = Delete, nil
			fc.removeDirs = f.CreatedDirs
			return
		}
	}
	// A section this sync emptied loses the keys mcpsync added to reach it.
	if removed && fc.Before != nil {
		fc.dropAddedKeys(opts.State, func(tp *TargetPlan) bool { return len(opts.Want[tp].Removed) > 0 })
	}
}
