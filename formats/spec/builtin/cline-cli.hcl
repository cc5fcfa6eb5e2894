# Cline CLI 3.x (verified with cline 3.0.65).
#
# ~/.cline/data/settings/cline_mcp_settings.json ($CLINE_DIR moves ~/.cline).
# cline mcp add writes each server's transport nested:
#   "name": {"transport": {"type": "stdio", "command": ..., "args": [...]}}
# with "disabled", "timeout" (seconds) and "oauthClient" beside it. The CLI
# also reads the extension's flat entries (a url without type is SSE,
# "transportType": "http" is streamable HTTP). The Go quirk reads both
# shapes, writes new servers nested, and keeps a flat entry flat. Cline
# expands no references.
client "cline-cli" {
  display_name     = "Cline CLI"
  format           = "json"
  servers          = ["mcpServers"]
  quirks           = "cline-cli"
  url_without_type = "sse"

  location "user" {
    path = "${env("CLINE_DIR", "${home}/.cline")}/data/settings/cline_mcp_settings.json"
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

  oauth {
    key           = "oauthClient"
    client_id     = "clientId"
    client_secret = "clientSecret"
  }

  key_order = ["type", "command", "args", "env", "cwd", "url", "headers"]
}
