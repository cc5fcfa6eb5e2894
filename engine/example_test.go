package engine_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/internal/xdg"
)

// sandbox is a temporary home with a store, and an engine that runs in it:
// no argv, no process environment, no streams.
func sandbox(store string) (*engine.Engine, string, func()) {
	home, err := os.MkdirTemp("", "mcpsync-example-")
	if err != nil {
		panic(err)
	}
	env := map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": filepath.Join(home, ".config"),
		"XDG_STATE_HOME": filepath.Join(home, ".local", "state"), "XDG_CACHE_HOME": filepath.Join(home, ".cache"),
	}
	getenv := func(k string) string { return env[k] }
	write(filepath.Join(home, ".config", "mcpsync", "mcpsync.hcl"), store)
	e := engine.New(engine.Env{Dirs: xdg.Resolve(getenv), Cwd: home, GOOS: runtime.GOOS, Getenv: getenv,
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	return e, home, func() { os.RemoveAll(home) }
}

func write(path, data string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		panic(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		panic(err)
	}
}

func read(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	return string(data)
}

const exampleStore = `server "github" {
  command = "npx"
  args    = ["-y", "@modelcontextprotocol/server-github"]
  env     = { GITHUB_PERSONAL_ACCESS_TOKEN = env("GITHUB_TOKEN") }
}
`

// Export plans writing the store's servers into Cursor's file, and Apply
// writes it (backed up, atomic, recorded in the ledger).
func ExampleEngine_Export() {
	e, home, done := sandbox(exampleStore)
	defer done()
	run, err := e.Export(engine.ExportOptions{To: []string{"cursor"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer run.Close()
	for _, fc := range run.Plan.Changes() {
		fmt.Println(fc.Kind, strings.TrimPrefix(fc.Path, home))
	}
	if _, err := run.Apply(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(read(filepath.Join(home, ".cursor", "mcp.json")))
	// Output:
	// create /.cursor/mcp.json
	// {
	//   "mcpServers": {
	//     "github": {
	//       "command": "npx",
	//       "args": [
	//         "-y",
	//         "@modelcontextprotocol/server-github"
	//       ],
	//       "env": {
	//         "GITHUB_PERSONAL_ACCESS_TOKEN": "${env:GITHUB_TOKEN}"
	//       }
	//     }
	//   }
	// }
}

// Import after an edit in the client: the three-way merge sees Cursor's
// change since mcpsync wrote the entry and takes it into the store, and
// the server added there alongside.
func ExampleEngine_Import() {
	e, home, done := sandbox(exampleStore)
	defer done()
	run, _ := e.Export(engine.ExportOptions{To: []string{"cursor"}})
	run.Apply()
	run.Close()
	write(filepath.Join(home, ".cursor", "mcp.json"), `{
  "mcpServers": {
    "github": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-github", "--read-only"],
      "env": { "GITHUB_PERSONAL_ACCESS_TOKEN": "${env:GITHUB_TOKEN}" }
    },
    "fetch": { "command": "uvx", "args": ["mcp-server-fetch"] }
  }
}
`)
	imp, err := e.Import(engine.ImportOptions{From: "cursor", Scope: "user"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer imp.Close()
	for _, o := range imp.Outcomes {
		fmt.Println(o.Action, o.Name)
	}
	if err := imp.Apply(); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(read(filepath.Join(home, ".config", "mcpsync", "mcpsync.hcl")))
	// Output:
	// updated github
	// added fetch
	// server "github" {
	//   command = "npx"
	//   args    = ["-y", "@modelcontextprotocol/server-github", "--read-only"]
	//   env     = { GITHUB_PERSONAL_ACCESS_TOKEN = env("GITHUB_TOKEN") }
	// }
	//
	// server "fetch" {
	//   command = "uvx"
	//   args    = ["mcp-server-fetch"]
	// }
}

// Sync carries an edit made in one client to the store and every other
// client that takes part.
func ExampleEngine_Sync() {
	e, home, done := sandbox(exampleStore)
	defer done()
	run, _ := e.Export(engine.ExportOptions{To: []string{"cursor", "codex"}})
	run.Apply()
	run.Close()
	cursor := filepath.Join(home, ".cursor", "mcp.json")
	write(cursor, strings.Replace(read(cursor), `"@modelcontextprotocol/server-github"`, `"@modelcontextprotocol/server-github",
        "--toolsets=repos"`, 1))
	sync, err := e.Sync(engine.SyncOptions{Scope: "user"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer sync.Close()
	for _, o := range sync.Result.Outcomes {
		fmt.Println(o.Line())
	}
	if _, err := sync.Apply(nil); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(read(filepath.Join(home, ".codex", "config.toml")))
	// Output:
	// github: changed in cursor -> store, codex
	// [mcp_servers.github]
	// command = "npx"
	// args = ["-y", "@modelcontextprotocol/server-github", "--toolsets=repos"]
	// env_vars = ["GITHUB_TOKEN"]
}
