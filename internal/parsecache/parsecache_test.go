package parsecache

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestGetPut(t *testing.T) {
	c := Open(filepath.Join(t.TempDir(), "parsed"))
	src := []byte(`server "a" { command = "x" }`)
	if _, ok := c.Get("store\x00a.hcl", src); ok {
		t.Fatal("an empty cache had an entry")
	}
	c.Put("store\x00a.hcl", src, []byte(`{"servers":[]}`))
	got, ok := c.Get("store\x00a.hcl", src)
	if !ok || string(got) != `{"servers":[]}` {
		t.Fatalf("Get = %q, %v", got, ok)
	}
	if _, ok := c.Get("store\x00a.hcl", append(src, ' ')); ok {
		t.Fatal("an entry was returned for other bytes")
	}
	if _, ok := c.Get("store\x00b.hcl", src); ok {
		t.Fatal("an entry was returned for another name")
	}
	// A second Put for the name replaces the first: one entry per file.
	c.Put("store\x00a.hcl", append(src, ' '), []byte(`{}`))
	if _, ok := c.Get("store\x00a.hcl", src); ok {
		t.Fatal("the replaced entry is still returned")
	}
	entries, _ := os.ReadDir(c.dir)
	if len(entries) != 1 {
		t.Fatalf("%d files in the cache, want 1", len(entries))
	}
	fi, _ := os.Stat(filepath.Join(c.dir, entries[0].Name()))
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("entry mode %v, want 0600", fi.Mode().Perm())
	}
}

// A damaged or cut entry is a miss, never wrong data.
func TestDamagedEntry(t *testing.T) {
	c := Open(t.TempDir())
	src := []byte("x")
	c.Put("n", src, []byte(`{"servers":[{"name":"a"}]}`))
	path := c.path("n")
	whole, _ := os.ReadFile(path)
	for _, bad := range [][]byte{whole[:len(whole)-3], append(append([]byte{}, whole[:len(whole)-2]...), 'X', '}'), whole[:10], {}} {
		os.WriteFile(path, bad, 0o600)
		if got, ok := c.Get("n", src); ok {
			t.Fatalf("damaged entry %q returned %q", bad, got)
		}
	}
}

// No directory, or one that cannot be written: nothing kept, nothing fails.
func TestNoCache(t *testing.T) {
	var c *Cache
	c.Put("n", nil, []byte("x"))
	if _, ok := c.Get("n", nil); ok {
		t.Fatal("a nil cache returned an entry")
	}
	if Open("") != nil {
		t.Fatal(`Open("") is a cache`)
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	c = Open(filepath.Join(file, "sub"))
	c.Put("n", nil, []byte("x"))
	if _, ok := c.Get("n", nil); ok {
		t.Fatal("an entry came back from a directory that cannot exist")
	}
}

// PutWith keeps what its writer writes, in pieces of any size, as Put
// keeps the same bytes; a writer that fails keeps nothing, and leaves the
// entry that was there.
func TestPutWith(t *testing.T) {
	c := Open(t.TempDir())
	src := []byte("file bytes")
	var want []byte
	for i := range 30000 {
		want = fmt.Appendf(want, `{"name":"s%d"},`, i)
	}
	c.PutWith("n", src, func(w io.Writer) error {
		for rest := want; len(rest) > 0; {
			n := min(len(rest), 1+len(rest)%70001)
			if _, err := w.Write(rest[:n]); err != nil {
				return err
			}
			rest = rest[n:]
		}
		return nil
	})
	got, ok := c.Get("n", src)
	if !ok || !bytes.Equal(got, want) {
		t.Fatalf("PutWith kept %d bytes (%v), want %d", len(got), ok, len(want))
	}
	put := Open(t.TempDir())
	put.Put("n", src, want)
	a, _ := os.ReadFile(c.path("n"))
	b, _ := os.ReadFile(put.path("n"))
	if !bytes.Equal(a, b) {
		t.Fatal("PutWith and Put keep the same bytes differently")
	}
	c.PutWith("n", src, func(w io.Writer) error {
		w.Write([]byte("half"))
		return errors.New("cannot")
	})
	if got, ok := c.Get("n", src); !ok || !bytes.Equal(got, want) {
		t.Fatal("a failed PutWith replaced the entry")
	}
	if entries, _ := os.ReadDir(c.dir); len(entries) != 1 {
		t.Fatalf("%d files in the cache after a failed PutWith, want 1", len(entries))
	}
}
