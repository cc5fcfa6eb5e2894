package safefile

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fuzzNames are the path components a fuzzed tree is built from.
var fuzzNames = []string{"a", "b", ".mcp.json", "..", ".", "sub", "c.json"}

// fuzzTargets are where a fuzzed link may point: inside, outside, up, at
// itself, absolute.
var fuzzTargets = []string{"a", "../home/secret", "../home", "..", "../../", "sub/c.json", "../proj/a", "b/../../home/secret",
	"/", "ABS_OUTSIDE", "ABS_INSIDE", "missing/x.json", "../home/new.json", "."}

// FuzzWriteBeneathRoot builds a random tree of files, directories, links
// (inside, out of the root, dangling, absolute, through "..") and then
// reads and writes random paths beneath the root: nothing outside the root
// is ever written or created, and no read returns the bytes of a file
// outside it.
// ci-fuzztime: 5000x
func FuzzWriteBeneathRoot(f *testing.F) {
	for _, seed := range [][]byte{
		{}, {2, 0, 1, 0, 3, 2}, {2, 2, 2, 1, 0, 2, 0}, {2, 6, 12, 0, 1}, {1, 5, 2, 0, 9, 0, 2},
		{2, 0, 3, 2, 1, 4, 0, 0, 0, 0, 1},
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if runtime.GOOS == "windows" || len(data) > 64 {
			return
		}
		base := t.TempDir()
		root, outside := filepath.Join(base, "proj"), filepath.Join(base, "home")
		os.MkdirAll(root, 0o755)
		os.MkdirAll(outside, 0o755)
		os.WriteFile(filepath.Join(outside, "secret"), []byte("OUTSIDE-SECRET"), 0o600)
		before := snapshot(t, outside)
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return int(b)
		}
		pathOf := func() string {
			n := next()%3 + 1
			parts := make([]string, n)
			for i := range parts {
				parts[i] = fuzzNames[next()%len(fuzzNames)]
			}
			return filepath.Join(parts...)
		}
		// The tree is built through an os.Root too, so that the test's own
		// set-up never writes through a link it made.
		r, err := os.OpenRoot(root)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for len(data) > 0 {
			rel := pathOf()
			full := filepath.Join(root, rel)
			switch next() % 5 {
			case 0: // a directory
				r.MkdirAll(rel, 0o755)
			case 1: // a new file
				r.MkdirAll(filepath.Dir(rel), 0o755)
				if f, err := r.OpenFile(rel, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
					f.WriteString("inside")
					f.Close()
				}
			case 2: // a link
				target := fuzzTargets[next()%len(fuzzTargets)]
				target = strings.NewReplacer("ABS_OUTSIDE", filepath.Join(outside, "secret"), "ABS_INSIDE", filepath.Join(root, "a")).Replace(target)
				r.MkdirAll(filepath.Dir(rel), 0o755)
				r.Symlink(target, rel)
			case 3: // a read
				if got, _, err := ReadFile(full, root); err == nil && bytes.Contains(got, []byte("OUTSIDE-SECRET")) {
					t.Fatalf("ReadFile(%s) read a file outside the root", rel)
				}
			case 4: // a write
				WriteFile(full, root, []byte("WRITTEN"), 0o600)
				Remove(filepath.Join(root, pathOf()), root)
				Chmod(filepath.Join(root, pathOf()), root, 0o644)
			}
		}
		if after := snapshot(t, outside); after != before {
			t.Fatalf("the tree outside the root changed:\nbefore %s\nafter  %s", before, after)
		}
	})
}

// snapshot lists a tree: every path with its type, mode and bytes.
func snapshot(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		fi, _ := os.Lstat(path)
		b.WriteString(path + " " + fi.Mode().String())
		if fi.Mode().IsRegular() {
			data, _ := os.ReadFile(path)
			b.WriteString(" " + string(data))
		}
		b.WriteString("\n")
		return nil
	})
	return b.String()
}
