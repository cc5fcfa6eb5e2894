package emitters

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"sync"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/jsonread"
	"github.com/mcpsync/mcpsync/internal/jsonwrite"
)

// A DecodeMemo keeps what adapters decoded, by client, location and the
// exact bytes, so that a file read again as it was is not decoded again.
// watch is what needs it: each cycle reads every client file, and the
// files the last cycle wrote were decoded then, to check them; at 1,000
// servers decoding was a third of a cycle. An adapter's Decode depends on
// nothing else (see formats.Adapter), and an engine's adapters stay the
// same for its life, so a memo belongs to one engine.
//
// A memo can also keep decoded files between runs, on disk (Persist):
// a no-op export, a diff or a sync of 10,000 servers spent two thirds of
// its time decoding client files that had not changed since the last run.
//
// What it returns is a copy: callers change the sets they are given. A
// nil memo keeps nothing. It is safe for concurrent use.
type DecodeMemo struct {
	mu      sync.Mutex
	memory  bool // keep decoded sets in memory (NewDecodeMemo)
	entries map[decodeKey]decoded
	order   []decodeKey // oldest first, for eviction
	size    int         // bytes of the files held

	disk    DecodeCache
	builtin func(client string) bool
	diskMin int // smaller files are decoded: reading an entry costs as much
}

// A DecodeCache keeps bytes between runs for a name and the exact source
// bytes they were made from (internal/parsecache, which also ties an entry
// to the binary that made it).
type DecodeCache interface {
	Get(name string, src []byte) ([]byte, bool)
	Put(name string, src, data []byte)
}

// decodeCacheMin is the smallest file kept on disk: about 400 servers.
// Below it a decode takes about as long as reading an entry back, and the
// cache stays empty for most users.
const decodeCacheMin = 64 << 10

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

// NewDecodeMemo returns an empty memo, kept in memory.
func NewDecodeMemo() *DecodeMemo {
	return &DecodeMemo{memory: true, entries: map[decodeKey]decoded{}}
}

// Persist makes m keep what it decodes from a client file of a built-in
// client in c as well, so that the next run need not decode the same
// bytes again; m nil is a memo that keeps on disk only. builtin says
// whether a client is built into this binary: a client described by a
// plugin file decodes by that file, which the cache's key does not cover.
//
// An entry holds what the client file holds, in the user's own cache
// directory (0700, entries 0600), as the backups of the same file do. It
// is one per file and location, replaced when the file changes.
func (m *DecodeMemo) Persist(c DecodeCache, builtin func(client string) bool) *DecodeMemo {
	if m == nil {
		m = &DecodeMemo{}
	}
	if m.disk != nil {
		return m // watch's memo, persisted when the watch began
	}
	m.disk, m.builtin, m.diskMin = c, builtin, decodeCacheMin
	return m
}

// Decode is a.Decode(loc, data), for data read from loc's file: from the
// memo when the same client decoded the same bytes at the same location
// before, in this run or (Persist) an earlier one.
func (m *DecodeMemo) Decode(a formats.Adapter, loc formats.Location, data []byte) (canonical.Set, canonical.Diagnostics) {
	return m.decode(a, loc, data, true)
}

// DecodeOutput is Decode for bytes about to be written to loc's file:
// kept in memory only, for the next read of the file in this process
// (watch). On disk each file has one entry, which bytes that may never
// be written (a dry run) would replace.
func (m *DecodeMemo) DecodeOutput(a formats.Adapter, loc formats.Location, data []byte) (canonical.Set, canonical.Diagnostics) {
	return m.decode(a, loc, data, false)
}

// Written keeps set and diags, what a.Decode(loc, data) returned, as
// what loc's file decodes to once data is written there: in memory, and
// on disk where Decode would keep what it decodes from that file
// (Persist). A plan to be written calls it for each file it changes
// (ExportOptions.KeepDecoded). Should the write not happen, the entry is
// for bytes the file does not hold, which no read matches: it costs the
// next run a decode, as a file changed by hand does.
func (m *DecodeMemo) Written(a formats.Adapter, loc formats.Location, data []byte, set canonical.Set, diags canonical.Diagnostics) {
	if m == nil {
		return
	}
	k := decodeKey{client: a.ID(), loc: loc, n: len(data)}
	if m.memory {
		k.sum = sha256.Sum256(data)
		m.remember(k, set, diags, len(data))
	}
	if m.keepsOnDisk(k.client, data) {
		m.keep(diskName(k.client, loc), data, set, diags)
	}
}

