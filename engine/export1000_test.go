package engine_test

import (
	"bufio"
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

var updateExport1000 = flag.Bool("update-export1000", false, "rewrite testdata/export1000.sha256 from this build's export")

// TestExport1000Unchanged holds what a 1,000-server export to every
// client writes, byte for byte: the SHA-256 of each file is in
// testdata/export1000.sha256, written by the build before the speed work
// that shares servers between plans and snapshots between entries. A
// change that makes the export faster must not change a byte of it.
func TestExport1000Unchanged(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 servers to every client: not with -short")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the digests are of the files written on Linux (Windows wraps npx, macOS has other paths)")
	}
	p := newProject(t, 1000)
	var all []string
	for _, ad := range p.e.Registry().All() {
		all = append(all, ad.ID())
	}
	if p.exportApply(all) == 0 {
		t.Fatal("the export wrote nothing")
	}
	var got []string
	err := filepath.WalkDir(p.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(p.dir, path)
		if rel == "mcpsync.hcl" || strings.HasPrefix(rel, ".git"+string(filepath.Separator)) {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		got = append(got, fmt.Sprintf("%x  %s", sha256.Sum256(data), filepath.ToSlash(rel)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	golden := filepath.Join("testdata", "export1000.sha256")
	if *updateExport1000 {
		if err := os.WriteFile(golden, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	f, err := os.Open(golden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		want = append(want, sc.Text())
	}
	if !slices.Equal(got, want) {
		t.Errorf("the export of 1,000 servers to every client changed (got, then want):\n%s\n\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
