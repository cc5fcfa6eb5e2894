package engine

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/internal/atomicfile"
	"github.com/mcpsync/mcpsync/internal/lazyre"
	"github.com/mcpsync/mcpsync/ledger"
)

// Restore: files back from the backups every write keeps.

// RestoreOptions say which files to bring back and to when.
type RestoreOptions struct {
	// Paths are the files (absolute); All every file the chosen write
	// changed.
	Paths []string
	All   bool
	// At is a time ("2h", "14:05", RFC 3339) or a backup id; "" is the
	// last write.
	At string
	// Force restores a file changed since mcpsync last wrote it.
	Force  bool
	DryRun bool
}

// RestoreRun is a planned restore: print its Plan, or Apply it.
type RestoreRun struct {
	Plan *emitters.Plan

	e     *Engine
	state *ledger.State
	lock  *ledger.Lock
}

// Close releases the lock of a run planned for writing.
func (r *RestoreRun) Close() {
	if r != nil {
		r.lock.Unlock()
	}
}

// Restore plans bringing files back. A restore is itself a write: checked,
// atomic, the current bytes backed up first, and what mcpsync knew of each
// file then put back in the ledger.
func (e *Engine) Restore(o RestoreOptions) (*RestoreRun, error) {
	switch {
	case len(o.Paths) == 0 && !o.All:
		return nil, Usagef("name the files to restore, or give --all (see 'mcpsync restore --list')")
	case len(o.Paths) > 0 && o.All:
		return nil, Usagef("give FILEs or --all, not both")
	}
	ro := emitters.RestoreOptions{Paths: o.Paths, All: o.All, Force: o.Force}
	if o.At != "" {
		t, id, err := ParseAt(o.At, time.Now())
		if err != nil {
			return nil, err
		}
		ro.At, ro.ID = t, id
	}
	run := &RestoreRun{e: e}
	if !o.DryRun {
		var err error
		if run.lock, err = e.Lock(); err != nil {
			return nil, err
		}
	}
	fail := func(err error) (*RestoreRun, error) {
		run.Close()
		return nil, err
	}
	st, err := ledger.Load(e.Dirs.State)
	if err != nil {
		return fail(err)
	}
	run.state, ro.State = st, st
	if len(ro.Paths) > 0 {
		backups, err := emitters.ListBackups(e.Dirs.State)
		if err != nil {
			return fail(err)
		}
		ro.Paths = matchBackedUp(ro.Paths, backups)
	}
	p, err := emitters.PlanRestore(e.Dirs.State, ro)
	if err != nil {
		var re *emitters.RestoreError
		if errors.As(err, &re) {
			return fail(errors.New(re.Msg))
		}
		return fail(err)
	}
	run.Plan = p
	return run, nil
}

// Apply writes the restore. A plan with errors restores nothing.
func (r *RestoreRun) Apply() (*emitters.Result, error) {
	if err := problems(r.Plan.Diags, "no file was restored"); err != nil {
		return nil, err
	}
	res, err := emitters.Apply(r.Plan, r.e.ApplyOptions(r.state))
	if err != nil {
		return nil, ApplyError(err)
	}
	return res, nil
}

// BackupInfo is one backup of one file.
type BackupInfo struct {
	ID      string    `json:"id"`
	At      time.Time `json:"at"`
	Command string    `json:"command,omitempty"`
	// Size is the size of the saved bytes; Absent means the file did not
	// exist before that write (restoring it removes the file).
	Size   int64  `json:"size,omitempty"`
	Absent bool   `json:"absent,omitempty"`
	SHA256 string `json:"sha256,omitempty"`
}

// BackedUpFile is a file and its backups, newest first.
type BackedUpFile struct {
	Path    string       `json:"path"`
	Display string       `json:"display"`
	Backups []BackupInfo `json:"backups"`
}

