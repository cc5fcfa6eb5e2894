package yamledit

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/mcpsync/mcpsync/formats/internal/splice"
	"github.com/mcpsync/mcpsync/formats/internal/value"
)

// An Entry is what one entry of a section must hold after an edit.
type Entry struct {
	Name  string
	Value Map
}

// ErrUnverified is wrapped by every error that refuses an edit because its
// result could not be proven right; the file is then left as it was.
var ErrUnverified = errors.New("edit refused")

// EditMap returns the file changed so that the top-level mapping section
// holds exactly want (Goose's extensions: name → entry). Unchanged entries
// keep their bytes; changed ones are edited key by key; entries not in want
// are removed; new ones are appended in want's order.
func (d *Doc) EditMap(section string, want []Entry) ([]byte, error) {
	return d.edit(section, "", want)
}

// EditList is EditMap for a top-level sequence of mappings that are named
// by the field nameKey (Continue's mcpServers: - name: ...). Items without
// that field (Continue's "- uses: owner/block" references) are not entries:
// they are left exactly as they are.
func (d *Doc) EditList(section, nameKey string, want []Entry) ([]byte, error) {
	return d.edit(section, nameKey, want)
}

func refuse(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUnverified}, args...)...)
}

// entry is one element of the section as it is in the file.
type entry struct {
	name  string
	key   *yaml.Node // the name key (maps) or nil (lists)
	value *yaml.Node // the entry's mapping
	old   any        // decoded value
	start int        // line start of the key or dash line
	end   int        // after the entry's last line
	ind   int        // indentation of the key or the dash
}

type editor struct {
	d       *Doc
	section string
	nameKey string // "" for a map section
	p       splice.List
	err     error

	anon    []any // list items without a name, kept as they are
	lastEnd int   // end of the last item of a block list, named or not
	lastInd int
}

func (d *Doc) edit(section, nameKey string, want []Entry) ([]byte, error) {
	seen := map[string]bool{}
	for _, w := range want {
		if seen[w.Name] {
			return nil, refuse("%s holds %q twice", section, w.Name)
		}
		seen[w.Name] = true
		if nameKey != "" {
			if v, ok := w.Value.Get(nameKey); !ok || v != w.Name {
				return nil, refuse("entry %q of %s has no %s field that matches", w.Name, section, nameKey)
			}
		}
	}
	e := &editor{d: d, section: section, nameKey: nameKey}
	k, v := d.Lookup(section)
	entries, block, err := e.entries(v)
	if err != nil {
		return nil, err
	}
	if e.unchanged(entries, want) {
		return d.src, nil
	}
	if d.Root != nil && d.Root.Kind != yaml.MappingNode {
		return nil, refuse("the file's top level is not a mapping")
	}
	if err := d.Editable(); err != nil {
		return nil, refuse("%v", err)
	}
	switch {
	case k == nil:
		if len(want) == 0 {
			return d.src, nil
		}
		e.appendSection(want)
	case !block && len(e.anon) > 0:
		return nil, refuse("%s is a flow list with unnamed items; write it as a block list", section)
	case !block:
		e.rewriteSection(k, v, entries, want)
	default:
		e.editEntries(k, v, entries, want)
	}
	if e.err != nil {
		return nil, e.err
	}
	out, err := e.p.Apply(d.src)
	if err != nil {
		return nil, refuse("%v", err)
	}
	nd, err := d.verify(out, section, nameKey, want)
	if err != nil {
		return nil, err
	}
	verified.Offer(out, nd)
	return out, nil
}

