# LM Studio, from its documentation: ~/.lmstudio/mcp.json (also on Windows,
# under %USERPROFILE%), in Cursor's notation: command, args, env, or url and
# headers. The app may rewrite the file when it is edited in its own editor.
# LM Studio documents no reference expansion.
client "lm-studio" {
  display_name = "LM Studio"
  format       = "json"
  servers      = ["mcpServers"]

  location "user" {
    path = "${home}/.lmstudio/mcp.json"
  }

  fields {
    command = "command"
    args    = "args"
    env     = "env"
    url     = "url"
    headers = "headers"
  }

  transport "stdio" {}
  transport "http" {}
}
