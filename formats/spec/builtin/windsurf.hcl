# Windsurf (Cascade), from its documentation.
#
# One file, user scope only. A remote server's url is written as serverUrl,
# which every Windsurf release reads; url is read too. Windsurf detects the
# remote transport itself (streamable HTTP, then SSE). It expands
# ${env:VAR} in command, args, env, serverUrl, url and headers. The UI
# writes "disabled" and "disabledTools".
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
  transport "sse" {}
}