// entries lists the section's entries. block is false when the section is
// empty, null or written in flow style, and so is written anew.
func (e *editor) entries(v *yaml.Node) (out []entry, block bool, err error) {
	if v == nil {
		return nil, false, nil
	}
	d := e.d
	switch {
	case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
		return nil, false, nil
	case e.nameKey == "" && v.Kind != yaml.MappingNode:
		return nil, false, refuse("%s is not a mapping", e.section)
	case e.nameKey != "" && v.Kind != yaml.SequenceNode:
		return nil, false, refuse("%s is not a list", e.section)
	}
	block = v.Style&yaml.FlowStyle == 0 && len(v.Content) > 0
	if e.nameKey == "" {
		for i := 0; i+1 < len(v.Content); i += 2 {
			kn, vn := v.Content[i], v.Content[i+1]
			if !PlainKey(kn) {
				return nil, false, refuse("the key %q of %s at line %d is not a plain name; quote it", kn.Value, e.section, d.lineShown(kn))
			}
			old, err := Decode(vn)
			if err != nil {
				return nil, false, refuse("%s.%s: %v", e.section, kn.Value, err)
			}
			en := entry{name: kn.Value, key: kn, value: vn, old: old}
			if block {
				off := d.nodeOffset(kn)
				line := d.lineOf(off)
				if strings.TrimSpace(string(d.src[d.lines[line]:off])) != "" {
					return nil, false, refuse("%s.%s does not start its line", e.section, kn.Value)
				}
				en.start, en.ind = d.lines[line], kn.Column-1
				en.end = d.blockEnd(line, en.ind, isBlockSeq(vn), vn)
			}
			out = append(out, en)
		}
		return out, block, nil
	}
	for _, item := range v.Content {
		old, err := Decode(item)
		if err != nil {
			return nil, false, refuse("%s: %v", e.section, err)
		}
		m, _ := old.(map[string]any)
		name, _ := m[e.nameKey].(string)
		if _, named := m[e.nameKey]; !named && m != nil {
			e.anon = append(e.anon, old)
		} else if name == "" {
			return nil, false, refuse("an item of %s at line %d has no %s", e.section, d.lineShown(item), e.nameKey)
		}
		en := entry{name: name, value: item, old: old}
		if block {
			dash := d.dashOffset(item)
			if dash < 0 {
				return nil, false, refuse("cannot find the dash of item %q of %s", name, e.section)
			}
			line := d.lineOf(dash)
			if strings.TrimSpace(string(d.src[d.lines[line]:dash])) != "" {
				return nil, false, refuse("item %q of %s does not start its line", name, e.section)
			}
			en.start, en.ind = d.lines[line], dash-d.lines[line]
			en.end = d.blockEnd(line, en.ind, false, item)
			e.lastEnd, e.lastInd = en.end, en.ind
		}
		if name != "" {
			out = append(out, en)
		}
	}
	for i, a := range out {
		for _, b := range out[i+1:] {
			if a.name == b.name {
				return nil, false, refuse("%s holds %q twice", e.section, a.name)
			}
		}
	}
	return out, block, nil
}

func (e *editor) unchanged(entries []entry, want []Entry) bool {
	if len(entries) != len(want) {
		return false
	}
	for _, w := range want {
		i := slices.IndexFunc(entries, func(en entry) bool { return en.name == w.Name })
		if i < 0 || !Equal(entries[i].old, w.Value) {
			return false
		}
	}
	return true
}

func isBlockSeq(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.SequenceNode && n.Style&yaml.FlowStyle == 0 && len(n.Content) > 0
}

// blockEnd returns the offset after the last line of a block element that
// starts on line first with indentation ind: the lines after it that are
// indented deeper (and, for a sequence value, the "- " lines at the same
// indentation). Blank lines and less indented comments at the end belong to
// what follows.
//
// node, the element's value, ends on a line the lines' indentation alone
// may not show (a flow collection closed at the left margin, a quoted
// scalar over several lines): the element runs at least to there.
func (d *Doc) blockEnd(first, ind int, seqAtSame bool, node *yaml.Node) int {
	last := max(first, d.lastLine(node))
	for j := last + 1; j < len(d.lines); j++ {
		if d.blank(j) {
			continue
		}
		in := d.indentOf(j)
		if d.comment(j) {
			if in > ind {
				last = j
			}
			continue
		}
		text := strings.TrimLeft(d.lineText(j), " ")
		if in > ind || (seqAtSame && in == ind && (text == "-" || strings.HasPrefix(text, "- "))) {
			last = j
			continue
		}
		break
	}
	return d.lineEnd(last)
}

