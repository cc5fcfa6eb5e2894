package emitters

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/atomicfile"
	"github.com/mcpsync/mcpsync/internal/safefile"
	"github.com/mcpsync/mcpsync/ledger"
)

// BackupDirName is the directory under the state directory that holds the
// old bytes of every file mcpsync changed, one sub-directory per apply.
const BackupDirName = "backups"

// ApplyOptions say where state and backups go.
type ApplyOptions struct {
	// StateDir is $XDG_STATE_HOME/mcpsync: backups go to StateDir/backups.
	StateDir string
	// State is the state the plan was made with; Apply records what it
	// wrote there and saves it. The caller holds the state lock
	// (ledger.Acquire) from loading the state until Apply returns.
	State *ledger.State
	// Now stamps backups and state entries; nil is time.Now.
	Now func() time.Time
	// BeforeWrite, when set, runs after the plan was checked against the
	// disk and before the backup and the first write (a seam for tests and
	// for watch, which must know which paths it is about to touch).
	BeforeWrite func(paths []string)
	// Command is recorded in the backup manifest, so that a restore can
	// say which command wrote a version ("export --to all").
	Command string
	// Retention prunes old backups after a successful apply that wrote
	// something; nil is DefaultRetention, and a zero Retention keeps
	// every backup.
	Retention *Retention
	// Record, when set, adds the caller's own record of the run to State
	// once the files are written (sync's bases), so that the state is
	// saved once, not once here and again by the caller.
	Record func(st *ledger.State, at time.Time)
}

// Result says what Apply did.
type Result struct {
	Written []string `json:"written,omitempty"`
	Removed []string `json:"removed,omitempty"`
	// BackupDir holds the old bytes and a manifest.json; "" when nothing
	// was written. A write that only created files has a manifest there
	// too (so that a restore can take them away again), but no old bytes.
	BackupDir string `json:"backupDir,omitempty"`
	// BackedUp counts the files whose old bytes BackupDir holds.
	BackedUp int `json:"backedUp,omitempty"`
	// Pruned are the old backup directories removed or thinned afterwards.
	Pruned []string `json:"pruned,omitempty"`
}

// DriftError means a file changed between planning and writing. Nothing
// was written.
type DriftError struct {
	Paths []string
}

func (e *DriftError) Error() string {
	return fmt.Sprintf("%s changed since mcpsync read it (another program wrote it meanwhile); nothing was written; "+
		"run the command again to plan against the new contents", strings.Join(e.Paths, ", "))
}

// ErrPlanHasErrors is returned by Apply for a plan with error diagnostics.
var ErrPlanHasErrors = errors.New("the plan has errors; nothing was written")

// BackupManifest lists what one apply changed, so that a restore can undo it.
type BackupManifest struct {
	At time.Time `json:"at"`
	// Command is what wrote the files ("export --to all"), when known.
	Command string         `json:"command,omitempty"`
	Files   []BackupRecord `json:"files"`
}

// BackupRecord is one changed file. Backup is the file name of the old
// bytes inside the backup directory; Created means the file did not exist
// before (restoring removes it).
type BackupRecord struct {
	Path string `json:"path"`
	// Root is the file's Root: a restore writes it back beneath it only.
	Root      string      `json:"root,omitempty"`
	Backup    string      `json:"backup,omitempty"`
	Created   bool        `json:"created,omitempty"`
	Mode      fs.FileMode `json:"mode,omitempty"`
	SHA256    string      `json:"sha256,omitempty"`
	NewSHA256 string      `json:"newSha256,omitempty"`
	// State is what mcpsync's state knew about the file before the apply
	// (its hash, managed entries); a restore puts it back with the bytes.
	// Backups written since the parse cache keep it in StateFile, a file
	// of the backup directory (StatesFileName, shared by the backup's
	// records), and leave State out of the manifest:
	// pruning reads every manifest on every write, and a state of 10,000
	// entries inline made that read the cost of the write. Read it with
	// Backup.ReadState.
	State     *ledger.File `json:"state,omitempty"`
	StateFile string       `json:"stateFile,omitempty"`
}

