# Amp (verified with amp 0.0.1790142911).
#
# The server map is ONE dotted key at the top of settings.json,
# "amp.mcpServers", beside the other "amp.*" settings. No type: Amp detects
# the transport of a url. JSONC; amp mcp add keeps comments and trailing
# commas and writes no final newline. Workspace servers (.amp/settings.json)
# must be approved with amp mcp approve before they run. Amp's own tool
# switch ("amp.tools.disable") lives outside the entries and is left alone.
client "amp" {
  display_name     = "Amp"
  format           = "jsonc"
  servers          = ["amp.mcpServers"]
  url_without_type = "auto"
  # ${VAR} in args, env, url and headers, when VAR is set (verified with the
  # real amp: $VAR, ${VAR:-default} and ${env:VAR} reach the server as written)
  placeholders = "braced"

  location "user" {
    path = "${config_home}/amp/settings.json"
  }
  location "project" {
    path = "${project}/.amp/settings.json"
    note = "workspace servers run once approved with amp mcp approve"
  }

  fields {
    command = "command"
    args    = "args"
    env     = "env"
    url     = "url"
    headers = "headers"
  }

  transport "stdio" {}
  transport "http" {}
  transport "sse" {}

  new_file {
    final_newline = false
  }
}
