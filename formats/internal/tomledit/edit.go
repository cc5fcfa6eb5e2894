package tomledit

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/mcpsync/mcpsync/formats/internal/splice"
	"github.com/mcpsync/mcpsync/formats/internal/value"
)

// An Entry is what one key of a section must hold after an edit.
type Entry struct {
	Name  string
	Value Table
}

// ErrUnverified is wrapped by every error that refuses an edit because its
// result could not be proven right; the file is then left as it was.
var ErrUnverified = errors.New("edit refused")

// EditSection returns the file changed so that the table named section holds
// exactly the entries of want. An entry whose value is already Equal is left
// byte for byte; a changed one is edited key by key, keeping the comments
// and formatting of its unchanged keys; entries not in want are removed;
// new ones are added as [section.name] tables after the section's last
// table (or at the end of the file), in want's order.
//
// The result is decoded again: everything outside the section must decode
// exactly as before, and the section exactly as want. Otherwise the edit is
// refused with an error wrapping ErrUnverified.
func (d *Doc) EditSection(section string, want []Entry) ([]byte, error) {
	oldAny, present := d.Root[section]
	old, isMap := oldAny.(map[string]any)
	if present && !isMap {
		return nil, fmt.Errorf("%w: %s is not a table", ErrUnverified, section)
	}
	seen := map[string]bool{}
	changed := len(want) != len(old)
	for _, w := range want {
		if seen[w.Name] {
			return nil, fmt.Errorf("%w: %s.%s is given twice", ErrUnverified, section, w.Name)
		}
		seen[w.Name] = true
		if ov, ok := old[w.Name]; !ok || !Equal(ov, w.Value) {
			changed = true
		}
	}
	if !changed {
		return d.src, nil
	}
	if d.lay == nil {
		return nil, fmt.Errorf("%w: cannot lay out the file for editing: %v", ErrUnverified, d.layErr)
	}
	e := &editor{d: d, src: d.src, lay: d.lay, section: section, nl: d.nl}
	for _, kv := range e.lay.kvs {
		if len(kv.path) == 1 && kv.path[0] == section && kv.open > 0 {
			e.inlineSection = kv
		}
	}
	for _, name := range d.Names(section) {
		if !seen[name] {
			e.deleteEntry(name)
		}
	}
	for _, w := range want {
		ov, ok := old[w.Name]
		switch {
		case !ok:
			e.insertEntry(w.Name, w.Value)
		case !Equal(ov, w.Value):
			om, isMap := ov.(map[string]any)
			if !isMap {
				e.replaceEntryWhole(w.Name, w.Value)
				continue
			}
			e.editEntry(w.Name, om, w.Value)
		}
	}
	if e.err != nil {
		return nil, e.err
	}
	e.flushInline()
	out, err := e.patches.Apply(e.src)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnverified, err)
	}
	root, err := d.verify(out, section, want)
	if err != nil {
		return nil, err
	}
	verified.Offer(out, root)
	return out, nil
}

// verify decodes out and checks it against the document and want. It
// returns what it decoded.
func (d *Doc) verify(out []byte, section string, want []Entry) (map[string]any, error) {
	var root map[string]any
	if err := decode(out, &root); err != nil {
		return nil, fmt.Errorf("%w: the edited file would not parse: %v", ErrUnverified, err)
	}
	if !value.SameOutside(d.Root, root, section) {
		return nil, fmt.Errorf("%w: the edit would change the file outside %s", ErrUnverified, section)
	}
	got, _ := root[section].(map[string]any)
	if _, present := root[section]; present && got == nil {
		return nil, fmt.Errorf("%w: %s would not be a table", ErrUnverified, section)
	}
	if len(got) != len(want) {
		return nil, fmt.Errorf("%w: %s would hold %d entries instead of %d", ErrUnverified, section, len(got), len(want))
	}
	for _, w := range want {
		if g, ok := got[w.Name]; !ok || !Equal(g, w.Value) {
			return nil, fmt.Errorf("%w: %s.%s would not read back as written", ErrUnverified, section, RenderKey(w.Name))
		}
	}
	return root, nil
}

