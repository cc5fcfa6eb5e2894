package jsonedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/tailscale/hujson"

	splicelist "github.com/mcpsync/mcpsync/formats/internal/splice"
)

// A splice replaces src[start:end] with text.
type splice struct {
	start, end int
	text       string
}

// conflicts reports whether two splices cannot be applied together in one
// pass because their order would matter. Two deletions that touch are fine.
func (s splice) conflicts(o splice) bool {
	if s.text == "" && o.text == "" {
		return s.start < o.end && o.start < s.end
	}
	return s.start <= o.end && o.start <= s.end
}

// edit computes splices against the current text. When they clash with
// edits already pending, the pending ones are applied first and the text
// parsed again, so every edit is computed on text that holds the ones
// before it.
func (d *Doc) edit(compute func() ([]splice, error)) error {
	if err := d.ensure(); err != nil {
		return err
	}
	ss, err := compute()
	if err != nil {
		return err
	}
	if d.clashes(ss) {
		if err := d.flush(); err != nil {
			return err
		}
		if err := d.ensure(); err != nil {
			return err
		}
		if ss, err = compute(); err != nil {
			return err
		}
	}
	d.edits = append(d.edits, ss...)
	return nil
}

func (d *Doc) clashes(ss []splice) bool {
	for _, s := range ss {
		for _, p := range d.edits {
			if s.conflicts(p) {
				return true
			}
		}
	}
	return false
}

// flush applies the pending edits and parses the result.
func (d *Doc) flush() error {
	if len(d.edits) == 0 {
		return nil
	}
	out, err := apply(d.src, d.edits)
	if err != nil {
		return err
	}
	d.src = out
	d.edits, d.lines, d.stale = nil, nil, true
	return nil
}

// apply writes the splices into src through the shared patch list, which
// merges deletions that overlap and refuses any other overlap.
func apply(src []byte, edits []splice) ([]byte, error) {
	var l splicelist.List
	for _, e := range edits {
		l.Replace(e.start, e.end, e.text)
	}
	out, err := l.Apply(src)
	if err != nil {
		return nil, fmt.Errorf("jsonedit: %w; this is a bug", err)
	}
	return out, nil
}

// Bytes applies the pending edits and returns the text. The Doc then
// describes the new text.
func (d *Doc) Bytes() ([]byte, error) {
	if err := d.flush(); err != nil {
		return nil, err
	}
	return d.src, nil
}

// Set makes the member at path (a list of names from the top-level object)
// hold v. An existing value is replaced in place: the member keeps its
// position and the comments around it. A missing member is added after the
// last member of its object, and missing objects on the way are created.
func (d *Doc) Set(path []string, v any) error {
	if len(path) == 0 {
		return fmt.Errorf("jsonedit: Set needs a path")
	}
	return d.edit(func() ([]splice, error) {
		if d.empty {
			return d.createRoot(path, v)
		}
		parent, i, err := d.walk(path)
		if err != nil {
			return nil, err
		}
		if i < len(path)-1 { // create the missing objects below parent
			return d.appendSplices(parent, memberRenderer([]Field{{path[i], nest(path[i+1:], v)}}))
		}
		if mi := parent.memberIndex(path[i]); mi >= 0 {
			return d.replaceSplices(parent, mi, v)
		}
		return d.appendSplices(parent, memberRenderer([]Field{{path[i], v}}))
	})
}

// Append adds members to the object at path (creating it and the objects on
// the way when missing), after its last member. The names must not be in
// the object yet; use Set to replace a member.
func (d *Doc) Append(path []string, fields ...Field) error {
	if len(fields) == 0 {
		return nil
	}
	return d.edit(func() ([]splice, error) {
		if d.empty {
			if len(path) == 0 {
				return d.createRootObject(Object(fields))
			}
			return d.createRoot(path, Object(fields))
		}
		parent, i, err := d.walk(append(append([]string(nil), path...), ""))
		if err != nil {
			return nil, err
		}
		if i < len(path) {
			return d.appendSplices(parent, memberRenderer([]Field{{path[i], nest(path[i+1:], Object(fields))}}))
		}
		for _, f := range fields {
			if parent.memberIndex(f.Key) >= 0 {
				return nil, fmt.Errorf("jsonedit: %q is already there; use Set to replace it", f.Key)
			}
		}
		return d.appendSplices(parent, memberRenderer(fields))
	})
}

