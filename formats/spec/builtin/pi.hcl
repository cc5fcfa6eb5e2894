# Pi coding agent, verified with pi 1.6.0 from npm (@earendil-works/pi-coding-agent,
# Node 22; the package was @mariozechner/pi-coding-agent up to 0.73, which had
# no MCP): its docs/mcp.md, the config loader (dist/extensions/mcp/config.js),
# @earendil-works/pi-mcp's validateMcpServerConfig, and files pi mcp add wrote.
#
# ~/.pi/agent/mcp.json ($PI_CODING_AGENT_DIR/mcp.json) and, in a trusted project
# (pi --approve, /trust, ~/.pi/agent/trust.json), .pi/mcp.json, which replaces
# a user server of the same name. A project entry with no command, url or type
# only overrides enabled, exposure and toolExposure of the user's server. Plain
# JSON (JSON.parse); pi writes two-space JSON with a final newline.
#
# Server names are letters, digits, "_" and "-" (names that differ only in "-"
# and "_" clash). "type" is optional (stdio, http, streamable-http); "sse" is
# rejected: Pi has no SSE client. timeout is per request, in seconds.
# description, exposure, toolExposure and auth are Pi's own, kept as written.
#
# References: $VAR and ${VAR} in env and headers (and oauth.clientSecret) only,
# no defaults, and an unset variable stops the server; $$ is "$". command, args
# and cwd get only "~/" expanded, url nothing. A value in env or headers that
# starts with "!" is run as a shell command and its output used; "$!" is a
# literal "!".
#
# With the pi-mcp-adapter extension installed, Pi's sessions read these files
# through it instead (it also reads .mcp.json and ~/.config/mcp/mcp.json, and
# switches a server off with "disabled", not "enabled"); pi mcp commands always
# use the built-in support, which is what this spec describes.
client "pi" {
  display_name       = "Pi"
  aliases            = ["pi-coding-agent"]
  format             = "json"
  placeholders       = "shell-no-default"
  placeholder_fields = ["env", "headers"]
  servers            = ["mcpServers"]
  url_without_type   = "http"
  windows_cmd        = true
  precedence         = ["project", "user"]
  precedence_note    = "Pi's project file (.pi/mcp.json, read in a trusted project) replaces a user server of the same name"

  location "user" {
    path = "${env("PI_CODING_AGENT_DIR", "${home}/.pi/agent")}/mcp.json"
  }
  location "project" {
    path = "${project}/.pi/mcp.json"
    note = "read only in a project Pi trusts (pi --approve, or /trust)"
  }

  fields {
    type         = "type"
    command      = "command"
    args         = "args"
    env          = "env"
    cwd          = "cwd"
    url          = "url"
    headers      = "headers"
    enabled      = "enabled"
    tool_timeout = "timeout"
    timeout_unit = "s"
  }

  transport "stdio" {
    type       = "stdio"
    write_type = false
  }
  transport "http" {
    type       = "http"
    aliases    = ["streamable-http"]
    write_type = false
  }

  oauth {
    key                      = "oauth"
    client_id                = "clientId"
    client_secret            = "clientSecret"
    scopes                   = "scope"
    scopes_as_string         = true
    callback_port            = "callbackPort"
    auth_server_metadata_url = "authServerMetadataUrl"
  }

  command_values {
    prefix  = "!"
    literal = "$!"
    fields  = ["env", "headers", "oauth.clientSecret"]
  }

  server_names {
    pattern = "^[A-Za-z0-9_-]+$"
    rule    = "letters, digits, \"_\" and \"-\""
  }

  key_order = ["command", "args", "env", "cwd", "url", "headers", "oauth", "enabled", "timeout"]
}
