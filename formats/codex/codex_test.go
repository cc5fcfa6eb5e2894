package codex

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/internal/tomledit"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

// sharedDir is /work/shared from this package: samples written by the real
// Codex and the corpus of config files found in public repositories.
const sharedDir = "../../../shared"

func sharedFile(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(sharedDir, rel))
	if err != nil {
		t.Skipf("shared reference file %s not available (%v); skipping", rel, err)
	}
	return data
}

var userLoc = formats.Location{Client: ID, Scope: canonical.ScopeUser, Path: "config.toml", Format: formats.TOML}

func TestLocations(t *testing.T) {
	env := formats.Env{Home: "/home/u", ProjectDir: "/work/p", OS: "linux"}
	locs := Adapter().Locations(env)
	if len(locs) != 2 || locs[0].Path != "/home/u/.codex/config.toml" || locs[1].Path != "/work/p/.codex/config.toml" {
		t.Fatalf("locations = %+v", locs)
	}
	if locs[1].Scope != canonical.ScopeProject || !strings.Contains(locs[1].Note, `trust_level = "trusted"`) {
		t.Errorf("project location should explain the trust gate: %+v", locs[1])
	}
	env.Getenv = func(k string) string {
		if k == "CODEX_HOME" {
			return "/opt/codex"
		}
		return ""
	}
	if got := Adapter().Locations(env)[0].Path; got != "/opt/codex/config.toml" {
		t.Errorf("CODEX_HOME: got %s", got)
	}
	win := Adapter().Locations(formats.Env{Home: `C:\Users\u`, OS: "windows"})
	if len(win) != 1 || win[0].Path != `C:\Users\u\.codex\config.toml` {
		t.Errorf("windows: %+v", win)
	}
}

// TestRewriteKeepsWhatCodexDropped adds the server that `codex mcp add new1
// -- echo x` added to client-samples/codex/rewrite: the result must mean
// exactly what Codex wrote (same TOML values everywhere), and keep the
// comments Codex dropped.
func TestRewriteKeepsWhatCodexDropped(t *testing.T) {
	before := sharedFile(t, "reference/client-samples/codex/rewrite/config.toml.before")
	after := sharedFile(t, "reference/client-samples/codex/rewrite/config.toml.after")
	set, ds := Adapter().Decode(userLoc, before)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	set.Put(canonical.Server{Name: "new1", Transport: canonical.Stdio, Command: "echo", Args: []string{"x"}})
	out, ds := Adapter().Encode(userLoc, before, set, formats.EncodeOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	var ours, codex map[string]any
	if _, err := toml.Decode(string(out), &ours); err != nil {
		t.Fatalf("our output is not TOML: %v", err)
	}
	if _, err := toml.Decode(string(after), &codex); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ours, codex) {
		t.Errorf("our edit means something else than Codex's:\nours:  %v\ncodex: %v", ours, codex)
	}
	for _, comment := range []string{"# top comment", `model = "o3" # trailing`, "[mcp_servers.keep] # c2", `command = "echo" # c3`} {
		if !bytes.Contains(out, []byte(comment)) {
			t.Errorf("lost %q, which codex mcp add dropped too:\n%s", comment, out)
		}
		inTable := strings.Contains(comment, "c2") || strings.Contains(comment, "c3")
		if inTable && bytes.Contains(after, []byte(comment)) {
			t.Errorf("the sample changed: codex kept %q", comment)
		}
	}
	if !bytes.HasPrefix(out, before[:bytes.Index(before, []byte("[other]"))]) {
		t.Errorf("bytes before the new server changed:\n%s", out)
	}
}

