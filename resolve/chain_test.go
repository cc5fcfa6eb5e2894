package resolve_test

import (
	"context"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/resolve"
	"github.com/mcpsync/mcpsync/resolve/resolvetest"
)

// env is one fake GitHub + registry and the options pointing at it.
type env struct {
	fake *resolvetest.Server
	opts resolve.Options
}

func newEnv(t *testing.T, repos ...resolvetest.Repo) *env {
	t.Helper()
	fake := resolvetest.New()
	t.Cleanup(fake.Close)
	for _, r := range repos {
		fake.AddRepo(r)
	}
	return &env{fake: fake, opts: resolve.Options{GitHubAPI: fake.APIURL, GitHubRaw: fake.RawURL, Registry: fake.RegistryURL}}
}

func (e *env) resolve(t *testing.T, in string) (*resolve.Result, error) {
	t.Helper()
	input, err := resolve.ParseInput(in)
	if err != nil {
		t.Fatalf("ParseInput(%q): %v", in, err)
	}
	return resolve.Resolve(context.Background(), input, e.opts)
}

func (e *env) must(t *testing.T, in string) *resolve.Result {
	t.Helper()
	res, err := e.resolve(t, in)
	if err != nil {
		t.Fatalf("Resolve(%q): %v", in, err)
	}
	return res
}

func repo(owner, name string, files ...string) resolvetest.Repo {
	r := resolvetest.Repo{Owner: owner, Name: name, Files: map[string][]byte{}}
	for i := 0; i+1 < len(files); i += 2 {
		r.Files[files[i]] = []byte(files[i+1])
	}
	return r
}

func wantCommand(t *testing.T, res *resolve.Result, command string, args ...string) {
	t.Helper()
	if res.Server.Command != command || !reflect.DeepEqual(res.Server.Args, args) {
		t.Fatalf("resolved %s, want %s %s\nevidence:\n%s", resolve.CommandLine(res.Server), command, strings.Join(args, " "), evidence(res.Evidence))
	}
}

func evidence(steps []resolve.Step) string {
	var b strings.Builder
	for _, s := range steps {
		b.WriteString("  " + s.String() + "\n")
	}
	return b.String()
}

func hasEvidence(steps []resolve.Step, step, substr string) bool {
	for _, s := range steps {
		if s.Step == step && strings.Contains(s.Detail, substr) {
			return true
		}
	}
	return false
}

// Manifest fixtures: the last built-in step.
func TestManifestPackageJSONBin(t *testing.T) {
	e := newEnv(t, repo("acme", "weather-mcp",
		"package.json", `{"name": "@acme/weather-mcp", "version": "1.0.0", "bin": {"weather-mcp": "dist/index.js"}}`,
		"README.md", "# Weather\n\nRun it with your favourite client.\n"))
	res := e.must(t, "acme/weather-mcp")
	wantCommand(t, res, "npx", "-y", "@acme/weather-mcp")
	if res.Step != resolve.StepManifest || res.Server.Name != "weather" {
		t.Errorf("step %q name %q, want manifest and weather", res.Step, res.Server.Name)
	}
	for _, step := range []string{resolve.StepRegistry, resolve.StepServerJSON, resolve.StepOwnership, resolve.StepReadme} {
		if !hasEvidence(res.Evidence, step, "") {
			t.Errorf("no evidence recorded for step %s:\n%s", step, evidence(res.Evidence))
		}
	}
}

func TestManifestSeveralBinsPicksTheMCPOne(t *testing.T) {
	e := newEnv(t, repo("acme", "tools",
		"package.json", `{"name": "acme-tools", "bin": {"acme-cli": "cli.js", "acme-mcp": "mcp.js"}}`))
	wantCommand(t, e.must(t, "acme/tools"), "npx", "-y", "--package=acme-tools", "acme-mcp")
}

func TestManifestPrivateMonorepoRootDoesNotResolve(t *testing.T) {
	e := newEnv(t, repo("acme", "mono",
		"package.json", `{"name": "acme-mono", "private": true, "workspaces": ["packages/*"], "bin": {"acme-mono": "x.js"}}`,
		"packages/docs/package.json", `{"name": "@acme/docs", "private": true}`,
		"packages/lib/package.json", `{"name": "@acme/lib", "version": "1.0.0"}`))
	_, err := e.resolve(t, "https://github.com/acme/mono")
	var nf *resolve.NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("err = %v, want a NotFoundError", err)
	}
	if !hasEvidence(nf.Evidence, resolve.StepManifest, "package.json is private") {
		t.Errorf("the evidence does not say the root is private:\n%s", evidence(nf.Evidence))
	}
	msg := err.Error()
	for _, want := range []string{"no MCP server found for https://github.com/acme/mono", "private", "mcpsync add NAME --"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q does not mention %q", msg, want)
		}
	}
}

