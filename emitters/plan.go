// Package emitters is the only code that writes client files. It plans
// first, then prints the plan (a git-style diff) or applies exactly that
// plan.
//
// # Plan
//
// For every target file: read the current bytes (nil when absent), decode
// each client section, decide the desired servers, and let the adapter edit
// the bytes (Adapter.Encode). Equal bytes mean no change. Every error in
// any target (a file that does not parse, an encode error) fails the whole
// plan, so nothing is written unless everything can be.
//
// # Export rules
//
// For each target, desired = what the file holds now, plus every store
// server the store's client rules allow, with these rules for a name that
// is already in the file with a different definition:
//
//   - an entry mcpsync wrote (recorded in state) and that nobody edited
//     since is replaced by the store's definition;
//   - an entry mcpsync did not write (the user's own, or another tool's), or
//     one mcpsync wrote but the user edited since, is left alone with a
//     warning, because a hand-written entry must never be silently
//     overwritten; Force replaces it;
//   - a replaced entry keeps the client-specific keys the user added
//     (Server.Extra) unless the store says otherwise.
//
// With Prune, entries mcpsync wrote that the store no longer has (or no
// longer allows for that client) are removed, unless they were edited by
// hand since (a warning; Force removes them). A file mcpsync created is
// removed when it ends up holding nothing but what mcpsync would write for
// an empty file, and with it the directories mcpsync created for it (each
// only while empty). In a file that stays, the keys mcpsync added to reach
// a server map that is empty again ("mcpServers" in a Gemini settings.json
// that held only a theme) go too (formats.SectionRemover); a key the file
// had stays, even empty. Likewise a key mcpsync added beside a server map
// (VS Code's "inputs" for the prompts of --prompt-inputs) goes once an edit
// leaves it empty (formats.SideKeyRemover). Entries mcpsync did not write
// are never pruned.
//
// # Apply
//
// See Apply: drift check, backups, atomic writes, rollback, ledger. A file
// the user made read-only, or one in a directory mcpsync cannot write, is
// an error while planning, so that nothing at all is written.
//
// # Backups and restore
//
// Every apply first copies the old bytes of the files it changes to
// StateDir/backups/<time>/, with a manifest of the files, the command and
// what the state knew about each. ListBackups reads them; PlanRestore plans
// bringing files back (undo the last write of a file, the last apply, or
// everything as it was at a time), applied like any plan, so a restore is
// itself backed up; PruneBackups keeps a Retention (by default the newest
// 20 backups of each file, none older than 30 days but each file's newest),
// and runs after every apply that wrote. PlanWrite plans writing a file that
// is not a client's (the store) through the same pipeline.
package emitters

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"maps"
	"path/filepath"
	"slices"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/buildid"
	"github.com/mcpsync/mcpsync/internal/safefile"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/ledger"
)

// NewFileMode is the mode of a client file mcpsync creates: such files may
// reference secrets, so only the user reads them.
const NewFileMode fs.FileMode = 0o600

// A Target is one client section to write: an adapter and one of its
// locations.
type Target struct {
	Adapter  formats.Adapter
	Location formats.Location
}

// SectionKey names the server map of loc inside its file, as the state
// records it: "" for the file's own map, or the project directory for
// Claude Code's projects[dir].mcpServers. Clients that share a file and a
// map (Claude Code's and Copilot's .mcp.json) share managed entries, since
// they are the same entries.
func SectionKey(loc formats.Location) string { return loc.Project }

// ChangeKind is what happens to a file.
type ChangeKind string

const (
	Unchanged ChangeKind = "unchanged"
	Create    ChangeKind = "create"
	Modify    ChangeKind = "modify"
	Delete    ChangeKind = "delete"
)

// Action is what happens to one server entry in one target.
type Action string

const (
	Add    Action = "add"
	Update Action = "update"
	Remove Action = "remove"
	Keep   Action = "unchanged"
	// Skip means the entry was left alone (a conflict, or the client cannot
	// express it); a warning says why.
	Skip Action = "skip"
)

// ReasonCannotExpress is the Reason of a Skip for a server the client
// cannot hold (a transport it does not speak): the same on every run, unlike
// a conflict, which the user is to settle.
const ReasonCannotExpress = "the client cannot express it"

// EntryChange is the fate of one server in one target.
// ReasonEditedByHand is why an entry is skipped that its client's user
// changed since mcpsync wrote it (status --strict counts it as drift).
const ReasonEditedByHand = "edited by hand since mcpsync wrote it"

type EntryChange struct {
	Name   string `json:"name"`
	Action Action `json:"action"`
	Reason string `json:"reason,omitempty"`
}

