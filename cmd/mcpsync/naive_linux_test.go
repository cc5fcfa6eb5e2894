package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
)

// naiveExportSource is the floor of the first goal, as a program
// of its own: it reads the servers as JSON and writes the same five
// project files a five-client export writes (Claude Code, Cursor, VS Code,
// OpenCode, Codex), with no checks, no merge, no backup and no state.
// With -durable each file is synced and renamed into place, its folder
// synced, as any writer that must not lose a file after a crash does.
// The same program as engine's naiveExport, built alone, so that the two
// are compared as a user meets them: one process each.
const naiveExportSource = `package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

type server struct {
	Name      string            ` + "`json:\"name\"`" + `
	Command   string            ` + "`json:\"command\"`" + `
	Args      []string          ` + "`json:\"args\"`" + `
	Env       map[string]string ` + "`json:\"env\"`" + `
	URL       string            ` + "`json:\"url\"`" + `
	Headers   map[string]string ` + "`json:\"headers\"`" + `
	Transport string            ` + "`json:\"transport\"`" + `
}

type entry struct {
	Type    string            ` + "`json:\"type,omitempty\"`" + `
	Command string            ` + "`json:\"command,omitempty\"`" + `
	Args    []string          ` + "`json:\"args,omitempty\"`" + `
	Env     map[string]string ` + "`json:\"env,omitempty\"`" + `
	URL     string            ` + "`json:\"url,omitempty\"`" + `
	Headers map[string]string ` + "`json:\"headers,omitempty\"`" + `
}

func main() {
	durable := len(os.Args) > 2 && os.Args[2] == "-durable"
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	var servers []server
	if err := json.Unmarshal(data, &servers); err != nil {
		panic(err)
	}
	claude, vscode, opencode := map[string]entry{}, map[string]entry{}, map[string]any{}
	var codex strings.Builder
	for _, s := range servers {
		e := entry{Command: s.Command, Args: s.Args, Env: s.Env, URL: s.URL, Headers: s.Headers}
		if s.URL != "" {
			e.Type = s.Transport
		}
		claude[s.Name], vscode[s.Name] = e, e
		if s.URL == "" {
			opencode[s.Name] = map[string]any{"type": "local", "command": append([]string{s.Command}, s.Args...), "environment": s.Env}
			fmt.Fprintf(&codex, "[mcp_servers.%q]\ncommand = %q\nargs = %q\n\n", s.Name, s.Command, s.Args)
		} else {
			opencode[s.Name] = map[string]any{"type": "remote", "url": s.URL, "headers": s.Headers}
			fmt.Fprintf(&codex, "[mcp_servers.%q]\nurl = %q\n\n", s.Name, s.URL)
		}
	}
	put := func(rel string, v any) {
		data, ok := v.([]byte)
		if !ok {
			var err error
			if data, err = json.MarshalIndent(v, "", "  "); err != nil {
				panic(err)
			}
		}
		dir := filepath.Dir(rel)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			panic(err)
		}
		if !durable {
			if err := os.WriteFile(rel, data, 0o644); err != nil {
				panic(err)
			}
			return
		}
		f, err := os.CreateTemp(dir, ".tmp-*")
		if err != nil {
			panic(err)
		}
		if _, err := f.Write(data); err != nil {
			panic(err)
		}
		if err := f.Sync(); err != nil {
			panic(err)
		}
		f.Close()
		if err := os.Rename(f.Name(), rel); err != nil {
			panic(err)
		}
		d, err := os.Open(dir)
		if err != nil {
			panic(err)
		}
		d.Sync()
		d.Close()
	}
	put(".mcp.json", map[string]any{"mcpServers": claude})
	put(".cursor/mcp.json", map[string]any{"mcpServers": claude})
	put(".vscode/mcp.json", map[string]any{"servers": vscode})
	put("opencode.json", map[string]any{"$schema": "https://opencode.ai/config.json", "mcp": opencode})
	put(".codex/config.toml", []byte(codex.String()))
}
`

// naiveInput writes benchStore(n)'s servers as the naive program reads
// them, references in the spelling the clients read, and returns where.
func naiveInput(b *testing.B, n int) string {
	b.Helper()
	type server struct {
		Name      string            `json:"name"`
		Command   string            `json:"command,omitempty"`
		Args      []string          `json:"args,omitempty"`
		Env       map[string]string `json:"env,omitempty"`
		URL       string            `json:"url,omitempty"`
		Headers   map[string]string `json:"headers,omitempty"`
		Transport string            `json:"transport,omitempty"`
	}
	servers := make([]server, n)
	for i := range n {
		switch i % 3 {
		case 0:
			servers[i] = server{Name: fmt.Sprintf("fs-%05d", i), Command: "npx",
				Args: []string{"-y", "@modelcontextprotocol/server-filesystem", fmt.Sprintf("/srv/%d", i)},
				Env:  map[string]string{"API_KEY": "${API_KEY}"}}
		case 1:
			servers[i] = server{Name: fmt.Sprintf("remote-%05d", i), URL: fmt.Sprintf("https://mcp%d.example.com/mcp", i),
				Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}, Transport: "http"}
		default:
			servers[i] = server{Name: fmt.Sprintf("sse-%05d", i), URL: fmt.Sprintf("https://mcp%d.example.com/sse", i), Transport: "sse"}
		}
	}
	data, err := json.Marshal(servers)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "servers.json")
	write(b, path, data)
	return path
}
