package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestWriteKeepsSymlinkAndMode(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "mcp.json")
	os.MkdirAll(filepath.Dir(real), 0o755)
	if err := os.WriteFile(real, []byte("old"), 0o640); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "mcp.json")
	if err := os.Symlink("dotfiles/mcp.json", link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("link replaced: %v %v", fi, err)
	}
	got, _ := os.ReadFile(real)
	if string(got) != "new" {
		t.Fatalf("target holds %q", got)
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o640 {
		t.Fatalf("mode %v, want 0640", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(filepath.Dir(real))
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestWriteNewFileMode(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a", "b", "new.json")
	if err := WriteFile(p, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
}

func TestDanglingLinkCreatesTarget(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "l.json")
	os.Symlink("t.json", link)
	if err := WriteFile(link, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "t.json")); string(b) != "x" {
		t.Fatalf("target not created: %q", b)
	}
}

func TestStaleTempsOfDeadWritersAreCleaned(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "mcp.json")
	os.WriteFile(target, []byte("old"), 0o600)
	// A writer that no longer runs (pid 2^22+1 is above Linux's pid_max
	// default and unused), one that runs (this process's parent), an
	// unrelated file, and a file of another target.
	dead := filepath.Join(dir, ".mcp.json.mcpsync-4194305-123")
	alive := filepath.Join(dir, ".mcp.json.mcpsync-"+strconv.Itoa(os.Getppid())+"-456")
	other := filepath.Join(dir, ".other.json.mcpsync-4194305-789")
	for _, f := range []string{dead, alive, other, filepath.Join(dir, "notes.txt")} {
		os.WriteFile(f, []byte("partial"), 0o600)
	}
	stale := StaleTemps(target)
	if runtime.GOOS == "windows" {
		t.Skip("no process check on windows; stale files are found by age")
	}
	if len(stale) != 1 || stale[0] != dead {
		t.Fatalf("StaleTemps = %v, want only %s", stale, dead)
	}
	if err := WriteFile(target, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	for f, want := range map[string]bool{dead: false, alive: true, other: true} {
		if _, err := os.Stat(f); (err == nil) != want {
			t.Errorf("%s exists = %v, want %v", filepath.Base(f), err == nil, want)
		}
	}
}

// TestNewDirectoriesAreSynced: a file written into new directories survives
// a crash only if each new directory's entry is too: the directory holding
// each one it creates is synced, and the file's own directory, each once,
// all at once after the rename (so that one sync of the file's directory
// makes both its new entry and the rename durable).
func TestNewDirectoriesAreSynced(t *testing.T) {
	base := t.TempDir()
	path := filepath.Join(base, "a", "b", "c", "mcp.json")
	var mu sync.Mutex
	var synced []string
	old := syncDir
	syncDir = func(dir string) {
		if data, err := os.ReadFile(path); err != nil || !strings.HasPrefix(string(data), "new") {
			t.Errorf("%s synced before the rename: the file holds %q (%v)", dir, data, err)
		}
		mu.Lock()
		synced = append(synced, dir)
		mu.Unlock()
	}
	defer func() { syncDir = old }()
	if err := WriteFile(path, []byte("new {}"), 0o600); err != nil {
		t.Fatal(err)
	}
	want := []string{base, filepath.Join(base, "a"), filepath.Join(base, "a", "b"), filepath.Join(base, "a", "b", "c")}
	if got := slices.Sorted(slices.Values(synced)); !slices.Equal(got, want) {
		t.Errorf("synced %q, want %q, each once", synced, want)
	}
	synced = nil
	if err := WriteFile(path, []byte("new []"), 0o600); err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(base, "a", "b", "c")}; !slices.Equal(synced, want) {
		t.Errorf("a file in a directory that exists: synced %q, want %q", synced, want)
	}
	synced = nil
	syncDir = func(dir string) {
		mu.Lock()
		synced = append(synced, dir)
		mu.Unlock()
	}
	if err := MkdirAll(filepath.Join(base, "a", "x", "y"), 0o700); err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(base, "a"), filepath.Join(base, "a", "x")}; !slices.Equal(slices.Sorted(slices.Values(synced)), want) {
		t.Errorf("MkdirAll: synced %q, want %q", synced, want)
	}
}

