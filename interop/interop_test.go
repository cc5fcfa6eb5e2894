// Package interop_test proves that real clients accept the files mcpsync
// writes: it installs Claude Code, Codex CLI and OpenCode from npm (pinned
// versions, cached under the user cache directory), exports a store into a
// scratch HOME and asks each client, with its own commands, whether every
// exported server is there with the right transport, command and URL.
//
// It is part of the normal test suite (go test ./...): the first run
// installs about 1.4 GB of clients into the user cache directory. It skips
// with a "SKIP: …" reason under -short, with MCPSYNC_INTEROP=0, and when
// npm or its registry cannot be reached. A client that rejects a file fails
// the test.
package interop_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// The client versions the reference facts were verified with
// (shared/reference/clients.md).
var clientPackages = map[string]string{
	"@anthropic-ai/claude-code": "2.1.197",
	"@openai/codex":             "0.171.0",
	"opencode-ai":               "1.18.33",
}

var clientBins = []string{"claude", "codex", "opencode"}

// The store exported to the clients: every transport, an env reference, a
// header reference. Remote URLs point at a closed loopback port, and stdio
// servers run `true`, because `claude mcp list` starts user servers.
const storeHCL = `# interop store
server "stdio-basic" {
  command = "true"
  args    = ["--flag", "value"]
}

server "stdio-env" {
  command = "true"
  args    = ["serve"]
  env     = { API_KEY = env("INTEROP_API_KEY"), LITERAL = "plain" }
}

server "http-srv" {
  url     = "http://127.0.0.1:9/mcp"
  headers = { Authorization = "Bearer ${env("INTEROP_TOKEN")}" }
}

server "sse-srv" {
  url       = "http://127.0.0.1:9/sse"
  transport = "sse"
}
`

type wantServer struct {
	transport string // stdio, http, sse
	command   string
	url       string
}

var wantServers = map[string]wantServer{
	"stdio-basic": {transport: "stdio", command: "true"},
	"stdio-env":   {transport: "stdio", command: "true"},
	"http-srv":    {transport: "http", url: "http://127.0.0.1:9/mcp"},
	"sse-srv":     {transport: "sse", url: "http://127.0.0.1:9/sse"},
}

