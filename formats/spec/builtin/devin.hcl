# Devin Desktop, the new name of the Windsurf editor since 2026-06-02
# (cognition.com/blog/introducing-devin-desktop), whose agents (Devin Local
# and the legacy Cascade) read MCP servers from mcp_config.json:
#   ~/.config/devin/mcp_config.json, on Windows %APPDATA%\devin\mcp_config.json;
#   a project's .devin/mcp_config.json;
#   a remote server's URL under url (Windsurf before the rename: serverUrl,
#   in ~/.codeium/windsurf/mcp_config.json, which the windsurf client keeps
#   writing for older installs).
# Sources: the MCP setup pages of Sevalla (docs.sevalla.com/ai-agents/windsurf)
# and Vaadin (vaadin.com/docs/latest/building-apps/agentic-development/mcp/
# supported-tools/devin-desktop); Devin's own MCP page was not reachable here.
#
# Not verified: which references Devin Desktop expands. Until a source says,
# mcpsync assumes none, so that no file gets a ${VAR} it would pass on as
# text: a server that needs one is left out, with a warning saying why.
client "devin" {
  display_name = "Devin Desktop"
  aliases      = ["devin-desktop"]
  format       = "json"
  placeholders = "none"
  servers      = ["mcpServers"]
  windows_cmd  = true

  location "user" {
    os   = ["linux", "darwin"]
    path = "${home}/.config/devin/mcp_config.json"
  }
  location "user" {
    os   = ["windows"]
    path = "${appdata}/devin/mcp_config.json"
  }
  location "project" {
    path = "${project}/.devin/mcp_config.json"
  }

  fields {
    command     = "command"
    args        = "args"
    env         = "env"
    url         = "url"
    url_aliases = ["serverUrl"]
    headers     = "headers"
    disabled    = "disabled"
    tools_deny  = "disabledTools"
  }

  transport "stdio" {}
  transport "http" {}
  transport "sse" {}
}