func TestManifestWorkspacePackageWithBin(t *testing.T) {
	e := newEnv(t, repo("acme", "mono",
		"package.json", `{"name": "acme-mono", "private": true, "workspaces": ["packages/*"]}`,
		"packages/server/package.json", `{"name": "@acme/mcp-server", "bin": "dist/index.js"}`))
	wantCommand(t, e.must(t, "acme/mono"), "npx", "-y", "@acme/mcp-server")
}

func TestManifestPyprojectScripts(t *testing.T) {
	e := newEnv(t, repo("acme", "py-mcp",
		"pyproject.toml", "[project]\nname = \"acme-py-mcp\"\nversion = \"0.1.0\"\n\n[project.scripts]\nacme-py-mcp = \"acme.server:main\"\n"))
	wantCommand(t, e.must(t, "acme/py-mcp"), "uvx", "acme-py-mcp")
}

func TestManifestPyprojectScriptNamedOtherwise(t *testing.T) {
	e := newEnv(t, repo("acme", "agent",
		"pyproject.toml", "[project]\nname = \"acme-agent\"\n[project.scripts]\nacme-cli = \"a:b\"\nstart-mcp-server = \"a:c\"\n"))
	wantCommand(t, e.must(t, "acme/agent"), "uvx", "--from", "acme-agent", "start-mcp-server")
}

func TestManifestPyprojectSeveralScriptsIsAmbiguous(t *testing.T) {
	e := newEnv(t, repo("acme", "agent",
		"pyproject.toml", "[project]\nname = \"acme-agent\"\n[project.scripts]\nalpha = \"a:b\"\nbeta = \"a:c\"\n"))
	_, err := e.resolve(t, "acme/agent")
	var amb *resolve.AmbiguousError
	if !errors.As(err, &amb) || len(amb.Candidates) != 2 {
		t.Fatalf("err = %v, want an AmbiguousError with 2 candidates", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "--pick alpha") || !strings.Contains(msg, "--pick beta") {
		t.Errorf("error %q does not list --pick alpha and --pick beta", msg)
	}
	e.opts.Pick = "beta"
	wantCommand(t, e.must(t, "acme/agent"), "uvx", "--from", "acme-agent", "beta")
}

func TestManifestGoModRoot(t *testing.T) {
	e := newEnv(t, repo("acme", "fs-server",
		"go.mod", "module github.com/acme/fs-server\n\ngo 1.22\n",
		"main.go", "// Command fs-server serves files.\npackage main\n\nfunc main() {}\n",
		"internal/x/x.go", "package x\n"))
	wantCommand(t, e.must(t, "acme/fs-server"), "go", "run", "github.com/acme/fs-server@latest")
}

func TestManifestGoModCmd(t *testing.T) {
	e := newEnv(t, repo("grafana", "mcp-grafana",
		"go.mod", "module github.com/grafana/mcp-grafana\n",
		"cmd/mcp-grafana/main.go", "package main\nfunc main() {}\n",
		"cmd/linters/main.go", "package main\nfunc main() {}\n",
		"examples/demo/main.go", "package main\nfunc main() {}\n"))
	wantCommand(t, e.must(t, "grafana/mcp-grafana"), "go", "run", "github.com/grafana/mcp-grafana/cmd/mcp-grafana@latest")
}

func TestManifestGoModLibraryOnly(t *testing.T) {
	e := newEnv(t, repo("acme", "lib", "go.mod", "module github.com/acme/lib\n", "lib.go", "package lib\n"))
	_, err := e.resolve(t, "acme/lib")
	var nf *resolve.NotFoundError
	if !errors.As(err, &nf) || !hasEvidence(nf.Evidence, resolve.StepManifest, "no main package") {
		t.Fatalf("err = %v, want NotFound with 'no main package' evidence", err)
	}
}

const everythingJSON = `{"name": "io.github.acme/server-everything", "version": "1.0.0",
 "repository": {"url": "https://github.com/acme/servers", "source": "github", "subfolder": "src/everything"},
 "packages": [{"registryType": "npm", "identifier": "@acme/server-everything", "version": "1.0.0", "transport": {"type": "stdio"}}]}`

const gitJSON = `{"name": "io.github.acme/server-git", "version": "2.0.0",
 "repository": {"url": "https://github.com/acme/servers", "source": "github", "subfolder": "src/git"},
 "packages": [{"registryType": "pypi", "identifier": "acme-server-git", "version": "2.0.0", "transport": {"type": "stdio"}}]}`

func TestMonorepoServerJSONsAreAmbiguous(t *testing.T) {
	e := newEnv(t, repo("acme", "servers",
		"package.json", `{"name": "root", "private": true}`,
		"src/everything/server.json", everythingJSON,
		"src/git/server.json", gitJSON,
		"src/git/test/fixtures/server.json", `{"name": "io.github.x/fixture", "packages": [{"registryType": "npm", "identifier": "nope"}]}`))
	_, err := e.resolve(t, "https://github.com/acme/servers")
	var amb *resolve.AmbiguousError
	if !errors.As(err, &amb) {
		t.Fatalf("err = %v, want an AmbiguousError", err)
	}
	if len(amb.Candidates) != 2 {
		t.Fatalf("candidates %v, want everything and git (test fixtures ignored)", amb.Candidates)
	}
	msg := err.Error()
	for _, want := range []string{"holds 2 servers", "--pick everything", "--pick git", "npx -y @acme/server-everything@1.0.0", "https://github.com/acme/servers/tree/main/src/git"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error does not mention %q:\n%s", want, msg)
		}
	}
	for _, pick := range []string{"git", "src/git", "io.github.acme/server-git"} {
		e.opts.Pick = pick
		res := e.must(t, "https://github.com/acme/servers")
		wantCommand(t, res, "uvx", "acme-server-git==2.0.0")
		if res.Server.Name != "git" {
			t.Errorf("--pick %s: name %q, want git", pick, res.Server.Name)
		}
	}
	e.opts.Pick = "nothing-like-it"
	_, err = e.resolve(t, "https://github.com/acme/servers")
	var pe *resolve.PickError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "everything, git") {
		t.Errorf("err = %v, want a PickError listing everything, git", err)
	}
	// The folder URL needs no --pick.
	e.opts.Pick = ""
	wantCommand(t, e.must(t, "https://github.com/acme/servers/tree/main/src/everything"), "npx", "-y", "@acme/server-everything@1.0.0")
}