// editor collects the patches of one edit.
type editor struct {
	d       *Doc
	src     []byte
	lay     *layout
	section string
	nl      string
	patches splice.List
	err     error

	// inlineSection is `section = { ... }` at the root, when the whole
	// section is one inline table; its members are edited through inline.
	inlineSection *keyval
	inline        inlineEdit
	// blockAt marks offsets where a table was inserted, so that the next
	// one there is separated by a blank line even at the top of a file.
	blockAt map[int]bool
}

// A container is a table whose keys an edit adds or changes: either the
// body of a [header] (prefix empty) or the dotted keys prefix.K = ... inside
// the body of table (-1 for the root).
type container struct {
	table  int
	path   []string
	prefix []string // spelled key parts that lead from the table to path
}

func (e *editor) fail(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf("%w: "+format, append([]any{ErrUnverified}, args...)...)
	}
}

func (e *editor) tablePath(i int) []string {
	if i < 0 {
		return nil
	}
	return e.lay.headers[i].path
}

// defs returns every header and top-level key/value that defines path or
// something below it.
func (e *editor) defs(path []string) (hs []int, kvs []*keyval) {
	for i, h := range e.lay.headers {
		if hasPrefix(h.path, path) {
			hs = append(hs, i)
		}
	}
	for _, kv := range e.lay.kvs {
		if hasPrefix(kv.path, path) {
			kvs = append(kvs, kv)
		}
	}
	return hs, kvs
}

// headerAt returns the index of the [path] table header, or -1.
func (e *editor) headerAt(path []string) int {
	for i, h := range e.lay.headers {
		if !h.array && slices.Equal(h.path, path) {
			return i
		}
	}
	return -1
}

func (e *editor) deleteEntry(name string) {
	if e.inlineSection != nil {
		e.inline.del(name)
		return
	}
	hs, kvs := e.defs([]string{e.section, name})
	e.deleteDefs(hs, kvs)
}

func (e *editor) insertEntry(name string, t Table) {
	if e.inlineSection != nil {
		e.inline.add(name, t)
		return
	}
	at := e.regionEnd([]string{e.section})
	e.insertBlock(at, []string{e.section, name}, t)
}

// replaceEntryWhole rewrites an entry that was not a table.
func (e *editor) replaceEntryWhole(name string, t Table) {
	if e.inlineSection != nil {
		e.inline.replace(name, t)
		return
	}
	path := []string{e.section, name}
	hs, kvs := e.defs(path)
	if len(hs) == 0 && len(kvs) == 1 && slices.Equal(kvs[0].path, path) {
		e.replace(kvs[0].vstart, kvs[0].vend, RenderValue(t))
		return
	}
	e.fail("cannot find where %s.%s is defined", e.section, RenderKey(name))
}

func (e *editor) editEntry(name string, old map[string]any, t Table) {
	if e.inlineSection != nil {
		e.inline.replace(name, t)
		return
	}
	path := []string{e.section, name}
	hs, kvs := e.defs(path)
	// name = { ... }: rewrite the inline table, keeping the key and the
	// comment after it.
	if len(hs) == 0 && len(kvs) == 1 && slices.Equal(kvs[0].path, path) {
		e.replace(kvs[0].vstart, kvs[0].vend, RenderValue(t))
		return
	}
	if h := e.headerAt(path); h >= 0 {
		e.editTable(container{table: h, path: path}, old, t)
		return
	}
	if c, ok := e.dottedContainer(path, hs, kvs); ok {
		e.editTable(c, old, t)
		return
	}
	// Defined only through sub-tables, or some other mix: write it anew
	// where its first table was.
	if len(hs) == 0 {
		e.deleteDefs(hs, kvs)
		e.insertBlock(e.regionEnd([]string{e.section}), path, t)
		return
	}
	for _, i := range hs {
		h := e.lay.headers[i]
		e.del(h.start, h.bodyEnd)
	}
	for _, kv := range kvs {
		e.del(kv.start, kv.end)
	}
	e.insert(e.lay.headers[hs[0]].start, renderBlock(path, t, e.nl))
}