// TestHandWrittenDecodesFully reads the file that exercises every field
// Codex documents: nothing may be left as an unexplained Extra.
func TestHandWrittenDecodesFully(t *testing.T) {
	data := sharedFile(t, "reference/client-samples/codex/hand-written/config.toml")
	set, ds := Adapter().Decode(userLoc, data)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	stdio, _ := set.Get("full-stdio")
	if stdio.Env["HOME"] != "${HOME}" || stdio.Env["PATH"] != "${PATH}" || stdio.Env["API_KEY"] != "xxx" ||
		stdio.Cwd != "/tmp" || stdio.StartupTimeout != 20*time.Second || stdio.ToolTimeout != 60500*time.Millisecond ||
		!reflect.DeepEqual(stdio.ToolsAllow, []string{"echo", "add"}) || !reflect.DeepEqual(stdio.ToolsDeny, []string{"add"}) {
		t.Errorf("full-stdio = %+v", stdio)
	}
	http, _ := set.Get("full-http")
	wantHeaders := map[string]string{"Authorization": "Bearer ${MY_TOKEN}", "X-Static": "v", "X-From-Env": "${MY_HEADER_ENV}"}
	if !reflect.DeepEqual(http.Headers, wantHeaders) || !http.Disabled || http.StartupTimeout != 15*time.Second {
		t.Errorf("full-http = %+v", http)
	}
	o := http.Auth.OAuth
	if o == nil || o.ClientID != "cid" || o.CallbackPort != 8765 || o.Resource != "https://example.com/res" ||
		!reflect.DeepEqual(o.Scopes, []string{"read", "write"}) {
		t.Errorf("oauth = %+v", o)
	}
	// Only the keys the model has no field for are Extra.
	for name, want := range map[string][]string{"full-stdio": {"env_vars", "required"}, "full-http": {"tools"}} {
		srv, _ := set.Get(name)
		var got []string
		for k := range srv.Extra[ID] {
			got = append(got, k)
		}
		if strings.Join(mapkeys.Sorted(srv.Extra[ID]), ",") != strings.Join(want, ",") {
			t.Errorf("%s extra keys = %v, want %v", name, got, want)
		}
	}
}

// TestEncodeShape checks what Codex reads from our output, decoded by
// BurntSushi/toml: the structural forms Codex has for references.
func TestEncodeShape(t *testing.T) {
	want := canonical.Set{Servers: []canonical.Server{
		{Name: "gh", Command: "npx", Args: []string{"-y", "pkg"}, Env: map[string]string{"GITHUB_TOKEN": "${GITHUB_TOKEN}", "MODE": "fast"}},
		{Name: "api", URL: "https://e.com/mcp", Headers: map[string]string{"Authorization": "Bearer ${TOKEN}", "X-Key": "${KEY}", "X-Static": "v"}},
		{Name: "off", URL: "https://e.com/off", Disabled: true, StartupTimeout: 2500 * time.Millisecond},
	}}
	out, ds := Adapter().Encode(userLoc, nil, want, formats.EncodeOptions{})
	if len(ds) > 0 {
		t.Fatalf("unexpected diagnostics: %v", ds)
	}
	var got map[string]any
	if _, err := toml.Decode(string(out), &got); err != nil {
		t.Fatalf("output is not TOML: %v\n%s", err, out)
	}
	wantShape := map[string]any{"mcp_servers": map[string]any{
		"gh": map[string]any{"command": "npx", "args": []any{"-y", "pkg"}, "env_vars": []any{"GITHUB_TOKEN"},
			"env": map[string]any{"MODE": "fast"}},
		"api": map[string]any{"url": "https://e.com/mcp", "bearer_token_env_var": "TOKEN",
			"env_http_headers": map[string]any{"X-Key": "KEY"}, "http_headers": map[string]any{"X-Static": "v"}},
		"off": map[string]any{"url": "https://e.com/off", "enabled": false, "startup_timeout_sec": 2.5},
	}}
	if !reflect.DeepEqual(got, wantShape) {
		t.Errorf("Codex shape:\n got %v\nwant %v\n%s", got, wantShape, out)
	}
	if !bytes.HasSuffix(out, []byte("\n")) {
		t.Error("a new file must end with a newline")
	}
	back, ds := Adapter().Decode(userLoc, out)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	for _, w := range want.Servers {
		g, _ := back.Get(w.Name)
		if !canonical.Equal(g, w) {
			t.Errorf("%s reads back as %+v", w.Name, g)
		}
	}
}

