package sources

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/store"
)

func TestStrictValue(t *testing.T) {
	env := func(n string) secrets.Field { return secrets.Field{Place: secrets.InEnv, Name: n} }
	header := func(n string) secrets.Field { return secrets.Field{Place: secrets.InHeader, Name: n} }
	for _, tc := range []struct {
		field      secrets.Field
		value      string
		anyLiteral bool
		ok         bool
	}{
		{env("T"), "${TOKEN}", false, true},
		{header("Authorization"), "Bearer ${TOKEN}", false, true},
		{env("CONFIG"), "${userHome}/.acme/config.json", false, true},
		{env("K"), "${input:key}", false, true},
		{env("LOG_LEVEL"), "${LOG_LEVEL:-debug}", false, true},
		{env("PORT"), "${PORT:-8080}", false, true},
		{env("AWS_REGION"), "${AWS_REGION:-us-east-1}", false, true}, // a shared setting
		{env("E"), "", false, true},
		{env("LOG_LEVEL"), "debug", false, true},
		{env("X"), "TRUE", false, true},
		{env("NODE_ENV"), "production", false, true},
		{env("PORT"), "3000", false, true},
		{env("BASE"), "https://api.example.com/v1", false, true},
		{header("Accept"), "application/json", true, true},

		{env("API"), "sk-abc", false, false},
		{env("AWS_REGION"), "us-east-1", false, false}, // a literal, however harmless: use a default
		{env("PASS"), "hunter2", false, false},
		{env("N"), "1234567", false, false},                               // too long to be a port or a count
		{env("BASE"), "https://user:pw@api.example.com", false, false},    // user info
		{env("BASE"), "https://api.example.com/v1?key=abc", false, false}, // query
		{env("HOOK"), "https://hooks.example.com/T0/B0/XyZ9aBcD8eFgH7iJkL6mNq2w", false, false},
		{env("X"), "${X:-sk_live_51Habcdefghijklmnopqrstuv}", false, false}, // a default that is a key
		{env("API_KEY"), "${API_KEY:-whatever}", false, false},              // a default for a secret
		{env("X"), "${SEARCH_TOKEN:-whatever}", false, false},               // the variable says secret
		{header("Authorization"), "Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789${X}", false, false},
		{header("Accept"), "Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789${X}", true, false}, // even in a plain header
		{env("X"), "prefix-${X}-aB3dE5gH7jK9mN1pQ3sT5vX7z", false, false},                      // a random run next to a reference
	} {
		why := strictValue(tc.field, tc.value, tc.anyLiteral)
		if (why == "") != tc.ok {
			t.Errorf("strictValue(%v, %q, %v) = %q, want ok=%v", tc.field, tc.value, tc.anyLiteral, why, tc.ok)
		}
	}
}

func TestCheckServerFields(t *testing.T) {
	srv := canonical.Server{
		Name: "s", Transport: canonical.HTTP, URL: "https://x.example.com/mcp?api_key=aB3dE5gH7jK9mN1pQ3sT5vX7z",
		Headers: map[string]string{"Accept": "text/event-stream", "X-Api-Key": "abc", "Authorization": "Bearer ${T}"},
		Args:    []string{"--token", "ghp_1234567890abcdefghijklmnopqrstuvwxyz"},
		Auth:    canonical.Auth{OAuth: &canonical.OAuth{ClientID: "id", ClientSecret: "literal"}},
	}
	srv.SetExtra("cursor", "auth", []byte(`{"nested": ["ok", "sk_live_51Habcdefghijklmnopqrstuv"]}`))
	var got []string
	for _, f := range checkServer(srv) {
		got = append(got, f.field+":"+f.key)
	}
	want := "headers:X-Api-Key oauth.client_secret:client_secret url:url args:1 extra:cursor.auth"
	if strings.Join(got, " ") != want {
		t.Errorf("findings %q, want %q", strings.Join(got, " "), want)
	}
}

func TestHints(t *testing.T) {
	f := finding{field: "headers", key: "Authorization", variable: "LINEAR_TOKEN", prefix: "Bearer "}
	if h := f.hintFor(true); !strings.Contains(h, `Authorization = "Bearer ${env("LINEAR_TOKEN")}"`) {
		t.Errorf("HCL hint: %s", h)
	}
	if h := f.hintFor(false); !strings.Contains(h, `"Authorization": "Bearer ${LINEAR_TOKEN}"`) {
		t.Errorf("JSON hint: %s", h)
	}
	f = finding{field: "headers", key: "X-Api-Key", variable: "S_X_API_KEY"}
	if h := f.hintFor(true); !strings.Contains(h, `X-Api-Key = env("S_X_API_KEY")`) {
		t.Errorf("HCL hint for a dashed key: %s", h)
	}
}

