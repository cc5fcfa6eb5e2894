package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpsync/mcpsync/canonical"
	"golang.org/x/text/unicode/norm"
)

// FuzzParse: Parse never panics; a store that parses is written back byte
// for byte; putting its own servers back changes nothing; and an edit or a
// removal gives a store that parses to exactly the intended servers.
func FuzzParse(f *testing.F) {
	for _, s := range []string{exampleStore, "", "# c\n", "server \"a\" { command = \"x\" }",
		"server \"a\" {\n  url = \"https://x\"\n  transport = \"sse\"\n  headers = {\n    A = \"Bearer ${env(\"T\")}\"\n  }\n}\n",
		"server \"a\"{\r\n\tcommand=\"x\"\r\n}\r\nserver \"b\" {\n  command = \"y\" // c\n  extra \"z\" {\n    k = [1, {a = null}]\n  }\n}",
		"server \"a\" {\n  command = \"x\"\n  oauth {\n    client_id = \"i\"\n  }\n}\n\n\nclient \"c\" {\n  exclude = [\"a\"]\n}",
		"server \"a\" {\n", "server \"a\" {\n  argz = 1\n}\n", "resolver \"r\" {\n  command = []\n}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, ds := Parse("f.hcl", src)
		for _, d := range ds {
			if d.Severity == canonical.Error && d.Line < 1 {
				t.Fatalf("error without a line: %v", d)
			}
		}
		if ds.HasErrors() {
			return
		}
		if got := s.Bytes(); string(got) != string(src) {
			t.Fatalf("untouched store rewritten:\n%q\n%q", src, got)
		}
		for _, srv := range s.Servers.Clone().Servers {
			s.Put(srv)
		}
		if got := s.Bytes(); string(got) != string(src) {
			t.Fatalf("putting the same servers changed the store:\n%q\n%q", src, got)
		}
		if s.Servers.Len() == 0 {
			return
		}
		checkOneBlockEdit(t, src)
		want := s.Servers.Clone()
		edited := want.Servers[0]
		edited.Args = append(edited.Args, "fuzz ${X}")
		edited.Env = map[string]string{"K": "v"}
		s.Put(edited)
		want.Put(s.Servers.Servers[0])
		s.Put(canonical.Server{Name: "added", Command: "npx"})
		want.Put(canonical.Server{Name: "added", Command: "npx", Transport: canonical.Stdio})
		if s.Servers.Len() > 1 {
			s.Remove(s.Servers.Servers[1].Name)
			want.Remove(want.Servers[1].Name)
		}
		out := s.Bytes()
		again, ds := Parse("f.hcl", out)
		if ds.HasErrors() {
			t.Fatalf("the edited store does not parse: %v\n%s\n-- from --\n%s", ds.Err(), out, src)
		}
		if again.Servers.Len() != want.Len() {
			t.Fatalf("edited store has %v, want %v\n%s", again.Servers.Names(), want.Names(), out)
		}
		for _, w := range want.Servers {
			got, ok := again.Servers.Get(w.Name)
			if !ok || !serversEqual(&got, &w) {
				t.Fatalf("server %q reads back as %+v, want %+v\n%s", w.Name, got, w, out)
			}
		}
	})
}

// checkOneBlockEdit changes the first server alone and checks that every
// byte before the line its block starts on and after the line it ends on
// stays as it was.
func checkOneBlockEdit(t *testing.T, src []byte) {
	t.Helper()
	s, ds := Parse("f.hcl", src)
	if ds.HasErrors() || s.Servers.Len() == 0 {
		return
	}
	first := s.Servers.Servers[0]
	b := s.blocks[first.Name]
	if b == nil || b.syntax == nil {
		return
	}
	r := b.syntax.Range()
	start := bytes.LastIndexByte(src[:r.Start.Byte], '\n') + 1
	end := len(src)
	if i := bytes.IndexByte(src[r.End.Byte:], '\n'); i >= 0 {
		end = r.End.Byte + i + 1
	}
	edited := first.Clone()
	edited.Args = append(edited.Args, "fuzz-arg")
	s.Put(edited)
	out := s.Bytes()
	if !bytes.HasPrefix(out, src[:start]) || !bytes.HasSuffix(out, src[end:]) {
		t.Fatalf("editing %q changed bytes outside its block (%d..%d):\n%q\n%q", first.Name, start, end, src, out)
	}
}

