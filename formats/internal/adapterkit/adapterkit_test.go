package adapterkit

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/internal/yamledit"
)

func TestJoinPath(t *testing.T) {
	for _, tc := range []struct {
		goos string
		elem []string
		want string
	}{
		{"linux", []string{"/home/u/", ".codex", "config.toml"}, "/home/u/.codex/config.toml"},
		{"windows", []string{`C:\Users\u\`, "/.codex/", "config.toml"}, `C:\Users\u\.codex\config.toml`},
		{"darwin", []string{"/p"}, "/p"},
	} {
		if got := JoinPath(tc.goos, tc.elem...); got != tc.want {
			t.Errorf("JoinPath(%s, %q) = %q, want %q", tc.goos, tc.elem, got, tc.want)
		}
	}
}

func TestMergeKeepsUnchangedPartsInFileOrder(t *testing.T) {
	groups := []Group{
		{Keys: []string{"cmd", "args"}, Same: func(a, b *canonical.Server) bool { return a.Command == b.Command }},
		{Keys: []string{"url"}, Same: func(a, b *canonical.Server) bool { return a.URL == b.URL }},
	}
	old := &canonical.Server{Name: "s", Command: "npx", URL: "https://old"}
	want := &canonical.Server{Name: "s", Command: "npx", URL: "https://new"}
	raw := map[string]any{"name": "mine", "args": []any{"-y"}, "cmd": "npx", "url": "https://old", "x": 1}
	fresh := yamledit.Map{{Key: "name", Value: "s"}, {Key: "cmd", Value: "npx"}, {Key: "args", Value: []any{}}, {Key: "url", Value: "https://new"}}
	got := Merge(groups, old, want, []string{"name", "args", "cmd", "url", "x"}, raw, fresh, "name")
	wantMap := yamledit.Map{{Key: "name", Value: "mine"}, {Key: "args", Value: []any{"-y"}}, {Key: "cmd", Value: "npx"}, {Key: "url", Value: "https://new"}}
	if !reflect.DeepEqual(got, wantMap) {
		t.Errorf("got %v\nwant %v", got, wantMap)
	}
}

func TestWarnPointsAtTheServersOrigin(t *testing.T) {
	w := Warnings{File: "/f.yaml"}
	w.Warn(&canonical.Server{Name: "a"}, "cwd", "no %s", "cwd")
	w.Warn(&canonical.Server{Name: "b", Origin: canonical.Pos{File: "/store.hcl", Line: 3, Column: 1}}, "env.K", "dropped")
	if got := fmt.Sprint(w.Diags[0].Pos(), " ", w.Diags[1].Pos()); got != "/f.yaml /store.hcl:3:1" {
		t.Errorf("positions %s", got)
	}
	if d := w.Diags[0]; d.Severity != canonical.Warning || d.Server != "a" || d.Field != "cwd" || d.Summary != "no cwd" {
		t.Errorf("warning %+v", d)
	}
}

func TestTypedSaysWhatIsWrongInSerdesWords(t *testing.T) {
	var got []string
	get := Typed{
		M: map[string]any{
			"s": int64(1), "b": "yes", "n": "10", "u": int64(-1), "l": []any{"a", int64(2)}, "m": map[string]any{"K": "v", "N": true},
			"empty": []any{}, "null": nil,
		},
		Prefix:   "oauth.",
		Fail:     func(key, format string, args ...any) { got = append(got, key+": "+fmt.Sprintf(format, args...)) },
		Describe: func(v any) string { return fmt.Sprintf("%T `%v`", v, v) },
	}
	if _, ok := get.Str("s"); ok {
		t.Error("Str of an integer is ok")
	}
	if _, ok := get.Bool("b"); ok {
		t.Error("Bool of a string is ok")
	}
	if _, ok := get.Number("n", "f64"); ok {
		t.Error("Number of a string is ok")
	}
	if _, ok := get.Uint("u"); ok {
		t.Error("Uint of -1 is ok")
	}
	if l := get.StrList("l"); !reflect.DeepEqual(l, []string{"a"}) {
		t.Errorf("StrList = %q", l)
	}
	if m, ok := get.StrMap("m"); !ok || !reflect.DeepEqual(m, map[string]string{"K": "v"}) {
		t.Errorf("StrMap = %v, %v", m, ok)
	}
	if l := get.StrList("empty"); l == nil || len(l) != 0 {
		t.Errorf("StrList of [] = %#v, want empty, not nil", l)
	}
	if l, m := get.StrList("null"), get.StrList("absent"); l != nil || m != nil {
		t.Errorf("StrList of null, absent = %#v, %#v", l, m)
	}
	want := []string{
		"oauth.s: invalid type: int64 `1`, expected a string",
		"oauth.b: invalid type: string `yes`, expected a boolean",
		"oauth.n: invalid type: string `10`, expected f64",
		"oauth.u: invalid value: integer `-1`, expected u64",
		"oauth.l: invalid type: int64 `2`, expected a string",
		"oauth.m.N: invalid type: bool `true`, expected a string",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRefusals(t *testing.T) {
	ds := canonical.Diagnostics{canonical.Errorf("bad"), canonical.Warnf("meh")}
	out := Broken("", "config.toml", "Codex refuses to load", ds)
	if len(out) != 2 || out[1].Summary != "config.toml has errors; mcpsync does not edit a file Codex refuses to load" {
		t.Errorf("Broken = %v", out)
	}
	unverified := errors.New("edit refused")
	d := EditRefused("/c.toml", "config.toml", fmt.Errorf("%w: the section moved", unverified), unverified, "risky")
	if d.Summary != "cannot edit /c.toml safely: the section moved" || d.Detail != "risky" || d.File != "/c.toml" {
		t.Errorf("EditRefused = %+v", d)
	}
	if d := EditRefused("/c.toml", "config.toml", errors.New("disk"), unverified, "risky"); d.Detail != "nothing was written" {
		t.Errorf("EditRefused of another error: %+v", d)
	}
}

func TestRemoveEmptySection(t *testing.T) {
	loc := formats.Location{Path: "/c.yaml"}
	s := YAMLSection{Key: "extensions", Kind: yaml.MappingNode, Client: "Goose"}
	out, removed, ds := s.RemoveEmpty(loc, []byte("x: 1\nextensions: {}\n"), 1)
	if !removed || string(out) != "x: 1\n" || len(ds) > 0 {
		t.Errorf("got %q, %v, %v", out, removed, ds)
	}
	for _, tc := range []struct {
		data string
		n    int
		loc  formats.Location
	}{
		{"x: 1\nextensions: {} # mine\n", 1, loc},
		{"extensions:\n  a: {}\n", 1, loc},
		{"x: 1\nextensions: {}\n", 0, loc},
		{"x: 1\nextensions: {}\n", 1, formats.Location{Path: "/c.yaml", ReadOnly: true}},
		{"x: [\n", 1, loc},
	} {
		out, removed, _ := s.RemoveEmpty(tc.loc, []byte(tc.data), tc.n)
		if removed || string(out) != tc.data {
			t.Errorf("%q (n=%d): removed %v, %q", tc.data, tc.n, removed, out)
		}
	}
	for data, want := range map[string]int{"x: 1\n": 1, "": 1, "extensions: {}\n": 0, "x: [\n": 0, "- a\n": 0} {
		if got := s.MissingKeys([]byte(data)); got != want {
			t.Errorf("MissingKeys(%q) = %d, want %d", data, got, want)
		}
	}
}

func TestSectionEditSteps(t *testing.T) {
	have := canonical.Set{Servers: []canonical.Server{
		{Name: "same", Transport: canonical.Stdio, Command: "a"},
		{Name: "changed", Transport: canonical.Stdio, Command: "a"},
		{Name: "refused", Transport: canonical.Stdio, Command: "a"},
	}}
	want := canonical.Set{Servers: []canonical.Server{
		{Name: "same", Command: "a"},
		{Name: "changed", Command: "b"},
		{Name: "refused", URL: "https://r", Transport: canonical.SSE},
		{Name: "new", URL: "https://n"},
	}}
	w := Warnings{File: "/f"}
	var edited []string
	edit := SectionEdit[string]{
		Warnings: &w, Client: "c", Have: have, Pinned: []string{"pinned"}, Duplicate: "rename one",
		Refuse: func(srv canonical.Server) *canonical.Diagnostic {
			if srv.Transport == canonical.SSE {
				return w.Warn(&srv, "transport", "no SSE")
			}
			return nil
		},
		Keep: func(name string) string { return "kept " + name },
		Render: func(srv canonical.Server, old *canonical.Server) string {
			return fmt.Sprintf("%s from %v", srv.Name, old != nil)
		},
		Edit: func(entries []string) ([]byte, error) {
			edited = entries
			return []byte("edited"), nil
		},
		FileName: "f", Unverified: errors.New("edit refused"), Risk: "risky",
	}
	out, ds := edit.Run([]byte("data"), want)
	wantEntries := []string{"pinned", "kept same", "changed from true", "kept refused", "new from false"}
	if string(out) != "edited" || !reflect.DeepEqual(edited, wantEntries) {
		t.Errorf("Run = %q, entries %q; want %q", out, edited, wantEntries)
	}
	if len(ds) != 1 || ds[0].Detail != "; the entry already in the file is left as it is" {
		t.Errorf("diagnostics %v", ds)
	}

	// A name given twice, or a server that is not valid, and nothing is
	// edited.
	w.Diags, edited = nil, nil
	bad := canonical.Set{Servers: []canonical.Server{{Name: "new", URL: "https://n"}, {Name: "new", URL: "https://n"}, {Name: "empty"}}}
	out, ds = edit.Run([]byte("data"), bad)
	if string(out) != "data" || edited != nil || len(ds.Errors()) != 2 || ds[0].Detail != "rename one" {
		t.Errorf("Run of a bad set = %q, %v (edited %q)", out, ds, edited)
	}

	// The editor refuses: data comes back, with the editor's reason.
	w.Diags = nil
	edit.Edit = func([]string) ([]byte, error) { return nil, fmt.Errorf("%w: moved", edit.Unverified) }
	out, ds = edit.Run([]byte("data"), want)
	if string(out) != "data" || len(ds) != 2 || ds[1].Summary != "cannot edit /f safely: moved" || ds[1].Detail != "risky" {
		t.Errorf("Run with a refused edit = %q, %v", out, ds)
	}
}

func TestYAMLSectionRead(t *testing.T) {
	s := YAMLSection{Key: "servers", Kind: yaml.SequenceNode, SyntaxDetail: "fix it", NotMappingDetail: "map it",
		WrongKind: "servers is not a list", WrongKindDetail: "list them"}
	for _, tc := range []struct {
		data, want string
		doc, node  bool
	}{
		{"servers: [\n", "/c.yaml:1:1: error: invalid YAML: did not find expected node content (fix it)", false, false},
		{"- a\n", "/c.yaml:1:1: error: the file is not a YAML mapping (map it)", true, false},
		{"x: 1\n", "", true, false},
		{"servers:\n", "", true, false},
		{"x: 1\nservers: {}\n", "/c.yaml:2:10: error: servers is not a list (list them)", true, false},
		{"servers: []\n", "", true, true},
	} {
		doc, node, diags := s.Read("/c.yaml", []byte(tc.data))
		var got []string
		for _, d := range diags.Diags {
			got = append(got, fmt.Sprintf("%s: %s: %s (%s)", d.Pos(), d.Severity, d.Summary, d.Detail))
		}
		if strings.Join(got, "\n") != tc.want || (doc != nil) != tc.doc || (node != nil) != tc.node || diags.File != "/c.yaml" {
			t.Errorf("Read(%q) = doc %v, node %v, %q; want doc %v, node %v, %q", tc.data, doc != nil, node != nil, got, tc.doc, tc.node, tc.want)
		}
	}
}