// editEntries edits a block section entry by entry.
func (e *editor) editEntries(k, v *yaml.Node, entries []entry, want []Entry) {
	d := e.d
	wantBy := map[string]Map{}
	for _, w := range want {
		wantBy[w.Name] = w.Value
	}
	if len(want) == 0 && len(e.anon) > 0 {
		for _, en := range entries {
			e.p.Delete(en.start, en.end)
		}
		return
	}
	if len(want) == 0 {
		// An empty section is written [] or {}, which every client reads
		// as "no servers", where a bare key would be null. Everything
		// between the first and the last entry goes, comments about them
		// included; at the end of a file without a final line break, the
		// break before them goes too, so that none is added.
		start, end := entries[0].start, entries[len(entries)-1].end
		if end == len(d.src) && !endsWithBreak(d.src) && start > d.base && endsWithBreak(d.src[:start]) {
			start -= len(d.nl)
		}
		e.p.Delete(start, end)
		colon := d.colonAfter(k)
		if colon < 0 {
			e.err = refuse("cannot find the colon after %s", e.section)
			return
		}
		empty := " {}"
		if e.nameKey != "" {
			empty = " []"
		}
		// A tag or anchor of the value on a line of its own stays, and the
		// empty collection follows it ("!t []"), not the colon.
		e.p.Insert(contentEnd(d.src, colon+1, entries[0].start), empty)
		return
	}
	insertAt, ind := e.lastEnd, e.lastInd
	if e.nameKey == "" {
		last := entries[len(entries)-1]
		insertAt, ind = last.end, last.ind
	}
	for _, en := range entries {
		w, keep := wantBy[en.name]
		switch {
		case !keep:
			e.p.Delete(en.start, en.end)
		case !Equal(en.old, w):
			e.editEntry(en, w)
		}
	}
	had := make(map[string]bool, len(entries))
	for _, en := range entries {
		had[en.name] = true
	}
	var added []Entry
	for _, w := range want {
		if !had[w.Name] {
			added = append(added, w)
		}
	}
	if len(added) > 0 {
		e.insertLines(insertAt, e.renderAll(added, ind))
	}
}

// contentEnd returns the offset after the last text in src[from:to] that
// is neither blank nor a comment (a node's tag or anchor), or from when
// there is none.
func contentEnd(src []byte, from, to int) int {
	at := from
	for i := from; i < to; {
		end := bytes.IndexByte(src[i:to], '\n')
		if end < 0 {
			end = to
		} else {
			end += i
		}
		line := src[i:end]
		if c := bytes.Index(line, []byte(" #")); c >= 0 {
			line = line[:c]
		} else if t := bytes.TrimLeft(line, " \t"); len(t) > 0 && t[0] == '#' {
			line = nil
		}
		if t := bytes.TrimRight(line, " \t\r"); len(bytes.TrimSpace(t)) > 0 {
			at = i + len(t)
		}
		i = end + 1
	}
	return at
}

// render writes a whole entry at indentation ind, without the first line's
// indentation.
func (e *editor) render(w Entry, ind int) string {
	var text string
	var err error
	if e.nameKey == "" {
		text, err = e.d.renderPair(w.Name, w.Value, ind, false)
	} else {
		text, err = e.d.renderItem(w.Value, ind)
	}
	if err != nil && e.err == nil {
		e.err = refuse("rendering %s: %v", w.Name, err)
	}
	return text
}

// renderAll renders the entries as render renders each, each line after
// the first indented by ind (the caller indents the first), encoding
// renderChunk of them at a time: a YAML encoder made for each of 10,000
// new entries was a sixth of the time an edit of Continue's file took,
// and all of them in one encoding took longer still (the emitter's work
// grows faster than its document). The emitter keeps nothing from one
// item of a block collection to the next, so the text is the same
// (FuzzRenderAll holds it equal to rendering them one by one); if an
// encoding fails, each entry is rendered alone, for the error to name it.
func (e *editor) renderAll(want []Entry, ind int) string {
	if len(want) == 0 {
		return "" // (indentLines would make a line of nothing)
	}
	pad := strings.Repeat(" ", ind)
	if len(want) > renderChunk {
		var b strings.Builder
		for i := 0; i < len(want); i += renderChunk {
			b.WriteString(e.renderAll(want[i:min(i+renderChunk, len(want))], ind))
		}
		return b.String()
	}
	if text, ok := e.fastAll(want); ok {
		return pad + e.d.indentLines(text, ind)
	}
	if len(want) > 1 {
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		if e.nameKey == "" {
			n = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		}
		for _, w := range want {
			if e.nameKey == "" {
				n.Content = append(n.Content, strNode(w.Name))
			}
			n.Content = append(n.Content, toNode(w.Value, false))
		}
		if text, err := e.d.encode(n); err == nil {
			return pad + e.d.indentLines(text, ind)
		}
	}
	var b strings.Builder
	for i, w := range want {
		if i > 0 {
			b.WriteString(pad)
		}
		b.WriteString(e.render(w, ind))
	}
	return pad + b.String()
}

