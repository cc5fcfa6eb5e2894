package resolve

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

func readme(t *testing.T, text string) []Candidate {
	t.Helper()
	cands, _ := ReadmeCandidates([]byte(text), ReadmeOptions{File: "README.md", Name: "demo", Repo: "demo-mcp"})
	return cands
}

func TestFencedBlocks(t *testing.T) {
	text := "intro\n```json\n{\"a\": 1}\n```\n  ~~~~ bash extra\n  x\n  ~~~~\n``` json\n{}\n```\n```\nunclosed\n"
	blocks := FencedBlocks([]byte(text))
	want := []Block{
		{Info: "json", Line: 3, Text: []byte("{\"a\": 1}\n")},
		{Info: "bash", Line: 6, Text: []byte("x\n")},
		{Info: "json", Line: 9, Text: []byte("{}\n")},
		{Info: "", Line: 12, Text: []byte("unclosed\n")},
	}
	if !reflect.DeepEqual(blocks, want) {
		t.Errorf("blocks:\n%+v\nwant:\n%+v", blocks, want)
	}
}

func TestReadmePlaceholders(t *testing.T) {
	cands := readme(t, "```jsonc\n"+`{
  // VS Code
  "servers": {
    "demo": {
      "command": "npx",
      "args": ["-y", "demo-mcp", "--root", "/path/to/project", "/Users/me/notes", "--url", "https://db.example/x?token=<your-token>", "--mode=<mode>"],
      "env": {"DEMO_API_KEY": "YOUR_API_KEY_HERE", "DEMO_TOKEN": "${input:demo-token}", "DEMO_DEBUG": "true", "DEMO_PORT": "8080",
              "DEMO_HOME": "${DEMO_HOME}", "DEMO_SECRET": "sk-...", "DEMO_MASK": "ntn_****", "DEMO_REGION": "eu-west-1"},
    },
  },
}`+"\n```\n")
	if len(cands) != 1 {
		t.Fatalf("%d candidates", len(cands))
	}
	s := cands[0].Server
	wantArgs := []string{"-y", "demo-mcp", "--root", "${ROOT}", "--url", "https://db.example/x?token=${TOKEN}", "--mode=${MODE}"}
	if !reflect.DeepEqual(s.Args, wantArgs) {
		t.Errorf("args %q\nwant %q", s.Args, wantArgs)
	}
	wantEnv := map[string]string{"DEMO_API_KEY": "${DEMO_API_KEY}", "DEMO_TOKEN": "${DEMO_TOKEN}", "DEMO_DEBUG": "true", "DEMO_PORT": "8080",
		"DEMO_HOME": "${DEMO_HOME}", "DEMO_SECRET": "${DEMO_SECRET}", "DEMO_MASK": "${DEMO_MASK}", "DEMO_REGION": "${DEMO_REGION}"}
	if !reflect.DeepEqual(s.Env, wantEnv) {
		t.Errorf("env %v\nwant %v", s.Env, wantEnv)
	}
	byName := map[string]RequiredInput{}
	for _, in := range cands[0].Inputs {
		byName[in.Name] = in
	}
	for name, secret := range map[string]bool{"ROOT": false, "TOKEN": true, "MODE": false, "DEMO_API_KEY": true, "DEMO_TOKEN": true,
		"DEMO_HOME": false, "DEMO_SECRET": true, "DEMO_REGION": false} {
		in, ok := byName[name]
		if !ok || !in.Required || in.Secret != secret {
			t.Errorf("input %s = %+v (found %v), want required, secret=%v", name, in, ok, secret)
		}
	}
	if byName["DEMO_REGION"].Example != "eu-west-1" || byName["DEMO_SECRET"].Example != "sk-..." {
		t.Errorf("examples: region %q secret %q", byName["DEMO_REGION"].Example, byName["DEMO_SECRET"].Example)
	}
	for _, in := range cands[0].Inputs {
		if strings.Contains(in.Example, "real") {
			t.Errorf("a real-looking secret was kept as an example: %+v", in)
		}
	}
}

func TestReadmeSecretExampleNotRepeated(t *testing.T) {
	cands := readme(t, "```json\n{\"mcpServers\": {\"d\": {\"command\": \"npx\", \"args\": [\"d\"], \"env\": {\"DEMO_TOKEN\": \"ghp_realLookingValue123\"}}}}\n```\n")
	if in := cands[0].Inputs[0]; in.Example != "" || !in.Secret {
		t.Errorf("input %+v: a real-looking secret must not be kept", in)
	}
}

