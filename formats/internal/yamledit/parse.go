package yamledit

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/mcpsync/mcpsync/internal/lazyre"
)

// A Doc is a parsed YAML file.
type Doc struct {
	src  []byte
	base int    // length of a UTF-8 byte-order mark, 0 or 3
	nl   string // "\n" or "\r\n"
	// Root is the document's top node: a mapping for every client file; nil
	// for an empty file.
	Root *yaml.Node
	// Value is the whole document decoded: map[string]any, []any, string,
	// int64, float64, bool, nil, time.Time.
	Value any

	lines []int // offsets of line starts, breaking lines as YAML does
	// shown is, for each of those lines, where it starts as mcpsync
	// reports positions (see Pos); nil when every line break is a \n.
	shown    []shownLine
	multiDoc bool // the file holds more than one document; edits refused

	indent     int  // indentation unit seen in the file (0: none seen)
	compactSeq int  // 1: sequences under a key sit at the key's column; -1: indented; 0: none seen
	defIndent  int  // used when the file shows none
	defCompact bool // used when the file shows none
}

// A SyntaxError is a file that is not valid YAML. yaml.v3 reports the line
// only; Column is the first non-blank character of that line.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg)
	}
	return e.Msg
}

var lineRE = lazyre.New(`^yaml: line (\d+): (.*)$`)

// Parse decodes data. Empty data is an empty document.
func Parse(data []byte) (d *Doc, err error) {
	if d, ok := verified.Take(data); ok {
		return d, nil // the bytes an edit just wrote, which verify parsed
	}
	d = &Doc{src: data, nl: "\n", defIndent: 2}
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		d.base = 3
	}
	if i := bytes.IndexByte(data, '\n'); i > 0 && data[i-1] == '\r' {
		d.nl = "\r\n"
	}
	d.indexLines()
	defer func() {
		if r := recover(); r != nil {
			d, err = nil, &SyntaxError{Line: 1, Column: 1, Msg: fmt.Sprintf("yaml: %v", r)}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, d.syntaxError(err)
	}
	var more yaml.Node
	if err := dec.Decode(&more); err == nil {
		d.multiDoc = true
	} else if !errors.Is(err, io.EOF) {
		return nil, d.syntaxError(err)
	}
	if len(doc.Content) > 0 {
		d.Root = doc.Content[0]
		var v any
		if err := d.Root.Decode(&v); err != nil {
			return nil, d.syntaxError(err)
		}
		d.Value = Normalize(v)
	}
	d.detectStyle(d.Root)
	return d, nil
}

func (d *Doc) syntaxError(err error) error {
	line, msg := splitError(err)
	if l := d.errorLine(msg); l > 0 {
		line = l
	}
	col := 1
	if line-1 < len(d.lines) {
		col = d.indentOf(line-1) + 1
	}
	line, col = d.Pos(line, col)
	return &SyntaxError{Line: line, Column: col, Msg: msg}
}

// splitError reads yaml.v3's "yaml: line N: msg" (no line: the first).
func splitError(err error) (int, string) {
	msg := err.Error()
	if m := lineRE.Get().FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return line, m[2]
	}
	return 1, strings.TrimPrefix(msg, "yaml: ")
}

// errorLine finds the line at fault more precisely than yaml.v3, which
// reports where the enclosing block began: the first line whose prefix of
// the file fails with the same message. Prefixes that fail only because
// they cut a flow collection short fail differently and are passed over.
func (d *Doc) errorLine(msg string) int {
	if len(d.lines) > 5000 {
		return 0
	}
	for i := range d.lines {
		if parseErr(d.src[:d.lineEnd(i)]) == msg {
			return i + 1
		}
	}
	return 0
}

// parseErr returns the message of the first error parsing data, or "".
func parseErr(data []byte) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if errors.Is(err, io.EOF) {
			return ""
		}
		if err != nil {
			_, msg := splitError(err)
			return msg
		}
	}
}