// fastAll renders the entries with fastEntry, or reports that one of them
// is not for it.
func (e *editor) fastAll(want []Entry) (string, bool) {
	var b strings.Builder
	for _, w := range want {
		text, ok := e.d.fastEntry(w.Name, w.Value, e.nameKey != "")
		if !ok {
			return "", false
		}
		b.WriteString(text)
	}
	return b.String(), true
}

// renderChunk is how many entries renderAll encodes at once (a variable
// for FuzzRenderAll). At 10,000 entries, 8 to 64 were as fast; 256 slower.
var renderChunk = 64

// insertLines inserts whole lines at offset at; at the end of a file that
// has no final line break, the break moves to the front.
func (e *editor) insertLines(at int, text string) {
	d := e.d
	if at == len(d.src) && len(d.src) > d.base && !endsWithBreak(d.src) {
		text = d.nl + strings.TrimSuffix(text, d.nl)
	}
	e.p.Insert(at, text)
}

func endsWithBreak(b []byte) bool {
	return len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r')
}

// replaceLines replaces [start, end) — whole lines from start, or from a
// column on the first line — by text that ends with a line break; at the
// end of a file without a final break, text loses its own.
func (e *editor) replaceLines(start, end int, text string) {
	d := e.d
	if end == len(d.src) && !endsWithBreak(d.src) {
		text = strings.TrimSuffix(text, d.nl)
	}
	e.p.Replace(start, end, text)
}

// editEntry edits one changed entry key by key, or writes it anew when its
// shape does not allow that.
func (e *editor) editEntry(en entry, w Map) {
	old, isMap := en.old.(map[string]any)
	m := en.value
	if !isMap || m.Kind != yaml.MappingNode || m.Style&yaml.FlowStyle != 0 || len(m.Content) == 0 || hasMerge(m) ||
		(e.nameKey == "" && m.Line == en.key.Line) || !e.editKeys(en, m, old, w) {
		e.replaceLines(en.start, en.end, strings.Repeat(" ", en.ind)+e.render(Entry{en.name, w}, en.ind))
	}
}

func hasMerge(m *yaml.Node) bool {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == "<<" || m.Content[i].Kind == yaml.AliasNode || m.Content[i+1].Kind == yaml.AliasNode {
			return true
		}
	}
	return false
}

// editKeys edits the keys of a block mapping. It returns false, having
// changed nothing, when a key that must change cannot be edited on its own
// (the first key of a list item, on the dash line, cannot be removed).
func (e *editor) editKeys(en entry, m *yaml.Node, old map[string]any, w Map) bool {
	d := e.d
	type keySpan struct {
		k, v       *yaml.Node
		start, end int
		onDash     bool
	}
	ind := m.Content[0].Column - 1
	spans := map[string]keySpan{}
	lastEnd := 0
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		off := d.nodeOffset(k)
		line := d.lineOf(off)
		if k.Column-1 != ind {
			return false
		}
		ks := keySpan{k: k, v: v, start: off, end: d.blockEnd(line, ind, isBlockSeq(v), v)}
		ks.onDash = strings.TrimSpace(string(d.src[d.lines[line]:off])) != ""
		spans[k.Value] = ks
		lastEnd = max(lastEnd, ks.end)
	}
	var gone []string
	for k := range old {
		if _, ok := w.Get(k); !ok {
			gone = append(gone, k)
		}
	}
	sort.Strings(gone)
	for _, k := range gone {
		if spans[k].onDash {
			return false
		}
	}
	var p splice.List
	for _, k := range gone {
		ks := spans[k]
		p.Delete(d.lines[d.lineOf(ks.start)], ks.end)
	}
	for _, f := range w {
		ov, has := old[f.Key]
		if has && Equal(ov, f.Value) {
			continue
		}
		if !has {
			text, err := d.renderPair(f.Key, f.Value, ind, false)
			if err != nil {
				return false
			}
			text = strings.Repeat(" ", ind) + text
			if lastEnd == len(d.src) && !endsWithBreak(d.src) {
				text = d.nl + strings.TrimSuffix(text, d.nl)
			}
			p.Insert(lastEnd, text)
			continue
		}
		ks := spans[f.Key]
		if s, e2, ok := d.scalarRange(ks.v); ok && ks.v.Line == ks.k.Line && ks.end == d.lineEnd(d.lineOf(ks.start)) {
			if text, ok := d.renderScalar(f.Value); ok {
				p.Replace(s, e2, text)
				continue
			}
		}
		flow := ks.v.Style&yaml.FlowStyle != 0 && (ks.v.Kind == yaml.SequenceNode || ks.v.Kind == yaml.MappingNode)
		text, err := d.renderPair(f.Key, f.Value, ind, flow)
		if err != nil {
			return false
		}
		if ks.end == len(d.src) && !endsWithBreak(d.src) {
			text = strings.TrimSuffix(text, d.nl)
		}
		p.Replace(ks.start, ks.end, text)
	}
	for _, pt := range p.Patches() {
		e.p.Replace(pt.Start, pt.End, pt.Text)
	}
	return true
}

