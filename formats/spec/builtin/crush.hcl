# Crush, Charm's terminal coding agent (verified with the source of
# charmbracelet/crush at 37f36e9, 2026-08-21: internal/config/load.go,
# config.go, home/home.go, and README / docs/config).
#
# Crush reads JSON (crush.json, the original format, "deprecated but
# supported for the foreseeable future") and, since 2026, crushrc, a Bash
# script whose 'mcp add' lines set the same servers. mcpsync reads and
# writes the JSON files only; a crushrc in the same directory is merged over
# them by Crush, so a server a crushrc also defines keeps the crushrc's
# definition.
#
#   user:    $CRUSH_GLOBAL_CONFIG/crush.json, else $XDG_CONFIG_HOME (or
#            ~/.config, on Windows too)/crush/crush.json
#   project: .crush.json and crush.json, from the working directory up to
#            the git root (.crush.json wins)
#   data:    ~/.local/share/crush/crush.json (%LOCALAPPDATA% on Windows),
#            machine state Crush writes itself: read, never written
#   system:  /etc/crush/crush.json
#
# Servers are under "mcp"; "type" (stdio, http, sse) is required: an entry
# without one fails with "unsupported mcp type". command, args, env, url and
# headers run through Crush's shell expansion ($VAR, ${VAR}, ${VAR:-d},
# $(cmd)); timeout is in seconds.
client "crush" {
  display_name     = "Crush"
  format           = "json"
  placeholders     = "shell"
  servers          = ["mcp"]
  type_required    = true
  url_without_type = "invalid"
  precedence       = ["project", "user"]
  precedence_note  = "Crush merges every file, the project's over the user's"

  location "user" {
    path = "${env("CRUSH_GLOBAL_CONFIG", "${config_home}/crush")}/crush.json"
  }
  location "user" {
    os        = ["linux", "darwin"]
    path      = "${env("CRUSH_GLOBAL_DATA", "${env("XDG_DATA_HOME", "${home}/.local/share")}/crush")}/crush.json"
    read_only = true
    note      = "Crush's own state (OAuth tokens, its settings changes), merged over the user file; mcpsync does not write it"
  }
  location "user" {
    os        = ["windows"]
    path      = "${env("CRUSH_GLOBAL_DATA", "${env("LOCALAPPDATA", "${home}/AppData/Local")}/crush")}/crush.json"
    read_only = true
    note      = "Crush's own state (OAuth tokens, its settings changes), merged over the user file; mcpsync does not write it"
  }
  location "project" {
    path = "${project}/.crush.json"
  }
  location "project" {
    path        = "${project}/crush.json"
    alternative = true
  }
  location "managed" {
    os        = ["linux", "darwin"]
    path      = "/etc/crush/crush.json"
    read_only = true
    note      = "system config, read before the user's"
  }

  fields {
    type            = "type"
    command         = "command"
    args            = "args"
    env             = "env"
    url             = "url"
    headers         = "headers"
    disabled        = "disabled"
    tools_allow     = "enabled_tools"
    tools_deny      = "disabled_tools"
    startup_timeout = "timeout"
    timeout_unit    = "s"
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

  key_order = ["type", "command", "args", "env", "url", "headers", "disabled", "timeout"]

  new_file {
    schema        = "https://charm.land/crush.json"
    final_newline = true
    indent        = "  "
  }
}