func TestRealClientsAcceptExport(t *testing.T) {
	if reason := interopOff(); reason != "" {
		t.Skip(reason)
	}
	if runtime.GOOS == "windows" {
		t.Skip("SKIP: the interop recipes are written for a POSIX shell environment")
	}
	bin := installClients(t)
	mcpsync := buildMcpsync(t)

	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	for _, d := range []string{home, proj, filepath.Join(home, ".config", "mcpsync")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "mcpsync", "mcpsync.hcl"), []byte(storeHCL), 0o600); err != nil {
		t.Fatal(err)
	}
	env := sandboxEnv(home, bin)

	out, stderr, code := run(t, proj, env, mcpsync, "--json", "export", "--to", "claude-code,codex,opencode")
	if code != 0 {
		t.Fatalf("mcpsync export failed (exit %d):\n%s\n%s", code, stderr, out)
	}
	written := writtenServers(t, out)
	t.Logf("mcpsync export wrote: %v\nwarnings:\n%s", written, stderr)
	// Every store server reached every client, or a warning names it (Codex
	// has no SSE transport).
	for _, client := range []string{"claude-code", "codex", "opencode"} {
		for name := range wantServers {
			if !slices.Contains(written[client], name) && !strings.Contains(stderr, `server "`+name+`"`) {
				t.Errorf("%s did not get %s, and no warning says why:\n%s", client, name, stderr)
			}
		}
	}

	t.Run("claude-code", func(t *testing.T) {
		claude := filepath.Join(bin, "claude")
		for _, name := range written["claude-code"] {
			want := wantServers[name]
			got, errOut, code := run(t, proj, env, claude, "mcp", "get", name)
			if code != 0 {
				t.Errorf("claude mcp get %s: exit %d, the entry was rejected or is missing\n%s%s\nfile:\n%s",
					name, code, got, errOut, readFile(filepath.Join(home, ".claude.json")))
				continue
			}
			expectLine(t, "claude mcp get "+name, got, "Type: "+want.transport)
			if want.command != "" {
				expectLine(t, "claude mcp get "+name, got, "Command: "+want.command)
			}
			if want.url != "" {
				expectLine(t, "claude mcp get "+name, got, "URL: "+want.url)
			}
		}
		list, errOut, _ := run(t, proj, env, claude, "mcp", "list")
		if strings.Contains(list+errOut, "MCP config diagnostics") {
			t.Errorf("claude mcp list reports problems with the file mcpsync wrote:\n%s%s", list, errOut)
		}
	})

	t.Run("codex", func(t *testing.T) {
		codex := filepath.Join(bin, "codex")
		for _, name := range written["codex"] {
			want := wantServers[name]
			got, errOut, code := run(t, proj, env, codex, "mcp", "get", name, "--json")
			if code != 0 {
				t.Errorf("codex mcp get %s --json: exit %d\n%s%s\nfile:\n%s", name, code, got, errOut,
					readFile(filepath.Join(home, ".codex", "config.toml")))
				continue
			}
			var entry struct {
				Transport struct {
					Type    string `json:"type"`
					Command string `json:"command"`
					URL     string `json:"url"`
				} `json:"transport"`
			}
			if err := json.Unmarshal(jsonPart(got), &entry); err != nil {
				t.Errorf("codex mcp get %s --json: %v\n%s", name, err, got)
				continue
			}
			wantType := map[string]string{"stdio": "stdio", "http": "streamable_http", "sse": "streamable_http"}[want.transport]
			if entry.Transport.Type != wantType || entry.Transport.Command != want.command || entry.Transport.URL != want.url {
				t.Errorf("codex sees %s as %+v, want type %s command %q url %q", name, entry.Transport, wantType, want.command, want.url)
			}
		}
	})

	t.Run("opencode", func(t *testing.T) {
		opencode := filepath.Join(bin, "opencode")
		got, errOut, code := run(t, proj, env, opencode, "debug", "config")
		if code != 0 {
			t.Fatalf("opencode debug config: exit %d, the file was rejected\n%s%s\nfile:\n%s", code, got, errOut,
				readFile(filepath.Join(home, ".config", "opencode", "opencode.json")))
		}
		var cfg struct {
			MCP map[string]struct {
				Type    string   `json:"type"`
				Command []string `json:"command"`
				URL     string   `json:"url"`
			} `json:"mcp"`
		}
		if err := json.Unmarshal(jsonPart(got), &cfg); err != nil {
			t.Fatalf("opencode debug config: %v\n%s", err, got)
		}
		for _, name := range written["opencode"] {
			want := wantServers[name]
			entry, ok := cfg.MCP[name]
			if !ok {
				t.Errorf("opencode does not list %s:\n%s", name, got)
				continue
			}
			wantType := map[bool]string{true: "local", false: "remote"}[want.transport == "stdio"]
			cmd := ""
			if len(entry.Command) > 0 {
				cmd = entry.Command[0]
			}
			if entry.Type != wantType || cmd != want.command || entry.URL != want.url {
				t.Errorf("opencode sees %s as %+v, want type %s command %q url %q", name, entry, wantType, want.command, want.url)
			}
		}
	})

	// The clients ran and may have rewritten their files; mcpsync's
	// entries must still be in step (nothing to write).
	diff, errOut, code := run(t, proj, env, mcpsync, "diff", "--to", "claude-code,codex,opencode", "--exit-code")
	if code != 0 {
		t.Errorf("after the clients ran, mcpsync diff --exit-code exits %d:\n%s%s", code, diff, errOut)
	}
}

// installClients installs the pinned Claude Code, Codex CLI and OpenCode
// into a cache directory, or reuses them, and returns their .bin directory.
// It skips when npm or the registry cannot be reached.
func installClients(t *testing.T) string {
	return installNpm(t, "npm-clients", clientPackages, clientBins)
}

