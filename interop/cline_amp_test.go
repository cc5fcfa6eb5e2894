package interop_test

// The same proof as TestRealClientsAcceptExport for Cline CLI and Amp,
// which have no `mcp get`: each is made to start every server mcpsync
// wrote, and what reached the servers is checked.
//
//   - Cline CLI has no command that lists or checks its servers (only
//     `cline mcp add` and `remove`). A one-shot session does load them: it
//     validates the whole file (a rejected file is logged as "[mcp] Failed
//     to load MCP settings … Invalid MCP settings at …" and no server
//     starts), then starts every enabled server and logs each one. The
//     session's model provider is an OpenAI-compatible endpoint on the
//     test's loopback recorder that answers 401, so the session ends at
//     once, offline and without an account.
//   - Amp lists its servers with `amp mcp list` (no validation beyond
//     JSONC; a syntax error exits 1 "Invalid JSON in settings file").
//     `amp mcp doctor` and `amp mcp approve` start a login flow when no key
//     is set; with a made-up AMP_API_KEY and the account server unreachable
//     (every proxy variable points at a closed loopback port) they run
//     offline: approve records the workspace servers as trusted in the user
//     settings file, doctor connects to every server.
//
// Stdio servers are `sh -c` scripts that write their working directory,
// arguments and environment to a file; remote ones point at the recorder,
// which keeps each request's method, path and headers and answers 404. So
// the test sees what each client made of every field mcpsync wrote.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// The versions clients.md was verified with. The Amp native package is
// pinned beside @ampcode/cli because the newest @ampcode/cli had no
// matching native package published (client-samples/COMMANDS.md).
const (
	clineVersion = "3.0.65"
	ampVersion   = "0.0.1790142911-g7618fb"
)

// expandsReferences is what each client does with ${VAR} in env and header
// values, as the servers here see it: Cline CLI passes it on literally;
// Amp puts in the value of VAR when VAR is set (only that spelling: $VAR,
// ${VAR:-default} and ${env:VAR} stay literal, and so does ${VAR} when VAR
// is unset).
var expandsReferences = map[string]bool{"cline-cli": false, "amp": true}

// referenceReaching is what a server of client gets for ref, a ${VAR}
// whose variable holds value.
func referenceReaching(client, ref, value string) string {
	if expandsReferences[client] {
		return value
	}
	return ref
}