// TargetPlan is the plan for one client section of a file.
type TargetPlan struct {
	Target  Target          `json:"-"`
	Client  string          `json:"client"`
	Scope   canonical.Scope `json:"scope"`
	Project string          `json:"project,omitempty"`
	// Current is what the section held when planned; Desired is what it is
	// asked to hold; After is what the new bytes decode to.
	Current canonical.Set `json:"-"`
	Desired canonical.Set `json:"-"`
	After   canonical.Set `json:"-"`
	Entries []EntryChange `json:"entries,omitempty"`

	// State changes to record when the plan is applied.
	manage map[string]*ledger.Entry
	forget []string
	// addedKeys counts the keys leading to the server map that this plan
	// adds to the file; keysRemoved says it removes those mcpsync added
	// before (see formats.SectionRemover).
	addedKeys   int
	keysRemoved bool
	// addedSide lists the keys beside the server map that this plan adds
	// to the file; sideGone those mcpsync added before that the file no
	// longer has after it (see formats.SideKeyRemover).
	addedSide []string
	sideGone  []string

	// readBack is the bytes After was decoded from, and readBackDiags
	// what that decode said (see ExportOptions.KeepDecoded).
	readBack      []byte
	readBackDiags canonical.Diagnostics

	// from is what writtenFrom hashes before a definition's hash, for the
	// options it was made with (see TargetPlan.writtenFrom); nil prefix
	// until then.
	from struct {
		opts   formats.EncodeOptions
		prefix []byte
	}
}

// FileChange is the plan for one file: its bytes before and after.
type FileChange struct {
	// Path is the file as the client location names it; RealPath is where
	// the bytes live (through symlinks).
	Path     string `json:"path"`
	RealPath string `json:"realPath,omitempty"`
	// Root is the directory the file may not leave (its location's Root:
	// a project-scope file is read and written beneath the project only).
	Root string     `json:"root,omitempty"`
	Kind ChangeKind `json:"change"`
	// Before is nil when the file does not exist; After is nil when it is
	// to be deleted.
	Before     []byte        `json:"-"`
	After      []byte        `json:"-"`
	BeforeHash string        `json:"-"`
	Mode       fs.FileMode   `json:"-"`
	Targets    []*TargetPlan `json:"targets"`
	// Diags are this file's problems (also in Plan.Diags).
	Diags canonical.Diagnostics `json:"diagnostics,omitempty"`

	// raw marks a file that is not a client's (the store): Apply backs it
	// up and writes it, and the state does not record it.
	raw bool
	// createdDirs are the directories the write of a new file created;
	// removeDirs those to remove, each while empty, once the file is
	// deleted (the ones mcpsync created for it), innermost first.
	createdDirs []string
	removeDirs  []string
	// restored is the backup record a restore brings back.
	restored *BackupRecord
	// afterHash is After's hash, made by Apply for the backup's manifest
	// and the state both.
	afterHash string
	// maskValues, for a plan that let its sets go and kept what its mask
	// needs (ExportOptions.KeepMask), are the secret values of the server
	// definitions in this file's sets that no other file's scan took
	// first (secrets.Values): together, every file's are the plan's.
	maskValues []string
}

// Changed reports whether applying writes or removes the file.
func (f *FileChange) Changed() bool { return f.Kind != Unchanged }

// Plan is the whole set of file changes. Apply writes exactly this.
type Plan struct {
	Files []*FileChange         `json:"files"`
	Diags canonical.Diagnostics `json:"diagnostics,omitempty"`

	storePath   string
	bases       []canonical.Server
	forgetBases []string
	// baseSources names the team source of the bases that come from one.
	baseSources map[string]string
	// setsDropped: the targets' server sets were let go after planning
	// (ExportOptions.DropSets); masksKept: with what SecretMask needs of
	// them kept (ExportOptions.KeepMask).
	setsDropped, masksKept bool
	// stored holds the store servers' entries the files share, for the
	// bases (an export's; nil for other plans).
	stored *storeEntries
}

// Changes returns the files that would be written or removed.
func (p *Plan) Changes() []*FileChange {
	var out []*FileChange
	for _, f := range p.Files {
		if f.Changed() {
			out = append(out, f)
		}
	}
	return out
}

// Err returns the plan's errors, if any; a plan with errors cannot be applied.
func (p *Plan) Err() error { return p.Diags.Err() }

