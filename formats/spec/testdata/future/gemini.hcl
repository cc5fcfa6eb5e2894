# Gemini CLI 0.61 (clients.md §7): comments allowed, trailing commas fatal;
# httpUrl is read as streamable HTTP (deprecated), url + type is written.
client "gemini" {
  display_name     = "Gemini CLI"
  format           = "json-comments"
  placeholders     = "shell" # $VAR, ${VAR}, ${VAR:-default}
  servers          = ["mcpServers"]
  url_without_type = "http"

  location "user" {
    path = "${env("GEMINI_CLI_HOME", home)}/.gemini/settings.json"
  }
  location "project" {
    path = "${project}/.gemini/settings.json"
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

  transport "stdio" {}
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

  key_order = ["command", "args", "env", "cwd", "url", "type", "headers"]
  new_file {
    final_newline = false
  }
}
