package tomledit

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// layout is where each expression of a TOML file sits. Offsets are into the
// whole file, byte-order mark included.
type layout struct {
	headers []*header
	kvs     []*keyval // top-level key/values in file order
	// pos maps a key path (joined by pathSep) to the offset of the key or
	// header that first defined it.
	pos map[string]int
	// implied holds the paths whose pos is only where a longer path first
	// named them ([a.b] names a): TOML lets [a] come later, and then [a]
	// is where the table is.
	implied map[string]bool
	// key is define's buffer for the paths it looks up (appendPart).
	key []byte
}

// pathSep joins key parts in map keys; TOML keys cannot hold it unescaped,
// and an escaped one only makes two paths share a position entry.
const pathSep = "\x00"

func joinPath(path []string) string { return strings.Join(path, pathSep) }

// appendPart adds the i'th part (from 0) of a path to key, the joined
// parts before it. The scan looks up every prefix of every header and
// key/value: by a key built so, m[string(key)] copies nothing, where a
// joinPath for each made writing and reading back a Codex file of 1,000
// servers allocate some 8,000 strings (BenchmarkWriteReadBack1000). A key
// kept in a map is copied (string(key)).
func appendPart(key []byte, path []string, i int) []byte {
	if i > 0 {
		key = append(key, pathSep...)
	}
	return append(key, path[i]...)
}

// A header is a [table] or [[array]] line and the lines that belong to it.
type header struct {
	path    []string
	array   bool
	start   int // start of the header line
	lineEnd int // after the newline that ends the header line
	// bodyEnd is after the last line that belongs to the table: its last
	// key/value, and comments that follow it without a blank line unless
	// they sit right above the next header (then they describe that one).
	bodyEnd int
	next    int // start of the next header line, or the end of the file
}

// A keyval is one key = value expression.
type keyval struct {
	table  int      // index of the enclosing header; -1 at the root or inside an inline table
	key    []string // dotted key parts, unquoted
	keyRaw []string // the same parts as spelled in the file
	path   []string // enclosing table path + key
	// start..end covers whole lines for a top-level expression (the
	// indentation before, the comment after and the newline), and exactly
	// the key/value text for a member of an inline table.
	start, end     int
	pos            int // offset of the first key part
	vstart, vend   int // the value's bytes
	inline         bool
	members        []*keyval // the key/values of an inline-table value
	open, closeOff int       // offsets of '{' and '}' of an inline-table value
}

// A LayoutError says that a file BurntSushi/toml accepts could not be laid
// out for editing.
type LayoutError struct {
	Offset int
	Msg    string
}

func (e *LayoutError) Error() string { return e.Msg }

// scan lays out src[base:], where base skips a byte-order mark.
func scan(src []byte, base int) (lay *layout, err error) {
	defer func() {
		// The parser is an unstable API; a panic in it must not take
		// mcpsync down, and a file we cannot lay out is not edited.
		if r := recover(); r != nil {
			lay, err = nil, &LayoutError{Msg: fmt.Sprintf("toml layout: %v", r)}
		}
	}()
	lay = &layout{pos: map[string]int{}, implied: map[string]bool{}}
	// inline holds the paths whose value is an inline table, by offset:
	// TOML closes them, but BurntSushi/toml lets a later dotted key or
	// header add to one, which Codex (and TOML) refuse.
	inline := map[string]int{}
	// dotted holds, for the table being read, the key paths a dotted key
	// made tables (a.b = 1 makes a one), by offset: BurntSushi/toml lets a
	// later a = 2 through, and drops it, which Codex (and TOML) refuse.
	dotted := map[string]int{}
	var p unstable.Parser
	p.Reset(src[base:])
	table, tableIdx := []string(nil), -1
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			parts, first, last := keyOf(e.Key(), base)
			if first < 0 {
				return nil, &LayoutError{Msg: "toml layout: table header without a key"}
			}
			if err := extendsInline(src, base, inline, parts, len(parts), first); err != nil {
				return nil, err
			}
			h := &header{path: parts, array: e.Kind == unstable.ArrayTable}
			h.start = max(lineStart(src, first), base)
			h.lineEnd = lineEnd(src, last)
			lay.headers = append(lay.headers, h)
			table, tableIdx = parts, len(lay.headers)-1
			clear(dotted)
			lay.define(parts, skipSpace(src, h.start))
		case unstable.KeyValue:
			kv, err := newKeyval(src, base, e, table, false)
			if err != nil {
				return nil, err
			}
			kv.table = tableIdx
			kv.start = max(lineStart(src, kv.pos), base)
			kv.end = lineEnd(src, kv.vend)
			if err := extendsInline(src, base, inline, kv.path, len(kv.path)-1, kv.pos); err != nil {
				return nil, err
			}
			if err := redefinesDotted(src, base, dotted, kv); err != nil {
				return nil, err
			}
			if kv.open > 0 { // its value is an inline table
				inline[joinPath(kv.path)] = kv.pos
			}
			lay.kvs = append(lay.kvs, kv)
			lay.defineKeyval(kv, table)
		}
	}
	if err := p.Error(); err != nil {
		var perr *unstable.ParserError
		msg := err.Error()
		off := -1
		if errors.As(err, &perr) {
			off = int(p.Range(perr.Highlight).Offset) + base
		}
		return nil, &LayoutError{Offset: off, Msg: "toml layout: " + msg}
	}
	lay.finish(src)
	return lay, nil
}