func TestReadmeRankingAndVariants(t *testing.T) {
	text := "```json\n" + `{"mcpServers": {"d": {"command": "docker", "args": ["run", "-i", "--rm", "-e", "K", "acme/demo"], "env": {"K": "x"}}}}` + "\n```\n" +
		"```json\n" + `{"mcpServers": {"d": {"command": "cmd", "args": ["/c", "npx", "-y", "demo-mcp"]}}}` + "\n```\n" +
		"```json\n" + `{"mcpServers": {"d": {"command": "C:\\Program Files\\nodejs\\npx.cmd", "args": ["-y", "demo-mcp"]}}}` + "\n```\n" +
		"```json\n" + `{"mcpServers": {"d": {"url": "https://mcp.demo.dev/mcp"}}}` + "\n```\n" +
		"```json\n" + `{"mcpServers": {"d": {"command": "node", "args": ["dist/index.js"]}}}` + "\n```\n" +
		"```json\n" + `{"mcpServers": {"d": {"command": "npx", "args": ["-y", "demo-mcp"]}}}` + "\n```\n" +
		"```json\n" + `{"mcpServers": {"d": {"command": "npx", "args": ["-y", "demo-mcp"]}}}` + "\n```\n"
	cands, notes := ReadmeCandidates([]byte(text), ReadmeOptions{File: "README.md", Name: "demo"})
	var got []string
	for _, c := range cands {
		got = append(got, c.Runner+" "+CommandLine(c.Server))
	}
	want := []string{"npx npx -y demo-mcp", "docker docker run -i --rm -e K acme/demo", "source node dist/index.js", "remote http https://mcp.demo.dev/mcp"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ranked:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "Windows-only") {
		t.Errorf("notes %q", notes)
	}
}

func TestReadmeDockerPathWithoutMountRanksLow(t *testing.T) {
	cands := readme(t, "```json\n"+`{"mcpServers": {"d": {"command": "docker", "args": ["run", "-i", "--rm", "acme/fs", "/path/to/allowed/dir", "/another/allowed/dir"]}}}`+"\n```\n"+
		"```json\n"+`{"mcpServers": {"d": {"command": "demo-mcp", "args": ["/path/to/allowed/dir", "/another/dir"]}}}`+"\n```\n"+
		"```json\n"+`{"mcpServers": {"d": {"command": "other-tool", "args": ["/srv"]}}}`+"\n```\n")
	var got []string
	for _, c := range cands {
		got = append(got, CommandLine(c.Server))
	}
	want := []string{"demo-mcp ${ALLOWED_DIR}", "other-tool ${SRV}", "docker run -i --rm acme/fs /path/to/allowed/dir /another/allowed/dir"}
	if got[0] != want[0] || got[len(got)-1] != "docker run -i --rm acme/fs ${ALLOWED_DIR}" {
		t.Errorf("ranked %q", got)
	}
}

