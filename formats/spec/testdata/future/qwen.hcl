# Qwen Code 0.15 (clients.md §8): url is always SSE whatever the type says;
# httpUrl is streamable HTTP. No ${VAR:-default}.
client "qwen" {
  display_name     = "Qwen Code"
  format           = "json-comments"
  placeholders     = "shell-no-default"
  servers          = ["mcpServers"]
  url_without_type = "sse"

  location "user" {
    path = "${env("QWEN_HOME", "${home}/.qwen")}/settings.json"
  }
  location "project" {
    path = "${project}/.qwen/settings.json"
  }

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
  }

  transport "stdio" {}
  transport "http" {
    url_key = "httpUrl"
  }
  transport "sse" {}
}