// Delete removes the member at path with its comma and the rest of its
// line, leaving the comments around it. It reports whether the member was
// there.
func (d *Doc) Delete(path []string) (bool, error) {
	if len(path) == 0 {
		return false, fmt.Errorf("jsonedit: Delete needs a path")
	}
	found := false
	err := d.edit(func() ([]splice, error) {
		found = false
		parent := d.Find(path[:len(path)-1]...)
		if parent.Kind() != KindObject {
			return nil, nil
		}
		mi := parent.memberIndex(path[len(path)-1])
		if mi < 0 {
			return nil, nil
		}
		found = true
		return d.deleteSplices(parent, mi), nil
	})
	return found, err
}

// AppendElements adds values after the last element of the array at path.
func (d *Doc) AppendElements(path []string, values ...any) error {
	if len(values) == 0 {
		return nil
	}
	return d.edit(func() ([]splice, error) {
		arr := d.Find(path...)
		if arr.Kind() != KindArray {
			return nil, fmt.Errorf("jsonedit: %q is %s %s, not an array", strings.Join(path, "."), article(arr.Kind()), arr.Kind())
		}
		return d.appendSplices(arr, elementRenderer(values))
	})
}

// DeleteElement removes element i of the array at path with its comma and
// the rest of its line. It reports whether the element was there.
func (d *Doc) DeleteElement(path []string, i int) (bool, error) {
	found := false
	err := d.edit(func() ([]splice, error) {
		arr := d.Find(path...)
		found = arr.Kind() == KindArray && i >= 0 && i < arr.Len()
		if !found {
			return nil, nil
		}
		return d.deleteSplices(arr, i), nil
	})
	return found, err
}

// walk follows path[:len(path)-1] and returns the deepest object reached and
// the index in path of the first name it does not hold (len(path)-1 when
// every parent exists).
func (d *Doc) walk(path []string) (Node, int, error) {
	n := d.Root()
	if n.Kind() != KindObject {
		return Node{}, 0, fmt.Errorf("the top-level value is %s %s, not an object", article(n.Kind()), n.Kind())
	}
	for i := 0; i < len(path)-1; i++ {
		next := n.Get(path[i])
		if !next.Valid() {
			return n, i, nil
		}
		if next.Kind() != KindObject {
			line, col := next.Pos()
			return Node{}, 0, fmt.Errorf("line %d, column %d: %q is %s %s, not an object: %w",
				line, col, strings.Join(path[:i+1], "."), article(next.Kind()), next.Kind(), ErrNotObject)
		}
		n = next
	}
	return n, len(path) - 1, nil
}

func article(k Kind) string {
	switch k {
	case KindObject, KindArray:
		return "an"
	}
	return "a"
}

// nest wraps v in one object per name: nest([a b], v) = {"a": {"b": v}}.
func nest(names []string, v any) any {
	for i := len(names) - 1; i >= 0; i-- {
		v = Object{{names[i], v}}
	}
	return v
}

func (d *Doc) createRoot(path []string, v any) ([]splice, error) {
	return d.createRootObject(nest(path, v).(Object))
}

// createRootObject writes the first value of an empty document after the
// comments it may already hold.
func (d *Doc) createRootObject(o Object) ([]splice, error) {
	var b textBuilder
	l := layout{multiline: true, unit: d.style.Indent, nl: d.style.Newline, colon: ": ", comma: ", "}
	body := d.src[d.off:]
	trimmed := bytes.TrimRight(body, " \t\r\n")
	if len(trimmed) > 0 {
		b.WriteString(d.style.Newline)
	}
	if err := render(&b, o, l); err != nil {
		return nil, err
	}
	if d.style.FinalNewline {
		b.WriteString(d.style.Newline)
	}
	return []splice{{d.off + len(trimmed), len(d.src), b.String()}}, nil
}