func TestClineAndAmpAcceptExport(t *testing.T) {
	if reason := interopOff(); reason != "" {
		t.Skip(reason)
	}
	if runtime.GOOS == "windows" {
		t.Skip("SKIP: the interop recipes are written for a POSIX shell environment")
	}
	// Amp ships one native package per platform; the pinned version is
	// verified on linux-x64 only.
	ampSkip := ""
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		ampSkip = fmt.Sprintf("SKIP: the pinned Amp build is @ampcode/cli-linux-x64@%s; there is none verified for %s/%s", ampVersion, runtime.GOOS, runtime.GOARCH)
	}
	packages, bins := map[string]string{"cline": clineVersion}, []string{"cline"}
	if ampSkip == "" {
		packages["@ampcode/cli"] = ampVersion
		packages["@ampcode/cli-linux-x64"] = ampVersion
		bins = append(bins, "amp")
	}
	start := time.Now()
	bin := installNpm(t, "npm-cline-amp", packages, bins)
	t.Logf("clients ready in %v (%s)", time.Since(start).Round(time.Millisecond), filepath.Dir(filepath.Dir(bin)))
	mcpsync := buildMcpsync(t)

	rec := newRecorder(t)
	root := t.TempDir()
	home := filepath.Join(root, "home")
	proj := filepath.Join(root, "proj")
	srvDir := filepath.Join(root, "srv") // stdio-env's cwd
	outDir := filepath.Join(root, "out") // what the stdio servers saw
	for _, d := range []string{filepath.Join(home, ".config", "mcpsync"), filepath.Join(proj, ".git"), srvDir, outDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Each stdio server is `sh -c SCRIPT [ARG...]`; the script records
	// where and how it was started in outDir/NAME.
	argv := map[string][]string{}
	stdioArgs := func(name string, extra ...string) string {
		script := fmt.Sprintf(`{ pwd; printf 'arg=%%s\n' "$0" "$@"; env; } > '%s'`, filepath.Join(outDir, name))
		argv[name] = append([]string{"-c", script}, extra...)
		return hclList(argv[name])
	}
	userStore := fmt.Sprintf(`# interop store for Cline CLI and Amp
server "stdio-basic" {
  command      = "sh"
  args         = %s
  tool_timeout = "90s"
}

server "stdio-env" {
  command = "sh"
  args    = %s
  env     = { API_KEY = env("INTEROP_API_KEY"), LITERAL = "plain" }
  cwd     = %s
}

server "http-srv" {
  url     = %s
  headers = { Authorization = "Bearer ${env("INTEROP_TOKEN")}", "X-Interop" = "static" }
}

server "sse-srv" {
  url       = %s
  transport = "sse"
}

server "oauth-srv" {
  url = %s
  oauth {
    client_id = "interop-client"
  }
}

# Cline holds a switched-off server; Amp cannot, so mcpsync skips it there.
server "off-srv" {
  command  = "sh"
  args     = %s
  disabled = true
}
`, stdioArgs("stdio-basic", "first", "two words"), stdioArgs("stdio-env"), hclQuote(srvDir),
		hclQuote(rec.url+"/mcp"), hclQuote(rec.url+"/sse"), hclQuote(rec.url+"/oauth/mcp"), stdioArgs("off-srv"))
	projectStore := fmt.Sprintf(`server "proj-stdio" {
  command = "sh"
  args    = %s
}

server "proj-http" {
  url = %s
}
`, stdioArgs("proj-stdio"), hclQuote(rec.url+"/proj/mcp"))
	for path, text := range map[string]string{
		filepath.Join(home, ".config", "mcpsync", "mcpsync.hcl"): userStore,
		filepath.Join(proj, "mcpsync.hcl"):                       projectStore,
		filepath.Join(proj, ".git", "HEAD"):                      "ref: refs/heads/main\n",
	} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}

	// Offline: every proxy variable points at a closed port, so nothing
	// but the loopback recorder can be reached.
	deadProxy := "http://127.0.0.1:9"
	env := append(sandboxEnv(home, bin),
		"HTTPS_PROXY="+deadProxy, "https_proxy="+deadProxy, "HTTP_PROXY="+deadProxy, "http_proxy="+deadProxy,
		"ALL_PROXY="+deadProxy, "NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		// The session runs in the cline process: no background hub daemon.
		"CLINE_SESSION_BACKEND_MODE=local",
		// Any key keeps amp from starting its login flow; it is never
		// checked, since the account server cannot be reached.
		"AMP_API_KEY=interop-not-a-key",
	)
	t.Cleanup(func() { killClineHubs(t, root) })

	clients := []string{"cline-cli"}
	if ampSkip == "" {
		clients = append(clients, "amp")
	}
	userFiles := map[string]string{
		"cline-cli": filepath.Join(home, ".cline", "data", "settings", "cline_mcp_settings.json"),
		"amp":       filepath.Join(home, ".config", "amp", "settings.json"),
	}

	// Export: the user scope to both, the project scope to Amp (Cline CLI
	// has no project file).
	out, stderr, code := run(t, proj, env, mcpsync, "--json", "export", "--to", strings.Join(clients, ","), "--scope", "user")
	if code != 0 {
		t.Fatalf("mcpsync export --scope user failed (exit %d):\n%s\n%s", code, stderr, out)
	}
	written := writtenServers(t, out)
	diags := exportDiagnostics(t, out)
	t.Logf("mcpsync export --scope user wrote: %v\nwarnings:\n%s", written, stderr)
	if ampSkip == "" {
		out, stderr, code = run(t, proj, env, mcpsync, "--json", "export", "--to", "amp", "--scope", "project")
		if code != 0 {
			t.Fatalf("mcpsync export --to amp --scope project failed (exit %d):\n%s\n%s", code, stderr, out)
		}
		proj := writtenServers(t, out)
		t.Logf("mcpsync export --to amp --scope project wrote: %v\nwarnings:\n%s", proj, stderr)
		if !slices.Equal(sorted(proj["amp"]), []string{"proj-http", "proj-stdio"}) {
			t.Errorf("the project export gave Amp %v, want proj-http and proj-stdio", proj["amp"])
		}
		written["amp-project"] = proj["amp"]
	}
	exported := map[string]string{}
	for client, f := range userFiles {
		exported[client] = readFile(f)
	}
	userNames := []string{"stdio-basic", "stdio-env", "http-srv", "sse-srv", "oauth-srv", "off-srv"}
	for _, client := range clients {
		for _, name := range userNames {
			if !slices.Contains(written[client], name) && !diags.has(client, name, "") {
				t.Errorf("%s did not get %s, and no warning says why", client, name)
			}
		}
		// mcpsync warns that a reference reaches the server literally
		// exactly when the client does not expand it (the servers below
		// check what the client does).
		warned := diags.has(client, "stdio-env", "env.API_KEY") || diags.has(client, "http-srv", "headers.Authorization")
		switch {
		case expandsReferences[client] && warned:
			t.Errorf("mcpsync warns that %s expands no references, but it expands ${INTEROP_API_KEY} and ${INTEROP_TOKEN} "+
				"(its servers get interop-key and Bearer interop-token); the export must not warn:\n%s", client, diags)
		case !expandsReferences[client] && !warned:
			t.Errorf("%s expands no references, and mcpsync does not warn that ${INTEROP_API_KEY} and ${INTEROP_TOKEN} reach the servers literally:\n%s", client, diags)
		}
	}
	if !slices.Contains(written["cline-cli"], "off-srv") {
		t.Errorf("Cline CLI can hold a disabled server, but mcpsync did not write off-srv: %v", written["cline-cli"])
	}
	if ampSkip == "" {
		if slices.Contains(written["amp"], "off-srv") || !diags.has("amp", "off-srv", "") {
			t.Errorf("Amp cannot hold a disabled server: mcpsync must skip off-srv with a warning (wrote %v)\n%s", written["amp"], diags)
		}
		for _, w := range []struct{ server, field string }{{"stdio-env", "cwd"}, {"sse-srv", "transport"}, {"oauth-srv", "oauth"}} {
			if !diags.has("amp", w.server, w.field) {
				t.Errorf("Amp has no %s, and no warning for %s says so:\n%s", w.field, w.server, diags)
			}
		}
	}

	t.Run("cline-cli", func(t *testing.T) {
		rec.reset()
		clearDir(t, outDir)
		cline := filepath.Join(bin, "cline")
		file := userFiles["cline-cli"]
		// The model provider: the recorder, which answers 401.
		got, errOut, code := run(t, proj, env, cline, "auth", "-p", "openai-compatible", "-k", "interop-not-a-key",
			"-b", rec.url+"/v1", "-m", "interop-model")
		if code != 0 {
			t.Fatalf("cline auth: exit %d\n%s%s", code, got, errOut)
		}
		// Cline's own read-modify-write of the file.
		got, errOut, code = run(t, proj, env, cline, "mcp", "add", "interop-probe", "--yes", "--", "true")
		if code != 0 || !strings.Contains(got, "Installed MCP server interop-probe.") {
			t.Fatalf("cline mcp add interop-probe: exit %d\n%s%s\nfile:\n%s", code, got, errOut, readFile(file))
		}

		logPath := filepath.Join(home, ".cline", "data", "logs", "cline.log")
		_ = os.Remove(logPath)
		start := time.Now()
		got, errOut, code = run(t, proj, env, cline, "--json", "Reply with OK.")
		t.Logf("cline session: exit %d in %v (the provider answers 401)", code, time.Since(start).Round(time.Millisecond))
		if !strings.Contains(got+errOut, "interop: no model here") {
			t.Errorf("the cline session did not reach the recorder's model endpoint:\n%s%s", got, errOut)
		}
		var mcpLines []string
		for _, l := range strings.Split(readFile(logPath), "\n") {
			var entry struct {
				Msg string `json:"msg"`
			}
			if json.Unmarshal([]byte(l), &entry) == nil && strings.HasPrefix(entry.Msg, "[mcp]") {
				mcpLines = append(mcpLines, entry.Msg)
			}
		}
		mcpLog := strings.Join(mcpLines, "\n")
		if strings.Contains(mcpLog, "Failed to load MCP settings") || strings.Contains(mcpLog+errOut, "Invalid MCP settings") {
			t.Fatalf("Cline rejects the file mcpsync wrote:\n%s\nfile:\n%s", mcpLog, readFile(file))
		}
		for _, name := range append(slices.Clone(written["cline-cli"]), "interop-probe") {
			started := strings.Contains(mcpLog, `MCP server "`+name+`"`)
			switch {
			case name == "off-srv" && started:
				t.Errorf("Cline started off-srv, which mcpsync wrote as disabled:\n%s", mcpLog)
			case name != "off-srv" && !started:
				t.Errorf("Cline did not start %s (no [mcp] line names it):\n%s\nfile:\n%s", name, mcpLog, readFile(file))
			}
		}
		t.Logf("cline's [mcp] log:\n%s", mcpLog)

		checkStdio(t, "Cline", outDir, "stdio-basic", "", []string{"first", "two words"}, nil)
		reqs := rec.requests()
		if expandsReferences["cline-cli"] {
			checkStdio(t, "Cline", outDir, "stdio-env", srvDir, nil, map[string]string{"API_KEY": "interop-key", "LITERAL": "plain"})
			checkStreamableHTTP(t, "Cline", reqs, "/mcp", map[string]string{"Authorization": "Bearer interop-token", "X-Interop": "static"})
		} else {
			// Cline passes ${INTEROP_API_KEY} on as text (an earlier run of
			// this test saw it reach the server so): mcpsync does not write
			// a server that would get a reference that way.
			for _, name := range []string{"stdio-env", "http-srv"} {
				if slices.Contains(written["cline-cli"], name) {
					t.Errorf("mcpsync wrote %s for Cline, which expands no references: the server would get the reference's text", name)
				}
			}
		}
		if _, err := os.Stat(filepath.Join(outDir, "off-srv")); err == nil {
			t.Errorf("Cline ran off-srv, which mcpsync wrote as disabled")
		}
		checkStreamableHTTP(t, "Cline", reqs, "/oauth/mcp", nil)
		checkSSE(t, "Cline", reqs, "/sse", true)

		got, errOut, code = run(t, proj, env, cline, "mcp", "remove", "interop-probe")
		if code != 0 {
			t.Errorf("cline mcp remove interop-probe: exit %d\n%s%s", code, got, errOut)
		}
		logRewrite(t, "Cline", file, exported["cline-cli"])
	})

	t.Run("amp", func(t *testing.T) {
		if ampSkip != "" {
			t.Skip(ampSkip)
		}
		rec.reset()
		clearDir(t, outDir)
		amp := filepath.Join(bin, "amp")
		projFile := filepath.Join(proj, ".amp", "settings.json")
		files := func() string {
			return fmt.Sprintf("user file:\n%s\nproject file:\n%s", readFile(userFiles["amp"]), readFile(projFile))
		}

		got, errOut, code := run(t, proj, env, amp, "mcp", "list")
		if code != 0 || strings.Contains(got+errOut, "Invalid") {
			t.Fatalf("amp mcp list: exit %d, Amp rejects a file mcpsync wrote\n%s%s\n%s", code, got, errOut, files())
		}
		listed := parseAmpList(got)
		want := map[string]ampWant{
			"stdio-basic": {section: "Global", kind: "command"},
			"stdio-env":   {section: "Global", kind: "command"},
			"http-srv":    {section: "Global", kind: "url", target: rec.url + "/mcp"},
			"sse-srv":     {section: "Global", kind: "url", target: rec.url + "/sse"},
			"oauth-srv":   {section: "Global", kind: "url", target: rec.url + "/oauth/mcp"},
			"proj-stdio":  {section: "Workspace", kind: "command"},
			"proj-http":   {section: "Workspace", kind: "url", target: rec.url + "/proj/mcp"},
		}
		for name, w := range want {
			if w.kind == "command" {
				w.target = "sh " + strings.Join(argv[name], " ")
			}
			l, ok := listed[name]
			switch {
			case !ok:
				t.Errorf("amp mcp list does not show %s:\n%s", name, got)
			case l != w:
				t.Errorf("amp mcp list shows %s as %+v, want %+v", name, l, w)
			}
		}
		if _, ok := listed["off-srv"]; ok {
			t.Errorf("amp mcp list shows off-srv, which mcpsync must not write for Amp (it would turn it on)")
		}

		// Workspace servers run once approved; amp records that in the
		// user settings file (a rewrite of mcpsync's file).
		for _, name := range written["amp-project"] {
			got, errOut, code := run(t, proj, env, amp, "mcp", "approve", name)
			if code != 0 || !strings.Contains(got, `Approved MCP server "`+name+`"`) {
				t.Errorf("amp mcp approve %s: exit %d\n%s%s", name, code, got, errOut)
			}
		}

		start := time.Now()
		got, errOut, code = run(t, proj, env, amp, "mcp", "doctor")
		t.Logf("amp mcp doctor: exit %d in %v", code, time.Since(start).Round(time.Millisecond))
		if code != 0 || strings.Contains(got+errOut, "Invalid") || strings.Contains(got+errOut, "login") {
			t.Fatalf("amp mcp doctor: exit %d\n%s%s\n%s", code, got, errOut, files())
		}
		status := map[string]string{}
		for _, m := range regexp.MustCompile(`(?m)^(\S+) \(((?:user settings|workspace)[^)]*)\): (.*)$`).FindAllStringSubmatch(got, -1) {
			status[m[1]] = m[2] + ": " + m[3]
		}
		for name := range want {
			switch s, ok := status[name]; {
			case !ok:
				t.Errorf("amp mcp doctor does not check %s:\n%s", name, got)
			case strings.Contains(s, "awaiting approval"):
				t.Errorf("amp mcp doctor: %s is still %q after amp mcp approve", name, s)
			}
		}

		checkStdio(t, "Amp", outDir, "stdio-basic", "", []string{"first", "two words"}, nil)
		// Amp has no cwd (mcpsync warned): the server runs in Amp's own.
		checkStdio(t, "Amp", outDir, "stdio-env", proj, nil, map[string]string{
			"API_KEY": referenceReaching("amp", "${INTEROP_API_KEY}", "interop-key"), "LITERAL": "plain"})
		checkStdio(t, "Amp", outDir, "proj-stdio", "", nil, nil)
		reqs := rec.requests()
		checkStreamableHTTP(t, "Amp", reqs, "/mcp", map[string]string{
			"Authorization": "Bearer " + referenceReaching("amp", "${INTEROP_TOKEN}", "interop-token"), "X-Interop": "static"})
		checkStreamableHTTP(t, "Amp", reqs, "/oauth/mcp", nil)
		checkStreamableHTTP(t, "Amp", reqs, "/proj/mcp", nil)
		// sse-srv is a bare url for Amp, which tries streamable HTTP first
		// and falls back to SSE.
		checkSSE(t, "Amp", reqs, "/sse", false)
		logRewrite(t, "Amp", userFiles["amp"], exported["amp"])
	})

	// The clients ran and rewrote their files (Cline: mcp add/remove and
	// the session's oauth.lastError; Amp: amp.mcpTrustedServers); mcpsync's
	// entries must still be in step.
	diff, errOut, code := run(t, proj, env, mcpsync, "diff", "--to", strings.Join(clients, ","), "--scope", "user", "--exit-code")
	if code != 0 {
		t.Errorf("after the clients ran, mcpsync diff --scope user --exit-code exits %d:\n%s%s", code, diff, errOut)
	}
	if ampSkip == "" {
		diff, errOut, code = run(t, proj, env, mcpsync, "diff", "--to", "amp", "--scope", "project", "--exit-code")
		if code != 0 {
			t.Errorf("after Amp ran, mcpsync diff --to amp --scope project --exit-code exits %d:\n%s%s", code, diff, errOut)
		}
	}
}

