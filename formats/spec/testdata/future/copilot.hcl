# GitHub Copilot CLI 1.0.102 (clients.md §9): $COPILOT_HOME, strict JSON,
# "tools" written first.
client "copilot" {
  display_name     = "Copilot CLI"
  format           = "json"
  placeholders     = "dollar"
  servers          = ["mcpServers"]
  url_without_type = "http"

  location "user" {
    path = "${env("COPILOT_HOME", "${home}/.copilot")}/mcp-config.json"
  }
  location "project" {
    path = "${project}/.mcp.json"
  }
  location "project" {
    path      = "${project}/.github/mcp.json"
    read_only = true
  }

  fields {
    type         = "type"
    command      = "command"
    args         = "args"
    env          = "env"
    url          = "url"
    headers      = "headers"
    tools_allow  = "tools"
    tool_timeout = "timeout"
  }

  transport "stdio" {
    type    = "local"
    aliases = ["stdio"]
  }
  transport "http" {
    type    = "http"
    aliases = ["streamable-http"]
  }
  transport "sse" {
    type = "sse"
  }

  key_order = ["tools", "timeout", "type", "command", "args", "env", "url", "headers"]
}