// dottedContainer recognises a table written as dotted keys (x.a = 1,
// x.b = 2) inside one table body.
func (e *editor) dottedContainer(path []string, hs []int, kvs []*keyval) (container, bool) {
	if len(hs) > 0 || len(kvs) == 0 {
		return container{}, false
	}
	table := kvs[0].table
	n := len(path) - len(e.tablePath(table))
	for _, kv := range kvs {
		if kv.table != table || len(kv.path) <= len(path) || kv.keyRaw == nil || n <= 0 || n > len(kv.keyRaw) {
			return container{}, false
		}
	}
	return container{table: table, path: path, prefix: kvs[0].keyRaw[:n]}, true
}

// editTable edits the keys of container c from old to want.
func (e *editor) editTable(c container, old map[string]any, want Table) {
	keys := want.Keys()
	var gone []string
	for k := range old {
		if _, ok := want.Get(k); !ok {
			gone = append(gone, k)
		}
	}
	sort.Strings(gone)
	keys = append(keys, gone...)
	for _, k := range keys {
		q := concat(c.path, []string{k})
		ov, hasOld := old[k]
		nv, hasNew := want.Get(k)
		if hasOld && hasNew && Equal(ov, nv) {
			continue
		}
		hs, kvs := e.defs(q)
		switch {
		case !hasOld:
			e.insertKey(c, k, nv)
			continue
		case !hasNew:
			e.deleteDefs(hs, kvs)
			continue
		}
		if len(hs) == 0 && len(kvs) == 1 && slices.Equal(kvs[0].path, q) && kvs[0].table == c.table {
			e.replace(kvs[0].vstart, kvs[0].vend, RenderValue(nv))
			continue
		}
		om, oldIsMap := ov.(map[string]any)
		nt, newIsTable := asTable(nv)
		if oldIsMap && newIsTable {
			if h := e.headerAt(q); h >= 0 && e.onlyUnderHeaders(q, kvs) {
				e.editTable(container{table: h, path: q}, om, nt)
				continue
			}
			if sub, ok := e.dottedContainer(q, hs, kvs); ok && sub.table == c.table {
				e.editTable(sub, om, nt)
				continue
			}
		}
		e.deleteDefs(hs, kvs)
		e.insertKey(c, k, nv)
	}
}

// onlyUnderHeaders reports whether every key/value below q sits in the body
// of a table header at or below q.
func (e *editor) onlyUnderHeaders(q []string, kvs []*keyval) bool {
	for _, kv := range kvs {
		if kv.table < 0 || !hasPrefix(e.lay.headers[kv.table].path, q) {
			return false
		}
	}
	return true
}

func asTable(v any) (Table, bool) {
	switch x := v.(type) {
	case Table:
		return x, true
	case map[string]any:
		return TableFromMap(x, nil), true
	}
	return nil, false
}

// isSubTable reports whether v is written as its own [table] when it is new.
func isSubTable(v any) bool {
	t, ok := asTable(v)
	return ok && len(t) > 0
}

// insertKey adds key = v to container c: after its last key/value, or as a
// new [c.key] table after c's last table when v is a table and c is a
// [header] table.
func (e *editor) insertKey(c container, key string, v any) {
	if len(c.prefix) == 0 && c.table >= 0 && isSubTable(v) {
		var blocks []string
		t, _ := asTable(v)
		renderTable(&blocks, concat(c.path, []string{key}), t, e.nl, false)
		e.insertLines(e.regionEnd(c.path), e.nl+strings.Join(blocks, e.nl))
		return
	}
	at, indent := -1, ""
	for _, kv := range e.lay.kvs {
		if kv.table == c.table && hasPrefix(kv.path, c.path) && kv.end > at {
			at = kv.end
			indent = string(e.src[kv.start:skipSpace(e.src, kv.start)])
		}
	}
	if at < 0 {
		if c.table < 0 {
			e.fail("cannot find where to add %s", RenderPath(concat(c.path, []string{key})))
			return
		}
		at = e.lay.headers[c.table].lineEnd
	}
	line := indent
	for _, p := range c.prefix {
		line += p + "."
	}
	line += RenderKey(key) + " = " + RenderValue(v) + e.nl
	e.insertLines(at, line)
}