// scalarRange returns the bytes of a scalar written on one line: plain,
// single- or double-quoted. ok is false for anything else.
func (d *Doc) scalarRange(n *yaml.Node) (start, end int, ok bool) {
	if n == nil || n.Kind != yaml.ScalarNode || n.Anchor != "" {
		return 0, 0, false
	}
	start = d.nodeOffset(n)
	line := d.lineOf(start)
	lineEnd := d.lines[line] + len(d.lineText(line))
	if start >= lineEnd {
		return 0, 0, false
	}
	s := d.src[start:lineEnd]
	switch n.Style {
	case yaml.DoubleQuotedStyle:
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				return start, start + i + 1, true
			}
		}
	case yaml.SingleQuotedStyle:
		for i := 1; i < len(s); i++ {
			if s[i] == '\'' {
				if i+1 < len(s) && s[i+1] == '\'' {
					i++
					continue
				}
				return start, start + i + 1, true
			}
		}
	case 0:
		if s[0] == '!' || s[0] == '&' || s[0] == '*' || s[0] == '|' || s[0] == '>' {
			return 0, 0, false
		}
		// A plain scalar ends before " #" (a comment) and before ": " or a
		// final ':' (the end of a key).
		end := len(s)
		for i := 1; i < len(s); i++ {
			if (s[i] == '#' && (s[i-1] == ' ' || s[i-1] == '\t')) ||
				(s[i] == ':' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t')) {
				end = i
				break
			}
		}
		text := strings.TrimRight(string(s[:end]), " \t")
		if text == "" {
			return 0, 0, false
		}
		return start, start + len(text), true
	}
	return 0, 0, false
}

// colonAfter returns the offset of the ':' that ends a block key.
func (d *Doc) colonAfter(k *yaml.Node) int {
	_, end, ok := d.scalarRange(k)
	if !ok {
		return -1
	}
	for i := end; i < len(d.src); i++ {
		switch d.src[i] {
		case ' ', '\t':
		case ':':
			return i
		default:
			return -1
		}
	}
	return -1
}

// appendSection writes the section at the end of the file.
func (e *editor) appendSection(want []Entry) {
	d := e.d
	ind := d.unit()
	if e.nameKey != "" && d.compact() {
		ind = 0
	}
	text := e.section + ":" + d.nl + e.renderAll(want, ind)
	at := len(d.src)
	if at > d.base && !endsWithBreak(d.src) {
		text = d.nl + strings.TrimSuffix(text, d.nl)
	}
	e.p.Insert(at, text)
}

// rewriteSection writes a section that is null, empty or in flow style as a
// block: the value on the key's line is removed and the entries follow the
// key, the unchanged ones as decoded.
func (e *editor) rewriteSection(k, v *yaml.Node, entries []entry, want []Entry) {
	d := e.d
	colon := d.colonAfter(k)
	if colon < 0 {
		e.err = refuse("cannot find the colon after %s", e.section)
		return
	}
	valueEnd := colon + 1
	if !(v.Kind == yaml.ScalarNode && v.Tag == "!!null" && v.Value == "") {
		start := d.nodeOffset(v)
		end := -1
		if v.Kind == yaml.ScalarNode {
			_, end2, ok := d.scalarRange(v)
			if ok {
				end = end2
			}
		} else {
			end = d.flowEnd(start)
		}
		if end < 0 || start < colon {
			e.err = refuse("cannot find the end of the value of %s", e.section)
			return
		}
		valueEnd = end
		e.p.Delete(colon+1, end)
	}
	if len(want) == 0 {
		empty := " {}"
		if e.nameKey != "" {
			empty = " []"
		}
		e.p.Insert(valueEnd, empty)
		return
	}
	ind := k.Column - 1 + d.unit()
	if e.nameKey != "" && d.compact() {
		ind = k.Column - 1
	}
	// After the line that ends the old value, so that a comment there stays
	// on the key's line.
	e.insertLines(d.lineEnd(d.lineOf(valueEnd)), e.renderAll(want, ind))
}

