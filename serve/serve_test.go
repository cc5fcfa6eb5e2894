package serve_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/xdg"
	"github.com/mcpsync/mcpsync/serve"
)

// sandbox is a temporary home; engine makes a new engine in it, as serve
// does for each call.
type sandbox struct {
	t    testing.TB
	home string
}

func newSandbox(t testing.TB) *sandbox {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".cursor"), 0o755) // Cursor is installed
	return &sandbox{t: t, home: home}
}

func (s *sandbox) path(rel string) string { return filepath.Join(s.home, rel) }

func (s *sandbox) write(rel, data string) {
	s.t.Helper()
	p := s.path(rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
		s.t.Fatal(err)
	}
}

func (s *sandbox) read(rel string) string {
	data, err := os.ReadFile(s.path(rel))
	if err != nil {
		return ""
	}
	return string(data)
}

func (s *sandbox) engine() *engine.Engine {
	env := map[string]string{
		"HOME": s.home, "XDG_CONFIG_HOME": filepath.Join(s.home, ".config"),
		"XDG_STATE_HOME": filepath.Join(s.home, ".local", "state"), "XDG_CACHE_HOME": filepath.Join(s.home, ".cache"),
	}
	getenv := func(k string) string { return env[k] }
	return engine.New(engine.Env{Dirs: xdg.Resolve(getenv), Cwd: s.home, GOOS: runtime.GOOS, Getenv: getenv,
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
}

// client is an mcp-go client connected in process to a new server.
func (s *sandbox) client() *client.Client {
	s.t.Helper()
	c, err := client.NewInProcessClient(serve.New(serve.Options{Engine: s.engine, Version: "test"}))
	if err != nil {
		s.t.Fatal(err)
	}
	s.initialize(c)
	return c
}

func (s *sandbox) initialize(c *client.Client) {
	s.t.Helper()
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		s.t.Fatal(err)
	}
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	req.Params.ClientInfo = mcp.Implementation{Name: "serve-test", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		s.t.Fatal(err)
	}
	s.t.Cleanup(func() { c.Close() })
}

// call calls a tool and returns its structured result, and its text.
func call(t testing.TB, c *client.Client, tool string, args map[string]any) (map[string]any, string) {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(context.Background(), req)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var text string
	for _, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if res.IsError {
		return nil, text
	}
	m, _ := res.StructuredContent.(map[string]any)
	if m == nil {
		t.Fatalf("%s: no structured content: %s", tool, text)
	}
	return m, text
}

const fetchConfig = `{"mcpServers":{"fetch":{"command":"uvx","args":["mcp-server-fetch"]}}}`

// An agent's session: add a pasted server (plan, then confirm), diff,
// export with the diff's plan id; the file is what export writes.
func TestAddDiffExportTwoSteps(t *testing.T) {
	s := newSandbox(t)
	c := s.client()

	plan, _ := call(t, c, "add_server", map[string]any{"config": fetchConfig})
	if plan["done"] != false || plan["plan_id"] == "" {
		t.Fatalf("add_server without plan_id: %v", plan)
	}
	if s.read(".config/mcpsync/mcpsync.hcl") != "" {
		t.Fatal("add_server without plan_id wrote the store")
	}
	diff := plan["plan"].(map[string]any)["diff"].(string)
	if !strings.Contains(diff, `+server "fetch" {`) {
		t.Errorf("the plan's diff does not show the new server:\n%s", diff)
	}
	done, _ := call(t, c, "add_server", map[string]any{"config": fetchConfig, "plan_id": plan["plan_id"]})
	if done["done"] != true {
		t.Fatalf("add_server with its plan_id: %v", done)
	}
	if got := s.read(".config/mcpsync/mcpsync.hcl"); !strings.Contains(got, `server "fetch"`) {
		t.Fatalf("store after add_server:\n%s", got)
	}

	d, _ := call(t, c, "diff", map[string]any{"clients": []string{"cursor"}})
	id := d["plan_id"].(string)
	if s.read(".cursor/mcp.json") != "" {
		t.Fatal("diff wrote Cursor's file")
	}
	ex, _ := call(t, c, "export", map[string]any{"clients": []string{"cursor"}, "plan_id": id})
	if ex["done"] != true {
		t.Fatalf("export with the diff's plan_id: %v", ex)
	}
	got := s.read(".cursor/mcp.json")

	// The same export by the engine, in another home, writes the same bytes.
	other := newSandbox(t)
	other.write(".config/mcpsync/mcpsync.hcl", s.read(".config/mcpsync/mcpsync.hcl"))
	run, err := other.engine().Export(engine.ExportOptions{To: []string{"cursor"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run.Apply(); err != nil {
		t.Fatal(err)
	}
	run.Close()
	if want := other.read(".cursor/mcp.json"); got != want || got == "" {
		t.Errorf("serve's export wrote\n%s\nexport writes\n%s", got, want)
	}
}

// A plan id made before the store changed writes nothing: the new diff
// comes back with a new id.
func TestStalePlanIDWritesNothing(t *testing.T) {
	s := newSandbox(t)
	s.write(".config/mcpsync/mcpsync.hcl", "server \"fetch\" {\n  command = \"uvx\"\n  args    = [\"mcp-server-fetch\"]\n}\n")
	c := s.client()
	d, _ := call(t, c, "diff", map[string]any{"clients": []string{"cursor"}})
	old := d["plan_id"].(string)

	s.write(".config/mcpsync/mcpsync.hcl", "server \"fetch\" {\n  command = \"uvx\"\n  args    = [\"mcp-server-fetch\", \"--v2\"]\n}\n")
	ex, _ := call(t, c, "export", map[string]any{"clients": []string{"cursor"}, "plan_id": old})
	if ex["done"] != false || ex["stale"] != true || ex["plan_id"] == old {
		t.Fatalf("export with a stale plan_id: %v", ex)
	}
	if s.read(".cursor/mcp.json") != "" {
		t.Fatal("export with a stale plan_id wrote Cursor's file")
	}
	if diff := fmt.Sprint(ex["plan"]); !strings.Contains(diff, "--v2") {
		t.Errorf("the new plan does not show the change: %s", diff)
	}
	ex, _ = call(t, c, "export", map[string]any{"clients": []string{"cursor"}, "plan_id": ex["plan_id"]})
	if ex["done"] != true || !strings.Contains(s.read(".cursor/mcp.json"), "--v2") {
		t.Fatalf("export with the new plan_id: %v", ex)
	}
}

// A plan id made before a client's file was edited by hand writes
// nothing, though the store is as it was: what the plan writes over has
// changed, and the export comes back with a new id.
func TestPlanIDStaleAfterFileEdit(t *testing.T) {
	s := newSandbox(t)
	s.write(".config/mcpsync/mcpsync.hcl", "server \"fetch\" {\n  command = \"uvx\"\n  args    = [\"mcp-server-fetch\"]\n}\n")
	s.write(".cursor/mcp.json", "{\"mcpServers\": {}}\n")
	c := s.client()
	d, _ := call(t, c, "diff", map[string]any{"clients": []string{"cursor"}})
	old := d["plan_id"].(string)

	edited := "{\"mcpServers\": {\"mine\": {\"command\": \"my-server\"}}}\n"
	s.write(".cursor/mcp.json", edited)
	ex, _ := call(t, c, "export", map[string]any{"clients": []string{"cursor"}, "plan_id": old})
	if ex["done"] != false || ex["stale"] != true || ex["plan_id"] == old {
		t.Fatalf("export with a plan_id made before the file was edited: %v", ex)
	}
	if got := s.read(".cursor/mcp.json"); got != edited {
		t.Fatalf("export with a stale plan_id wrote Cursor's file:\n%s", got)
	}
	ex, _ = call(t, c, "export", map[string]any{"clients": []string{"cursor"}, "plan_id": ex["plan_id"]})
	got := s.read(".cursor/mcp.json")
	if ex["done"] != true || !strings.Contains(got, "my-server") || !strings.Contains(got, "mcp-server-fetch") {
		t.Fatalf("export with the new plan_id: %v\n%s", ex, got)
	}
}

// No tool result and no resource holds a literal secret of the store.
func TestResultsMaskSecrets(t *testing.T) {
	const token = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	s := newSandbox(t)
	s.write(".config/mcpsync/mcpsync.hcl", "server \"gh\" {\n  command = \"npx\"\n  args    = [\"-y\", \"@modelcontextprotocol/server-github\"]\n"+
		"  env     = { GITHUB_PERSONAL_ACCESS_TOKEN = \""+token+"\", API_SECRET = \"plain-value-1234\" }\n}\n")
	c := s.client()
	for _, tc := range []struct {
		tool string
		args map[string]any
	}{
		{"list_servers", nil},
		{"show_server", map[string]any{"name": "gh"}},
		{"diff", map[string]any{"clients": []string{"cursor"}}},
		{"probe", nil},
	} {
		m, text := call(t, c, tc.tool, tc.args)
		all, _ := json.Marshal(m)
		for _, secret := range []string{token, "plain-value-1234"} {
			if strings.Contains(text, secret) || strings.Contains(string(all), secret) {
				t.Errorf("%s shows the secret %q:\n%s", tc.tool, secret, text)
			}
		}
	}
	req := mcp.ReadResourceRequest{}
	req.Params.URI = "mcpsync://store"
	res, err := c.ReadResource(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	text := res.Contents[0].(mcp.TextResourceContents).Text
	if strings.Contains(text, token) || !strings.Contains(text, `server "gh"`) {
		t.Errorf("mcpsync://store:\n%s", text)
	}
}

// Probe starts nothing before its plan is confirmed.
func TestProbeAsksFirst(t *testing.T) {
	s := newSandbox(t)
	marker := s.path("started")
	s.write(".config/mcpsync/mcpsync.hcl", fmt.Sprintf("server \"touch\" {\n  command = \"sh\"\n  args    = [\"-c\", \"touch %s\"]\n}\n", marker))
	c := s.client()
	p, _ := call(t, c, "probe", nil)
	if p["done"] != false {
		t.Fatalf("probe without plan_id: %v", p)
	}
	if !strings.Contains(fmt.Sprint(p["plan"]), "touch") {
		t.Errorf("the plan does not show the command line: %v", p["plan"])
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("probe without plan_id started the server")
	}
	call(t, c, "probe", map[string]any{"plan_id": p["plan_id"]})
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("probe with its plan_id did not start the server")
	}
}

func TestHTTPNeedsTokenAndLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:7331", "192.168.1.5:7331", "[::]:7331", "example.com:7331"} {
		if err := serve.CheckBind(addr, false); err == nil {
			t.Errorf("CheckBind(%q) = nil; want a refusal without --allow-remote", addr)
		}
		if err := serve.CheckBind(addr, true); err != nil {
			t.Errorf("CheckBind(%q, allowRemote) = %v", addr, err)
		}
	}
	for _, addr := range []string{"127.0.0.1:7331", "[::1]:0", "localhost:7331"} {
		if err := serve.CheckBind(addr, false); err != nil {
			t.Errorf("CheckBind(%q) = %v", addr, err)
		}
	}

	s := newSandbox(t)
	s.write(".config/mcpsync/mcpsync.hcl", "server \"fetch\" {\n  command = \"uvx\"\n}\n")
	token := serve.NewToken()
	ts := httptest.NewServer(serve.HTTPHandler(serve.New(serve.Options{Engine: s.engine, Version: "test"}), token, false))
	defer ts.Close()

	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, auth := range []string{"", "Bearer wrong", "Bearer " + token + "x", token} {
		req, _ := http.NewRequest("POST", ts.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("Authorization %q: status %d, want 401", auth, resp.StatusCode)
		}
	}

	c, err := client.NewStreamableHttpClient(ts.URL+"/mcp", transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	if err != nil {
		t.Fatal(err)
	}
	s.initialize(c)
	m, text := call(t, c, "list_servers", nil)
	if !strings.Contains(fmt.Sprint(m["servers"]), "fetch") {
		t.Errorf("list_servers over HTTP: %s", text)
	}
}

// sandboxWithServers is a sandbox whose user store holds n stdio servers,
// s0000 on, each with an env reference.
func sandboxWithServers(tb testing.TB, n int) *sandbox {
	s := newSandbox(tb)
	var store strings.Builder
	for i := range n {
		fmt.Fprintf(&store, "server \"s%04d\" {\n  command = \"npx\"\n  args    = [\"-y\", \"pkg-%d\"]\n  env     = { KEY = env(\"KEY\") }\n}\n\n", i, i)
	}
	s.write(".config/mcpsync/mcpsync.hcl", store.String())
	return s
}

// BenchmarkListServers1000 is a tools/call list_servers round trip on a
// 1,000-server store, against engine.List, which it wraps: x-engine is
// what the MCP layer costs on top.
func BenchmarkListServers1000(b *testing.B) {
	s := sandboxWithServers(b, 1000)
	c := s.client()
	var viaMCP, direct float64
	for b.Loop() {
		t0 := testingNow()
		m, text := call(b, c, "list_servers", nil)
		viaMCP += testingSince(t0)
		if n := len(m["servers"].([]any)); n != 1000 {
			b.Fatalf("%d servers: %s", n, text[:200])
		}
		t0 = testingNow()
		if _, err := s.engine().List(""); err != nil {
			b.Fatal(err)
		}
		direct += testingSince(t0)
	}
	b.ReportMetric(viaMCP/float64(b.N)/1e6, "ms-mcp")
	b.ReportMetric(direct/float64(b.N)/1e6, "ms-engine")
	b.ReportMetric(viaMCP/direct, "x-engine")
}

func testingNow() time.Time             { return time.Now() }
func testingSince(t0 time.Time) float64 { return float64(time.Since(t0).Nanoseconds()) }

// BenchmarkDiffToolServer1000 is the server's side of a tools/call diff
// of 1,000 servers to every client: the call handled and its answer
// encoded as the stdio and HTTP transports send it, against the engine's
// work inside it (the dry-run export and its masked diff). x-engine is
// the first over the second: what answering costs on top of the work.
func BenchmarkDiffToolServer1000(b *testing.B) {
	s := sandboxWithServers(b, 1000)
	var ids []string
	for _, ad := range s.engine().Registry().All() {
		ids = append(ids, ad.ID())
	}
	srv := serve.New(serve.Options{Engine: s.engine, Version: "test"})
	ctx := context.Background()
	srv.HandleMessage(ctx, []byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}`))
	args, _ := json.Marshal(map[string]any{"clients": ids})
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"diff","arguments":` + string(args) + `}}`)
	var server, work float64
	size := 0
	for b.Loop() {
		t0 := testingNow()
		out, err := json.Marshal(srv.HandleMessage(ctx, req))
		server += testingSince(t0)
		if err != nil || !bytes.Contains(out, []byte("s0999")) || !bytes.Contains(out, []byte("plan_id")) {
			b.Fatalf("diff: %v %.300s", err, out)
		}
		size = len(out)
		t0 = testingNow()
		e := s.engine()
		run, err := e.Export(engine.ExportOptions{To: ids, DryRun: true})
		if err != nil {
			b.Fatal(err)
		}
		if run.Plan.Diff(emitters.DiffOptions{Base: e.ProjectRoot(), Mask: run.Plan.SecretMask()}) == "" {
			b.Fatal("empty diff")
		}
		run.Close()
		work += testingSince(t0)
	}
	b.ReportMetric(server/float64(b.N)/1e6, "ms-server")
	b.ReportMetric(work/float64(b.N)/1e6, "ms-engine")
	b.ReportMetric(float64(size)/(1<<20), "MiB-answer")
	b.ReportMetric(server/work, "x-engine")
}
