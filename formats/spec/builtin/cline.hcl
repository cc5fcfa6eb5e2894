# Cline, the VS Code extension, from its source (cline/cline schemas.ts).
#
# Its file is in VS Code's globalStorage (Cursor, Windsurf and Insiders keep
# their own copy under their user directory). Flat entries: "type" is
# "stdio", "sse" or "streamableHttp", and a url WITHOUT a type is SSE.
# "disabled" switches a server off, "autoApprove" (tools run without asking)
# is kept as it is, "timeout" is in seconds. The Go quirk reads the legacy
# "transportType" key. Cline expands no references.
client "cline" {
  display_name     = "Cline"
  format           = "json"
  servers          = ["mcpServers"]
  quirks           = "cline"
  url_without_type = "sse"

  location "user" {
    os   = ["linux"]
    path = "${config_home}/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"
  }
  location "user" {
    os   = ["darwin"]
    path = "${home}/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"
  }
  location "user" {
    os   = ["windows"]
    path = "${appdata}/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"
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
    tool_timeout = "timeout"
    timeout_unit = "s"
  }

  transport "stdio" {
    type = "stdio"
  }
  transport "http" {
    type = "streamableHttp"
  }
  transport "sse" {
    type = "sse"
  }

  key_order = ["type", "command", "args", "env", "cwd", "url", "headers"]
}