// item is a member of an object or an element of an array, by offsets in
// the text.
type item struct {
	start    int          // the first byte: the member's name, or the element
	valueEnd int          // just after the value
	before   hujson.Extra // blanks and comments before start
	after    hujson.Extra // between the value and its comma; non-nil on the last item means a trailing comma
	colon    string       // a member's spacing around its colon, when it is only blanks
}

// items lists the members of an object or the elements of an array.
func (d *Doc) items(n Node) []item {
	switch c := n.value().(type) {
	case *hujson.Object:
		out := make([]item, len(c.Members))
		for i := range c.Members {
			m := &c.Members[i]
			out[i] = item{start: d.off + m.Name.StartOffset, valueEnd: d.off + m.Value.EndOffset,
				before: m.Name.BeforeExtra, after: m.Value.AfterExtra,
				colon: ":" + spaces(m.Name.AfterExtra) + spaces(m.Value.BeforeExtra)}
		}
		return out
	case *hujson.Array:
		out := make([]item, len(c.Elements))
		for i := range c.Elements {
			v := &c.Elements[i]
			out[i] = item{start: d.off + v.StartOffset, valueEnd: d.off + v.EndOffset, before: v.BeforeExtra, after: v.AfterExtra}
		}
		return out
	}
	return nil
}

func (it item) comma() int { return it.valueEnd + len(it.after) }

// layoutAt returns the layout for a value written inside a container: on
// one line when the container is written on one line, else one item per
// line, indented like the line holding offset lineOf.
func (d *Doc) layoutAt(container Node, items []item, lineOf int) layout {
	l := layout{
		multiline: bytes.IndexByte(d.src, '\n') >= 0,
		indent:    d.lineIndent(lineOf),
		unit:      d.style.Indent,
		nl:        d.style.Newline,
		colon:     d.colon,
		comma:     "," + strings.TrimPrefix(d.colon, ":"),
	}
	if len(items) == 0 {
		return l
	}
	l.multiline = bytes.IndexByte(items[0].before, '\n') >= 0
	last := items[len(items)-1]
	if container.Kind() == KindObject {
		l.colon = last.colon
	}
	if !l.multiline {
		l.comma = "," + spaces(last.before)
		if len(items) == 1 { // no separator to copy: follow the colon's spacing
			l.comma = "," + strings.TrimPrefix(l.colon, ":")
			if container.Kind() == KindArray {
				l.comma = "," + strings.TrimPrefix(d.colon, ":")
			}
		}
	}
	return l
}

// spaces returns e when it is only blanks (no newline, no comment), else "".
func spaces(e hujson.Extra) string {
	for _, c := range e {
		if c != ' ' && c != '\t' {
			return ""
		}
	}
	return string(e)
}

// lineIndent returns the blanks that start the line holding offset.
func (d *Doc) lineIndent(offset int) string {
	i := offset
	for i > d.off && d.src[i-1] != '\n' {
		i--
	}
	j := i
	for j < len(d.src) && (d.src[j] == ' ' || d.src[j] == '\t') {
		j++
	}
	return string(d.src[i:j])
}

// ownLineStart returns the start of the line holding offset when only
// blanks come before offset on it.
func (d *Doc) ownLineStart(offset int) (int, bool) {
	i := offset
	for i > d.off && (d.src[i-1] == ' ' || d.src[i-1] == '\t') {
		i--
	}
	if i == d.off || d.src[i-1] == '\n' {
		return i, true
	}
	return offset, false
}

// lineEnd returns the offset just past the end of the line holding offset
// when only blanks and comments follow offset on it.
func (d *Doc) lineEnd(offset int) (int, bool) {
	b := d.src
	for i := offset; i < len(b); {
		switch {
		case b[i] == ' ' || b[i] == '\t' || b[i] == '\r':
			i++
		case b[i] == '\n':
			return i + 1, true
		case bytes.HasPrefix(b[i:], []byte("//")):
			j := bytes.IndexByte(b[i:], '\n')
			if j < 0 {
				return len(b), true
			}
			return i + j + 1, true
		case bytes.HasPrefix(b[i:], []byte("/*")):
			j := bytes.Index(b[i+2:], []byte("*/"))
			if j < 0 || bytes.IndexByte(b[i:i+2+j], '\n') >= 0 {
				return offset, false
			}
			i += j + 4
		default:
			return offset, false
		}
	}
	return offset, false
}

