# Roo Code, from its source (src/services/mcp/McpHub.ts).
#
# Parsed with plain JSON.parse: no comments. A url needs an explicit type,
# "sse" or "streamable-http" ("Configuration with 'url' must explicitly
# specify 'type'"); for a command the type is optional. Timeouts are in
# seconds (1 to 3600). alwaysAllow (tools run without asking) and watchPaths
# are kept as they are. ${env:VAR} and ${workspaceFolder} are expanded.
client "roo" {
  display_name     = "Roo Code"
  aliases      = ["roo-code"]
  precedence   = ["project", "user"]
  precedence_note = "Roo Code's project server wins on a name clash"
  format           = "json"
  placeholders     = "env-colon"
  servers          = ["mcpServers"]
  url_without_type = "invalid"

  location "user" {
    os   = ["linux"]
    path = "${config_home}/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"
  }
  location "user" {
    os   = ["darwin"]
    path = "${home}/Library/Application Support/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"
  }
  location "user" {
    os   = ["windows"]
    path = "${appdata}/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json"
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
