package jsonedit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/tailscale/hujson"
)

// seedFiles returns the inputs of the golden client cases and, when
// ../shared is there, every JSON file of the wild corpus.
func seedFiles(t testing.TB) [][]byte {
	var out [][]byte
	cases, _ := filepath.Glob("../../testdata/clients/*/*.txtar")
	for _, c := range cases {
		a, err := txtar.ParseFile(c)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasPrefix(f.Name, "input") && !strings.HasSuffix(f.Name, ".toml") {
				out = append(out, f.Data)
			}
		}
	}
	wild, _ := filepath.Glob("../../../shared/corpus/wild/*/*")
	for _, w := range wild {
		if strings.HasSuffix(w, ".json") || strings.HasSuffix(w, ".jsonc") {
			if b, err := os.ReadFile(w); err == nil && len(b) < 64<<10 {
				out = append(out, b)
			}
		}
	}
	return out
}

// FuzzEdit checks the editing properties on any input: no panic, the output
// parses, bytes outside the edit are the input's, the result means what the
// edit asked for, and setting a value to itself changes nothing.
func FuzzEdit(f *testing.F) {
	for _, s := range seedFiles(f) {
		f.Add(s, uint8(0), uint16(1), "new")
		f.Add(s, uint8(1), uint16(3), "x/y~z")
		f.Add(s, uint8(2), uint16(2), "")
		f.Add(s, uint8(3), uint16(5), "added.name")
	}
	f.Add([]byte("{\"a\": {\"b\": 1, // c\n}}"), uint8(2), uint16(1), "")
	f.Add([]byte("\ufeff{\r\n\t\"a\": {}\r\n}"), uint8(3), uint16(1), "n")
	f.Fuzz(func(t *testing.T, in []byte, op uint8, pick uint16, name string) {
		if len(in) > 64<<10 || !utf8.ValidString(name) {
			return // a JSON string cannot hold invalid UTF-8: it is written as U+FFFD
		}
		d, err := Parse(in)
		if err != nil {
			if _, ok := err.(*SyntaxError); !ok {
				t.Fatalf("error is %T, not *SyntaxError", err)
			}
			return
		}
		objects := objectPaths(d)
		if len(objects) == 0 {
			return
		}
		path := objects[int(pick)%len(objects)]
		obj := d.Find(path...)
		members := obj.Members()
		before := semantic(t, in)
		dup := hasDuplicates(obj)
		switch op % 6 {
		case 0: // set a member to what it already is
			if len(members) == 0 {
				return
			}
			m := members[int(pick)%len(members)]
			if dup {
				return
			}
			mustOK(t, d.Set(append(path, m.Name), m.Value.JSON()))
			out := mustBytes(t, d)
			if !bytes.Equal(out, in) {
				t.Fatalf("setting %q to its own value changed the text:\n%s\n----\n%s", m.Name, in, out)
			}
		case 1: // replace a member's value
			if len(members) == 0 || dup {
				return
			}
			m := members[int(pick)%len(members)]
			start, end := m.Value.Offset(), m.Value.End()
			mustOK(t, d.Set(append(path, m.Name), name))
			out := mustBytes(t, d)
			if !bytes.HasPrefix(out, in[:start]) || !bytes.HasSuffix(out, in[end:]) {
				t.Fatalf("bytes outside the replaced value changed:\n%s\n----\n%s", in, out)
			}
			setIn(before, append(path, m.Name), name)
			sameMeaning(t, out, before)
		case 2: // delete a member
			if len(members) == 0 || dup {
				return
			}
			m := members[int(pick)%len(members)]
			ok, err := d.Delete(append(path, m.Name))
			mustOK(t, err)
			if !ok {
				t.Fatalf("Delete did not find %q", m.Name)
			}
			out := mustBytes(t, d)
			if !isSubsequence(out, in) {
				t.Fatalf("delete did more than cut bytes:\n%s\n----\n%s", in, out)
			}
			deleteIn(before, append(path, m.Name))
			sameMeaning(t, out, before)
		case 3: // add a member
			if obj.memberIndex(name) >= 0 || dup {
				return
			}
			v := Object{{"command", name}, {"args", []string{"-y", name}}, {"env", map[string]string{"K": name}}}
			mustOK(t, d.Set(append(path, name), v))
			out := mustBytes(t, d)
			if !isSubsequence(in, out) {
				t.Fatalf("adding a member did more than insert bytes:\n%s\n----\n%s", in, out)
			}
			setIn(before, append(path, name), map[string]any{"command": name, "args": []any{"-y", name}, "env": map[string]any{"K": name}})
			sameMeaning(t, out, before)
			if comment, comma := d.Extension(); (comment >= 0) != hasComment(in) || (comma >= 0 && !hasTrailingComma(in)) {
				t.Fatalf("adding a member introduced a comment or trailing comma:\n%s", out)
			}
		case 4, 5: // add or delete an array element
			arrays := arrayPaths(d)
			if len(arrays) == 0 {
				return
			}
			ap := arrays[int(pick)%len(arrays)]
			arr := d.Find(ap...)
			if hasDuplicates(d.Find(ap[:len(ap)-1]...)) {
				return
			}
			got := semanticAt(before, ap)
			list, ok := got.([]any)
			if !ok {
				return
			}
			if op%6 == 4 {
				mustOK(t, d.AppendElements(ap, name))
				out := mustBytes(t, d)
				if !isSubsequence(in, out) {
					t.Fatalf("adding an element did more than insert bytes:\n%s\n----\n%s", in, out)
				}
				setIn(before, ap, append(list, name))
				sameMeaning(t, out, before)
				return
			}
			if arr.Len() == 0 {
				return
			}
			i := int(pick) % arr.Len()
			ok, err := d.DeleteElement(ap, i)
			mustOK(t, err)
			if !ok {
				t.Fatalf("DeleteElement did not find element %d", i)
			}
			out := mustBytes(t, d)
			if !isSubsequence(out, in) {
				t.Fatalf("delete did more than cut bytes:\n%s\n----\n%s", in, out)
			}
			setIn(before, ap, append(append([]any{}, list[:i]...), list[i+1:]...))
			sameMeaning(t, out, before)
		}
	})
}