// StatesFileName is the file of a backup directory that holds what
// mcpsync knew of every file the backup saved (ledger.MarshalFiles); each
// record names it as its StateFile. Backups made before it kept a file
// per record, "state~" and the escaped path (ledger.MarshalFile), which
// Backup.ReadState still reads. "~" is escaped by EscapePath, so no copy
// of a file is named either way.
const StatesFileName = "states~.json"

// Apply writes exactly the plan, all or nothing:
//
//  1. a plan with errors is refused;
//  2. every file is read again and compared with what was planned; if any
//     changed (drift), nothing is written and a *DriftError says which;
//  3. the old bytes of every file are copied to
//     StateDir/backups/<timestamp>/ with a manifest.json (the command and
//     the state's record of each file too), and temporary files that a
//     killed mcpsync left next to the plan's files are removed;
//  4. each file is written atomically (temp file, fsync, rename) through
//     symlinks, keeping its mode (0600 for new files): every file's new
//     bytes are synced beside it first, while the backup is made, and
//     none is replaced unless all of them were and the backup is whole;
//     then each is checked again and renamed into place, and their
//     folders are synced together; then the files removed (writeAll);
//  5. if a rename or a removal fails, the files this apply wrote or
//     removed are restored from the backups and the error says so;
//  6. the state records the new hashes and managed entries, and is saved;
//  7. old backups are pruned (opts.Retention).
func Apply(p *Plan, opts ApplyOptions) (*Result, error) {
	if p.Diags.HasErrors() {
		return nil, ErrPlanHasErrors
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	at := now().UTC()
	changes := p.Changes()
	for _, fc := range changes {
		for _, tp := range fc.Targets {
			if tp.Target.Location.Shown {
				return nil, fmt.Errorf("%s is another machine's file, shown only (its place here is unknown); nothing was written", fc.Path)
			}
		}
	}
	var drifted []string
	for _, fc := range changes {
		if !fc.unchangedOnDisk() {
			drifted = append(drifted, fc.Path)
		}
	}
	if len(drifted) > 0 {
		return nil, &DriftError{Paths: drifted}
	}
	res := &Result{}
	for _, fc := range p.Files {
		if fc.Kind == Unchanged || fc.Kind == Delete {
			// A file written is cleaned as it is staged (Stage): once
			// here as well, each was resolved and its folder read twice.
			atomicfile.CleanStale(fc.Path)
		}
	}
	hashAfter(changes)
	if len(changes) > 0 {
		if opts.BeforeWrite != nil {
			paths := make([]string, len(changes))
			for i, fc := range changes {
				paths[i] = fc.Path
			}
			opts.BeforeWrite(paths)
		}
		// The backup is made while the files are staged: staging replaces
		// nothing, and writeAll renames no file into place before the
		// backup is whole and synced (backedUp). One after the other, a
		// fresh export of 50 servers to five clients waited for the
		// backup's syncs and then for the files'.
		var b struct {
			manifest BackupManifest
			dir      string
			err      error
		}
		made := make(chan struct{})
		go func() {
			defer close(made)
			b.manifest, b.dir, b.err = backup(changes, opts.StateDir, at, opts.Command, opts.State)
		}()
		backedUp := func() error { <-made; return b.err }
		done, err := writeAll(changes, maxWriters, backedUp)
		if berr := backedUp(); berr != nil {
			return nil, berr // nothing was renamed into place
		}
		if err != nil {
			return nil, rollback(done, b.manifest, b.dir, err)
		}
		res.BackupDir = b.dir
		for _, fc := range changes {
			if fc.Before != nil {
				res.BackedUp++
			}
		}
		for _, fc := range changes {
			if fc.Kind == Delete {
				res.Removed = append(res.Removed, fc.Path)
			} else {
				res.Written = append(res.Written, fc.Path)
			}
		}
	}
	if opts.State != nil {
		before := opts.State.Changes()
		p.record(opts.State, at)
		if opts.Record != nil {
			opts.Record(opts.State, at)
		}
		if len(changes) > 0 || opts.State.Changes() != before {
			if err := opts.State.Save(); err != nil {
				return res, fmt.Errorf("the files were written, but %w; the next export may not know which entries mcpsync wrote", err)
			}
		} // else nothing new to remember: an idempotent run touches no file at all
	}
	if len(changes) > 0 {
		r := DefaultRetention
		if opts.Retention != nil {
			r = *opts.Retention
		}
		// Pruning is housekeeping: the files are written, so a failure
		// here is not the apply's failure.
		res.Pruned, _ = PruneBackups(opts.StateDir, r, at)
	}
	return res, nil
}

// newBase returns a new sync base entry for the store server srv, sharing
// the snapshot the files' entries of it share (storeEntries).
func (p *Plan) newBase(st *ledger.State, srv canonical.Server) *ledger.Entry {
	if p.stored != nil {
		return p.stored.entry("", srv)
	}
	return st.NewEntry("", srv, time.Time{})
}

// hashAfter hashes the new bytes of every change that writes, side by
// side: the backup's manifest and the state both record the hash, which
// was made twice, one file after the other (four files of 10,000 servers
// are 6 MB).
func hashAfter(changes []*FileChange) {
	eachFile(len(changes), func(i int) {
		if fc := changes[i]; fc.After != nil {
			fc.afterHash = ledger.HashBytes(fc.After)
		}
	})
}

// maxWriters bounds the files Apply writes at once.
const maxWriters = 16

// writeAll writes every change: the files a plan writes, then the files
// it removes, and returns the first error in the plan's order, and the
// changes made, for rollback.
//
// The files written go in three steps, each for all of them at once, at
// most writers at a time: each is staged (its new bytes synced to a
// temporary file beside it, its missing folders made), then, once
// backedUp says the backup of what they replace is whole, committed
// (checked once more against what was planned, and renamed into place),
// and then the folders of all of them are synced together, each folder
// once. Written one whole file at a time, each file synced its folder
// after its rename, and the folder holding each folder made for it: a
// fresh export to five clients synced the project folder five times. A
// file that cannot be staged stops the apply before any file is
// replaced.
//
// The files removed go one after the other (removing a file removes the
// folders it leaves empty, which a file being written may be about to
// use).
func writeAll(changes []*FileChange, writers int, backedUp func() error) (done []*FileChange, err error) {
	var writes []int
	for i, fc := range changes {
		if fc.Kind != Delete {
			writes = append(writes, i)
		}
	}
	staged := make([]*atomicfile.Staged, len(changes))
	made := make([][]string, len(changes)) // the folders staging each file makes
	errs := make([]error, len(changes))
	eachWrite := func(f func(i int)) {
		var wg sync.WaitGroup
		slots := make(chan struct{}, writers)
		for _, i := range writes {
			wg.Go(func() {
				slots <- struct{}{}
				defer func() { <-slots }()
				f(i)
			})
		}
		wg.Wait()
	}
	eachWrite(func(i int) { staged[i], made[i], errs[i] = changes[i].stage() })
	err = firstErr(errs)
	if err == nil {
		err = backedUp()
	}
	if err != nil {
		// Nothing is replaced: the staged bytes go, and the folders made
		// for them.
		for _, i := range writes {
			if staged[i] != nil {
				staged[i].Abort()
				staged[i].Close()
			}
			removeEmptyDirs(made[i])
		}
		return nil, err
	}
	eachWrite(func(i int) { errs[i] = changes[i].commit(staged[i], made[i]) })
	var syncs []atomicfile.DirSync
	for _, i := range writes {
		if errs[i] == nil {
			done = append(done, changes[i])
			syncs = append(syncs, staged[i].Dirs()...)
		} else {
			removeEmptyDirs(made[i]) // its commit removed its temporary file
		}
	}
	atomicfile.SyncDirs(syncs)
	for _, i := range writes {
		staged[i].Close()
	}
	if err := firstErr(errs); err != nil {
		return done, err
	}
	for _, fc := range changes {
		if fc.Kind != Delete {
			continue
		}
		if err := fc.remove(); err != nil {
			return done, err
		}
		done = append(done, fc)
	}
	return done, nil
}

func firstErr(errs []error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// unchangedOnDisk reports whether the file still holds what was planned on.
func (fc *FileChange) unchangedOnDisk() bool {
	data, _, err := readCurrent(fc.Path, fc.Root)
	if err != nil {
		return false
	}
	if fc.Before == nil {
		return data == nil
	}
	return data != nil && ledger.HashBytes(data) == fc.BeforeHash
}

// remove carries out a Delete change, once the file is checked again.
func (fc *FileChange) remove() error {
	if !fc.unchangedOnDisk() {
		return &DriftError{Paths: []string{fc.Path}}
	}
	// mcpsync created a plain file; if the user has since replaced it
	// with a symlink, the link is theirs: empty its target instead.
	if fi, err := os.Lstat(fc.Path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		if fc.restored != nil {
			// A restore of a file that did not exist: the link was
			// there, dangling, before; only its target goes.
			real, err := safefile.Resolve(fc.Path, fc.Root)
			if err != nil {
				return err
			}
			return safefile.Remove(real, fc.Root)
		}
		return safefile.WriteFile(fc.Path, fc.Root, []byte{}, NewFileMode)
	}
	if err := safefile.Remove(fc.Path, fc.Root); err != nil {
		return err
	}
	removeEmptyDirs(fc.removeDirs)
	return nil
}

// stage syncs the new bytes of a change that writes to a temporary file
// beside its file (safefile.Stage), and returns it with the folders it
// made for a new file, innermost first.
func (fc *FileChange) stage() (*atomicfile.Staged, []string, error) {
	// An existing file keeps its mode; a new one gets fc.Mode, which is
	// NewFileMode unless a restore brings back a file that had another.
	mode := fc.Mode
	if mode == 0 {
		mode = NewFileMode
	}
	var dirs []string
	if fc.Before == nil {
		dirs = missingDirs(fc.Path, fc.Root)
	}
	s, err := safefile.Stage(fc.Path, fc.Root, fc.After, mode)
	return s, dirs, err
}

// commit renames the staged bytes into place, once the file is checked
// again: what it holds may have changed since it was planned, or since
// Apply read it back (a client saving it meanwhile). made is the folders
// staging made for it, which rollback removes with a new file.
func (fc *FileChange) commit(s *atomicfile.Staged, made []string) error {
	if !fc.unchangedOnDisk() {
		s.Abort()
		return &DriftError{Paths: []string{fc.Path}}
	}
	if err := s.Commit(); err != nil {
		return err
	}
	fc.createdDirs = made
	return nil
}

// missingDirs lists the directories that writing path creates (those on
// the way to the file it resolves to that do not exist), innermost first.
func missingDirs(path, root string) []string {
	real, err := safefile.Resolve(path, root)
	if err != nil {
		return nil
	}
	var dirs []string
	for dir := filepath.Dir(real); ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		dirs = append(dirs, dir)
		if filepath.Dir(dir) == dir {
			break
		}
	}
	return dirs
}

// removeEmptyDirs removes dirs in order (innermost first) while they are
// empty; the first one that holds anything, and so every one above it,
// stays.
func removeEmptyDirs(dirs []string) {
	for _, dir := range dirs {
		if os.Remove(dir) != nil {
			return
		}
	}
}

// backup copies the old bytes of every changed file into a new timestamped
// directory under stateDir/backups, with a manifest.
func backup(changes []*FileChange, stateDir string, at time.Time, command string, st *ledger.State) (BackupManifest, string, error) {
	m := BackupManifest{At: at, Command: command}
	base := filepath.Join(stateDir, BackupDirName)
	stamp := at.Format("20060102T150405.000000000Z")
	dir := filepath.Join(base, stamp)
	for n := 2; ; n++ {
		if _, err := os.Lstat(dir); err != nil {
			// Free, or not to be made at all (the state folder, or its
			// backups, is a file), which MkdirAll says next: the loop
			// went on only past a name taken, and spun for ever there.
			break
		}
		dir = filepath.Join(base, fmt.Sprintf("%s-%d", stamp, n))
	}
	// Made durable as it is made (atomicfile.MkdirAll): the backup is the
	// one copy of what the write replaces.
	if err := atomicfile.MkdirAll(dir, 0o700); err != nil {
		return m, "", fmt.Errorf("%s: cannot create the backup directory: %w; nothing was written. "+
			"mcpsync backs up every file it replaces under %s: make that a folder it can write (move aside a file "+
			"that stands in its way), then run the command again", dir, err, base)
	}
	// What mcpsync knew of the files, all in one file of the backup
	// (ledger.MarshalFiles): the same servers in every file are kept once.
	states := map[string]*ledger.File{}
	for _, fc := range changes {
		if st != nil && !fc.raw {
			if f := st.File(fc.Path); f != nil {
				states[fc.Path] = f
			}
		}
	}
	if len(states) > 0 {
		err := writeBackupFileWith(filepath.Join(dir, StatesFileName), func(w io.Writer) error { return ledger.WriteFiles(w, states) })
		if err != nil {
			return m, "", fmt.Errorf("cannot back up what mcpsync knows of the files: %w; nothing was written", err)
		}
	}
	for _, fc := range changes {
		rec := BackupRecord{Path: fc.Path, Root: fc.Root, Created: fc.Before == nil, Mode: fc.Mode, SHA256: fc.BeforeHash}
		if states[fc.Path] != nil {
			rec.StateFile = StatesFileName
		}
		if fc.After != nil {
			rec.NewSHA256 = fc.afterHash
		}
		if fc.Before != nil {
			rec.Backup = EscapePath(fc.Path)
			if err := writeBackupFile(filepath.Join(dir, rec.Backup), fc.Before); err != nil {
				return m, "", fmt.Errorf("cannot back up %s: %w; nothing was written", fc.Path, err)
			}
		}
		m.Files = append(m.Files, rec)
	}
	data, _ := manifestJSON(m)
	// Written last, and atomically: a backup is whole once its manifest
	// exists, and the manifest's directory sync makes every file above
	// durable with it.
	if err := atomicfile.WriteFile(filepath.Join(dir, "manifest.json"), append(data, '\n'), 0o600); err != nil {
		return m, "", fmt.Errorf("cannot write the backup manifest: %w; nothing was written", err)
	}
	return m, dir, nil
}

// writeBackupFile writes one file of a new backup directory: created, not
// replaced, so there is no temporary file to rename and no stale one to
// look for, and synced, but the directory is synced once, with the
// manifest (on macOS each sync is a full flush of the disk's cache).
func writeBackupFile(path string, data []byte) error {
	return writeBackupFileWith(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// writeBackupFileWith is writeBackupFile of what write writes.
func writeBackupFileWith(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// EscapePath turns an absolute path into one file name: every byte other
// than letters, digits, '.', '_' and '-' becomes %XX, so
// /home/u/.cursor/mcp.json is %2Fhome%2Fu%2F.cursor%2Fmcp.json.
func EscapePath(path string) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// rollback restores the files of this apply that were already written and
// returns an error that says what failed and what was restored.
func rollback(done []*FileChange, m BackupManifest, dir string, cause error) error {
	var failed []string
	for i := len(done) - 1; i >= 0; i-- {
		fc := done[i]
		var err error
		if fc.Before == nil {
			err = safefile.Remove(fc.Path, fc.Root)
			if err == nil {
				removeEmptyDirs(fc.createdDirs)
			}
		} else {
			err = safefile.WriteFile(fc.Path, fc.Root, fc.Before, fc.Mode)
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			failed = append(failed, fmt.Sprintf("%s (%v)", fc.Path, err))
		}
	}
	if len(failed) == 0 {
		// Every file is as it was: this apply left nothing to restore, so
		// its backup would only mislead a later restore.
		os.RemoveAll(dir)
	}
	msg := fmt.Sprintf("writing failed: %v", cause)
	if len(done) > 0 {
		if len(failed) == 0 {
			msg += fmt.Sprintf("; the %d file(s) already written were restored, so nothing changed", len(done))
		} else {
			msg += fmt.Sprintf("; could not restore %s: the old bytes are in %s (see manifest.json there)",
				strings.Join(failed, ", "), dir)
		}
	} else {
		msg += "; nothing was written"
	}
	var drift *DriftError
	if errors.As(cause, &drift) {
		return &DriftError{Paths: drift.Paths}
	}
	return errors.New(msg)
}

// record writes the plan's outcome into the state: hashes of the new
// bytes, files mcpsync created, managed entries, sync bases.
func (p *Plan) record(st *ledger.State, at time.Time) {
	for _, fc := range p.Files {
		if fc.restored != nil {
			// A restored file goes back to what mcpsync knew when it held
			// those bytes.
			st.SetFile(fc.Path, fc.restored.State)
			continue
		}
		if fc.raw {
			continue // the store and other files that are not a client's
		}
		if fc.Kind == Delete {
			st.RemoveFile(fc.Path)
			continue
		}
		for _, tp := range fc.Targets {
			section := SectionKey(tp.Target.Location)
			for _, name := range tp.forget {
				st.Forget(fc.Path, section, name)
			}
			known := st.Managed(fc.Path, section)
			if len(known) == 0 && len(tp.manage) > 0 {
				// Every entry new: the plan's map is the record (a section
				// with no entries always takes it).
				for _, e := range tp.manage {
					e.At = at
				}
				st.AdoptManaged(fc.Path, section, tp.manage)
				continue
			}
			for name, e := range tp.manage {
				e.At = at
				if old := known[name]; old != nil && old.Hash == e.Hash {
					if e.From == "" || e.From == old.From {
						continue // unchanged since recorded: keep when it was written
					}
					e.At = old.At // the same entry, now known to be written from the store's definition
				}
				st.SetManaged(fc.Path, section, name, e)
			}
		}
		if fc.Changed() {
			f := st.EnsureFile(fc.Path)
			f.SHA256, f.Written = fc.afterHash, at
			if fc.Before == nil {
				// A new file: what was known of an earlier one there is moot.
				f.Created, f.CreatedDirs, f.AddedKeys, f.AddedSideKeys = true, fc.createdDirs, nil, nil
			}
			for _, tp := range fc.Targets {
				f.RecordKeys(SectionKey(tp.Target.Location), tp.addedKeys, tp.keysRemoved)
				f.RecordSideKeys(SectionKey(tp.Target.Location), tp.addedSide, tp.sideGone)
			}
		}
		if f := st.File(fc.Path); f != nil && len(f.Sections) == 0 && f.SHA256 == "" {
			st.RemoveFile(fc.Path)
		}
	}
	if p.storePath != "" {
		for _, srv := range p.bases {
			source := p.baseSources[srv.Name]
			if old := st.Base(p.storePath, srv.Name); old == nil || old.Source != source || !old.Holds(srv) {
				e := p.newBase(st, srv)
				e.At, e.Source = at, source
				st.SetBase(p.storePath, srv.Name, e)
			}
		}
		for _, name := range p.forgetBases {
			st.RemoveBase(p.storePath, name)
		}
	}
}
