package interop_test

// Droid (Factory's CLI) lists every server mcpsync exports, with its
// transport, and expands the env references mcpsync writes: a stdio server
// that records its environment shows the values. A file with the server
// key misspelled on purpose lists nothing: the check can fail.

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The platform package is pinned beside the launcher: @factory/cli 0.225.1
// asks for a linux-x64 build of its own version, which the registry here
// does not serve; 0.225.2's runs it.
var droidPackages = map[string]string{
	"@factory/cli":           "0.225.1",
	"@factory/cli-linux-x64": "0.225.2",
}

func TestDroidReadsExport(t *testing.T) {
	if reason := interopOff(); reason != "" {
		t.Skip(reason)
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("SKIP: the pinned Droid build is linux-x64")
	}
	bin := installNpm(t, "npm-droid", droidPackages, []string{"droid"})
	mcpsync := buildMcpsync(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	envFile := filepath.Join(root, "seen-env")
	for _, d := range []string{filepath.Join(home, ".config", "mcpsync"), filepath.Join(home, ".factory"), proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	store := storeHCL + `
server "env-recorder" {
  command = "sh"
  args    = ["-c", "echo API_KEY=$API_KEY > ` + envFile + `"]
  env     = { API_KEY = env("INTEROP_API_KEY") }
}
`
	if err := os.WriteFile(filepath.Join(home, ".config", "mcpsync", "mcpsync.hcl"), []byte(store), 0o600); err != nil {
		t.Fatal(err)
	}
	env := sandboxEnv(home, bin)
	out, stderr, code := run(t, proj, env, mcpsync, "--json", "export", "--to", "droid")
	if code != 0 {
		t.Fatalf("mcpsync export --to droid: exit %d\n%s%s", code, out, stderr)
	}
	list := func() string {
		out, errOut, _ := run(t, proj, env, filepath.Join(bin, "droid"), "mcp", "list")
		return stripANSI(out + errOut)
	}
	got := list()
	for name, want := range wantServers {
		line := ""
		for _, l := range strings.Split(got, "\n") {
			if f := strings.Fields(l); len(f) >= 2 && f[0] == name {
				line = l
			}
		}
		if line == "" || !strings.Contains(line, " "+want.transport+" ") || !strings.Contains(line, "[user]") {
			t.Errorf("droid mcp list does not show %s as a %s user server:\n%s", name, want.transport, got)
		}
	}
	if data, err := os.ReadFile(envFile); err != nil || strings.TrimSpace(string(data)) != "API_KEY=interop-key" {
		t.Errorf("the server Droid started saw %q (%v), want API_KEY=interop-key", data, err)
	}
	// The control.
	cfg := filepath.Join(home, ".factory", "mcp.json")
	if err := os.WriteFile(cfg, []byte(strings.Replace(readFile(cfg), `"mcpServers"`, `"servers"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := list(); !strings.Contains(got, "No MCP servers configured") {
		t.Errorf("droid still lists servers under a key it does not read: the check above proves nothing\n%s", got)
	}
}
