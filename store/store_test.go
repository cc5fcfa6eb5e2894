package store

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/xdg"
)

const exampleStore = `# servers every client gets
server "github" {
  command = "npx"
  args    = ["-y", "@modelcontextprotocol/server-github"]
  env     = { GITHUB_PERSONAL_ACCESS_TOKEN = env("GITHUB_TOKEN") }  # a reference, not the value
  cwd     = "${workspace_folder()}/tools"
}

server "linear" {
  url       = "https://mcp.linear.app/sse"
  transport = "sse"
  headers   = { Authorization = "Bearer ${env("LINEAR_API_KEY")}", X-Port = env("PORT", "8080") }
  disabled  = true
  tools_allow = ["a"]
  tools_deny  = ["b"]
  startup_timeout = "30s"
  tool_timeout    = 120
  oauth {
    client_id     = "cid"
    client_secret = input("secret")
    scopes        = ["read", "write"]
    callback_port = 8080
  }
  extra "cursor" {
    envFile = ".env"
    _       = { "odd.key" = [1, true, null, { a = "b" }] }
  }
}

client "cursor" {
  include = ["github", "linear"]
  exclude = ["linear"]
}

resolver "claude" {
  command = ["claude", "-p", "find the server"]
  timeout = "60s"
}

source "acme" {
  git  = "https://exampleStore.com/team-mcp.git"
  ref  = "main"
  path = "mcp/"
}
`

func mustParse(t *testing.T, src string) *Store {
	t.Helper()
	s, ds := Parse("mcpsync.hcl", []byte(src))
	if ds.HasErrors() {
		t.Fatalf("Parse: %v", ds.Err())
	}
	return s
}

func TestParseExample(t *testing.T) {
	s := mustParse(t, exampleStore)
	gh := canonical.Server{Name: "github", Transport: canonical.Stdio, Command: "npx",
		Args: []string{"-y", "@modelcontextprotocol/server-github"},
		Env:  map[string]string{"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}"}, Cwd: "${workspaceFolder}/tools"}
	lin := canonical.Server{Name: "linear", Transport: canonical.SSE, URL: "https://mcp.linear.app/sse",
		Headers:  map[string]string{"Authorization": "Bearer ${LINEAR_API_KEY}", "X-Port": "${PORT:-8080}"},
		Disabled: true, ToolsAllow: []string{"a"}, ToolsDeny: []string{"b"},
		StartupTimeout: 30 * time.Second, ToolTimeout: 2 * time.Minute,
		Auth: canonical.Auth{OAuth: &canonical.OAuth{ClientID: "cid", ClientSecret: "${input:secret}", Scopes: []string{"read", "write"}, CallbackPort: 8080}},
		Extra: map[string]map[string]json.RawMessage{"cursor": {"envFile": json.RawMessage(`".env"`),
			"odd.key": json.RawMessage(`[1,true,null,{"a":"b"}]`)}}}
	for _, want := range []canonical.Server{gh, lin} {
		got, ok := s.Servers.Get(want.Name)
		if !ok || !canonical.Equal(got, want, "cursor") {
			t.Errorf("server %s:\n got %+v\nwant %+v", want.Name, got, want)
		}
	}
	if got, _ := s.Servers.Get("github"); got.Origin.String() != "mcpsync.hcl:2:8" {
		t.Errorf("origin = %s", got.Origin)
	}
	if s.Allows("cursor", "linear") || !s.Allows("cursor", "github") || !s.Allows("vscode", "linear") {
		t.Error("client rules: include then exclude; no rule allows all")
	}
	if len(s.Resolvers) != 1 || !reflect.DeepEqual(s.Resolvers[0].Command, []string{"claude", "-p", "find the server"}) || s.Resolvers[0].Timeout != time.Minute {
		t.Errorf("resolvers = %+v", s.Resolvers)
	}
	if len(s.Sources) != 1 || s.Sources[0] != (Source{Name: "acme", Git: "https://exampleStore.com/team-mcp.git", Ref: "main", Path: "mcp/", Pos: s.Sources[0].Pos}) {
		t.Errorf("sources = %+v", s.Sources)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"server \"a\" {\n  command = \"x\n}\n", "mcpsync.hcl:2:"},
		{"server \"a\" {\n  command = \"x\"\n  argz = []\n}\n", `mcpsync.hcl:3:3: error: Unsupported argument; An argument named "argz" is not expected here. Did you mean "args"?`},
		{"servr \"a\" {}\n", `mcpsync.hcl:1:1: error: Unsupported block type`},
		{"server \"a\" {\n  command = 1\n}\n", ""}, // numbers convert to strings, as in HCL
		{"server \"a\" {\n  command = [\"x\"]\n}\n", "mcpsync.hcl:2:13: error: server \"a\": command must be string, not tuple"},
		{"server \"a\" {\n  command = \"x\"\n  url = \"https://x\"\n}\n", `mcpsync.hcl:1:8: error: server "a": server has both a command and a url`},
		{"server \"a\" {\n  url = \"https://x\"\n  transport = \"ws\"\n}\n", `mcpsync.hcl:3:15: error: server "a": unknown transport "ws"`},
		{"server \"a\" {\n  command = \"x\"\n}\nserver \"a\" {\n  command = \"y\"\n}\n", `mcpsync.hcl:4:1: error: duplicate server "a"`},
		{"server \"a\" {\n  command = \"x\"\n  env = { T = env(\"1X\") }\n}\n", `mcpsync.hcl:3:20: error: Invalid function argument`},
		{"server \"a\" {\n  command = \"x\"\n  tool_timeout = \"soon\"\n}\n", `mcpsync.hcl:3:18: error: server "a": tool_timeout "soon" is not a duration`},
		{"server \"a\" {\n  command = \"x\"\n  env = { T = \"${X}\" }\n}\n", `mcpsync.hcl:3:18: error: Variables not allowed`},
		{"server \"a\" {\n  command = \"x\"\n  oauth {\n    callback_port = 70000\n  }\n}\n", `mcpsync.hcl:4:21: error: server "a": callback_port 70000 is not a port number`},
	}
	for _, c := range cases {
		_, ds := Parse("mcpsync.hcl", []byte(c.src))
		if c.want == "" {
			if ds.HasErrors() {
				t.Errorf("%q: unexpected %v", c.src, ds.Err())
			}
			continue
		}
		if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.src, ds.Err(), c.want)
		}
	}
}