// FuzzValueRoundTrip: any string value written to the store reads back
// unchanged, wherever it appears.
func FuzzValueRoundTrip(f *testing.F) {
	for _, s := range []string{"x", "${X}", "Bearer ${T}", "$${X}", "%{x}", "a$", `"\`, "${input:k}", "${userHome}", "${A:-b}", "\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if !utf8.ValidString(v) || v == "" {
			return
		}
		// HCL keeps text in Unicode normal form C (cty normalizes every
		// string): "A" + U+0325 reads back as U+1E00. That is the store's
		// documented form, so the value is compared in it.
		v = norm.NFC.String(v)
		srv := canonical.Server{Name: v, Command: v, Args: []string{v}, Env: map[string]string{v: v}, Cwd: v,
			Extra: map[string]map[string]json.RawMessage{"c": {v: mustJSON(v)}}}
		srv.Normalize()
		if v := srv.Validate(); v.HasErrors() {
			return // a blank name or command is refused on reading, as it should be
		}
		text := Format(srv)
		s, ds := Parse("f.hcl", text)
		if ds.HasErrors() {
			t.Fatalf("%q: %v\n%s", v, ds.Err(), text)
		}
		got, _ := s.Servers.Get(v)
		// A reference is kept, in its canonical spelling: an editor
		// builtin's alias (VS Code's ${/} for ${pathSeparator}) reads back
		// as the builtin's own name, as every value mcpsync reads does.
		want := srv.Clone()
		w := spelled(v)
		want.Command, want.Args, want.Env, want.Cwd = w, []string{w}, map[string]string{v: w}, w
		if !canonical.Equal(got, want, "c") {
			t.Fatalf("%q reads back as %+v\n%s", v, got, text)
		}
	})
}

// spelled is v with its references in their canonical spelling.
func spelled(v string) string {
	out, problems := canonical.Parse(v, canonical.DialectCanonical).Render(canonical.DialectCanonical)
	if len(problems) > 0 {
		return v
	}
	return out
}

// BenchmarkLoad1000 loads a generated store of 1,000 servers from disk.
func BenchmarkLoad1000(b *testing.B) {
	path := filepath.Join(b.TempDir(), FileName)
	if err := os.WriteFile(path, generateStore(1000), 0o600); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		s, ds := Load(path)
		if ds.HasErrors() || s.Servers.Len() != 1000 {
			b.Fatalf("%d servers, %v", s.Servers.Len(), ds)
		}
	}
}

// BenchmarkPutBytes1000 edits one server of a 1,000-server store and renders it.
func BenchmarkPutBytes1000(b *testing.B) {
	s, ds := Parse(FileName, generateStore(1000))
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	srv, _ := s.Servers.Get("server-500")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		srv.Args = []string{fmt.Sprint(i)}
		s.Put(srv)
		if len(s.Bytes()) == 0 {
			b.Fatal("empty")
		}
	}
}

func generateStore(n int) []byte {
	var sb strings.Builder
	sb.WriteString("# generated\n")
	for i := range n {
		if i%2 == 0 {
			fmt.Fprintf(&sb, "\nserver \"server-%d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"@scope/server-%d\"]\n  env     = { TOKEN = env(\"TOKEN_%d\"), MODE = \"fast\" }\n}\n", i, i, i)
		} else {
			fmt.Fprintf(&sb, "\nserver \"server-%d\" {\n  url     = \"https://mcp%d.example.com/mcp\"\n  headers = { Authorization = \"Bearer ${env(\"KEY_%d\")}\" }\n}\n", i, i, i)
		}
	}
	sb.WriteString("\nclient \"cursor\" {\n  exclude = [\"server-1\"]\n}\n")
	return []byte(sb.String())
}
