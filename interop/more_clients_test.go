package interop_test

// The same proof as TestRealClientsAcceptExport for Gemini CLI, GitHub
// Copilot CLI and Qwen Code, with the recipes of shared/reference/clients.md
// §0.4: Gemini and Qwen list their servers (connecting to each: stdio
// servers run `true`, remote ones point at a closed loopback port), Copilot
// answers copilot mcp get NAME --json. Project files are checked too, in a
// folder each client trusts (Gemini: ~/.gemini/trustedFolders.json, Copilot:
// trusted_folders in ~/.copilot/config.json).

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// moreClientPackages are the versions clients.md was verified with.
var moreClientPackages = map[string]string{
	"@google/gemini-cli":   "0.61.0",
	"@github/copilot":      "1.0.102",
	"@qwen-code/qwen-code": "0.15.10",
}

var moreClientBins = []string{"gemini", "copilot", "qwen"}

// projectStoreHCL is the project's mcpsync.hcl: one server per transport
// kind, so that every client's project file holds a local and a remote one.
const projectStoreHCL = `server "proj-stdio" {
  command = "true"
  args    = ["project"]
}

server "proj-http" {
  url = "http://127.0.0.1:9/proj/mcp"
}
`

var wantProjectServers = map[string]wantServer{
	"proj-stdio": {transport: "stdio", command: "true"},
	"proj-http":  {transport: "http", url: "http://127.0.0.1:9/proj/mcp"},
}