func (d *Doc) replaceSplices(obj Node, mi int, v any) ([]splice, error) {
	o := obj.value().(*hujson.Object)
	m := &o.Members[mi]
	start, end := d.off+m.Value.StartOffset, d.off+m.Value.EndOffset
	l := d.layoutAt(obj, d.items(obj), d.off+m.Name.StartOffset)
	old := d.src[start:end]
	switch k := m.Value.Value.Kind(); {
	case (k == '{' || k == '[') && (Node{d: d, v: &m.Value}).Len() > 0:
		l.multiline = bytes.IndexByte(old, '\n') >= 0
		if !l.multiline {
			l.colon, l.comma = ": ", ", "
			if bytes.Contains(old, []byte(`":`)) && !bytes.Contains(old, []byte(`": `)) {
				l.colon = ":"
			}
			if bytes.Contains(old, []byte(",")) && !bytes.Contains(old, []byte(", ")) {
				l.comma = ","
			}
		}
	}
	var b textBuilder
	if err := render(&b, v, l); err != nil {
		return nil, err
	}
	if b.String() == string(old) || sameJSON(old, b.String()) {
		return nil, nil
	}
	return []splice{{start, end, b.String()}}, nil
}

// appendSplices adds items after the last item of a container; renderItems
// renders them for the layout they go in (whose indent is the items' own).
func (d *Doc) appendSplices(container Node, renderItems func(layout) ([]string, error)) ([]splice, error) {
	items := d.items(container)
	open, closing := container.Offset(), container.End()-1
	if len(items) == 0 {
		return d.appendToEmpty(container, open, closing, renderItems)
	}
	last := items[len(items)-1]
	trailing := last.after != nil
	l := d.layoutAt(container, items, last.start)
	anchor := last.valueEnd
	if trailing {
		anchor = last.comma() + 1
	}
	texts, err := renderItems(l)
	if err != nil {
		return nil, err
	}
	var ss []splice
	if !trailing {
		ss = append(ss, splice{last.valueEnd, last.valueEnd, ","})
	}
	end := ""
	if trailing {
		end = ","
	}
	if !l.multiline {
		sep := strings.TrimPrefix(l.comma, ",")
		return append(ss, splice{anchor, anchor, sep + strings.Join(texts, ","+sep) + end}), nil
	}
	if at, ok := d.lineEnd(anchor); ok {
		var b textBuilder
		for i, t := range texts {
			b.WriteString(l.indent)
			b.WriteString(t)
			if i < len(texts)-1 {
				b.WriteByte(',')
			} else {
				b.WriteString(end)
			}
			b.WriteString(l.nl)
		}
		return append(ss, splice{at, at, b.String()}), nil
	}
	// Something else follows on the line (the closing bracket): break the line here.
	text := l.nl + l.indent + strings.Join(texts, ","+l.nl+l.indent) + end
	return append(ss, splice{anchor, anchor, text}), nil
}

// appendToEmpty adds items to {} or [] or {\n} or { /* comment */ }.
func (d *Doc) appendToEmpty(container Node, open, closing int, renderItems func(layout) ([]string, error)) ([]splice, error) {
	l := d.layoutAt(container, nil, open)
	outer := l.indent
	l.indent += l.unit
	texts, err := renderItems(l)
	if err != nil {
		return nil, err
	}
	inner := d.src[open+1 : closing]
	if !l.multiline {
		return []splice{{closing, closing, strings.Join(texts, l.comma)}}, nil
	}
	body := l.indent + strings.Join(texts, ","+l.nl+l.indent)
	if at, ok := d.lineEnd(open + 1); ok && at <= closing {
		return []splice{{at, at, body + l.nl}}, nil
	}
	if len(bytes.TrimSpace(inner)) == 0 {
		return []splice{{open + 1, closing, l.nl + body + l.nl + outer}}, nil
	}
	return []splice{{closing, closing, l.nl + body + l.nl + outer}}, nil
}

