package policy

import (
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
)

// FuzzParsePolicies: the readers of installed policy files never panic,
// and what they read can be checked against any server.
func FuzzParsePolicies(f *testing.F) {
	f.Add([]byte(`{"allowManagedMcpServersOnly": true, "allowedMcpServers": [{"serverCommand": ["npx"]}, {"serverUrl": "https://*"}]}`))
	f.Add([]byte("[mcp_servers.a.identity]\ncommand = \"x\"\n"))
	f.Add([]byte(`{"mcp": {"allowed": ["a"], "excluded": ["b"]}, "mcpServers": {"a": {"command": "x"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var set Set
		set.ClaudeSettings, _ = ParseClaudeSettings(data)
		set.Codex, _ = ParseCodex(data)
		set.Gemini, _ = ParseGemini(data)
		for _, v := range Vendors {
			for _, s := range []canonical.Server{stdio("a", "npx", "-y", "p"), remote("b", "https://h/mcp")} {
				for _, goos := range OSes {
					set.Check(v, s, goos)
				}
			}
		}
	})
}

// FuzzMatchURL: a URL without wildcards matches itself as a pattern.
func FuzzMatchURL(f *testing.F) {
	for _, s := range []string{"https://mcp.example.com/api", "http://localhost:9/x?y=1", "HTTPS://A.B./C", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, u string) {
		if strings.Contains(u, "*") || !strings.Contains(u, "://") {
			MatchURL(u, u)
			return
		}
		if !MatchURL(u, u) {
			t.Fatalf("MatchURL(%q, itself) = false", u)
		}
	})
}
