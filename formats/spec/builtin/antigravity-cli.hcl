# Antigravity CLI (agy), Google's successor to Gemini CLI for AI Pro/Ultra
# and free individual users since 2026-06-18. From the official migration
# guide, google-gemini/gemini-cli docs/resources/migrating-to-antigravity-cli.md:
#   global:    ~/.gemini/antigravity-cli/mcp_config.json
#   workspace: .agents/mcp_config.json
#   servers under mcpServers, local ones as in Gemini CLI (command, args,
#   env); a remote one by serverUrl, never url or httpUrl; its headers use
#   $VAR ("X-goog-user-project": "$GOOGLE_CLOUD_PROJECT"), so mcpsync writes
#   references as Gemini CLI's (shell) syntax.
# Other write-ups name ~/.gemini/config/mcp_config.json; it is read, never
# written, until agy itself can be run here to say which it loads (it is
# not on npm). Gemini CLI is unchanged and stays a client of its own.
client "antigravity-cli" {
  display_name     = "Antigravity CLI"
  aliases          = ["agy", "antigravity"]
  format           = "json"
  placeholders     = "shell"
  servers          = ["mcpServers"]
  url_without_type = "auto"

  location "user" {
    path = "${home}/.gemini/antigravity-cli/mcp_config.json"
  }
  location "user" {
    path      = "${home}/.gemini/config/mcp_config.json"
    read_only = true
    note      = "named by some guides for Antigravity; mcpsync writes ~/.gemini/antigravity-cli/mcp_config.json, the migration guide's"
  }
  location "project" {
    path = "${project}/.agents/mcp_config.json"
  }

  fields {
    command     = "command"
    args        = "args"
    env         = "env"
    url         = "serverUrl"
    url_aliases = ["url", "httpUrl"]
    headers     = "headers"
  }

  transport "stdio" {}
  transport "http" {}
  transport "sse" {}
}
