package interop_test

// Which server names the real clients read: the evidence behind
// canonical.NameProblem. mcpsync writes servers under unusual names into
// every client that runs here and asks each client to list them; each
// must show every name as it is. A control character is the exception:
// Copilot CLI drops a server whose name holds a tab (shown below by
// writing one into its file by hand), which is why mcpsync refuses such a
// name everywhere.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// unusualNames are names no client's own 'mcp add' takes in full, which
// every client nevertheless reads from its file.
var unusualNames = []string{"a b", "a.b", "a/b", "../up", "a@b", "a:b", "ünï", `q"uote`, "a~b", "UPPER_lower-1"}

func TestRealClientsReadUnusualNames(t *testing.T) {
	if reason := interopOff(); reason != "" {
		t.Skip(reason)
	}
	if runtime.GOOS == "windows" {
		t.Skip("SKIP: the interop recipes are written for a POSIX shell environment")
	}
	bin := installClients(t)
	more := installMoreClients(t)
	mcpsync := buildMcpsync(t)

	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	for _, d := range []string{filepath.Join(home, ".config", "mcpsync"), filepath.Join(home, ".gemini"),
		filepath.Join(home, ".qwen"), filepath.Join(home, ".copilot"), filepath.Join(home, ".codex"), proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var store strings.Builder
	for _, n := range unusualNames {
		fmt.Fprintf(&store, "server %s {\n  command = \"true\"\n}\n\n", hclQuote(n))
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "mcpsync", "mcpsync.hcl"), []byte(store.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	env := sandboxEnv(home, bin+string(os.PathListSeparator)+more)
	clients := "claude-code,codex,opencode,gemini,qwen,copilot"
	out, stderr, code := run(t, proj, env, mcpsync, "--json", "export", "--to", clients)
	if code != 0 {
		t.Fatalf("mcpsync export failed (exit %d):\n%s\n%s", code, stderr, out)
	}
	written := writtenServers(t, out)
	for _, c := range strings.Split(clients, ",") {
		if len(written[c]) != len(unusualNames) {
			t.Errorf("mcpsync wrote %v for %s, want every one of %q\n%s", written[c], c, unusualNames, stderr)
		}
	}

	lists := map[string]func() string{
		"claude-code": func() string {
			o, e, _ := run(t, proj, env, filepath.Join(bin, "claude"), "mcp", "list")
			return o + e
		},
		"codex": func() string {
			o, e, _ := run(t, proj, env, filepath.Join(bin, "codex"), "mcp", "list", "--json")
			var entries []struct {
				Name string `json:"name"`
			}
			if i := strings.Index(o, "["); i >= 0 {
				o = o[i:] // a list, after Codex's own warnings
			}
			if err := json.Unmarshal([]byte(o), &entries); err != nil {
				return fmt.Sprintf("(not JSON: %v)\n%s%s", err, o, e)
			}
			var b strings.Builder
			for _, e := range entries {
				b.WriteString("\n" + e.Name + ":")
			}
			return b.String()
		},
		"opencode": func() string {
			o, _, _ := run(t, proj, env, filepath.Join(bin, "opencode"), "debug", "config")
			var cfg struct {
				MCP map[string]json.RawMessage `json:"mcp"`
			}
			json.Unmarshal(jsonPart(o), &cfg)
			var b strings.Builder
			for n := range cfg.MCP {
				b.WriteString("\n" + n + ":")
			}
			return b.String()
		},
		"gemini": func() string {
			o, e, _ := run(t, proj, env, filepath.Join(more, "gemini"), "mcp", "list")
			return stripANSI(o + e)
		},
		"qwen": func() string {
			o, e, _ := run(t, proj, env, filepath.Join(more, "qwen"), "mcp", "list")
			return stripANSI(o + e)
		},
		"copilot": func() string {
			o, e, _ := run(t, proj, env, filepath.Join(more, "copilot"), "mcp", "list")
			return o + e
		},
	}
	for client, list := range lists {
		t.Run(client, func(t *testing.T) {
			got := list()
			for _, n := range unusualNames {
				// Each client prints a name followed by ":" or " (".
				if !strings.Contains(got, n+":") && !strings.Contains(got, n+" (") {
					t.Errorf("%s does not list %q as it is:\n%s", client, n, got)
				}
			}
		})
	}

	// A tab in a name: Copilot CLI drops that server (and lists the other).
	t.Run("copilot-drops-a-tab", func(t *testing.T) {
		file := filepath.Join(home, ".copilot", "mcp-config.json")
		data, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
			"tab\tname": map[string]any{"type": "local", "command": "true", "args": []string{}, "tools": []string{"*"}},
			"plain":     map[string]any{"type": "local", "command": "true", "args": []string{}, "tools": []string{"*"}},
		}})
		if err := os.WriteFile(file, data, 0o600); err != nil {
			t.Fatal(err)
		}
		got := lists["copilot"]()
		if !strings.Contains(got, "plain (") {
			t.Fatalf("copilot mcp list does not list plain:\n%s", got)
		}
		if strings.Contains(got, "tab\tname") {
			t.Errorf("copilot mcp list now shows a name with a tab; canonical.NameProblem may be too strict:\n%s", got)
		}
	})
}
