package resolve

import "testing"

func TestParseInput(t *testing.T) {
	tests := []struct {
		in   string
		want Input
	}{
		{"https://github.com/owner/repo", Input{Kind: KindGitHub, Owner: "owner", Repo: "repo"}},
		{"https://github.com/owner/repo/", Input{Kind: KindGitHub, Owner: "owner", Repo: "repo"}},
		{"https://github.com/owner/repo.git", Input{Kind: KindGitHub, Owner: "owner", Repo: "repo"}},
		{"github.com/owner/repo", Input{Kind: KindGitHub, Owner: "owner", Repo: "repo"}},
		{"http://www.github.com/Owner/Repo", Input{Kind: KindGitHub, Owner: "Owner", Repo: "Repo"}},
		{"git@github.com:owner/repo.git", Input{Kind: KindGitHub, Owner: "owner", Repo: "repo"}},
		{"https://github.com/modelcontextprotocol/servers/tree/main/src/git",
			Input{Kind: KindGitHub, Owner: "modelcontextprotocol", Repo: "servers", Ref: "main", Subdir: "src/git"}},
		{"https://github.com/o/r/blob/v1.2/packages/x/README.md",
			Input{Kind: KindGitHub, Owner: "o", Repo: "r", Ref: "v1.2", Subdir: "packages/x"}},
		{"owner/repo", Input{Kind: KindGitHub, Owner: "owner", Repo: "repo"}},
		{"owner/repo.js", Input{Kind: KindGitHub, Owner: "owner", Repo: "repo.js"}},
		{"io.github.owner/repo", Input{Kind: KindRegistry, Name: "io.github.owner/repo"}},
		{"com.supabase/mcp", Input{Kind: KindRegistry, Name: "com.supabase/mcp"}},
		{"npm:@scope/pkg", Input{Kind: KindPackage, Ecosystem: "npm", Package: "@scope/pkg"}},
		{"npm:@scope/pkg@1.2.3", Input{Kind: KindPackage, Ecosystem: "npm", Package: "@scope/pkg", Version: "1.2.3"}},
		{"npm:pkg@latest", Input{Kind: KindPackage, Ecosystem: "npm", Package: "pkg", Version: "latest"}},
		{"pypi:mcp-server-git", Input{Kind: KindPackage, Ecosystem: "pypi", Package: "mcp-server-git"}},
		{"pypi:mcp-server-git==1.0", Input{Kind: KindPackage, Ecosystem: "pypi", Package: "mcp-server-git", Version: "1.0"}},
		{"pip:x@2", Input{Kind: KindPackage, Ecosystem: "pypi", Package: "x", Version: "2"}},
		{"oci:ghcr.io/github/github-mcp-server:v1", Input{Kind: KindPackage, Ecosystem: "oci", Package: "ghcr.io/github/github-mcp-server:v1"}},
		{"docker:mcp/git", Input{Kind: KindPackage, Ecosystem: "oci", Package: "mcp/git"}},
		{"go:github.com/o/r/cmd/x@v1.0.0", Input{Kind: KindPackage, Ecosystem: "go", Package: "github.com/o/r/cmd/x", Version: "v1.0.0"}},
		{"nuget:Some.Package", Input{Kind: KindPackage, Ecosystem: "nuget", Package: "Some.Package"}},
		{"https://mcp.exa.ai/mcp", Input{Kind: KindRemote, URL: "https://mcp.exa.ai/mcp"}},
		{"https://mcp.tavily.com/mcp/?key=x", Input{Kind: KindRemote, URL: "https://mcp.tavily.com/mcp/?key=x"}},
		{"https://host.example/sse", Input{Kind: KindRemote, URL: "https://host.example/sse"}},
	}
	for _, tt := range tests {
		got, err := ParseInput(tt.in)
		if err != nil {
			t.Errorf("ParseInput(%q): %v", tt.in, err)
			continue
		}
		tt.want.Raw = tt.in
		if got != tt.want {
			t.Errorf("ParseInput(%q) = %+v, want %+v", tt.in, got, tt.want)
		}
		// String reads back as the same input.
		again, err := ParseInput(got.String())
		if err != nil || again.Kind != got.Kind || again.Owner != got.Owner || again.Subdir != got.Subdir ||
			again.Name != got.Name || again.Package != got.Package || again.Version != got.Version || again.URL != got.URL {
			t.Errorf("ParseInput(%q).String() = %q reads back as %+v (%v)", tt.in, got.String(), again, err)
		}
	}
}

func TestParseInputErrors(t *testing.T) {
	for _, in := range []string{
		"", "   ", "hello", "https://example.com/page", "https://github.com/owner",
		"https://github.com/owner/repo/issues/3", "npm:", "pypi:has space", "a/b/c", "ftp://github.com/o/r",
		"owner/.git", "https://github.com/owner/.git", "git@github.com:owner/.git",
		"github.com/o/r/tree/%00", "0/.git.git", "https://github.com/o/.git.git", "https://github.com/o/r/tree//src", "https://github.com/o/r/tree/a%20b/src",
	} {
		if got, err := ParseInput(in); err == nil {
			t.Errorf("ParseInput(%q) = %+v, want an error", in, got)
		}
	}
}

func TestShortName(t *testing.T) {
	for in, want := range map[string]string{
		"github-mcp-server":                       "github",
		"io.github.github/github-mcp-server":      "github",
		"brave-search-mcp-server":                 "brave-search",
		"@modelcontextprotocol/server-everything": "everything",
		"com.supabase/mcp":                        "supabase",
		"io.github.grabzit/mcp-server":            "grabzit",
		"mcp-grafana":                             "grafana",
		"context7":                                "context7",
		"LocalVectorSearchMcp":                    "local-vector-search",
		"@playwright/mcp":                         "playwright",
		"kubernetes-mcp-server@latest":            "kubernetes",
		"mcp":                                     "mcp",
	} {
		if got := ShortName(in); got != want {
			t.Errorf("ShortName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEnvName(t *testing.T) {
	for in, want := range map[string]string{
		"token": "TOKEN", "--project-ref": "PROJECT_REF", "X-Grafana-URL": "X_GRAFANA_URL",
		"tavilyApiKey": "TAVILY_API_KEY", "api key": "API_KEY", "9lives": "_9LIVES", "": "VALUE",
	} {
		if got := EnvName(in); got != want {
			t.Errorf("EnvName(%q) = %q, want %q", in, got, want)
		}
	}
}