// extendsInline returns a *SyntaxError when one of the first n prefixes of
// path is an inline table defined earlier: a dotted key or a header that
// adds to it.
func extendsInline(src []byte, base int, inline map[string]int, path []string, n, off int) error {
	var key []byte
	for i := 1; i <= n && i <= len(path); i++ {
		key = appendPart(key, path, i-1)
		if at, ok := inline[string(key)]; ok {
			line := 1 + strings.Count(string(src[base:at]), "\n")
			return &SyntaxError{offset: off - base, Msg: fmt.Sprintf(
				"%s adds to the inline table %s of line %d, which TOML does not allow (Codex refuses the file); put the key inside its braces",
				strings.Join(path, "."), strings.Join(path[:i], "."), line)}
		}
	}
	return nil
}

// redefinesDotted returns a *SyntaxError when kv sets a key that an earlier
// dotted key of the same table (or inline table) made a table: a.b = 1,
// then a = 2. Else it notes the tables kv's own dotted key makes, and
// checks the members of an inline-table value among themselves.
func redefinesDotted(src []byte, base int, dotted map[string]int, kv *keyval) error {
	if at, ok := dotted[joinPath(kv.key)]; ok {
		line := 1 + strings.Count(string(src[base:at]), "\n")
		return &SyntaxError{offset: kv.pos - base, Msg: fmt.Sprintf(
			"%s is set here, but the dotted key on line %d already made it a table, which TOML does not allow (Codex refuses the file); keep one of the two",
			strings.Join(kv.key, "."), line)}
	}
	var key []byte
	for i := 1; i < len(kv.key); i++ {
		key = appendPart(key, kv.key, i-1)
		if _, ok := dotted[string(key)]; !ok {
			dotted[string(key)] = kv.pos
		}
	}
	if len(kv.members) == 0 {
		return nil
	}
	inner := map[string]int{}
	for _, m := range kv.members {
		if err := redefinesDotted(src, base, inner, m); err != nil {
			return err
		}
	}
	return nil
}

// newKeyval reads a KeyValue node; for an inline-table value it reads the
// members too.
func newKeyval(src []byte, base int, e *unstable.Node, table []string, inline bool) (*keyval, error) {
	parts, first, last := keyOf(e.Key(), base)
	if first < 0 {
		return nil, &LayoutError{Msg: "toml layout: key/value without a key"}
	}
	kv := &keyval{key: parts, path: concat(table, parts), pos: first, inline: inline, table: -1}
	kv.keyRaw = splitKey(string(src[first:last]), len(parts))
	kv.vstart = valueStart(src, last)
	kv.vend = int(e.Raw.Offset+e.Raw.Length) + base
	if kv.vstart < 0 || kv.vstart > kv.vend {
		return nil, &LayoutError{Offset: first, Msg: "toml layout: cannot find the value of " + strings.Join(parts, ".")}
	}
	if inline {
		kv.start, kv.end = int(e.Raw.Offset)+base, kv.vend
	}
	if v := e.Value(); v.Kind == unstable.InlineTable {
		kv.open, kv.closeOff = kv.vstart, kv.vend-1
		if src[kv.open] != '{' || src[kv.closeOff] != '}' {
			return nil, &LayoutError{Offset: first, Msg: "toml layout: inline table of " + strings.Join(parts, ".") + " is not delimited"}
		}
		it := v.Children()
		for it.Next() {
			c := it.Node()
			if c.Kind != unstable.KeyValue {
				continue
			}
			m, err := newKeyval(src, base, c, kv.path, true)
			if err != nil {
				return nil, err
			}
			kv.members = append(kv.members, m)
		}
	}
	return kv, nil
}

