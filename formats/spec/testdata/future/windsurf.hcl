# Windsurf (clients.md §10): serverUrl written, url read too; a disabled flag.
client "windsurf" {
  display_name = "Windsurf"
  format       = "json"
  placeholders = "env-colon"
  servers      = ["mcpServers"]
  windows_cmd  = true

  location "user" {
    path = "${home}/.codeium/windsurf/mcp_config.json"
  }

  fields {
    command     = "command"
    args        = "args"
    env         = "env"
    url         = "serverUrl"
    url_aliases = ["url"]
    headers     = "headers"
    disabled    = "disabled"
    tools_deny  = "disabledTools"
  }

  transport "stdio" {}
  transport "http" {}
}
