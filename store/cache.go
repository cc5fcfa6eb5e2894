package store

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"sync"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/jsonread"
)

// A Cache keeps what Parse read from a file between runs (see
// internal/parsecache). Get returns what Put was given for the same name
// and the same bytes, or false.
type Cache interface {
	Get(name string, src []byte) ([]byte, bool)
	Put(name string, src, data []byte)
}

// parsed is what Parse reads from a file without errors: everything a
// Store exposes, and the warnings. The HCL syntax tree is not kept: it is
// needed only to edit the file, and is read again then (ensureSyntax).
type parsed struct {
	Count       int                   `json:"count"` // of Servers, read first (jsonread.ServersN)
	Servers     []canonical.Server    `json:"servers"`
	Clients     map[string]ClientRule `json:"clients"`
	ClientFiles map[string]ClientFile `json:"client_files"`
	Resolvers   []Resolver            `json:"resolvers"`
	Sources     []Source              `json:"sources"`
	Diags       canonical.Diagnostics `json:"diags"`
}

func (s *Store) parsed(ds canonical.Diagnostics) parsed {
	return parsed{Count: len(s.Servers.Servers), Servers: s.Servers.Servers, Clients: s.Clients, ClientFiles: s.ClientFiles,
		Resolvers: s.Resolvers, Sources: s.Sources, Diags: ds}
}

// encodeParsed is p as JSON, or nil when the JSON would not read back as
// exactly p: such a file is always parsed.
func encodeParsed(p parsed) []byte { return jsonread.EncodeExact(p, decodeParsed) }

func decodeParsed(data []byte) (parsed, bool) {
	if p, ok := decodeParsedFast(data); ok {
		return p, true
	}
	var p parsed
	if json.Unmarshal(data, &p) != nil {
		return parsed{}, false
	}
	return p, true
}

// decodeParsedFast reads the servers, most of a kept parse, with
// jsonread, and the rest with encoding/json; false where jsonread gives
// up (then encoding/json reads it all). Every run of a store of 10,000
// servers reads them. FuzzDecodeParsed holds it equal to encoding/json.
func decodeParsedFast(data []byte) (parsed, bool) {
	var p parsed
	r := jsonread.New(data)
	var seen uint32
	if !r.Expect('{') {
		return p, false
	}
	for i := 0; ; i++ {
		k, ok := r.Member(i)
		if !ok {
			break
		}
		switch string(k) {
		case "count":
			r.Once(&seen, 6)
			p.Count = r.Int()
		case "servers":
			r.Once(&seen, 0)
			p.Servers = r.ServersN(p.Count)
		case "clients":
			r.Once(&seen, 1)
			r.Unmarshal(&p.Clients)
		case "client_files":
			r.Once(&seen, 2)
			r.Unmarshal(&p.ClientFiles)
		case "resolvers":
			r.Once(&seen, 3)
			r.Unmarshal(&p.Resolvers)
		case "sources":
			r.Once(&seen, 4)
			r.Unmarshal(&p.Sources)
		case "diags":
			r.Once(&seen, 5)
			r.Unmarshal(&p.Diags)
		default:
			r.Fail()
		}
	}
	if !r.End() {
		return parsed{}, false
	}
	return p, true
}

// ParseCached is Parse, taking the result from c when the same file was
// parsed before by this binary, and keeping it there when not. A file with
// errors is never kept: it is parsed, and its errors reported, every time.
//
// A file edited since its last parse (by hand, or by any program but
// mcpsync) is read as ParseEdited reads mcpsync's own saves: from the parse
// of the text before the edit, which c keeps with that text, and a parse
// of the text where it changed (parseFromLast). Adding or changing one
// server in a store of 10,000 by hand made the next command parse all of
// it.
func ParseCached(filename string, src []byte, c Cache) (*Store, canonical.Diagnostics) {
	return parseCached(filename, src, c, true)
}

