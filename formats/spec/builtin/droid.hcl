# Factory's Droid CLI (verified with droid 0.225.2 from npm: @factory/cli
# with @factory/cli-linux-x64; and docs.factory.ai/cli/configuration/mcp).
#
# droid mcp add writes ~/.factory/mcp.json; a project's .factory/mcp.json is
# read too (droid mcp list marks each server [user] or [project]). Servers
# are under mcpServers; droid writes "type" (stdio, http, sse) on every
# entry, and an entry with a url but no type is taken as a stdio server
# without a command, which fails to start. disabled and disabledTools
# switch a server or its tools off.
#
# References, as a spawned server and a logging HTTP endpoint saw them:
# ${VAR} and ${VAR:-default} are expanded in env values and headers only;
# command, args and url are passed as written, and a bare $VAR is not
# expanded anywhere.
client "droid" {
  display_name       = "Droid"
  aliases            = ["factory", "factory-droid"]
  format             = "json"
  placeholders       = "dollar"
  placeholder_fields = ["env", "headers"]
  servers            = ["mcpServers"]
  url_without_type   = "invalid"
  windows_cmd        = true

  location "user" {
    path = "${home}/.factory/mcp.json"
  }
  location "project" {
    path = "${project}/.factory/mcp.json"
  }

  fields {
    type       = "type"
    command    = "command"
    args       = "args"
    env        = "env"
    url        = "url"
    headers    = "headers"
    disabled   = "disabled"
    tools_deny = "disabledTools"
  }

  transport "stdio" {
    type = "stdio"
  }
  transport "http" {
    type = "http"
  }
  transport "sse" {
    type = "sse"
  }

  key_order = ["type", "command", "args", "env", "url", "headers", "disabled", "disabledTools"]
}
