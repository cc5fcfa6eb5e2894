# Kiro (IDE and CLI), from its documentation.
#
# A user file and a workspace file (the workspace wins on a name clash).
# ${VAR} is expanded in env and headers. "disabled" switches a server off,
# "disabledTools" hides tools, "autoApprove" (tools run without asking) is
# kept as it is. A url is detected as streamable HTTP or SSE.
client "kiro" {
  display_name = "Kiro"
  precedence   = ["project", "user"]
  precedence_note = "Kiro's workspace file wins on a name clash"
  format       = "json"
  placeholders = "dollar"
  servers      = ["mcpServers"]

  location "user" {
    path = "${home}/.kiro/settings/mcp.json"
  }
  location "project" {
    path = "${project}/.kiro/settings/mcp.json"
  }

  fields {
    command    = "command"
    args       = "args"
    env        = "env"
    url        = "url"
    headers    = "headers"
    disabled   = "disabled"
    tools_deny = "disabledTools"
  }

  transport "stdio" {}
  transport "http" {}
  transport "sse" {}
}