func TestRegistryMonorepoBySubfolder(t *testing.T) {
	e := newEnv(t, repo("acme", "servers", "README.md", "# servers\n"))
	for _, js := range []string{everythingJSON, gitJSON} {
		if err := e.fake.AddServer([]byte(js), ""); err != nil {
			t.Fatal(err)
		}
	}
	res := e.must(t, "https://github.com/acme/servers/tree/main/src/git")
	wantCommand(t, res, "uvx", "acme-server-git==2.0.0")
	if res.Step != resolve.StepRegistry {
		t.Errorf("step %s, want registry", res.Step)
	}
	_, err := e.resolve(t, "https://github.com/acme/servers")
	var amb *resolve.AmbiguousError
	if !errors.As(err, &amb) || len(amb.Candidates) != 2 {
		t.Fatalf("err = %v, want an AmbiguousError over both registry entries", err)
	}
}

func TestRegistryMatchesRepositoryURLNotName(t *testing.T) {
	e := newEnv(t, repo("acme", "weather", "package.json", `{"name": "acme-weather", "bin": "x.js"}`))
	// An entry under the conventional name, but for another repository:
	// a squatter or a fork must not win.
	e.fake.AddServer([]byte(`{"name": "io.github.acme/weather", "repository": {"url": "https://github.com/evil/weather"},
	  "packages": [{"registryType": "npm", "identifier": "evil-weather", "transport": {"type": "stdio"}}]}`), "")
	res := e.must(t, "acme/weather")
	wantCommand(t, res, "npx", "-y", "acme-weather")
}

func TestRegistrySkipsDeprecatedAndPages(t *testing.T) {
	e := newEnv(t, repo("acme", "weather", "README.md", "nothing\n"))
	e.fake.PageSize = 1
	for i, name := range []string{"io.github.other/weather-a", "io.github.other/weather-b", "io.github.acme/weather-old"} {
		url := "https://github.com/other/x" + string(rune('a'+i))
		status := ""
		if name == "io.github.acme/weather-old" {
			url, status = "https://github.com/acme/weather", "deprecated"
		}
		e.fake.AddServer([]byte(`{"name": "`+name+`", "repository": {"url": "`+url+`"}, "packages": [{"registryType": "npm", "identifier": "old", "transport": {"type": "stdio"}}]}`), status)
	}
	e.fake.AddServer([]byte(`{"name": "io.github.acme/weather-new", "repository": {"url": "https://github.com/Acme/Weather.git"},
	  "packages": [{"registryType": "npm", "identifier": "acme-weather", "version": "3.0.0", "transport": {"type": "stdio"}}]}`), "")
	res := e.must(t, "acme/weather")
	wantCommand(t, res, "npx", "-y", "acme-weather@3.0.0")
	if !hasEvidence(res.Evidence, resolve.StepRegistry, "io.github.acme/weather-old (deprecated)") {
		t.Errorf("the deprecated entry is not reported as skipped:\n%s", evidence(res.Evidence))
	}
	paged := 0
	for _, r := range e.fake.Requests() {
		if strings.Contains(r, "cursor=") {
			paged++
		}
	}
	if paged == 0 {
		t.Errorf("the search never followed a cursor: %v", e.fake.Requests())
	}
}