// installNpm installs packages (name → version) with npm into
// <user cache>/mcpsync-test/<dirName>, unless they are there at those
// versions with every one of bins, and returns the .bin directory. It skips
// when npm or the registry cannot be reached.
func installNpm(t *testing.T, dirName string, packages map[string]string, bins []string) string {
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("SKIP: npm registry not reachable: npm is not installed")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	dir := filepath.Join(cache, "mcpsync-test", dirName)
	bin := filepath.Join(dir, "node_modules", ".bin")
	if npmInstalled(dir, packages, bins) {
		return bin
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, npm, "ping").CombinedOutput(); err != nil {
		t.Skipf("SKIP: npm registry not reachable: npm ping: %v: %s", err, lastLine(out))
	}
	args := []string{"install", "--prefix", dir, "--no-audit", "--no-fund", "--loglevel=error"}
	for pkg, version := range packages {
		args = append(args, pkg+"@"+version)
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel2()
	out, err := exec.CommandContext(ctx2, npm, args...).CombinedOutput()
	if err != nil {
		msg := string(out)
		for _, netErr := range []string{"ENOTFOUND", "ETIMEDOUT", "EAI_AGAIN", "ECONNREFUSED", "ECONNRESET", "network"} {
			if strings.Contains(msg, netErr) {
				t.Skipf("SKIP: npm registry not reachable: npm install: %s", lastLine(out))
			}
		}
		t.Fatalf("npm install of the clients failed: %v\n%s", err, out)
	}
	if !npmInstalled(dir, packages, bins) {
		t.Fatalf("npm install finished but the pinned clients are not in %s", dir)
	}
	return bin
}

// npmInstalled reports whether every package is in dir at its version,
// with every one of bins.
func npmInstalled(dir string, packages map[string]string, bins []string) bool {
	for pkg, version := range packages {
		data, err := os.ReadFile(filepath.Join(dir, "node_modules", filepath.FromSlash(pkg), "package.json"))
		if err != nil {
			return false
		}
		var meta struct {
			Version string `json:"version"`
		}
		if json.Unmarshal(data, &meta) != nil || meta.Version != version {
			return false
		}
	}
	for _, b := range bins {
		if _, err := os.Stat(filepath.Join(dir, "node_modules", ".bin", b)); err != nil {
			return false
		}
	}
	return true
}

func buildMcpsync(t *testing.T) string {
	exe := filepath.Join(t.TempDir(), "mcpsync")
	cmd := exec.Command("go", "build", "-o", exe, "../cmd/mcpsync")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}

// sandboxEnv is a minimal environment: the scratch HOME and XDG dirs, the
// clients and node on PATH, the referenced secrets set, and every client's
// update check and telemetry off.
func sandboxEnv(home, bin string) []string {
	path := bin + string(os.PathListSeparator) + os.Getenv("PATH")
	return []string{
		"PATH=" + path,
		"HOME=" + home,
		"USERPROFILE=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"TMPDIR=" + os.TempDir(),
		"NO_COLOR=1",
		"TERM=dumb",
		"INTEROP_API_KEY=interop-key",
		"INTEROP_TOKEN=interop-token",
		"DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_TELEMETRY=1",
		"OPENCODE_DISABLE_AUTOUPDATE=true",
		"OPENCODE_DISABLE_DEFAULT_PLUGINS=true",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=true",
	}
}

// run runs a command with a deadline and returns stdout, stderr and the exit code.
func run(t *testing.T, dir string, env []string, name string, args ...string) (string, string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, nil
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("%s %s: %v", filepath.Base(name), strings.Join(args, " "), err)
	}
	if ctx.Err() != nil {
		t.Fatalf("%s %s timed out\n%s%s", filepath.Base(name), strings.Join(args, " "), out.String(), errOut.String())
	}
	return out.String(), errOut.String(), code
}

// writtenServers reads mcpsync's --json export result: per client, the
// servers now in its file (added, updated or already there).
func writtenServers(t *testing.T, out string) map[string][]string {
	var plan struct {
		Files []struct {
			Targets []struct {
				Client  string `json:"client"`
				Entries []struct {
					Name   string `json:"name"`
					Action string `json:"action"`
				} `json:"entries"`
			} `json:"targets"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatalf("mcpsync --json export: %v\n%s", err, out)
	}
	got := map[string][]string{}
	for _, f := range plan.Files {
		for _, tp := range f.Targets {
			for _, e := range tp.Entries {
				if e.Action == "add" || e.Action == "update" || e.Action == "unchanged" {
					got[tp.Client] = append(got[tp.Client], e.Name)
				}
			}
		}
	}
	return got
}

func expectLine(t *testing.T, what, out, want string) {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimSpace(l) == want {
			return
		}
	}
	t.Errorf("%s: no line %q in:\n%s", what, want, out)
}

// jsonPart drops the lines a client prints before its JSON (Codex warns
// about PATH aliases under /tmp).
func jsonPart(s string) []byte {
	if i := strings.Index(s, "{"); i >= 0 {
		return []byte(s[i:])
	}
	return []byte(s)
}

func readFile(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Sprintf("(%v)", err)
	}
	return string(data)
}

func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1]
}
