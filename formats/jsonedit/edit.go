package jsonedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/tailscale/hujson"
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
	ss, err := compute()
	if err != nil {
		return err
	}
	if d.clashes(ss) {
		if err := d.flush(); err != nil {
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
	out := apply(d.src, d.edits)
	style, colon := d.style, d.colon
	if err := d.reset(out); err != nil {
		return fmt.Errorf("jsonedit: an edit produced invalid JSON (%v); this is a bug", err)
	}
	// Keep the layout read from the original text (or chosen for a new one).
	d.style, d.colon = style, colon
	return nil
}

func apply(src []byte, edits []splice) []byte {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b bytes.Buffer
	b.Grow(len(src) + 64)
	at := 0
	for _, e := range edits {
		if e.start < at { // merged deletions that overlap
			if e.end > at {
				at = e.end
			}
			b.WriteString(e.text)
			continue
		}
		b.Write(src[at:e.start])
		b.WriteString(e.text)
		at = max(at, e.end)
	}
	b.Write(src[at:])
	return b.Bytes()
}

// Bytes applies the pending edits and returns the text. The Doc then
// describes the new text.
func (d *Doc) Bytes() ([]byte, error) {
	if err := d.flush(); err != nil {
		return nil, err
	}
	return d.src, nil
}

// Changed reports whether edits are pending.
func (d *Doc) Changed() bool { return len(d.edits) > 0 }

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
			return d.appendSplices(parent, []Field{{path[i], nest(path[i+1:], v)}})
		}
		if mi := parent.memberIndex(path[i]); mi >= 0 {
			return d.replaceSplices(parent, mi, v)
		}
		return d.appendSplices(parent, []Field{{path[i], v}})
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
			return d.appendSplices(parent, []Field{{path[i], nest(path[i+1:], Object(fields))}})
		}
		for _, f := range fields {
			if parent.memberIndex(f.Key) >= 0 {
				return nil, fmt.Errorf("jsonedit: %q is already there; use Set to replace it", f.Key)
			}
		}
		return d.appendSplices(parent, fields)
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
	var b strings.Builder
	l := layout{multiline: true, unit: d.style.Indent, nl: d.style.Newline, colon: ": ", comma: ", "}
	if err := render(&b, o, l); err != nil {
		return nil, err
	}
	body := d.src[d.off:]
	trimmed := bytes.TrimRight(body, " \t\r\n")
	text := b.String()
	if len(trimmed) > 0 {
		text = d.style.Newline + text
	}
	if d.style.FinalNewline {
		text += d.style.Newline
	}
	return []splice{{d.off + len(trimmed), len(d.src), text}}, nil
}