// logRewrite says whether client rewrote the file mcpsync exported as
// before, which is what makes the diff --exit-code check below mean
// something.
func logRewrite(t *testing.T, client, file, before string) {
	t.Helper()
	if after := readFile(file); after != before {
		t.Logf("%s rewrote %s; now:\n%s", client, file, after)
	} else {
		t.Logf("%s left %s as mcpsync wrote it", client, file)
	}
}

type ampWant struct{ section, kind, target string }

// parseAmpList reads `amp mcp list`: a "Workspace …" and a "Global …"
// header, each followed by "  NAME  command|url  COMMAND LINE|URL" lines.
func parseAmpList(out string) map[string]ampWant {
	got := map[string]ampWant{}
	section := ""
	line := regexp.MustCompile(`^\s+(\S+)\s+(command|url)\s+(.*)$`)
	for _, l := range strings.Split(out, "\n") {
		if l != "" && l[0] != ' ' {
			section, _, _ = strings.Cut(l, " ")
			continue
		}
		if m := line.FindStringSubmatch(l); m != nil {
			got[m[1]] = ampWant{section: section, kind: m[2], target: strings.TrimRight(m[3], " ")}
		}
	}
	return got
}

// checkStdio reads what the stdio server name recorded when the client
// started it: its working directory (when wantCwd is set), its arguments
// after the script (when wantArgs is set) and the variables in wantEnv.
func checkStdio(t *testing.T, client, outDir, name, wantCwd string, wantArgs []string, wantEnv map[string]string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(outDir, name))
	if err != nil {
		t.Errorf("%s did not run the stdio server %s as mcpsync wrote it: %v", client, name, err)
		return
	}
	lines := strings.Split(string(data), "\n")
	if wantCwd != "" && lines[0] != wantCwd {
		t.Errorf("%s ran %s in %s, want %s", client, name, lines[0], wantCwd)
	}
	var args []string
	env := map[string]string{}
	for _, l := range lines[1:] {
		if a, ok := strings.CutPrefix(l, "arg="); ok {
			args = append(args, a)
		} else if k, v, ok := strings.Cut(l, "="); ok {
			env[k] = v
		}
	}
	// $0 is the first argument after the script.
	if wantArgs != nil && !slices.Equal(args, wantArgs) {
		t.Errorf("%s ran %s with arguments %q, want %q", client, name, args, wantArgs)
	}
	for k, v := range wantEnv {
		if got, ok := env[k]; !ok {
			t.Errorf("%s ran %s without %s in its environment", client, name, k)
		} else if got != v {
			t.Errorf("%s ran %s with %s=%q, want %q", client, name, k, got, v)
		}
	}
}

