package interop_test

// Copilot CLI reads one workspace file: .mcp.json when the project has one,
// else .github/mcp.json. With Claude Code's .mcp.json in the project, the
// real copilot sees the project servers mcpsync wrote there for Claude Code
// (in Claude Code's spelling, which Copilot reads too) and nothing of a
// .github/mcp.json beside it, which is why mcpsync stops writing that file
// then. If a Copilot release starts reading both, the last check fails and
// the spec's shadowed_by must go.

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestCopilotReadsMcpJSONOverGithub(t *testing.T) {
	if reason := interopOff(); reason != "" {
		t.Skip(reason)
	}
	if runtime.GOOS == "windows" {
		t.Skip("SKIP: the interop recipes are written for a POSIX shell environment")
	}
	bin := installMoreClients(t)
	mcpsync := buildMcpsync(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	for _, d := range []string{filepath.Join(home, ".config", "mcpsync"), filepath.Join(home, ".copilot"), filepath.Join(proj, ".git"),
		filepath.Join(proj, ".github")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for path, text := range map[string]string{
		filepath.Join(proj, "mcpsync.hcl"):             projectStoreHCL,
		filepath.Join(proj, ".git", "HEAD"):            "ref: refs/heads/main\n",
		filepath.Join(home, ".copilot", "config.json"): `{"trusted_folders": ["` + proj + `"]}`,
		filepath.Join(proj, ".github", "mcp.json"):     `{"mcpServers": {"gh-only": {"command": "true"}}}`,
	} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := sandboxEnv(home, bin)
	copilot := filepath.Join(bin, "copilot")
	if out, errOut, code := run(t, proj, env, copilot, "mcp", "get", "gh-only"); code != 0 {
		t.Fatalf("without .mcp.json copilot does not read .github/mcp.json: exit %d\n%s%s", code, out, errOut)
	}
	if out, stderr, code := run(t, proj, env, mcpsync, "export", "--scope", "project", "--to", "claude-code"); code != 0 {
		t.Fatalf("mcpsync export --to claude-code: exit %d\n%s%s", code, out, stderr)
	}
	out, _, code := run(t, proj, env, mcpsync, "export", "--scope", "project", "--to", "copilot")
	if code != 0 || !strings.Contains(out, "skipped copilot: Copilot CLI reads .mcp.json instead") {
		t.Errorf("mcpsync export --to copilot with .mcp.json present: exit %d\n%s", code, out)
	}
	for name, want := range wantProjectServers {
		got, errOut, code := run(t, proj, env, copilot, "mcp", "get", name)
		if code != 0 || !strings.Contains(got, ".mcp.json") {
			t.Errorf("copilot mcp get %s: exit %d, want it from .mcp.json\n%s%s", name, code, got, errOut)
			continue
		}
		if target := want.command + want.url; !strings.Contains(got, target) {
			t.Errorf("copilot shows %s without %s:\n%s", name, target, got)
		}
	}
	if got, _, code := run(t, proj, env, copilot, "mcp", "get", "gh-only"); code == 0 {
		t.Errorf("copilot reads .github/mcp.json beside .mcp.json now; mcpsync's shadowed_by for it is wrong:\n%s", got)
	}
}