func TestRegistryDownIsNotFatal(t *testing.T) {
	e := newEnv(t, repo("acme", "weather", "package.json", `{"name": "acme-weather", "bin": "x.js"}`))
	e.fake.RegistryDown = true
	res := e.must(t, "acme/weather")
	wantCommand(t, res, "npx", "-y", "acme-weather")
	if !hasEvidence(res.Evidence, resolve.StepRegistry, "registry not usable") {
		t.Errorf("no evidence that the registry was skipped:\n%s", evidence(res.Evidence))
	}
}

func TestOwnershipMarker(t *testing.T) {
	e := newEnv(t, repo("acme", "py-thing",
		"README.md", "# Thing\n\n<!-- mcp-name: io.github.acme-corp/thing -->\n",
		"pyproject.toml", "[project]\nname = \"thing\"\n[project.scripts]\nthing = \"x:y\"\n"))
	e.fake.AddServer([]byte(`{"name": "io.github.acme-corp/thing", "version": "1.0.0",
	  "packages": [{"registryType": "pypi", "identifier": "acme-thing", "version": "1.2.0", "transport": {"type": "stdio"},
	    "environmentVariables": [{"name": "THING_TOKEN", "isRequired": true, "isSecret": true}]}]}`), "")
	res := e.must(t, "acme/py-thing")
	wantCommand(t, res, "uvx", "acme-thing==1.2.0")
	if res.Step != resolve.StepOwnership || res.Server.Env["THING_TOKEN"] != "${THING_TOKEN}" {
		t.Errorf("step %s env %v, want ownership and THING_TOKEN=${THING_TOKEN}", res.Step, res.Server.Env)
	}
}

func TestRepoNotFound(t *testing.T) {
	e := newEnv(t)
	_, err := e.resolve(t, "https://github.com/acme/missing")
	var nf *resolve.RepoNotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("err = %v, want a RepoNotFoundError", err)
	}
	if msg := err.Error(); !strings.Contains(msg, "acme/missing not found") || !strings.Contains(msg, "GITHUB_TOKEN") {
		t.Errorf("error %q should name the repository and suggest GITHUB_TOKEN", msg)
	}
}

func TestBranchOrFolderNotFound(t *testing.T) {
	e := newEnv(t, repo("acme", "x", "README.md", "hi\n"))
	if _, err := e.resolve(t, "https://github.com/acme/x/tree/nope"); err == nil || !strings.Contains(err.Error(), "branch or commit nope not found") {
		t.Errorf("unknown branch: err = %v", err)
	}
	if _, err := e.resolve(t, "https://github.com/acme/x/tree/main/src/none"); err == nil || !strings.Contains(err.Error(), "folder src/none not found") {
		t.Errorf("unknown folder: err = %v", err)
	}
}

func TestRateLimit(t *testing.T) {
	e := newEnv(t, repo("acme", "x", "README.md", "hi\n"))
	reset := time.Now().Add(17 * time.Minute).Truncate(time.Second)
	e.fake.RateLimit(reset)
	_, err := e.resolve(t, "acme/x")
	var rl *resolve.RateLimitError
	if !errors.As(err, &rl) {
		t.Fatalf("err = %v, want a RateLimitError", err)
	}
	if !rl.Reset.Equal(reset) {
		t.Errorf("reset %v, want %v", rl.Reset, reset)
	}
	if msg := err.Error(); !strings.Contains(msg, "rate limit exceeded") || !strings.Contains(msg, "GITHUB_TOKEN") || !strings.Contains(msg, "resets at") {
		t.Errorf("error %q should say rate limit, when it resets, and suggest GITHUB_TOKEN", msg)
	}
}

func TestTokenGoesToGitHubOnly(t *testing.T) {
	private := repo("acme", "secret", "package.json", `{"name": "acme-secret", "bin": "x.js"}`)
	private.Private = true
	e := newEnv(t, private)
	e.fake.Token = "t0ken"
	e.opts.CacheDir = t.TempDir()
	if _, err := e.resolve(t, "acme/secret"); err == nil {
		t.Fatal("a private repository resolved without a token")
	}
	// The 404 seen without a token is cached, but not for a run with one.
	e.opts.Token = "t0ken"
	wantCommand(t, e.must(t, "acme/secret"), "npx", "-y", "acme-secret")
	authed := e.fake.AuthorizedRequests()
	if len(authed) == 0 {
		t.Fatal("the token was never sent")
	}
	for _, r := range authed {
		if strings.HasPrefix(r, "/registry") {
			t.Errorf("the GitHub token was sent to the registry: %s", r)
		}
	}
}

