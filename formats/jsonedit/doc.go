// Package jsonedit reads and edits JSON and JSONC (JSON with comments and
// trailing commas) without touching a byte outside the edit.
//
// It parses with tailscale/hujson, which keeps every byte of the input in
// its syntax tree, but it never re-packs or re-formats the tree: each edit
// is a splice of the original bytes (replace a value in place, insert a
// member after the last one, cut a member and its comma). Comments, key
// order, indentation, CRLF line endings, a byte-order mark, trailing commas
// and the presence or absence of a final newline all stay as the user wrote
// them. New values are rendered in the file's own style: its indent unit
// (two or four spaces, or tabs), its line ending, and inline or one-per-line
// layout as the surrounding object uses.
//
// Paths are lists of member names, never JSON-pointer strings, so names
// holding "/", "~" or "." need no escaping. When an object has duplicate
// members, the last one counts, as in JavaScript's JSON.parse.
package jsonedit

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/tailscale/hujson"

	"github.com/mcpsync/mcpsync/formats/internal/handoff"
)

var bom = []byte("\xef\xbb\xbf")

// Style is how a file is laid out; new values are rendered to match it.
type Style struct {
	// Indent is one level of indentation: "  ", "    " or "\t".
	Indent string
	// Newline is "\n" or "\r\n".
	Newline string
	// FinalNewline says whether the text ends with a newline.
	FinalNewline bool
	// BOM says whether the text starts with a UTF-8 byte-order mark.
	BOM bool
}

// DefaultStyle is used for an empty document: two spaces, "\n", a final newline.
var DefaultStyle = Style{Indent: "  ", Newline: "\n", FinalNewline: true}