// Backups lists the backups of the named files (all files when none is
// named), sorted by the path shown. A named file without a backup is an
// error.
func (e *Engine) Backups(paths []string) ([]*BackedUpFile, error) {
	backups, err := emitters.ListBackups(e.Dirs.State)
	if err != nil {
		return nil, err
	}
	paths = matchBackedUp(paths, backups)
	want := map[string]bool{}
	for _, p := range paths {
		want[p] = true
	}
	byFile := map[string]*BackedUpFile{}
	for i := len(backups) - 1; i >= 0; i-- {
		b := backups[i]
		for _, rec := range b.Files {
			if len(want) > 0 && !want[rec.Path] {
				continue
			}
			f := byFile[rec.Path]
			if f == nil {
				f = &BackedUpFile{Path: rec.Path, Display: e.Display(rec.Path)}
				byFile[rec.Path] = f
			}
			bj := BackupInfo{ID: b.ID, At: b.At, Command: b.Command, SHA256: rec.SHA256, Absent: rec.Created}
			if !rec.Created {
				bj.Size = b.Size(rec)
			}
			f.Backups = append(f.Backups, bj)
		}
	}
	files := make([]*BackedUpFile, 0, len(byFile))
	for _, f := range byFile {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Display < files[j].Display })
	for _, p := range paths {
		if byFile[p] == nil {
			return nil, fmt.Errorf("%s has no backup: mcpsync never wrote it, or its backups were pruned", e.Display(p))
		}
	}
	return files, nil
}

// BackupDir is where the backups are kept.
func (e *Engine) BackupDir() string { return filepath.Join(e.Dirs.State, emitters.BackupDirName) }

// Retention is the backup retention of this environment
// (MCPSYNC_BACKUP_KEEP, MCPSYNC_BACKUP_MAX_AGE, else the defaults).
func (e *Engine) Retention() emitters.Retention { return e.retention() }

// PruneBackups removes old backups now, keeping r.
func (e *Engine) PruneBackups(r emitters.Retention) ([]string, error) {
	lock, err := e.Lock()
	if err != nil {
		return nil, err
	}
	defer lock.Unlock()
	return emitters.PruneBackups(e.Dirs.State, r, time.Now().UTC())
}

// AbsPath makes a path given by the user absolute: ~/ is the home
// directory, a relative path is relative to the working directory.
func (e *Engine) AbsPath(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return filepath.Join(e.Dirs.Home, rest)
	}
	if !filepath.IsAbs(p) {
		return filepath.Join(e.Cwd, p)
	}
	return filepath.Clean(p)
}

// backupID is a backup directory's name: the apply's UTC time.
var backupID = lazyre.New(`^\d{8}T\d{6}\.\d{9}Z(-\d+)?$`)

// ParseAt reads a restore time: a backup id, a duration ago, or a local
// date and time.
func ParseAt(s string, now time.Time) (time.Time, string, error) {
	if backupID.Get().MatchString(s) {
		return time.Time{}, s, nil
	}
	if d, err := ParseAge(s); err == nil && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) > 0 {
		return now.Add(-d), "", nil
	}
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, "", nil
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, "", nil
		}
	}
	for _, layout := range []string{"15:04:05", "15:04"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			y, m, d := now.In(time.Local).Date()
			return time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, time.Local), "", nil
		}
	}
	return time.Time{}, "", Usagef("--at %q: give a backup id (mcpsync restore --list), a local time such as "+
		"\"2026-11-30 14:05\" or \"14:05\", an RFC 3339 time, or a duration ago such as 2h or 3d", s)
}

// matchBackedUp maps each path the user named to the path the backups
// record, through symlinks: the user may name a dotfile's link or its target.
func matchBackedUp(paths []string, backups []*emitters.Backup) []string {
	known := map[string]string{}
	for _, b := range backups {
		for _, r := range b.Files {
			known[r.Path] = r.Path
			if real, err := atomicfile.Resolve(r.Path); err == nil {
				if _, taken := known[real]; !taken {
					known[real] = r.Path
				}
			}
		}
	}
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p
		if k, ok := known[p]; ok {
			out[i] = k
		} else if real, err := atomicfile.Resolve(p); err == nil {
			if k, ok := known[real]; ok {
				out[i] = k
			}
		}
	}
	return out
}
