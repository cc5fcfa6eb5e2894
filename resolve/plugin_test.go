package resolve_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/resolve"
)

// script writes an executable shell script and returns its path.
func script(t *testing.T, name, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("plugin scripts are POSIX shell scripts")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// emptyRepo is a repository where every built-in step finds nothing.
func pluginEnv(t *testing.T, plugins ...resolve.Plugin) *env {
	e := newEnv(t, repo("acme", "mystery", "README.md", "# Mystery\n\nAsk the maintainers.\n"))
	e.opts.Plugins = plugins
	return e
}

func TestPluginAnswers(t *testing.T) {
	// The plugin checks that it got the request with the evidence, then
	// answers with some chatter around the JSON, as an LLM would.
	p := script(t, "good", `req=$(cat)
case "$req" in *'"evidence"'*'"step":"readme"'*) ;; *) echo "no evidence in request: $req" >&2; exit 3;; esac
case "$req" in *'"input":"acme/mystery"'*) ;; *) echo "no input" >&2; exit 4;; esac
echo "Sure! Here is the entry:"
echo '{"server": {"command": "npx", "args": ["-y", "@acme/mystery-mcp"], "env": {"MYSTERY_KEY": "YOUR_MYSTERY_KEY"}},'
echo ' "evidence": ["package.json of packages/mcp names @acme/mystery-mcp"]}'
`)
	e := pluginEnv(t, resolve.Plugin{Name: "good", Command: []string{p}, Timeout: 10 * time.Second})
	res := e.must(t, "acme/mystery")
	wantCommand(t, res, "npx", "-y", "@acme/mystery-mcp")
	if res.Step != resolve.StepPlugin || res.Server.Env["MYSTERY_KEY"] != "${MYSTERY_KEY}" {
		t.Errorf("step %s env %v: the placeholder must become a reference", res.Step, res.Server.Env)
	}
	if len(res.Inputs) != 1 || !res.Inputs[0].Secret || !res.Inputs[0].Required {
		t.Errorf("inputs %+v, want MYSTERY_KEY required and secret", res.Inputs)
	}
	if !hasEvidence(res.Evidence, resolve.StepPlugin, "package.json of packages/mcp") {
		t.Errorf("the plugin's evidence is not kept:\n%s", evidence(res.Evidence))
	}
}

func TestPluginErrors(t *testing.T) {
	tests := []struct {
		name, body string
		timeout    time.Duration
		want       []string
	}{
		{"garbage", "cat >/dev/null; echo 'I think it is probably npx something'\n", 0,
			[]string{`resolver plugin "garbage"`, "not JSON", "one JSON object"}},
		{"empty", "cat >/dev/null\n", 0, []string{"answered nothing"}},
		{"shapeless", "cat >/dev/null; echo '{\"hello\": 1}'\n", 0, []string{`neither "server" nor "error"`}},
		{"badtype", "cat >/dev/null; echo '{\"server\": {\"type\": \"carrier-pigeon\", \"url\": \"https://x/mcp\"}}'\n", 0,
			[]string{`transport type "carrier-pigeon"`}},
		{"crash", "cat >/dev/null; echo 'boom: no API key' >&2; exit 7\n", 0,
			[]string{"exited with status 7", "boom: no API key"}},
		// The plugin starts a child that would outlive it: the deadline
		// kills the whole process group.
		{"slow", "sleep 30 &\nwait\n", 300 * time.Millisecond,
			[]string{"no answer within 300ms", "stopped", "timeout"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := script(t, tt.name, tt.body)
			e := pluginEnv(t, resolve.Plugin{Name: tt.name, Command: []string{p}, Timeout: tt.timeout})
			start := time.Now()
			res, err := e.resolve(t, "acme/mystery")
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %s: the plugin was not stopped", took)
			}
			var pe *resolve.PluginError
			if !errors.As(err, &pe) {
				t.Fatalf("got %v, %v; want a PluginError", res, err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if len(pe.Evidence) == 0 {
				t.Error("the error carries no evidence of the built-in steps")
			}
		})
	}
}

func TestPluginNotFoundAnswerAndFallThrough(t *testing.T) {
	nothing := script(t, "nothing", `cat >/dev/null; echo '{"error": "no MCP server in this repository", "evidence": "read README.md"}'`+"\n")
	good := script(t, "second", `cat >/dev/null; echo '{"server": {"type": "http", "url": "https://mcp.acme.dev/mcp"}}'`+"\n")
	e := pluginEnv(t, resolve.Plugin{Name: "nothing", Command: []string{nothing}})
	_, err := e.resolve(t, "acme/mystery")
	var nf *resolve.NotFoundError
	if !errors.As(err, &nf) || !hasEvidence(nf.Evidence, resolve.StepPlugin, "no MCP server in this repository") {
		t.Fatalf("err = %v, want NotFound with the plugin's reason", err)
	}
	// A second plugin is asked when the first finds nothing.
	e.opts.Plugins = append(e.opts.Plugins, resolve.Plugin{Name: "second", Command: []string{good}})
	res := e.must(t, "acme/mystery")
	if res.Server.URL != "https://mcp.acme.dev/mcp" {
		t.Errorf("got %+v", res.Server)
	}
}

func TestPluginMissingCommand(t *testing.T) {
	e := pluginEnv(t, resolve.Plugin{Name: "ghost", Command: []string{"/nonexistent/mcpsync-plugin"}})
	_, err := e.resolve(t, "acme/mystery")
	if err == nil || !strings.Contains(err.Error(), `resolver plugin "ghost"`) {
		t.Errorf("err = %v", err)
	}
	e.opts.Plugins = []resolve.Plugin{{Name: "blank"}}
	if _, err := e.resolve(t, "acme/mystery"); err == nil || !strings.Contains(err.Error(), "command is empty") {
		t.Errorf("err = %v", err)
	}
}

// TestClaudeExample runs examples/resolver-claude.sh with a stand-in for
// claude on PATH: the script must hand over the request and its prompt,
// and its output must be read as an answer.
func TestClaudeExample(t *testing.T) {
	example, err := filepath.Abs("../examples/resolver-claude.sh")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(example); err != nil {
		t.Skipf("example not found: %v", err)
	}
	fakeClaude := script(t, "claude", `for a in "$@"; do last=$a; done
case "$*" in *"-p --output-format text"*"--tools WebFetch"*) ;; *) echo "unexpected flags: $*" >&2; exit 2;; esac
case "$last" in *"resolver plugin for mcpsync"*'"input":"acme/mystery"'*) ;; *) echo "prompt lacks the request" >&2; exit 3;; esac
printf 'I read the README.\n'
printf '%s\n' '{"server": {"command": "uvx", "args": ["acme-mystery"]}, "evidence": ["README"]}'
`)
	t.Setenv("PATH", filepath.Dir(fakeClaude)+string(os.PathListSeparator)+os.Getenv("PATH"))
	e := pluginEnv(t, resolve.Plugin{Name: "claude", Command: []string{example}, Timeout: 10 * time.Second})
	wantCommand(t, e.must(t, "acme/mystery"), "uvx", "acme-mystery")
}