// A SyntaxError says where a text stops being valid JSONC.
type SyntaxError struct {
	Line, Column int // 1-based; the column counts bytes
	Msg          string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Doc is a parsed JSONC text with pending edits. Nodes obtained from a Doc
// describe the text as it was parsed; they must not be used after Bytes,
// which applies the edits and parses the result again.
type Doc struct {
	src   []byte       // the whole text, BOM included
	off   int          // len(BOM) when there is one
	root  hujson.Value // parsed from src[off:]; offsets are relative to src[off:]
	empty bool         // the text holds no value, only whitespace and comments
	lines []int        // start offsets of lines in src, built on demand
	line  int          // the index in lines Pos found last: decoders ask in file order
	style Style
	colon string // ": " or ":", as the text separates names and values
	edits []splice
	// stale: edits were applied to src and the tree is parsed again only
	// when something needs it (Bytes alone does not).
	stale bool
}

// Parse parses data as JSONC. Empty data, or data holding only whitespace
// and comments, is an empty document to which Set can add a top-level
// object. A syntax error is a *SyntaxError.
func Parse(data []byte) (*Doc, error) {
	d := &Doc{}
	if err := d.reset(data); err != nil {
		return nil, err
	}
	return d, nil
}

func (d *Doc) reset(data []byte) error {
	d.src, d.off, d.lines, d.line, d.edits, d.empty, d.stale = data, 0, nil, 0, nil, false, false
	if bytes.HasPrefix(data, bom) {
		d.off = len(bom)
	}
	body := data[d.off:]
	if onlyExtra(body) {
		d.empty = true
		d.root = hujson.Value{}
		d.style = detectStyle(data, d.off, nil)
		d.colon = ": "
		return nil
	}
	v, ok := parsed.Take(body)
	if !ok {
		var err error
		if v, err = parseTree(body); err != nil {
			return syntaxError(err)
		}
	}
	d.root = v
	d.style = detectStyle(data, d.off, &d.root)
	d.colon = ": "
	if o, ok := v.Value.(*hujson.Object); ok && len(o.Members) > 0 && len(o.Members[0].Value.BeforeExtra) == 0 {
		d.colon = ":"
	}
	return nil
}

// onlyExtra reports whether b holds nothing but whitespace and well-formed comments.
func onlyExtra(b []byte) bool {
	// hujson checks the UTF-8 of comments only around a value: a comment
	// that is not UTF-8 is refused here too, so that adding a value to
	// the document cannot make it unreadable.
	if !utf8.Valid(b) {
		return false
	}
	for i := 0; i < len(b); {
		switch {
		case b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n':
			i++
		case bytes.HasPrefix(b[i:], []byte("//")):
			j := bytes.IndexByte(b[i:], '\n')
			if j < 0 {
				return true
			}
			i += j + 1
		case bytes.HasPrefix(b[i:], []byte("/*")):
			j := bytes.Index(b[i+2:], []byte("*/"))
			if j < 0 {
				return false
			}
			i += j + 4
		default:
			return false
		}
	}
	return hujson.Extra(b).IsValid()
}

// syntaxError turns hujson's "hujson: line N, column M: msg" into a *SyntaxError.
func syntaxError(err error) error {
	var line, col int
	msg := err.Error()
	rest := strings.TrimPrefix(msg, "hujson: ")
	if _, scanErr := fmt.Sscanf(rest, "line %d, column %d:", &line, &col); scanErr == nil {
		if i := strings.Index(rest, ": "); i >= 0 {
			rest = rest[i+2:]
		}
		return &SyntaxError{Line: line, Column: col, Msg: rest}
	}
	return &SyntaxError{Line: 1, Column: 1, Msg: rest}
}

// parsed holds trees handed over by HandOver for the next parse of the
// same text.
var parsed = handoff.New[hujson.Value](2)

// HandOver offers the tree of the text as it is now, when the Doc holds one
// (it was parsed after its last edit), to the next Parse of the same bytes:
// an encoder whose hooks read the result (VS Code's inputs) has parsed the
// text the plan then reads back. A tree is never changed once parsed (an
// edit splices the text and parses it again), so two Docs may share one.
func (d *Doc) HandOver() {
	if d.stale || len(d.edits) > 0 || d.empty {
		return
	}
	parsed.Offer(d.src[d.off:], d.root)
}

// Style returns the layout detected in the text (DefaultStyle for an empty one).
func (d *Doc) Style() Style { return d.style }

// SetNewFileStyle chooses the layout of an empty document: the indent and
// whether the text ends with a newline. It has no effect on a document that
// already holds a value.
func (d *Doc) SetNewFileStyle(indent string, finalNewline bool) {
	if d.empty {
		d.style.Indent = indent
		d.style.FinalNewline = finalNewline
	}
}

// IsEmpty reports whether the text holds no value.
func (d *Doc) IsEmpty() bool {
	d.ensure()
	return d.empty
}

// ensure parses the text again after edits were applied.
func (d *Doc) ensure() error {
	if !d.stale {
		return nil
	}
	style, colon := d.style, d.colon
	if err := d.reset(d.src); err != nil {
		return fmt.Errorf("jsonedit: an edit produced invalid JSON (%v); this is a bug", err)
	}
	// Keep the layout read from the original text (or chosen for a new one).
	d.style, d.colon = style, colon
	return nil
}

// Root returns the top-level value; it is not Valid in an empty document.
func (d *Doc) Root() Node {
	if d.ensure() != nil || d.empty {
		return Node{}
	}
	return Node{d: d, v: &d.root}
}

// Find returns the value at path, a list of member names from the top-level
// object. It is not Valid when a step is missing or not an object.
func (d *Doc) Find(path ...string) Node {
	n := d.Root()
	for _, name := range path {
		if n.Kind() != KindObject {
			return Node{}
		}
		n = n.Get(name)
	}
	return n
}

// Pos converts a byte offset of the text into a 1-based line and byte
// column. The byte-order mark is not counted.
func (d *Doc) Pos(offset int) (line, col int) {
	if d.lines == nil {
		// Sized once: Cursor's file of 10,000 servers has 67,000 lines.
		d.lines = make([]int, 1, 1+bytes.Count(d.src[d.off:], []byte{'\n'}))
		d.lines[0] = d.off
		for i := d.off; ; {
			j := bytes.IndexByte(d.src[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			d.lines = append(d.lines, i)
		}
	}
	offset = max(d.off, min(offset, len(d.src)))
	// A decoder asks for the place of each server in file order, a few
	// lines after the last: a step or two from there, rather than a
	// search of the 67,000 lines of a 10,000-server file each time.
	i := d.line
	for steps := 0; steps < 16 && i+1 < len(d.lines) && d.lines[i+1] <= offset; steps++ {
		i++
	}
	if i >= len(d.lines) || d.lines[i] > offset || i+1 < len(d.lines) && d.lines[i+1] <= offset {
		// behind the last answer, or far ahead of it
		i = sort.Search(len(d.lines), func(i int) bool { return d.lines[i] > offset }) - 1
	}
	d.line = i
	return i + 1, offset - d.lines[i] + 1
}

// Extension reports the first comment and the first trailing comma in the
// text, as byte offsets (-1 when there is none), so that a caller can
// refuse them in a strict-JSON file. It scans the bytes of the (valid) text
// without walking the tree.
func (d *Doc) Extension() (comment, trailingComma int) {
	d.ensure()
	comment, trailingComma = -1, -1
	b := d.src
	pendingComma := -1 // a comma not yet followed by a value
	for i := d.off; i < len(b) && (comment < 0 || trailingComma < 0); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			pendingComma = -1
		case '/':
			if comment < 0 {
				comment = i
			}
			if i+1 < len(b) && b[i+1] == '/' {
				for i < len(b) && b[i] != '\n' {
					i++
				}
			} else if j := bytes.Index(b[i+2:], []byte("*/")); j >= 0 {
				i += j + 3
			}
		case ',':
			pendingComma = i
		case '}', ']':
			if pendingComma >= 0 && trailingComma < 0 {
				trailingComma = pendingComma
			}
			pendingComma = -1
		case ' ', '\t', '\r', '\n':
		default:
			pendingComma = -1
		}
	}
	return comment, trailingComma
}

// detectStyle reads the indent unit, line ending, final newline and BOM of a text.
func detectStyle(src []byte, off int, root *hujson.Value) Style {
	s := DefaultStyle
	s.BOM = off > 0
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		s.Newline = "\r\n"
	}
	body := bytes.TrimRight(src[off:], " \t")
	s.FinalNewline = len(bytes.TrimSpace(body)) == 0 || bytes.HasSuffix(body, []byte("\n"))
	if root != nil {
		if unit := indentUnit(src[off:], root); unit != "" {
			s.Indent = unit
		}
	}
	return s
}

