// Package formatstest is the conformance suite every client adapter passes.
//
// Run drives golden cases, testdata/clients/<client-id>/*.txtar, each a
// txtar archive with these sections (only the input is required):
//
//	-- location.json --        {"scope": "local", "project": "/p", "path": "/p/.mcp.json"}: where the input lives
//	-- input.json --           the file as a user has it (any name starting with "input"; absent: no file yet;
//	                           a name holding ".crlf" is read with CRLF line endings)
//	-- want.canonical.json --  what Decode must return
//	-- want.diags --           Decode's diagnostics, one per line
//	-- options.json --         EncodeOptions for the edit: {"OS": "windows", "BridgeRemote": true}
//	-- edit.canonical.json --  a wanted set to Encode into the input
//	-- want.edited.json --     the bytes Encode must produce (any name starting with "want.edited")
//	-- want.edit.diags --      Encode's diagnostics
//
// UPDATE_GOLDEN=1 (or -update, when the test binary defines that flag)
// rewrites the want sections from what the adapter does; review the diff.
//
// Besides the goldens, every case checks the properties the design asks of
// every adapter: Decode never panics and puts errors at a line; Encode of
// what Decode read gives the input back byte for byte; encoding twice
// changes nothing; changing one server changes no byte outside its entry
// and keeps its unknown keys; a missing or empty file gets minimal valid
// content; names that need escaping somewhere (a/b, x~y, dot.name, space
// name, non-ASCII) round-trip; a malformed file gives diagnostics with a
// line; and what Encode writes decodes back to what was wanted, except for
// fields a warning names.
package formatstest

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"go.yaml.in/yaml/v3"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

// Env is the machine the suite pretends to run on.
var Env = formats.Env{Home: "/home/user", ProjectDir: "/work/project", OS: "linux"}

// An Option changes what Run checks.
type Option func(*config)

type config struct {
	loc  *formats.Location
	skip map[string]string
}

// WithLocation makes the cases' default location loc instead of the
// adapter's first writable location on Env.
func WithLocation(loc formats.Location) Option { return func(c *config) { c.loc = &loc } }

// Unimplementable opts out of a property, with the reason, for an adapter
// that truly cannot have it (rclone's Unimplementable*). Properties:
// "identity", "idempotent", "one-change", "new-file", "names", "malformed".
func Unimplementable(property, reason string) Option {
	return func(c *config) { c.skip[property] = reason }
}

func newConfig(opts []Option) *config {
	c := &config{skip: map[string]string{}}
	for _, o := range opts {
		o(c)
	}
	return c
}

// EntrySpanner is implemented by adapters that can say which bytes hold one
// server's entry; the one-change property then checks exactly that no byte
// outside it moved. Other adapters are checked line-wise from Origin.
type EntrySpanner interface {
	EntrySpan(loc formats.Location, data []byte, name string) (start, end int, ok bool)
}

func updating() bool {
	if os.Getenv("UPDATE_GOLDEN") != "" {
		return true
	}
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// DefaultLocation is where cases of a adapter live unless they say otherwise:
// its first writable location on Env.
func DefaultLocation(a formats.Adapter) formats.Location {
	for _, l := range a.Locations(Env) {
		if !l.ReadOnly {
			return l
		}
	}
	return formats.Location{Client: a.ID(), Scope: canonical.ScopeUser, Path: "/home/user/" + a.ID() + ".json"}
}

// Run runs every case of caseDir (testdata/clients/<id>) against a, then the
// properties that need no case.
func Run(t *testing.T, a formats.Adapter, caseDir string, opts ...Option) {
	t.Helper()
	c := newConfig(opts)
	base := DefaultLocation(a)
	if c.loc != nil {
		base = *c.loc
	}
	files, err := filepath.Glob(filepath.Join(caseDir, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases in %s: write at least one (see package formatstest)", caseDir)
	}
	var inputs [][]byte
	for _, f := range files {
		t.Run(strings.TrimSuffix(filepath.Base(f), ".txtar"), func(t *testing.T) {
			in := runCase(t, c, a, base, f)
			inputs = append(inputs, in)
		})
	}
	t.Run("new-file", func(t *testing.T) { skipIf(t, c, "new-file"); checkNewFile(t, a, base) })
	t.Run("names", func(t *testing.T) { skipIf(t, c, "names"); checkNames(t, a, base) })
	t.Run("malformed", func(t *testing.T) { skipIf(t, c, "malformed"); checkMalformed(t, a, base, inputs) })
}

func skipIf(t *testing.T, c *config, property string) {
	t.Helper()
	if why, ok := c.skip[property]; ok {
		t.Skipf("%s: unimplementable for this adapter: %s", property, why)
	}
}

// safe calls f and turns a panic into a test failure that names the input.
func safe(t *testing.T, what string, data []byte, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("%s panicked: %v\ninput:\n%s", what, r, data)
		}
	}()
	f()
}

