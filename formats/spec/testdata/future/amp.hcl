# Amp (clients.md §17): the server map is ONE dotted key, "amp.mcpServers";
# no type, the transport is detected.
client "amp" {
  display_name     = "Amp"
  format           = "jsonc"
  servers          = ["amp.mcpServers"]
  url_without_type = "auto"

  location "user" {
    path = "${config_home}/amp/settings.json"
  }
  location "project" {
    path = "${project}/.amp/settings.json"
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

  new_file {
    final_newline = false
  }
}