// indentUnit finds the indentation of the first member (or element) that
// starts its own line, one level below the top. Deeper levels are tried when
// the top level is written on one line.
func indentUnit(body []byte, root *hujson.Value) string {
	type level struct {
		v     *hujson.Value
		depth int
	}
	queue := []level{{root, 0}}
	for len(queue) > 0 && len(queue) < 10000 {
		cur := queue[0]
		queue = queue[1:]
		var children []*hujson.Value
		switch c := cur.v.Value.(type) {
		case *hujson.Object:
			for i := range c.Members {
				children = append(children, &c.Members[i].Name)
			}
		case *hujson.Array:
			for i := range c.Elements {
				children = append(children, &c.Elements[i])
			}
		}
		for _, ch := range children {
			ws := leadingIndent(body, ch.StartOffset)
			if ws == "" {
				continue
			}
			if strings.HasPrefix(ws, "\t") {
				return "\t"
			}
			n := len(ws) / (cur.depth + 1)
			if n > 0 && n <= 8 && len(ws)%(cur.depth+1) == 0 {
				return strings.Repeat(" ", n)
			}
		}
		for _, ch := range children {
			if ch.Value.Kind() == '"' {
				// member names: descend into their values instead
				continue
			}
			queue = append(queue, level{ch, cur.depth + 1})
		}
		if o, ok := cur.v.Value.(*hujson.Object); ok {
			for i := range o.Members {
				queue = append(queue, level{&o.Members[i].Value, cur.depth + 1})
			}
		}
	}
	return ""
}

// leadingIndent returns the whitespace between the start of the line and
// offset when offset is the first non-blank byte of its line, else "".
func leadingIndent(b []byte, offset int) string {
	i := offset
	for i > 0 && (b[i-1] == ' ' || b[i-1] == '\t') {
		i--
	}
	if i > 0 && b[i-1] != '\n' {
		return ""
	}
	if i == 0 {
		return ""
	}
	return string(b[i:offset])
}

// ErrNotObject is returned when a path runs through a value that is not an object.
var ErrNotObject = errors.New("not an object")
