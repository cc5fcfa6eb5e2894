# Cursor (documented). Cursor is a VS Code fork and reads mcp.json as JSONC,
# as users rely on (commented-out servers are common in the wild), so
# comments and trailing commas a user wrote are kept; mcpsync never adds any.
#
# Cursor detects the remote transport itself, so a remote entry is a plain
# url; it reads ${env:VAR} and the editor variables.
client "cursor" {
  display_name     = "Cursor"
  format           = "jsonc"
  placeholders     = "env-colon"
  servers          = ["mcpServers"]
  windows_cmd      = true
  url_without_type = "auto"

  location "user" {
    path = "${home}/.cursor/mcp.json"
  }
  location "project" {
    path = "${project}/.cursor/mcp.json"
  }

  fields {
    type    = "type"
    command = "command"
    args    = "args"
    env     = "env"
    url     = "url"
    headers = "headers"
  }

  transport "stdio" {
    type       = "stdio"
    write_type = false
  }
  transport "http" {
    type       = "http"
    aliases    = ["streamable-http", "streamableHttp"]
    write_type = false
  }
  transport "sse" {
    type       = "sse"
    write_type = false
  }

  oauth {
    key           = "auth"
    client_id     = "CLIENT_ID"
    client_secret = "CLIENT_SECRET"
    scopes        = "scopes"
  }
}