func TestCacheAndTTL(t *testing.T) {
	e := newEnv(t, repo("acme", "weather", "package.json", `{"name": "acme-weather", "bin": "x.js"}`))
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	e.opts.CacheDir = t.TempDir()
	e.opts.TTL = time.Hour
	e.opts.Now = func() time.Time { return now }
	e.must(t, "acme/weather")
	first := len(e.fake.Requests())
	if first == 0 {
		t.Fatal("no request made")
	}
	e.must(t, "acme/weather")
	if n := len(e.fake.Requests()); n != first {
		t.Errorf("a second run within the TTL made %d requests, want none", n-first)
	}
	now = now.Add(59 * time.Minute)
	e.must(t, "acme/weather")
	if n := len(e.fake.Requests()); n != first {
		t.Errorf("a run 59 min later made %d requests, want none", n-first)
	}
	now = now.Add(2 * time.Minute)
	e.must(t, "acme/weather")
	second := len(e.fake.Requests())
	if second != 2*first {
		t.Errorf("a run after the TTL made %d requests, want %d (everything again)", second-first, first)
	}
	e.opts.Refresh = true
	e.must(t, "acme/weather")
	if n := len(e.fake.Requests()); n != second+first {
		t.Errorf("--refresh made %d requests, want %d", n-second, first)
	}
	// A corrupt cache file is refetched, not an error.
	entries, _ := os.ReadDir(e.opts.CacheDir)
	for _, f := range entries {
		os.WriteFile(e.opts.CacheDir+"/"+f.Name(), []byte("{not json"), 0o600)
	}
	e.opts.Refresh = false
	e.must(t, "acme/weather")
}

func TestCacheKeepsRateLimitOut(t *testing.T) {
	e := newEnv(t, repo("acme", "weather", "package.json", `{"name": "acme-weather", "bin": "x.js"}`))
	e.opts.CacheDir = t.TempDir()
	e.fake.RateLimit(time.Now().Add(time.Hour))
	if _, err := e.resolve(t, "acme/weather"); err == nil {
		t.Fatal("want a rate limit error")
	}
	e.fake.RateLimit(time.Time{})
	wantCommand(t, e.must(t, "acme/weather"), "npx", "-y", "acme-weather")
}

func TestRegistryNameInput(t *testing.T) {
	e := newEnv(t)
	e.fake.AddServer([]byte(`{"name": "io.github.acme/weather", "version": "1.0.0",
	  "packages": [{"registryType": "oci", "identifier": "ghcr.io/acme/weather:1.0.0", "transport": {"type": "stdio"},
	    "environmentVariables": [{"name": "WEATHER_KEY", "isRequired": true, "isSecret": true}, {"name": "UNITS", "default": "metric"}]}]}`), "")
	res := e.must(t, "io.github.acme/weather")
	wantCommand(t, res, "docker", "run", "-i", "--rm", "-e", "WEATHER_KEY", "-e", "UNITS", "ghcr.io/acme/weather:1.0.0")
	if res.Server.Env["WEATHER_KEY"] != "${WEATHER_KEY}" || res.Server.Env["UNITS"] != "metric" {
		t.Errorf("env %v", res.Server.Env)
	}
	_, err := e.resolve(t, "io.github.acme/nope")
	var rn *resolve.RegistryNotFoundError
	if !errors.As(err, &rn) {
		t.Errorf("err = %v, want a RegistryNotFoundError", err)
	}
}

func TestPackageInput(t *testing.T) {
	e := newEnv(t)
	e.fake.AddServer([]byte(`{"name": "io.github.brave/brave-search-mcp-server", "version": "2.1.3",
	  "packages": [{"registryType": "npm", "identifier": "@brave/brave-search-mcp-server", "version": "2.1.3", "transport": {"type": "stdio"},
	    "environmentVariables": [{"name": "BRAVE_API_KEY", "isRequired": true, "isSecret": true}]}]}`), "")
	res := e.must(t, "npm:@brave/brave-search-mcp-server@2.2.0")
	wantCommand(t, res, "npx", "-y", "@brave/brave-search-mcp-server@2.2.0")
	if res.Server.Env["BRAVE_API_KEY"] != "${BRAVE_API_KEY}" {
		t.Errorf("the registry's env declaration was not used: %v", res.Server.Env)
	}
	for in, want := range map[string][]string{
		"npm:left-pad":           {"npx", "-y", "left-pad"},
		"pypi:mcp-server-git==1": {"uvx", "mcp-server-git==1"},
		"oci:mcp/git":            {"docker", "run", "-i", "--rm", "mcp/git"},
		"go:github.com/a/b@v1.0": {"go", "run", "github.com/a/b@v1.0"},
		"nuget:Acme.Mcp":         {"dnx", "Acme.Mcp", "--yes"},
	} {
		wantCommand(t, e.must(t, in), want[0], want[1:]...)
	}
}

