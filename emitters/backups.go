package emitters

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/mcpsync/mcpsync/internal/atomicfile"
	"github.com/mcpsync/mcpsync/ledger"
)

// ManifestName is the file in each backup directory that lists what the
// apply changed.
const ManifestName = "manifest.json"

// A Backup is one apply's backup directory: the bytes every file held
// before the apply, and the manifest that says which file each is.
type Backup struct {
	// ID is the directory's name: the apply's UTC time,
	// 20261130T100203.123456789Z (with -2, -3… when two applies share it).
	ID      string         `json:"id"`
	Dir     string         `json:"dir"`
	At      time.Time      `json:"at"`
	Command string         `json:"command,omitempty"`
	Files   []BackupRecord `json:"files"`

	// states is what the backup's StatesFileName holds, read once for all
	// of its records (nil for a Backup not read by readBackup: read each
	// time).
	states *backupStates
}

type backupStates struct {
	once  sync.Once
	files map[string]*ledger.File
	err   error
}

// Record returns the backup's record of path.
func (b *Backup) Record(path string) (BackupRecord, bool) {
	for _, r := range b.Files {
		if r.Path == path {
			return r, true
		}
	}
	return BackupRecord{}, false
}

// Read returns the bytes rec's file held before the apply; nil when the
// apply created the file.
func (b *Backup) Read(rec BackupRecord) ([]byte, error) {
	if rec.Created || rec.Backup == "" {
		return nil, nil
	}
	data, err := os.ReadFile(filepath.Join(b.Dir, rec.Backup))
	if err != nil {
		return nil, fmt.Errorf("backup %s: cannot read the copy of %s: %w", b.ID, rec.Path, err)
	}
	if rec.SHA256 != "" && ledger.HashBytes(data) != rec.SHA256 {
		return nil, fmt.Errorf("backup %s: the copy of %s is damaged (its hash does not match the manifest)", b.ID, rec.Path)
	}
	return data, nil
}

// ReadState returns what mcpsync's state knew of rec's file before the
// backup: rec.State of an older manifest, or its StateFile. nil: nothing.
func (b *Backup) ReadState(rec BackupRecord) (*ledger.File, error) {
	if rec.StateFile == "" {
		return rec.State, nil
	}
	if rec.StateFile == StatesFileName {
		files, err := b.readStates()
		if err != nil {
			return nil, fmt.Errorf("backup %s: what mcpsync knew of %s is damaged or unreadable: %w", b.ID, rec.Path, err)
		}
		f, ok := files[rec.Path]
		if !ok || f == nil {
			return nil, fmt.Errorf("backup %s: what mcpsync knew of %s is missing from %s", b.ID, rec.Path, StatesFileName)
		}
		return f.Clone(), nil // each restore takes a record of its own
	}
	data, err := os.ReadFile(filepath.Join(b.Dir, rec.StateFile))
	if err != nil {
		return nil, fmt.Errorf("backup %s: cannot read what mcpsync knew of %s: %w", b.ID, rec.Path, err)
	}
	var f ledger.File
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("backup %s: what mcpsync knew of %s is damaged: %v", b.ID, rec.Path, err)
	}
	return &f, nil
}

// readStates reads the backup's StatesFileName, once for a Backup that
// readBackup made.
func (b *Backup) readStates() (map[string]*ledger.File, error) {
	read := func() (map[string]*ledger.File, error) {
		data, err := os.ReadFile(filepath.Join(b.Dir, StatesFileName))
		if err != nil {
			return nil, err
		}
		return ledger.UnmarshalFiles(data)
	}
	if b.states == nil {
		return read()
	}
	b.states.once.Do(func() { b.states.files, b.states.err = read() })
	return b.states.files, b.states.err
}

// Size returns the size of the copy of rec's file, or -1 when there is none.
func (b *Backup) Size(rec BackupRecord) int64 {
	if rec.Backup == "" {
		return -1
	}
	fi, err := os.Stat(filepath.Join(b.Dir, rec.Backup))
	if err != nil {
		return -1
	}
	return fi.Size()
}

// ListBackups returns every complete backup under stateDir, oldest first.
// A directory without a readable manifest (an apply killed while backing
// up) is not a backup: it is skipped here and removed by PruneBackups.
func ListBackups(stateDir string) ([]*Backup, error) {
	out, _, err := listBackups(stateDir)
	return out, err
}

// listBackups is ListBackups, and the directories that hold no manifest
// at all. The manifests are read side by side, as many at once as there
// are processors: pruning reads every one after every write (twenty per
// file with the default retention), 80 µs each here, most of it the
// calls that open and read a file.
func listBackups(stateDir string) (out []*Backup, incomplete []string, err error) {
	base := filepath.Join(stateDir, BackupDirName)
	entries, err := os.ReadDir(base)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("%s: cannot list the backups: %w", base, err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(base, e.Name()))
		}
	}
	read := make([]*Backup, len(dirs))
	missing := make([]bool, len(dirs))
	eachFile(len(dirs), func(i int) {
		b, err := readBackup(dirs[i])
		read[i], missing[i] = b, errors.Is(err, fs.ErrNotExist)
	})
	for i, b := range read {
		switch {
		case b != nil:
			out = append(out, b)
		case missing[i]:
			incomplete = append(incomplete, dirs[i])
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.Before(out[j].At)
		}
		return idSeq(out[i].ID) < idSeq(out[j].ID)
	})
	return out, incomplete, nil
}

