# Devin CLI ("Devin for Terminal", formerly Windsurf CLI), Cognition's
# terminal agent. From its docs (docs.devin.ai/cli/extensibility/mcp/
# configuration and docs.devin.ai/cli/reference/configuration/config-file,
# also served at cli.devin.ai and cli.windsurf.com, 2026-12):
#   ~/.config/devin/config.json, on Windows %APPDATA%\devin\config.json
#     (every CLI setting; the servers are under "mcpServers");
#   a project's .devin/config.json (committed) and .devin/config.local.json
#     (gitignored: devin mcp add writes here by default);
#   before the rename, .cognition/config.json and .cognition/config.local.json.
# JSON "with comment support". A stdio server has command, args, env; a
# remote one url, headers and an optional "transport": "http" (the default,
# falling back to SSE on a 4xx) or "sse".
#
# Not documented: which references Devin CLI expands. The docs keep secrets
# in config.local.json instead, so mcpsync assumes none: a server that needs
# a reference is left out, with a warning saying why.
client "devin-cli" {
  display_name     = "Devin CLI"
  aliases          = ["devin-terminal"]
  format           = "json-comments"
  placeholders     = "none"
  servers          = ["mcpServers"]
  url_without_type = "auto"
  windows_cmd      = true
  precedence       = ["local", "project", "user"]
  precedence_note  = "Devin CLI merges .devin/config.local.json over .devin/config.json over the user file"

  location "user" {
    os   = ["linux", "darwin"]
    path = "${home}/.config/devin/config.json"
  }
  location "user" {
    os   = ["windows"]
    path = "${appdata}/devin/config.json"
  }
  location "project" {
    path = "${project}/.devin/config.json"
  }
  location "project" {
    path      = "${project}/.cognition/config.json"
    read_only = true
    note      = "the name before Devin CLI's rename, still read; mcpsync writes .devin/config.json"
  }
  location "local" {
    path = "${project}/.devin/config.local.json"
    note = "gitignored: this machine's servers for the project, where devin mcp add writes by default"
  }
  location "local" {
    path      = "${project}/.cognition/config.local.json"
    read_only = true
    note      = "the name before Devin CLI's rename, still read; mcpsync writes .devin/config.local.json"
  }

  fields {
    type    = "transport"
    command = "command"
    args    = "args"
    env     = "env"
    url     = "url"
    headers = "headers"
  }

  transport "stdio" {
    type = ""
  }
  transport "http" {
    type       = "http"
    write_type = false
  }
  transport "sse" {
    type = "sse"
  }
}
