package store

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/mcpsync/mcpsync/canonical"
	"golang.org/x/text/unicode/norm"
)

const ruleStore = `# my servers
server "github" {
  command = "npx"
}

server "linear" {
  url = "https://mcp.linear.app/mcp"
}

# cursor chokes on linear
client "cursor" {
  # not linear: it times out
  exclude = ["linear"] # since 0.45
}

# the end
`

// TestSetClientRuleEdits sets one rule on a store and checks the whole
// text: every byte outside the edit stays.
func TestSetClientRuleEdits(t *testing.T) {
	cases := []struct {
		name   string
		src    string
		client string
		rule   ClientRule
		want   string
	}{{
		name: "new block after the last client block", src: ruleStore, client: "codex",
		rule: ClientRule{Exclude: []string{"github"}},
		want: strings.Replace(ruleStore, "# since 0.45\n}\n", "# since 0.45\n}\n\nclient \"codex\" {\n  exclude = [\"github\"]\n}\n", 1),
	}, {
		name: "new block at the end when there is none", src: "# top\nserver \"a\" {\n  command = \"x\"\n}\n", client: "cursor",
		rule: ClientRule{Include: []string{"a"}, Exclude: []string{"b"}},
		want: "# top\nserver \"a\" {\n  command = \"x\"\n}\n\nclient \"cursor\" {\n  include = [\"a\"]\n  exclude = [\"b\"]\n}\n",
	}, {
		name: "new block in an empty store", src: "", client: "cursor", rule: ClientRule{Exclude: []string{"a"}},
		want: "client \"cursor\" {\n  exclude = [\"a\"]\n}\n",
	}, {
		name: "new block after a file without a final newline", src: "# c", client: "zed", rule: ClientRule{Exclude: []string{"a"}},
		want: "# c\n\nclient \"zed\" {\n  exclude = [\"a\"]\n}\n",
	}, {
		name: "list replaced in place, its comments kept", src: ruleStore, client: "cursor",
		rule: ClientRule{Exclude: []string{"linear", "github"}},
		want: strings.Replace(ruleStore, `exclude = ["linear"] # since 0.45`, `exclude = ["linear", "github"] # since 0.45`, 1),
	}, {
		name: "include added to a block that has exclude", src: ruleStore, client: "cursor",
		rule: ClientRule{Include: []string{"github"}, Exclude: []string{"linear"}},
		want: strings.Replace(ruleStore, "# since 0.45\n}", "# since 0.45\n  include = [\"github\"]\n}", 1),
	}, {
		name: "a list that goes away loses its line", src: "client \"c\" {\n  include = [\"a\", \"b\"] # mine\n  exclude = [\"b\"]\n}\n", client: "c",
		rule: ClientRule{Include: []string{"a", "b"}},
		want: "client \"c\" {\n  include = [\"a\", \"b\"] # mine\n}\n",
	}, {
		name: "an emptied block with a comment inside stays", src: ruleStore, client: "cursor", rule: ClientRule{},
		want: strings.Replace(ruleStore, "  exclude = [\"linear\"] # since 0.45\n", "", 1),
	}, {
		name:   "an emptied block is cut out, the comment above it stays",
		src:    "server \"a\" {\n  command = \"x\"\n}\n\n# rules\nclient \"c\" {\n  exclude = [\"a\"] # why\n}\n\nclient \"d\" {\n  exclude = [\"a\"]\n}\n",
		client: "c", rule: ClientRule{},
		want: "server \"a\" {\n  command = \"x\"\n}\n\n# rules\n\nclient \"d\" {\n  exclude = [\"a\"]\n}\n",
	}, {
		name: "the last block cut out takes its blank line", src: "server \"a\" {\n  command = \"x\"\n}\n\nclient \"c\" {\n  exclude = [\"a\"]\n}\n",
		client: "c", rule: ClientRule{},
		want: "server \"a\" {\n  command = \"x\"\n}\n",
	}, {
		name: "one-line block keeps its line", src: "client \"c\" { exclude = [\"a\"] } # short\n", client: "c",
		rule: ClientRule{Exclude: []string{"a", "b"}},
		want: "client \"c\" { exclude = [\"a\", \"b\"] } # short\n",
	}, {
		name: "one-line block grows to several lines", src: "client \"c\" { /* mine */ exclude = [\"a\"] } # short\n", client: "c",
		rule: ClientRule{Include: []string{"a", "b"}, Exclude: []string{"a"}},
		want: "client \"c\" {\n  /* mine */\n  include = [\"a\", \"b\"]\n  exclude = [\"a\"]\n} # short\n",
	}, {
		name: "empty one-line block cut out", src: "client \"c\" { exclude = [\"a\"] }\n", client: "c", rule: ClientRule{},
		want: "",
	}, {
		name: "empty block filled", src: "client \"c\" {\n}\n", client: "c", rule: ClientRule{Exclude: []string{"a"}},
		want: "client \"c\" {\n  exclude = [\"a\"]\n}\n",
	}, {
		name: "closing brace after a comment", src: "client \"c\" {\n  exclude = [\"a\"]\n  /* more */ }\n", client: "c",
		rule: ClientRule{Include: []string{"b"}, Exclude: []string{"a"}},
		want: "client \"c\" {\n  exclude = [\"a\"]\n  /* more */ \n  include = [\"b\"]\n}\n",
	}, {
		name: "indented with tabs, CRLF", src: "client \"c\" {\r\n\texclude = [\"a\"]\r\n}\r\n", client: "c",
		rule: ClientRule{Exclude: []string{"b"}},
		want: "client \"c\" {\r\n\texclude = [\"b\"]\r\n}\r\n",
	}, {
		name: "a long list goes on several lines", src: "", client: "c",
		rule: ClientRule{Exclude: []string{"server-one", "server-two", "server-three", "server-four", "server-five"}},
		want: "client \"c\" {\n  exclude = [\n    \"server-one\",\n    \"server-two\",\n    \"server-three\",\n    \"server-four\",\n    \"server-five\",\n  ]\n}\n",
	}, {
		name: "an emptied block with a file keeps the file", src: "client \"c\" {\n  file    = \"/x/mcp.json\"\n  exclude = [\"a\"]\n}\n",
		client: "c", rule: ClientRule{},
		want: "client \"c\" {\n  file    = \"/x/mcp.json\"\n}\n",
	}, {
		name: "a list added to a block that has only a file", src: "client \"c\" {\n  file = \"~/mcp.json\"\n}\n", client: "c",
		rule: ClientRule{Exclude: []string{"a"}},
		want: "client \"c\" {\n  file = \"~/mcp.json\"\n  exclude = [\"a\"]\n}\n",
	}, {
		name: "a one-line block with a file grows and keeps it", src: "client \"c\" { file = \"~/m.json\" }\n", client: "c",
		rule: ClientRule{Exclude: []string{"a"}},
		want: "client \"c\" {\n  file = \"~/m.json\"\n  exclude = [\"a\"]\n}\n",
	}, {
		name: "a name is never a reference", src: "", client: "c", rule: ClientRule{Exclude: []string{"${X}"}},
		want: "client \"c\" {\n  exclude = [\"$${X}\"]\n}\n",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := mustParse(t, c.src)
			s.SetClientRule(c.client, c.rule)
			got := string(s.Bytes())
			if got != c.want {
				t.Fatalf("got\n%q\nwant\n%q", got, c.want)
			}
			again := mustParse(t, got)
			if r := again.Clients[c.client]; !sameRule(r, c.rule) {
				t.Errorf("reads back as %+v, want %+v", r, c.rule)
			}
		})
	}
}

