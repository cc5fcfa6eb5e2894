# VS Code (from its source, mcpConfiguration.ts, and docs).
#
# Servers live in mcp.json under "servers", next to "inputs": prompts that
# ${input:id} references ask for. Before mcp.json, servers lived in
# settings.json under "mcp"; mcpsync reads them there but does not write them.
#
# VS Code's Copilot harness (its agent sessions) does not read this file: it
# reads the portable Copilot files, a workspace's .mcp.json and
# $COPILOT_HOME/mcp-config.json (else ~/.copilot/mcp-config.json), which the
# Copilot CLI client writes, in Copilot CLI's spelling; VS Code forwards the
# servers of mcp.json to a session except those needing ${input:} prompts
# (code.visualstudio.com/docs/agents/reference/mcp-configuration, 2026-11-25).
# The copilot spec names the harness as another reader of those files.
client "vscode" {
  display_name     = "VS Code"
  aliases          = ["code", "vs-code"]
  format           = "jsonc"
  placeholders     = "vscode" # ${env:VAR}, ${input:id}, editor variables
  servers          = ["servers"]
  quirks           = "vscode"
  url_without_type = "http" # http, falling back to SSE

  location "user" {
    os   = ["linux"]
    path = "${config_home}/Code/User/mcp.json"
  }
  location "user" {
    os   = ["darwin"]
    path = "${home}/Library/Application Support/Code/User/mcp.json"
  }
  location "user" {
    os   = ["windows"]
    path = "${appdata}/Code/User/mcp.json"
  }
  location "project" {
    path = "${project}/.vscode/mcp.json"
  }

  location "user" {
    os        = ["linux"]
    path      = "${config_home}/Code/User/settings.json"
    servers   = ["mcp", "servers"]
    read_only = true
    note      = "legacy: VS Code now reads mcp.json; move these servers there (mcpsync import, then export)"
  }
  location "user" {
    os        = ["darwin"]
    path      = "${home}/Library/Application Support/Code/User/settings.json"
    servers   = ["mcp", "servers"]
    read_only = true
    note      = "legacy: VS Code now reads mcp.json; move these servers there (mcpsync import, then export)"
  }
  location "user" {
    os        = ["windows"]
    path      = "${appdata}/Code/User/settings.json"
    servers   = ["mcp", "servers"]
    read_only = true
    note      = "legacy: VS Code now reads mcp.json; move these servers there (mcpsync import, then export)"
  }
  location "project" {
    path      = "${project}/.vscode/settings.json"
    servers   = ["mcp", "servers"]
    read_only = true
    note      = "legacy: VS Code now reads .vscode/mcp.json; move these servers there (mcpsync import, then export)"
  }

  fields {
    type    = "type"
    command = "command"
    args    = "args"
    env     = "env"
    cwd     = "cwd"
    url     = "url"
    headers = "headers"
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
}
