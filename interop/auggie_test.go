package interop_test

// Auggie (Augment Code's CLI) lists, with auggie mcp list --json, every
// server mcpsync exports to it with the transport, command and URL it was
// given; a server that needs a reference is left out with a warning (its
// references are not known). A misspelled server key lists nothing.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var auggiePackages = map[string]string{"@augmentcode/auggie": "0.36.0"}

func TestAuggieReadsExport(t *testing.T) {
	if reason := interopOff(); reason != "" {
		t.Skip(reason)
	}
	if runtime.GOOS == "windows" {
		t.Skip("SKIP: the interop recipes are written for a POSIX shell environment")
	}
	bin := installNpm(t, "npm-auggie", auggiePackages, []string{"auggie"})
	mcpsync := buildMcpsync(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	for _, d := range []string{filepath.Join(home, ".config", "mcpsync"), filepath.Join(home, ".augment"), proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "mcpsync", "mcpsync.hcl"), []byte(storeHCL), 0o600); err != nil {
		t.Fatal(err)
	}
	env := sandboxEnv(home, bin)
	out, stderr, code := run(t, proj, env, mcpsync, "--json", "export", "--to", "auggie")
	if code != 0 {
		t.Fatalf("mcpsync export --to auggie: exit %d\n%s%s", code, out, stderr)
	}
	written := writtenServers(t, out)["auggie"]
	list := func() map[string]map[string]any {
		out, errOut, code := run(t, proj, env, filepath.Join(bin, "auggie"), "mcp", "list", "--json")
		if code != 0 {
			t.Fatalf("auggie mcp list --json: exit %d\n%s", code, errOut)
		}
		var doc struct {
			Servers []map[string]any `json:"servers"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("auggie mcp list --json: %v\n%s", err, out)
		}
		got := map[string]map[string]any{}
		for _, s := range doc.Servers {
			got[s["name"].(string)] = s
		}
		return got
	}
	got := list()
	for name, want := range wantServers {
		if !strings.Contains(strings.Join(written, " "), name) {
			if !strings.Contains(stderr, `server "`+name+`"`) {
				t.Errorf("%s was not written and no warning says why:\n%s", name, stderr)
			}
			continue
		}
		s, ok := got[name]
		if !ok {
			t.Errorf("auggie does not list %s", name)
			continue
		}
		if s["transport"] != want.transport || want.url != "" && s["url"] != want.url ||
			want.command != "" && !strings.HasPrefix(s["command"].(string), want.command) {
			t.Errorf("auggie lists %s as %v, want %+v", name, s, want)
		}
	}
	if len(got) == 0 {
		t.Fatal("auggie lists no server")
	}
	cfg := filepath.Join(home, ".augment", "settings.json")
	if err := os.WriteFile(cfg, []byte(strings.Replace(readFile(cfg), `"mcpServers"`, `"servers"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := list(); len(got) != 0 {
		t.Errorf("auggie still lists servers under a key it does not read: the check above proves nothing\n%v", got)
	}
}
