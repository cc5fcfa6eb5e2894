package policy

import (
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
)

// The URL patterns of Claude Code's managed-mcp documentation.
func TestMatchURL(t *testing.T) {
	for _, tc := range []struct {
		pattern, url string
		want         bool
	}{
		{"https://mcp.example.com/*", "https://mcp.example.com/api", true},
		{"https://mcp.example.com", "https://mcp.example.com/any/path", true},
		{"https://*.example.com/*", "https://api.internal.example.com/mcp", true},
		{"http://localhost:*/*", "http://localhost:8080/mcp", true},
		{"*://mcp.example.com/*", "http://mcp.example.com/x", true},
		{"https://Mcp.Example.com/*", "https://mcp.example.com/api", true},
		{"https://mcp.example.com./*", "https://mcp.example.com/api", true},
		{"https://mcp.example.com/API", "https://mcp.example.com/api", false}, // paths keep their case
		{"https://mcp.example.com/*", "https://external.example.com/mcp", false},
		{"https://*.example.com/*", "https://example.org/mcp", false},
	} {
		if got := MatchURL(tc.pattern, tc.url); got != tc.want {
			t.Errorf("MatchURL(%q, %q) = %v, want %v", tc.pattern, tc.url, got, tc.want)
		}
	}
}

func stdio(name, cmd string, args ...string) canonical.Server {
	return canonical.Server{Name: name, Transport: canonical.Stdio, Command: cmd, Args: args}
}

func remote(name, url string) canonical.Server {
	return canonical.Server{Name: name, Transport: canonical.HTTP, URL: url}
}

// The accordions of Claude Code's "How a server is evaluated".
func TestClaudeVerdicts(t *testing.T) {
	mixed := &ClaudeSettings{AllowedMcpServers: []ClaudeEntry{{ServerName: "github"}, {ServerCommand: []string{"npx", "-y", "approved-package"}}}}
	nameOnly := &ClaudeSettings{AllowedMcpServers: []ClaudeEntry{{ServerName: "github"}}}
	deny := &ClaudeSettings{AllowedMcpServers: []ClaudeEntry{{ServerURL: "https://*.example.com/*"}},
		DeniedMcpServers: []ClaudeEntry{{ServerURL: "https://staging.example.com/*"}}}
	empty := &ClaudeSettings{AllowedMcpServers: []ClaudeEntry{}}
	for _, tc := range []struct {
		name string
		cs   *ClaudeSettings
		srv  canonical.Server
		want bool
	}{
		{"command matches", mixed, stdio("local-tool", "npx", "-y", "approved-package"), true},
		{"command entries exist, none matches", mixed, stdio("local-tool", "node", "server.js"), false},
		{"a stdio name does not count beside commands", mixed, stdio("github", "node", "server.js"), false},
		{"a remote name counts without URL entries", mixed, remote("github", "https://x/mcp"), true},
		{"a remote with another name", mixed, remote("other-api", "https://x/mcp"), false},
		{"extra argument", mixed, stdio("t", "npx", "-y", "approved-package", "--flag"), false},
		{"name only: any command", nameOnly, stdio("github", "anything"), true},
		{"denylist wins", deny, remote("s", "https://staging.example.com/api"), false},
		{"allowed by pattern", deny, remote("m", "https://mcp.example.com/api"), true},
		{"not in the allowlist", deny, remote("o", "https://other.com/mcp"), false},
		{"an empty allowlist allows nothing", empty, remote("o", "https://other.com/mcp"), false},
	} {
		got := Set{ClaudeSettings: tc.cs}.Check("claude-code", tc.srv, "linux")
		if got.Allowed != tc.want {
			t.Errorf("%s: allowed = %v (%s), want %v", tc.name, got.Allowed, got.Reason, tc.want)
		}
	}
}

// A Windows policy rendered by mcpsync allows the server as mcpsync writes
// it there (cmd /c npx …), for Claude Code and Codex alike; a Linux policy
// on Windows would silently disable it, which the check says.
func TestWindowsForms(t *testing.T) {
	gh := stdio("gh", "npx", "-y", "@modelcontextprotocol/server-github")
	for _, mode := range []Mode{Allowlist} {
		files, err := Render([]canonical.Server{gh}, Options{Mode: mode, OSes: []string{"windows", "linux"}, Vendors: []string{"claude-code", "codex"}})
		if err != nil {
			t.Fatal(err)
		}
		by := map[string][]byte{}
		for _, f := range files {
			by[f.Vendor+"/"+f.OS] = f.Data
		}
		win, _ := ParseClaudeSettings(by["claude-code/windows"])
		lin, _ := ParseClaudeSettings(by["claude-code/linux"])
		if v := (Set{ClaudeSettings: win}).Check("claude-code", gh, "windows"); !v.Allowed {
			t.Errorf("the windows allowlist blocks gh on windows: %s", v.Reason)
		}
		if v := (Set{ClaudeSettings: lin}).Check("claude-code", gh, "windows"); v.Allowed {
			t.Errorf("the linux allowlist should block cmd /c npx on windows")
		}
		cw, _ := ParseCodex(by["codex/windows"])
		cl, _ := ParseCodex(by["codex/linux"])
		if v := (Set{Codex: cw}).Check("codex", gh, "windows"); !v.Allowed {
			t.Errorf("the windows requirements block gh on windows: %s", v.Reason)
		}
		if v := (Set{Codex: cl}).Check("codex", gh, "windows"); v.Allowed {
			t.Errorf("the linux requirements (command npx) should block cmd on windows")
		}
	}
}

// Codex: once mcp_servers is set, a server runs only when listed with its
// identity; an empty table blocks everything.
func TestCodexVerdicts(t *testing.T) {
	req, err := ParseCodex([]byte("[mcp_servers.docs.identity]\ncommand = \"codex-mcp\"\n[mcp_servers.remote.identity]\nurl = \"https://example.com/mcp\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	set := Set{Codex: req}
	for _, tc := range []struct {
		srv  canonical.Server
		want bool
	}{
		{stdio("docs", "codex-mcp", "--any", "args"), true},
		{stdio("docs", "other-cmd"), false},
		{stdio("unlisted", "codex-mcp"), false},
		{remote("remote", "https://example.com/mcp"), true},
		{remote("remote", "https://example.com/other"), false},
	} {
		if v := set.Check("codex", tc.srv, "linux"); v.Allowed != tc.want {
			t.Errorf("%s %s: allowed = %v (%s), want %v", tc.srv.Name, tc.srv.Command+tc.srv.URL, v.Allowed, v.Reason, tc.want)
		}
	}
	empty, _ := ParseCodex([]byte("[mcp_servers]\n"))
	if v := (Set{Codex: empty}).Check("codex", stdio("docs", "codex-mcp"), "linux"); v.Allowed {
		t.Error("an empty mcp_servers table allows a server")
	}
	if v := (Set{}).Check("codex", stdio("docs", "x"), "linux"); !v.Allowed {
		t.Error("no requirements blocks a server")
	}
}
