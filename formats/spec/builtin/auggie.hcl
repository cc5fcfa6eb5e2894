# Auggie, Augment Code's CLI (verified with auggie 0.36.0 from npm: what
# auggie mcp add writes and auggie mcp list --json reads, and its bundled
# SettingsManager).
#
# auggie mcp add writes ~/.augment/settings.json; --project writes
# .augment/settings.json, --local the gitignored .augment/settings.local.json.
# Auggie reads, first to last: /etc/augment/settings.json (managed; on
# Windows %ProgramData%\augment), the local file, the project file, the
# user file. Servers are under mcpServers with "type" stdio, http or sse
# (written on every entry; a url alone is read as http), command, args,
# env, url, headers; "disabled": true switches one off.
#
# Not verified: whether Auggie expands references (its settings never
# showed one expanded here), so mcpsync assumes none: a server that needs
# one is left out, with a warning saying why.
client "auggie" {
  display_name     = "Auggie"
  aliases          = ["augment"]
  format           = "json"
  placeholders     = "none"
  servers          = ["mcpServers"]
  url_without_type = "http"
  windows_cmd      = true
  precedence       = ["managed", "local", "project", "user"]
  precedence_note  = "Auggie reads the managed file, then .augment/settings.local.json, .augment/settings.json and the user file"

  location "user" {
    path = "${home}/.augment/settings.json"
  }
  location "project" {
    path = "${project}/.augment/settings.json"
  }
  location "local" {
    path = "${project}/.augment/settings.local.json"
    note = "this machine's servers for the project (auggie mcp add --local)"
  }
  location "managed" {
    os        = ["linux", "darwin"]
    path      = "/etc/augment/settings.json"
    read_only = true
    note      = "managed by an administrator"
  }
  location "managed" {
    os        = ["windows"]
    path      = "${env("ProgramData", "C:/ProgramData")}/augment/settings.json"
    read_only = true
    note      = "managed by an administrator"
  }

  fields {
    type     = "type"
    command  = "command"
    args     = "args"
    env      = "env"
    url      = "url"
    headers  = "headers"
    disabled = "disabled"
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

  key_order = ["type", "command", "args", "env", "url", "headers", "disabled"]
}
