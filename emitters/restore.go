package emitters

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/safefile"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/ledger"
)

// RestoreOptions choose what a restore brings back.
//
// A backup holds the bytes files had just before an apply. Restoring a
// file "at" a time brings it back as it was then: the bytes saved by the
// first apply after that time that wrote it. With neither At nor ID, each
// named file goes back to before its last write, and All goes back to
// before the last apply.
type RestoreOptions struct {
	// Paths are the files to restore, as mcpsync wrote them (absolute).
	// Empty with All: every file of the chosen backups.
	Paths []string
	All   bool
	// At restores the files as they were at this time.
	At time.Time
	// ID restores the files as they were just before the apply of this
	// backup (an id from ListBackups).
	ID string
	// State is the current state: a file whose bytes are neither what
	// mcpsync last wrote nor what is restored was changed by someone else
	// since, and is refused unless Force.
	State *ledger.State
	Force bool
}

// RestoreError is a restore that cannot be planned: no backup matches.
type RestoreError struct{ Msg string }

func (e *RestoreError) Error() string { return e.Msg }

// PlanRestore plans bringing files back from the backups under stateDir.
// The plan is applied like any other (Apply): drift-checked, written
// atomically, and itself backed up first, so that a restore can be
// undone by another. A file that already holds the bytes to restore is
// Unchanged. Refusals are error diagnostics on the plan.
func PlanRestore(stateDir string, o RestoreOptions) (*Plan, error) {
	backups, err := ListBackups(stateDir)
	if err != nil {
		return nil, err
	}
	if len(backups) == 0 {
		return nil, &RestoreError{"there are no backups yet (in " + filepath.Join(stateDir, BackupDirName) + "): mcpsync keeps one each time it writes a file"}
	}
	// from is the index of the first backup that may supply a file.
	from := -1
	switch {
	case o.ID != "":
		for i, b := range backups {
			if b.ID == o.ID {
				from = i
			}
		}
		if from < 0 {
			return nil, &RestoreError{fmt.Sprintf("no backup %q; 'mcpsync restore --list' shows them", o.ID)}
		}
	case !o.At.IsZero():
		from = sort.Search(len(backups), func(i int) bool { return backups[i].At.After(o.At) })
	}
	type pick struct {
		b   *Backup
		rec BackupRecord
	}
	picks := map[string]pick{}
	var order []string
	choose := func(path string, b *Backup, rec BackupRecord) {
		if _, done := picks[path]; !done {
			picks[path] = pick{b, rec}
			order = append(order, path)
		}
	}
	wanted := map[string]bool{}
	for _, p := range o.Paths {
		wanted[p] = true
	}
	switch {
	case from >= 0: // at a time: the first backup after it, per file
		for _, b := range backups[from:] {
			for _, rec := range b.Files {
				if len(wanted) == 0 || wanted[rec.Path] {
					choose(rec.Path, b, rec)
				}
			}
		}
	case len(wanted) == 0: // the last apply
		last := backups[len(backups)-1]
		for _, rec := range last.Files {
			choose(rec.Path, last, rec)
		}
	default: // each file's last write
		for i := len(backups) - 1; i >= 0; i-- {
			for _, rec := range backups[i].Files {
				if wanted[rec.Path] {
					choose(rec.Path, backups[i], rec)
				}
			}
		}
	}
	p := &Plan{}
	for _, path := range o.Paths {
		if _, ok := picks[path]; ok {
			continue
		}
		if !everBackedUp(backups, path) {
			return nil, &RestoreError{fmt.Sprintf("%s has no backup: mcpsync never wrote it (or its backups were pruned); 'mcpsync restore --list' shows what there is", path)}
		}
		// Not written since the time asked for: it is as it was then.
		fc := &FileChange{Path: path, Kind: Unchanged, raw: true, Root: rootOf(backups, path)}
		if data, _, err := readCurrent(path, fc.Root); err == nil {
			fc.Before, fc.After = data, data
		}
		p.Files = append(p.Files, fc)
	}
	latest := latestWrites(backups)
	for _, path := range order {
		pk := picks[path]
		fc, d := restoreChange(pk.b, pk.rec, latest[path], o)
		p.Files = append(p.Files, fc)
		if d != nil {
			fc.Diags = append(fc.Diags, d)
			p.Diags = append(p.Diags, d)
		}
	}
	return p, nil
}

