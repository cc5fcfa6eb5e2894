package paste

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/mcpsync/mcpsync/canonical"
)

// A node is one value of the pasted document, JSON or TOML alike, with the
// place it was read from. Both parsers produce nodes so that one reader
// understands every client's spelling whatever the syntax was.
type node struct {
	kind    kind
	pos     canonical.Pos
	text    string // a string's value, a number's or date's literal text
	boolean bool
	members []member // objects, in document order
	elems   []*node  // arrays
}

// A member is one key of an object.
type member struct {
	key    string
	keyPos canonical.Pos
	val    *node
}

type kind uint8

const (
	kObject kind = iota + 1
	kArray
	kString
	kNumber
	kBool
	kNull
	kDate // TOML dates and times, kept as their text
)

// get returns the value of the first member named key, or nil.
func (n *node) get(key string) *node {
	if n == nil || n.kind != kObject {
		return nil
	}
	for i := range n.members {
		if n.members[i].key == key {
			return n.members[i].val
		}
	}
	return nil
}

// has reports whether an object has a member named key.
func (n *node) has(key string) bool { return n.get(key) != nil }

// describe names the kind of a value for messages: "a string", "an object".
func (n *node) describe() string {
	switch n.kind {
	case kObject:
		return "an object"
	case kArray:
		return "an array"
	case kString:
		return "a string"
	case kNumber:
		return "a number"
	case kBool:
		return "a boolean"
	case kNull:
		return "null"
	case kDate:
		return "a date"
	}
	return "a value"
}

// json renders the node as compact JSON, for Server.Extra.
func (n *node) json() json.RawMessage {
	var b bytes.Buffer
	n.writeJSON(&b)
	return b.Bytes()
}

func (n *node) writeJSON(b *bytes.Buffer) {
	switch n.kind {
	case kObject:
		b.WriteByte('{')
		for i, m := range n.members {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSONString(b, m.key)
			b.WriteByte(':')
			m.val.writeJSON(b)
		}
		b.WriteByte('}')
	case kArray:
		b.WriteByte('[')
		for i, e := range n.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			e.writeJSON(b)
		}
		b.WriteByte(']')
	case kString, kDate:
		writeJSONString(b, n.text)
	case kNumber:
		if json.Valid([]byte(n.text)) {
			b.WriteString(n.text)
		} else { // TOML inf and nan have no JSON spelling
			writeJSONString(b, n.text)
		}
	case kBool:
		b.WriteString(strconv.FormatBool(n.boolean))
	default:
		b.WriteString("null")
	}
}

func writeJSONString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)           //nolint:errcheck // a string always encodes
	b.Truncate(b.Len() - 1) // Encode adds a newline
}

// lineIndex turns byte offsets into file:line:col. When the input was
// wrapped in braces to read a fragment, shift undoes the one byte added in
// front of the first line.
type lineIndex struct {
	file   string
	starts []int // offset of the first byte of each line
	shift  int   // bytes prepended to the first line
	lines  int   // lines of the user's input (positions past it are clamped)
}

func newLineIndex(file string, data []byte, shift int) *lineIndex {
	li := &lineIndex{file: file, starts: []int{0}, shift: shift}
	for i, c := range data {
		if c == '\n' {
			li.starts = append(li.starts, i+1)
		}
	}
	li.lines = len(li.starts)
	return li
}

// pos returns the position of byte offset off.
func (li *lineIndex) pos(off int) canonical.Pos {
	line := sort.Search(len(li.starts), func(i int) bool { return li.starts[i] > off }) // 1-based line
	if line < 1 {
		line = 1
	}
	col := off - li.starts[line-1] + 1
	return li.at(line, col)
}

// at clamps a line and column computed on the (possibly wrapped) input to
// the user's own text.
func (li *lineIndex) at(line, col int) canonical.Pos {
	if line == 1 {
		col -= li.shift
	}
	if line > li.lines {
		line = li.lines
	}
	if line < 1 {
		line = 1
	}
	if col < 1 {
		col = 1
	}
	return canonical.Pos{File: li.file, Line: line, Column: col}
}