func TestRoundTripUnchanged(t *testing.T) {
	odd := "\ufeff# odd\r\nserver   \"a\"{\r\n\tcommand=\"x\" // c\r\n  args = [ \"a\" ,\"b\" ]\r\n}\r\n\r\n\r\nclient \"z\" {\r\n}"
	for _, src := range []string{exampleStore, odd, "", "# just a comment\n"} {
		s, ds := Parse("m.hcl", []byte(src))
		if ds.HasErrors() {
			t.Fatalf("%q: %v", src, ds.Err())
		}
		if got := string(s.Bytes()); got != src {
			t.Errorf("Bytes changed an untouched store:\n%q\n%q", src, got)
		}
		for _, srv := range s.Servers.Clone().Servers {
			s.Put(srv)
		}
		if got := string(s.Bytes()); got != src {
			t.Errorf("Put of the same servers changed the store:\n%q\n%q", src, got)
		}
	}
}

func TestAddKeepsEverythingElse(t *testing.T) {
	s := mustParse(t, exampleStore)
	s.Put(canonical.Server{Name: "fetch", Command: "uvx", Args: []string{"mcp-server-fetch"}})
	got := string(s.Bytes())
	// the new block goes after the last server, everything else is as it was
	i := strings.Index(exampleStore, "\n\nclient")
	want := exampleStore[:i] + "\n\nserver \"fetch\" {\n  command = \"uvx\"\n  args    = [\"mcp-server-fetch\"]\n}" + exampleStore[i:]
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	again := mustParse(t, got)
	if srv, _ := again.Servers.Get("fetch"); srv.Command != "uvx" || srv.Transport != canonical.Stdio {
		t.Errorf("the new server does not read back: %+v", srv)
	}
}