// keepsOnDisk says whether what client's file decodes to is kept on disk
// (Persist): a built-in client's file of diskMin bytes or more.
func (m *DecodeMemo) keepsOnDisk(client string, data []byte) bool {
	return m.disk != nil && len(data) >= m.diskMin && m.builtin != nil && m.builtin(client)
}

func (m *DecodeMemo) decode(a formats.Adapter, loc formats.Location, data []byte, fromFile bool) (canonical.Set, canonical.Diagnostics) {
	if m == nil || (!m.memory && m.disk == nil) {
		return a.Decode(loc, data)
	}
	k := decodeKey{client: a.ID(), loc: loc, n: len(data)}
	if m.memory { // on disk, the cache keys by the bytes itself
		k.sum = sha256.Sum256(data)
		m.mu.Lock()
		d, ok := m.entries[k]
		m.mu.Unlock()
		if ok {
			return d.set.Clone(), cloneDiags(d.diags)
		}
	}
	onDisk := fromFile && m.keepsOnDisk(k.client, data)
	if onDisk {
		if entry, ok := m.disk.Get(diskName(k.client, loc), data); ok {
			if f, ok := readDecoded(entry); ok {
				set := canonical.Set{Servers: f.Servers}
				m.remember(k, set, f.Diags, len(data))
				return set, f.Diags
			}
		}
	}
	set, diags := a.Decode(loc, data)
	m.remember(k, set, diags, len(data))
	if onDisk {
		m.keep(diskName(k.client, loc), data, set, diags)
	}
	return set, diags
}

// A streamingCache takes an entry as it is written (parsecache.PutWith),
// so that it is never held whole: a written export to every client of
// 10,000 servers keeps 2 MB per file, two or more files at once, which
// added 20 MB to its peak.
type streamingCache interface {
	PutWith(name string, src []byte, write func(io.Writer) error)
}

// keep writes the entry for data, which decodes to set and diags, unless
// it would not read back as exactly that (see writeDecoded).
func (m *DecodeMemo) keep(name string, data []byte, set canonical.Set, diags canonical.Diagnostics) {
	if s, ok := m.disk.(streamingCache); ok {
		if d, ok := diagsJSON(diags); ok {
			// A server that would not read back as it is stops the write,
			// and PutWith then keeps nothing.
			s.PutWith(name, data, func(w io.Writer) error { return writeDecodedTo(w, set.Servers, d, true) })
		}
		return
	}
	if entry := writeDecoded(set, diags); entry != nil {
		m.disk.Put(name, data, entry)
	}
}

func (m *DecodeMemo) remember(k decodeKey, set canonical.Set, diags canonical.Diagnostics, size int) {
	if m.memory {
		m.put(k, decoded{set: set.Clone(), diags: cloneDiags(diags), size: size})
	}
}

// diskName is the cache entry of a client's location: one per file and
// section (Claude Code's ~/.claude.json holds several).
func diskName(client string, loc formats.Location) string {
	return fmt.Sprintf("decoded\x00%s\x00%q\x00%q\x00%q\x00%q\x00%q", client, loc.Scope, loc.Path, loc.Format, loc.Project, loc.OS)
}

// decodedFile is a cache entry: what Decode returned, and the number of
// servers first, for the reader to make room for them (ServersN).
type decodedFile struct {
	Count   int                   `json:"count"`
	Servers []canonical.Server    `json:"servers"`
	Diags   canonical.Diagnostics `json:"diags"`
}

