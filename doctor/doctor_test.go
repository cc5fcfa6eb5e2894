package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
)

// home is a sandboxed machine for Run.
type home struct {
	t       *testing.T
	dir     string
	home    string
	project string
	vars    map[string]string
}

func newHome(t *testing.T) *home {
	dir := t.TempDir()
	h := &home{t: t, dir: dir, home: filepath.Join(dir, "home"), project: filepath.Join(dir, "project")}
	h.vars = map[string]string{"HOME": h.home, "XDG_CONFIG_HOME": filepath.Join(h.home, ".config")}
	os.MkdirAll(h.project, 0o755)
	return h
}

func (h *home) write(rel, content string, mode os.FileMode) string {
	h.t.Helper()
	p := filepath.Join(h.dir, rel)
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		h.t.Fatal(err)
	}
	os.Chmod(p, mode)
	return p
}

func (h *home) run(mod func(*Options)) *Report {
	o := Options{
		Registry:  all.NewRegistry(all.Options{}),
		Env:       formats.Env{Home: h.home, ProjectDir: h.project, OS: "linux", Getenv: func(k string) string { return h.vars[k] }},
		LookupEnv: func(k string) (string, bool) { v, ok := h.vars[k]; return v, ok },
	}
	if mod != nil {
		mod(&o)
	}
	return Run(o)
}

func findings(r *Report, kind Kind) []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if f.Kind == kind {
			out = append(out, f)
		}
	}
	return out
}

func TestDuplicatesAcrossScopesNameTheWinner(t *testing.T) {
	h := newHome(t)
	h.write("home/.claude.json", `{
  "mcpServers": {"gh": {"type": "stdio", "command": "npx", "args": ["user"]}},
  "projects": {"`+h.project+`": {"mcpServers": {"gh": {"type": "stdio", "command": "npx", "args": ["local"]}}}}
}`, 0o600)
	h.write("project/.mcp.json", `{"mcpServers": {"gh": {"command": "npx", "args": ["project"]}}}`, 0o644)
	h.write("home/.kiro/settings/mcp.json", `{"mcpServers": {"k": {"command": "uvx"}}}`, 0o600)
	h.write("project/.kiro/settings/mcp.json", `{"mcpServers": {"k": {"command": "uvx", "args": ["x"]}}}`, 0o644)
	h.write("home/.cursor/mcp.json", `{"mcpServers": {"same": {"command": "uvx"}}}`, 0o600)
	h.write("project/.cursor/mcp.json", `{"mcpServers": {"same": {"command": "uvx"}}}`, 0o644)
	r := h.run(nil)
	dups := findings(r, DuplicateAcrossScopes)
	byClient := map[string]Finding{}
	for _, f := range dups {
		byClient[f.Client] = f
	}
	if f := byClient["claude-code"]; f.Scope != canonical.ScopeLocal || f.Severity != SevWarning ||
		!strings.Contains(f.Message, "Claude Code uses the local one") || !strings.Contains(f.Message, "local over project over user") ||
		f.Line != 3 {
		t.Errorf("claude-code: %+v", f)
	}
	if f := byClient["kiro"]; f.Scope != canonical.ScopeProject || !strings.Contains(f.Message, "Kiro's workspace file wins") {
		t.Errorf("kiro: %+v", f)
	}
	if f := byClient["cursor"]; f.Severity != SevInfo || f.Scope != canonical.ScopeProject ||
		!strings.Contains(f.Message, "does not document it; mcpsync assumes the project's file wins") {
		t.Errorf("cursor: %+v", f)
	}
	if r.HasErrors() {
		t.Errorf("duplicates are not errors: %v", r.Findings)
	}
}

func TestDriftAgainstTheStoreAndBetweenClients(t *testing.T) {
	h := newHome(t)
	storePath := h.write("home/.config/mcpsync/mcpsync.hcl", "server \"gh\" {\n  command = \"npx\"\n  args = [\"-y\", \"gh\"]\n  cwd = \"/tmp\"\n}\n", 0o600)
	// Claude Code cannot hold a cwd: not a difference. Cursor's args differ.
	h.write("home/.claude.json", `{"mcpServers": {"gh": {"type": "stdio", "command": "npx", "args": ["-y", "gh"]}}}`, 0o600)
	h.write("home/.cursor/mcp.json", `{"mcpServers": {"gh": {"command": "npx", "args": ["-y", "gh", "--old"]}}}`, 0o600)
	// fetch is not in the store: Codex and Cursor disagree on it.
	h.write("home/.codex/config.toml", "[mcp_servers.fetch]\ncommand = \"uvx\"\nargs = [\"mcp-server-fetch\"]\n", 0o600)
	h.write("home/.gemini/settings.json", `{"mcpServers": {"fetch": {"command": "uvx", "args": ["mcp-server-fetch", "--v2"]}}}`, 0o600)
	r := h.run(func(o *Options) { o.Stores = []StoreFile{{Path: storePath, Scope: canonical.ScopeUser}} })
	var got []string
	for _, f := range findings(r, Drift) {
		got = append(got, f.Client+":"+f.Server+":"+f.Message)
	}
	joined := strings.Join(got, "\n")
	if len(got) != 2 || !strings.Contains(joined, "cursor:gh:Cursor's definition differs from the store's") || !strings.Contains(joined, "): args") ||
		!strings.Contains(joined, "codex:fetch:the clients disagree on this server: compared with codex here, gemini differs in args") {
		t.Fatalf("drift findings:\n%s", strings.Join(got, "\n"))
	}
}