// indexLines records where lines start, with YAML's line breaks: \r\n, \r,
// \n, and U+0085, U+2028, U+2029, which yaml.v3 counts too.
func (d *Doc) indexLines() {
	d.lines = []int{d.base}
	src := d.src
	line, start := 1, d.base // the line as shown, and where it starts
	brk := func(at int, newline bool) {
		d.lines = append(d.lines, at)
		if newline {
			line, start = line+1, at
		} else if d.shown == nil {
			// The first break that is not a \n: from here on YAML's lines
			// and the lines shown differ.
			d.shown = make([]shownLine, len(d.lines)-1, len(d.lines)+8)
			for i := range d.shown {
				d.shown[i] = shownLine{line: i + 1}
			}
		}
		if d.shown != nil {
			d.shown = append(d.shown, shownLine{line: line, col: utf8.RuneCount(src[start:at])})
		}
	}
	for i := d.base; i < len(src); {
		c := src[i]
		switch {
		case c == '\r':
			crlf := i+1 < len(src) && src[i+1] == '\n'
			if crlf {
				i++
			}
			brk(i+1, crlf)
		case c == '\n':
			brk(i+1, true)
		case c >= 0x80:
			r, n := utf8.DecodeRune(src[i:])
			if r == 0x85 || r == 0x2028 || r == 0x2029 {
				brk(i+n, false)
			}
			i += n
			continue
		}
		i++
	}
}

// lineShown returns the line of n as Pos shows it.
func (d *Doc) lineShown(n *yaml.Node) int {
	line, _ := d.Pos(n.Line, n.Column)
	return line
}

// shownLine is where a YAML line starts as a position is shown: the line
// (lines end at \n) and the characters before it on that line.
type shownLine struct{ line, col int }

// Pos turns a line and column as yaml.v3 counts them (and as Doc indexes
// lines) into the position mcpsync reports in every format, the one an
// editor shows: yaml.v3 also ends a line at a lone \r and at U+0085,
// U+2028 and U+2029, where the line goes on for everyone else, so that
// its line numbers run past the end of such a file. Columns count
// characters from the start of the line, from 1.
func (d *Doc) Pos(line, col int) (int, int) {
	if d == nil || d.shown == nil || line < 1 || line > len(d.shown) {
		return line, col
	}
	s := d.shown[line-1]
	return s.line, s.col + col
}

// Bytes returns the file as parsed.
func (d *Doc) Bytes() []byte { return d.src }

// Editable says why edits are refused, or nil.
func (d *Doc) Editable() error {
	if d.multiDoc {
		return errors.New("the file holds more than one YAML document")
	}
	return nil
}

// SetStyleDefaults sets the indentation and sequence style for new text
// when the file shows none (an empty file, say).
func (d *Doc) SetStyleDefaults(indent int, compactSeq bool) {
	d.defIndent, d.defCompact = indent, compactSeq
}

// offset turns a node's 1-based line and column (in characters) into a
// byte offset.
func (d *Doc) offset(line, col int) int {
	if line < 1 || line > len(d.lines) {
		return len(d.src)
	}
	off := d.lines[line-1]
	for i := 1; i < col && off < len(d.src); i++ {
		_, n := utf8.DecodeRune(d.src[off:])
		off += n
	}
	return off
}

func (d *Doc) nodeOffset(n *yaml.Node) int { return d.offset(n.Line, n.Column) }

