package engine

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/xdg"
)

// The migration matrix of client-only keys: a server that several clients'
// files gave keys of their own is exported to every client. Each key either
// reaches its own client (read back from the written file) or, when it
// changes what the server does, is named in a warning for every other
// client; a UI-only key is silent.
func TestEveryClientOnlyKeyReachesOrIsNamed(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"XDG_STATE_HOME": filepath.Join(home, ".local", "state"), "XDG_CACHE_HOME": filepath.Join(home, ".cache")}
	getenv := func(k string) string { return env[k] }
	e := New(Env{Dirs: xdg.Resolve(getenv), Cwd: home, GOOS: runtime.GOOS, Getenv: getenv,
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})

	srv := canonical.Server{Name: "api", Transport: canonical.HTTP, URL: "https://api.example.com/mcp"}
	extras := map[string]map[string]string{
		"claude-code": {"headersHelper": `"~/bin/token.sh"`, "description": `"the API"`},
		"vscode":      {"envFile": `"${workspaceFolder}/.env"`, "dev": `{"watch":"src/**"}`},
		"gemini":      {"trust": `true`, "authProviderType": `"google_credentials"`},
		"cursor":      {"tools": `["search"]`},
	}
	for client, keys := range extras {
		for k, v := range keys {
			srv.SetExtra(client, k, json.RawMessage(v))
		}
	}
	fenv := e.FormatsEnv(runtime.GOOS, "", nil)
	targets, _ := ExportTargets(e.Registry().All(), fenv, canonical.ScopeUser, false)
	p := emitters.PlanExport(targets, emitters.ExportOptions{Servers: canonical.Set{Servers: []canonical.Server{srv}},
		Allows: func(string, string) bool { return true }, Force: true})
	warnings := e.lostExtras(p)

	written := 0
	for _, fc := range p.Files {
		for _, tp := range fc.Targets {
			after, ok := tp.After.Get("api")
			if !ok {
				continue // this client cannot take a remote server (it says so itself)
			}
			written++
			name := tp.Target.Adapter.DisplayName()
			for from, keys := range extras {
				for key := range keys {
					if from == tp.Client {
						if _, kept := after.Extra[from][key]; !kept {
							t.Errorf("%s: its own key %q did not reach its file", tp.Client, key)
						}
						continue
					}
					named := false
					for _, d := range warnings {
						if d.Server == "api" && strings.Contains(d.Summary, name+" gets it without") && d.Field == from+"."+key {
							named = true
						}
					}
					if effect := formats.ExtraEffect(key); effect != "" && !named {
						t.Errorf("%s: %s's key %q (%s) is lost without a warning", tp.Client, from, key, effect)
					} else if effect == "" && named {
						t.Errorf("%s: %s's UI-only key %q is warned about", tp.Client, from, key)
					}
				}
			}
		}
	}
	if written < 15 {
		t.Fatalf("the server reached only %d clients; the matrix needs most of them", written)
	}
}