// regionEnd is where the last table at or below path ends, or the end of the
// file when there is none.
func (e *editor) regionEnd(path []string) int {
	at := -1
	for _, h := range e.lay.headers {
		if hasPrefix(h.path, path) && h.bodyEnd > at {
			at = h.bodyEnd
		}
	}
	if at < 0 {
		return len(e.src)
	}
	return at
}

// insertBlock writes a new [path] table (with its sub-tables) at offset at,
// separated from what comes before by a blank line.
func (e *editor) insertBlock(at int, path []string, t Table) {
	text := renderBlock(path, t, e.nl)
	if at > e.d.base || e.blockAt[at] {
		text = e.nl + text
	}
	if e.blockAt == nil {
		e.blockAt = map[int]bool{}
	}
	e.blockAt[at] = true
	e.insertLines(at, text)
}

// insertLines inserts text (whole lines, ending with a newline) at offset
// at. At the end of a file that has no final newline, the newline moves to
// the front so that the file still ends without one.
func (e *editor) insertLines(at int, text string) {
	if at == len(e.src) && at > e.d.base && e.src[at-1] != '\n' {
		text = e.nl + strings.TrimSuffix(text, e.nl)
	}
	e.insert(at, text)
}

// deleteDefs removes tables (with their bodies) and key/value lines.
func (e *editor) deleteDefs(hs []int, kvs []*keyval) {
	for _, i := range hs {
		e.deleteBlock(e.lay.headers[i])
	}
	for _, kv := range kvs {
		e.del(kv.start, kv.end)
	}
}

// deleteBlock removes a table header and its body, and the blank lines that
// separated it from what came before (or, at the top of the file, after).
func (e *editor) deleteBlock(h *header) {
	start, end := h.start, h.bodyEnd
	p := start
	for p > e.d.base {
		ls := max(lineStart(e.src, p-1), e.d.base)
		if strings.TrimSpace(string(e.src[ls:p])) != "" {
			break
		}
		p = ls
	}
	if p > e.d.base {
		start = p
	} else {
		for end < len(e.src) {
			le := lineEnd(e.src, end)
			if strings.TrimSpace(string(e.src[end:le])) != "" {
				break
			}
			end = le
		}
	}
	e.del(start, end)
}

// renderBlock writes [path] with t's plain keys, then each non-empty table
// value as its own [path.key] table, the way Codex itself writes. A table
// that holds only tables gets no header of its own.
func renderBlock(path []string, t Table, nl string) string {
	var blocks []string
	renderTable(&blocks, path, t, nl, true)
	return strings.Join(blocks, nl)
}

func renderTable(blocks *[]string, path []string, t Table, nl string, withHeader bool) {
	var subs, plain []Field
	for _, f := range t {
		if isSubTable(f.Value) {
			subs = append(subs, f)
		} else {
			plain = append(plain, f)
		}
	}
	if withHeader || len(plain) > 0 {
		var b strings.Builder
		b.WriteString("[" + RenderPath(path) + "]" + nl)
		for _, f := range plain {
			b.WriteString(RenderKey(f.Key) + " = " + RenderValue(f.Value) + nl)
		}
		*blocks = append(*blocks, b.String())
	}
	for _, f := range subs {
		st, _ := asTable(f.Value)
		renderTable(blocks, concat(path, []string{f.Key}), st, nl, false)
	}
}