// parseCached is ParseCached; fromLast says whether to try parseFromLast
// (ParseEdited has tried readBack already).
func parseCached(filename string, src []byte, c Cache, fromLast bool) (*Store, canonical.Diagnostics) {
	if c == nil {
		return Parse(filename, src)
	}
	if s, ds, ok := lastParsed.get(filename, src); ok {
		return s, ds
	}
	if data, ok := c.Get(storeKey(filename), src); ok {
		if p, ok := decodeParsed(data); ok {
			s := storeOf(filename, src, p) // blocks: read again from src for an edit
			s.cached = data
			return s, p.Diags
		}
	}
	if fromLast {
		if s, ok := parseFromLast(filename, src, c); ok {
			return s, nil
		}
	}
	s, ds := Parse(filename, src)
	if !ds.HasErrors() {
		if data := encodeParsed(s.parsed(ds)); data != nil {
			keepParsed(c, filename, src, data)
			lastParsed.put(filename, src, data, s.blocks)
		}
	}
	return s, ds
}

// storeKey names the entry of a store's parse in a Cache, made from the
// exact text parsed; sourceKey names the entry of that text itself, kept
// under sourceStamp rather than its own bytes, so that the next run finds
// it whatever the file holds by then.
func storeKey(filename string) string  { return "store\x00" + filename }
func sourceKey(filename string) string { return "store source\x00" + filename }

var sourceStamp = []byte("the text of the store parsed last")

// keepParsed keeps data, the parse of src, and src itself in c.
func keepParsed(c Cache, filename string, src, data []byte) {
	c.Put(storeKey(filename), src, data)
	c.Put(sourceKey(filename), sourceStamp, src)
}

// parseFromLast is src's store read from the parse of the text c kept last
// for filename and a parse of where src differs from it (readBack), and
// kept in c; ok is false when c holds no such text and parse (another
// build made them, or a save was lost), or when readBack says src must be
// parsed whole. The result is what Parse reads from src (FuzzParseEdited).
func parseFromLast(filename string, src []byte, c Cache) (*Store, bool) {
	prev, ok := c.Get(sourceKey(filename), sourceStamp)
	if !ok || bytes.Equal(prev, src) {
		return nil, false
	}
	return readBackKept(filename, prev, src, c)
}

// lastParsed is the store this process parsed last, with its syntax: the
// store a sync has just written and checked is loaded again by the next
// watch cycle (or by another part of the same run), and then needs no
// parse of its blocks to be edited (ensureSyntax). The servers are decoded
// afresh from the cached JSON for each Store, so no two share a value; the
// syntax trees are only read once decoded, and are shared.
var lastParsed memo

type memo struct {
	mu       sync.Mutex
	filename string
	src      []byte
	data     []byte
	blocks   map[string]*serverBlock
}

// ForgetParsed forgets the store this process parsed last, as a new
// process starts without it: for a benchmark that times the runs after
// the one that parsed the store, each of which, in a process of its own,
// reads the parse cache and holds no syntax tree (at 10,000 servers the
// memo's trees are 40 MB, which every collection of those runs marked).
func ForgetParsed() {
	lastParsed.mu.Lock()
	defer lastParsed.mu.Unlock()
	lastParsed.filename, lastParsed.src, lastParsed.data, lastParsed.blocks = "", nil, nil, nil
}

func (m *memo) put(filename string, src, data []byte, blocks map[string]*serverBlock) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.filename, m.src, m.data, m.blocks = filename, slices.Clone(src), data, blocks
}

// forget forgets the store parsed last when it is filename's src.
func (m *memo) forget(filename string, src []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.filename == filename && bytes.Equal(m.src, src) {
		m.filename, m.src, m.data, m.blocks = "", nil, nil, nil
	}
}

// dataFor is the kept parse of filename's src, when it is the one parsed
// last.
func (m *memo) dataFor(filename string, src []byte) ([]byte, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.filename != filename || !bytes.Equal(m.src, src) {
		return nil, false
	}
	return m.data, m.data != nil
}