// ExportOptions say what an export plan writes.
type ExportOptions struct {
	// Servers are the store's servers, in store order.
	Servers canonical.Set
	// Allows says whether the store lets a server go to a client (store
	// client rules); nil allows everything.
	Allows func(client, server string) bool
	// State tells which entries mcpsync wrote before; nil is an empty ledger.
	State *ledger.State
	// StorePath is recorded with the sync bases.
	StorePath string
	// Sources names, for each server of Servers that comes from a team
	// source (desired.Servers.FromSource), that source; it is recorded
	// with the server's sync base.
	Sources map[string]string
	Prune   bool
	// Force replaces (and with Prune removes) entries mcpsync does not own
	// or that were edited by hand since mcpsync wrote them.
	Force  bool
	Encode formats.EncodeOptions
	// Decoded, when set, keeps what the client files decoded to (see
	// DecodeMemo).
	Decoded *DecodeMemo
	// Planned, when set, is called with each file once it is planned (and
	// not when it could not be read), on the planner's goroutine: several
	// at once, so it must be safe for that. It lets a caller check files
	// while others are still being planned.
	Planned func(*FileChange)
	// DropSets lets go of each file's server sets (TargetPlan.Current,
	// Desired and After) once it is planned, checked and Planned has
	// seen it, for a plan that is applied and not shown: they are most of
	// a large plan's memory, and nothing that writes needs them after.
	// SecretMask then reads them back from the bytes, unless KeepMask.
	DropSets bool
	// KeepMask, with DropSets, keeps the secret values each file's sets
	// hold before they go, for SecretMask: a plan that is shown (a dry
	// run) lets its sets go all the same. Held to the end of a dry run of
	// 10,000 servers to every client, they made the live heap grow to
	// 400 MB, and the collector mark it over and over.
	KeepMask bool
	// KeepDecoded says the plan is to be written: what each file it
	// changes reads back as is kept in Decoded (DecodeMemo.Written), as
	// what the file decodes to once written, so that the next run to read
	// it (a sync, a diff, a watch) need not decode it again. The first
	// sync after an export of 10,000 servers to every client decoded
	// every file the export had just decoded, and took twice as long as
	// the sync after it.
	KeepDecoded bool

	stored *storeEntries // made by PlanExport
}

// PlanExport plans writing the store's servers into every target. Targets
// that share a file are planned one after the other on the same bytes.
func PlanExport(targets []Target, opts ExportOptions) *Plan {
	if opts.State == nil {
		opts.State = ledger.New("")
	}
	if opts.Allows == nil {
		opts.Allows = func(string, string) bool { return true }
	}
	opts.stored = newStoreEntries(opts.State, opts.Servers.Indexed())
	p := &Plan{storePath: opts.StorePath, baseSources: opts.Sources, setsDropped: opts.DropSets,
		masksKept: opts.DropSets && opts.KeepMask, stored: opts.stored}
	// exported marks the store servers some file holds, by their place in
	// the store: a file's own map of names was 300 KB at 10,000 servers,
	// every file's held until the last was planned.
	exported := make([]bool, opts.Servers.Len())
	pruned := map[string]bool{}
	var clean cleanSnapshots      // see projectSecrets
	var maskValues secrets.Values // see KeepMask
	groups := groupByFile(targets)
	type planned struct {
		fc       *FileChange
		unread   bool   // readFile failed: not planned
		exported []bool // by the store server's place
		pruned   map[string]bool
	}
	files := make([]planned, len(groups))
	// Each file is planned on its own (read, encoded, read back, checked),
	// as many at once as there are processors; what they found is merged
	// in order. The checks run here too: at 10,000 servers they were a
	// tenth of an export, waiting on one processor for the last file.
	eachFileCostliestFirst(groups, func(i int) {
		fc := readFile(groups[i])
		// Room for every store server: a map grown one name at a time
		// rehashed itself a dozen times per file at 10,000 servers.
		pl := planned{fc: fc, unread: fc.Diags.HasErrors(), exported: make([]bool, opts.Servers.Len()), pruned: map[string]bool{}}
		if !pl.unread {
			group := groups[i]
			planFileExport(fc, group, opts, pl.exported, pl.pruned)
			if opts.KeepDecoded {
				keepWritten(fc, opts.Decoded)
			}
			if fc.Changed() && !fc.Diags.HasErrors() && !group[0].Location.Shown {
				fc.Diags = append(fc.Diags, checkWritable(fc, clientNames(group))...)
				fc.Diags = append(fc.Diags, readableSecrets(fc, &clean.scan)...)
				fc.Diags = append(fc.Diags, projectSecrets(fc, &clean)...)
			}
			if opts.Planned != nil {
				opts.Planned(fc)
			}
			if opts.DropSets {
				for _, tp := range fc.Targets {
					if p.masksKept {
						fc.maskValues = append(fc.maskValues, maskValues.Add(tp.Current, tp.Desired, tp.After)...)
					}
					tp.Current, tp.Desired, tp.After = canonical.Set{}, canonical.Set{}, canonical.Set{}
				}
			}
		}
		files[i] = pl
	})
	for _, pl := range files {
		fc := pl.fc
		p.Files = append(p.Files, fc)
		p.Diags = append(p.Diags, fc.Diags...)
		if pl.unread {
			continue
		}
		for i, ok := range pl.exported {
			exported[i] = exported[i] || ok
		}
		maps.Copy(pruned, pl.pruned)
	}
	p.bases = exportedBases(opts.Servers.Servers, exported)
	for name := range pruned {
		if opts.Servers.Index(name) < 0 {
			p.forgetBases = append(p.forgetBases, name)
		}
	}
	return p
}

// exportedBases returns the servers of store that exported marks (by
// their place in store), in order: store itself when that is all of them (the usual export), which
// the plan then shares with its caller and never changes; otherwise a list
// of its own. A copy of every server was 2.7 MB held to the end of an
// export of 10,000.
func exportedBases(store []canonical.Server, exported []bool) []canonical.Server {
	n := 0
	for _, ok := range exported {
		if ok {
			n++
		}
	}
	if n == len(store) {
		return slices.Clip(store)
	}
	bases := make([]canonical.Server, 0, n)
	for i, srv := range store {
		if exported[i] {
			bases = append(bases, srv)
		}
	}
	return bases
}

