package interop_test

// Crush reads what mcpsync writes, proven with Crush's own configuration
// loader and variable resolver: a small command compiled inside a checkout
// of charmbracelet/crush loads the files as Crush does at start-up and
// prints each MCP server as Crush would start it.
//
// Crush's npm package downloads its binary from GitHub releases and the Go
// module proxy does not serve the crush module here, so the check needs a
// checkout: MCPSYNC_CRUSH_SRC=/path/to/crush (any commit since the crushrc
// format of 2026; verified at 37f36e9). Without one it skips, saying so.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

const crushDumper = `// Command mcpsync-dump prints Crush's MCP servers as Crush starts them.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/charmbracelet/crush/internal/config"
	"github.com/charmbracelet/crush/internal/env"
)

type resolved struct {
	Type    string            ` + "`json:\"type\"`" + `
	Command string            ` + "`json:\"command,omitempty\"`" + `
	Args    []string          ` + "`json:\"args,omitempty\"`" + `
	Env     []string          ` + "`json:\"env,omitempty\"`" + `
	URL     string            ` + "`json:\"url,omitempty\"`" + `
	Headers map[string]string ` + "`json:\"headers,omitempty\"`" + `
	Error   string            ` + "`json:\"error,omitempty\"`" + `
}

func main() {
	cwd, _ := os.Getwd()
	st, err := config.Load(cwd, "", false)
	if err != nil {
		fmt.Fprintln(os.Stderr, "load:", err)
		os.Exit(1)
	}
	r := config.NewShellVariableResolver(env.New())
	out := map[string]resolved{}
	for name, m := range st.Config().MCP {
		x := resolved{Type: string(m.Type), Command: m.Command}
		var e1, e2, e3, e4 error
		x.Args, e1 = m.ResolvedArgs(r)
		x.Env, e2 = m.ResolvedEnv(r)
		x.URL, e3 = m.ResolvedURL(r)
		x.Headers, e4 = m.ResolvedHeaders(r)
		for _, e := range []error{e1, e2, e3, e4} {
			if e != nil {
				x.Error = e.Error()
			}
		}
		out[name] = x
	}
	data, _ := json.MarshalIndent(out, "", "  ")
	fmt.Println(string(data))
}
`

type crushServer struct {
	Type    string            `json:"type"`
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     []string          `json:"env"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
	Error   string            `json:"error"`
}

func TestCrushReadsExport(t *testing.T) {
	if reason := interopOff(); reason != "" {
		t.Skip(reason)
	}
	if runtime.GOOS == "windows" {
		t.Skip("SKIP: the interop recipes are written for a POSIX shell environment")
	}
	src := os.Getenv("MCPSYNC_CRUSH_SRC")
	if src == "" {
		t.Skip("SKIP: set MCPSYNC_CRUSH_SRC to a checkout of github.com/charmbracelet/crush: its npm package downloads the binary from GitHub releases and the Go module proxy does not serve crush here")
	}
	// Build the dumper inside a copy of the checkout (internal packages).
	work := filepath.Join(t.TempDir(), "crush")
	if out, err := exec.Command("cp", "-a", src+"/.", work+"/").CombinedOutput(); err != nil && !isDir(work) {
		t.Fatalf("copy %s: %v %s", src, err, out)
	}
	if err := os.MkdirAll(filepath.Join(work, "cmd", "mcpsync-dump"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "cmd", "mcpsync-dump", "main.go"), []byte(crushDumper), 0o644); err != nil {
		t.Fatal(err)
	}
	dumper := filepath.Join(t.TempDir(), "crush-dump")
	build := exec.Command("go", "build", "-o", dumper, "./cmd/mcpsync-dump")
	build.Dir = work
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building Crush's loader: %v\n%s", err, out)
	}
	mcpsync := buildMcpsync(t)

	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	for _, d := range []string{filepath.Join(home, ".config", "mcpsync"), proj} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "mcpsync", "mcpsync.hcl"), []byte(storeHCL), 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(sandboxEnv(home, ""), "XDG_DATA_HOME="+filepath.Join(home, ".local", "share"))
	out, stderr, code := run(t, proj, env, mcpsync, "--json", "export", "--to", "crush")
	if code != 0 {
		t.Fatalf("mcpsync export --to crush: exit %d\n%s%s", code, out, stderr)
	}
	dump := func(t *testing.T) map[string]crushServer {
		t.Helper()
		out, errOut, code := run(t, proj, env, dumper)
		if code != 0 {
			t.Fatalf("Crush's loader: exit %d\n%s", code, errOut)
		}
		got := map[string]crushServer{}
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("Crush's loader: %v\n%s", err, out)
		}
		return got
	}
	got := dump(t)
	for name, want := range wantServers {
		s, ok := got[name]
		if !ok {
			t.Errorf("Crush does not load %s:\n%s", name, readFile(filepath.Join(home, ".config", "crush", "crush.json")))
			continue
		}
		if s.Error != "" || s.Type != want.transport || s.Command != want.command || s.URL != want.url {
			t.Errorf("Crush loads %s as %+v, want %+v", name, s, want)
		}
	}
	// The references mcpsync wrote are expanded by Crush itself.
	if e := got["stdio-env"].Env; !slices.Contains(e, "API_KEY=interop-key") || !slices.Contains(e, "LITERAL=plain") {
		t.Errorf("stdio-env's environment as Crush starts it: %v", e)
	}
	if h := got["http-srv"].Headers["Authorization"]; h != "Bearer interop-token" {
		t.Errorf("http-srv's Authorization as Crush sends it: %q", h)
	}
	// The control: one spelling broken on purpose, and the check fails.
	cfg := filepath.Join(home, ".config", "crush", "crush.json")
	good := readFile(cfg)
	if err := os.WriteFile(cfg, []byte(strings.Replace(good, `"mcp"`, `"mcpServers"`, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	if len(dump(t)) != 0 {
		t.Error("Crush still loads servers under a key it does not read: the check above proves nothing")
	}
}