// lineOf returns the 0-based line holding offset off.
func (d *Doc) lineOf(off int) int {
	lo, hi := 0, len(d.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if d.lines[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// lineEnd returns the offset after the break ending 0-based line i.
func (d *Doc) lineEnd(i int) int {
	if i+1 < len(d.lines) {
		return d.lines[i+1]
	}
	return len(d.src)
}

// lineText returns line i without its break.
func (d *Doc) lineText(i int) string {
	return strings.TrimRight(string(d.src[d.lines[i]:d.lineEnd(i)]), "\r\n\u0085\u2028\u2029")
}

func (d *Doc) indentOf(i int) int {
	s := d.lineText(i)
	return len(s) - len(strings.TrimLeft(s, " "))
}

func (d *Doc) blank(i int) bool { return strings.TrimSpace(d.lineText(i)) == "" }

func (d *Doc) comment(i int) bool { return strings.HasPrefix(strings.TrimSpace(d.lineText(i)), "#") }

// Lookup returns the value node of a top-level key, and the key node.
func (d *Doc) Lookup(key string) (k, v *yaml.Node) {
	if d.Root == nil || d.Root.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(d.Root.Content); i += 2 {
		if d.Root.Content[i].Value == key {
			return d.Root.Content[i], d.Root.Content[i+1]
		}
	}
	return nil, nil
}

// MapKeys returns the keys of a mapping node in file order.
func MapKeys(n *yaml.Node) []string {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	var out []string
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, KeyName(n.Content[i]))
	}
	return out
}

// PlainKey reports whether a mapping key is a name: a scalar that the
// decoded value spells as its text. ~, null, 1.0, 0x10 and collections are
// not: what is found by node and what is compared by value would disagree.
func PlainKey(k *yaml.Node) bool { return k.Kind == yaml.ScalarNode && KeyName(k) == k.Value }

// KeyName is the name a mapping key has in the decoded value (Doc.Value,
// Decode): its text for a string, the value's spelling for anything else
// ("~" and "null" are "<nil>", "1.0" is "1"), so that what is found by node
// and what is compared by value agree.
func KeyName(k *yaml.Node) string {
	if k.Kind == yaml.ScalarNode && (k.Tag == "!!str" || k.Tag == "" || k.Tag == "!") {
		return k.Value
	}
	var v any
	if err := k.Decode(&v); err != nil {
		return k.Value
	}
	return fmt.Sprint(v)
}

// MapValue returns the value node of key in a mapping node.
func MapValue(n *yaml.Node, key string) (k, v *yaml.Node) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if KeyName(n.Content[i]) == key {
			return n.Content[i], n.Content[i+1]
		}
	}
	return nil, nil
}

// Decode returns a node's generic value.
func Decode(n *yaml.Node) (any, error) {
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	return Normalize(v), nil
}

// detectStyle finds the indentation unit and the sequence style the file
// uses, from the first nested block collections.
func (d *Doc) detectStyle(n *yaml.Node) {
	if n == nil || n.Style&yaml.FlowStyle != 0 {
		return
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0 && v.Line > k.Line {
				switch v.Kind {
				case yaml.MappingNode:
					if d.indent == 0 && v.Content[0].Column > k.Column {
						d.indent = v.Content[0].Column - k.Column
					}
				case yaml.SequenceNode:
					if d.compactSeq == 0 {
						if d.dashColumn(v.Content[0]) == k.Column {
							d.compactSeq = 1
						} else {
							d.compactSeq = -1
						}
					}
				}
			}
			d.detectStyle(v)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			d.detectStyle(c)
		}
	}
}

// dashColumn returns the 1-based column of the '-' that introduces a
// sequence item, or 0.
func (d *Doc) dashColumn(item *yaml.Node) int {
	off := d.dashOffset(item)
	if off < 0 {
		return 0
	}
	return off - d.lines[d.lineOf(off)] + 1
}

// dashOffset finds the '-' before a block sequence item, or -1.
func (d *Doc) dashOffset(item *yaml.Node) int {
	off := d.nodeOffset(item)
	if item.Kind == yaml.ScalarNode && item.Tag == "!!null" && item.Value == "" {
		// An empty item: yaml.v3 places it after the dash.
		off = d.offset(item.Line, item.Column)
	}
	for i := off - 1; i >= d.base; i-- {
		switch d.src[i] {
		case ' ', '\t', '\n', '\r':
			continue
		case '-':
			return i
		}
		return -1
	}
	return -1
}

func (d *Doc) unit() int {
	u := d.indent
	if u == 0 {
		u = d.defIndent
	}
	return min(max(u, 2), 9)
}

func (d *Doc) compact() bool {
	if d.compactSeq == 0 {
		return d.defCompact
	}
	return d.compactSeq > 0
}

// Pos returns the 1-based line and column of node n.
func Pos(n *yaml.Node) (line, col int) {
	if n == nil {
		return 0, 0
	}
	return n.Line, n.Column
}
