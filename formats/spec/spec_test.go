package spec_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/formatstest"
	"github.com/mcpsync/mcpsync/formats/spec"
)

func TestBuiltinSources(t *testing.T) {
	ids := spec.BuiltinIDs()
	if !slices.Equal(ids, []string{"amazonq", "amp", "antigravity-cli", "auggie", "claude-code", "claude-desktop", "cline", "cline-cli", "copilot", "crush", "cursor", "devin", "devin-cli", "droid",
		"gemini", "junie", "kilo", "kiro", "lm-studio", "opencode", "pi", "qwen", "roo", "visual-studio", "vscode", "windsurf", "zed"}) {
		t.Errorf("BuiltinIDs = %v", ids)
	}
	for _, id := range ids {
		src, ok := spec.BuiltinSource(id)
		if !ok || !strings.Contains(string(src), `client "`+id+`"`) {
			t.Errorf("BuiltinSource(%q) = %q, %v", id, src, ok)
		}
		s, err := spec.Builtin(id)
		if err != nil {
			t.Fatalf("Builtin(%q): %v", id, err)
		}
		if s.DisplayName == "" || len(s.Locations) == 0 {
			t.Errorf("%s: incomplete spec %+v", id, s)
		}
	}
	for _, bad := range []string{"nope", "../spec", "cursor.hcl", ""} {
		if _, ok := spec.BuiltinSource(bad); ok {
			t.Errorf("BuiltinSource(%q) found something", bad)
		}
	}
}

func env(osName, project string, vars map[string]string) formats.Env {
	return formats.Env{Home: "/home/u", ProjectDir: project, OS: osName, Getenv: func(k string) string { return vars[k] }}
}

func paths(a formats.Adapter, e formats.Env) []string {
	var out []string
	for _, l := range a.Locations(e) {
		s := string(l.Scope) + " " + l.Path
		if l.Project != "" {
			s += " [" + l.Project + "]"
		}
		if l.ReadOnly {
			s += " (read-only)"
		}
		out = append(out, s)
	}
	return out
}

