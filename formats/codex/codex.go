// Package codex reads and writes the MCP servers of OpenAI's Codex CLI:
// [mcp_servers.NAME] tables in ~/.codex/config.toml ($CODEX_HOME) and in a
// project's .codex/config.toml.
//
// Codex expands no placeholder. A reference in the canonical model is
// written in the structural form Codex has instead: an env value ${NAME}
// becomes env_vars = ["NAME"], an "Authorization: Bearer ${NAME}" header
// becomes bearer_token_env_var, any other header ${NAME} becomes
// env_http_headers. What has no such form is written literally, with a
// warning that names the server and the field.
//
// Codex has no SSE transport. An SSE server is not written (a warning says
// so, and an entry of that name already in the file is left as it is):
// Codex would speak streamable HTTP to the SSE endpoint, which fails at
// start-up in a way that is harder to diagnose than a server that is
// plainly missing. A type key (other clients' spelling) is ignored by Codex
// and kept as an unknown key.
//
// On Windows, npx, npm, pnpm, yarn and bunx are .cmd scripts that Codex
// (Rust's Command) cannot start: with EncodeOptions.OS "windows" they are
// written as cmd /c npx ..., and read back unwrapped.
//
// Edits go through formats/internal/tomledit: only the servers that change
// are touched, key by key, so comments and the rest of config.toml stay as
// the user wrote them (codex mcp add itself drops the comments inside every
// server table).
package codex

import (
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/internal/adapterkit"
)

// ID is the client id users type.
const ID = "codex"

// section is the table that holds the servers.
const section = "mcp_servers"

type adapter struct{}

// Adapter returns the Codex CLI adapter.
func Adapter() formats.Adapter { return adapter{} }

func (adapter) ID() string          { return ID }
func (adapter) DisplayName() string { return "Codex CLI" }

func (adapter) Capabilities() formats.Capabilities {
	return formats.Capabilities{
		Transports:  []canonical.Transport{canonical.Stdio, canonical.HTTP},
		Headers:     true,
		Cwd:         true,
		Disabled:    true,
		ToolFilters: true,
		Timeouts:    true,
		OAuth:       true,
		Comments:    true,
		Dialect:     canonical.DialectNone.Name,
	}
}

// Locations returns the user file ($CODEX_HOME/config.toml, else
// ~/.codex/config.toml) and, with a project, <project>/.codex/config.toml.
func (adapter) Locations(env formats.Env) []formats.Location {
	var locs []formats.Location
	home := env.Get("CODEX_HOME")
	if home == "" && env.Home != "" {
		home = adapterkit.JoinPath(env.PathOS(), env.Home, ".codex")
	}
	if home != "" {
		locs = append(locs, formats.Location{
			Client: ID, Scope: canonical.ScopeUser, Format: formats.TOML,
			Path: adapterkit.JoinPath(env.PathOS(), home, "config.toml"),
		})
	}
	if env.ProjectDir != "" {
		locs = append(locs, formats.Location{
			Client: ID, Scope: canonical.ScopeProject, Format: formats.TOML,
			Path: adapterkit.JoinPath(env.PathOS(), env.ProjectDir, ".codex", "config.toml"),
			Note: "Codex reads a project's .codex/config.toml only when the user file trusts the project: " +
				`[projects."` + env.ProjectDir + `"] trust_level = "trusted"`,
		})
	}
	return locs
}

// Shape implements formats.Shaper: [mcp_servers.NAME] tables, no type key
// (a url is streamable HTTP), no references expanded in the strings, and
// the timeout keys in seconds (startup also in milliseconds).
func (adapter) Shape() formats.Shape {
	return formats.Shape{Client: ID, Servers: [][]string{{"mcp_servers"}}, Dialect: canonical.DialectNone,
		Types: map[string]canonical.Transport{}, URLWithoutType: "http",
		Timeouts: map[string]formats.Timeout{
			"startup_timeout_sec": {Unit: time.Second, Startup: true},
			"startup_timeout_ms":  {Unit: time.Millisecond, Startup: true},
			"tool_timeout_sec":    {Unit: time.Second},
		}}
}

// Aliases implements formats.Aliaser.
func (adapter) Aliases() []string { return []string{"codex-cli"} }

// OwnedByClient implements formats.ClientOwner: Codex Desktop adds
// [mcp_servers.node_repl] itself, running its own bundled node, and puts it
// back when it is removed; it is not a server to sync elsewhere.
func (adapter) OwnedByClient(srv canonical.Server) string {
	if srv.Name != "node_repl" || srv.Transport != canonical.Stdio {
		return ""
	}
	for _, part := range append([]string{srv.Command}, srv.Args...) {
		if strings.Contains(strings.ToLower(part), "codex") {
			return "Codex Desktop writes node_repl itself and runs it with its own node"
		}
	}
	return ""
}