func TestSetClientRuleSameRuleChangesNothing(t *testing.T) {
	for _, src := range []string{ruleStore, exampleStore, "client \"c\" { include = [] }\n", "client \"c\" {\n  /* c */\n}\n"} {
		s := mustParse(t, src)
		for name, rule := range cloneRules(s.Clients) {
			s.SetClientRule(name, rule)
		}
		s.SetClientRule("nobody", ClientRule{})
		if got := string(s.Bytes()); got != src || s.Changed() {
			t.Errorf("setting the same rules changed the store:\n%q\n%q", src, got)
		}
	}
}

func cloneRules(m map[string]ClientRule) map[string]ClientRule {
	out := make(map[string]ClientRule, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// TestClientRuleWithServerEdits: rules and servers edited in one run both
// reach the file.
func TestClientRuleWithServerEdits(t *testing.T) {
	s := mustParse(t, ruleStore)
	gh, _ := s.Servers.Get("github")
	gh.Disabled = true
	s.Put(gh)
	s.Remove("linear")
	s.Put(canonical.Server{Name: "fetch", Command: "uvx"})
	s.SetClientRule("cursor", ClientRule{Exclude: []string{"fetch"}})
	s.SetClientRule("codex", ClientRule{Include: []string{"github"}})
	want := `# my servers
server "github" {
  command = "npx"
  disabled = true
}

server "fetch" {
  command = "uvx"
}

# cursor chokes on linear
client "cursor" {
  # not linear: it times out
  exclude = ["fetch"] # since 0.45
}

client "codex" {
  include = ["github"]
}

# the end
`
	if got := string(s.Bytes()); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}

	// a fresh store: the new servers, then the new rules
	s = mustParse(t, "")
	s.Put(canonical.Server{Name: "a", Command: "x"})
	s.SetClientRule("cursor", ClientRule{Exclude: []string{"a"}})
	want = "server \"a\" {\n  command = \"x\"\n}\n\nclient \"cursor\" {\n  exclude = [\"a\"]\n}\n"
	if got := string(s.Bytes()); got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}

func TestSetClientRuleSave(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(path, []byte(ruleStore), 0o644); err != nil {
		t.Fatal(err)
	}
	s, ds := Load(path)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	s.SetClientRule("cursor", s.Clients["cursor"].Without("github"))
	if err := s.save(); err != nil {
		t.Fatal(err)
	}
	again, ds := Load(path)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	if again.Allows("cursor", "github") || again.Allows("cursor", "linear") || !again.Allows("codex", "github") {
		t.Errorf("saved rules = %+v", again.Clients)
	}
	if !slices.Equal(again.Clients["cursor"].Exclude, []string{"linear", "github"}) || again.Clients["cursor"].Pos.Line != 11 {
		t.Errorf("cursor = %+v", again.Clients["cursor"])
	}
}

func TestBrokenStoreIsNotEdited(t *testing.T) {
	src := "client \"c\" {\n  exclude = [\"a\"]\n  bogus = 1\n}\n"
	s, ds := Parse("f.hcl", []byte(src))
	if !ds.HasErrors() {
		t.Fatal("want an error")
	}
	s.SetClientRule("c", ClientRule{})
	s.SetClientRule("d", ClientRule{Exclude: []string{"x"}})
	if got := string(s.Bytes()); got != src {
		t.Errorf("a broken store was edited:\n%s", got)
	}
	if err := s.save(); err == nil {
		t.Error("Save wrote over a broken store")
	}
}

func TestWithoutAndWith(t *testing.T) {
	cases := []struct {
		rule          ClientRule
		server        string
		without, with ClientRule
	}{
		{ClientRule{}, "a", ClientRule{Exclude: []string{"a"}}, ClientRule{}},
		{ClientRule{Exclude: []string{"b", "a"}}, "a", ClientRule{Exclude: []string{"b", "a"}}, ClientRule{Exclude: []string{"b"}}},
		{ClientRule{Include: []string{"a", "b"}}, "a", ClientRule{Include: []string{"b"}, Exclude: []string{"a"}}, ClientRule{Include: []string{"a", "b"}}},
		// an empty include would mean every server: the last name stays there
		{ClientRule{Include: []string{"a"}}, "a", ClientRule{Include: []string{"a"}, Exclude: []string{"a"}}, ClientRule{Include: []string{"a"}}},
		{ClientRule{Include: []string{"b"}, Exclude: []string{"a"}}, "a", ClientRule{Include: []string{"b"}, Exclude: []string{"a"}},
			ClientRule{Include: []string{"b", "a"}}},
	}
	for _, c := range cases {
		s := &Store{Clients: map[string]ClientRule{"c": c.rule}}
		if got := c.rule.Without(c.server); !sameRule(got, c.without) {
			t.Errorf("%+v.Without(%s) = %+v, want %+v", c.rule, c.server, got, c.without)
		} else if s.Clients["c"] = got; s.Allows("c", c.server) {
			t.Errorf("%+v still allows %s", got, c.server)
		}
		if got := c.rule.With(c.server); !sameRule(got, c.with) {
			t.Errorf("%+v.With(%s) = %+v, want %+v", c.rule, c.server, got, c.with)
		} else if s.Clients["c"] = got; !s.Allows("c", c.server) {
			t.Errorf("%+v does not allow %s", got, c.server)
		}
		// the other servers keep what they had
		for _, other := range []string{"b", "z"} {
			if other == c.server {
				continue
			}
			before := (&Store{Clients: map[string]ClientRule{"c": c.rule}}).Allows("c", other)
			for _, r := range []ClientRule{c.rule.Without(c.server), c.rule.With(c.server)} {
				if (&Store{Clients: map[string]ClientRule{"c": r}}).Allows("c", other) != before {
					t.Errorf("%+v -> %+v changed what happens to %s", c.rule, r, other)
				}
			}
		}
	}
}

// FuzzClientRuleEdit: for any store that parses and any rule set on any
// client (one of its own, or a new one), the edited store parses, has
// exactly the rules set, the same servers, resolvers and sources, and
// every server block byte for byte; with server edits in the same run, the
// servers are those put.
func FuzzClientRuleEdit(f *testing.F) {
	for _, s := range []string{ruleStore, exampleStore, "", "# c", "client \"c\" { exclude = [\"a\"] } # t\n",
		"client \"c\" { /* k */ }\nclient \"d\" {\n}\n", "client \"c\" {\r\n\tinclude = [\"a\"]\r\n  /* x */ }",
		"server \"a\" {\n  command = \"x\"\n}\n\nclient \"c\" {\n  exclude = [\"a\"] // why\n}\n\nserver \"b\" {\n  command = \"y\"\n}\n",
		"client \"c\" { file = \"~/m.json\" }\n", "client \"cursor\" {\n  file = \"/x/mcp.json\"\n  os = \"windows\"\n  exclude = [\"a\"]\n}\n"} {
		for _, mode := range []byte{0, 1, 2, 5, 6} {
			f.Add([]byte(s), mode, "cursor", "a,b", "linear")
		}
	}
	f.Add([]byte(ruleStore), byte(1), "", "", "")
	f.Add([]byte(ruleStore), byte(3), "x", "$${y},%{z}", "\"q\"\n")
	f.Fuzz(func(t *testing.T, src []byte, mode byte, client, include, exclude string) {
		s, ds := Parse("f.hcl", src)
		if ds.HasErrors() {
			return
		}
		names := func(list string) []string {
			if list == "" {
				return nil
			}
			var out []string
			for _, n := range strings.Split(list, ",") {
				if !utf8.ValidString(n) {
					return nil
				}
				out = append(out, norm.NFC.String(n)) // HCL keeps text in NFC
			}
			return out
		}
		if !utf8.ValidString(client) {
			return
		}
		client = norm.NFC.String(client)
		if mode&1 == 1 && len(s.Clients) > 0 { // one of the store's own clients
			var have []string
			for c := range s.Clients {
				have = append(have, c)
			}
			sort.Strings(have)
			client = have[int(mode>>1)%len(have)]
		}
		rule := ClientRule{Include: names(include), Exclude: names(exclude)}
		wantRules := cloneRules(s.Clients)
		wantRules[client] = rule
		wantServers := s.Servers.Clone()
		editServers := mode&4 != 0
		if editServers {
			s.Put(canonical.Server{Name: "fuzz-added", Command: "npx"})
			wantServers.Put(canonical.Server{Name: "fuzz-added", Command: "npx", Transport: canonical.Stdio})
			if n := s.Servers.Len(); n > 1 {
				last := s.Servers.Servers[n-2].Name
				s.Remove(last)
				wantServers.Remove(last)
			}
		}
		s.SetClientRule(client, rule)
		out := s.Bytes()
		again, ds := Parse("f.hcl", out)
		if ds.HasErrors() {
			t.Fatalf("the edited store does not parse: %v\n%s\n-- from --\n%s", ds.Err(), out, src)
		}
		for c := range wantRules {
			if _, ok := again.Clients[c]; !ok {
				again.Clients[c] = ClientRule{}
			}
		}
		for c, got := range again.Clients {
			if want := wantRules[c]; !sameRule(got, want) {
				t.Fatalf("client %q reads back as %+v, want %+v\n%s\n-- from --\n%s", c, got, want, out, src)
			}
		}
		if again.Servers.Len() != wantServers.Len() {
			t.Fatalf("servers %v, want %v\n%s", again.Servers.Names(), wantServers.Names(), out)
		}
		for _, w := range wantServers.Servers {
			if got, ok := again.Servers.Get(w.Name); !ok || !serversEqual(&got, &w) {
				t.Fatalf("server %q reads back as %+v, want %+v\n%s", w.Name, got, w, out)
			}
		}
		if len(again.Resolvers) != len(s.Resolvers) || len(again.Sources) != len(s.Sources) {
			t.Fatalf("resolvers or sources changed\n%s", out)
		}
		for c, f := range s.ClientFiles { // a rule edit never touches a client's file
			if g := again.ClientFiles[c]; g.Path != f.Path || g.OS != f.OS {
				t.Fatalf("client %q file %+v became %+v\n%s\n-- from --\n%s", c, f, g, out, src)
			}
		}
		if len(again.ClientFiles) != len(s.ClientFiles) {
			t.Fatalf("client files %+v became %+v\n%s", s.ClientFiles, again.ClientFiles, out)
		}
		if !editServers {
			before, after := serverTexts(t, src), serverTexts(t, out)
			for name, text := range before {
				if after[name] != text {
					t.Fatalf("server %q changed:\n%q\n%q", name, text, after[name])
				}
			}
		}
	})
}

// serverTexts returns each server block's bytes, by name.
func serverTexts(t *testing.T, src []byte) map[string]string {
	t.Helper()
	f, diags := hclsyntax.ParseConfig(src, "f.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	out := map[string]string{}
	for _, b := range f.Body.(*hclsyntax.Body).Blocks {
		if b.Type == "server" {
			out[b.Labels[0]] = string(bytes.Clone(src[b.TypeRange.Start.Byte:b.CloseBraceRange.End.Byte]))
		}
	}
	return out
}

// BenchmarkClientRuleBytes1000 changes a client rule of a 1,000-server store
// and renders it: only the text between the server blocks is read again.
func BenchmarkClientRuleBytes1000(b *testing.B) {
	s, ds := Parse(FileName, generateStore(1000))
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	rules := []ClientRule{{Exclude: []string{"server-1", "server-2"}}, {Include: []string{"server-3"}}}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.SetClientRule("cursor", rules[i%2])
		if len(s.Bytes()) == 0 {
			b.Fatal("empty")
		}
	}
}

// TestClientFile reads the file attribute of client blocks, and refuses a
// path that is relative or holds a reference, at the value's position.
func TestClientFile(t *testing.T) {
	s := mustParse(t, "client \"vscode\" {\n  file = \"~/.vscode-server/data/User/mcp.json\"\n}\n\nclient \"claude-desktop\" {\n  file    = \"/mnt/c/Users/me/AppData/Roaming/Claude/claude_desktop_config.json\"\n  os      = \"windows\"\n  exclude = []\n}\n")
	if s.ClientFiles["claude-desktop"].OS != "windows" || s.ClientFiles["vscode"].OS != "" {
		t.Errorf("ClientFiles OS: %+v", s.ClientFiles)
	}
	want := map[string]string{"vscode": "~/.vscode-server/data/User/mcp.json", "claude-desktop": "/mnt/c/Users/me/AppData/Roaming/Claude/claude_desktop_config.json"}
	if len(s.ClientFiles) != len(want) {
		t.Fatalf("ClientFiles = %+v, want %v", s.ClientFiles, want)
	}
	for id, path := range want {
		if got := s.ClientFiles[id]; got.Path != path || got.Pos.Line == 0 {
			t.Errorf("ClientFiles[%s] = %+v, want %s with a position", id, got, path)
		}
	}
	for _, c := range []struct{ src, want string }{
		{"client \"c\" {\n  file = \"mcp.json\"\n}\n", "store.hcl:2:10: error: client \"c\": file \"mcp.json\" must be an absolute path or start with ~/"},
		{"client \"c\" {\n  file = \"${env(\"HOME\")}/m.json\"\n}\n", "store.hcl:2:10: error: client \"c\": file is a plain path, not a reference"},
		{"client \"c\" {\n  file = 3\n}\n", "store.hcl:2:"},
		{"client \"c\" {\n  path = \"/x\"\n}\n", "store.hcl:2:3: error: Unsupported argument"},
		{"client \"c\" {\n  os = \"windows\"\n}\n", "store.hcl:2:3: error: client \"c\": os says which machine reads a moved file"},
		{"client \"c\" {\n  file = \"/m.json\"\n  os = \"win\"\n}\n", "store.hcl:3:8: error: client \"c\": os \"win\" must be windows, darwin or linux"},
	} {
		st, ds := Parse("store.hcl", []byte(c.src))
		if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), c.want) {
			t.Errorf("%q: diagnostics %v, want %q", c.src, ds, c.want)
		}
		if len(st.ClientFiles) != 0 {
			t.Errorf("%q: ClientFiles = %+v, want none", c.src, st.ClientFiles)
		}
	}
}
