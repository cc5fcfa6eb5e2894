#!/bin/sh
# resolver-claude.sh: an mcpsync resolver plugin that asks Claude Code.
#
# mcpsync runs resolver plugins when its own chain (registry, server.json,
# README snippets, manifests) finds nothing. A plugin reads one JSON request
# on stdin and prints one JSON answer on stdout. This one hands the request to
# `claude -p` (Claude Code's non-interactive mode) with a fixed prompt and
# lets it read the repository through WebFetch only: it cannot run commands
# or edit files. mcpsync takes the last JSON object of the output, probes the
# entry it describes and stores it only when the probe passes.
#
# Set it up once, in the store (~/.config/mcpsync/mcpsync.hcl):
#
#   resolver "claude" {
#     command = ["/path/to/resolver-claude.sh"]
#     timeout = "3m"
#   }
#
# Requires Claude Code (npm i -g @anthropic-ai/claude-code) logged in, or
# ANTHROPIC_API_KEY set. Try it by hand:
#
#   echo '{"version":1,"input":"https://github.com/owner/repo","evidence":[]}' | ./resolver-claude.sh
set -eu

request=$(cat)

prompt='You are a resolver plugin for mcpsync, a tool that configures MCP
(Model Context Protocol) servers. The JSON request below names a GitHub
repository, package or registry entry ("input") and lists what mcpsync already
looked at ("evidence"). Read the repository (README, docs, package manifests,
releases) with WebFetch and work out the one command that runs its MCP server
over stdio (preferring npx -y, uvx or docker run -i --rm), or the URL of its
hosted endpoint when there is nothing to run.

Answer with exactly one JSON object and nothing else:
  {"server": {"command": "npx", "args": ["-y", "package"], "env": {"API_KEY": "${API_KEY}"}},
   "evidence": ["where you found it"]}
or, for a hosted server:
  {"server": {"type": "http", "url": "https://host/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}},
   "evidence": ["where you found it"]}
or, when you cannot tell:
  {"error": "why", "evidence": ["what you looked at"]}

Every secret, key, token, path or value the user must supply is a ${NAME}
reference with a descriptive NAME in capitals; never invent or copy a value.'

exec claude -p --output-format text --no-session-persistence \
	--tools WebFetch --allowedTools WebFetch \
	"$prompt

Request:
$request"
