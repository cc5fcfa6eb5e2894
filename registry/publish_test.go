package registry

import (
	"encoding/json"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/resolve"
)

// Every server a registry can describe comes back from it as the same
// command, through the resolver's own reading of server.json.
func TestRoundTrip(t *testing.T) {
	for _, srv := range []canonical.Server{
		{Name: "gh", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-github@1.2.0"},
			Env: map[string]string{"GITHUB_TOKEN": "${GITHUB_TOKEN}"}},
		{Name: "plain", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "some-server", "--root", "/srv"}},
		{Name: "time", Transport: canonical.Stdio, Command: "uvx", Args: []string{"mcp-server-time==0.6.2", "--local-timezone", "UTC"}},
		{Name: "box", Transport: canonical.Stdio, Command: "docker", Args: []string{"run", "-i", "--rm", "-e", "API_KEY", "ghcr.io/acme/box:1.4"},
			Env: map[string]string{"API_KEY": "${API_KEY}"}},
		{Name: "nuget", Transport: canonical.Stdio, Command: "dnx", Args: []string{"Acme.Mcp@2.0.0", "--yes"}},
		{Name: "linear", Transport: canonical.HTTP, URL: "https://mcp.linear.app/mcp", Headers: map[string]string{"Authorization": "Bearer ${LINEAR_API_KEY}"}},
		{Name: "old", Transport: canonical.SSE, URL: "https://old.example.com/sse"},
		{Name: "mode", Transport: canonical.Stdio, Command: "uvx", Args: []string{"weather"}, Env: map[string]string{"UNITS": "metric"}},
	} {
		t.Run(srv.Name, func(t *testing.T) {
			sj, err := ServerJSON(srv, Name("com.example", srv.Name), "1.0.0")
			if err != nil {
				t.Fatal(err)
			}
			data, _ := json.Marshal(sj)
			back, _, err := resolve.ParseServerJSON(data)
			if err != nil {
				t.Fatalf("the resolver does not read it: %v\n%s", err, data)
			}
			cands, notes := back.Candidates(resolve.BuildOptions{Name: srv.Name})
			if len(cands) == 0 {
				t.Fatalf("no candidate: %v\n%s", notes, data)
			}
			got := cands[0].Server
			if resolve.CommandLine(got) != resolve.CommandLine(srv) {
				t.Errorf("round trip\n got %s\nwant %s\n%s", resolve.CommandLine(got), resolve.CommandLine(srv), data)
			}
			for k, v := range srv.Env {
				if got.Env[k] != v {
					t.Errorf("env %s = %q, want %q", k, got.Env[k], v)
				}
			}
			for k, v := range srv.Headers {
				if got.Headers[k] != v {
					t.Errorf("header %s = %q, want %q", k, got.Headers[k], v)
				}
			}
		})
	}
}

func TestNotPublishable(t *testing.T) {
	_, err := ServerJSON(canonical.Server{Name: "local", Transport: canonical.Stdio, Command: "/usr/local/bin/tool"}, "com.example/local", "1.0.0")
	if err == nil {
		t.Fatal("a local program was published")
	}
}
