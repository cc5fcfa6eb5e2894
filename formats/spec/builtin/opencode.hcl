# OpenCode (verified with opencode 1.18.33).
#
# Servers live under "mcp" with type local or remote; a local command is one
# array [command, args...] and its environment is "environment". Every file
# is JSONC. OpenCode inserts "$schema" into any file without one, so a file
# mcpsync creates starts with it.
client "opencode" {
  display_name     = "OpenCode"
  format           = "jsonc"
  placeholders     = "brace-env" # {env:VAR}
  servers          = ["mcp"]
  url_without_type = "invalid"
  type_required    = true # "Expected { type: \"local\", ... } | { type: \"remote\", ... }"

  # opencode mcp add creates opencode.jsonc; opencode.json is written instead
  # when it is the one that exists.
  location "user" {
    path = "${config_home}/opencode/opencode.jsonc"
  }
  location "user" {
    path        = "${config_home}/opencode/opencode.json"
    alternative = true
  }
  location "user" {
    path      = "${config_home}/opencode/config.json"
    read_only = true
    note      = "older name, still merged by OpenCode; mcpsync writes opencode.jsonc"
  }
  location "project" {
    path = "${project}/opencode.json"
  }
  location "project" {
    path        = "${project}/opencode.jsonc"
    alternative = true
  }
  location "project" {
    path      = "${project}/.opencode/opencode.json"
    read_only = true
    note      = "also merged by OpenCode; mcpsync writes opencode.json at the project root"
  }

  fields {
    type            = "type"
    command         = "command"
    command_array   = true
    env             = "environment"
    cwd             = "cwd"
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
  # OpenCode's remote transport falls back to SSE by itself.
  transport "sse" {
    type = "remote"
  }

  oauth {
    key              = "oauth"
    client_id        = "clientId"
    client_secret    = "clientSecret"
    scopes           = "scope"
    scopes_as_string = true
    callback_port    = "callbackPort"
    redirect_uri     = "redirectUri"
  }

  key_order = ["type", "command", "environment", "cwd", "url", "headers", "oauth", "enabled", "timeout"]

  new_file {
    schema        = "https://opencode.ai/config.json"
    final_newline = false
  }
}