// keyOf returns the unquoted parts of a key and the offsets of the first
// part's start and the last part's end.
func keyOf(it unstable.Iterator, base int) (parts []string, first, last int) {
	first, last = -1, -1
	for it.Next() {
		n := it.Node()
		parts = append(parts, string(n.Data))
		if first < 0 {
			first = int(n.Raw.Offset) + base
		}
		last = int(n.Raw.Offset+n.Raw.Length) + base
	}
	return parts, first, last
}

func (lay *layout) define(path []string, off int) {
	key := lay.key[:0]
	for i := 1; i <= len(path); i++ {
		key = appendPart(key, path, i-1)
		if _, seen := lay.pos[string(key)]; !seen {
			k := string(key)
			lay.pos[k] = off
			lay.implied[k] = i < len(path)
		} else if i == len(path) && lay.implied[string(key)] {
			k := string(key)
			lay.pos[k] = off
			delete(lay.implied, k)
		}
	}
	lay.key = key
}

func (lay *layout) defineKeyval(kv *keyval, table []string) {
	lay.define(table, kv.pos)
	// Each dotted part sits at its own offset; the first one is enough to
	// point a user at the line.
	lay.define(kv.path, kv.pos)
	for _, m := range kv.members {
		lay.defineKeyval(m, kv.path)
	}
}

// finish works out where each header's body ends.
func (lay *layout) finish(src []byte) {
	// The end of each table's last key/value, in one pass over the keys
	// (a pass per header made a file of n tables cost n²).
	lastKV := make([]int, len(lay.headers))
	for _, kv := range lay.kvs {
		if kv.table >= 0 && kv.table < len(lastKV) && kv.end > lastKV[kv.table] {
			lastKV[kv.table] = kv.end
		}
	}
	for i, h := range lay.headers {
		h.next = len(src)
		if i+1 < len(lay.headers) {
			h.next = lay.headers[i+1].start
		}
		last := max(h.lineEnd, lastKV[i])
		h.bodyEnd = last
		// Comments right after the last key/value belong to this table
		// unless they run into the next header.
		off, end := last, last
		for off < h.next {
			le := lineEnd(src, off)
			line := strings.TrimSpace(string(src[off:le]))
			if line == "" {
				h.bodyEnd = end
				break
			}
			if !strings.HasPrefix(line, "#") {
				break
			}
			end, off = le, le
			if off >= len(src) {
				h.bodyEnd = end
			}
		}
	}
}

// splitKey splits a key's spelling into n parts at the dots outside quotes.
// It falls back to quoting each part when the count does not match.
func splitKey(raw string, n int) []string {
	var parts []string
	start, quote := 0, byte(0)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case quote == '"' && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '.':
			parts = append(parts, strings.TrimSpace(raw[start:i]))
			start = i + 1
		}
	}
	parts = append(parts, strings.TrimSpace(raw[start:]))
	if len(parts) != n {
		return nil
	}
	return parts
}

// lineStart returns the offset of the start of the line holding off.
func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// lineEnd returns the offset after the newline ending the line holding off
// (the end of the file when there is none).
func lineEnd(src []byte, off int) int {
	for off < len(src) {
		if src[off] == '\n' {
			return off + 1
		}
		off++
	}
	return len(src)
}

// skipSpace returns the first offset at or after off that is not a space or tab.
func skipSpace(src []byte, off int) int {
	for off < len(src) && (src[off] == ' ' || src[off] == '\t') {
		off++
	}
	return off
}

// valueStart finds the value after a key that ends at off: past blanks,
// the '=' and blanks again. It returns -1 when the bytes are not shaped so.
func valueStart(src []byte, off int) int {
	off = skipSpace(src, off)
	if off >= len(src) || src[off] != '=' {
		return -1
	}
	return skipSpace(src, off+1)
}

func concat(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}

func hasPrefix(path, prefix []string) bool {
	return len(path) >= len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}