// flowEnd returns the offset after the flow collection that starts at
// start, or -1.
func (d *Doc) flowEnd(start int) int {
	depth := 0
	s := d.src
	for i := start; i < len(s); i++ {
		switch s[i] {
		case '[', '{':
			depth++
		case ']', '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		case '\'':
			for i++; i < len(s); i++ {
				if s[i] == '\'' {
					if i+1 < len(s) && s[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
		case '#':
			if i > 0 && (s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == '\n') {
				for i < len(s) && s[i] != '\n' {
					i++
				}
			}
		}
	}
	return -1
}

// verify parses out and checks it against the document and want.
func (d *Doc) verify(out []byte, section, nameKey string, want []Entry) (*Doc, error) {
	nd, err := Parse(out)
	if err != nil {
		return nil, refuse("the edited file would not parse: %v", err)
	}
	before, _ := d.Value.(map[string]any)
	after, _ := nd.Value.(map[string]any)
	if !value.SameOutside(before, after, section) {
		return nil, refuse("the edit would change the file outside %s", section)
	}
	got := map[string]any{}
	switch x := after[section].(type) {
	case nil:
	case map[string]any:
		if nameKey != "" {
			return nil, refuse("%s would not be a list", section)
		}
		got = x
	case []any:
		if nameKey == "" {
			return nil, refuse("%s would not be a mapping", section)
		}
		var anon []any
		for _, it := range x {
			m, _ := it.(map[string]any)
			if _, named := m[nameKey]; !named && m != nil {
				anon = append(anon, it)
				continue
			}
			name, _ := m[nameKey].(string)
			if _, dup := got[name]; dup || name == "" {
				return nil, refuse("%s would hold an unnamed or repeated item", section)
			}
			got[name] = it
		}
		if !reflect.DeepEqual(anon, oldAnon(d, section, nameKey)) {
			return nil, refuse("the unnamed items of %s would change", section)
		}
	default:
		return nil, refuse("%s would not be a collection", section)
	}
	if len(got) != len(want) {
		return nil, refuse("%s would hold %d entries instead of %d", section, len(got), len(want))
	}
	for _, w := range want {
		if g, ok := got[w.Name]; !ok || !Equal(g, w.Value) {
			return nil, refuse("%s %q would not read back as written", section, w.Name)
		}
	}
	return nd, nil
}

// EntrySpan returns the byte range of one entry of a block section (from
// the start of its key or dash line to the end of its last line). ok is
// false when the entry is not there or the section is not a block.
func (d *Doc) EntrySpan(section, nameKey, name string) (start, end int, ok bool) {
	e := &editor{d: d, section: section, nameKey: nameKey}
	_, v := d.Lookup(section)
	entries, block, err := e.entries(v)
	if err != nil || !block {
		return 0, 0, false
	}
	for _, en := range entries {
		if en.name == name {
			return en.start, en.end, true
		}
	}
	return 0, 0, false
}

// Entries returns the names and decoded values of a section's entries in
// file order, as EditMap and EditList see them.
func (d *Doc) Entries(section, nameKey string) ([]Entry, error) {
	e := &editor{d: d, section: section, nameKey: nameKey}
	_, v := d.Lookup(section)
	entries, _, err := e.entries(v)
	if err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(entries))
	for _, en := range entries {
		m, ok := en.old.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s.%s is not a mapping", section, en.name)
		}
		out = append(out, Entry{Name: en.name, Value: MapFrom(m, MapKeys(en.value))})
	}
	return out, nil
}

// lastLine returns the 0-based line on which node n's text ends, as far as
// the nodes tell: its last descendant, the closing bracket of a flow
// collection, the closing quote of a quoted scalar. -1 for nil.
func (d *Doc) lastLine(n *yaml.Node) int {
	if n == nil || n.Line == 0 {
		return -1
	}
	start := d.nodeOffset(n)
	last := d.lineOf(start)
	switch {
	case n.Kind == yaml.ScalarNode && (n.Style == yaml.DoubleQuotedStyle || n.Style == yaml.SingleQuotedStyle):
		if end := d.quotedEnd(start); end > 0 {
			last = max(last, d.lineOf(end-1))
		}
	case (n.Kind == yaml.SequenceNode || n.Kind == yaml.MappingNode) && n.Style&yaml.FlowStyle != 0:
		if end := d.flowEnd(start); end > 0 {
			last = max(last, d.lineOf(end-1))
		}
	}
	for _, c := range n.Content {
		last = max(last, d.lastLine(c))
	}
	return last
}

// quotedEnd returns the offset after the quoted scalar that starts at
// start, or -1.
func (d *Doc) quotedEnd(start int) int {
	s := d.src
	if start >= len(s) {
		return -1
	}
	q := s[start]
	for i := start + 1; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q:
			if q == '\'' && i+1 < len(s) && s[i+1] == '\'' {
				i++
				continue
			}
			return i + 1
		}
	}
	return -1
}