// rootOf is the Root the backups recorded for path (the last one does).
func rootOf(backups []*Backup, path string) string {
	root := ""
	for _, b := range backups {
		if rec, ok := b.Record(path); ok {
			root = rec.Root
		}
	}
	return root
}

func everBackedUp(backups []*Backup, path string) bool {
	for _, b := range backups {
		if _, ok := b.Record(path); ok {
			return true
		}
	}
	return false
}

// latestWrites returns, per file, the hash of what mcpsync wrote last.
func latestWrites(backups []*Backup) map[string]string {
	out := map[string]string{}
	for _, b := range backups {
		for _, rec := range b.Files {
			out[rec.Path] = rec.NewSHA256 // "" for a file the apply removed
		}
	}
	return out
}

func restoreChange(b *Backup, rec BackupRecord, lastWritten string, o RestoreOptions) (*FileChange, *canonical.Diagnostic) {
	fc := &FileChange{Path: rec.Path, Root: rec.Root, Kind: Unchanged, raw: true, restored: &rec, Mode: rec.Mode}
	at := canonical.Pos{File: rec.Path}
	state, err := b.ReadState(rec)
	if err != nil {
		d := canonical.Errorf("%v", err)
		d.Detail = "choose another version (mcpsync restore --list); nothing was written"
		return fc, d.At(at)
	}
	rec.State, rec.StateFile = state, ""
	want, err := b.Read(rec)
	if err != nil {
		d := canonical.Errorf("%v", err)
		d.Detail = "choose another version (mcpsync restore --list); nothing was written"
		return fc, d.At(at)
	}
	cur, mode, err := readCurrent(rec.Path, rec.Root)
	if err != nil {
		d := canonical.Errorf("cannot read %s: %v", rec.Path, unwrapPath(err))
		d.Detail = "nothing was written"
		return fc, d.At(at)
	}
	if real, err := safefile.Resolve(rec.Path, rec.Root); err == nil && real != rec.Path {
		fc.RealPath = real
	}
	fc.Before, fc.After = cur, want
	if cur != nil {
		fc.Mode = mode
		fc.BeforeHash = ledger.HashBytes(cur)
	}
	switch {
	case cur == nil && want == nil:
		return fc, nil
	case cur != nil && want != nil && bytes.Equal(cur, want):
		return fc, nil
	case want == nil:
		fc.Kind = Delete
		if o.State != nil {
			if f := o.State.File(rec.Path); f != nil {
				fc.removeDirs = f.CreatedDirs // the directories made for it go with it
			}
		}
	case cur == nil:
		fc.Kind = Create
	default:
		fc.Kind = Modify
	}
	known := map[string]bool{rec.NewSHA256: true, lastWritten: true}
	if o.State != nil {
		if f := o.State.File(rec.Path); f != nil {
			known[f.SHA256] = true
		}
	}
	curHash := ""
	if cur != nil {
		curHash = fc.BeforeHash
	}
	if !known[curHash] && !o.Force {
		d := canonical.Errorf("%s changed since mcpsync last wrote it", rec.Path)
		if cur == nil {
			d = canonical.Errorf("%s was removed since mcpsync last wrote it", rec.Path)
		}
		d.Detail = "restoring would also undo that change; run with --force to restore anyway " +
			"(the current bytes are backed up first, so that this can be undone too); nothing was written"
		return fc, d.At(at)
	}
	if d := checkWritable(fc, ""); len(d) > 0 {
		return fc, d[0]
	}
	return fc, nil
}

