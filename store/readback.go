package store

import (
	"bytes"
	"math"
	"slices"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/mcpsync/mcpsync/canonical"
)

// ParseEdited is ParseCached(filename, after, c) for a store that an edit
// made from before, whose parse is in c (or in this process's memo): the
// read-back check of every save. When before and after differ only within
// some server blocks, only the text from the first changed block's line to
// the line after the last is parsed, and the rest is taken from before's
// parse (the servers after it a few lines further down); the result is
// what Parse reads from after, to the line and column, and it is kept in c
// as a parse of after. A save of one server in a store of 10,000 parsed
// all of it, 240 ms of 316.
//
// Anything else parses after whole: a change that reaches a client,
// resolver or source block or the text before the first server, a text
// between the changed blocks that does not parse alone without a single
// diagnostic, a name defined twice, and any diagnostic at all in before or
// in the result (so that every diagnostic is Parse's own).
// FuzzParseEdited compares the two.
func ParseEdited(filename string, before, after []byte, c Cache) (*Store, canonical.Diagnostics) {
	if c != nil {
		if s, ok := readBackKept(filename, before, after, c); ok {
			return s, nil
		}
	}
	return parseCached(filename, after, c, false)
}

// readBackKept is readBack of after from before's parse in c (or in this
// process's memo), kept in c as the parse of after; ok is false when c
// holds no parse of before or readBack says after must be parsed whole.
func readBackKept(filename string, before, after []byte, c Cache) (*Store, bool) {
	old, ok := cachedParse(filename, before, c)
	if !ok {
		return nil, false
	}
	s, ok := readBack(filename, before, after, old)
	if !ok {
		return nil, false
	}
	lastParsed.forget(filename, before) // its syntax is of a file no longer there
	if data := encodeParsed(s.parsed(nil)); data != nil {
		keepParsed(c, filename, after, data)
		s.cached = data
	}
	return s, true
}

// cachedParse is the parse of src that this process's memo or c holds.
func cachedParse(filename string, src []byte, c Cache) (parsed, bool) {
	if data, ok := lastParsed.dataFor(filename, src); ok {
		return decodeParsed(data)
	}
	if data, ok := c.Get(storeKey(filename), src); ok {
		return decodeParsed(data)
	}
	return parsed{}, false
}

// readBack is after's store from old, the parse of before, and a parse of
// the text where after differs from before; ok is false where ParseEdited
// says after must be parsed whole.
func readBack(filename string, before, after []byte, old parsed) (*Store, bool) {
	if len(old.Diags) > 0 || len(old.Servers) == 0 {
		return nil, false
	}
	same := commonPrefix(before, after)
	tail := commonSuffix(before[same:], after[same:])
	lines := lineStarts(before)
	// The servers' header lines in before: where a block starts at the top
	// level with nothing before it on its line, so that a parse of the text
	// from there is a parse of what follows in the whole file.
	starts := make([]int, len(old.Servers))
	for i, srv := range old.Servers {
		if srv.Origin.Line < 1 || srv.Origin.Line > len(lines) || i > 0 && srv.Origin.Line <= old.Servers[i-1].Origin.Line {
			return nil, false
		}
		starts[i] = lines[srv.Origin.Line-1]
	}
	// first is the first server whose block may have changed, last the one
	// after the last that may have: the text from first's line to last's
	// is parsed again.
	first := sort.Search(len(starts), func(i int) bool { return starts[i] > same }) - 1
	if first < 0 {
		return nil, false // the change starts before the first server
	}
	last := sort.Search(len(starts), func(i int) bool { return starts[i] >= len(before)-tail })
	lo, hiOld := starts[first], len(before)
	if last < len(starts) {
		hiOld = starts[last]
	}
	if !headerAlone(before, lo) || last < len(starts) && !headerAlone(before, hiOld) {
		return nil, false
	}
	hiNew := hiOld + len(after) - len(before)
	if hiNew < lo || 2*(hiNew-lo) > len(after) {
		return nil, false // most of the file: as well parsed whole
	}
	if hiNew < len(after) && hiNew > 0 && after[hiNew-1] != '\n' {
		return nil, false // the new text runs into the next server's line
	}
	// The lines parsed again, [line, endLine) of before: to the end of the
	// file when no server follows.
	line, endLine := old.Servers[first].Origin.Line, math.MaxInt
	if last < len(starts) {
		endLine = old.Servers[last].Origin.Line
	}
	shift := bytes.Count(after[lo:hiNew], []byte{'\n'}) - bytes.Count(before[lo:hiOld], []byte{'\n'})

	// The other blocks are taken as they were, those after the text parsed
	// again a few lines further down; none may lie in it.
	s := newStore(filename)
	s.src = after
	s.blocks = nil // from a parse kept, like a store from the cache
	inside := false
	moved := func(p canonical.Pos) canonical.Pos {
		inside = inside || p.Line >= line && p.Line < endLine
		if p.Line >= endLine {
			p.Line += shift
		}
		return p
	}
	for name, r := range old.Clients {
		r.Pos = moved(r.Pos)
		s.Clients[name] = r
	}
	for name, cf := range old.ClientFiles {
		cf.Pos = moved(cf.Pos)
		s.ClientFiles[name] = cf
	}
	for _, r := range old.Resolvers {
		r.Pos = moved(r.Pos)
		s.Resolvers = append(s.Resolvers, r)
	}
	for _, src := range old.Sources {
		src.Pos = moved(src.Pos)
		s.Sources = append(s.Sources, src)
	}
	if inside {
		return nil, false
	}

	f, diags := hclsyntax.ParseConfig(after[lo:hiNew], filename, hcl.Pos{Line: line, Column: 1, Byte: lo})
	if len(diags) > 0 {
		return nil, false
	}
	content, diags := f.Body.Content(rootSchema)
	if len(diags) > 0 {
		return nil, false
	}
	d := &decoder{file: filename}
	middle := make([]canonical.Server, 0, len(content.Blocks))
	for _, blk := range content.Blocks {
		if blk.Type != "server" {
			return nil, false
		}
		middle = append(middle, d.server(blk))
		if len(d.diags) > 0 {
			return nil, false
		}
	}

	servers := make([]canonical.Server, 0, first+len(middle)+len(old.Servers)-last)
	servers = append(servers, old.Servers[:first]...)
	servers = append(servers, middle...)
	for _, srv := range old.Servers[last:] {
		srv.Origin.Line += shift
		servers = append(servers, srv)
	}
	seen := make(map[string]bool, len(servers))
	for _, srv := range servers {
		if seen[srv.Name] {
			return nil, false // Parse reports the duplicate
		}
		seen[srv.Name] = true
	}
	s.Servers.Servers = servers
	d.diags = append(d.diags, s.Servers.Validate()...)
	d.checkClientRules(s)
	if len(d.diags) > 0 {
		return nil, false
	}
	return s, true
}

// headerAlone reports whether the line starting at at begins, after blanks,
// with the word server: no comment or other text runs into it.
func headerAlone(src []byte, at int) bool {
	rest := bytes.TrimLeft(src[at:], " \t")
	return bytes.HasPrefix(rest, []byte("server")) && len(rest) > len("server") &&
		slices.Contains([]byte{' ', '\t', '"'}, rest[len("server")])
}

func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

func commonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := 1; i <= n; i++ {
		if a[len(a)-i] != b[len(b)-i] {
			return i - 1
		}
	}
	return n
}
