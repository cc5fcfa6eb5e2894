# Amazon Q Developer (IDE plugins and the q CLI).
#
# Checked against the project files of ../shared/corpus/wild/amazonq: a
# workspace .amazonq/mcp.json with "mcpServers" of local (stdio) servers,
# "disabled", and "autoApprove" (tools run without asking, kept as it is);
# remote servers appear there only through mcp-remote, which is how
# mcpsync writes them too (--bridge-remote). The user file is
# ~/.aws/amazonq/mcp.json. Amazon Q expands no references.
client "amazonq" {
  display_name = "Amazon Q Developer"
  format       = "json"
  servers      = ["mcpServers"]

  location "user" {
    path = "${home}/.aws/amazonq/mcp.json"
  }
  location "project" {
    path = "${project}/.amazonq/mcp.json"
  }

  fields {
    command  = "command"
    args     = "args"
    env      = "env"
    disabled = "disabled"
  }

  transport "stdio" {}
}
