// Package paste turns whatever a user pastes (a client's config file, a
// snippet from a README, one server object, a Codex TOML table, a command
// line) into canonical servers.
//
// # Shapes
//
// Parse detects JSON, JSONC (comments, trailing commas) and TOML, then finds
// the servers under any client's wrapper:
//
//	{"mcpServers": {…}}                    Claude Code, Claude Desktop, Cursor, Gemini, Windsurf, Kiro, Cline, Roo, …
//	{"projects": {"/dir": {"mcpServers"}}} Claude Code's ~/.claude.json (with its top-level mcpServers)
//	{"servers": {…}}                       VS Code mcp.json
//	{"mcp": {"servers": {…}}}              VS Code settings.json
//	{"mcp": {…}}                           OpenCode
//	{"context_servers": {…}}               Zed
//	{"amp.mcpServers": {…}}                Amp
//	[mcp_servers.NAME] / {"mcp_servers"}   Codex
//	{"NAME": {…}, …}                       a bare map of servers
//	{"command": …} or {"url": …}           one server; Options.Name (or its "name" key) names it
//	[{"name": …, …}]                       a list of servers, each with a "name" (Continue)
//
// A fragment, that is members without the outer braces, as READMEs often
// show them (`"github": {"command": …},`), is read by wrapping it in braces;
// positions still point into the user's text.
//
// # Spellings and repairs
//
// Every client's field spellings are read: type/transportType/transport
// (Cline's nested transport object too), command as a string, an array
// (OpenCode) or Zed's legacy {path, args, env}, cmd/envs/uri (Goose),
// environment (OpenCode), env_vars, http_headers, env_http_headers and
// bearer_token_env_var (Codex), url/serverUrl (Windsurf)/httpUrl (Gemini),
// enabled/disabled, tool allow and deny lists (enabled_tools,
// includeTools, available_tools, tools; disabled_tools, excludeTools,
// disabledTools), timeouts with each client's unit, and OAuth client settings.
//
// What clients disagree on is repaired and each repair is a warning at
// file:line:col: a url without a type (read as streamable HTTP), transport
// spellings other than stdio/http/sse (local, remote, streamable-http,
// streamableHttp, streamable_http), serverUrl and httpUrl, a command given
// as an array, a command line given as one string (split with shell quoting
// rules), args given as one string, a Windows `cmd /c` wrapper (removed;
// adapters add it back for Windows), and numbers or booleans where strings
// belong (env and header values, args): their text is what the user wrote,
// so the repair is safe. A spelling that is the identified client's own
// (OpenCode's "local") is not a repair and gives no warning. null or an
// object where a string belongs is an error.
//
// Errors: malformed JSON or TOML, empty input, no servers found, an unknown
// transport (the message lists the accepted spellings), a server with both a
// command and a url, and whatever canonical.Validate finds.
//
// # Placeholders
//
// References in every spelling (${VAR}, ${VAR:-d}, ${env:VAR}, {env:VAR},
// ${input:id}, ${{ secrets.VAR }}, ${workspaceFolder}, ${userHome}, and $VAR
// for Gemini-shaped entries) are re-spelled canonically (${VAR}). When the
// shape names its client for certain (Codex, OpenCode, VS Code), a reference
// that client would not have expanded is still read as a reference, with a
// warning.
//
// # Unknown keys
//
// Keys the model has no field for are kept verbatim in Server.Extra under
// one client id, chosen by this rule:
//  1. the client the wrapper names: "opencode" for "mcp", "vscode" for
//     "servers" and "mcp.servers", "zed" for "context_servers", "codex" for
//     TOML and "mcp_servers", "amp" for "amp.mcpServers", "claude-code" for
//     ~/.claude.json;
//  2. else a key only one client uses: a nested transport object or
//     transportType (cline), serverUrl (windsurf), httpUrl, trust,
//     includeTools, excludeTools (gemini), alwaysAllow, watchPaths (roo),
//     cmd, uri, envs (goose), environment or a command array (opencode),
//     envFile (cursor), Codex's own keys (codex);
//  3. else "claude-code", whose mcpServers shape the others copy.
//
// The same client decides the unit of a plain "timeout" key; where the unit
// is unknown (Claude Code), "timeout" stays in Extra.
package paste
