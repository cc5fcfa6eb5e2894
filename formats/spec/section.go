package spec

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"

	"github.com/tailscale/hujson"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/jsonedit"
)

var _ formats.SectionRemover = (*Adapter)(nil)

// MissingKeys implements formats.SectionRemover: how many keys of the
// server path ("mcpServers", or "projects", dir, "mcpServers") the file
// lacks, from the innermost.
func (a *Adapter) MissingKeys(loc formats.Location, data []byte) int {
	t, d := a.resolve(loc)
	if d != nil || len(t.servers) == 0 {
		return 0
	}
	doc, err := jsonedit.Parse(data)
	if err != nil {
		return 0
	}
	if doc.IsEmpty() {
		return len(t.servers) + 1 // the top-level object too
	}
	for i, key := range t.servers {
		parent := doc.Find(t.servers[:i]...)
		if parent.Kind() != jsonedit.KindObject {
			return 0 // Encode refuses such a file: nothing to add or remove
		}
		if !parent.Get(key).Valid() {
			return len(t.servers) - i
		}
	}
	return 0
}

// RemoveEmptyKeys implements formats.SectionRemover. Of the n innermost
// keys of the server path, the outermost that holds only the path below it
// goes, cut with its comma and the rest of its line, as jsonedit deletes a
// member; Encode appended it after the last member the same way, so the
// file is back to its bytes before.
func (a *Adapter) RemoveEmptyKeys(loc formats.Location, data []byte, n int) ([]byte, canonical.Diagnostics) {
	t, d := a.resolve(loc)
	if d != nil {
		return data, canonical.Diagnostics{d}
	}
	if loc.ReadOnly || n <= 0 || len(t.servers) == 0 {
		return data, nil
	}
	doc, diags := a.parse(t, data)
	if diags.HasErrors() {
		return data, diags
	}
	if n > len(t.servers) {
		if out, ok := a.removeRoot(loc, doc, data); ok {
			return out, nil
		}
	}
	n = min(n, len(t.servers))
	for i := len(t.servers) - n; i < len(t.servers); i++ {
		key := t.servers[:i+1]
		if !onlyPath(doc.Find(key...), t.servers[i+1:]) {
			continue
		}
		out, _, diags := removeMember(loc, doc, key, data)
		return out, diags
	}
	return data, nil
}

// removeMember cuts the member at path out of data as jsonedit deletes a
// member, with its comma and the rest of its line; Encode appended it after
// the last member the same way, so the file is back to its bytes before.
// When the rest of the line holds a comment, which is the user's, only the
// member goes, or (ok false) nothing.
func removeMember(loc formats.Location, doc *jsonedit.Doc, path []string, data []byte) (out []byte, ok bool, diags canonical.Diagnostics) {
	// The member alone, with its comma: what Encode inserted when it
	// appended the key on the line of the member before it.
	inline := cutMember(doc, path, data)
	if _, err := doc.Delete(slices.Clone(path)); err != nil {
		return data, false, canonical.Diagnostics{canonical.Errorf("%s: %v", loc.Path, err)}
	}
	out, err := doc.Bytes()
	if err != nil {
		return data, false, canonical.Diagnostics{canonical.Errorf("%s: %v", loc.Path, err)}
	}
	if comments(out) != comments(data) {
		// jsonedit cuts the rest of the key's line, and a comment there is
		// the user's: cut the member alone, or keep it.
		if inline == nil || comments(inline) != comments(data) {
			return data, false, nil
		}
		if _, err := jsonedit.Parse(inline); err != nil {
			return data, false, nil
		}
		out = inline
	}
	return out, true, nil
}

var _ formats.SideKeyRemover = (*Adapter)(nil)

// sideKeys are the keys beside the server map that the client's hooks may
// add (SideKeys), or none.
func (a *Adapter) sideKeys() []string {
	if h, ok := a.hooks.(SideKeys); ok {
		return h.SideKeys()
	}
	return nil
}

// AddedSideKeys implements formats.SideKeyRemover for the keys the hooks
// name (SideKeys): those after has beside the server map and before lacks.
func (a *Adapter) AddedSideKeys(loc formats.Location, before, after []byte) []string {
	keys := a.sideKeys()
	if len(keys) == 0 || bytes.Equal(before, after) {
		return nil
	}
	t, d := a.resolve(loc)
	if d != nil || len(t.servers) == 0 {
		return nil
	}
	parent := t.servers[:len(t.servers)-1]
	var docAfter, docBefore *jsonedit.Doc
	var added []string
	for _, k := range keys {
		if !bytes.Contains(after, []byte(strconv.Quote(k))) {
			continue // not there, without parsing the file
		}
		if docAfter == nil {
			var err error
			if docAfter, err = jsonedit.Parse(after); err != nil {
				return nil
			}
			docBefore, _ = jsonedit.Parse(before) // nil: no file, or one Encode refused
		}
		path := append(slices.Clone(parent), k)
		if !docAfter.Find(path...).Valid() {
			continue
		}
		if docBefore != nil && docBefore.Find(path...).Valid() {
			continue
		}
		added = append(added, k)
	}
	return added
}

