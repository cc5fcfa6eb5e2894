# Zed, from its source (settings_content) and documentation.
#
# Servers are "context_servers" in Zed's settings.json, a JSONC file holding
# every other setting too. A server is a command (with args, which Zed needs
# even when empty, and env) or a url (streamable HTTP; Zed has no SSE). An
# entry with neither configures a server an extension provides ("settings")
# and is left alone. The Go quirk reads the 2025 shapes: the "source" tag and
# the nested "command": {"path", "args", "env"}, which a change rewrites in
# the current shape. Zed expands no references. timeout is in seconds.
client "zed" {
  display_name     = "Zed"
  format           = "jsonc"
  servers          = ["context_servers"]
  quirks           = "zed"
  url_without_type = "http"

  location "user" {
    os   = ["linux"]
    path = "${config_home}/zed/settings.json"
  }
  location "user" {
    os   = ["darwin"]
    path = "${home}/.config/zed/settings.json"
  }
  location "user" {
    os   = ["windows"]
    path = "${appdata}/Zed/settings.json"
  }
  location "project" {
    path = "${project}/.zed/settings.json"
  }

  fields {
    command      = "command"
    args         = "args"
    env          = "env"
    url          = "url"
    headers      = "headers"
    enabled      = "enabled"
    tool_timeout = "timeout"
    timeout_unit = "s"
  }

  transport "stdio" {}
  transport "http" {}

  oauth {
    key           = "oauth"
    client_id     = "client_id"
    client_secret = "client_secret"
  }
}