// PlanWrite plans writing a file that is not a client's (the store):
// before is what the caller read (nil: the file did not exist), after is
// what it wants there. Apply backs it up, checks that nobody changed it
// since it was read, and writes it atomically; the state does not record
// it. root, when set, is the directory the file may not leave (a
// project's store is written beneath the project only).
func PlanWrite(path, root string, before, after []byte) *Plan {
	fc := &FileChange{Path: path, Root: root, Kind: Unchanged, Before: before, After: after, Mode: NewFileMode, raw: true}
	if real, err := safefile.Resolve(path, root); err == nil && real != path {
		fc.RealPath = real
	}
	if before != nil {
		fc.BeforeHash = ledger.HashBytes(before)
		if fi, err := safefile.Stat(path, root); err == nil {
			fc.Mode = fi.Mode().Perm()
		}
	}
	switch {
	case before == nil && after != nil:
		fc.Kind = Create
	case before != nil && after == nil:
		fc.Kind = Delete
	case !bytes.Equal(before, after):
		fc.Kind = Modify
	}
	p := &Plan{Files: []*FileChange{fc}}
	if fc.Changed() {
		fc.Diags = checkWritable(fc, "")
		p.Diags = fc.Diags
	}
	return p
}

// checkWritable reports, while planning and so before anything is
// written, a changed file that mcpsync must not or cannot write: one the
// user made read-only (no owner write bit: mcpsync respects it even where
// the system would let it replace the file), or one in a directory where
// the temporary file cannot be made.
func checkWritable(fc *FileChange, clients string) canonical.Diagnostics {
	real := fc.Path
	if fc.RealPath != "" {
		real = fc.RealPath
	}
	leaveOut := ""
	if clients != "" {
		leaveOut = ", or leave " + clients + " out of --to"
	}
	var ds canonical.Diagnostics
	if fi, err := os.Stat(real); err == nil && fc.Before != nil && fi.Mode().Perm()&0o200 == 0 {
		d := canonical.Errorf("%s is read-only (mode %04o)", fc.Path, fi.Mode().Perm())
		d.Detail = fmt.Sprintf("mcpsync does not replace a file you made read-only; make it writable (chmod u+w %s)%s; nothing was written",
			shellQuote(real), leaveOut)
		ds = append(ds, d.At(canonical.Pos{File: fc.Path}))
		return ds
	}
	dir := existingDir(filepath.Dir(real))
	if err := dirWritable(dir); err != nil {
		d := canonical.Errorf("cannot write %s: the directory %s is not writable (%v)", fc.Path, dir, err)
		d.Detail = "mcpsync writes a temporary file next to the file and renames it; fix the directory's permissions" + leaveOut + "; nothing was written"
		ds = append(ds, d.At(canonical.Pos{File: fc.Path}))
	}
	return ds
}

// readableSecrets warns when a file every user of the machine can read is
// about to hold a literal secret mcpsync writes into it: the write keeps
// the file's mode, so the secret would be readable by all.
func readableSecrets(fc *FileChange, scan *secrets.Scanner) canonical.Diagnostics {
	if fc.Before == nil || fc.After == nil || fc.Mode&0o004 == 0 {
		return nil
	}
	for _, tp := range fc.Targets {
		for _, srv := range tp.After.Servers {
			fs := scan.Server(srv)
			if len(fs) == 0 || !bytes.Contains(fc.After, []byte(fs[0].Value)) {
				continue
			}
			d := canonical.Warnf("%s is readable by every user of this machine (mode %04o) and will hold a literal secret (%s)",
				fc.Path, fc.Mode, fs[0].Describe())
			d.Server = srv.Name
			d.Detail = "make it private with: chmod 600 " + shellQuote(fc.Path) + "; better, keep the secret out of it: 'mcpsync doctor' says how"
			return canonical.Diagnostics{d.At(canonical.Pos{File: fc.Path})}
		}
	}
	return nil
}

// SharedSecret refuses a literal secret on its way into a file a project
// shares through git (a project-scope client file, the project's
// mcpsync.hcl): everyone who clones the repository would get it. It
// returns nil when srv holds none.
func SharedSecret(srv canonical.Server, path string) *canonical.Diagnostic {
	return sharedSecret(nil, srv, path)
}