func hasComment(in []byte) bool {
	d, _ := Parse(in)
	c, _ := d.Extension()
	return c >= 0
}

func hasTrailingComma(in []byte) bool {
	d, _ := Parse(in)
	_, c := d.Extension()
	return c >= 0
}

// objectPaths lists the paths of every object in the document, the top first.
func objectPaths(d *Doc) [][]string {
	var out [][]string
	var walk func(n Node, path []string)
	walk = func(n Node, path []string) {
		if n.Kind() != KindObject || len(out) > 200 {
			return
		}
		out = append(out, path)
		seen := map[string]bool{}
		for _, m := range n.Members() {
			if !seen[m.Name] {
				seen[m.Name] = true
				walk(n.Get(m.Name), append(append([]string(nil), path...), m.Name))
			}
		}
	}
	walk(d.Root(), nil)
	return out
}

// arrayPaths lists the paths of arrays held by object members.
func arrayPaths(d *Doc) [][]string {
	var out [][]string
	for _, p := range objectPaths(d) {
		for _, m := range d.Find(p...).Members() {
			if m.Value.Kind() == KindArray {
				out = append(out, append(append([]string(nil), p...), m.Name))
			}
		}
	}
	return out
}

func semanticAt(v any, path []string) any {
	for _, name := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[name]
	}
	return v
}

func hasDuplicates(n Node) bool {
	seen := map[string]bool{}
	for _, m := range n.Members() {
		if seen[m.Name] {
			return true
		}
		seen[m.Name] = true
	}
	return false
}

func mustOK(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func mustBytes(t *testing.T, d *Doc) []byte {
	t.Helper()
	out, err := d.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := hujson.Parse(bytes.TrimPrefix(out, bom)); err != nil {
		t.Fatalf("output does not parse: %v\n%s", err, out)
	}
	return out
}

func semantic(t *testing.T, b []byte) any {
	t.Helper()
	std, err := hujson.Standardize(append([]byte(nil), bytes.TrimPrefix(b, bom)...))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(std, &v); err != nil {
		return nil // invalid UTF-8 or the like: json and hujson disagree; skip
	}
	return v
}

func sameMeaning(t *testing.T, out []byte, want any) {
	t.Helper()
	if want == nil {
		return
	}
	if got := semantic(t, out); !reflect.DeepEqual(got, want) {
		gj, _ := json.Marshal(got)
		wj, _ := json.Marshal(want)
		t.Fatalf("the result means\n%s\nwant\n%s\ntext:\n%s", gj, wj, out)
	}
}

func setIn(v any, path []string, x any) {
	m, ok := v.(map[string]any)
	for ok && len(path) > 1 {
		m, ok = m[path[0]].(map[string]any)
		path = path[1:]
	}
	if ok {
		m[path[0]] = x
	}
}

func deleteIn(v any, path []string) {
	m, ok := v.(map[string]any)
	for ok && len(path) > 1 {
		m, ok = m[path[0]].(map[string]any)
		path = path[1:]
	}
	if ok {
		delete(m, path[0])
	}
}

// isSubsequence reports whether short can be had by cutting bytes out of long.
func isSubsequence(short, long []byte) bool {
	i := 0
	for j := 0; j < len(long) && i < len(short); j++ {
		if long[j] == short[i] {
			i++
		}
	}
	return i == len(short)
}