// checkStreamableHTTP wants an MCP initialize POSTed to path with headers.
func checkStreamableHTTP(t *testing.T, client string, reqs []recorded, path string, headers map[string]string) {
	t.Helper()
	for _, r := range reqs {
		if r.method != http.MethodPost || r.path != path || !strings.Contains(r.body, `"initialize"`) {
			continue
		}
		for k, v := range headers {
			if got := r.header.Get(k); got != v {
				t.Errorf("%s sent %s: %s to %s, want %q", client, k, got, path, v)
			}
		}
		return
	}
	t.Errorf("%s never POSTed an MCP initialize to %s (streamable HTTP); requests:\n%s", client, path, formatRequests(reqs))
}

// checkSSE wants an SSE stream opened at path; only, when the client has
// the transport spelled out and so must not try streamable HTTP first.
func checkSSE(t *testing.T, client string, reqs []recorded, path string, only bool) {
	t.Helper()
	opened := false
	for _, r := range reqs {
		if r.path != path {
			continue
		}
		if r.method == http.MethodGet && strings.Contains(r.header.Get("Accept"), "text/event-stream") {
			opened = true
		} else if only {
			t.Errorf("%s sent %s %s to an SSE server; it should only open the event stream", client, r.method, path)
		}
	}
	if !opened {
		t.Errorf("%s never opened an SSE stream at %s; requests:\n%s", client, path, formatRequests(reqs))
	}
}