// layoutAt returns the layout for a value written inside obj: on one line
// when obj is written on one line, else one member per line.
func (d *Doc) layoutAt(obj Node, lineOf int) layout {
	l := layout{
		multiline: d.isMultiline(obj),
		indent:    d.lineIndent(lineOf),
		unit:      d.style.Indent,
		nl:        d.style.Newline,
		colon:     d.colon,
		comma:     "," + strings.TrimPrefix(d.colon, ":"),
	}
	if o, ok := obj.value().(*hujson.Object); ok && len(o.Members) > 0 {
		last := o.Members[len(o.Members)-1]
		l.colon = ":" + spaces(last.Name.AfterExtra) + spaces(last.Value.BeforeExtra)
		if !l.multiline {
			if len(o.Members) > 1 {
				l.comma = "," + spaces(last.Name.BeforeExtra)
			} else {
				l.comma = "," + spaces(o.Members[0].Name.BeforeExtra)
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

// isMultiline reports whether an object puts its members on their own
// lines. An empty object follows the document.
func (d *Doc) isMultiline(obj Node) bool {
	o, ok := obj.value().(*hujson.Object)
	if !ok {
		return true
	}
	if len(o.Members) == 0 {
		return bytes.IndexByte(d.src, '\n') >= 0
	}
	first := o.Members[0].Name
	return bytes.IndexByte(first.BeforeExtra, '\n') >= 0
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

// commaAfter returns the offset of the comma after member i of o.
func (d *Doc) commaAfter(o *hujson.Object, i int) int {
	v := &o.Members[i].Value
	return d.off + v.EndOffset + len(v.AfterExtra)
}

func (d *Doc) replaceSplices(obj Node, mi int, v any) ([]splice, error) {
	o := obj.value().(*hujson.Object)
	m := &o.Members[mi]
	start, end := d.off+m.Value.StartOffset, d.off+m.Value.EndOffset
	l := d.layoutAt(obj, d.off+m.Name.StartOffset)
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
	var b strings.Builder
	if err := render(&b, v, l); err != nil {
		return nil, err
	}
	if b.String() == string(old) || sameJSON(old, b.String()) {
		return nil, nil
	}
	return []splice{{start, end, b.String()}}, nil
}

func (d *Doc) appendSplices(obj Node, fields []Field) ([]splice, error) {
	o := obj.value().(*hujson.Object)
	open, closing := obj.Offset(), obj.End()-1
	if len(o.Members) == 0 {
		return d.appendToEmpty(obj, open, closing, fields)
	}
	lastIdx := len(o.Members) - 1
	last := &o.Members[lastIdx]
	trailing := last.Value.AfterExtra != nil
	l := d.layoutAt(obj, d.off+last.Name.StartOffset)
	valueEnd := d.off + last.Value.EndOffset
	anchor := valueEnd
	if trailing {
		anchor = d.commaAfter(o, lastIdx) + 1
	}
	members, err := renderMembers(fields, l)
	if err != nil {
		return nil, err
	}
	var ss []splice
	if !trailing {
		ss = append(ss, splice{valueEnd, valueEnd, ","})
	}
	end := ""
	if trailing {
		end = ","
	}
	if !l.multiline {
		sep := strings.TrimPrefix(l.comma, ",")
		text := sep + strings.Join(members, ","+sep) + end
		return append(ss, splice{anchor, anchor, text}), nil
	}
	if at, ok := d.lineEnd(anchor); ok {
		var b strings.Builder
		for i, m := range members {
			b.WriteString(l.indent)
			b.WriteString(m)
			if i < len(members)-1 {
				b.WriteByte(',')
			} else {
				b.WriteString(end)
			}
			b.WriteString(l.nl)
		}
		if at == len(d.src) && d.src[at-1] != '\n' { // a line comment ends the text
			return append(ss, splice{at, at, l.nl + strings.TrimSuffix(b.String(), l.nl)}), nil
		}
		return append(ss, splice{at, at, b.String()}), nil
	}
	// Something else follows on the line (the closing brace): break the line here.
	text := l.nl + l.indent + strings.Join(members, ","+l.nl+l.indent) + end
	return append(ss, splice{anchor, anchor, text}), nil
}

// appendToEmpty adds members to {} or {\n} or { /* comment */ }.
func (d *Doc) appendToEmpty(obj Node, open, closing int, fields []Field) ([]splice, error) {
	l := d.layoutAt(obj, open)
	outer := l.indent
	l.indent += l.unit
	members, err := renderMembers(fields, l)
	if err != nil {
		return nil, err
	}
	inner := d.src[open+1 : closing]
	if !l.multiline {
		return []splice{{closing, closing, strings.Join(members, l.comma)}}, nil
	}
	body := l.indent + strings.Join(members, ","+l.nl+l.indent)
	if at, ok := d.lineEnd(open + 1); ok && at <= closing {
		return []splice{{at, at, body + l.nl}}, nil
	}
	if len(bytes.TrimSpace(inner)) == 0 {
		return []splice{{open + 1, closing, l.nl + body + l.nl + outer}}, nil
	}
	return []splice{{closing, closing, l.nl + body + l.nl + outer}}, nil
}

// renderMembers renders each field as `"name": value` in layout l, whose
// indent is the indentation of the members' lines.
func renderMembers(fields []Field, l layout) ([]string, error) {
	out := make([]string, len(fields))
	for i, f := range fields {
		var b strings.Builder
		writeString(&b, f.Key)
		b.WriteString(l.colon)
		if err := render(&b, f.Value, l); err != nil {
			return nil, err
		}
		out[i] = b.String()
	}
	return out, nil
}

func (d *Doc) deleteSplices(obj Node, mi int) []splice {
	o := obj.value().(*hujson.Object)
	m := &o.Members[mi]
	n := len(o.Members)
	nameStart := d.off + m.Name.StartOffset
	valueEnd := d.off + m.Value.EndOffset
	trailing := o.Members[n-1].Value.AfterExtra != nil
	hasComma := mi < n-1 || trailing
	open, closing := obj.Offset(), obj.End()-1

	var cut splice
	lineStart, ownStart := d.ownLineStart(nameStart)
	if hasComma {
		after := d.commaAfter(o, mi) + 1
		if lineEnd, ownEnd := d.lineEnd(after); ownStart && ownEnd {
			cut = splice{lineStart, lineEnd, ""}
		} else if ownEnd {
			cut = splice{nameStart, lineEnd, ""}
		} else {
			for after < closing && (d.src[after] == ' ' || d.src[after] == '\t') {
				after++
			}
			cut = splice{nameStart, after, ""}
		}
		if n == 1 {
			return collapse(d, open, closing, cut)
		}
		return []splice{cut}
	}
	if n == 1 {
		if lineEnd, ownEnd := d.lineEnd(valueEnd); ownStart && ownEnd {
			cut = splice{lineStart, lineEnd, ""}
		} else {
			cut = splice{nameStart, valueEnd, ""}
		}
		return collapse(d, open, closing, cut)
	}
	// The last member without a trailing comma: its line goes, and so does
	// the comma after the member before it.
	prevComma := d.commaAfter(o, mi-1)
	if lineEnd, ownEnd := d.lineEnd(valueEnd); ownStart && ownEnd {
		return []splice{{prevComma, prevComma + 1, ""}, {lineStart, lineEnd, ""}}
	}
	return []splice{{prevComma, valueEnd, ""}}
}

// collapse turns an object whose only member is cut into {} when nothing
// but blanks would be left inside it.
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
