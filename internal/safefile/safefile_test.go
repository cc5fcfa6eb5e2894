package safefile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

func tree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "proj"), filepath.Join(base, "home")
	for _, d := range []string{root, outside, filepath.Join(root, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "secret"), []byte("password=hunter2"), 0o600); err != nil {
		t.Fatal(err)
	}
	return root, outside
}

func TestLinksOutOfTheRootAreRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symlinks need privileges on Windows")
	}
	root, outside := tree(t)
	os.Symlink("../home/secret", filepath.Join(root, "file-link"))
	os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "abs-link"))
	os.Symlink("../home", filepath.Join(root, "dir-link"))
	os.Symlink("../home/nothing-yet.json", filepath.Join(root, "dangling"))
	os.WriteFile(filepath.Join(root, "sub", "real.json"), []byte("{}"), 0o600)
	os.Symlink("sub/real.json", filepath.Join(root, "inside-link"))

	for _, name := range []string{"file-link", "abs-link", "dir-link/secret", "dangling"} {
		path := filepath.Join(root, name)
		if data, _, err := ReadFile(path, root); err == nil || strings.Contains(string(data), "hunter2") {
			t.Errorf("ReadFile(%s) = %q, %v; want a refusal", name, data, err)
		} else if le := (*LinkOutError)(nil); !errors.As(err, &le) {
			t.Errorf("ReadFile(%s): %v, want a LinkOutError", name, err)
		} else if !strings.Contains(err.Error(), "is a link to ") || !strings.Contains(err.Error(), "outside "+root) {
			t.Errorf("ReadFile(%s): %q does not name the link and its target", name, err)
		}
		if err := WriteFile(path, root, []byte("planted"), 0o600); err == nil {
			t.Errorf("WriteFile(%s) went through", name)
		}
	}
	if data, _ := os.ReadFile(filepath.Join(outside, "secret")); string(data) != "password=hunter2" {
		t.Fatalf("the file outside changed: %q", data)
	}
	if _, err := os.Stat(filepath.Join(outside, "nothing-yet.json")); err == nil {
		t.Fatal("a dangling link's target outside the root was created")
	}
	// a link that stays inside is followed, for reading and writing
	if data, _, err := ReadFile(filepath.Join(root, "inside-link"), root); err != nil || string(data) != "{}" {
		t.Fatalf("inside link: %q, %v", data, err)
	}
	if err := WriteFile(filepath.Join(root, "inside-link"), root, []byte(`{"a":1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(filepath.Join(root, "inside-link")); fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("the inside link was replaced instead of written through")
	}
	if data, _ := os.ReadFile(filepath.Join(root, "sub", "real.json")); string(data) != `{"a":1}` {
		t.Fatalf("the link's target holds %q", data)
	}
	// without a root, the user's own links are followed
	if data, _, err := ReadFile(filepath.Join(root, "file-link"), ""); err != nil || string(data) != "password=hunter2" {
		t.Fatalf("no root: %q, %v", data, err)
	}
}

func TestNonRegularAndHugeFilesAreRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or /dev/zero on Windows")
	}
	root, _ := tree(t)
	fifo := filepath.Join(root, "fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skip("no mkfifo here:", err)
	}
	if _, _, err := ReadFile(fifo, root); err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("FIFO: %v", err)
	}
	if _, _, err := ReadFile("/dev/zero", ""); err == nil || !strings.Contains(err.Error(), "device") {
		t.Errorf("/dev/zero: %v", err)
	}
	if _, _, err := ReadFile(root, ""); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("a directory: %v", err)
	}
	big := filepath.Join(root, "big")
	f, _ := os.Create(big)
	f.Truncate(MaxSize + 1)
	f.Close()
	if _, _, err := ReadFile(big, root); err == nil || !errors.As(err, new(*TooLargeError)) {
		t.Errorf("a huge file: %v", err)
	}
	if _, _, err := ReadFile(filepath.Join(root, "absent"), root); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("absent: %v", err)
	}
}

// A file written into directories of the project that do not exist yet
// (.cursor, .codex) is there after a crash only if each new directory's
// entry is too: the directory holding each one created is synced, and the
// file's own, each once, after the rename.
func TestNewDirectoriesAreSynced(t *testing.T) {
	root, _ := tree(t)
	var mu sync.Mutex
	var synced []string
	path := filepath.Join(root, ".cursor", "rules", "mcp.json")
	old := syncDir
	syncDir = func(r *os.Root, dir string) {
		if data, err := os.ReadFile(path); err != nil || string(data) != "{}" {
			t.Errorf("%s synced before the rename: the file holds %q (%v)", dir, data, err)
		}
		mu.Lock()
		synced = append(synced, dir)
		mu.Unlock()
		old(r, dir)
	}
	defer func() { syncDir = old }()
	if err := WriteFile(path, root, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if want := []string{".", ".cursor", filepath.Join(".cursor", "rules")}; !slices.Equal(slices.Sorted(slices.Values(synced)), want) {
		t.Errorf("synced %q, want %q, each once", synced, want)
	}
	synced = nil
	path = filepath.Join(root, "sub", "x.json")
	if err := WriteFile(path, root, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if want := []string{"sub"}; !slices.Equal(synced, want) {
		t.Errorf("a file in a directory that exists: synced %q, want %q", synced, want)
	}
}

// TestReadFileWhole: ReadFile gives every byte of a file whatever its
// size, read into a buffer the size Stat gives (readAll); a file Stat
// has no size for (in /proc) is read to its end too, and an empty file
// is empty, not nil.
func TestReadFileWhole(t *testing.T) {
	root, _ := tree(t)
	for _, n := range []int{0, 1, 511, 512, 513, 4096, 100_000, 1 << 20} {
		want := make([]byte, n)
		for i := range want {
			want[i] = byte('a' + i%26)
		}
		path := filepath.Join(root, fmt.Sprintf("f%d", n))
		if err := os.WriteFile(path, want, 0o600); err != nil {
			t.Fatal(err)
		}
		got, _, err := ReadFile(path, root)
		if err != nil || got == nil || !bytes.Equal(got, want) {
			t.Errorf("%d bytes: read %d, %v", n, len(got), err)
		}
	}
	if runtime.GOOS == "linux" {
		got, _, err := ReadFile("/proc/self/status", "")
		if err != nil || !bytes.Contains(got, []byte("\nPid:")) {
			t.Errorf("/proc/self/status: %d bytes, %v", len(got), err)
		}
	}
}