// recorder is the loopback HTTP server every remote URL points at. It
// keeps each request and answers 404 (no MCP server here), except under
// /v1/, Cline's model provider, where it answers 401 so that the session
// ends at once.
type recorder struct {
	url  string
	mu   sync.Mutex
	seen []recorded
}

type recorded struct {
	method, path, body string
	header             http.Header
}

func newRecorder(t *testing.T) *recorder {
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<10))
		rec.mu.Lock()
		rec.seen = append(rec.seen, recorded{method: r.Method, path: r.URL.Path, body: string(body), header: r.Header.Clone()})
		rec.mu.Unlock()
		if strings.HasPrefix(r.URL.Path, "/v1/") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprint(w, `{"error":{"message":"interop: no model here","type":"invalid_request_error","code":"invalid_api_key"}}`)
			return
		}
		http.Error(w, "not an MCP server", http.StatusNotFound)
	}))
	t.Cleanup(srv.Close)
	rec.url = srv.URL
	return rec
}

func (r *recorder) reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = nil
}

func (r *recorder) requests() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.seen)
}

func formatRequests(reqs []recorded) string {
	var b strings.Builder
	for _, r := range reqs {
		fmt.Fprintf(&b, "  %s %s Accept=%q Authorization=%q\n", r.method, r.path, r.header.Get("Accept"), r.header.Get("Authorization"))
	}
	return b.String()
}