// TestStagedWritesShareTheirSyncs: files staged, committed and then synced
// together (what emitters' writeAll does) sync a directory they share
// once, and only after every file is in place; an aborted one leaves no
// temporary file and its target as it was.
func TestStagedWritesShareTheirSyncs(t *testing.T) {
	base := t.TempDir()
	var mu sync.Mutex
	var synced []string
	old := syncDir
	syncDir = func(dir string) {
		mu.Lock()
		synced = append(synced, dir)
		mu.Unlock()
	}
	defer func() { syncDir = old }()
	os.WriteFile(filepath.Join(base, "kept.json"), []byte("old"), 0o600)
	var staged []*Staged
	for _, name := range []string{"a.json", "b.json", filepath.Join("sub", "c.json"), "kept.json"} {
		s, err := Stage(filepath.Join(base, name), 0o600, func(w io.Writer) error {
			_, err := io.WriteString(w, "new "+name)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		staged = append(staged, s)
	}
	if len(synced) > 0 {
		t.Fatalf("staging synced %q: the directories are synced once the files are committed", synced)
	}
	for _, name := range []string{"a.json", "c.json"} {
		if _, err := os.Stat(filepath.Join(base, name)); err == nil {
			t.Fatalf("%s is in place before its commit", name)
		}
	}
	staged[3].Abort()
	var dirs []DirSync
	for _, s := range staged[:3] {
		if err := s.Commit(); err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, s.Dirs()...)
	}
	SyncDirs(dirs)
	for _, s := range staged {
		s.Close()
	}
	if want := []string{base, filepath.Join(base, "sub")}; !slices.Equal(slices.Sorted(slices.Values(synced)), want) {
		t.Errorf("synced %q, want %q, each once", synced, want)
	}
	if data, _ := os.ReadFile(filepath.Join(base, "kept.json")); string(data) != "old" {
		t.Errorf("the aborted write changed its file: %q", data)
	}
	if err := staged[3].Commit(); err == nil {
		t.Error("an aborted write committed")
	}
	entries, _ := os.ReadDir(base)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".mcpsync-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
	if data, _ := os.ReadFile(filepath.Join(base, "sub", "c.json")); string(data) != "new "+filepath.Join("sub", "c.json") {
		t.Errorf("sub/c.json holds %q", data)
	}
}

// TestMkdirAllLaterSyncsWithTheNextWrite: MkdirAllLater makes the
// directories and syncs nothing; the next durable write syncs their
// holders beside its own directories' syncs and returns only after them,
// and the write after that does not sync them again.
func TestMkdirAllLaterSyncsWithTheNextWrite(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "state", "mcpsync")
	var mu sync.Mutex
	var synced []string
	old := syncDir
	syncDir = func(d string) {
		time.Sleep(time.Millisecond) // a sync takes its time
		mu.Lock()
		synced = append(synced, d)
		mu.Unlock()
	}
	defer func() { syncDir = old }()
	if err := MkdirAllLater(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("%s was not made: %v", dir, err)
	}
	if len(synced) > 0 {
		t.Fatalf("MkdirAllLater synced %q itself", synced)
	}
	path := filepath.Join(dir, "state.json")
	if err := WriteFile(path, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	got := slices.Sorted(slices.Values(synced))
	synced = nil
	mu.Unlock()
	if want := []string{base, filepath.Join(base, "state"), dir}; !slices.Equal(got, want) {
		t.Errorf("the first write after MkdirAllLater returned having synced %q, want %q", got, want)
	}
	if err := WriteFile(path, []byte("[]"), 0o600); err != nil {
		t.Fatal(err)
	}
	if want := []string{dir}; !slices.Equal(synced, want) {
		t.Errorf("the next write synced %q, want %q", synced, want)
	}
}