func decode(t *testing.T, a formats.Adapter, loc formats.Location, data []byte) (set canonical.Set, diags canonical.Diagnostics) {
	t.Helper()
	safe(t, "Decode", data, func() { set, diags = a.Decode(loc, data) })
	for _, d := range diags.Errors() {
		if d.Line <= 0 || d.File == "" {
			t.Errorf("Decode error without file:line: %v", d)
		}
	}
	return set, diags
}

func encode(t *testing.T, a formats.Adapter, loc formats.Location, data []byte, want canonical.Set, opts formats.EncodeOptions) (out []byte, diags canonical.Diagnostics) {
	t.Helper()
	safe(t, "Encode", data, func() { out, diags = a.Encode(loc, data, want, opts) })
	return out, diags
}

type caseFile struct {
	path string
	ar   *txtar.Archive
}

func (c *caseFile) section(prefix string) (*txtar.File, bool) {
	for i := range c.ar.Files {
		if strings.HasPrefix(c.ar.Files[i].Name, prefix) {
			return &c.ar.Files[i], true
		}
	}
	return nil, false
}

// golden compares got with the section name, or rewrites it when updating.
func (c *caseFile) golden(t *testing.T, name string, got []byte, dirty *bool) {
	t.Helper()
	f, ok := c.section(name)
	if updating() {
		if ok {
			if !bytes.Equal(f.Data, got) {
				f.Data = got
				*dirty = true
			}
		} else if len(got) > 0 {
			c.ar.Files = append(c.ar.Files, txtar.File{Name: name, Data: got})
			*dirty = true
		}
		return
	}
	if !ok {
		if len(got) > 0 && !strings.HasSuffix(name, ".diags") {
			t.Errorf("%s: no %s section; run with UPDATE_GOLDEN=1 to record:\n%s", c.path, name, got)
		} else if len(got) > 0 {
			t.Errorf("%s: unexpected diagnostics (no %s section):\n%s", c.path, name, got)
		}
		return
	}
	if !bytes.Equal(f.Data, got) {
		t.Errorf("%s: %s differs\n--- want\n%s\n--- got\n%s", c.path, name, f.Data, got)
	}
}

