# Roo Code (clients.md §14): a url needs a type, streamable-http; timeouts in
# seconds; alwaysAllow and watchPaths are kept as unknown keys.
client "roo" {
  display_name     = "Roo Code"
  format           = "json"
  placeholders     = "env-colon"
  servers          = ["mcpServers"]
  url_without_type = "invalid"

  location "user" {
    os   = ["linux"]
    path = "${config_home}/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"
  }
  location "project" {
    path = "${project}/.roo/mcp.json"
  }

  fields {
    type         = "type"
    command      = "command"
    args         = "args"
    env          = "env"
    cwd          = "cwd"
    url          = "url"
    headers      = "headers"
    disabled     = "disabled"
    tools_deny   = "disabledTools"
    tool_timeout = "timeout"
    timeout_unit = "s"
  }

  transport "stdio" {
    type       = "stdio"
    write_type = false
  }
  transport "http" {
    type = "streamable-http"
  }
  transport "sse" {
    type = "sse"
  }
}