func TestReadJSONPositions(t *testing.T) {
	data := []byte(`{
  "command": "srv",
  "args": ["--key", "ghp_1234567890abcdefghijklmnopqrstuvwxyz"],
  "env": {
    "LOG_LEVEL": "debug",
    "API_KEY": "abc"
  }
}
`)
	_, ds := ReadJSON("/x/mcp/my_srv-1.json", data)
	got := positions(ds)
	want := []string{"/x/mcp/my_srv-1.json:3:21 args", "/x/mcp/my_srv-1.json:6:16 env"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, d := range ds {
		if d.Server != "my_srv-1" {
			t.Errorf("server named %q, want the file's name", d.Server)
		}
	}
}

func TestReadJSONNames(t *testing.T) {
	_, ds := ReadJSON("/x/my.server.json", []byte(`{"command": "x"}`))
	if !ds.HasErrors() || !strings.Contains(ds[0].Summary, `"my.server.json"`) {
		t.Errorf("a dotted file name must be refused: %v", ds)
	}
	set, ds := ReadJSON("/x/fetch.json", []byte(`{"type": "http", "url": "https://f.example.com/mcp", "headers": {"Authorization": "Bearer ${F}"}}`))
	if ds.HasErrors() || set.Len() != 1 || set.Servers[0].Name != "fetch" || set.Servers[0].Transport != canonical.HTTP {
		t.Errorf("got %+v %v", set, ds)
	}
}

func TestReadHCL(t *testing.T) {
	data := []byte(`server "db" {
  command = "db-mcp"
  env = {
    LOG_LEVEL = "info"
    DB_URL    = "postgres://u:pw@db/x"
  }
  headers = {}
}

server "bad.name" {
  url = "https://x.example.com/mcp"
}

resolver "r" {
  command = ["x"]
}
`)
	_, ds := ReadHCL("/c/mcpsync.hcl", data)
	got := positions(ds)
	want := []string{"/c/mcpsync.hcl:5:17 env", "/c/mcpsync.hcl:10:8 name", "/c/mcpsync.hcl:14:10 "}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("got %v, want %v", got, want)
	}
	set, ds := ReadHCL("/c/mcpsync.hcl", []byte(`server "ok" {
  command = "x"
  env     = { A = env("A"), B = "$${B}", MODE = "production" }
}
`))
	if ds.HasErrors() || set.Len() != 1 {
		t.Errorf("a clean source must read: %v", ds)
	}
}

func positions(ds canonical.Diagnostics) []string {
	ds.Sort()
	var out []string
	for _, d := range ds {
		if d.Severity == canonical.Error {
			out = append(out, d.Pos().String()+" "+d.Field)
		}
	}
	return out
}

func TestReadDirectory(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("mcp/b.json", `{"command": "b"}`)
	write("mcp/a.json", `{"command": "a"}`)
	write("mcp/README.md", "not a server")
	set, ds := Read(root, "mcp/")
	if ds.HasErrors() || strings.Join(set.Names(), ",") != "a,b" {
		t.Errorf("JSON files in name order: %v %v", set.Names(), ds)
	}
	// mcpsync.hcl wins over JSON files next to it
	write("mcp/mcpsync.hcl", `server "h" { command = "h" }`)
	if set, _ := Read(root, "mcp"); strings.Join(set.Names(), ",") != "h" {
		t.Errorf("mcpsync.hcl must be read alone: %v", set.Names())
	}
	// one file
	if set, ds := Read(root, "mcp/a.json"); ds.HasErrors() || set.Names()[0] != "a" {
		t.Errorf("a path naming one file: %v %v", set.Names(), ds)
	}
	for rel, want := range map[string]string{
		"../x":    "leaves the repository",
		"/etc":    "is absolute",
		"missing": "the repository has no missing",
		"empty":   "holds no mcpsync.hcl and no JSON server file",
	} {
		if rel == "empty" {
			os.MkdirAll(filepath.Join(root, "empty"), 0o755)
		}
		_, ds := Read(root, rel)
		if !ds.HasErrors() || !strings.Contains(ds[0].Error(), want) {
			t.Errorf("Read(%q): %v, want %q", rel, ds, want)
		}
	}
	// links are refused, whether the path or a file is one
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.json"), []byte(`{"command": "x"}`), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "linked")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if _, ds := Read(root, "linked"); !ds.HasErrors() || !strings.Contains(ds[0].Summary, "symbolic link") {
		t.Errorf("a linked directory must be refused: %v", ds)
	}
	os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(root, "mcp2", "x.json"))
	os.MkdirAll(filepath.Join(root, "mcp2"), 0o755)
	os.Symlink(filepath.Join(outside, "secret.json"), filepath.Join(root, "mcp2", "x.json"))
	if _, ds := Read(root, "mcp2"); !ds.HasErrors() || !strings.Contains(ds[0].Summary, "not a regular file") {
		t.Errorf("a linked file must be refused: %v", ds)
	}
}