// idSeq is the -N suffix of a backup id (0 when none), which orders
// backups taken at the same instant.
func idSeq(id string) int {
	if i := strings.LastIndexByte(id, '-'); i > 0 {
		if n, err := strconv.Atoi(id[i+1:]); err == nil {
			return n
		}
	}
	return 0
}

func readBackup(dir string) (*Backup, error) {
	data, err := os.ReadFile(filepath.Join(dir, ManifestName))
	if err != nil {
		return nil, err
	}
	var m BackupManifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	for _, r := range m.Files {
		// A record names an absolute client file and a copy inside this
		// directory; anything else is a damaged (or forged) manifest.
		if !filepath.IsAbs(r.Path) || !inBackupDir(r.Backup) || !inBackupDir(r.StateFile) {
			return nil, fmt.Errorf("%s: damaged manifest (record %q)", dir, r.Path)
		}
	}
	return &Backup{ID: filepath.Base(dir), Dir: dir, At: m.At, Command: m.Command, Files: m.Files, states: &backupStates{}}, nil
}

// inBackupDir reports whether name ("" for none) names a file of the
// backup directory itself, never one beside or above it, nor the manifest.
func inBackupDir(name string) bool {
	return name == "" || !strings.ContainsAny(name, `/\`) && name != ".." && name != "." && name != ManifestName
}

// Retention says how many backups are kept.
type Retention struct {
	// Keep is how many backups of each file are kept (the newest); 0 or
	// less keeps any number.
	Keep int
	// MaxAge removes backups older than this; 0 or less keeps them
	// whatever their age. The newest backup of each file is kept anyway,
	// so that the last write can always be undone.
	MaxAge time.Duration
}

// DefaultRetention keeps 20 backups per file, for at most 30 days.
var DefaultRetention = Retention{Keep: 20, MaxAge: 30 * 24 * time.Hour}

// PruneBackups removes backups the retention no longer keeps: per file,
// those beyond the newest Keep and those older than MaxAge (never a
// file's newest). A backup directory loses the records it no longer
// keeps (its manifest is rewritten atomically) and goes away with its
// last one. Directories without a manifest, left by an apply that was
// killed while backing up, are removed too. The caller holds the state
// lock. It returns the directories it removed or changed.
func PruneBackups(stateDir string, r Retention, now time.Time) ([]string, error) {
	backups, incomplete, err := listBackups(stateDir)
	if err != nil {
		return nil, err
	}
	var touched []string
	for _, dir := range incomplete {
		if os.RemoveAll(dir) == nil {
			touched = append(touched, dir)
		}
	}
	// Walk newest first, counting each file's backups.
	seen := map[string]int{}
	drop := map[*Backup]map[string]bool{}
	for i := len(backups) - 1; i >= 0; i-- {
		b := backups[i]
		for _, rec := range b.Files {
			n := seen[rec.Path]
			seen[rec.Path]++
			if n == 0 {
				continue // a file's newest backup stays
			}
			if (r.Keep > 0 && n >= r.Keep) || (r.MaxAge > 0 && now.Sub(b.At) > r.MaxAge) {
				if drop[b] == nil {
					drop[b] = map[string]bool{}
				}
				drop[b][rec.Path] = true
			}
		}
	}
	for _, b := range backups {
		gone := drop[b]
		if len(gone) == 0 {
			continue
		}
		if len(gone) == len(b.Files) {
			if err := os.RemoveAll(b.Dir); err != nil {
				return touched, fmt.Errorf("cannot remove the old backup %s: %w", b.Dir, err)
			}
			touched = append(touched, b.Dir)
			continue
		}
		m := BackupManifest{At: b.At, Command: b.Command}
		for _, rec := range b.Files {
			if !gone[rec.Path] {
				m.Files = append(m.Files, rec)
			}
		}
		data, _ := manifestJSON(m)
		if err := atomicfile.WriteFile(filepath.Join(b.Dir, ManifestName), append(data, '\n'), 0o600); err != nil {
			return touched, fmt.Errorf("cannot rewrite the backup manifest %s: %w", b.Dir, err)
		}
		kept := map[string]bool{} // state files a kept record still reads (StatesFileName is shared)
		for _, rec := range m.Files {
			kept[rec.StateFile] = true
		}
		for _, rec := range b.Files {
			if gone[rec.Path] && rec.Backup != "" {
				os.Remove(filepath.Join(b.Dir, rec.Backup))
			}
			if gone[rec.Path] && rec.StateFile != "" && !kept[rec.StateFile] {
				os.Remove(filepath.Join(b.Dir, rec.StateFile))
			}
		}
		touched = append(touched, b.Dir)
	}
	return touched, nil
}