// memberRenderer renders each field as `"name": value`.
func memberRenderer(fields []Field) func(layout) ([]string, error) {
	return func(l layout) ([]string, error) {
		return renderEach(len(fields), func(b *textBuilder, i int) error {
			writeString(b, fields[i].Key)
			b.WriteString(l.colon)
			return render(b, fields[i].Value, l)
		})
	}
}

// elementRenderer renders each value as an array element.
func elementRenderer(values []any) func(layout) ([]string, error) {
	return func(l layout) ([]string, error) {
		return renderEach(len(values), func(b *textBuilder, i int) error {
			return render(b, values[i], l)
		})
	}
}

// renderEach renders n items, each by item, into one text and returns
// each item's part of it. A builder of its own for each item grew from
// nothing in five or six steps: appending 1,000 servers to a Cursor file
// that holds one took 32,026 allocations, against 27,542 now
// (BenchmarkAppend1000 in formats/all).
func renderEach(n int, item func(b *textBuilder, i int) error) ([]string, error) {
	var b textBuilder
	ends := make([]int, n)
	for i := range n {
		if err := item(&b, i); err != nil {
			return nil, err
		}
		ends[i] = b.Len()
	}
	all := b.String()
	out := make([]string, n)
	start := 0
	for i, end := range ends {
		out[i] = all[start:end]
		start = end
	}
	return out, nil
}

// deleteSplices cuts item i of a container with its comma and the rest of
// its line, leaving the comments around it.
func (d *Doc) deleteSplices(container Node, i int) []splice {
	items := d.items(container)
	it := items[i]
	n := len(items)
	trailing := items[n-1].after != nil
	hasComma := i < n-1 || trailing
	open, closing := container.Offset(), container.End()-1

	var cut splice
	lineStart, ownStart := d.ownLineStart(it.start)
	if hasComma {
		after := it.comma() + 1
		if lineEnd, ownEnd := d.lineEnd(after); ownStart && ownEnd {
			cut = splice{lineStart, lineEnd, ""}
		} else if ownEnd {
			cut = splice{it.start, lineEnd, ""}
		} else {
			for after < closing && (d.src[after] == ' ' || d.src[after] == '\t') {
				after++
			}
			cut = splice{it.start, after, ""}
		}
		if n == 1 {
			return collapse(d, open, closing, cut)
		}
		return []splice{cut}
	}
	if n == 1 {
		if lineEnd, ownEnd := d.lineEnd(it.valueEnd); ownStart && ownEnd {
			cut = splice{lineStart, lineEnd, ""}
		} else {
			cut = splice{it.start, it.valueEnd, ""}
		}
		return collapse(d, open, closing, cut)
	}
	// The last item without a trailing comma: its line goes, and so does
	// the comma after the item before it.
	prevComma := items[i-1].comma()
	if lineEnd, ownEnd := d.lineEnd(it.valueEnd); ownStart && ownEnd {
		return []splice{{prevComma, prevComma + 1, ""}, {lineStart, lineEnd, ""}}
	}
	return []splice{{prevComma, it.valueEnd, ""}}
}

// collapse turns a container whose only item is cut into {} or [] when
// nothing but blanks would be left inside it.
func collapse(d *Doc, open, closing int, cut splice) []splice {
	rest := append(append([]byte(nil), d.src[open+1:cut.start]...), d.src[cut.end:closing]...)
	if len(bytes.TrimSpace(rest)) == 0 {
		return []splice{{open + 1, closing, ""}}
	}
	return []splice{cut}
}

// sameJSON reports whether the old value (JSONC) and the new one (JSON)
// mean the same, so that setting a value to what it is changes no byte.
func sameJSON(old []byte, new string) bool {
	std, err := hujson.Standardize(append([]byte(nil), old...))
	if err != nil {
		return false
	}
	var a, b any
	if json.Unmarshal(std, &a) != nil || json.Unmarshal([]byte(new), &b) != nil {
		return false
	}
	return reflect.DeepEqual(a, b)
}
