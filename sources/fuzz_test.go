package sources

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// sourceSeeds are real shapes of source files: per-server JSON in several
// clients' spellings, and source mcpsync.hcl files, clean and refused.
var sourceSeeds = []struct {
	data string
	hcl  bool
}{
	{`{"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}"}}`, false},
	{`{"type": "http", "url": "https://mcp.linear.app/mcp", "headers": {"Authorization": "Bearer ${LINEAR_API_KEY}"}}`, false},
	{`{"type": "sse", "url": "https://x.example.com/sse", "headers": {"Accept": "text/event-stream", "X-Key": "abc"}}`, false},
	{`{"command": "uvx", "args": ["mcp-server-fetch"], "env": {"LOG_LEVEL": "debug", "REGION": "${REGION:-eu-west-1}", "TOKEN": "${TOKEN:-hunter2}"}}`, false},
	{"{\n  // JSONC\n  \"command\": \"x\",\n  \"env\": {\"A\": \"${env:A}\",},\n}", false},
	{`{"type": "local", "command": ["node", "srv.js"], "environment": {"K": "{env:K}", "L": "literal"}}`, false},
	{`{"serverUrl": "https://w.example.com/mcp?token=aB3dE5gH7jK9mN1pQ3sT5vX7z"}`, false},
	{`{"httpUrl": "https://g.example.com/mcp", "headers": {"Authorization": "Bearer ya29.abcdefghijklmnop"}, "trust": true}`, false},
	{`{"mcpServers": {"a": {"command": "a"}, "b": {"command": "b"}}}`, false},
	{`{"command": "x", "oauth": {"clientId": "id", "clientSecret": "s3cret"}}`, false},
	{`[1, 2]`, false},
	{``, false},
	{`{`, false},
	{"server \"github\" {\n  command = \"npx\"\n  args    = [\"-y\", \"@modelcontextprotocol/server-github\"]\n  env     = { GITHUB_PERSONAL_ACCESS_TOKEN = env(\"GITHUB_TOKEN\") }\n}\n", true},
	{"server \"linear\" {\n  url     = \"https://mcp.linear.app/mcp\"\n  headers = { Authorization = \"Bearer ${env(\"LINEAR_API_KEY\")}\", \"X-Team\" = \"abc\" }\n}\n", true},
	{"server \"db\" {\n  command = \"db\"\n  env = { TIER = env(\"TIER\", \"gold\"), KEY = env(\"KEY\", \"x\"), URL = \"postgres://u:p@h/d\" }\n  oauth {\n    client_id = \"c\"\n    client_secret = \"s\"\n  }\n  extra \"cursor\" {\n    envFile = \"sk_live_51Habcdefghijklmn\"\n  }\n}\n", true},
	{"server \"a.b\" {\n  command = \"x\"\n}\nclient \"cursor\" {\n  exclude = [\"a.b\"]\n}\nsource \"s\" {\n  git = \"g\"\n}\nresolver \"r\" {\n  command = [\"x\"]\n}\n", true},
	{"server \"x\" {\n  command = \"x\"\n  args = [\"--token\", \"ghp_1234567890abcdefghij\"]\n}\n", true},
	{"server \"x\" {", true},
	{"server \"x\" {\n  env = { A = var.a }\n}\n", true},
}

// FuzzSourceFile: reading a source file never panics, every error has a
// place in the file, and whatever is accepted holds no value the
// no-secrets rule refuses, only plain names, and validates.
func FuzzSourceFile(f *testing.F) {
	for _, s := range sourceSeeds {
		f.Add([]byte(s.data), s.hcl)
	}
	for _, file := range corpusFiles() { // read at seed time, never copied
		if data, err := os.ReadFile(file); err == nil && len(data) < 64<<10 {
			f.Add(data, false)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, hcl bool) {
		if len(data) > 64<<10 {
			return
		}
		read, file := ReadJSON, "/src/mcp/server-1.json"
		if hcl {
			read, file = ReadHCL, "/src/mcp/mcpsync.hcl"
		}
		set, ds := read(file, data)
		for _, d := range ds.Errors() {
			if d.File != file || d.Line < 1 || d.Column < 1 {
				t.Fatalf("error without a place in the file: %v", d)
			}
		}
		if ds.HasErrors() {
			if set.Len() != 0 {
				t.Fatalf("servers returned with errors: %v", set.Names())
			}
			return
		}
		if set.Len() == 0 && !hcl {
			t.Fatal("a JSON file read without error must give its server")
		}
		for _, srv := range set.Servers {
			if !isPlainName(srv.Name) {
				t.Fatalf("accepted the name %q", srv.Name)
			}
			if fs := checkServer(srv); len(fs) > 0 {
				t.Fatalf("accepted %s %s of %s: %s", fs[0].field, fs[0].key, srv.Name, fs[0].reason)
			}
		}
		if v := set.Validate(); v.HasErrors() {
			t.Fatalf("accepted servers that do not validate: %v", v)
		}
	})
}

// corpusFiles lists the real-world client files of the shared corpus, when
// it is there (../shared from the repository root).
func corpusFiles() []string {
	_, here, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(here), "..", "..", "shared", "corpus", "wild")
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	return files
}
