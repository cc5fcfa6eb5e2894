package emitters

import (
	"crypto/sha256"
	"sync"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

// A DecodeMemo keeps what adapters decoded, by client, location and the
// exact bytes, so that a file read again as it was is not decoded again.
// watch is what needs it: each cycle reads every client file, and the
// files the last cycle wrote were decoded then, to check them; at 1,000
// servers decoding was a third of a cycle. An adapter's Decode depends on
// nothing else (see formats.Adapter), and an engine's adapters stay the
// same for its life, so a memo belongs to one engine.
//
// What it returns is a copy: callers change the sets they are given. A
// nil memo keeps nothing. It is safe for concurrent use.
type DecodeMemo struct {
	mu      sync.Mutex
	entries map[decodeKey]decoded
	order   []decodeKey // oldest first, for eviction
	size    int         // bytes of the files held
}

type decodeKey struct {
	client string
	loc    formats.Location
	sum    [sha256.Size]byte
	n      int
}

type decoded struct {
	set   canonical.Set
	diags canonical.Diagnostics
	size  int
}

// decodeMemoBytes bounds the memo by the size of the files it holds (a
// decoded set is a few times its file), decodeMemoEntries by their number.
// A client file of 10,000 servers is 0.7–1.7 MiB, so the memo keeps about
// twenty of them: the files of one watch at that size.
const (
	decodeMemoBytes   = 32 << 20
	decodeMemoEntries = 64
)

// NewDecodeMemo returns an empty memo.
func NewDecodeMemo() *DecodeMemo { return &DecodeMemo{entries: map[decodeKey]decoded{}} }

// Decode is a.Decode(loc, data), from the memo when the same client
// decoded the same bytes at the same location before.
func (m *DecodeMemo) Decode(a formats.Adapter, loc formats.Location, data []byte) (canonical.Set, canonical.Diagnostics) {
	if m == nil {
		return a.Decode(loc, data)
	}
	k := decodeKey{client: a.ID(), loc: loc, sum: sha256.Sum256(data), n: len(data)}
	m.mu.Lock()
	d, ok := m.entries[k]
	m.mu.Unlock()
	if ok {
		return d.set.Clone(), cloneDiags(d.diags)
	}
	set, diags := a.Decode(loc, data)
	m.put(k, decoded{set: set.Clone(), diags: cloneDiags(diags), size: len(data)})
	return set, diags
}

func (m *DecodeMemo) put(k decodeKey, d decoded) {
	if d.size > decodeMemoBytes {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.entries[k]; ok {
		return
	}
	for len(m.order) > 0 && (m.size+d.size > decodeMemoBytes || len(m.order) >= decodeMemoEntries) {
		old := m.order[0]
		m.order = m.order[1:]
		m.size -= m.entries[old].size
		delete(m.entries, old)
	}
	m.entries[k] = d
	m.order = append(m.order, k)
	m.size += d.size
}

// cloneDiags copies each diagnostic: callers set their file on them.
func cloneDiags(ds canonical.Diagnostics) canonical.Diagnostics {
	if ds == nil {
		return nil
	}
	out := make(canonical.Diagnostics, len(ds))
	for i, d := range ds {
		if d != nil {
			c := *d
			d = &c
		}
		out[i] = d
	}
	return out
}
