# Qwen Code (verified with qwen 0.15.10), a fork of Gemini CLI whose
# transports differ: httpUrl is streamable HTTP, and a url is ALWAYS SSE,
# whatever a "type" beside it says (the Go quirk warns when a type says
# otherwise). Comments are allowed, trailing commas are not. $VAR and ${VAR}
# are expanded, ${VAR:-default} is not. Qwen writes "$version" at the end of
# the file and migrates a file without it; mcpsync leaves it as it is, and
# stamps a file it creates (the Go quirk).
client "qwen" {
  display_name     = "Qwen Code"
  aliases          = ["qwen-code"]
  format           = "json-comments"
  # $VAR and ${VAR}, resolved in every string of the file at load, a bash -lc
  # line in args included (verified with a spawned-process dump:
  # reference/clients.md, Qwen Code, "Placeholders"); mcpsync warns of a bare
  # $NAME in what it writes there.
  placeholders     = "shell-no-default"
  servers          = ["mcpServers"]
  quirks           = "qwen"
  url_without_type = "sse"

  location "user" {
    path = "${env("QWEN_HOME", "${home}/.qwen")}/settings.json"
  }
  location "project" {
    path = "${project}/.qwen/settings.json"
  }
  location "managed" {
    os        = ["linux"]
    path      = env("QWEN_CODE_SYSTEM_SETTINGS_PATH", "/etc/qwen-code/settings.json")
    read_only = true
    note      = "system settings: an administrator's, merged over the user's"
  }
  location "managed" {
    os        = ["darwin"]
    path      = env("QWEN_CODE_SYSTEM_SETTINGS_PATH", "/Library/Application Support/QwenCode/settings.json")
    read_only = true
    note      = "system settings: an administrator's, merged over the user's"
  }
  location "managed" {
    os        = ["windows"]
    path      = env("QWEN_CODE_SYSTEM_SETTINGS_PATH", "C:/ProgramData/qwen-code/settings.json")
    read_only = true
    note      = "system settings: an administrator's, merged over the user's"
  }

  # Qwen has no type key: it ignores one, which is then kept as an unknown key.
  fields {
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
    url_key = "httpUrl"
  }
  transport "sse" {}

  oauth {
    key           = "oauth"
    client_id     = "clientId"
    client_secret = "clientSecret"
    scopes        = "scopes"
    redirect_uri  = "redirectUri"
  }

  key_order = ["command", "args", "env", "cwd", "httpUrl", "url", "headers"]

  # qwen mcp add writes no final newline; "$version" is added by the Go quirk
  new_file {
    final_newline = false
  }
}
