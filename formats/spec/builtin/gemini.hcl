# Gemini CLI (verified with gemini 0.61.0).
#
# settings.json holds every Gemini setting; the servers are under the
# top-level "mcpServers". Comments are allowed, trailing commas are fatal
# (exit 52), so a file mcpsync edits never gets one. Every string of the
# file is expanded at load: $VAR, ${VAR} and ${VAR:-default}, not ${env:VAR}.
#
# A url alone is streamable HTTP; gemini mcp add writes url + "type": "http"
# (or "sse"). httpUrl is the deprecated spelling of streamable HTTP: read,
# never written (the Go quirk warns about it). Project files are loaded only
# in folders trusted in ~/.gemini/trustedFolders.json. Switching a server off
# is not a key of its entry but ~/.gemini/mcp-server-enablement.json, which
# mcpsync does not write: a disabled server is not written, with a warning.
client "gemini" {
  display_name     = "Gemini CLI"
  aliases          = ["gemini-cli"]
  format           = "json-comments"
  # $VAR, ${VAR}, ${VAR:-default}, resolved in every string of the settings
  # file at load, a bash -lc line in args included (verified with a spawned-
  # process dump: reference/clients.md, Gemini CLI, "Placeholders"); mcpsync
  # warns of a bare $NAME in what it writes there.
  placeholders     = "shell"
  servers          = ["mcpServers"]
  quirks           = "gemini"
  url_without_type = "http" # 0.61; releases before 0.5 read it as SSE

  location "user" {
    path = "${env("GEMINI_CLI_HOME", home)}/.gemini/settings.json"
    note = "servers switched off with gemini mcp disable are listed in mcp-server-enablement.json beside it, which mcpsync does not read"
  }
  location "project" {
    path = "${project}/.gemini/settings.json"
    note = "Gemini CLI reads it only in a folder trusted in ~/.gemini/trustedFolders.json"
  }
  location "managed" {
    os        = ["linux"]
    path      = env("GEMINI_CLI_SYSTEM_SETTINGS_PATH", "/etc/gemini-cli/settings.json")
    read_only = true
    note      = "system settings: an administrator's, merged over the user's"
  }
  location "managed" {
    os        = ["darwin"]
    path      = env("GEMINI_CLI_SYSTEM_SETTINGS_PATH", "/Library/Application Support/GeminiCli/settings.json")
    read_only = true
    note      = "system settings: an administrator's, merged over the user's"
  }
  location "managed" {
    os        = ["windows"]
    path      = env("GEMINI_CLI_SYSTEM_SETTINGS_PATH", "C:/ProgramData/gemini-cli/settings.json")
    read_only = true
    note      = "system settings: an administrator's, merged over the user's"
  }

  fields {
    type         = "type"
    command      = "command"
    args         = "args"
    env          = "env"
    cwd          = "cwd"
    url          = "url"
    headers      = "headers"
    tools_allow  = "includeTools"
    tools_deny   = "excludeTools"
    tool_timeout = "timeout"
    timeout_unit = "ms"
  }

  transport "stdio" {
    type       = "stdio"
    write_type = false
  }
  transport "http" {
    type          = "http"
    read_url_keys = ["httpUrl"]
  }
  transport "sse" {
    type = "sse"
  }

  oauth {
    key           = "oauth"
    client_id     = "clientId"
    client_secret = "clientSecret"
    scopes        = "scopes"
    redirect_uri  = "redirectUri"
  }

  # gemini mcp add writes url, then type, then headers
  key_order = ["command", "args", "env", "cwd", "url", "type", "headers"]

  new_file {
    final_newline = false
  }
}
