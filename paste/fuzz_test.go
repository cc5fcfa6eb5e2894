package paste

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// seeds are one input per shape and repair the reader knows.
var seeds = []string{
	`{"mcpServers": {"github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"T": "${GITHUB_TOKEN}"}}}}`,
	"{\n // c\n \"mcpServers\": {\"a\": {\"url\": \"https://a/mcp\", \"headers\": {\"A\": \"Bearer ${env:K}\"},},},\n}",
	`{"servers": {"a": {"type": "http", "url": "https://x/mcp", "headers": {"K": "${input:key}"}}}, "inputs": []}`,
	`{"mcp": {"servers": {"a": {"type": "stdio", "command": "x", "envFile": ".env"}}}}`,
	`{"mcp": {"a": {"type": "local", "command": ["node", "x"], "environment": {"K": "{env:K}"}, "enabled": false, "timeout": 5000}, "b": {"type": "remote", "url": "https://b", "oauth": false}}}`,
	`{"context_servers": {"z": {"command": {"path": "node", "args": ["a"], "env": {}}, "source": "custom"}, "e": {"source": "extension", "settings": {}}}}`,
	`{"mcpServers": {"u": {"command": "uvx"}}, "projects": {"/p": {"mcpServers": {"p": {"type": "sse", "url": "https://p"}}}}}`,
	`{"amp.mcpServers": {"a": {"url": "https://a"}}}`,
	`{"fetch": {"command": "uvx", "args": ["mcp-server-fetch"]}}`,
	`{"command": "cmd", "args": ["/c", "npx", "-y", "pkg"]}`,
	`"fetch": {"command": "uvx mcp-server-fetch --x 'a b'"},`,
	"[mcp_servers.a]\ncommand = \"npx\"\nenv = { K = \"v\" }\nenv_vars = [\"HOME\", { name = \"P\" }]\n[mcp_servers.b]\nurl = \"https://b\"\nbearer_token_env_var = \"T\"\nhttp_headers = { X = \"y\" }\nenv_http_headers = { Y = \"Z\" }\nstartup_timeout_ms = 100\n[mcp_servers.b.oauth]\nclient_id = \"c\"\n",
	`{"mcpServers": {"c": {"transport": {"type": "streamableHttp", "url": "https://c"}, "disabled": true, "timeout": 60}}}`,
	`{"mcpServers": {"g": {"httpUrl": "https://g", "includeTools": ["a"], "excludeTools": ["b"], "trust": true}, "w": {"serverUrl": "https://w"}}}`,
	`{"gs": {"type": "streamable_http", "uri": "https://g", "envs": {}, "name": "gs", "available_tools": []}}`,
	`[{"name": "e", "command": "npx", "env": {"K": "${{ secrets.K }}"}}]`,
	`{"mcpServers": {"a": {"type": "ws", "url": "wss://x", "command": "y", "env": {"N": null, "B": true, "O": {}}}}}`,
	`{"mcpServers": {"a": {"command": "x", "args": "a 'b", "oauth": {"clientId": "i", "scopes": "a b", "callbackPort": 70000}}}}`,
	`{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}`,
	"mcpServers:\n  a: 1\n", "", " ", "{", "[", `"`, "[[", "{\"mcpServers\": []}", "x = ", "\xef\xbb\xbf{}",
}

// FuzzParse: Parse never panics, every error of a non-empty input has a
// place, and a result without errors validates.
func FuzzParse(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s), "")
	}
	f.Add([]byte(`{"command": "x"}`), "named")
	f.Add([]byte(`{"s": {"url": "https://h/mcp", "headers": {"Authorization": "Bearer <token>", "x": "YOUR_KEY"}, "env": {"A": "xxxx", "-": "<x>"}}}`), "odd")
	files, _ := corpusFilesIfPresent() // read at seed time, never copied
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data, "")
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		if len(data) > 64<<10 {
			return
		}
		// Half the inputs go through the example-value repair too (what
		// add and probe --file ask for), chosen by the name's length.
		set, ds := Parse(data, Options{File: "f.json", Name: name, ExampleValues: len(name)%2 == 1})
		for _, d := range ds {
			if d.Severity == 0 && len(data) > 0 && d.Line < 1 {
				t.Fatalf("error without a line: %v", d)
			}
		}
		if !ds.HasErrors() {
			if v := set.Validate(); v.HasErrors() {
				t.Fatalf("no error reported but the result does not validate: %v", v)
			}
			if set.Len() == 0 {
				t.Fatal("no error reported and no server returned")
			}
		}
	})
}

// BenchmarkParse1000 normalises a generated paste of 1,000 servers in the
// mcpServers shape, stdio and remote alternating, with references.
func BenchmarkParse1000(b *testing.B) {
	data := generatePaste(1000)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		set, ds := Parse(data, Options{})
		if ds.HasErrors() || set.Len() != 1000 {
			b.Fatalf("%d servers, %v", set.Len(), ds)
		}
	}
}

func generatePaste(n int) []byte {
	var sb strings.Builder
	sb.WriteString("{\n  \"mcpServers\": {\n")
	for i := range n {
		if i > 0 {
			sb.WriteString(",\n")
		}
		if i%2 == 0 {
			fmt.Fprintf(&sb, `    "server-%d": {"command": "npx", "args": ["-y", "@scope/server-%d", "--port", "%d"], "env": {"TOKEN_%d": "${TOKEN_%d}", "MODE": "fast"}}`, i, i, 3000+i, i, i)
		} else {
			fmt.Fprintf(&sb, `    "server-%d": {"type": "http", "url": "https://mcp%d.example.com/mcp", "headers": {"Authorization": "Bearer ${env:API_KEY_%d}"}}`, i, i, i)
		}
	}
	sb.WriteString("\n  }\n}\n")
	return []byte(sb.String())
}
