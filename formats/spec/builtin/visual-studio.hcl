# Visual Studio (2022 17.14 and later, 2026), whose GitHub Copilot agent
# reads MCP servers, from MicrosoftDocs/visualstudio-docs docs/ide/
# mcp-servers.md ("File locations for automatic discovery"), in order:
#   %USERPROFILE%\.mcp.json           every solution of the user
#   <SOLUTIONDIR>\.vs\mcp.json         this user, this solution
#   <SOLUTIONDIR>\.mcp.json            source-controlled with the repository
#   <SOLUTIONDIR>\.vscode\mcp.json, <SOLUTIONDIR>\.cursor\mcp.json
# in VS Code's format: servers under "servers", a url alone for a remote
# server. A solution's .mcp.json is Claude Code's project file too, in its
# own dialect (mcpServers), and .vscode/.cursor belong to those editors:
# mcpsync reads them here and writes Visual Studio's servers to .vs\mcp.json.
# Windows only.
#
# Not documented: which references Visual Studio expands, so mcpsync
# assumes none; a server that needs one is left out with a warning.
client "visual-studio" {
  display_name     = "Visual Studio"
  aliases          = ["vs", "visualstudio"]
  format           = "jsonc"
  placeholders     = "none"
  servers          = ["servers"]
  url_without_type = "auto"
  windows_cmd      = true
  precedence       = ["user", "local", "project"]
  precedence_note  = "Visual Studio reads %USERPROFILE%\\.mcp.json, then .vs\\mcp.json, then the solution's .mcp.json"

  location "user" {
    os   = ["windows"]
    path = "${home}/.mcp.json"
  }
  location "local" {
    os   = ["windows"]
    path = "${project}/.vs/mcp.json"
    note = "this user's servers for the solution"
  }
  location "project" {
    os        = ["windows"]
    path      = "${project}/.mcp.json"
    read_only = true
    note      = "shared with Claude Code, which reads mcpServers there; mcpsync writes Visual Studio's servers to .vs\\mcp.json"
  }

  fields {
    type    = "type"
    command = "command"
    args    = "args"
    env     = "env"
    url     = "url"
    headers = "headers"
  }

  transport "stdio" {
    type = "stdio"
  }
  transport "http" {
    type = "http"
  }
  transport "sse" {
    type = "sse"
  }
}
