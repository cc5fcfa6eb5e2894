# Claude Code (verified with claude 2.1.197).
#
# User servers live at the top of ~/.claude.json, a large file of unrelated
# state that must survive untouched; local servers live in the same file under
# projects["<absolute project dir>"]. claude itself writes two-space JSON with
# no final newline, "type": "stdio" on stdio entries, and rejects comments.
client "claude-code" {
  display_name     = "Claude Code"
  aliases          = ["claude", "claudecode"]
  precedence       = ["managed", "local", "project", "user"]
  precedence_note  = "Claude Code uses local over project over user (a managed file, when present, replaces them all)"
  format           = "json"
  placeholders     = "dollar" # ${VAR} and ${VAR:-default}
  servers          = ["mcpServers"]
  windows_cmd      = true
  url_without_type = "invalid" # "Skipped - command: expected string"

  location "user" {
    path = "${env("CLAUDE_CONFIG_DIR", home)}/.claude.json"
  }
  location "local" {
    path    = "${env("CLAUDE_CONFIG_DIR", home)}/.claude.json"
    servers = ["projects", project, "mcpServers"]
  }
  location "project" {
    path = "${project}/.mcp.json"
  }
  location "managed" {
    os        = ["linux"]
    path      = "/etc/claude-code/managed-mcp.json"
    read_only = true
    note      = "managed by an administrator: while it exists Claude Code ignores every other server"
  }
  location "managed" {
    os        = ["darwin"]
    path      = "/Library/Application Support/ClaudeCode/managed-mcp.json"
    read_only = true
    note      = "managed by an administrator: while it exists Claude Code ignores every other server"
  }
  location "managed" {
    os        = ["windows"]
    path      = "C:/Program Files/ClaudeCode/managed-mcp.json"
    read_only = true
    note      = "managed by an administrator: while it exists Claude Code ignores every other server"
  }

  fields {
    type    = "type"
    command = "command"
    args    = "args"
    env     = "env"
    url     = "url"
    headers = "headers"
    # cwd is not supported: Claude Code ignores it and starts servers in the project.
  }

  transport "stdio" {
    type = "stdio"
  }
  transport "http" {
    type    = "http"
    aliases = ["streamable-http"]
  }
  transport "sse" {
    type = "sse"
  }

  oauth {
    key                      = "oauth"
    client_id                = "clientId"
    scopes                   = "scopes"
    scopes_as_string         = true
    callback_port            = "callbackPort"
    auth_server_metadata_url = "authServerMetadataUrl"
  }

  new_file {
    final_newline = false
  }
}