func TestLocations(t *testing.T) {
	adapter := func(id string) formats.Adapter { return spec.MustAdapter(spec.MustBuiltin(id), nil) }
	vscodeSpec := spec.MustBuiltin("vscode")
	vscode, err := spec.NewAdapter(vscodeSpec, spec.NoHooks{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		a    formats.Adapter
		env  formats.Env
		want []string
	}{
		{"claude-code without a project", adapter("claude-code"), env("linux", "", nil), []string{
			"user /home/u/.claude.json",
			"managed /etc/claude-code/managed-mcp.json (read-only)",
		}},
		{"claude-code in a project, CLAUDE_CONFIG_DIR set", adapter("claude-code"), env("darwin", "/src/p", map[string]string{"CLAUDE_CONFIG_DIR": "/cfg"}), []string{
			"user /cfg/.claude.json",
			"local /cfg/.claude.json [/src/p]",
			"project /src/p/.mcp.json",
			"managed /Library/Application Support/ClaudeCode/managed-mcp.json (read-only)",
		}},
		{"claude-code on Windows", adapter("claude-code"), formats.Env{Home: `C:\Users\u`, OS: "windows"}, []string{
			`user C:\Users\u\.claude.json`,
			`managed C:\Program Files\ClaudeCode\managed-mcp.json (read-only)`,
		}},
		{"claude-desktop on macOS", adapter("claude-desktop"), env("darwin", "", nil), []string{
			"user /home/u/Library/Application Support/Claude/claude_desktop_config.json",
		}},
		{"claude-desktop on Windows with APPDATA", adapter("claude-desktop"), env("windows", "", map[string]string{"APPDATA": `D:\Roaming`}), []string{
			`user D:\Roaming\Claude\claude_desktop_config.json`,
		}},
		{"claude-desktop on Windows without APPDATA", adapter("claude-desktop"), env("windows", "", nil), []string{
			`user \home\u\AppData\Roaming\Claude\claude_desktop_config.json`,
		}},
		{"vscode on Linux honours XDG_CONFIG_HOME", vscode, env("linux", "/p", map[string]string{"XDG_CONFIG_HOME": "/xdg"}), []string{
			"user /xdg/Code/User/mcp.json",
			"project /p/.vscode/mcp.json",
			"user /xdg/Code/User/settings.json (read-only)",
			"project /p/.vscode/settings.json (read-only)",
		}},
		{"vscode ignores a relative XDG_CONFIG_HOME", vscode, env("linux", "", map[string]string{"XDG_CONFIG_HOME": "rel"}), []string{
			"user /home/u/.config/Code/User/mcp.json",
			"user /home/u/.config/Code/User/settings.json (read-only)",
		}},
		{"opencode", adapter("opencode"), env("linux", "/p", nil), []string{
			"user /home/u/.config/opencode/opencode.jsonc",
			"user /home/u/.config/opencode/opencode.json (read-only)",
			"user /home/u/.config/opencode/config.json (read-only)",
			"project /p/opencode.json",
			"project /p/opencode.jsonc (read-only)",
			"project /p/.opencode/opencode.json (read-only)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := paths(tt.a, tt.env); !slices.Equal(got, tt.want) {
				t.Errorf("Locations:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestChooseFiles: OpenCode writes opencode.json when only it exists.
func TestChooseFiles(t *testing.T) {
	a := spec.MustAdapter(spec.MustBuiltin("opencode"), nil)
	locs := a.Locations(env("linux", "/p", nil))
	writable := func(locs []formats.Location) []string {
		var out []string
		for _, l := range locs {
			if !l.ReadOnly {
				out = append(out, l.Path)
			}
		}
		return out
	}
	for _, l := range locs {
		if l.Path == "/p/opencode.jsonc" && l.Note != "written instead of opencode.json when only this file exists" {
			t.Errorf("note of the alternative: %q", l.Note)
		}
	}
	for _, tt := range []struct {
		exist []string
		want  []string
	}{
		{nil, []string{"/home/u/.config/opencode/opencode.jsonc", "/p/opencode.json"}},
		{[]string{"/p/opencode.jsonc"}, []string{"/home/u/.config/opencode/opencode.jsonc", "/p/opencode.jsonc"}},
		{[]string{"/p/opencode.jsonc", "/p/opencode.json"}, []string{"/home/u/.config/opencode/opencode.jsonc", "/p/opencode.json"}},
		{[]string{"/home/u/.config/opencode/opencode.json"}, []string{"/home/u/.config/opencode/opencode.json", "/p/opencode.json"}},
	} {
		got := writable(a.ChooseFiles(locs, func(p string) bool { return slices.Contains(tt.exist, p) }))
		if !slices.Equal(got, tt.want) {
			t.Errorf("with %v existing, writable = %v, want %v", tt.exist, got, tt.want)
		}
	}
}

func writeFile(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestPlugins: a broken plugin is reported at file:line:col and skipped;
// the good ones load.
func TestPlugins(t *testing.T) {
	dir := t.TempDir()
	good, _ := spec.BuiltinSource("windsurf")
	writeFile(t, dir, "a-windsurf.hcl", string(good))
	writeFile(t, dir, "b-syntax.hcl", "client \"x\" {\n  display_name = \n}\n")
	writeFile(t, dir, "c-typo.hcl", `client "typo" {
  display_name = "Typo"
  format       = "json"
  servers      = ["mcpServers"]
  location "user" { path = "${home}/.typo.json" }
  fields { comand = "command" }
  transport "stdio" {}
}
`)
	writeFile(t, dir, "d-values.hcl", `client "Bad_ID" {
  display_name = "Bad"
  format       = "toml"
  placeholders = "percent"
  servers      = ["mcpServers"]
  location "home" { path = "${hme}/.bad.json" }
  fields { command = "command" }
  transport "grpc" {}
}
`)
	writeFile(t, dir, "e-quirks.hcl", `client "quirky" {
  display_name = "Quirky"
  format       = "json"
  servers      = ["mcpServers"]
  quirks       = "vscode"
  location "user" { path = "${home}/.q.json" }
  fields { command = "command" }
  transport "stdio" {}
}
`)
	writeFile(t, dir, "g-blocks.hcl", `client "blocks" {
  display_name = "Blocks"
  format       = "json"
  servers      = ["mcpServers"]
  location "user" { path = "${home}/.b.json" }
  fields { command = "command" }
  transport "stdio" {}
  command_values {
    prefix  = "!"
    literal = "!"
    fields  = ["env", "command"]
  }
  server_names {
    pattern = "^[a-z"
    rule    = "lowercase letters"
  }
  replaced_remotely {
    key = "cloudSync"
    why = ""
  }
}
`)
	writeFile(t, dir, "f-dup.hcl", strings.Replace(string(good), "Windsurf", "Windsurf again", 1))
	writeFile(t, dir, "notes.txt", "not a plugin")

	adapters, diags := spec.LoadPlugins(dir)
	var ids []string
	for _, a := range adapters {
		ids = append(ids, a.ID())
	}
	if !slices.Equal(ids, []string{"windsurf"}) {
		t.Errorf("loaded %v, want [windsurf]", ids)
	}
	got := map[string][]string{}
	for _, d := range diags {
		if d.File == "" || d.Line == 0 || d.Column == 0 {
			t.Errorf("diagnostic without file:line:col: %v", d)
		}
		got[filepath.Base(d.File)] = append(got[filepath.Base(d.File)], d.Pos().String()[len(d.File)+1:]+" "+d.Summary)
	}
	want := map[string][]string{
		"b-syntax.hcl": {"2:18 Invalid expression"},
		"c-typo.hcl":   {"6:12 Unsupported argument"},
		"d-values.hcl": {"1:8 invalid client id \"Bad_ID\"", "3:18 unsupported format \"toml\"", "4:18 unknown placeholders \"percent\"",
			"8:13 unknown transport \"grpc\"", "6:12 unknown scope \"home\"", "6:31 unknown variable \"hme\""},
		"e-quirks.hcl": {"1:1 " + dir + "/e-quirks.hcl: quirks \"vscode\" need Go code that only a built-in client has; remove the quirks line"},
		"f-dup.hcl":    {"1:1 client \"windsurf\" is also described in " + dir + "/a-windsurf.hcl"},
		"g-blocks.hcl": {"8:3 command_values: prefix and literal must be given, and differ", "11:15 command_values: unknown field \"command\"",
			"17:3 replaced_remotely: key and why must be given", "14:15 server_names: error parsing regexp: missing closing ]: `[a-z`"},
	}
	for f, w := range want {
		if !slices.Equal(got[f], w) {
			t.Errorf("%s:\n got %q\nwant %q", f, got[f], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("diagnostics for %d files, want %d: %v", len(got), len(want), got)
	}
	if a, d := spec.LoadPlugins(filepath.Join(dir, "missing")); len(a) != 0 || len(d) != 0 {
		t.Errorf("a missing plugin dir gave %v, %v", a, d)
	}
}

// futureSpec loads the built-in spec of a client first written to prove the
// format covers it, without its Go quirks: the spec alone.
func futureSpec(t *testing.T, id string) *spec.Adapter {
	t.Helper()
	s, err := spec.Builtin(id)
	if err != nil {
		t.Fatal(err)
	}
	return spec.MustAdapter(s, spec.NoHooks{})
}

func sample(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("../../../shared/reference/client-samples", rel))
	if err != nil {
		t.Skipf("client sample %s not found (the shared reference material is next to the repository): %v", rel, err)
	}
	return b
}

// TestFutureClients reads files the real Gemini CLI, Qwen Code, Copilot CLI
// and Amp wrote, through specs alone: the format describes them.
func TestFutureClients(t *testing.T) {
	type want struct {
		name      string
		transport canonical.Transport
	}
	for _, tt := range []struct {
		id, sample string
		want       []want
		warnings   int
	}{
		{"gemini", "gemini/hand-written/settings.json", []want{
			{"typed-http", canonical.HTTP}, {"typed-sse", canonical.SSE}, {"url-only", canonical.HTTP},
			{"http-url", canonical.HTTP}, {"envs", canonical.Stdio}}, 2},
		{"gemini", "gemini/project/.gemini/settings.json", []want{
			{"stdio-basic", canonical.Stdio}, {"stdio-env", canonical.Stdio}, {"http-srv", canonical.HTTP},
			{"sse-srv", canonical.SSE}, {"dash-args", canonical.Stdio}}, 0},
		{"qwen", "qwen/home/.qwen/settings.json", []want{
			{"stdio-basic", canonical.Stdio}, {"stdio-env", canonical.Stdio}, {"http-auto", canonical.HTTP},
			{"sse-auto", canonical.HTTP}, {"http-srv", canonical.HTTP}, {"sse-srv", canonical.SSE}}, 0},
		{"copilot", "copilot/home/.copilot/mcp-config.json", []want{
			{"stdio-basic", canonical.Stdio}, {"stdio-env", canonical.Stdio}, {"http-srv", canonical.HTTP}, {"sse-srv", canonical.SSE}}, 0},
		{"amp", "amp/home/.config/amp/settings.json", []want{
			{"stdio-basic", canonical.Stdio}, {"stdio-env", canonical.Stdio}, {"remote-srv", canonical.HTTP}}, 0},
	} {
		t.Run(tt.id+"/"+filepath.Base(filepath.Dir(tt.sample)), func(t *testing.T) {
			a := futureSpec(t, tt.id)
			data := sample(t, tt.sample)
			loc := formatstest.DefaultLocation(a)
			set, diags := a.Decode(loc, data)
			if diags.HasErrors() || len(diags) != tt.warnings {
				t.Errorf("diagnostics:\n%s", formatstest.FormatDiags(diags))
			}
			var got []want
			for _, s := range set.Servers {
				got = append(got, want{s.Name, s.Transport})
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("servers:\n got %v\nwant %v", got, tt.want)
			}
			formatstest.CheckInput(t, a, data)
		})
	}
}

// TestFutureClientsWrite writes a set as each future client and checks the
// spellings that make them different.
func TestFutureClientsWrite(t *testing.T) {
	set := canonical.Set{Servers: []canonical.Server{
		{Name: "s", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "x"}, ToolsAllow: []string{"read"}},
		{Name: "h", Transport: canonical.HTTP, URL: "https://e.com/mcp"},
		{Name: "e", Transport: canonical.SSE, URL: "https://e.com/sse"},
	}}
	for id, want := range map[string][]string{
		"gemini":   {`"includeTools": [`, `"url": "https://e.com/mcp",` + "\n" + `      "type": "http"`},
		"qwen":     {`"httpUrl": "https://e.com/mcp"`, `"url": "https://e.com/sse"`},
		"copilot":  {`"s": {` + "\n" + `      "tools": [`, `"type": "local"`},
		"amp":      {`"amp.mcpServers": {`},
		"windsurf": {`"serverUrl": "https://e.com/mcp"`},
		"roo":      {`"type": "streamable-http"`, `"type": "sse"`},
	} {
		a := futureSpec(t, id)
		out, diags := a.Encode(formatstest.DefaultLocation(a), nil, set, formats.EncodeOptions{})
		if diags.HasErrors() {
			t.Fatalf("%s: %s", id, formatstest.FormatDiags(diags))
		}
		for _, w := range want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s: output lacks %q:\n%s", id, w, out)
			}
		}
	}
}

// BenchmarkParseBuiltins is the cold start-up cost of the built-in specs:
// parsing every one of them (each is parsed once per process, on first use).
func BenchmarkParseBuiltins(b *testing.B) {
	var srcs [][]byte
	for _, id := range spec.BuiltinIDs() {
		src, _ := spec.BuiltinSource(id)
		srcs = append(srcs, src)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, src := range srcs {
			if _, diags := spec.Parse("builtin.hcl", src); diags.HasErrors() {
				b.Fatal(diags.Err())
			}
		}
	}
}

// TestDocumentedFormat parses the reference example of the package doc, so
// that the documentation cannot describe a format the parser refuses.
func TestDocumentedFormat(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var example []string
	in := false
	for _, line := range strings.Split(string(doc), "\n") {
		text, ok := strings.CutPrefix(line, "//\t")
		if !ok {
			continue
		}
		if strings.HasPrefix(text, `client "my-editor"`) {
			in = true
		}
		if in {
			example = append(example, text)
			if text == "}" {
				break
			}
		}
	}
	if len(example) < 10 {
		t.Fatalf("no example found in doc.go")
	}
	// The example shows both flags of the same kind; keep one of each.
	src := strings.Join(example, "\n")
	src = strings.Replace(src, `    enabled         = "enabled"       # or disabled = "disabled"`, `    enabled         = "enabled"`, 1)
	specs, diags := spec.Parse("doc.go", []byte(src))
	if len(diags) > 0 || len(specs) != 1 {
		t.Fatalf("the documented example does not parse:\n%s\n%s", formatstest.FormatDiags(diags), src)
	}
	if _, err := spec.NewAdapter(specs[0], nil); err != nil {
		t.Fatal(err)
	}
}
