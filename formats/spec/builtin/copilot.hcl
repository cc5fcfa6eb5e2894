# GitHub Copilot CLI (verified with copilot 1.0.102).
#
# ~/.copilot/mcp-config.json ($COPILOT_HOME moves ~/.copilot; XDG_CONFIG_HOME
# does not), strict JSON. copilot mcp add writes "tools" first: ["*"] for
# every tool, [] for none, or names; the Go quirk turns ["*"] into "no
# filter" and writes it for new entries, as the CLI does. The type is
# "local" (or "stdio"), "http" ("streamable-http" accepted) or "sse"; a url
# without type is http. timeout is in milliseconds.
#
# Workspace servers are read from one file, in trusted folders only: from the
# working directory up to the git root, the first directory holding .mcp.json
# or .github/mcp.json, and .mcp.json when it holds both (copilot 1.0.102:
# copilot mcp list showed .mcp.json's servers alone, copilot mcp get of a
# .github/mcp.json server said "not found"; a subdirectory's file hides the
# root's). .mcp.json is Claude Code's project file too, and Claude Code
# would skip an entry with "type": "local" or a "tools" list of names, so
# mcpsync writes Copilot's project servers to .github/mcp.json, and not at
# all while .mcp.json exists: Copilot then sees .mcp.json's servers, which
# Claude Code's export writes.
#
# Switching a server off lives in ~/.copilot/settings.json
# ("disabledMcpServers", written by copilot mcp disable), which mcpsync does
# not write: a disabled server is not written, with a warning.
#
# References: the CLI's changelog says env variables referenced in command,
# args, cwd, url and headers are resolved; ${VAR} is what its users write.
client "copilot" {
  display_name     = "Copilot CLI"
  # VS Code's Copilot harness reads the same files in the same spelling
  # (code.visualstudio.com/docs/agents/reference/mcp-configuration)
  also_read_by     = ["VS Code's Copilot harness"]
  aliases          = ["copilot-cli"]
  format           = "json"
  placeholders     = "dollar"
  servers          = ["mcpServers"]
  quirks           = "copilot"
  url_without_type = "http"

  location "user" {
    path = "${env("COPILOT_HOME", "${home}/.copilot")}/mcp-config.json"
    note = "servers switched off with copilot mcp disable are listed in settings.json beside it, which mcpsync does not read"
  }
  location "project" {
    path        = "${project}/.github/mcp.json"
    note        = "Copilot CLI reads it only in a folder trusted in ~/.copilot/config.json"
    shadowed_by = "${project}/.mcp.json"
    shadow_note = "Copilot CLI reads .mcp.json instead of .github/mcp.json while both exist; its project servers are .mcp.json's, which Claude Code's export writes"
  }
  location "project" {
    path      = "${project}/.mcp.json"
    read_only = true
    note      = "shared with Claude Code, which would skip Copilot's entries; mcpsync writes Copilot's project servers to .github/mcp.json"
  }

  fields {
    type         = "type"
    command      = "command"
    args         = "args"
    env          = "env"
    cwd          = "cwd"
    url          = "url"
    headers      = "headers"
    tools_allow  = "tools"
    tool_timeout = "timeout"
    timeout_unit = "ms"
  }

  transport "stdio" {
    type    = "local"
    aliases = ["stdio"]
  }
  transport "http" {
    type    = "http"
    aliases = ["streamable-http"]
  }
  transport "sse" {
    type = "sse"
  }

  key_order = ["tools", "timeout", "type", "command", "args", "env", "cwd", "url", "headers"]
}