// exportDiags are the warnings of an mcpsync --json export, per file.
type exportDiags []struct {
	client, server, field, summary string
}

func exportDiagnostics(t *testing.T, out string) exportDiags {
	var plan struct {
		Files []struct {
			Targets []struct {
				Client string `json:"client"`
			} `json:"targets"`
			Diagnostics []struct {
				Summary string `json:"summary"`
				Server  string `json:"server"`
				Field   string `json:"field"`
			} `json:"diagnostics"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatalf("mcpsync --json export: %v\n%s", err, out)
	}
	var d exportDiags
	for _, f := range plan.Files {
		for _, tg := range f.Targets {
			for _, g := range f.Diagnostics {
				d = append(d, struct{ client, server, field, summary string }{tg.Client, g.Server, g.Field, g.Summary})
			}
		}
	}
	return d
}

// has reports a warning for client about server (and field, when given).
func (d exportDiags) has(client, server, field string) bool {
	return slices.ContainsFunc(d, func(g struct{ client, server, field, summary string }) bool {
		return g.client == client && g.server == server && (field == "" || g.field == field)
	})
}

func (d exportDiags) String() string {
	var b strings.Builder
	for _, g := range d {
		fmt.Fprintf(&b, "  %s: server %q %s: %s\n", g.client, g.server, g.field, g.summary)
	}
	return b.String()
}

// killClineHubs ends any Cline hub daemon started for this test's
// directories (none should be: the sessions run with
// CLINE_SESSION_BACKEND_MODE=local), by process id.
func killClineHubs(t *testing.T, root string) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmdline, []byte("--cline-hub-daemon")) || !bytes.Contains(cmdline, []byte(root)) {
			continue
		}
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
		t.Errorf("a Cline hub daemon (pid %d) outlived the test; killed it: %s", pid, bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}))
	}
}

func clearDir(t *testing.T, dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
}

// hclQuote spells s as an HCL string literal that means s itself.
func hclQuote(s string) string {
	q := strconv.Quote(s)
	q = strings.ReplaceAll(q, "${", "$${")
	return strings.ReplaceAll(q, "%{", "%%{")
}

func hclList(items []string) string {
	quoted := make([]string, len(items))
	for i, s := range items {
		quoted[i] = hclQuote(s)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
