package paste

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// want describes the expected result of one Parse: the servers as compact
// canonical JSON (origin left out) and a substring of each diagnostic, in
// order, prefixed by its line:col.
type parseCase struct {
	name  string
	in    string
	opts  Options
	want  []string // canonical JSON of each server, without origin
	diags []string // "line:col severity: substring"
}

func (c parseCase) run(t *testing.T) {
	t.Helper()
	set, ds := Parse([]byte(c.in), c.opts)
	var got []string
	for _, s := range set.Servers {
		s.Origin = canonical.Pos{}
		b, _ := json.Marshal(s)
		got = append(got, string(b))
	}
	if !ds.HasErrors() && !reflect.DeepEqual(got, c.want) {
		t.Errorf("servers:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(c.want, "\n     "))
	}
	if len(ds) != len(c.diags) {
		t.Errorf("got %d diagnostics, want %d:\n%s", len(ds), len(c.diags), canonical.DiagnosticsError(ds))
		return
	}
	for i, want := range c.diags {
		d := ds[i]
		prefix := fmt.Sprintf("%d:%d %s: ", d.Line, d.Column, d.Severity)
		text := prefix + d.Summary
		if !strings.HasPrefix(want, prefix) || !strings.Contains(text, strings.TrimPrefix(want, prefix)) {
			t.Errorf("diagnostic %d = %q, want %q", i, text, want)
		}
	}
}

func TestParseShapes(t *testing.T) {
	github := `{"name":"github","transport":"stdio","command":"npx","args":["-y","@modelcontextprotocol/server-github"],"env":{"GITHUB_PERSONAL_ACCESS_TOKEN":"${GITHUB_TOKEN}"}}`
	cases := []parseCase{{
		name: "mcpServers",
		in:   `{"mcpServers": {"github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}"}}}}`,
		want: []string{github},
	}, {
		name: "JSONC with comments and trailing commas",
		in: `{
  // my servers
  "mcpServers": {
    "github": {
      "command": "npx", /* pinned later */
      "args": ["-y", "@modelcontextprotocol/server-github",],
      "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${env:GITHUB_TOKEN}"},
    },
  },
}`,
		want: []string{github},
	}, {
		name: "VS Code servers with inputs",
		in:   `{"inputs": [{"type": "promptString", "id": "key"}], "servers": {"ctx": {"type": "http", "url": "https://mcp.context7.com/mcp", "headers": {"K": "${input:key}"}}}}`,
		want: []string{`{"name":"ctx","transport":"http","url":"https://mcp.context7.com/mcp","headers":{"K":"${input:key}"},"extra":{"vscode":{"inputs":[{"type":"promptString","id":"key"}]}}}`},
	}, {
		name: "VS Code settings.json",
		in:   `{"editor.fontSize": 12, "mcp": {"servers": {"fs": {"type": "stdio", "command": "npx", "args": ["${workspaceFolder}"], "envFile": ".env"}}}}`,
		want: []string{`{"name":"fs","transport":"stdio","command":"npx","args":["${workspaceFolder}"],"extra":{"vscode":{"envFile":".env"}}}`},
	}, {
		name: "OpenCode",
		in:   `{"$schema": "https://opencode.ai/config.json", "mcp": {"local": {"type": "local", "command": ["node", "srv.js"], "environment": {"T": "{env:TOKEN}"}, "enabled": false, "timeout": 15000}, "remote": {"type": "remote", "url": "https://x.example/mcp", "oauth": false}}}`,
		want: []string{
			`{"name":"local","transport":"stdio","command":"node","args":["srv.js"],"env":{"T":"${TOKEN}"},"disabled":true,"startupTimeout":15000000000}`,
			`{"name":"remote","transport":"http","url":"https://x.example/mcp","extra":{"opencode":{"oauth":false}}}`,
		},
	}, {
		name: "Zed, current and legacy",
		in:   `{"context_servers": {"new": {"command": "node", "args": ["a.js"], "env": {}, "timeout": 30}, "old": {"source": "custom", "command": {"path": "uvx", "args": ["mcp-server-git"], "env": {"A": "b"}}}, "remote": {"url": "https://z.example/mcp"}}}`,
		want: []string{
			`{"name":"new","transport":"stdio","command":"node","args":["a.js"],"toolTimeout":30000000000}`,
			`{"name":"old","transport":"stdio","command":"uvx","args":["mcp-server-git"],"env":{"A":"b"},"extra":{"zed":{"source":"custom"}}}`,
			`{"name":"remote","transport":"http","url":"https://z.example/mcp"}`,
		},
	}, {
		name: "Claude Code ~/.claude.json with projects",
		in:   `{"mcpServers": {"u": {"type": "stdio", "command": "uvx", "args": ["mcp-server-git"], "env": {}}}, "projects": {"/a": {"mcpServers": {"p": {"type": "sse", "url": "https://e.example/sse"}}}, "/b": {"mcpServers": {"p": {"type": "sse", "url": "https://e.example/sse"}}}}}`,
		want: []string{
			`{"name":"u","transport":"stdio","command":"uvx","args":["mcp-server-git"]}`,
			`{"name":"p","transport":"sse","url":"https://e.example/sse"}`,
		},
	}, {
		name: "bare map",
		in:   `{"fetch": {"command": "uvx", "args": ["mcp-server-fetch"]}}`,
		want: []string{`{"name":"fetch","transport":"stdio","command":"uvx","args":["mcp-server-fetch"]}`},
	}, {
		name: "single server with a name",
		in:   `{"command": "uvx", "args": ["mcp-server-fetch"]}`,
		opts: Options{Name: "fetch"},
		want: []string{`{"name":"fetch","transport":"stdio","command":"uvx","args":["mcp-server-fetch"]}`},
	}, {
		name: "fragment without braces",
		in:   "\"fetch\": {\"command\": \"uvx\", \"args\": [\"mcp-server-fetch\"]},\n\"time\": {\"command\": \"uvx\", \"args\": [\"mcp-server-time\"]},",
		want: []string{
			`{"name":"fetch","transport":"stdio","command":"uvx","args":["mcp-server-fetch"]}`,
			`{"name":"time","transport":"stdio","command":"uvx","args":["mcp-server-time"]}`,
		},
	}, {
		name: "fragment of a wrapper",
		in:   `"mcpServers": {"fetch": {"command": "uvx", "args": ["mcp-server-fetch"]}}`,
		want: []string{`{"name":"fetch","transport":"stdio","command":"uvx","args":["mcp-server-fetch"]}`},
	}, {
		// A whole config.toml is read as Codex reads it (the env_vars with a
		// source stay for Codex, as its adapter keeps them).
		name: "Codex TOML",
		in: `model = "gpt-5"

[mcp_servers.full]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-everything"]
env = { API_KEY = "xxx" }
env_vars = ["HOME", { name = "PATH", source = "local" }]
cwd = "/tmp"
enabled = false
startup_timeout_sec = 20
tool_timeout_sec = 60.5
enabled_tools = ["echo", "add"]
disabled_tools = ["add"]

[mcp_servers.web]
url = "https://example.com/mcp"
bearer_token_env_var = "MY_TOKEN"
http_headers = { "X-Static" = "v" }
env_http_headers = { "X-From-Env" = "MY_HEADER_ENV" }
startup_timeout_ms = 15000
scopes = ["read", "write"]
oauth_resource = "https://example.com/res"

[mcp_servers.web.oauth]
client_id = "cid"
callback_port = 8765

[mcp_servers.web.tools.echo]
approval_mode = "approve"
`,
		want: []string{
			`{"name":"full","transport":"stdio","command":"npx","args":["-y","@modelcontextprotocol/server-everything"],"env":{"API_KEY":"xxx","HOME":"${HOME}","PATH":"${PATH}"},"cwd":"/tmp","disabled":true,"toolsAllow":["echo","add"],"toolsDeny":["add"],"startupTimeout":20000000000,"toolTimeout":60500000000,"extra":{"codex":{"env_vars":["HOME",{"name":"PATH","source":"local"}]}}}`,
			`{"name":"web","transport":"http","url":"https://example.com/mcp","headers":{"Authorization":"Bearer ${MY_TOKEN}","X-From-Env":"${MY_HEADER_ENV}","X-Static":"v"},"startupTimeout":15000000000,"auth":{"oauth":{"clientId":"cid","scopes":["read","write"],"callbackPort":8765,"resource":"https://example.com/res"}},"extra":{"codex":{"tools":{"echo":{"approval_mode":"approve"}}}}}`,
		},
	}, {
		name:  "Cline CLI nested transport",
		in:    `{"mcpServers": {"c": {"transport": {"type": "streamableHttp", "url": "https://c.example/mcp", "headers": {"A": "b"}}, "disabled": true, "timeout": 60}}}`,
		want:  []string{`{"name":"c","transport":"http","url":"https://c.example/mcp","headers":{"A":"b"},"disabled":true,"toolTimeout":60000000000}`},
		diags: []string{`1:45 warning: transport "streamableHttp" read as "http"`},
	}, {
		name: "Gemini spellings",
		in:   `{"mcpServers": {"g": {"command": "node", "args": ["$HOME/srv.js"], "includeTools": ["a"], "excludeTools": ["b"], "timeout": 30000, "trust": true}}}`,
		want: []string{`{"name":"g","transport":"stdio","command":"node","args":["${HOME}/srv.js"],"toolsAllow":["a"],"toolsDeny":["b"],"toolTimeout":30000000000,"extra":{"gemini":{"trust":true}}}`},
	}, {
		name: "Roo and Kiro keys",
		in:   `{"mcpServers": {"r": {"command": "uvx", "args": ["x"], "disabled": false, "alwaysAllow": ["t"], "disabledTools": ["d"]}}}`,
		want: []string{`{"name":"r","transport":"stdio","command":"uvx","args":["x"],"toolsDeny":["d"],"extra":{"roo":{"alwaysAllow":["t"]}}}`},
	}, {
		name: "Goose spellings",
		in:   `{"gs": {"type": "stdio", "cmd": "npx", "args": ["-y", "x"], "envs": {"K": "v"}, "timeout": 300, "name": "gs", "available_tools": ["a"]}}`,
		want: []string{`{"name":"gs","transport":"stdio","command":"npx","args":["-y","x"],"env":{"K":"v"},"toolsAllow":["a"],"toolTimeout":300000000000}`},
	}, {
		name:  "Copilot CLI tools",
		in:    `{"mcpServers": {"cp": {"type": "local", "command": "npx", "args": [], "tools": ["*"]}}}`,
		want:  []string{`{"name":"cp","transport":"stdio","command":"npx"}`},
		diags: []string{`1:32 warning: transport "local" read as "stdio"`},
	}, {
		name: "Claude Code keys stay in Extra",
		in:   `{"mcpServers": {"cc": {"type": "http", "url": "https://a.example/mcp", "timeout": 5, "oauth": {"clientId": "id", "callbackPort": 8080, "scopes": "a b"}}}}`,
		want: []string{`{"name":"cc","transport":"http","url":"https://a.example/mcp","auth":{"oauth":{"clientId":"id","scopes":["a","b"],"callbackPort":8080}},"extra":{"claude-code":{"timeout":5}}}`},
	}, {
		name: "Continue list",
		in:   `[{"name": "everything", "command": "npx", "args": ["-y", "x"], "env": {"K": "${{ secrets.API_KEY }}"}}]`,
		want: []string{`{"name":"everything","transport":"stdio","command":"npx","args":["-y","x"],"env":{"K":"${API_KEY}"}}`},
	}}
	for _, c := range cases {
		t.Run(c.name, c.run)
	}
}

func TestParseRepairs(t *testing.T) {
	cases := []parseCase{{
		name:  "url without type",
		in:    `{"mcpServers": {"a": {"url": "https://a.example/mcp"}}}`,
		want:  []string{`{"name":"a","transport":"http","url":"https://a.example/mcp"}`},
		diags: []string{"1:30 warning: a url without a type is read as streamable HTTP"},
	}, {
		name: "type spellings",
		in: `{"mcpServers": {
"a": {"type": "streamable-http", "url": "https://a.example/mcp"},
"b": {"type": "streamableHttp", "url": "https://b.example/mcp"},
"c": {"type": "remote", "url": "https://c.example/mcp"},
"d": {"type": "local", "command": "x"},
"e": {"type": "streamable_http", "url": "https://e.example/mcp"},
"f": {"type": "SSE", "url": "https://f.example/sse"}}}`,
		want: []string{
			`{"name":"a","transport":"http","url":"https://a.example/mcp"}`,
			`{"name":"b","transport":"http","url":"https://b.example/mcp"}`,
			`{"name":"c","transport":"http","url":"https://c.example/mcp"}`,
			`{"name":"d","transport":"stdio","command":"x"}`,
			`{"name":"e","transport":"http","url":"https://e.example/mcp"}`,
			`{"name":"f","transport":"sse","url":"https://f.example/sse"}`,
		},
		diags: []string{
			`2:15 warning: transport "streamable-http" read as "http" (streamable HTTP)`,
			`3:15 warning: transport "streamableHttp" read as "http"`,
			`4:15 warning: transport "remote" read as "http"`,
			`5:15 warning: transport "local" read as "stdio"`,
			`6:15 warning: transport "streamable_http" read as "http"`,
			`7:15 warning: transport "SSE" read as "sse"`,
		},
	}, {
		name: "serverUrl and httpUrl",
		in:   "{\"mcpServers\": {\n\"w\": {\"serverUrl\": \"https://w.example/mcp\"},\n\"g\": {\"httpUrl\": \"https://g.example/mcp\"}}}",
		want: []string{
			`{"name":"w","transport":"http","url":"https://w.example/mcp"}`,
			`{"name":"g","transport":"http","url":"https://g.example/mcp"}`,
		},
		diags: []string{
			`2:20 warning: "serverUrl" without a type is read as the url of a streamable HTTP server`,
			`3:18 warning: "httpUrl" read as the url of a streamable HTTP server`,
		},
	}, {
		name:  "command as an array",
		in:    `{"mcpServers": {"a": {"command": ["npx", "-y", "pkg"], "args": ["--x"]}}}`,
		want:  []string{`{"name":"a","transport":"stdio","command":"npx","args":["-y","pkg","--x"]}`},
		diags: []string{`1:34 warning: "command" is an array`},
	}, {
		name:  "command line in one string",
		in:    `{"mcpServers": {"a": {"command": "npx -y '@scope/pkg name' --token \"$X y\""}}}`,
		want:  []string{`{"name":"a","transport":"stdio","command":"npx","args":["-y","@scope/pkg name","--token","$X y"]}`},
		diags: []string{`1:34 warning: the command line "npx -y '@scope/pkg name' --token \"$X y\"" was split with shell quoting rules into the command "npx" and 4 arguments`},
	}, {
		name: "a path with spaces is not split",
		in:   `{"mcpServers": {"a": {"command": "C:\\Program Files\\nodejs\\node.exe", "args": ["x.js"]}}}`,
		want: []string{`{"name":"a","transport":"stdio","command":"C:\\Program Files\\nodejs\\node.exe","args":["x.js"]}`},
	}, {
		name:  "cmd /c unwrapped",
		in:    `{"mcpServers": {"a": {"command": "cmd", "args": ["/c", "npx", "-y", "pkg"]}}}`,
		want:  []string{`{"name":"a","transport":"stdio","command":"npx","args":["-y","pkg"]}`},
		diags: []string{`1:34 warning: unwrapped the Windows "cmd /c" wrapper: the command is "npx"`},
	}, {
		name:  "cmd.exe /c with the command line in one argument",
		in:    `{"mcpServers": {"a": {"command": "C:\\Windows\\System32\\cmd.exe", "args": ["/C", "npx -y pkg"]}}}`,
		want:  []string{`{"name":"a","transport":"stdio","command":"npx","args":["-y","pkg"]}`},
		diags: []string{`1:34 warning: unwrapped the Windows "cmd /c" wrapper`},
	}, {
		name:  "args as one string",
		in:    `{"mcpServers": {"a": {"command": "uvx", "args": "mcp-server-git --repo ."}}}`,
		want:  []string{`{"name":"a","transport":"stdio","command":"uvx","args":["mcp-server-git","--repo","."]}`},
		diags: []string{`1:49 warning: "args" is one string; split into 3 arguments`},
	}, {
		name: "numbers where strings belong",
		in:   `{"servers": {"a": {"type": "stdio", "command": "node", "args": ["--port", 3000], "env": {"DEBUG": true, "N": 1.5}}}}`,
		want: []string{`{"name":"a","transport":"stdio","command":"node","args":["--port","3000"],"env":{"DEBUG":"true","N":"1.5"}}`},
		diags: []string{
			`1:75 warning: args[1] is a number; read as the string "3000"`,
			`1:99 warning: env.DEBUG is a boolean; read as the string "true"`,
			`1:110 warning: env.N is a number; read as the string "1.5"`,
		},
	}, {
		name: "placeholders in every spelling",
		in: `{"mcpServers": {"a": {"command": "node", "args": ["${userHome}/x", "${workspaceFolder}"], "env": {
"A": "${A}", "B": "${B:-dflt}", "C": "${env:C}", "D": "{env:D}", "E": "${input:e-key}", "F": "${{ secrets.F }}", "G": "$G"}}}}`,
		want: []string{`{"name":"a","transport":"stdio","command":"node","args":["${userHome}/x","${workspaceFolder}"],"env":{"A":"${A}","B":"${B:-dflt}","C":"${C}","D":"${D}","E":"${input:e-key}","F":"${F}","G":"$G"}}`},
	}, {
		name:  "references a Codex file would not expand",
		in:    "[mcp_servers.a]\ncommand = \"x\"\nenv = { T = \"${TOKEN}\" }\n",
		want:  []string{`{"name":"a","transport":"stdio","command":"x","env":{"T":"${TOKEN}"}}`},
		diags: []string{`3:9 warning: Codex passes ${TOKEN} literally`},
	}, {
		name:  "--name renames the one server",
		in:    `{"mcpServers": {"fetch": {"command": "uvx"}}}`,
		opts:  Options{Name: "web"},
		want:  []string{`{"name":"web","transport":"stdio","command":"uvx"}`},
		diags: nil,
	}}
	for _, c := range cases {
		t.Run(c.name, c.run)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []parseCase{
		{name: "empty", in: " \n\t", diags: []string{"1:1 error: empty input"}},
		{name: "malformed JSON", in: "{\"mcpServers\": {\n  \"a\": {\"command\": \"x\",, }\n}}", opts: Options{File: "p.json"},
			diags: []string{"2:24 error: malformed JSON: invalid character ','"}},
		{name: "malformed JSON fragment", in: "\"a\": {\"command\": \"x\"\n\"b\": 1", diags: []string{"2:1 error: malformed JSON"}},
		{name: "malformed TOML", in: "[mcp_servers.a]\ncommand = \n", diags: []string{"2:11 error: malformed TOML"}},
		{name: "YAML server of nothing", in: "mcpServers:\n  a: {}\n", diags: []string{"2:3 error: server has neither a command nor a url"}},
		{name: "malformed YAML", in: "mcpServers:\n  - name: a\n    command: [x\n", diags: []string{"2:1 error: malformed YAML"}},
		{name: "no servers", in: `{"theme": "dark"}`, diags: []string{"1:1 error: no MCP servers found"}},
		{name: "empty wrapper", in: `{"mcpServers": {}}`, diags: []string{`1:2 error: "mcpServers" holds no servers`}},
		{name: "wrapper of the wrong kind", in: `{"mcpServers": "x"}`, diags: []string{`1:16 error: "mcpServers" must be an object`}},
		{name: "single server without a name", in: `{"command": "npx"}`, diags: []string{"1:1 error: this is a single server without a name"}},
		{name: "unknown transport", in: `{"mcpServers": {"a": {"type": "websocket", "url": "wss://x"}}}`,
			diags: []string{`1:31 error: unknown transport "websocket"`}},
		{name: "both command and url", in: `{"mcpServers": {"a": {"command": "x", "url": "https://x.example"}}}`,
			diags: []string{"1:17 error: server has both a command and a url"}},
		{name: "env value null", in: `{"mcpServers": {"a": {"command": "x", "env": {"T": null}}}}`, diags: []string{"1:52 error: env.T is null"}},
		{name: "env value object", in: `{"mcpServers": {"a": {"command": "x", "env": {"T": {}}}}}`, diags: []string{"1:52 error: env.T must be a string, not an object"}},
		{name: "server not an object", in: `{"mcpServers": {"a": "npx x"}}`, diags: []string{`1:22 error: server "a" must be an object`}},
		{name: "duplicate names", in: "{\"mcpServers\": {\"a\": {\"command\": \"x\"}},\n\"servers\": {\"a\": {\"command\": \"y\"}}}",
			diags: []string{`2:13 error: duplicate server name "a"`}},
		{name: "unterminated quote", in: `{"mcpServers": {"a": {"command": "npx 'x"}}}`, diags: []string{"1:34 error: cannot split the command line"}},
		{name: "nested too deep", in: `{"a": ` + strings.Repeat("[", 300), diags: []string{"1:262 error: objects and arrays nest more than 256 deep"}},
		{name: "name for many", in: `{"a": {"command": "x"}, "b": {"command": "y"}}`, opts: Options{Name: "n"},
			diags: []string{"1:1 error: a name was given for one server, but the input holds 2"}},
	}
	for _, c := range cases {
		t.Run(c.name, c.run)
	}
	_, ds := Parse([]byte("{"), Options{File: "x.json"})
	if len(ds) != 1 || ds[0].File != "x.json" {
		t.Errorf("diagnostics should name the file: %v", ds)
	}
}

func TestSplitCommandLine(t *testing.T) {
	cases := map[string][]string{
		`npx -y pkg`:                 {"npx", "-y", "pkg"},
		`  a   b  `:                  {"a", "b"},
		`a 'b c' "d e" f\ g`:         {"a", "b c", "d e", "f g"},
		`a "x \"q\" \$y \n"`:         {"a", `x "q" $y \n`},
		`node C:\srv\index.js`:       {"node", `C:\srv\index.js`},
		`a '' ""`:                    {"a", "", ""},
		`echo $HOME ${X}`:            {"echo", "$HOME", "${X}"},
		`x"y"'z'`:                    {"xyz"},
		"":                           nil,
		`uvx --from git+https://x y`: {"uvx", "--from", "git+https://x", "y"},
	}
	for in, want := range cases {
		got, err := splitCommandLine(in)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("splitCommandLine(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{`a 'b`, `a "b`, `"`} {
		if _, err := splitCommandLine(bad); err == nil {
			t.Errorf("splitCommandLine(%q) should fail", bad)
		}
	}
}

func TestFromCommand(t *testing.T) {
	srv, ds := FromCommand("gh", []string{"npx", "-y", "@modelcontextprotocol/server-github"})
	if len(ds) != 0 || srv.Command != "npx" || !reflect.DeepEqual(srv.Args, []string{"-y", "@modelcontextprotocol/server-github"}) || srv.Transport != canonical.Stdio {
		t.Errorf("FromCommand = %+v, %v", srv, ds)
	}
	srv, ds = FromCommand("gh", []string{"cmd", "/c", "npx", "-y", "x"})
	if srv.Command != "npx" || len(ds) != 1 || ds[0].Severity != canonical.Warning {
		t.Errorf("cmd /c: %+v, %v", srv, ds)
	}
	srv, ds = FromCommand("gh", []string{"npx -y 'a b'"})
	if srv.Command != "npx" || !reflect.DeepEqual(srv.Args, []string{"-y", "a b"}) || len(ds) != 1 {
		t.Errorf("one string: %+v, %v", srv, ds)
	}
	srv, _ = FromCommand("gh", []string{"node", "${env:HOME}/x.js"})
	if srv.Args[0] != "${HOME}/x.js" {
		t.Errorf("references are re-spelled: %q", srv.Args[0])
	}
	if _, ds = FromCommand("gh", nil); !ds.HasErrors() {
		t.Error("no command must be an error")
	}
}

func TestFromFlags(t *testing.T) {
	srv, ds := FromFlags("lin", nil, Flags{URL: "https://mcp.linear.app/sse", Transport: "sse", Headers: []string{"Authorization: Bearer ${env:LINEAR}", "X-A:b"}})
	want := canonical.Server{Name: "lin", Transport: canonical.SSE, URL: "https://mcp.linear.app/sse",
		Headers: map[string]string{"Authorization": "Bearer ${LINEAR}", "X-A": "b"}}
	if ds.HasErrors() || !canonical.Equal(srv, want) {
		t.Errorf("FromFlags url = %+v, %v", srv, ds)
	}
	srv, ds = FromFlags("gh", []string{"npx", "x"}, Flags{Env: []string{"T=${T}", "E="}, Cwd: "/w", Disabled: true})
	want = canonical.Server{Name: "gh", Transport: canonical.Stdio, Command: "npx", Args: []string{"x"},
		Env: map[string]string{"T": "${T}", "E": ""}, Cwd: "/w", Disabled: true}
	if ds.HasErrors() || !canonical.Equal(srv, want) {
		t.Errorf("FromFlags command = %+v, %v", srv, ds)
	}
	bad := []struct {
		argv []string
		f    Flags
		want string
	}{
		{[]string{"x"}, Flags{URL: "https://x"}, "both a command and --url"},
		{nil, Flags{URL: "https://x", Transport: "ws"}, `unknown transport "ws"`},
		{nil, Flags{URL: "https://x", Transport: "stdio"}, "does not go with --url"},
		{nil, Flags{URL: "https://x", Headers: []string{"NoColon"}}, "malformed header"},
		{nil, Flags{URL: "https://x", Env: []string{"A=b"}}, "--env does not go with --url"},
		{nil, Flags{URL: "https://x", Cwd: "/"}, "--cwd does not go with --url"},
		{[]string{"x"}, Flags{Headers: []string{"A: b"}}, "--header does not go with a command"},
		{[]string{"x"}, Flags{Env: []string{"novalue"}}, "malformed --env"},
		{[]string{"x"}, Flags{Transport: "sse"}, "does not go with a command"},
		{nil, Flags{URL: "not a url"}, "malformed url"},
	}
	for _, b := range bad {
		_, ds := FromFlags("s", b.argv, b.f)
		if !ds.HasErrors() || !strings.Contains(ds.Err().Error(), b.want) {
			t.Errorf("FromFlags(%q, %+v): %v, want an error with %q", b.argv, b.f, ds, b.want)
		}
	}
}

// TestCorpus reads every real-world config in the shared corpus: no panic,
// every error placed, and the servers of the well-formed files come out valid.
func TestCorpus(t *testing.T) {
	files := corpusFiles(t)
	servers := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		set, ds := Parse(data, Options{File: f})
		for _, d := range ds {
			if d.Line < 1 || d.File != f {
				t.Errorf("%s: diagnostic without a place: %v", f, d)
			}
		}
		if !ds.HasErrors() {
			servers += set.Len()
			if v := set.Validate(); v.HasErrors() {
				t.Errorf("%s: no error reported, but the set does not validate: %v", f, v)
			}
		}
	}
	if servers < 400 {
		t.Errorf("only %d servers read from %d corpus files; the readers lost shapes", servers, len(files))
	}
}

func corpusFiles(tb testing.TB) []string {
	files, dir := corpusFilesIfPresent()
	if files == nil {
		tb.Skipf("the shared corpus is absent (%s); skipping", dir)
	}
	return files
}

// corpusFilesIfPresent lists the shared real-world configs, or nil when the
// shared directory (../shared from the repository root) is absent.
func corpusFilesIfPresent() ([]string, string) {
	_, here, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(here), "..", "..", "shared", "corpus", "wild")
	if _, err := os.Stat(dir); err != nil {
		return nil, dir
	}
	var out []string
	for _, pattern := range []string{"*/*.json", "*/*.jsonc", "*/*.toml"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		out = append(out, m...)
	}
	return out, dir
}

func TestTimeoutUnits(t *testing.T) {
	set, ds := Parse([]byte(`{"mcp": {"a": {"type": "local", "command": ["x"], "timeout": 1500}}}`), Options{})
	if ds.HasErrors() || set.Servers[0].StartupTimeout != 1500*time.Millisecond {
		t.Errorf("OpenCode timeout is in ms: %+v %v", set.Servers, ds)
	}
	_, ds = Parse([]byte(`{"mcp": {"a": {"type": "local", "command": ["x"], "timeout": -1}}}`), Options{})
	if !ds.HasErrors() {
		t.Error("a negative timeout must be an error")
	}
}