func TestRemoteInput(t *testing.T) {
	e := newEnv(t)
	res := e.must(t, "https://mcp.exa.ai/mcp")
	if res.Server.Transport != canonical.HTTP || res.Server.URL != "https://mcp.exa.ai/mcp" || res.AltTransport != canonical.SSE || res.Server.Name != "exa" {
		t.Errorf("got %+v alt %s", res.Server, res.AltTransport)
	}
	res = e.must(t, "https://example.com/v1/sse")
	if res.Server.Transport != canonical.SSE || res.AltTransport != canonical.HTTP {
		t.Errorf("got %s alt %s", res.Server.Transport, res.AltTransport)
	}
}

func TestRemoteOption(t *testing.T) {
	e := newEnv(t, repo("acme", "hosted", "server.json", `{"name": "io.github.acme/hosted",
	  "packages": [{"registryType": "npm", "identifier": "acme-hosted", "version": "1.0.0", "transport": {"type": "stdio"}}],
	  "remotes": [{"type": "sse", "url": "https://mcp.acme.dev/mcp", "headers": [{"name": "Authorization", "isRequired": true, "isSecret": true}]}]}`),
		repo("acme", "local", "server.json", `{"name": "io.github.acme/local",
	  "packages": [{"registryType": "npm", "identifier": "acme-local", "transport": {"type": "stdio"}}]}`))
	wantCommand(t, e.must(t, "acme/hosted"), "npx", "-y", "acme-hosted@1.0.0")
	e.opts.Remote = true
	res := e.must(t, "acme/hosted")
	// Declared sse, but the URL ends in /mcp: streamable HTTP first, sse as the fallback.
	if res.Server.Transport != canonical.HTTP || res.AltTransport != canonical.SSE || res.Server.Headers["Authorization"] != "${HOSTED_AUTHORIZATION}" {
		t.Errorf("--remote: %+v alt %s", res.Server, res.AltTransport)
	}
	if _, err := e.resolve(t, "acme/local"); err == nil || !strings.Contains(err.Error(), "offers no hosted endpoint") {
		t.Errorf("--remote without a remote: err = %v", err)
	}
}

func TestInputValues(t *testing.T) {
	e := newEnv(t, repo("acme", "fs", "README.md", "```json\n"+`{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "acme-fs", "/path/to/allowed/dir"], "env": {"ACME_TOKEN": "YOUR_TOKEN"}}}}`+"\n```\n"))
	res := e.must(t, "acme/fs")
	wantCommand(t, res, "npx", "-y", "acme-fs", "${ALLOWED_DIR}")
	if len(res.Inputs) != 2 {
		t.Fatalf("inputs %+v, want ALLOWED_DIR and ACME_TOKEN", res.Inputs)
	}
	e.opts.Inputs = map[string]string{"ALLOWED_DIR": "/home/me/src", "ACME_TOKEN": "s3cret"}
	res = e.must(t, "acme/fs")
	wantCommand(t, res, "npx", "-y", "acme-fs", "/home/me/src")
	if res.Server.Env["ACME_TOKEN"] != "${ACME_TOKEN}" {
		t.Errorf("a secret input was written as a value: %v", res.Server.Env)
	}
	if missing := res.MissingInputs(nil, nil); len(missing) != 0 {
		t.Errorf("missing %+v, want none: both were given", missing)
	}
	e.opts.Inputs = map[string]string{"ALLOWED_DIR": "/home/me/src"}
	res = e.must(t, "acme/fs")
	noEnv := func(string) (string, bool) { return "", false }
	if missing := res.MissingInputs(nil, noEnv); len(missing) != 1 || missing[0].Name != "ACME_TOKEN" {
		t.Errorf("missing %+v, want ACME_TOKEN", missing)
	}
	inEnv := func(k string) (string, bool) { return "x", k == "ACME_TOKEN" }
	if missing := res.MissingInputs(nil, inEnv); len(missing) != 0 {
		t.Errorf("missing %+v, want none: ACME_TOKEN is in the environment", missing)
	}
}

func TestNothingFound(t *testing.T) {
	e := newEnv(t, repo("acme", "empty", "README.md", "# Nothing here\n\n```bash\nmake\n```\n"))
	_, err := e.resolve(t, "acme/empty")
	var nf *resolve.NotFoundError
	if !errors.As(err, &nf) {
		t.Fatalf("err = %v", err)
	}
	for _, step := range []string{resolve.StepRegistry, resolve.StepRepository, resolve.StepServerJSON, resolve.StepOwnership,
		resolve.StepReadme, resolve.StepManifest, resolve.StepPlugin} {
		if !hasEvidence(nf.Evidence, step, "") {
			t.Errorf("no evidence for %s in:\n%s", step, evidence(nf.Evidence))
		}
	}
}

// BenchmarkResolveREADME resolves a repository whose README holds the
// snippet, through the local fake (registry misses, tree listing, raw
// reads): the resolver's own cost per resolution, network excluded.
func BenchmarkResolveREADME(b *testing.B) {
	benchResolve(b, "")
}

