package interop_test

// The policies mcpsync renders (mcpsync policy render), obeyed by the real
// clients: each runs in a throwaway mount namespace (unshare -rm) where a
// copy of /etc holds the rendered Linux files, so the machine's own /etc
// is never touched. A user's own server "mine" is in every client's user
// file beside the team's; the policy must make each client drop it, and
// mcpsync policy check must say so first. The control run, with no policy
// installed, shows every client listing "mine": the assertions can fail.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const policyStore = `server "team" {
  command = "true"
  args    = ["team"]
}

server "remote" {
  url = "http://127.0.0.1:9/mcp"
}
`

func TestRealClientsObeyRenderedPolicies(t *testing.T) {
	if reason := interopOff(); reason != "" {
		t.Skip(reason)
	}
	if runtime.GOOS != "linux" {
		t.Skip("SKIP: the policy checks use a Linux mount namespace to stand in for /etc")
	}
	if out, err := exec.Command("unshare", "-rm", "true").CombinedOutput(); err != nil {
		t.Skipf("SKIP: unshare -rm (user and mount namespaces) is not available here: %v %s", err, out)
	}
	bin := installClients(t)
	more := installMoreClients(t)
	mcpsync := buildMcpsync(t)

	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	for _, d := range []string{filepath.Join(home, ".config", "mcpsync"), filepath.Join(home, ".gemini"), filepath.Join(home, ".codex"), proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(home, ".config", "mcpsync", "mcpsync.hcl"), policyStore)
	trust, _ := json.Marshal(map[string]string{proj: "TRUST_FOLDER"})
	write(filepath.Join(home, ".gemini", "trustedFolders.json"), string(trust))
	env := sandboxEnv(home, bin+string(os.PathListSeparator)+more)

	if out, stderr, code := run(t, proj, env, mcpsync, "export", "--to", "claude-code,codex,gemini"); code != 0 {
		t.Fatalf("mcpsync export: exit %d\n%s%s", code, out, stderr)
	}
	// The user's own server, by hand, in each client's user file.
	addMine := func(path string, edit func(map[string]any)) {
		var doc map[string]any
		if err := json.Unmarshal([]byte(readFile(path)), &doc); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		edit(doc)
		data, _ := json.MarshalIndent(doc, "", "  ")
		write(path, string(data))
	}
	mine := map[string]any{"type": "stdio", "command": "true", "args": []string{"mine"}}
	addMine(filepath.Join(home, ".claude.json"), func(d map[string]any) { d["mcpServers"].(map[string]any)["mine"] = mine })
	addMine(filepath.Join(home, ".gemini", "settings.json"), func(d map[string]any) {
		d["mcpServers"].(map[string]any)["mine"] = map[string]any{"command": "true", "args": []string{"mine"}}
	})
	codexCfg := filepath.Join(home, ".codex", "config.toml")
	write(codexCfg, readFile(codexCfg)+"\n[mcp_servers.mine]\ncommand = \"true\"\nargs = [\"mine\"]\n")

	// mcpsync's own simulation first: every client would drop "mine".
	out, stderr, code := run(t, proj, env, mcpsync, "policy", "check")
	if code != 1 || strings.Count(out, "BLOCKED") != 3 || strings.Count(out, " mine ") != 3 {
		t.Fatalf("policy check: exit %d, want 1 with mine blocked for 3 clients\n%s%s", code, out, stderr)
	}

	// The rendered files, in a copy of /etc.
	outDir := filepath.Join(root, "policy")
	if out, stderr, code := run(t, proj, env, mcpsync, "policy", "render", "--out", outDir); code != 0 {
		t.Fatalf("policy render: exit %d\n%s%s", code, out, stderr)
	}
	allowDir := filepath.Join(root, "policy-allowlist")
	if out, stderr, code := run(t, proj, env, mcpsync, "policy", "render", "--mode", "allowlist", "--vendor", "claude-code", "--out", allowDir); code != 0 {
		t.Fatalf("policy render --mode allowlist: exit %d\n%s%s", code, out, stderr)
	}
	etcCopy := func(t *testing.T, from string) string {
		t.Helper()
		dir := filepath.Join(t.TempDir(), "etc")
		if out, err := exec.Command("cp", "-a", "/etc/.", dir+"/").CombinedOutput(); err != nil && !isDir(dir) {
			t.Fatalf("copy /etc: %v %s", err, out)
		}
		if from != "" {
			if out, err := exec.Command("cp", "-a", filepath.Join(from, "linux", "etc")+"/.", dir+"/").CombinedOutput(); err != nil {
				t.Fatalf("copy the policy: %v %s", err, out)
			}
		}
		return dir
	}
	// inNSOut runs a client with etc mounted over /etc: stdout, stderr.
	inNSOut := func(t *testing.T, etc, name string, args ...string) (string, string) {
		t.Helper()
		script := `mount --bind "$1" /etc && shift && exec "$@"`
		full := append([]string{"-rm", "sh", "-c", script, "sh", etc, name}, args...)
		out, errOut, _ := run(t, proj, env, "unshare", full...)
		return stripANSI(out), stripANSI(errOut)
	}
	inNS := func(t *testing.T, etc, name string, args ...string) string {
		t.Helper()
		out, errOut := inNSOut(t, etc, name, args...)
		return out + errOut
	}
	claude, codex, gemini := filepath.Join(bin, "claude"), filepath.Join(bin, "codex"), filepath.Join(more, "gemini")
	listsMine := map[string]func(t *testing.T, etc string) (bool, string){
		"claude-code": func(t *testing.T, etc string) (bool, string) {
			out := inNS(t, etc, claude, "mcp", "list")
			return strings.Contains(out, "mine:"), out
		},
		"codex": func(t *testing.T, etc string) (bool, string) {
			out, _ := inNSOut(t, etc, codex, "mcp", "list", "--json")
			var list []struct {
				Name    string `json:"name"`
				Enabled bool   `json:"enabled"`
			}
			if err := json.Unmarshal([]byte(out), &list); err != nil {
				t.Fatalf("codex mcp list --json: %v\n%s", err, out)
			}
			for _, s := range list {
				if s.Name == "mine" && s.Enabled {
					return true, out
				}
			}
			return false, out
		},
		"gemini": func(t *testing.T, etc string) (bool, string) {
			out := inNS(t, etc, gemini, "mcp", "list")
			return strings.Contains(out, "mine:") && !strings.Contains(out, "⛔ mine:"), out
		},
	}

	t.Run("control: no policy, every client runs mine", func(t *testing.T) {
		etc := etcCopy(t, "")
		for client, check := range listsMine {
			if ok, out := check(t, etc); !ok {
				t.Errorf("%s without a policy does not list mine: the check below proves nothing\n%s", client, out)
			}
		}
	})
	t.Run("exclusive", func(t *testing.T) {
		etc := etcCopy(t, outDir)
		for client, check := range listsMine {
			if ok, out := check(t, etc); ok {
				t.Errorf("%s still runs mine under the rendered policy\n%s", client, out)
			}
		}
		out := inNS(t, etc, claude, "mcp", "list")
		if !strings.Contains(out, "team:") || !strings.Contains(out, "remote:") {
			t.Errorf("claude mcp list does not show the managed servers:\n%s", out)
		}
		out = inNS(t, etc, claude, "mcp", "add", "--transport", "http", "test", "https://example.com/mcp")
		if !strings.Contains(out, "enterprise MCP configuration is active") {
			t.Errorf("claude mcp add was not refused by managed-mcp.json:\n%s", out)
		}
		out = inNS(t, etc, codex, "mcp", "list", "--json")
		if !strings.Contains(out, `"disabled_reason": "requirements (/etc/codex/requirements.toml)"`) {
			t.Errorf("codex gives no requirements reason:\n%s", out)
		}
		// mcpsync reads the installed policy as the clients do.
		root := filepath.Dir(etc)
		got, stderr, code := run(t, proj, env, mcpsync, "policy", "check", "--installed", "--root", root)
		if code != 1 || strings.Count(got, "BLOCKED") != 3 {
			t.Errorf("policy check --installed: exit %d, want mine blocked for 3 clients\n%s%s", code, got, stderr)
		}
	})
	t.Run("claude-code allowlist", func(t *testing.T) {
		etc := etcCopy(t, allowDir)
		out := inNS(t, etc, claude, "mcp", "list")
		if strings.Contains(out, "mine:") || !strings.Contains(out, "team:") {
			t.Errorf("claude mcp list under the allowlist, want team and not mine:\n%s", out)
		}
	})
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
