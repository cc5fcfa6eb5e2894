package interop_test

// Kilo CLI lists every server mcpsync exports to its user file and expands
// the {env:VAR} references mcpsync writes there (a server that records its
// environment shows the value); a misspelled server key lists nothing.

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var kiloPackages = map[string]string{
	"@kilocode/cli":           "7.7.7",
	"@kilocode/cli-linux-x64": "7.7.7",
}

func TestKiloReadsExport(t *testing.T) {
	if reason := interopOff(); reason != "" {
		t.Skip(reason)
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skip("SKIP: the pinned Kilo build is linux-x64")
	}
	bin := installNpm(t, "npm-kilo", kiloPackages, []string{"kilo"})
	mcpsync := buildMcpsync(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	envFile := filepath.Join(root, "seen-env")
	for _, d := range []string{filepath.Join(home, ".config", "mcpsync"), filepath.Join(home, ".config", "kilo"), filepath.Join(proj, ".git")} {
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
	if out, stderr, code := run(t, proj, env, mcpsync, "--json", "export", "--to", "kilo"); code != 0 {
		t.Fatalf("mcpsync export --to kilo: exit %d\n%s%s", code, out, stderr)
	}
	list := func() string {
		out, errOut, _ := run(t, proj, env, filepath.Join(bin, "kilo"), "mcp", "list")
		return stripANSI(out + errOut)
	}
	got := list()
	for name := range wantServers {
		if !strings.Contains(got, " "+name+" ") && !strings.Contains(got, " "+name+"\n") {
			t.Errorf("kilo mcp list does not show %s:\n%s", name, got)
		}
	}
	if data, err := os.ReadFile(envFile); err != nil || strings.TrimSpace(string(data)) != "API_KEY=interop-key" {
		t.Errorf("the server Kilo started saw %q (%v), want API_KEY=interop-key\n%s", data, err, got)
	}
	cfg := filepath.Join(home, ".config", "kilo", "kilo.jsonc")
	if err := os.WriteFile(cfg, []byte(strings.Replace(readFile(cfg), `"mcp"`, `"mcpServers"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := list(); strings.Contains(got, "stdio-basic") {
		t.Errorf("kilo still lists servers under a key it does not read: the check above proves nothing\n%s", got)
	}
}
