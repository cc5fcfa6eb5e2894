package spec

import (
	"bytes"
	"slices"

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
		return len(t.servers)
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
	n = min(n, len(t.servers))
	doc, diags := a.parse(t, data)
	if diags.HasErrors() {
		return data, diags
	}
	for i := len(t.servers) - n; i < len(t.servers); i++ {
		key := t.servers[:i+1]
		if !onlyPath(doc.Find(key...), t.servers[i+1:]) {
			continue
		}
		if _, err := doc.Delete(slices.Clone(key)); err != nil {
			return data, canonical.Diagnostics{canonical.Errorf("%s: %v", loc.Path, err)}
		}
		out, err := doc.Bytes()
		if err != nil {
			return data, canonical.Diagnostics{canonical.Errorf("%s: %v", loc.Path, err)}
		}
		if comments(out) != comments(data) {
			return data, nil // a comment on the key's line is the user's: the key stays
		}
		return out, nil
	}
	return data, nil
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

var _ formats.SectionRemover = (*lazyAdapter)(nil)

// MissingKeys implements formats.SectionRemover.
func (l *lazyAdapter) MissingKeys(loc formats.Location, data []byte) int {
	return l.get().MissingKeys(loc, data)
}

// RemoveEmptyKeys implements formats.SectionRemover.
func (l *lazyAdapter) RemoveEmptyKeys(loc formats.Location, data []byte, n int) ([]byte, canonical.Diagnostics) {
	return l.get().RemoveEmptyKeys(loc, data, n)
}