// CanonicalJSON renders a set the way the goldens hold it.
func CanonicalJSON(set canonical.Set) []byte {
	if set.Servers == nil {
		set.Servers = []canonical.Server{}
	}
	b, err := json.MarshalIndent(set, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// FormatDiags renders diagnostics one per line without the file name,
// which depends on where the suite runs.
func FormatDiags(ds canonical.Diagnostics) []byte {
	var b bytes.Buffer
	for _, d := range ds {
		if d.Line > 0 {
			fmt.Fprintf(&b, "%d:%d: ", d.Line, d.Column)
		}
		fmt.Fprintf(&b, "%s:", d.Severity)
		if d.Server != "" {
			fmt.Fprintf(&b, " [%s", d.Server)
			if d.Field != "" {
				fmt.Fprintf(&b, " %s", d.Field)
			}
			b.WriteString("]")
		}
		fmt.Fprintf(&b, " %s\n", d.Summary)
	}
	return b.Bytes()
}

func runCase(t *testing.T, c *config, a formats.Adapter, base formats.Location, file string) []byte {
	ar, err := txtar.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cf := &caseFile{path: file, ar: ar}
	dirty := false
	loc := base
	if f, ok := cf.section("location.json"); ok {
		loc = caseLocation(t, a, base, f.Data)
	}
	inFile, ok := cf.section("input")
	var in []byte // no input section: the file does not exist yet
	if ok {
		in = fromSection(inFile.Name, inFile.Data)
	} else {
		inFile = &txtar.File{Name: "input" + filepath.Ext(base.Path)}
	}

	got, diags := decode(t, a, loc, in)
	cf.golden(t, "want.canonical.json", CanonicalJSON(got), &dirty)
	cf.golden(t, "want.diags", FormatDiags(diags), &dirty)

	if !diags.HasErrors() && !loc.ReadOnly {
		if _, skip := c.skip["identity"]; !skip {
			checkIdentity(t, a, loc, in, got)
		}
		if _, skip := c.skip["one-change"]; !skip {
			checkOneChange(t, a, loc, in, got)
		}
	}

	if f, ok := cf.section("edit.canonical.json"); ok {
		var want canonical.Set
		if err := json.Unmarshal(f.Data, &want); err != nil {
			t.Fatalf("%s: edit.canonical.json: %v", file, err)
		}
		var opts formats.EncodeOptions
		if o, ok := cf.section("options.json"); ok {
			if err := json.Unmarshal(o.Data, &opts); err != nil {
				t.Fatalf("%s: options.json: %v", file, err)
			}
		}
		out, ediags := encode(t, a, loc, in, want, opts)
		name, shown := toSection("want.edited", filepath.Ext(inFile.Name), out)
		if w, ok := cf.section("want.edited"); ok && w.Name != name {
			if updating() {
				w.Name = name
				dirty = true // saved even when the content is the same
			} else {
				t.Errorf("%s: %s should be called %s (line endings or final newline differ)", file, w.Name, name)
			}
		}
		cf.golden(t, name, shown, &dirty)
		cf.golden(t, "want.edit.diags", FormatDiags(ediags), &dirty)
		if !ediags.HasErrors() {
			checkWritten(t, a, loc, out, want, opts, ediags)
		} else if !bytes.Equal(out, in) {
			t.Errorf("Encode reported an error but changed the bytes: nothing may be written when anything is wrong")
		}
	}
	if dirty {
		if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("updated %s", file)
	}
	return in
}

// fromSection turns a section into file bytes: a name holding ".crlf"
// means CRLF line endings, ".nonl" no final newline (txtar sections always
// end with one).
func fromSection(name string, data []byte) []byte {
	if strings.Contains(name, ".nonl") {
		data = bytes.TrimSuffix(data, []byte("\n"))
	}
	if strings.Contains(name, ".crlf") {
		data = bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n"))
	}
	return data
}

// toSection is fromSection backwards: the section name and text for bytes.
func toSection(prefix, ext string, data []byte) (string, []byte) {
	name := prefix
	if bytes.Contains(data, []byte("\r\n")) {
		name += ".crlf"
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		name += ".nonl"
		data = append(slices.Clone(data), '\n')
	}
	return name + ext, data
}

func caseLocation(t *testing.T, a formats.Adapter, base formats.Location, data []byte) formats.Location {
	var l formats.Location
	if err := json.Unmarshal(data, &l); err != nil {
		t.Fatalf("location.json: %v", err)
	}
	loc := base
	if l.Scope != "" && l.Scope != base.Scope {
		loc = formats.Location{Client: a.ID(), Scope: l.Scope}
		for _, x := range a.Locations(Env) {
			if x.Scope == l.Scope {
				loc = x
				break
			}
		}
	}
	if l.Path != "" {
		loc.Path = l.Path
	}
	if l.Project != "" {
		loc.Project = l.Project
	}
	if l.Format != "" {
		loc.Format = l.Format
	}
	loc.ReadOnly = l.ReadOnly
	return loc
}

// checkIdentity: Encode(Decode(x)) == x, without a word, and twice.
func checkIdentity(t *testing.T, a formats.Adapter, loc formats.Location, in []byte, got canonical.Set) {
	t.Helper()
	out, diags := encode(t, a, loc, in, got, formats.EncodeOptions{OS: Env.OS})
	if !bytes.Equal(out, in) {
		t.Errorf("identity: Encode(Decode(x)) != x\n--- input\n%s\n--- output\n%s", in, out)
	}
	if len(diags) > 0 {
		t.Errorf("identity: Encode(Decode(x)) said something:\n%s", FormatDiags(diags))
	}
}

// checkWritten: what Encode wrote decodes back to what was wanted (modulo
// warned fields), and encoding it again changes nothing.
func checkWritten(t *testing.T, a formats.Adapter, loc formats.Location, out []byte, want canonical.Set, opts formats.EncodeOptions, ediags canonical.Diagnostics) {
	t.Helper()
	back, bdiags := decode(t, a, loc, out)
	if bdiags.HasErrors() {
		t.Errorf("what Encode wrote does not decode:\n%s\n%s", FormatDiags(bdiags), out)
		return
	}
	diffs := Differences(want, back, a.ID())
	if un := Uncovered(diffs, ediags); len(un) > 0 {
		t.Errorf("written and read back, these changed without a warning:\n%s", joinDiffs(un))
	}
	again, _ := encode(t, a, loc, out, want, opts)
	if !bytes.Equal(again, out) {
		t.Errorf("encoding twice changed the file\n--- first\n%s\n--- second\n%s", out, again)
	}
}

func joinDiffs(ds []Difference) string {
	var s []string
	for _, d := range ds {
		s = append(s, "  "+d.String())
	}
	return strings.Join(s, "\n")
}

// mutate changes one server in a way every client can express.
func mutate(s canonical.Server) canonical.Server {
	s = s.Clone()
	if s.Transport == canonical.Stdio {
		s.Args = append(s.Args, "--mcpsync-test")
	} else {
		s.URL += "/mcpsync-test"
	}
	return s
}

// checkOneChange changes each server in turn: no byte outside its entry may
// move, the other servers decode as before, and its own unknown keys stay.
func checkOneChange(t *testing.T, a formats.Adapter, loc formats.Location, in []byte, got canonical.Set) {
	t.Helper()
	for i, s := range got.Servers {
		want := got.Clone()
		want.Servers[i] = mutate(s)
		out, diags := encode(t, a, loc, in, want, formats.EncodeOptions{OS: Env.OS})
		if diags.HasErrors() {
			t.Errorf("one-change %q: %s", s.Name, FormatDiags(diags))
			continue
		}
		if bytes.Equal(out, in) {
			if len(diags.Warnings()) == 0 {
				t.Errorf("one-change %q: nothing changed and nothing was said", s.Name)
			}
			continue
		}
		if sp, ok := a.(EntrySpanner); ok {
			start, end, ok := sp.EntrySpan(loc, in, s.Name)
			if !ok {
				t.Errorf("one-change %q: EntrySpan found no entry", s.Name)
				continue
			}
			p := commonPrefix(in, out)
			q := commonSuffix(in[p:], out[p:])
			// Compare the two ends directly: a byte diff cannot tell where
			// an insertion at the entry's end goes when the inserted text
			// starts like what follows (new lines of the same indentation).
			if !bytes.HasPrefix(out, in[:start]) || !bytes.HasSuffix(out, in[end:]) {
				t.Errorf("one-change %q: bytes outside the entry [%d,%d) changed (diff spans [%d,%d))\n--- before\n%s\n--- after\n%s",
					s.Name, start, end, p, len(in)-q, in, out)
			}
		} else if s.Origin.Line > 0 {
			p := commonPrefix(in, out)
			if line := 1 + bytes.Count(in[:p], []byte("\n")); line < s.Origin.Line {
				t.Errorf("one-change %q: line %d changed, before the entry at line %d", s.Name, line, s.Origin.Line)
			}
		}
		back, bdiags := decode(t, a, loc, out)
		if bdiags.HasErrors() {
			t.Errorf("one-change %q: the result does not decode:\n%s", s.Name, FormatDiags(bdiags))
			continue
		}
		for j, o := range got.Servers {
			b, ok := back.Get(o.Name)
			switch {
			case !ok:
				t.Errorf("one-change %q: server %q is gone", s.Name, o.Name)
			case j == i:
				if un := Uncovered(Differences(canonical.Set{Servers: []canonical.Server{want.Servers[i]}},
					canonical.Set{Servers: []canonical.Server{b}}, a.ID()), diags); len(un) > 0 {
					t.Errorf("one-change %q: read back differently:\n%s", s.Name, joinDiffs(un))
				}
			case !canonical.Equal(o, b, a.ID()):
				t.Errorf("one-change %q: server %q changed too", s.Name, o.Name)
			}
		}
	}
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func commonSuffix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[len(a)-1-n] == b[len(b)-1-n] {
		n++
	}
	return n
}

// sample is a small set every client can write.
func sample() canonical.Set {
	return canonical.Set{Servers: []canonical.Server{
		{Name: "files", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"}},
		{Name: "git", Transport: canonical.Stdio, Command: "uvx", Args: []string{"mcp-server-git"}, Env: map[string]string{"GIT_DIR": "/repo"}},
	}}
}

// checkNewFile: a missing or empty file gets minimal content that decodes
// back to the set; an empty set on a missing file writes nothing.
func checkNewFile(t *testing.T, a formats.Adapter, loc formats.Location) {
	for _, data := range [][]byte{nil, {}} {
		want := sample()
		out, diags := encode(t, a, loc, data, want, formats.EncodeOptions{OS: Env.OS})
		if diags.HasErrors() || len(out) == 0 {
			t.Fatalf("Encode into an empty file (%v): %d bytes\n%s", data == nil, len(out), FormatDiags(diags))
		}
		back, bdiags := decode(t, a, loc, out)
		if bdiags.HasErrors() {
			t.Fatalf("a new file does not decode:\n%s\n%s", FormatDiags(bdiags), out)
		}
		if d := Differences(want, back, ""); len(d) > 0 {
			t.Errorf("a new file reads back differently:\n%s\n%s", joinDiffs(d), out)
		}
		if !slices.Equal(back.Names(), want.Names()) {
			t.Errorf("a new file reads back in another order: %v", back.Names())
		}
		again, _ := encode(t, a, loc, out, want, formats.EncodeOptions{OS: Env.OS})
		if !bytes.Equal(again, out) {
			t.Errorf("encoding a new file twice changed it\n--- first\n%s\n--- second\n%s", out, again)
		}
	}
	out, diags := encode(t, a, loc, nil, canonical.Set{}, formats.EncodeOptions{OS: Env.OS})
	if len(out) != 0 || len(diags) != 0 {
		t.Errorf("no servers for a missing file wrote %q (%s)", out, FormatDiags(diags))
	}
}

// EscapingNames are server names that need escaping in a JSON pointer, a
// TOML key or a shell.
// The last two are names every client takes, so that a client with a
// rule for names (formats.NameRuler) still shows its escaping.
var EscapingNames = []string{"a/b", "x~y", "dot.name", "space name", "ünï-cødé", `q"uote`, "back\\slash", "under_score", "Dash-9"}

func checkNames(t *testing.T, a formats.Adapter, loc formats.Location) {
	var want, all canonical.Set
	var refused []string
	for _, n := range EscapingNames {
		s := canonical.Server{Name: n, Transport: canonical.Stdio, Command: "echo", Args: []string{n}}
		all.Servers = append(all.Servers, s)
		if r, ok := a.(formats.NameRuler); ok && !r.AcceptsName(n) {
			refused = append(refused, n)
			continue
		}
		want.Servers = append(want.Servers, s)
	}
	out, diags := encode(t, a, loc, nil, all, formats.EncodeOptions{OS: Env.OS})
	if diags.HasErrors() {
		t.Fatalf("Encode: %s", FormatDiags(diags))
	}
	for _, n := range refused {
		if !slices.ContainsFunc(diags, func(d *canonical.Diagnostic) bool { return d.Server == n }) {
			t.Errorf("server %q, a name %s does not take, was left out without a warning: %s", n, a.DisplayName(), FormatDiags(diags))
		}
	}
	back, bdiags := decode(t, a, loc, out)
	if bdiags.HasErrors() {
		t.Fatalf("Decode: %s\n%s", FormatDiags(bdiags), out)
	}
	if !slices.Equal(back.Names(), want.Names()) {
		t.Errorf("names did not round-trip:\nwant %q\ngot  %q\n%s", want.Names(), back.Names(), out)
	}
	if len(want.Servers) < 2 {
		t.Fatalf("%s takes too few of the test names to check anything: %q", a.DisplayName(), want.Names())
	}
	// Removing one such name leaves the others.
	want.Servers = want.Servers[1:]
	out2, _ := encode(t, a, loc, out, want, formats.EncodeOptions{OS: Env.OS})
	back, _ = decode(t, a, loc, out2)
	if !slices.Equal(back.Names(), want.Names()) {
		t.Errorf("after removing %q: got %q", EscapingNames[0], back.Names())
	}

}

// Malformed are inputs no client format accepts.
var Malformed = [][]byte{[]byte("{"), []byte("not a config"), []byte("{\"a\": }"), []byte("[[[["), []byte("\x00\x01")}

// checkMalformed: broken inputs give errors with a line; truncations of the
// cases' inputs never panic and put every error at a line.
func checkMalformed(t *testing.T, a formats.Adapter, loc formats.Location, inputs [][]byte) {
	for _, m := range Malformed {
		if loc.Format == formats.YAML && yamlMapping(m) {
			continue // {"a": } is a valid YAML mapping: a config with no servers
		}
		_, diags := decode(t, a, loc, m)
		if !diags.HasErrors() {
			t.Errorf("Decode(%q) found nothing wrong", m)
		}
		out, ediags := encode(t, a, loc, m, sample(), formats.EncodeOptions{})
		if !ediags.HasErrors() || !bytes.Equal(out, m) {
			t.Errorf("Encode into %q did not refuse (wrote %q)", m, out)
		}
	}
	for _, in := range inputs {
		for _, n := range []int{len(in) / 3, len(in) / 2, len(in) - 1} {
			if n > 0 && n < len(in) {
				decode(t, a, loc, in[:n])
			}
		}
	}
}

// yamlMapping reports whether data is a YAML mapping, which a YAML client
// reads as a (possibly server-less) config rather than a broken file.
func yamlMapping(data []byte) bool {
	var n yaml.Node
	return yaml.Unmarshal(data, &n) == nil && len(n.Content) == 1 && n.Content[0].Kind == yaml.MappingNode
}
