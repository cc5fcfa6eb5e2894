package tomledit

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// A Doc is a parsed TOML file.
type Doc struct {
	src  []byte
	base int    // length of the byte-order mark, 0 or 3
	nl   string // the file's line ending: "\n" or "\r\n"
	// Root is the whole file decoded into generic values: map[string]any,
	// []any (arrays of tables too), string, int64, float64, bool, time.Time.
	Root map[string]any

	lay    *layout // nil when the file could not be laid out for editing
	layErr error
	lines  []int // offsets of line starts, built on demand
}

// A SyntaxError is a file that is not valid TOML.
type SyntaxError struct {
	Line, Column int // 1-based; 0 when unknown
	Msg          string
	offset       int // byte offset after a byte-order mark, -1 when unknown
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg)
	}
	return e.Msg
}

var bom = []byte("\xef\xbb\xbf")

// Parse decodes data. A file that is not valid TOML gives a *SyntaxError.
// Empty data is an empty document.
func Parse(data []byte) (*Doc, error) {
	d := &Doc{src: data, nl: "\n", Root: map[string]any{}}
	if bytes.HasPrefix(data, bom) {
		d.base = len(bom)
	}
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		d.nl = "\r\n"
	}
	if root, ok := verified.Take(data); ok && root != nil {
		d.Root = root // the bytes an edit just wrote and verify decoded
	} else if err := decode(data, &d.Root); err != nil {
		var se *SyntaxError
		if errors.As(err, &se) && se.offset >= 0 {
			// BurntSushi counts the line after a newline it has read;
			// the byte offset is exact, so place the error from it.
			se.Line, se.Column = d.LineCol(se.offset + d.base)
		}
		return nil, err
	}
	d.lay, d.layErr = scan(data, d.base)
	var se *SyntaxError
	if errors.As(d.layErr, &se) {
		// What BurntSushi/toml lets through but TOML (and Codex) refuse.
		se.Line, se.Column = d.LineCol(se.offset + d.base)
		return nil, se
	}
	return d, nil
}

// decode runs BurntSushi/toml, turning its errors (and, defensively, its
// panics) into a *SyntaxError.
func decode(data []byte, into *map[string]any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &SyntaxError{Msg: fmt.Sprintf("toml: %v", r), offset: -1}
		}
	}()
	_, err = toml.NewDecoder(bytes.NewReader(data)).Decode(into)
	if err == nil {
		return nil
	}
	var pe toml.ParseError
	if errors.As(err, &pe) {
		return &SyntaxError{Line: pe.Position.Line, Column: max(pe.Position.Col, 1), Msg: pe.Message, offset: pe.Position.Start}
	}
	return &SyntaxError{Msg: strings.TrimPrefix(err.Error(), "toml: "), offset: -1}
}

// Bytes returns the file as parsed.
func (d *Doc) Bytes() []byte { return d.src }

// Newline returns the line ending the file uses.
func (d *Doc) Newline() string { return d.nl }

// Editable reports whether the file could be laid out for editing, and why not.
func (d *Doc) Editable() error {
	if d.lay == nil {
		return d.layErr
	}
	return nil
}

// Pos returns the 1-based line and column of the key or table header that
// first defines path, or zeros when it is not known.
func (d *Doc) Pos(path ...string) (line, col int) {
	if d.lay == nil {
		return 0, 0
	}
	off, ok := d.lay.pos[joinPath(path)]
	if !ok {
		return 0, 0
	}
	return d.LineCol(off)
}

// LineCol turns a byte offset into a 1-based line and column (in bytes,
// not counting a byte-order mark).
func (d *Doc) LineCol(off int) (line, col int) {
	if d.lines == nil {
		d.lines = []int{0}
		for i, c := range d.src {
			if c == '\n' {
				d.lines = append(d.lines, i+1)
			}
		}
	}
	i := sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > off }) - 1
	start := d.lines[i]
	if i == 0 {
		start = min(d.base, max(off, 0))
	}
	return i + 1, off - start + 1
}

// Names returns the keys of the table at section in the order the file
// defines them. A section that is missing or not a table has no names.
func (d *Doc) Names(section string) []string { return d.Keys(section) }

// Keys returns the keys of the table at path (a section entry, for example)
// in the order the file defines them.
func (d *Doc) Keys(path ...string) []string {
	var cur any = d.Root
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	m, _ := cur.(map[string]any)
	// Each key's offset is looked up once, not in every comparison: a
	// section of 10,000 servers made the sort build 300,000 paths.
	type placed struct {
		key string
		off int
	}
	byPos := make([]placed, 0, len(m))
	prefix := joinPath(path)
	if len(path) > 0 {
		prefix += pathSep
	}
	for k := range m {
		off := len(d.src)
		if d.lay == nil {
			off = 0
		} else if o, ok := d.lay.pos[prefix+k]; ok {
			off = o
		}
		byPos = append(byPos, placed{k, off})
	}
	slices.SortFunc(byPos, func(a, b placed) int {
		if a.off != b.off {
			return a.off - b.off
		}
		return strings.Compare(a.key, b.key)
	})
	keys := make([]string, len(byPos))
	for i, p := range byPos {
		keys[i] = p.key
	}
	return keys
}

// A Span is a byte range [Start, End) of the file.
type Span struct{ Start, End int }

// Spans returns the byte ranges that define section.name: its tables with
// their bodies, its key/value lines, or its member of an inline section.
// They are sorted and do not overlap. A file that could not be laid out has
// none.
func (d *Doc) Spans(section, name string) []Span {
	if d.lay == nil {
		return nil
	}
	path := []string{section, name}
	var out []Span
	for _, h := range d.lay.headers {
		if hasPrefix(h.path, path) {
			out = append(out, Span{h.start, h.bodyEnd})
		}
	}
	for _, kv := range d.lay.kvs {
		switch {
		case kv.table >= 0 && hasPrefix(d.lay.headers[kv.table].path, path):
			// inside one of the tables above
		case hasPrefix(kv.path, path):
			out = append(out, Span{kv.start, kv.end})
		case slices.Equal(kv.path, path[:1]):
			for _, m := range kv.members {
				if m.key[0] == name {
					out = append(out, Span{m.start, m.end})
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b Span) int { return a.Start - b.Start })
	return out
}