func TestCheckSource(t *testing.T) {
	ok := store.Source{Name: "acme_1-x", Git: "https://example.com/x.git", Ref: "v1.2", Path: "mcp/"}
	if ds := CheckSource(ok); ds.HasErrors() {
		t.Errorf("%v", ds)
	}
	for _, bad := range []store.Source{
		{Name: "ac.me", Git: "x"},
		{Name: "acme"},
		{Name: "acme", Git: "--upload-pack=touch /tmp/x"},
		{Name: "acme", Git: "ext::sh -c touch% /tmp/x"},
		{Name: "acme", Git: "x", Ref: "--output=/tmp/x"},
		{Name: "acme", Git: "x", Path: "../../etc"},
	} {
		if ds := CheckSource(bad); !ds.HasErrors() {
			t.Errorf("%+v must be refused", bad)
		}
	}
}

func TestRepoURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.com/x.git": "https://example.com/x.git",
		"git@github.com:acme/x.git": "git@github.com:acme/x.git",
		"file:///srv/x.git":         "file:///srv/x.git",
		"/srv/x.git":                "/srv/x.git",
		"../team.git":               "/home/u/team.git",
	} {
		if got := RepoURL(in, "/home/u/.config"); got != filepath.FromSlash(want) {
			t.Errorf("RepoURL(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRecordsApproval(t *testing.T) {
	src := store.Source{Name: "acme", Git: "g", Pos: canonical.Pos{File: "store.hcl", Line: 3, Column: 8}}
	r, err := LoadRecords(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a := canonical.Server{Name: "a", Transport: canonical.Stdio, Command: "a"}
	b := canonical.Server{Name: "b", Transport: canonical.Stdio, Command: "b"}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

	res := r.Update(src, "c1", canonical.Set{Servers: []canonical.Server{a, b}}, now)
	if got := changes(res); got != "acme-a:new:false acme-b:new:false" {
		t.Errorf("first pull: %s", got)
	}
	if len(r.InEffect(src)) != 0 {
		t.Error("nothing is in effect before approval")
	}
	if !r.Approve("acme", "a", now) || r.Approve("acme", "zz", now) || r.Approve("other", "a", now) {
		t.Error("Approve: only pulled servers can be approved")
	}
	eff := r.InEffect(src)
	if len(eff) != 1 || eff[0].Name != "acme-a" || eff[0].Origin != src.Pos {
		t.Errorf("in effect: %+v", eff)
	}

	// a changes upstream, b goes away: a stays in effect as approved
	a2 := a.Clone()
	a2.Args = []string{"--read-only"}
	res = r.Update(src, "c2", canonical.Set{Servers: []canonical.Server{a2}}, now)
	if got := changes(res); got != "acme-a:changed:false acme-b:removed:false" {
		t.Errorf("second pull: %s", got)
	}
	st := r.Statuses("acme")
	if len(st) != 1 || st[0].Approval != PendingChange || st[0].ApprovedAs == nil || st[0].ApprovedAs.Args != nil {
		t.Errorf("statuses: %+v", st)
	}
	if eff := r.InEffect(src); len(eff) != 1 || eff[0].Args != nil {
		t.Errorf("the approved version stays in effect: %+v", eff)
	}

	// b comes back: its approval was dropped when it left, so it is new
	r.Approve("acme", "b", now) // not pulled now: refused
	res = r.Update(src, "c3", canonical.Set{Servers: []canonical.Server{a2, b}}, now)
	if got := changes(res); got != "acme-a:unchanged:false acme-b:new:false" {
		t.Errorf("third pull: %s", got)
	}

	// a failed pull keeps everything and records the error; it survives a save
	r.Approve("acme", "a", now)
	r.Failed("acme", "unreachable", now)
	r.Failed("never-pulled", "x", now)
	if err := r.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := LoadRecords(filepath.Dir(r.Path()))
	if err != nil {
		t.Fatal(err)
	}
	if back.Get("never-pulled") != nil || back.Get("acme").LastError.Message != "unreachable" || back.Get("acme").Commit != "c3" {
		t.Errorf("records read back: %+v", back.Sources)
	}
	if eff := back.InEffect(src); len(eff) != 1 || eff[0].Args[0] != "--read-only" {
		t.Errorf("after approval the new version is in effect: %+v", eff)
	}
	// a good pull clears the error
	back.Update(src, "c4", canonical.Set{Servers: []canonical.Server{a2}}, now)
	if back.Get("acme").LastError != nil {
		t.Error("a good pull must clear the last error")
	}
	if dropped := back.Keep([]string{"other"}); len(dropped) != 1 || back.Get("acme") != nil {
		t.Errorf("Keep: %v", dropped)
	}
}

func changes(rs []PullResult) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.Qualified+":"+string(r.Change)+":"+map[bool]string{true: "true", false: "false"}[r.Approved])
	}
	return strings.Join(out, " ")
}

func TestRecordsDamaged(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, RecordsFile), []byte("{"), 0o600)
	if _, err := LoadRecords(dir); err == nil || !strings.Contains(err.Error(), "move the file aside") {
		t.Errorf("got %v", err)
	}
	os.WriteFile(filepath.Join(dir, RecordsFile), []byte(`{"version": 99}`), 0o600)
	if _, err := LoadRecords(dir); err == nil || !strings.Contains(err.Error(), "newer mcpsync") {
		t.Errorf("got %v", err)
	}
}