func TestLiteralSecretsWhereAndHowBad(t *testing.T) {
	h := newHome(t)
	h.write("home/.cursor/mcp.json", `{
  "mcpServers": {
    "gh": {"command": "npx", "env": {"GITHUB_TOKEN": "ghp_R8kq2Lm9Xv4TzW7bN1cP5sD3fG6hJ0aQeY2u"}}
  }
}`, 0o644)
	h.write("project/.vscode/mcp.json", `{
  // shared with the team
  "servers": {
    "linear": {"type": "http", "url": "https://mcp.linear.app/mcp",
      "headers": {"Authorization": "Bearer lin_api_Kq2Vn9Lm4Rt8Wz1Pc5Sb3Dg6Fj0AHx7Kq2Vn"}}
  }
}`, 0o644)
	r := h.run(nil)
	secrets := findings(r, LiteralSecret)
	if len(secrets) != 2 {
		t.Fatalf("literal secrets: %+v", secrets)
	}
	user, proj := secrets[0], secrets[1]
	if user.Client != "cursor" {
		user, proj = proj, user
	}
	if user.Severity != SevWarning || user.Line != 3 || user.Column != 55 || user.Field != "env.GITHUB_TOKEN" ||
		!strings.Contains(user.Fix, "use ${env:GITHUB_TOKEN} instead and set it with: export GITHUB_TOKEN=…") {
		t.Errorf("user file: %+v", user)
	}
	if proj.Severity != SevError || proj.Line != 5 || !strings.Contains(proj.Message, "this shared project file") ||
		!strings.Contains(proj.Fix, "mcpsync import --from vscode --scope project --extract-secrets") {
		t.Errorf("project file: %+v", proj)
	}
	for _, f := range r.Findings {
		if strings.Contains(f.Message+f.Fix, "R8kq2Lm9") || strings.Contains(f.Message+f.Fix, "Kq2Vn9Lm4") {
			t.Errorf("a finding shows a secret: %+v", f)
		}
	}
	wr := findings(r, WorldReadableSecret)
	if len(wr) != 2 || !strings.Contains(wr[0].Fix, "chmod 600") {
		t.Errorf("world-readable: %+v", wr)
	}
}

func TestUnsetReferencesAndDefaults(t *testing.T) {
	h := newHome(t)
	h.vars["SET_HERE"] = "x"
	h.write("home/.claude.json", `{"mcpServers": {"a": {"type": "stdio", "command": "npx",
  "env": {"A": "${SET_HERE}", "B": "${NOT_SET}", "C": "${NOT_SET_EITHER:-fallback}"}, "args": ["${NOT_SET}"]}}}`, 0o600)
	r := h.run(nil)
	u := findings(r, UnsetReference)
	if len(u) != 1 || u[0].Server != "a" || !strings.Contains(u[0].Message, "NOT_SET is not set in this environment (used by args[0], env.B)") {
		t.Fatalf("unset: %+v", u)
	}
	r = h.run(func(o *Options) { o.LookupEnv = nil })
	if len(findings(r, UnsetReference)) != 0 {
		t.Fatal("without LookupEnv, no unset check")
	}
}

func TestLeftoverTempFilesAndFilters(t *testing.T) {
	h := newHome(t)
	h.write("home/.cursor/mcp.json", `{"mcpServers": {}}`, 0o600)
	h.write("home/.cursor/.mcp.json.mcpsync-4194305-77", `{"mcpServers": {"half`, 0o600)
	h.write("project/.cursor/mcp.json", `{"mcpServers": {"x": {"url": 1}}}`, 0o600)
	r := h.run(func(o *Options) { o.Clients = []string{"cursor"}; o.Scopes = []canonical.Scope{canonical.ScopeUser} })
	if lt := findings(r, LeftoverTempFile); len(lt) != 1 || !strings.HasSuffix(lt[0].File, ".mcp.json.mcpsync-4194305-77") {
		t.Fatalf("leftovers: %+v", r.Findings)
	}
	for _, f := range r.Files {
		if f.Client != "cursor" || f.Scope != canonical.ScopeUser {
			t.Errorf("filtered out, yet checked: %+v", f)
		}
	}
	if len(findings(r, SkippedEntry)) != 0 {
		t.Error("the project file was checked despite --scope user")
	}
}

func TestStoreChecks(t *testing.T) {
	h := newHome(t)
	p := h.write("project/mcpsync.hcl", "server \"a\" {\n  command = \"npx\"\n  env = { API_KEY = \"abcd1234efgh5678\" }\n}\n", 0o644)
	broken := h.write("home/.config/mcpsync/mcpsync.hcl", "server \"b\" {\n  command = \n}\n", 0o600)
	r := h.run(func(o *Options) {
		o.Stores = []StoreFile{{Path: p, Scope: canonical.ScopeProject}, {Path: broken, Scope: canonical.ScopeUser}}
	})
	var kinds []string
	for _, f := range r.Findings {
		if f.Client == "store" {
			kinds = append(kinds, string(f.Severity)+":"+string(f.Kind))
		}
	}
	if strings.Join(kinds, ",") != "error:parse_error,error:world_readable_secret,error:literal_secret" {
		t.Fatalf("store findings %v\n%+v", kinds, r.Findings)
	}
}
