# Claude Desktop (documented; the app is not scriptable).
#
# stdio only: remote servers are added in the app (Settings > Connectors), so
# mcpsync bridges them through mcp-remote when asked (--bridge-remote) and
# otherwise skips them with a warning. Nothing in the file is expanded.
client "claude-desktop" {
  display_name = "Claude Desktop"
  aliases      = ["desktop"]
  format       = "json"
  placeholders = "none"
  servers      = ["mcpServers"]
  windows_cmd  = true

  location "user" {
    os   = ["darwin"]
    path = "${home}/Library/Application Support/Claude/claude_desktop_config.json"
  }
  location "user" {
    os   = ["windows"]
    path = "${appdata}/Claude/claude_desktop_config.json"
  }
  location "user" {
    os   = ["linux"]
    path = "${config_home}/Claude/claude_desktop_config.json"
    note = "there is no official Linux app; this is where community builds read"
  }

  fields {
    command = "command"
    args    = "args"
    env     = "env"
  }

  transport "stdio" {}
}