func TestRemoveKeepsComments(t *testing.T) {
	src := "# my servers\n\nserver \"a\" {\n  command = \"x\"\n}\n\n# b is for work\nserver \"b\" {\n  command = \"y\"\n}\n\nclient \"c\" {\n  exclude = [\"a\"]\n}\n"
	s := mustParse(t, src)
	if !s.Remove("a") || s.Remove("zzz") {
		t.Fatal("Remove reports whether the server was there")
	}
	want := "# my servers\n\n# b is for work\nserver \"b\" {\n  command = \"y\"\n}\n\nclient \"c\" {\n  exclude = [\"a\"]\n}\n"
	if got := string(s.Bytes()); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	s.Remove("b")
	want = "# my servers\n\n# b is for work\n\nclient \"c\" {\n  exclude = [\"a\"]\n}\n"
	if got := string(s.Bytes()); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
}

func TestEditChangesOnlyWhatDiffers(t *testing.T) {
	src := `server "a" {
  # how to start it
  command = "npx"      # pinned
  args    = ["-y", "pkg@1"]
  env     = { A = "1" }
}
`
	s := mustParse(t, src)
	srv, _ := s.Servers.Get("a")
	srv.Args = []string{"-y", "pkg@2"}
	srv.Env = nil
	srv.URL = ""
	srv.Headers = nil
	srv.ToolTimeout = 90 * time.Second
	srv.Extra = map[string]map[string]json.RawMessage{"zed": {"source": json.RawMessage(`"custom"`)}}
	s.Put(srv)
	want := `server "a" {
  # how to start it
  command = "npx"      # pinned
  args    = ["-y", "pkg@2"]
  tool_timeout = "1m30s"
  extra "zed" {
    source = "custom"
  }
}
`
	if got := string(s.Bytes()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	again := mustParse(t, want)
	if got, _ := again.Servers.Get("a"); !canonical.Equal(got, srv, "zed") {
		t.Errorf("read back %+v, want %+v", got, srv)
	}
}

func TestExplicitTransportStays(t *testing.T) {
	src := "server \"a\" {\n  url       = \"https://a/mcp\"\n  transport = \"http\"\n}\n"
	s := mustParse(t, src)
	srv, _ := s.Servers.Get("a")
	srv.Transport = canonical.SSE
	s.Put(srv)
	if got := string(s.Bytes()); got != strings.Replace(src, `"http"`, `"sse"`, 1) {
		t.Errorf("got %q", got)
	}
	srv.Transport, srv.URL, srv.Command = canonical.Stdio, "", "x"
	s.Put(srv)
	if got := string(s.Bytes()); !strings.Contains(got, `transport = "stdio"`) || !strings.Contains(got, `command = "x"`) || strings.Contains(got, "url") {
		t.Errorf("got %q", got)
	}
}

func TestOneLineBlockIsRewritten(t *testing.T) {
	s := mustParse(t, "server \"a\" { command = \"x\" }\n")
	srv, _ := s.Servers.Get("a")
	srv.Args = []string{"y"}
	s.Put(srv)
	if got := string(s.Bytes()); got != "server \"a\" {\n  command = \"x\"\n  args    = [\"y\"]\n}\n" {
		t.Errorf("got %q", got)
	}
}

// TestFormatReadsBack writes awkward values and reads them back unchanged.
func TestFormatReadsBack(t *testing.T) {
	awkward := []string{"plain", `quote " and \ backslash`, "new\nline\ttab", "${X}", "Bearer ${T}", "${X:-def ault}",
		"$${X}", "${{ not }}", "100% {x} %{y} ${", "$", "a$", "${input:k}", "${userHome}/${workspaceFolderBasename}${pathSeparator}",
		"${workspaceFolder}", "é ü 日本", "\x01ctl", "${A}${B}"}
	for i, v := range awkward {
		name := v
		if canonical.NameProblem(v) != "" {
			name = fmt.Sprintf("s%d", i) // not a name any client holds (TestNameProblems)
		}
		srv := canonical.Server{Name: name, Transport: canonical.Stdio, Command: v, Args: []string{v, "x"},
			Env: map[string]string{"K": v, "key with space": v}, Cwd: v,
			Extra: map[string]map[string]json.RawMessage{"c": {"k": mustJSON(v), "odd key": mustJSON(map[string]string{"${x}": v})}}}
		text := Format(srv)
		s, ds := Parse("f.hcl", text)
		if ds.HasErrors() {
			t.Errorf("%d %q: %s\n%v", i, v, text, ds.Err())
			continue
		}
		got, ok := s.Servers.Get(name)
		srv.Normalize()
		if !ok || !canonical.Equal(got, srv, "c") {
			t.Errorf("%d %q does not read back:\n%s\n got %+v\nwant %+v", i, v, text, got, srv)
		}
	}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func TestLocate(t *testing.T) {
	root := t.TempDir()
	dirs := xdg.Dirs{Config: filepath.Join(root, "cfg", "mcpsync")}
	repo := filepath.Join(root, "repo")
	deep := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	check := func(cwd, explicit string, scope canonical.Scope, wantPath string, wantScope canonical.Scope) {
		t.Helper()
		p, sc := Locate(cwd, dirs, explicit, scope)
		if p != wantPath || sc != wantScope {
			t.Errorf("Locate(%s, %q, %q) = %s, %s; want %s, %s", cwd, explicit, scope, p, sc, wantPath, wantScope)
		}
	}
	check(deep, "", "", filepath.Join(dirs.Config, FileName), canonical.ScopeUser)
	check(deep, "", canonical.ScopeUser, filepath.Join(dirs.Config, FileName), canonical.ScopeUser)
	check(deep, "", canonical.ScopeProject, filepath.Join(repo, FileName), canonical.ScopeProject)
	check(deep, "x.hcl", canonical.ScopeUser, filepath.Join(deep, "x.hcl"), canonical.ScopeUser)
	check(deep, "/abs/s.hcl", canonical.ScopeProject, "/abs/s.hcl", canonical.ScopeProject)
	// a store met on the way up wins over the repository root
	if err := os.WriteFile(filepath.Join(repo, "a", FileName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	check(deep, "", canonical.ScopeProject, filepath.Join(repo, "a", FileName), canonical.ScopeProject)
	// no repository at all: the directory itself
	plain := filepath.Join(root, "plain")
	os.MkdirAll(plain, 0o755)
	if got := ProjectRoot(plain, ""); got != plain && got != "/" {
		t.Errorf("ProjectRoot(%s) = %s", plain, got)
	}
}

func TestLoadAndSave(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", FileName)
	s, ds := Load(path)
	if len(ds) != 0 || s.Exists || s.Path != path || s.Servers.Len() != 0 {
		t.Fatalf("missing file: %+v %v", s, ds)
	}
	if err := s.save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("saving an empty, missing store must not create it")
	}
	s.Put(canonical.Server{Name: "a", Command: "x"})
	if err := s.save(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("new store: %v %v", fi, err)
	}
	before := fi.ModTime()
	s2, ds := Load(path)
	if ds.HasErrors() || !s2.Exists {
		t.Fatal(ds.Err())
	}
	s2.Put(canonical.Server{Name: "a", Command: "x"})
	time.Sleep(10 * time.Millisecond)
	if err := s2.save(); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); !fi.ModTime().Equal(before) {
		t.Error("an unchanged store must not be written")
	}
	os.WriteFile(path, []byte("server \"a\" {\n"), 0o600)
	bad, ds := Load(path)
	if !ds.HasErrors() || ds[0].Line == 0 {
		t.Fatalf("malformed store: %v", ds)
	}
	bad.Put(canonical.Server{Name: "b", Command: "y"})
	if err := bad.save(); err == nil {
		t.Error("a store with errors must not be written")
	}
	if data, _ := os.ReadFile(path); string(data) != "server \"a\" {\n" {
		t.Error("the broken store was changed")
	}
}

func TestSuggest(t *testing.T) {
	names := []string{"github", "linear", "filesystem"}
	for in, want := range map[string]string{"githb": "github", "Linear": "linear", "zzz": "", "filesytem": "filesystem"} {
		if got := Suggest(in, names); got != want {
			t.Errorf("Suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFormatDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{30 * time.Second: "30s", 2 * time.Minute: "2m", time.Hour: "1h",
		90 * time.Minute: "1h30m", 1500 * time.Millisecond: "1.5s", 500 * time.Millisecond: "500ms", 61 * time.Second: "1m1s"} {
		if got := formatDuration(d); got != want {
			t.Errorf("formatDuration(%v) = %q, want %q", d, got, want)
		}
	}
}