// writeDecoded is the entry for a decoded file, or nil when it would not
// read back as exactly what Decode returned: such a file is decoded every
// time.
//
// The entry was checked by reading it back and comparing (EncodeExact):
// the first sync of 10,000 servers in every client's file spent 0.9 s of
// CPU making its entries, and a written export (which keeps what its files
// read back as, KeepDecoded) would spend as much again. The servers are now
// written by hand (jsonwrite), each checked as it is written for what JSON
// cannot carry (jsonwrite.AppendServerExact, which FuzzExact holds to
// reading back: a pass of its own over every server was a third of
// writing them); the diagnostics, few and of many types, are still read
// back and compared. TestDecodedEntriesAsBefore holds the result to the
// old check's over the wild corpus.
func writeDecoded(set canonical.Set, diags canonical.Diagnostics) []byte {
	d, ok := diagsJSON(diags)
	if !ok {
		return nil
	}
	entry, ok := appendDecoded(set.Servers, d, true)
	if !ok {
		return nil
	}
	return entry
}

// errInexact stops writing an entry at a server that would not read back
// as it is.
var errInexact = errors.New("a server would not read back as it is")

// diagsJSON is ds as encoding/json's Encoder without HTML escaping writes
// it, and whether it reads back as exactly ds.
func diagsJSON(ds canonical.Diagnostics) ([]byte, bool) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(ds) != nil {
		return nil, false
	}
	data := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	var back canonical.Diagnostics
	if json.Unmarshal(data, &back) != nil || !reflect.DeepEqual(back, ds) {
		return nil, false
	}
	return data, true
}

// appendDecoded writes an entry as encoding/json's Encoder without HTML
// escaping writes a decodedFile, the servers by hand (jsonwrite) and diags
// given as JSON. TestDecodedEntryAsEncodingJSON holds the bytes equal.
// With exactOnly, ok is false, and there is no entry, when a server would
// not read back as it is (writeDecodedTo).
func appendDecoded(servers []canonical.Server, diags []byte, exactOnly bool) ([]byte, bool) {
	var b bytes.Buffer
	b.Grow(64 + 256*len(servers) + len(diags))
	if writeDecodedTo(&b, servers, diags, exactOnly) != nil {
		return nil, false
	}
	return b.Bytes(), true
}

// writeDecodedTo writes what appendDecoded returns to w, a piece at a
// time. With exactOnly it stops with errInexact at the first server that
// would not read back as it is.
func writeDecodedTo(w io.Writer, servers []canonical.Server, diags []byte, exactOnly bool) error {
	const piece = 32 << 10
	b := make([]byte, 0, piece+4<<10)
	var ok bool
	b = strconv.AppendInt(append(b, `{"count":`...), int64(len(servers)), 10)
	b = append(b, `,"servers":`...)
	if servers == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range servers {
			if i > 0 {
				b = append(b, ',')
			}
			if !exactOnly {
				b = jsonwrite.AppendServerUnescaped(b, &servers[i])
			} else if b, ok = jsonwrite.AppendServerExact(b, &servers[i]); !ok {
				return errInexact
			}
			if len(b) >= piece {
				if _, err := w.Write(b); err != nil {
					return err
				}
				b = b[:0]
			}
		}
		b = append(b, ']')
	}
	b = append(b, `,"diags":`...)
	b = append(b, diags...)
	_, err := w.Write(append(b, '}'))
	return err
}

// readDecoded reads an entry: the servers with jsonread, as the store's
// cache does, and anything else jsonread gives up on with encoding/json.
func readDecoded(entry []byte) (decodedFile, bool) {
	var f decodedFile
	r := jsonread.New(entry)
	var seen uint32
	if r.Expect('{') {
		for i := 0; ; i++ {
			k, ok := r.Member(i)
			if !ok {
				break
			}
			switch string(k) {
			case "count":
				r.Once(&seen, 2)
				f.Count = r.Int()
			case "servers":
				r.Once(&seen, 0)
				f.Servers = r.ServersN(f.Count)
			case "diags":
				r.Once(&seen, 1)
				r.Unmarshal(&f.Diags)
			default:
				r.Fail()
			}
		}
	}
	if !r.End() {
		f = decodedFile{}
		if json.Unmarshal(entry, &f) != nil {
			return decodedFile{}, false
		}
	}
	return f, true
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
