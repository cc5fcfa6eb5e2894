// Package policy renders the administrator's layer of each AI client from
// one list of servers, and simulates each vendor's matcher, so that an
// organisation keeps one list and can see, before a file is shipped, which
// of a machine's servers a client would refuse.
//
// The vendors' rules, each from its own documentation or code (see
// VENDORS.md beside this file for the sources):
//
//   - Claude Code: managed-mcp.json (exclusive: only its servers load) and
//     managed settings (allowManagedMcpServersOnly, allowedMcpServers,
//     deniedMcpServers with serverName, serverCommand, serverUrl entries),
//     in /etc/claude-code, /Library/Application Support/ClaudeCode or
//     C:\Program Files\ClaudeCode. The denylist wins; a stdio server must
//     match a serverCommand entry exactly (every argument, in order) when
//     the allowlist has any, a remote one a serverUrl pattern (* wildcards,
//     host case-insensitive, no path = any path) when it has any; a name
//     counts only otherwise.
//   - Codex: requirements.toml (/etc/codex, C:\ProgramData\OpenAI\Codex)
//     with [mcp_servers.NAME.identity] command = "…" or url = "…": once
//     mcp_servers is set, a server is enabled only when its name is listed
//     and its command (the program alone) or its streamable HTTP URL is
//     the identity's, exactly.
//   - Gemini CLI: the system settings.json (/etc/gemini-cli, C:\ProgramData\
//     gemini-cli, /Library/Application Support/GeminiCli; overridden by
//     GEMINI_CLI_SYSTEM_SETTINGS_PATH), whose mcpServers take precedence
//     over the user's and whose mcp.allowed names the only servers that run.
//
// On Windows mcpsync writes npx and its kin as cmd /c npx …; Claude
// matches the command array as the file holds it, so the Windows policy
// lists both forms, and Codex's identity for such a server is cmd.
package policy