func (m *memo) get(filename string, src []byte) (*Store, canonical.Diagnostics, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.blocks == nil || m.filename != filename || !bytes.Equal(m.src, src) {
		return nil, nil, false
	}
	p, ok := decodeParsed(m.data)
	if !ok {
		return nil, nil, false
	}
	s := storeOf(filename, src, p)
	s.blocks = m.blocks
	return s, p.Diags, true
}

// storeOf is the store of src that p, from the cache, says Parse reads;
// without its syntax (blocks), which only an edit needs.
func storeOf(filename string, src []byte, p parsed) *Store {
	s := newStore(filename)
	s.src = src
	s.Servers.Servers, s.Clients, s.ClientFiles, s.Resolvers, s.Sources = p.Servers, p.Clients, p.ClientFiles, p.Resolvers, p.Sources
	s.blocks = nil // newStore's empty map would say every server is new
	return s
}

// DropSyntax lets go of the syntax tree of a store that was parsed, for a
// run that only reads the store (an export, a diff): an edit reads it
// again from the bytes (ensureSyntax), as for a store from the cache. The
// tree of 10,000 servers is some 40 MB: an export right after an edit of
// the store held it to the end, and each of its collections marked it.
// This process's memo of the last parse (lastParsed) lets go of it too.
func (s *Store) DropSyntax() {
	if s.blocks == nil || s.broken {
		return
	}
	lastParsed.forget(s.Path, s.src)
	s.blocks = nil
}

// ensureSyntax reads the server blocks of a store that came from the cache
// from its bytes, for an edit. The servers the blocks decode to are the
// cache's (what Parse read from these bytes), so only the syntax is parsed:
// decoding every server again was two fifths of the parse, and an edit of
// one server in a store of 10,000 paid it. A store whose blocks do not
// line up with the cache's servers is read as Parse reads it.
func (s *Store) ensureSyntax() {
	if s.blocks != nil || s.broken {
		return
	}
	var loaded []canonical.Server
	if s.loaded != nil {
		loaded = s.loaded.Servers
	} else if s.cached != nil {
		if p, ok := decodeParsed(s.cached); ok {
			loaded = p.Servers
		}
	}
	s.cached, s.loaded = nil, nil
	if loaded != nil {
		if blocks, ok := syntaxBlocks(s.Path, s.src, loaded); ok {
			s.blocks = blocks
			return
		}
	}
	again := newStore(s.Path)
	decodeFile(again, s.src)
	s.blocks = again.blocks
}

// syntaxBlocks parses the syntax of src and pairs its server blocks, in
// file order, with servers, the servers Parse decodes from them; ok is
// false when src does not parse or its blocks are not those servers.
func syntaxBlocks(filename string, src []byte, servers []canonical.Server) (blocks map[string]*serverBlock, ok bool) {
	body, diags := parseConfig(src, filename)
	if diags.HasErrors() || body == nil {
		return nil, false
	}
	blocks = make(map[string]*serverBlock, len(servers))
	i := 0
	for _, b := range body.Blocks {
		if b.Type != "server" {
			continue
		}
		if i == len(servers) || len(b.Labels) != 1 || b.Labels[0] != servers[i].Name {
			return nil, false
		}
		blocks[servers[i].Name] = &serverBlock{srv: servers[i], syntax: b}
		i++
	}
	return blocks, i == len(servers)
}

// unchangedSinceCache reports whether a store that came from the cache
// holds exactly the servers and rules it was loaded with: then nothing
// needs the syntax tree, and Bytes is the file as loaded.
//
// What it was loaded with is decoded again from the cache's bytes, here:
// a copy of every server made at load was a serial 8 ms and 4.6 MB held
// by every run of a store of 10,000 servers, and only a run that saves the
// store asks.
func (s *Store) unchangedSinceCache() bool {
	if s.blocks != nil || s.cached == nil {
		return false
	}
	loaded, ok := decodeParsed(s.cached)
	if !ok {
		return false
	}
	if reflect.DeepEqual(s.Servers.Servers, loaded.Servers) && reflect.DeepEqual(s.Clients, loaded.Clients) {
		return true
	}
	s.loaded = &loaded // for the edit, which comes next, not to decode them again
	return false
}