// groupByFile groups targets by the real file they write, keeping the
// order of first appearance, so that two locations in one file (Claude
// Code's user and local scopes in ~/.claude.json) are edited in sequence.
func groupByFile(targets []Target) [][]Target {
	var order []string
	groups := map[string][]Target{}
	for _, t := range targets {
		key := filepath.Clean(t.Location.Path)
		if real, err := safefile.Resolve(key, t.Location.Root); err == nil {
			key = real
		}
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], t)
	}
	out := make([][]Target, len(order))
	for i, k := range order {
		out[i] = groups[k]
	}
	return out
}

// readFile reads the group's file: bytes, mode and hash. A missing file is
// nil bytes and no error.
func readFile(group []Target) *FileChange {
	path := group[0].Location.Path
	fc := &FileChange{Path: path, Kind: Unchanged, Mode: NewFileMode, Root: group[0].Location.Root}
	if real, err := safefile.Resolve(path, fc.Root); err == nil && real != path {
		fc.RealPath = real
	}
	for _, t := range group {
		if t.Location.ReadOnly {
			d := canonical.Errorf("%s is read-only for mcpsync", t.Location)
			d.Detail = t.Location.Note
			fc.Diags = append(fc.Diags, d.At(canonical.Pos{File: path}))
		}
	}
	if group[0].Location.Shown {
		return fc // another machine's file: never read, as if absent
	}
	data, mode, err := readCurrent(path, fc.Root)
	if err != nil {
		d := canonical.Errorf("cannot read %s: %v", path, unwrapPath(err))
		d.Detail = "fix the file's permissions or remove it from the targets; nothing was written"
		var linkOut *safefile.LinkOutError
		if errors.As(err, &linkOut) {
			d = canonical.Errorf("%v", err)
			d.Detail = "nothing was written; a project's files are read and written inside the project only"
		}
		fc.Diags = append(fc.Diags, d.At(canonical.Pos{File: path}))
		return fc
	}
	fc.Before, fc.After = data, data
	if data != nil {
		fc.Mode = mode
		fc.BeforeHash = ledger.HashBytes(data)
	}
	return fc
}