// BenchmarkResolveCached is the same with a warm disk cache: what a
// second `mcpsync add` of the same repository costs.
func BenchmarkResolveCached(b *testing.B) {
	benchResolve(b, b.TempDir())
}

func benchResolve(b *testing.B, cacheDir string) {
	fake := resolvetest.New()
	defer fake.Close()
	readme, err := os.ReadFile(corpusDir + "/readme/brave__brave-search-mcp-server.README.md")
	if err != nil {
		b.Skip("resolver corpus not available")
	}
	fake.AddRepo(resolvetest.Repo{Owner: "brave", Name: "brave-search-mcp-server", Files: map[string][]byte{"README.md": readme}})
	opts := resolve.Options{GitHubAPI: fake.APIURL, GitHubRaw: fake.RawURL, Registry: fake.RegistryURL, CacheDir: cacheDir}
	in, _ := resolve.ParseInput("brave/brave-search-mcp-server")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := resolve.Resolve(context.Background(), in, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(fake.Requests()))/float64(b.N), "requests/op")
}

// A collection is recognised from any workspace kind or the conventional
// layouts, and only members that are MCP servers count: a library, a
// private tool or a package without a command is not one.
func TestCollectionMembers(t *testing.T) {
	npmServer := func(name string) string {
		return `{"name": "` + name + `", "bin": "dist/index.js", "dependencies": {"@modelcontextprotocol/sdk": "^1"}}`
	}
	pyServer := func(name string) string {
		return "[project]\nname = \"" + name + "\"\ndependencies = [\"mcp[cli]>=1.2\"]\n[project.scripts]\n" + name + " = \"x:main\"\n"
	}
	goServer := func(mod string) string {
		return "module " + mod + "\n\ngo 1.24\n\nrequire (\n\tgithub.com/modelcontextprotocol/go-sdk v1.0.0\n)\n"
	}
	for _, tc := range []struct {
		name  string
		files []string
		want  []string // member folders; nil: not a collection
	}{
		{"npm workspace with a library", []string{
			"package.json", `{"private": true, "workspaces": ["libs/*"]}`,
			"libs/a/package.json", npmServer("a-mcp"),
			"libs/b/package.json", npmServer("@x/b"),
			"libs/util/package.json", `{"name": "@x/util", "dependencies": {"zod": "3"}}`,
		}, []string{"libs/a", "libs/b"}},
		{"pnpm workspace", []string{
			"pnpm-workspace.yaml", "packages:\n  - 'tools/*'\n  - \"!tools/skip\"\n",
			"tools/one/package.json", npmServer("one"),
			"tools/two/package.json", npmServer("two"),
		}, []string{"tools/one", "tools/two"}},
		{"uv workspace", []string{
			"pyproject.toml", "[tool.uv.workspace]\nmembers = [\"weather\", \"maps\"]\n",
			"weather/pyproject.toml", pyServer("weather-mcp"),
			"maps/pyproject.toml", pyServer("maps-server"),
		}, []string{"maps", "weather"}},
		{"go.work", []string{
			"go.work", "go 1.24\n\nuse (\n\t./alpha\n\t./beta // the second\n)\n",
			"alpha/go.mod", goServer("example.com/alpha"), "alpha/main.go", "package main\n",
			"beta/go.mod", goServer("example.com/beta"), "beta/main.go", "package main\n",
		}, []string{"alpha", "beta"}},
		{"one server and its CLI is no collection", []string{
			"packages/server/package.json", npmServer("acme-mcp"),
			"packages/cli/package.json", `{"name": "acme-cli", "bin": "cli.js"}`,
		}, nil},
		{"private members do not count", []string{
			"src/a/package.json", `{"name": "a-mcp", "private": true, "bin": "x.js"}`,
			"src/b/package.json", npmServer("b-mcp"),
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, repo("acme", "many", tc.files...))
			_, err := e.resolve(t, "acme/many")
			var amb *resolve.AmbiguousError
			if tc.want == nil {
				if errors.As(err, &amb) {
					t.Fatalf("resolved as a collection: %v", err)
				}
				return
			}
			if !errors.As(err, &amb) {
				t.Fatalf("err = %v, want the collection listed", err)
			}
			var got []string
			for _, c := range amb.Candidates {
				got = append(got, c.Subfolder)
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("members %v, want %v", got, tc.want)
			}
		})
	}
}

