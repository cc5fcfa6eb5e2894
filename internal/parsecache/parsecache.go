// Package parsecache keeps what parsing a file produced, between runs, so
// that a file that has not changed is not parsed again. A 10,000-server
// mcpsync.hcl takes HCL's parser about 0.3 s and 150 MB of tokens; reading
// back what it produced last time takes a small part of that.
//
// An entry is found by the file's name and is valid only for the exact
// bytes it was made from and the exact mcpsync binary that made it: its
// header is a SHA-256 of the two, so an edited file, another build or a
// damaged entry is a miss, and a miss is a normal parse. One entry is kept
// per name; the next parse of that name replaces it.
//
// The cache is an optimisation only: a directory that cannot be read or
// written costs the parse and nothing else, and it never holds anything
// that is not derived from the user's own file.
package parsecache

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/mcpsync/mcpsync/internal/buildid"
)

// Cache is a directory of entries. The zero value and nil are a cache that
// keeps nothing.
type Cache struct {
	dir string
}

// Open returns the cache kept in dir (created on the first Put).
func Open(dir string) *Cache {
	if dir == "" {
		return nil
	}
	return &Cache{dir: dir}
}

// Get returns the entry kept for name when it was made from src by this
// binary.
func (c *Cache) Get(name string, src []byte) ([]byte, bool) {
	if c == nil || c.dir == "" {
		return nil, false
	}
	data, err := os.ReadFile(c.path(name))
	if err != nil {
		return nil, false
	}
	header := stamp(src)
	if len(data) < len(header)+sha256.Size || !bytes.Equal(data[:len(header)], header) {
		return nil, false
	}
	sum, body := data[len(header):len(header)+sha256.Size], data[len(header)+sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(sum, got[:]) {
		return nil, false // a torn or damaged entry
	}
	return body, true
}

// Put keeps data as the entry for name, made from src. A failure is
// ignored: the next run parses again.
func (c *Cache) Put(name string, src, data []byte) {
	c.PutWith(name, src, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// PutWith is Put of what write writes, which need not be held whole: the
// entry of a decoded client file of 10,000 servers is 2 MB, and a written
// export to every client keeps one per file, two or more at once. An error
// from write keeps nothing.
func (c *Cache) PutWith(name string, src []byte, write func(io.Writer) error) {
	if c == nil || c.dir == "" {
		return
	}
	if err := os.MkdirAll(c.dir, 0o700); err != nil {
		return
	}
	// A temporary file renamed into place: a reader sees a whole entry or
	// none. No fsync: an entry lost in a crash is a parse, and the data
	// hash turns a torn one into a miss. The hash is written over its
	// place once the data has gone by it.
	tmp, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return
	}
	header := stamp(src)
	h := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(tmp, h), 64<<10)
	_, err = tmp.Write(append(header, make([]byte, sha256.Size)...))
	if err == nil {
		err = write(bw)
	}
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		_, err = tmp.WriteAt(h.Sum(nil), int64(len(header)))
	}
	// The entry it replaces goes first, so that the rename replaces
	// nothing: ext4 starts writing a file's data out as soon as it is
	// renamed over another (auto_da_alloc, for writers that do not sync),
	// and the run's own syncs that come next (its backup, its writes)
	// then waited for that: 7 ms of an export of 10,000 servers to four
	// clients, whose entries are 7.5 MB. Unreplaced, the data goes out
	// with the kernel's own writeback, after the run. A reader between
	// the two finds no entry, which is a parse.
	if cerr := tmp.Close(); err != nil || cerr != nil {
		os.Remove(tmp.Name())
		return
	}
	path := c.path(name)
	os.Remove(path)
	if os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}

func (c *Cache) path(name string) string {
	sum := sha256.Sum256([]byte(name))
	return filepath.Join(c.dir, hex.EncodeToString(sum[:16]))
}

// stamp is the header of an entry: which binary made it from which bytes.
func stamp(src []byte) []byte {
	h := sha256.New()
	h.Write(buildid.ID())
	h.Write(src)
	return fmt.Appendf(nil, "mcpsync parse cache %x\n", h.Sum(nil))
}