func TestMoreClientsAcceptExport(t *testing.T) {
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
	for _, d := range []string{filepath.Join(home, ".config", "mcpsync"), filepath.Join(home, ".gemini"),
		filepath.Join(home, ".copilot"), filepath.Join(proj, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	trust, _ := json.Marshal(map[string]string{proj: "TRUST_FOLDER"})
	copilotTrust, _ := json.Marshal(map[string][]string{"trusted_folders": {proj}})
	for path, text := range map[string]string{
		filepath.Join(home, ".config", "mcpsync", "mcpsync.hcl"): storeHCL,
		filepath.Join(proj, "mcpsync.hcl"):                       projectStoreHCL,
		filepath.Join(proj, ".git", "HEAD"):                      "ref: refs/heads/main\n",
		filepath.Join(home, ".gemini", "trustedFolders.json"):    string(trust),
		filepath.Join(home, ".copilot", "config.json"):           string(copilotTrust),
	} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env := sandboxEnv(home, bin)
	clients := []string{"gemini", "copilot", "qwen"}
	to := strings.Join(clients, ",")

	// user scope, then project scope
	written := map[string][]string{}
	for _, scope := range []string{"user", "project"} {
		out, stderr, code := run(t, proj, env, mcpsync, "--json", "export", "--to", to, "--scope", scope)
		if code != 0 {
			t.Fatalf("mcpsync export --scope %s failed (exit %d):\n%s\n%s", scope, code, stderr, out)
		}
		got := writtenServers(t, out)
		t.Logf("mcpsync export --scope %s wrote: %v\nwarnings:\n%s", scope, got, stderr)
		want := wantServers
		if scope == "project" {
			want = wantProjectServers
		}
		for _, client := range clients {
			for name := range want {
				if !slices.Contains(got[client], name) && !strings.Contains(stderr, `server "`+name+`"`) {
					t.Errorf("%s (%s) did not get %s, and no warning says why:\n%s", client, scope, name, stderr)
				}
			}
			written[client] = append(written[client], got[client]...)
		}
	}
	expected := func(name string) wantServer {
		if w, ok := wantServers[name]; ok {
			return w
		}
		return wantProjectServers[name]
	}

	// Gemini and Qwen print "✗ NAME: <command or url> (<transport>) - Disconnected".
	listed := func(t *testing.T, client, out string, names []string) {
		t.Helper()
		for _, name := range names {
			want := expected(name)
			target := want.url
			if target == "" {
				target = want.command
			}
			line := regexp.MustCompile(`(?m)^\S+ ` + regexp.QuoteMeta(name) + `: ` + regexp.QuoteMeta(target) + `.* \((\w+)\) - `)
			m := line.FindStringSubmatch(out)
			switch {
			case m == nil:
				t.Errorf("%s mcp list does not show %s (%s) as mcpsync wrote it:\n%s", client, name, target, out)
			case m[1] != want.transport:
				t.Errorf("%s mcp list shows %s as %s, want %s", client, name, m[1], want.transport)
			}
		}
	}

	t.Run("gemini", func(t *testing.T) {
		out, errOut, code := run(t, proj, env, filepath.Join(bin, "gemini"), "mcp", "list")
		all := stripANSI(out + errOut)
		if code != 0 {
			t.Fatalf("gemini mcp list: exit %d (52: a JSON syntax error)\n%s\nuser file:\n%s\nproject file:\n%s", code, all,
				readFile(filepath.Join(home, ".gemini", "settings.json")), readFile(filepath.Join(proj, ".gemini", "settings.json")))
		}
		if strings.Contains(all, "Invalid configuration") || strings.Contains(all, "untrusted") {
			t.Errorf("gemini reports problems with the files mcpsync wrote:\n%s", all)
		}
		listed(t, "gemini", all, written["gemini"])
	})

	t.Run("qwen", func(t *testing.T) {
		out, errOut, code := run(t, proj, env, filepath.Join(bin, "qwen"), "mcp", "list")
		all := stripANSI(out + errOut)
		if code != 0 {
			t.Fatalf("qwen mcp list: exit %d\n%s\nfile:\n%s", code, all, readFile(filepath.Join(home, ".qwen", "settings.json")))
		}
		listed(t, "qwen", all, written["qwen"])
	})

	t.Run("copilot", func(t *testing.T) {
		copilot := filepath.Join(bin, "copilot")
		list, listErr, _ := run(t, proj, env, copilot, "mcp", "list")
		if strings.Contains(listErr, "kipping") || strings.Contains(listErr, "malformed") {
			t.Errorf("copilot mcp list skips what mcpsync wrote:\n%s%s", list, listErr)
		}
		for _, name := range written["copilot"] {
			want := expected(name)
			got, errOut, code := run(t, proj, env, copilot, "mcp", "get", name, "--json")
			if code != 0 {
				t.Errorf("copilot mcp get %s --json: exit %d, the entry was skipped or is missing\n%s%s\nuser file:\n%s\nproject file:\n%s",
					name, code, got, errOut, readFile(filepath.Join(home, ".copilot", "mcp-config.json")),
					readFile(filepath.Join(proj, ".github", "mcp.json")))
				continue
			}
			var entries map[string]struct {
				Type    string `json:"type"`
				Command string `json:"command"`
				URL     string `json:"url"`
				Enabled bool   `json:"enabled"`
			}
			if err := json.Unmarshal(jsonPart(got), &entries); err != nil {
				t.Errorf("copilot mcp get %s --json: %v\n%s", name, err, got)
				continue
			}
			e := entries[name]
			wantType := map[string]string{"stdio": "local", "http": "http", "sse": "sse"}[want.transport]
			if e.Type != wantType || e.Command != want.command || e.URL != want.url || !e.Enabled {
				t.Errorf("copilot sees %s as %+v, want type %s command %q url %q, enabled", name, e, wantType, want.command, want.url)
			}
		}
	})

	// The clients ran and may have rewritten their files (Qwen migrates a
	// file without "$version"); mcpsync's entries must still be in step.
	for _, scope := range []string{"user", "project"} {
		diff, errOut, code := run(t, proj, env, mcpsync, "diff", "--to", to, "--scope", scope, "--exit-code")
		if code != 0 {
			t.Errorf("after the clients ran, mcpsync diff --scope %s --exit-code exits %d:\n%s%s", scope, code, diff, errOut)
		}
	}
	if fi, err := os.Stat(filepath.Join(home, ".qwen", "settings.json")); err == nil && fi.Mode().Perm() != 0o600 {
		t.Errorf("~/.qwen/settings.json has mode %v after qwen ran: Qwen rewrote (migrated) the file mcpsync created", fi.Mode().Perm())
	}
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;]*m`)

func stripANSI(s string) string { return ansi.ReplaceAllString(s, "") }

// installMoreClients installs the pinned Gemini CLI, Copilot CLI and Qwen
// Code into a cache directory of their own, or reuses them, and returns
// their .bin directory. It skips when npm or the registry cannot be reached.
func installMoreClients(t *testing.T) string {
	return installNpm(t, "npm-more-clients", moreClientPackages, moreClientBins)
}