// go run pins the latest release when the tag fits the module: its
// folder's prefix for a nested module, its major version for /vN paths;
// anything else takes @latest, which the module proxy resolves itself.
func TestGoReleasePinning(t *testing.T) {
	for _, tc := range []struct {
		name, mod, dir, tag, want string
	}{
		{"root module, release", "github.com/acme/gosrv", "", "v1.4.2", "github.com/acme/gosrv@v1.4.2"},
		{"no release", "github.com/acme/gosrv", "", "", "github.com/acme/gosrv@latest"},
		{"not semver", "github.com/acme/gosrv", "", "2024-05-01", "github.com/acme/gosrv@latest"},
		{"v2 module, v2 tag", "github.com/acme/gosrv/v2", "", "v2.0.1", "github.com/acme/gosrv/v2@v2.0.1"},
		{"v1 module, v2 tag", "github.com/acme/gosrv", "", "v2.0.1", "github.com/acme/gosrv@latest"},
		{"nested module, its tag", "github.com/acme/gosrv/server", "server", "server/v0.3.0", "github.com/acme/gosrv/server@v0.3.0"},
		{"nested module, the root's tag", "github.com/acme/gosrv/server", "server", "v1.0.0", "github.com/acme/gosrv/server@latest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prefix := ""
			if tc.dir != "" {
				prefix = tc.dir + "/"
			}
			rp := repo("acme", "gosrv", prefix+"go.mod", "module "+tc.mod+"\n\nrequire github.com/mark3labs/mcp-go v0.40.0\n", prefix+"main.go", "package main\n")
			rp.LatestRelease = tc.tag
			e := newEnv(t, rp)
			in := "acme/gosrv"
			if tc.dir != "" {
				in = "https://github.com/acme/gosrv/tree/main/" + tc.dir
			}
			res := e.must(t, in)
			wantCommand(t, res, "go", "run", tc.want)
		})
	}
}

// A server resolved from a repository's folder is named after what its
// server.json says, else after the folder: never after the repository.
func TestFolderServerName(t *testing.T) {
	e := newEnv(t, repo("acme", "servers",
		"src/seqthink/server.json", `{"name": "io.github.acme/server-sequential-thinking", "version": "1.0.0",
		 "packages": [{"registryType": "npm", "identifier": "@acme/seq", "version": "1.0.0", "transport": {"type": "stdio"}}]}`,
		"src/git/pyproject.toml", "[project]\nname = \"acme-git\"\n[project.scripts]\nacme-git = \"g:main\"\n"))
	if got := e.must(t, "https://github.com/acme/servers/tree/main/src/seqthink").Server.Name; got != "sequential-thinking" {
		t.Errorf("named %q, want sequential-thinking (its server.json)", got)
	}
	if got := e.must(t, "https://github.com/acme/servers/tree/main/src/git").Server.Name; got != "git" {
		t.Errorf("named %q, want git (its folder)", got)
	}
}

// A README that shows several different servers, none of them the
// repository's own (the reference servers' README, here without the
// folders), lists them; one that shows its own server beside others, or
// one server for several clients, is one server.
func TestReadmeOfSeveralServers(t *testing.T) {
	list := "```json\n{\"mcpServers\": {\n" +
		"  \"memory\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-memory\"]},\n" +
		"  \"git\": {\"command\": \"uvx\", \"args\": [\"mcp-server-git\", \"--repository\", \"path/to/git/repo\"]},\n" +
		"  \"github\": {\"command\": \"docker\", \"args\": [\"run\", \"-i\", \"--rm\", \"ghcr.io/github/github-mcp-server\", \"stdio\"]}\n}}\n```\n"
	e := newEnv(t, repo("acme", "servers", "README.md", "# Servers\n\n"+list),
		repo("acme", "git-tools", "README.md", "# git tools\n\n"+list),
		repo("acme", "weather", "README.md", "```json\n{\"mcpServers\": {\"weather\": {\"command\": \"npx\", \"args\": [\"-y\", \"acme-weather@1\"]}}}\n```\n"+
			"```json\n{\"servers\": {\"forecast\": {\"command\": \"npx\", \"args\": [\"-y\", \"acme-weather\"]}}}\n```\n"+
			"```json\n{\"mcpServers\": {\"weather\": {\"command\": \"docker\", \"args\": [\"run\", \"-i\", \"--rm\", \"acme/weather\"]}}}\n```\n"))
	_, err := e.resolve(t, "acme/servers")
	var amb *resolve.AmbiguousError
	if !errors.As(err, &amb) {
		t.Fatalf("err = %v, want the README's servers listed", err)
	}
	var ids []string
	for _, c := range amb.Candidates {
		ids = append(ids, c.ID)
	}
	if strings.Join(ids, " ") != "memory git github" {
		t.Errorf("servers %v, want memory git github", ids)
	}
	e.opts.Pick = "git"
	wantCommand(t, e.must(t, "acme/servers"), "uvx", "mcp-server-git", "--repository", "${REPOSITORY}")
	e.opts.Pick = ""
	// git-tools: its own server (git) is among them, so it is chosen as before
	if res := e.must(t, "acme/git-tools"); res.Server.Command == "" {
		t.Fatal("no server")
	}
	// one server for several clients, under two names but one package
	wantCommand(t, e.must(t, "acme/weather"), "npx", "-y", "acme-weather@1")
}
