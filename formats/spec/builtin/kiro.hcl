# Kiro (IDE and CLI), from its documentation.
#
# A user file and a workspace file (the workspace wins on a name clash).
# ${VAR} is expanded in env and headers. "disabled" switches a server off,
# "disabledTools" hides tools, "autoApprove" (tools run without asking) is
# kept as it is. A url is detected as streamable HTTP or SSE.
#
# Kiro CLI (the successor of the Amazon Q Developer CLI) reads the same two
# files (kiro.dev/docs/cli/mcp/configuration), and MCP servers of its agent
# configs. Its configuration table (kiro.dev/docs/cli/chat/configuration)
# lists ~/.kiro/settings/mcp.json and .kiro/settings/mcp.json only, not
# the Amazon Q CLI's ~/.aws/amazonq/mcp.json: that file stays the amazonq
# client's, for the Amazon Q IDE plugins and the q CLI still installed. Since Kiro CLI 2.4.0, and
# in the IDE (kiro.dev/docs/mcp/security), a ${VAR} is expanded only for a
# variable in the approved list, kiroAgent.mcpApprovedEnvVars in
# ~/.kiro/settings/cli.json; any other reaches the server as the text
# ${VAR}. mcpsync warns about such a reference and does not edit Kiro's
# settings itself.
client "kiro" {
  display_name = "Kiro"
  precedence   = ["project", "user"]
  precedence_note = "Kiro's workspace file wins on a name clash"
  format       = "json"
  placeholders = "dollar"
  servers      = ["mcpServers"]
  aliases      = ["kiro-cli"]

  approved_references {
    path = "${home}/.kiro/settings/cli.json"
    key  = "kiroAgent.mcpApprovedEnvVars"
    how  = "approve it in Kiro's popup or settings (MCP Approved Env Vars)"
  }

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
