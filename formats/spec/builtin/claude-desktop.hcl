# Claude Desktop (documented; the app is not scriptable).
#
# stdio only: remote servers are added in the app (Settings > Connectors), so
# mcpsync bridges them through mcp-remote when asked (--bridge-remote) and
# otherwise skips them with a warning. Nothing in the file is expanded.
#
# Signed in to a Team account, the app writes "remoteToolsDeviceName" at the
# top of the file and from then on replaces the whole mcpServers with the
# account's servers, at start and while it runs: hand-added servers vanish,
# removed ones come back (anthropics/claude-code#59368, #63549; the reporters'
# workaround is removing the key). sync leaves such a file out.
client "claude-desktop" {
  display_name = "Claude Desktop"
  aliases      = ["desktop"]
  format       = "json"
  placeholders = "none"
  servers      = ["mcpServers"]
  windows_cmd  = true

  replaced_remotely {
    key = "remoteToolsDeviceName"
    why = "Claude Desktop replaces its servers with your Claude account's while \"remoteToolsDeviceName\" is in the file"
  }

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