// readCurrent returns the file's bytes (nil when it does not exist) and
// mode, read beneath root when root is set (safefile).
func readCurrent(path, root string) ([]byte, fs.FileMode, error) {
	data, mode, err := safefile.ReadFile(path, root)
	if errors.Is(err, fs.ErrNotExist) {
		var linkOut *safefile.LinkOutError
		if !errors.As(err, &linkOut) {
			return nil, 0, nil
		}
	}
	return data, mode, err
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// planFileExport plans every target of one file on the chained bytes.
func planFileExport(fc *FileChange, group []Target, opts ExportOptions, exported []bool, pruned map[string]bool) {
	cur := fc.Before
	writtenHere := map[string]map[string]bool{} // section → names written by an earlier target
	for _, t := range group {
		tp := &TargetPlan{Target: t, Client: t.Adapter.ID(), Scope: t.Location.Scope, Project: t.Location.Project}
		fc.Targets = append(fc.Targets, tp)
		section := SectionKey(t.Location)
		if writtenHere[section] == nil {
			writtenHere[section] = make(map[string]bool, opts.Servers.Len())
		}
		next, ok := planTargetExport(fc, tp, cur, opts, writtenHere[section], exported, pruned)
		if !ok {
			return
		}
		cur = next
	}
	fc.After = cur
	switch {
	case fc.Before == nil && removedAllOrNone(fc.Targets):
		fc.After = nil // nothing to write: a file holding no server is not created
	case fc.Before == nil && cur != nil:
		fc.Kind = Create
	case !bytes.Equal(fc.Before, cur):
		fc.Kind = Modify
	}
	// A file mcpsync created goes away once it holds no server and nothing
	// but mcpsync's own bytes (nobody changed it since mcpsync last wrote
	// it, or it is exactly what mcpsync writes for an empty file): connect
	// then disconnect leaves no residue. A file the user or the client
	// added something to stays.
	if opts.Prune && fc.Before != nil && removedAllOrNone(fc.Targets) {
		f := opts.State.File(fc.Path)
		if f != nil && f.Created && (f.SHA256 == fc.BeforeHash || isEmptyShape(group, cur, opts.Encode)) {
			fc.Kind, fc.After = Delete, nil
			fc.removeDirs = f.CreatedDirs
			return
		}
	}
	// A file that stays loses the keys mcpsync added to reach a server map
	// that is empty now ("mcpServers": {} in a Gemini settings.json that
	// had only a theme).
	if opts.Prune && fc.Before != nil {
		fc.dropAddedKeys(opts.State, func(*TargetPlan) bool { return true })
	}
}

// dropAddedKeys removes, from each eligible section left without a server,
// the keys leading to its map that mcpsync added to the file (recorded in
// the state), through the adapter (formats.SectionRemover), and updates
// fc.After and fc.Kind. A removal that would change what any section of
// the file holds is not made.
func (fc *FileChange) dropAddedKeys(st *ledger.State, eligible func(*TargetPlan) bool) {
	f := st.File(fc.Path)
	cur := fc.After
	for _, tp := range fc.Targets {
		if !eligible(tp) || tp.After.Len() > 0 || cur == nil {
			continue
		}
		n := tp.addedKeys
		if f != nil {
			n = max(n, f.AddedKeys[SectionKey(tp.Target.Location)])
		}
		sr, ok := tp.Target.Adapter.(formats.SectionRemover)
		if n == 0 || !ok {
			continue
		}
		out, ds := sr.RemoveEmptyKeys(tp.Target.Location, cur, n)
		if ds.HasErrors() || bytes.Equal(out, cur) || !sameSections(fc.Targets, out) {
			continue
		}
		cur = out
		tp.keysRemoved = true
	}
	fc.After = cur
	switch {
	case fc.Before == nil || fc.After == nil:
	case !bytes.Equal(fc.Before, fc.After):
		fc.Kind = Modify
	default:
		fc.Kind = Unchanged
	}
}

// sameSections reports whether data still reads, for every section of the
// file, as the plan left it.
func sameSections(tps []*TargetPlan, data []byte) bool {
	for _, tp := range tps {
		if !tp.readsAs(data, tp.After) {
			return false
		}
	}
	return true
}

// readsAs reports whether the target's section of data reads as want.
// Written yields the servers the plan adds to or changes in tp's section,
// as it asks the section to hold them (Desired: every client's keys
// included). It needs the plan's sets (not ExportOptions.DropSets, before
// Planned has returned).
func (tp *TargetPlan) Written() iter.Seq[canonical.Server] {
	return func(yield func(canonical.Server) bool) {
		byName := tp.Desired.Indexed()
		for _, ec := range tp.Entries {
			if ec.Action != Add && ec.Action != Update {
				continue
			}
			if srv, ok := byName.Get(ec.Name); ok && !yield(srv) {
				return
			}
		}
	}
}

func (tp *TargetPlan) readsAs(data []byte, want canonical.Set) bool {
	got, ds := tp.Target.Adapter.Decode(tp.Target.Location, data)
	if ds.HasErrors() || got.Len() != want.Len() {
		return false
	}
	for _, srv := range want.Servers {
		if g, ok := got.Get(srv.Name); !ok || ledger.Hash(g) != ledger.Hash(srv) {
			return false
		}
	}
	return true
}

// sideKeys notes the keys beside the target's server map that the edit
// from before to out added (formats.SideKeyRemover), and takes out those
// mcpsync added earlier that the edit left empty (the "inputs" of VS Code
// once its last prompt went), when the section still reads as after. It
// returns the bytes to go on with.
func (tp *TargetPlan) sideKeys(st *ledger.State, path string, before, out []byte, after canonical.Set) []byte {
	sr, ok := tp.Target.Adapter.(formats.SideKeyRemover)
	if !ok || bytes.Equal(before, out) {
		return out
	}
	loc := tp.Target.Location
	tp.addedSide = sr.AddedSideKeys(loc, before, out)
	f := st.File(path)
	if f == nil || len(f.AddedSideKeys[SectionKey(loc)]) == 0 {
		return out
	}
	next, gone, ds := sr.RemoveEmptySideKeys(loc, out, f.AddedSideKeys[SectionKey(loc)])
	if ds.HasErrors() || len(gone) == 0 || (!bytes.Equal(next, out) && !tp.readsAs(next, after)) {
		return out
	}
	tp.sideGone = gone
	return next
}

// addedKeys reports how many keys leading to the target's server map the
// edit from before to after added (formats.SectionRemover); 0 for clients
// whose map is the whole file. had says the section read a server before
// the edit: its map was there, so the edit added no key to reach it and
// before need not be parsed again (a whole parse of a client file of
// 10,000 servers, on every sync and re-export that changed it). holds says
// the same of after.
func addedKeys(t Target, before, after []byte, had, holds bool) int {
	sr, ok := t.Adapter.(formats.SectionRemover)
	if !ok || had || bytes.Equal(before, after) {
		return 0
	}
	missing := sr.MissingKeys(t.Location, before)
	if missing == 0 || holds {
		return missing
	}
	return max(0, missing-sr.MissingKeys(t.Location, after))
}

// isEmptyShape reports whether data is exactly what the targets' adapters
// write for a new file holding no server (or only white space).
func isEmptyShape(group []Target, data []byte, opts formats.EncodeOptions) bool {
	if len(bytes.TrimSpace(data)) == 0 {
		return true
	}
	var empty []byte
	for _, t := range group {
		out, ds := t.Adapter.Encode(t.Location, empty, canonical.Set{}, opts.For(t.Location))
		if ds.HasErrors() {
			return false
		}
		empty = out
	}
	return bytes.Equal(empty, data)
}

// keepWritten keeps in m what each section of a file to be written reads
// back as (DecodeMemo.Written), where that read-back was of the file's
// final bytes: a later section's edit, or keys added beside the servers,
// make other bytes, which the next run decodes.
func keepWritten(fc *FileChange, m *DecodeMemo) {
	if !fc.Changed() || fc.After == nil || fc.Diags.HasErrors() {
		return
	}
	for _, tp := range fc.Targets {
		if tp.readBack != nil && bytes.Equal(tp.readBack, fc.After) {
			m.Written(tp.Target.Adapter, tp.Target.Location, fc.After, tp.After, tp.readBackDiags)
		}
	}
}

// planTargetExport decides one target's desired servers and encodes them
// onto data. It returns the new bytes, or false when the target failed (its
// diagnostics are on fc).
func planTargetExport(fc *FileChange, tp *TargetPlan, data []byte, opts ExportOptions,
	writtenHere map[string]bool, exported []bool, pruned map[string]bool) ([]byte, bool) {
	t := tp.Target
	client, loc := tp.Client, t.Location
	decode := opts.Decoded.DecodeOutput // an earlier target's edit of the file
	if bytes.Equal(data, fc.Before) {
		decode = opts.Decoded.Decode // the file's own bytes
	}
	current, ds := decode(t.Adapter, loc, data)
	fc.Diags = append(fc.Diags, ds.WithFile(loc.Path)...)
	if ds.HasErrors() {
		return nil, false
	}
	tp.Current = current
	// The desired set shares its servers' lists and maps with current and
	// with the store's set: nothing here changes a server in place (an
	// adapter's Encode works on its own copy), and the one field this
	// plan sets on a store server, its Extra, is copied before it is
	// changed. A deep copy of every server for every target was a fifth
	// of the memory an export of 10,000 servers to every client held.
	// Room for every store server: appending them one by one to a set of
	// 10,000 copied the growing list over and over.
	desiredSet := canonical.Set{Servers: make([]canonical.Server, len(current.Servers), len(current.Servers)+len(opts.Servers.Servers))}
	copy(desiredSet.Servers, current.Servers)
	currentIdx, desired, storeIdx := current.Indexed(), desiredSet.IndexedRoom(cap(desiredSet.Servers)), opts.stored.servers
	section := SectionKey(loc)
	managed := opts.State.Managed(fc.Path, section)
	var adds, updates []string
	// Room for an entry per store server, which most files get (kept,
	// added, updated or skipped): grown one by one, the list of 10,000
	// was copied over and over, 8 MB allocated per export to four clients.
	tp.Entries = slices.Grow(tp.Entries, len(opts.Servers.Servers))
	warn := func(srv canonical.Server, summary, detail string) {
		d := canonical.Warnf("%s", summary)
		d.Detail, d.Server = detail, srv.Name
		pos := srv.Origin
		if pos.File == "" {
			pos.File = loc.Path
		}
		fc.Diags = append(fc.Diags, d.At(pos))
	}
	for i, storeSrv := range opts.Servers.Servers {
		if !opts.Allows(client, storeSrv.Name) {
			continue
		}
		want := storeSrv // shared, see desiredSet
		want.Origin = canonical.Pos{}
		have, exists := currentIdx.Get(want.Name)
		if !exists {
			desired.Put(want)
			adds = append(adds, want.Name)
			exported[i] = true
			continue
		}
		rec := managed[want.Name]
		if same, from := heldAsWritten(tp, have, want, rec, opts.Encode, opts.stored); same {
			tp.Entries = append(tp.Entries, EntryChange{Name: want.Name, Action: Keep})
			exported[i] = true
			if rec != nil {
				tp.manageSnapshot(opts.State, want.Name, client, have, rec, nil).From = from
			}
			continue
		}
		owned := rec != nil && rec.Holds(have)
		switch {
		case owned || writtenHere[want.Name] || opts.Force:
			if want.Extra[client] == nil && have.Extra[client] != nil {
				// A map of want's own: the store's server shares its Extra.
				extra := make(map[string]map[string]json.RawMessage, len(want.Extra)+1)
				maps.Copy(extra, want.Extra)
				extra[client] = maps.Clone(have.Extra[client])
				want.Extra = extra
			}
			desired.Put(want)
			updates = append(updates, want.Name)
			exported[i] = true
		case rec != nil:
			tp.Entries = append(tp.Entries, EntryChange{Name: want.Name, Action: Skip, Reason: ReasonEditedByHand})
			warn(have, fmt.Sprintf("edited by hand in %s since mcpsync wrote it; left alone", client),
				"the store's definition differs from the edited entry; run with --force to overwrite the edit, "+
					"or 'mcpsync import --from "+client+" --prefer client' to take the edit into the store")
		default:
			tp.Entries = append(tp.Entries, EntryChange{Name: want.Name, Action: Skip, Reason: "not written by mcpsync and differs from the store"})
			warn(have, fmt.Sprintf("%s already has its own entry, different from the store's; left alone", client),
				"mcpsync never overwrites an entry it did not write; run with --force to replace it with the store's definition, "+
					"or 'mcpsync import --from "+client+"' to compare and take it into the store")
		}
	}
	var removes []string
	if opts.Prune {
		for _, name := range opts.State.ManagedNames(fc.Path, section) {
			if storeIdx.Has(name) && opts.Allows(client, name) {
				continue
			}
			have, exists := currentIdx.Get(name)
			if !exists {
				tp.forget = append(tp.forget, name)
				continue
			}
			if !managed[name].Holds(have) && !opts.Force {
				tp.Entries = append(tp.Entries, EntryChange{Name: name, Action: Skip, Reason: ReasonEditedByHand})
				warn(have, fmt.Sprintf("not pruned: edited by hand in %s since mcpsync wrote it", client),
					"run with --force to remove it anyway, or remove it by hand")
				continue
			}
			desired.Remove(name)
			removes = append(removes, name)
			pruned[name] = true
		}
	}
	tp.Desired = desiredSet
	if data != nil && len(adds)+len(updates)+len(removes) == 0 {
		// Nothing to add, change or remove: the file stays byte for byte
		// as it is, and reads back as it was just read (a no-op export
		// costs a read, not an encode and a second decode).
		tp.After = current
		return data, true
	}
	if data != nil && len(updates)+len(removes) == 0 && noneHeld(fc, tp, adds, desired, opts) {
		// Every server to add is one the client cannot hold (an SSE server
		// for Codex, on every run): the file stays as it is, and encoding
		// and reading back the whole file would only say so again.
		tp.After = current
		for _, name := range adds {
			tp.Entries = append(tp.Entries, EntryChange{Name: name, Action: Skip, Reason: ReasonCannotExpress})
			writtenHere[name] = true
		}
		return data, true
	}
	out, eds := t.Adapter.Encode(loc, data, desiredSet, opts.Encode.For(loc))
	fc.Diags = append(fc.Diags, eds.WithFile(loc.Path)...)
	if eds.HasErrors() {
		return nil, false
	}
	after, ads := t.Adapter.Decode(loc, out)
	if ads.HasErrors() {
		d := canonical.Errorf("the %s adapter produced a file it cannot read back", client)
		d.Detail = "this is a bug in mcpsync; nothing was written. First problem: " + ads.Errors()[0].Error()
		fc.Diags = append(fc.Diags, d.At(canonical.Pos{File: loc.Path}))
		return nil, false
	}
	tp.After, tp.readBack, tp.readBackDiags = after, out, ads
	afterIdx := after.Indexed()
	if len(adds) > 0 {
		tp.addedKeys = addedKeys(t, data, out, current.Len() > 0, after.Len() > 0)
	}
	out = tp.sideKeys(opts.State, fc.Path, data, out, after)
	for _, name := range adds {
		tp.recordWritten(opts.State, name, client, opts.stored, afterIdx, Add, opts.Encode)
		writtenHere[name] = true
	}
	for _, name := range updates {
		action := Update
		if before, _ := currentIdx.Get(name); sameBytesOfMeaning(before, afterIdx, name) {
			action = Keep // the client cannot express the difference; the file stays as it is
		}
		tp.recordWritten(opts.State, name, client, opts.stored, afterIdx, action, opts.Encode)
		writtenHere[name] = true
	}
	for _, name := range removes {
		if !afterIdx.Has(name) {
			tp.Entries = append(tp.Entries, EntryChange{Name: name, Action: Remove})
			tp.forget = append(tp.forget, name)
		}
	}
	return out, true
}

// noneHeld reports whether the target's client can hold none of the
// servers named in adds: written alone into a new file, none of them reads
// back. The adapter's warnings for them are added to fc, as a whole-file
// encode would have given them (an adapter decides what it cannot write
// from the server and the options, not from the rest of the file). Any
// error, or any server held, is false: the whole file is then encoded.
func noneHeld(fc *FileChange, tp *TargetPlan, adds []string, desired *canonical.Indexed, opts ExportOptions) bool {
	if len(adds) == 0 {
		return false
	}
	t := tp.Target
	probe := canonical.Set{Servers: make([]canonical.Server, 0, len(adds))}
	for _, name := range adds {
		srv, _ := desired.Get(name)
		probe.Servers = append(probe.Servers, srv)
	}
	out, ds := t.Adapter.Encode(t.Location, nil, probe, opts.Encode.For(t.Location))
	if ds.HasErrors() {
		return false
	}
	if back, rds := t.Adapter.Decode(t.Location, out); rds.HasErrors() || back.Len() > 0 {
		return false
	}
	fc.Diags = append(fc.Diags, ds.WithFile(t.Location.Path)...)
	return true
}

// recordWritten notes a server mcpsync wrote, as the client reads it back.
// A server the adapter left out (a transport the client cannot use) is a
// skip; the adapter's warning says why.
func (tp *TargetPlan) recordWritten(st *ledger.State, name, client string, stored *storeEntries, after *canonical.Indexed, action Action, opts formats.EncodeOptions) {
	srv, ok := after.Get(name)
	if !ok {
		tp.Entries = append(tp.Entries, EntryChange{Name: name, Action: Skip, Reason: ReasonCannotExpress})
		return
	}
	tp.Entries = append(tp.Entries, EntryChange{Name: name, Action: action})
	e := tp.manageSnapshot(st, name, client, srv, nil, stored)
	base := stored.of(name)
	if base == nil || e.Server == base.Server {
		return // not the store's, or sharing its snapshot: the same server (see storeEntries.entry), so no From
	}
	if want, _ := stored.servers.Get(name); !sameDefinition(srv, want, client) {
		// The client holds it in its own way (Cursor reads an SSE url as
		// plain url): say what it was written from, so that the next run
		// need not write it again to see that it holds the same.
		e.From = tp.writtenFrom(base.Hash, opts)
	}
}

// manageSnapshot records srv as mcpsync's entry name; rec, when not nil,
// is the entry's earlier record, whose hash serves if it holds srv; else
// stored, when not nil, lends the store server's snapshot if it is srv.
func (tp *TargetPlan) manageSnapshot(st *ledger.State, name, client string, srv canonical.Server, rec *ledger.Entry, stored *storeEntries) *ledger.Entry {
	if tp.manage == nil {
		// Room for every server the section holds (or is about to).
		tp.manage = make(map[string]*ledger.Entry, max(tp.Current.Len(), tp.Desired.Len()))
	}
	var e *ledger.Entry
	if rec == nil && stored != nil {
		e = stored.entry(client, srv)
	} else {
		e = st.Renew(rec, client, srv, time.Time{}) // Apply stamps the time
	}
	tp.manage[name] = e
	return e
}

// heldAsWritten reports whether the file's entry have already says what
// the store's want says, as the client holds it: equal outright; or, for an
// entry the client holds in its own spelling, unchanged since it was
// written from this very definition with these options by this build
// (rec.From); or equal to want's View (an encode and a decode of want
// alone). from, when not "", is what the entry is now known to be written
// from.
func heldAsWritten(tp *TargetPlan, have, want canonical.Server, rec *ledger.Entry, opts formats.EncodeOptions, stored *storeEntries) (same bool, from string) {
	t := tp.Target
	client := t.Adapter.ID()
	if sameDefinition(have, want, client) {
		return true, ""
	}
	if rec == nil { // not mcpsync's entry: nothing to remember about it
		return sameDefinition(have, formats.ViewOr(t.Adapter, t.Location, want, opts), client), ""
	}
	from = tp.writtenFrom(stored.of(want.Name).Hash, opts)
	if rec.From == from && rec.Holds(have) {
		return true, from
	}
	if sameDefinition(have, formats.ViewOr(t.Adapter, t.Location, want, opts), client) {
		return true, from
	}
	return false, ""
}

// writtenFrom names what an entry is written from: the store's definition,
// the client, its file, the options and the build of mcpsync that encoded
// it. Any of them different is another encoding.
func WrittenFrom(t Target, want canonical.Server, opts formats.EncodeOptions) string {
	return hashFrom(writtenFromPrefix(t, opts), ledger.Hash(want))
}

// writtenFrom is WrittenFrom for tp's target, its first part (the build,
// client, file and options) made once per target and options: formatting
// it for every server that the client holds in a spelling of its own
// (every SSE server for Cursor and OpenCode) was a tenth of recording
// what an export wrote.
func (tp *TargetPlan) writtenFrom(wantHash string, opts formats.EncodeOptions) string {
	if tp.from.prefix == nil || tp.from.opts != opts {
		tp.from.opts, tp.from.prefix = opts, writtenFromPrefix(tp.Target, opts)
	}
	return hashFrom(tp.from.prefix, wantHash)
}

// writtenFromPrefix is what WrittenFrom hashes before the definition's
// hash.
func writtenFromPrefix(t Target, opts formats.EncodeOptions) []byte {
	return fmt.Appendf(append(slices.Clip(buildid.ID()), 0), "%s\x00%s\x00%s\x00%+v\x00", t.Adapter.ID(), t.Location.Path, t.Location.Scope, opts.For(t.Location))
}

// hashFrom is the hex SHA-256 of prefix and wantHash.
func hashFrom(prefix []byte, wantHash string) string {
	h := sha256.New()
	h.Write(prefix)
	h.Write([]byte(wantHash))
	return hex.EncodeToString(h.Sum(nil))
}

func sameBytesOfMeaning(before canonical.Server, after *canonical.Indexed, name string) bool {
	srv, ok := after.Get(name)
	return ok && ledger.Hash(before) == ledger.Hash(srv)
}

// sameDefinition reports whether the file's entry already says what the
// store says. Client-specific keys count only when the store sets them.
func sameDefinition(have, want canonical.Server, client string) bool {
	if want.Extra[client] != nil {
		return canonical.Equal(have, want, client)
	}
	return canonical.Equal(have, want)
}

// removedAllOrNone reports whether no target holds a server after the plan.
func removedAllOrNone(tps []*TargetPlan) bool {
	for _, tp := range tps {
		if tp.After.Len() > 0 {
			return false
		}
	}
	return true
}