// sharedSecret is SharedSecret, scanning with scan.
func sharedSecret(scan *secrets.Scanner, srv canonical.Server, path string) *canonical.Diagnostic {
	// Only what is a secret for sure stops the write: a value that merely
	// looks random (a long temporary path, a hash) is warned about
	// elsewhere, never refused.
	var fs []secrets.ServerFinding
	for _, f := range scan.Server(srv) {
		if f.Kind != secrets.KindHighEntropy {
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return nil
	}
	d := canonical.Errorf("%s is a project's file, shared with everyone who clones it, and server %q would put a literal secret in it (%s)",
		path, srv.Name, fs[0].Describe())
	d.Server, d.Field = srv.Name, fs[0].Field
	d.Detail = "keep the value out: write a reference (env(\"NAME\") in mcpsync.hcl, ${NAME} in a client file), " +
		"or move it out of the file it came from with 'mcpsync import --from CLIENT --extract-secrets'; nothing was written"
	pos := srv.Origin
	if pos.File == "" {
		pos.File = path
	}
	return d.At(pos)
}

// projectSecrets refuses the servers a plan writes into a project's file
// (Root set) that hold a literal secret; entries the file already had are
// the user's and stay as they are.
//
// clean, shared by the files of one plan (planned at once, see eachFile),
// holds the ledger snapshots of the servers found to hold no secret: the
// same server written into five project files is scanned once.
func projectSecrets(fc *FileChange, clean *cleanSnapshots) canonical.Diagnostics {
	if fc.Root == "" || !fc.Changed() || fc.After == nil {
		return nil
	}
	var ds canonical.Diagnostics
	for _, tp := range fc.Targets {
		after := tp.After.Indexed()
		for _, e := range tp.Entries {
			if e.Action != Add && e.Action != Update {
				continue
			}
			srv, ok := after.Get(e.Name)
			if !ok {
				continue
			}
			var snap *canonical.Server
			if m := tp.manage[e.Name]; m != nil && m.HasServer() {
				snap = m.Server // the snapshot of this very read-back
				if clean.has(snap) {
					continue
				}
			}
			if d := sharedSecret(&clean.scan, srv, fc.Path); d != nil {
				ds = append(ds, d)
			} else if snap != nil {
				clean.add(snap)
			}
		}
	}
	return ds
}

// existingDir returns dir, or its nearest ancestor that exists (where
// missing directories would be created).
func existingDir(dir string) string {
	for {
		if fi, err := os.Stat(dir); err == nil && fi.IsDir() {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return dir
		}
		dir = parent
	}
}

func shellQuote(s string) string {
	if strings.ContainsAny(s, " '\"$`\\!*?;&|<>()") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

// clientNames names the clients of a group of targets: "cursor, vscode".
func clientNames(group []Target) string {
	var out []string
	seen := map[string]bool{}
	for _, t := range group {
		if id := t.Adapter.ID(); !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return strings.Join(out, ", ")
}

// cleanSnapshots is the set of server snapshots projectSecrets found clean,
// and the scanner the secret checks share, safe for the files of a plan
// checked at once.
//
// By snapshot, not by hash: the entries of one server, in every file
// that holds it as the store does, share its snapshot (ledger's
// sharedSnapshots, emitters' storeEntries), and a lookup by a 64-byte
// hash string read that string from wherever it was allocated: at 10,000
// servers to four project files, a third of projectSecrets. Two snapshots
// of one definition are each scanned once, the values of the second
// found in the scanner's memo.
type cleanSnapshots struct {
	mu sync.Mutex
	m  map[*canonical.Server]bool
	// scan scans the servers of the plan's files, each value once: a
	// server whose hash is new (another client reads it back in its own
	// way) mostly holds values scanned already.
	scan secrets.Scanner
}

func (c *cleanSnapshots) has(snap *canonical.Server) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[snap]
}

func (c *cleanSnapshots) add(snap *canonical.Server) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[*canonical.Server]bool{}
	}
	c.m[snap] = true
}