// RemoveEmptySideKeys implements formats.SideKeyRemover: a side key whose
// value is an empty array or object, with no comment, goes as
// RemoveEmptyKeys takes a key out.
func (a *Adapter) RemoveEmptySideKeys(loc formats.Location, data []byte, keys []string) ([]byte, []string, canonical.Diagnostics) {
	t, d := a.resolve(loc)
	if d != nil {
		return data, nil, canonical.Diagnostics{d}
	}
	if loc.ReadOnly || len(keys) == 0 || len(t.servers) == 0 {
		return data, nil, nil
	}
	parent := t.servers[:len(t.servers)-1]
	var gone []string
	for _, k := range keys {
		doc, diags := a.parse(t, data)
		if diags.HasErrors() {
			return data, gone, diags
		}
		path := append(slices.Clone(parent), k)
		n := doc.Find(path...)
		switch {
		case !n.Valid():
			gone = append(gone, k)
			continue
		case n.Kind() != jsonedit.KindArray && n.Kind() != jsonedit.KindObject, n.Len() > 0, hasComment(n.Raw()):
			continue
		}
		out, ok, diags := removeMember(loc, doc, path, data)
		if diags.HasErrors() {
			return data, gone, diags
		}
		if ok {
			data = out
			gone = append(gone, k)
		}
	}
	return data, gone, nil
}

// cutMember returns data without the member at path: from its name to the
// end of its value and the comma after it, or nil.
func cutMember(doc *jsonedit.Doc, path []string, data []byte) []byte {
	parent := doc.Find(path[:len(path)-1]...)
	var m *jsonedit.Member
	for _, x := range parent.Members() {
		if x.Name == path[len(path)-1] {
			m = &x
		}
	}
	if m == nil {
		return nil
	}
	start, end := m.Key.Offset(), m.Value.End()
	j := end
	for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
		j++
	}
	if j < len(data) && data[j] == ',' {
		end = j + 1
	} else {
		return nil // the last member without a comma: the comma before it would have to go
	}
	return append(append([]byte{}, data[:start]...), data[end:]...)
}

// removeRoot undoes Encode's first write into a file that held no value
// (blank, or comments only): the top-level object it wrote goes, with the
// line break it put before it, when it holds nothing but the empty server
// map (and the keys a new file gets, such as OpenCode's "$schema"). It
// works out what the file held before and checks that writing a server
// into that and removing it again gives data back. A blank file is empty
// again.
func (a *Adapter) removeRoot(loc formats.Location, doc *jsonedit.Doc, data []byte) ([]byte, bool) {
	root := doc.Root()
	if !root.Valid() || len(bytes.TrimSpace(data[root.End():])) > 0 {
		return nil, false
	}
	before := []byte{}
	if pre := data[:root.Offset()]; len(bytes.TrimSpace(pre)) > 0 {
		pre = bytes.TrimSuffix(bytes.TrimSuffix(pre, []byte("\n")), []byte("\r"))
		before = append(append(before, pre...), data[root.End():]...)
	}
	one := canonical.Set{Servers: []canonical.Server{{Name: "x", Transport: canonical.Stdio, Command: "x"}}}
	with, ds := a.Encode(loc, before, one, formats.EncodeOptions{})
	if ds.HasErrors() {
		return nil, false
	}
	again, ds := a.Encode(loc, with, canonical.Set{}, formats.EncodeOptions{})
	if ds.HasErrors() {
		return nil, false
	}
	if len(before) == 0 {
		// Blank before: its blanks are gone (Encode writes its own), so
		// the object must only say the same.
		return before, sameJSON(again, data)
	}
	return before, bytes.Equal(again, data)
}

// sameJSON reports whether two JSONC texts hold the same value.
func sameJSON(a, b []byte) bool {
	var va, vb any
	sa, err1 := hujson.Standardize(bytes.Clone(a))
	sb, err2 := hujson.Standardize(bytes.Clone(b))
	if err1 != nil || err2 != nil || json.Unmarshal(sa, &va) != nil || json.Unmarshal(sb, &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// onlyPath reports whether n is an object that holds nothing but rest: the
// next key of the path alone, down to an empty object, with no comment.
func onlyPath(n jsonedit.Node, rest []string) bool {
	if n.Kind() != jsonedit.KindObject || hasComment(n.Raw()) {
		return false
	}
	if len(rest) == 0 {
		return n.Len() == 0
	}
	ms := n.Members()
	return len(ms) == 1 && ms[0].Name == rest[0] && onlyPath(ms[0].Value, rest[1:])
}

// hasComment reports whether JSONC text holds a comment.
func hasComment(b []byte) bool { return comments(b) > 0 }

// comments counts the comments of JSONC text: outside strings, a '/'
// starts one and can start nothing else.
func comments(b []byte) int {
	n := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case '/':
			n++
			if i+1 < len(b) && b[i+1] == '/' {
				for i < len(b) && b[i] != '\n' {
					i++
				}
			} else if j := bytes.Index(b[i+1:], []byte("*/")); j >= 0 {
				i += j + 2
			}
		}
	}
	return n
}

var (
	_ formats.SectionRemover = (*lazyAdapter)(nil)
	_ formats.SideKeyRemover = (*lazyAdapter)(nil)
)

// AddedSideKeys implements formats.SideKeyRemover.
func (l *lazyAdapter) AddedSideKeys(loc formats.Location, before, after []byte) []string {
	return l.get().AddedSideKeys(loc, before, after)
}

// RemoveEmptySideKeys implements formats.SideKeyRemover.
func (l *lazyAdapter) RemoveEmptySideKeys(loc formats.Location, data []byte, keys []string) ([]byte, []string, canonical.Diagnostics) {
	return l.get().RemoveEmptySideKeys(loc, data, keys)
}

// MissingKeys implements formats.SectionRemover.
func (l *lazyAdapter) MissingKeys(loc formats.Location, data []byte) int {
	return l.get().MissingKeys(loc, data)
}

// RemoveEmptyKeys implements formats.SectionRemover.
func (l *lazyAdapter) RemoveEmptyKeys(loc formats.Location, data []byte, n int) ([]byte, canonical.Diagnostics) {
	return l.get().RemoveEmptyKeys(loc, data, n)
}
