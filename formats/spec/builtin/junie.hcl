# JetBrains Junie, from its documentation.
#
# A user file and a project file, "mcpServers" without a type. The IDE
# plugin documents local (stdio) servers only, so mcpsync writes remote
# servers for Junie only through mcp-remote (--bridge-remote) and otherwise
# skips them with a warning; the Junie CLI's url entries are left as they
# are. There is no way to switch a server off in the file. Junie documents
# no reference expansion.
client "junie" {
  display_name = "JetBrains Junie"
  format       = "json"
  servers      = ["mcpServers"]

  location "user" {
    path = "${home}/.junie/mcp/mcp.json"
  }
  location "project" {
    path = "${project}/.junie/mcp/mcp.json"
  }

  fields {
    command = "command"
    args    = "args"
    env     = "env"
  }

  transport "stdio" {}
}