func TestReadmeInstallCommands(t *testing.T) {
	text := "```bash\n" +
		"# remote, with a key in the query\n" +
		"claude mcp add --transport http demo https://mcp.demo.dev/mcp?apiKey=<your-api-key>\n" +
		"claude mcp add -s user -e DEMO_TOKEN=your-token demo -- npx -y demo-mcp --verbose\n" +
		"codex mcp add demo --env DEMO_TOKEN=xxx -- uvx demo-mcp\n" +
		"code --add-mcp '{\"name\":\"demo\",\"command\":\"docker\",\"args\":[\"run\",\"-i\",\"--rm\",\"acme/demo\"]}'\n" +
		"$ claude mcp add-json demo '{\"type\":\"sse\",\"url\":\"https://mcp.demo.dev/sse\"}'\n" +
		"```\n[Install](https://insiders.vscode.dev/redirect/mcp/install?name=demo&config=%7B%22command%22%3A%22dnx%22%2C%22args%22%3A%5B%22Demo.Mcp%22%2C%22--yes%22%5D%7D)\n"
	cands := readme(t, text)
	var got []string
	for _, c := range cands {
		got = append(got, CommandLine(c.Server)+" "+strings.Join(mapkeys.Sorted(c.Server.Env), ","))
	}
	want := []string{
		"npx -y demo-mcp --verbose DEMO_TOKEN",
		"uvx demo-mcp DEMO_TOKEN",
		"dnx Demo.Mcp --yes ",
		"docker run -i --rm acme/demo ",
		"http https://mcp.demo.dev/mcp?apiKey=${API_KEY} ",
		"sse https://mcp.demo.dev/sse ",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestReadmeMCPRemoteUnwrap(t *testing.T) {
	cands := readme(t, "```json\n"+`{"mcpServers": {"d": {"command": "npx", "args": ["-y", "mcp-remote@0.1", "https://mcp.demo.dev/sse", "--header", "Authorization: Bearer ${DEMO_KEY}"], "env": {"DEMO_KEY": "abc"}}}}`+"\n```\n"+
		"```json\n"+`{"mcpServers": {"d": {"command": "npx mcp-remote https://mcp.demo.dev/mcp --header 'X-Key: <key>'"}}}`+"\n```\n")
	if len(cands) != 2 {
		t.Fatalf("%d candidates", len(cands))
	}
	a, b := cands[0].Server, cands[1].Server
	if a.Transport != canonical.SSE || a.URL != "https://mcp.demo.dev/sse" || a.Headers["Authorization"] != "Bearer ${DEMO_KEY}" || a.Env != nil {
		t.Errorf("first: %+v", a)
	}
	if b.Transport != canonical.HTTP || b.Headers["X-Key"] != "${DEMO_KEY}" {
		t.Errorf("second: %+v", b)
	}
}

func TestReadmeFragmentsAndShapes(t *testing.T) {
	text := "```\n\"mcpServers\": {\n  \"demo\": {\"command\": \"uvx\", \"args\": [\"demo-mcp\"]}\n}\n```\n" +
		"```json\n{\"context_servers\": {\"demo\": {\"command\": {\"path\": \"npx\", \"args\": [\"-y\", \"demo-mcp\"]}, \"settings\": {}}}}\n```\n" +
		"```toml\n[mcp_servers.demo]\ncommand = \"dnx\"\nargs = [\"Demo\", \"--yes\"]\n```\n" +
		"```json\n{\"mcp\": {\"demo\": {\"type\": \"local\", \"command\": [\"docker\", \"run\", \"-i\", \"demo\"]}}}\n```\n" +
		"```json\n{\"status\": \"ok\", \"version\": \"1.0\"}\n```\n" +
		"```json\n{\"mcpServers\": {\"demo\": {\"command\": \"npx\",, }}\n```\n"
	cands, notes := ReadmeCandidates([]byte(text), ReadmeOptions{File: "README.md", Name: "demo"})
	var got []string
	for _, c := range cands {
		got = append(got, CommandLine(c.Server)+" @"+c.Source)
	}
	want := []string{"uvx demo-mcp @README.md:2", "npx -y demo-mcp @README.md:7", "dnx Demo --yes @README.md:10", "docker run -i demo @README.md:15"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "line 21") {
		t.Errorf("notes %q: the broken block at line 21 should be reported", notes)
	}
}

func TestIsPlaceholder(t *testing.T) {
	for _, s := range []string{"YOUR_API_KEY", "your-token-here", "<token>", "/path/to/dir", "path/to/repo", "sk-...", "ntn_****",
		"xxxxxxxx", "API_KEY_HERE", "/Users/username/x", "[your key]"} {
		if !isPlaceholder(s) {
			t.Errorf("isPlaceholder(%q) = false", s)
		}
	}
	for _, s := range []string{"stdio", "--verbose", "@scope/pkg", "https://mcp.demo.dev/mcp", "true", "8080", "eu-west-1", "mcp/git", "yours"} {
		if isPlaceholder(s) {
			t.Errorf("isPlaceholder(%q) = true", s)
		}
	}
}

func TestReadmeSnippetWithSeveralServers(t *testing.T) {
	// A whole config shown as an example: the repository's own server is kept.
	cands := readme(t, "```json\n"+`{"mcpServers": {
  "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"]},
  "demo": {"command": "uvx", "args": ["demo-mcp"]}
}}`+"\n```\n")
	if len(cands) != 1 || CommandLine(cands[0].Server) != "uvx demo-mcp" {
		t.Errorf("got %+v, want only the demo server", cands)
	}
	// No server named after the repository: all are candidates.
	cands = readme(t, "```json\n"+`{"mcpServers": {"a": {"command": "uvx", "args": ["a"]}, "b": {"command": "npx", "args": ["b"]}}}`+"\n```\n")
	if len(cands) != 2 {
		t.Errorf("got %d candidates, want 2", len(cands))
	}
}
