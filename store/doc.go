// Package store reads and writes mcpsync.hcl, the user's own list of MCP
// servers and of which client gets which.
//
// The user store is $XDG_CONFIG_HOME/mcpsync/mcpsync.hcl; a project store is
// mcpsync.hcl at the project root, committed and shared (see Locate).
//
// # Schema
//
//	# servers every client gets
//	server "github" {
//	  command = "npx"
//	  args    = ["-y", "@modelcontextprotocol/server-github"]
//	  env     = { GITHUB_PERSONAL_ACCESS_TOKEN = env("GITHUB_TOKEN") }  # a reference, not the value
//	  cwd     = "${workspace_folder()}/tools"                          # optional
//	}
//
//	server "linear" {
//	  url             = "https://mcp.linear.app/sse"  # streamable HTTP unless transport says otherwise
//	  transport       = "sse"                         # "stdio", "http" or "sse"; implied by command or url
//	  headers         = { Authorization = "Bearer ${env("LINEAR_API_KEY")}" }
//	  disabled        = true                          # kept, but clients do not start it
//	  tools_allow     = ["search"]                    # only these tools
//	  tools_deny      = ["delete"]                    # never these
//	  startup_timeout = "30s"                         # a duration, or a number of seconds
//	  tool_timeout    = "2m"
//	  oauth {
//	    client_id     = "my-client"
//	    client_secret = env("LINEAR_SECRET")
//	    scopes        = ["read"]
//	    callback_port = 8080
//	    # also: redirect_uri, auth_server_metadata_url, resource
//	  }
//	  extra "cursor" {                                # one client's own keys, kept verbatim
//	    envFile = ".env"
//	    _       = { "key.not.an.identifier" = true }  # keys HCL cannot name go in _
//	  }
//	}
//
//	server "postgres" {
//	  project = "/home/me/code/webapp"   # Claude Code's local scope of this project only
//	  command = "npx"
//	  args    = ["-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost/webapp"]
//	}
//
//	client "cursor" {
//	  include = ["github"]   # only these servers (all when absent)
//	  exclude = ["linear"]   # minus these
//	}
//
//	resolver "claude" {      # for the GitHub resolver
//	  command = ["claude", "-p", "..."]
//	  timeout = "60s"
//	}
//
//	source "acme" {          # a team's servers in git
//	  git  = "https://example.com/team-mcp.git"
//	  ref  = "main"
//	  path = "mcp/"
//	}
//
// # References
//
// Secrets are references, never values. Functions spell them:
// env("X") is ${X}, env("X", "d") is ${X:-d}, input("id") is ${input:id},
// workspace_folder(), workspace_basename(), user_home() and
// path_separator() are the editor variables. They work inside strings:
// "Bearer ${env("TOKEN")}". A bare "${X}" in HCL would be a variable, which
// a store has none of; "$${X}" is the literal text ${X}, which mcpsync
// reads as the same reference. Writing, mcpsync always uses the functions.
//
// # Errors
//
// Every problem in the file is reported, each with file:line:col: syntax
// errors, unknown attributes and blocks (with a did-you-mean), values of
// the wrong type, duplicate names, and what canonical.Validate finds.
// Client rules naming servers the store lacks are warnings.
//
// # Editing
//
// The store is edited, never regenerated. Bytes compares the servers now
// with the blocks as read and changes only the attributes that differ, in
// place; a removed server's block is cut out (the comments above it stay); a
// new server is added after the last server block, laid out as
// hclwrite.Format would (internal/hclfmt).
// Comments, blank lines, attribute order and formatting outside what changed
// stay byte for byte, and a store that is loaded and saved unchanged is not
// written at all.
package store
