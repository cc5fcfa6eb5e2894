# Kilo CLI (Kilo Code's terminal agent, an OpenCode fork; verified with
# kilo 7.7.7 from npm: @kilocode/cli with @kilocode/cli-linux-x64).
#
# kilo mcp add writes ~/.config/kilo/kilo.jsonc (XDG config home, "kilo
# debug paths"). kilo mcp list also loads ~/.config/kilo/opencode.json, and
# in a project kilo.json, kilo.jsonc, opencode.json and .kilo/kilo.json;
# it does not read ~/.config/opencode or .kilocode/mcp.json. The entries are
# OpenCode's: "type" local (command as one array) or remote (url, headers),
# "environment", "enabled", "timeout" in ms.
#
# References: {env:VAR} is expanded in the user file (a server started from
# it saw the value), but a project file that holds a {env:…} reference is
# dropped whole, silently, with every server in it: mcpsync writes no
# reference into a project file (placeholder_scopes).
client "kilo" {
  display_name       = "Kilo CLI"
  aliases            = ["kilocode", "kilo-code"]
  format             = "jsonc"
  placeholders       = "brace-env"
  placeholder_scopes = ["user"]
  servers            = ["mcp"]
  url_without_type   = "invalid"
  type_required      = true

  location "user" {
    path = "${config_home}/kilo/kilo.jsonc"
  }
  location "user" {
    path        = "${config_home}/kilo/kilo.json"
    alternative = true
  }
  location "user" {
    path      = "${config_home}/kilo/opencode.json"
    read_only = true
    note      = "OpenCode's name, still merged by Kilo; mcpsync writes kilo.jsonc"
  }
  location "project" {
    path = "${project}/kilo.json"
  }
  location "project" {
    path        = "${project}/kilo.jsonc"
    alternative = true
  }
  location "project" {
    path      = "${project}/.kilo/kilo.json"
    read_only = true
    note      = "also merged by Kilo; mcpsync writes kilo.json at the project root"
  }

  fields {
    type            = "type"
    command         = "command"
    command_array   = true
    env             = "environment"
    url             = "url"
    headers         = "headers"
    enabled         = "enabled"
    startup_timeout = "timeout"
    timeout_unit    = "ms"
  }

  transport "stdio" {
    type = "local"
  }
  transport "http" {
    type = "remote"
  }
  transport "sse" {
    type = "remote"
  }

  key_order = ["type", "command", "environment", "url", "headers", "enabled", "timeout"]

  new_file {
    schema        = "https://app.kilo.ai/config.json"
    final_newline = true
  }
}