func TestEncodeWarnsWhatCodexCannotExpress(t *testing.T) {
	store := canonical.Pos{File: "mcpsync.hcl", Line: 3, Column: 1}
	want := canonical.Set{Servers: []canonical.Server{
		{Name: "sse", Transport: canonical.SSE, URL: "https://e.com/sse", Origin: store},
		{Name: "ren", Command: "x", Env: map[string]string{"API_KEY": "${GITHUB_TOKEN}"}},
		{Name: "hdr", URL: "https://e.com/mcp", Headers: map[string]string{"X-A": "${A}-${B}"}},
		{Name: "std", Command: "x", Headers: map[string]string{"X": "y"}},
	}}
	out, ds := Adapter().Encode(userLoc, nil, want, formats.EncodeOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	fields := map[string]string{}
	for _, d := range ds {
		if d.Severity != canonical.Warning || d.Server == "" || d.Field == "" {
			t.Errorf("every problem is a warning naming the server and the field: %v", d)
		}
		fields[d.Server] = d.Field
	}
	if fields["sse"] != "transport" || fields["ren"] != "env.API_KEY" || fields["hdr"] != "headers.X-A" || fields["std"] != "headers" {
		t.Errorf("warnings = %v", ds)
	}
	if ds[0].File != "mcpsync.hcl" || ds[0].Line != 3 {
		t.Errorf("a warning about a server from the store points at its definition: %v", ds[0])
	}
	if bytes.Contains(out, []byte("sse")) {
		t.Errorf("an SSE server was written:\n%s", out)
	}
	var got map[string]any
	if _, err := toml.Decode(string(out), &got); err != nil {
		t.Fatal(err)
	}
	servers := got["mcp_servers"].(map[string]any)
	if v := servers["ren"].(map[string]any)["env_vars"]; !reflect.DeepEqual(v, []any{"GITHUB_TOKEN"}) {
		t.Errorf("renamed reference: env_vars = %v", v)
	}
}

// TestSSEKeepsExistingEntry: skipping an SSE server must not delete the
// entry the file already has under that name.
func TestSSEKeepsExistingEntry(t *testing.T) {
	in := []byte("[mcp_servers.s]\nurl = \"https://e.com/sse\" # mine\n")
	want := canonical.Set{Servers: []canonical.Server{{Name: "s", Transport: canonical.SSE, URL: "https://e.com/sse"}}}
	out, ds := Adapter().Encode(userLoc, in, want, formats.EncodeOptions{})
	if !bytes.Equal(out, in) || len(ds) != 1 {
		t.Fatalf("out=%q ds=%v", out, ds)
	}
}

func TestWindowsWrapsNpx(t *testing.T) {
	want := canonical.Set{Servers: []canonical.Server{{Name: "a", Command: "npx", Args: []string{"-y", "pkg"}}, {Name: "b", Command: "uvx", Args: []string{"pkg"}}}}
	out, _ := Adapter().Encode(userLoc, nil, want, formats.EncodeOptions{OS: "windows"})
	if !bytes.Contains(out, []byte(`command = "cmd"`+"\n"+`args = ["/c", "npx", "-y", "pkg"]`)) || !bytes.Contains(out, []byte(`command = "uvx"`)) {
		t.Fatalf("windows output:\n%s", out)
	}
	set, _ := Adapter().Decode(userLoc, out)
	if !canonical.Equal(set.Servers[0], want.Servers[0]) {
		t.Errorf("cmd /c is not unwrapped on import: %+v", set.Servers[0])
	}
	// A changed server keeps the wrapper the file uses, even without --os.
	want.Servers[0].Args = []string{"-y", "pkg@2"}
	out2, _ := Adapter().Encode(userLoc, out, want, formats.EncodeOptions{})
	if !bytes.Contains(out2, []byte(`args = ["/c", "npx", "-y", "pkg@2"]`)) {
		t.Errorf("wrapper lost:\n%s", out2)
	}
}

// TestUnknownKeysSurvive: a changed server keeps the keys mcpsync does not
// model, in place, with their comments.
func TestUnknownKeysSurvive(t *testing.T) {
	in := []byte(`[mcp_servers.a]
command = "x"
required = true # must start
default_tools_approval_mode = "prompt"

[mcp_servers.a.tools.echo]
approval_mode = "approve"
`)
	set, _ := Adapter().Decode(userLoc, in)
	set.Servers[0].Args = []string{"--new"}
	out, ds := Adapter().Encode(userLoc, in, set, formats.EncodeOptions{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	want := strings.Replace(string(in), "default_tools_approval_mode = \"prompt\"\n", "default_tools_approval_mode = \"prompt\"\nargs = [\"--new\"]\n", 1)
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
	// Without Extra from the store (a server that came from another
	// client), the keys the user wrote stay too.
	srv := set.Servers[0]
	srv.Extra = nil
	srv.Args = []string{"--other"}
	out, _ = Adapter().Encode(userLoc, in, canonical.Set{Servers: []canonical.Server{srv}}, formats.EncodeOptions{})
	if !bytes.Contains(out, []byte("required = true # must start")) || !bytes.Contains(out, []byte("[mcp_servers.a.tools.echo]")) {
		t.Errorf("unknown keys lost:\n%s", out)
	}
}

// corpusFiles returns every Codex file of the shared samples and corpus.
func corpusFiles(tb testing.TB) map[string][]byte {
	tb.Helper()
	out := map[string][]byte{}
	for _, pattern := range []string{
		"corpus/wild/codex/*",
		"reference/client-samples/codex/*/*.toml",
		"reference/client-samples/codex/home/.codex/config.toml",
		"reference/client-samples/codex/project/.codex/config.toml",
		"reference/client-samples/codex/project/user-config.toml.with-trust",
		"reference/client-samples/codex/rewrite/*",
	} {
		files, _ := filepath.Glob(filepath.Join(sharedDir, pattern))
		for _, f := range files {
			if data, err := os.ReadFile(f); err == nil {
				out[f] = data
			}
		}
	}
	return out
}

// TestCorpus: every real file imports or yields diagnostics with a line and
// a column; a file that imports comes back byte for byte, and changing one
// of its servers leaves every byte outside that server as it was.
func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	if len(files) == 0 {
		t.Skip("shared corpus not found at " + sharedDir + "; nothing to check")
	}
	for path, data := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			loc := userLoc
			loc.Path = path
			set, ds := Adapter().Decode(loc, data)
			for _, d := range ds {
				if d.Line == 0 || d.Column == 0 || d.File != path {
					t.Errorf("diagnostic without a place: %v", d)
				}
			}
			if ds.HasErrors() {
				return
			}
			out, eds := Adapter().Encode(loc, data, set, formats.EncodeOptions{})
			if eds.HasErrors() || !bytes.Equal(out, data) {
				t.Fatalf("Encode(Decode(x)) != x (%v)", eds)
			}
			if set.Len() == 0 {
				return
			}
			changed := set.Clone()
			srv := &changed.Servers[0]
			srv.Disabled = !srv.Disabled
			out, eds = Adapter().Encode(loc, data, changed, formats.EncodeOptions{})
			if eds.HasErrors() {
				t.Fatalf("editing %s: %v", srv.Name, eds.Err())
			}
			doc, _ := tomledit.Parse(data)
			spans := doc.Spans(section, srv.Name)
			first, last := spans[0].Start, spans[len(spans)-1].End
			if !bytes.HasPrefix(out, data[:first]) || !bytes.HasSuffix(out, data[last:]) {
				t.Errorf("bytes outside %s changed:\n%s", srv.Name, out)
			}
			back, _ := Adapter().Decode(loc, out)
			if g, _ := back.Get(srv.Name); !canonical.Equal(g, *srv, ID) {
				t.Errorf("edited server reads back as %+v", g)
			}
		})
	}
}

// A url server's stdio-only fields are each warned about, in the same
// order every run (they were once gathered from a map).
func TestStdioFieldsOfURLServerWarnedInOrder(t *testing.T) {
	want := canonical.Set{Servers: []canonical.Server{
		{Name: "api", URL: "https://e.com/mcp", Args: []string{"-v"}, Env: map[string]string{"A": "1"}, Cwd: "/srv"},
	}}
	for range 20 {
		_, ds := Adapter().Encode(userLoc, nil, want, formats.EncodeOptions{})
		var fields []string
		for _, d := range ds {
			fields = append(fields, d.Field)
		}
		if got := strings.Join(fields, ","); got != "args,env,cwd" {
			t.Fatalf("warned about %q, want args,env,cwd: %v", got, ds)
		}
	}
}