// oldAnon returns the unnamed items of a list section before the edit.
func oldAnon(d *Doc, section, nameKey string) []any {
	before, _ := d.Value.(map[string]any)
	list, _ := before[section].([]any)
	var out []any
	for _, it := range list {
		if m, ok := it.(map[string]any); ok {
			if _, named := m[nameKey]; !named {
				out = append(out, it)
			}
		}
	}
	return out
}

// RemoveEmptySection returns the file without the top-level key section
// when it holds nothing: {}, [] or no value, on the key's own line, with no
// comment there. The key's line goes whole; at the end of a file without a
// final line break, the break before it goes instead, as appendSection put
// it there. So a section that an edit added, once emptied, leaves the file
// as it was before. ok is false, and the file unchanged, when the section
// is missing or holds anything.
func (d *Doc) RemoveEmptySection(section string) (out []byte, ok bool, err error) {
	k, v := d.Lookup(section)
	// A comment on the key's line is looked for in the line itself:
	// yaml.v3 may hang the comment of the line before on the key.
	if k == nil || v == nil || k.Column != 1 || v.Line != k.Line || v.Anchor != "" {
		return d.src, false, nil
	}
	switch {
	case v.Kind == yaml.MappingNode || v.Kind == yaml.SequenceNode:
		if len(v.Content) > 0 {
			return d.src, false, nil
		}
	case v.Kind == yaml.ScalarNode && v.Tag == "!!null":
	default:
		return d.src, false, nil
	}
	if err := d.Editable(); err != nil {
		return d.src, false, refuse("%v", err)
	}
	line := k.Line - 1
	if strings.Contains(d.lineText(line), "#") {
		return d.src, false, nil
	}
	start, end := d.lines[line], d.lineEnd(line)
	if line+1 < len(d.lines) && d.lines[line+1] == end && end < len(d.src) && d.indentOf(line+1) > 0 && !d.blank(line+1) {
		return d.src, false, nil // lines below belong to the section (comments): they are the user's
	}
	if end == len(d.src) && !endsWithBreak(d.src) && start > d.base {
		start -= len(d.nl)
	}
	var p splice.List
	p.Delete(start, end)
	out, err = p.Apply(d.src)
	if err != nil {
		return d.src, false, refuse("%v", err)
	}
	nd, err := Parse(out)
	if err != nil {
		return d.src, false, refuse("the edited file would not parse: %v", err)
	}
	if nd.Root != nil && nd.Root.Kind != yaml.MappingNode {
		// A tag or anchor on the top mapping ("!t\nmcpServers:") is all
		// that would be left: no longer a mapping, so not the same file.
		return d.src, false, refuse("removing %s would leave a file that is not a mapping", section)
	}
	before, _ := d.Value.(map[string]any)
	after, _ := nd.Value.(map[string]any)
	if _, still := after[section]; still || !value.SameOutside(before, after, section) {
		return d.src, false, refuse("removing %s would change the file elsewhere", section)
	}
	return out, true, nil
}

// HasSection reports whether data parses and its top level has the key
// section (whatever its value). A file that does not parse counts as
// having it: nothing is added to or removed from it.
func HasSection(data []byte, section string) bool {
	d, err := Parse(data)
	if err != nil {
		return true
	}
	if d.Root == nil {
		return false
	}
	k, _ := d.Lookup(section)
	return k != nil || d.Root.Kind != yaml.MappingNode
}
