// Package sources brings a team's MCP servers from a git repository into
// each developer's clients, and never lets a new or changed server reach a
// client without that developer's approval.
//
// A source is a block of the user store:
//
//	source "acme" {
//	  git  = "https://github.com/acme/team-mcp.git"  # any URL git fetches; a relative path is relative to the store
//	  ref  = "main"                                  # a branch, tag or commit; default: the remote's HEAD
//	  path = "mcp/"                                  # a directory (or one file) of the repository; default: its root
//	}
//
// # Pull
//
// Fetch runs the system git: a shallow fetch (depth 1, no tags, no
// submodules) of the ref into $XDG_CACHE_HOME/mcpsync/sources/NAME and a
// detached checkout of that commit, with hooks, the ext:: transport and
// fsmonitor turned off, prompts off (a repository that needs credentials
// git does not have fails instead of hanging) and a timeout.
//
// Read then reads the source's path: its mcpsync.hcl (server blocks only:
// client rules, resolvers and sources belong to each developer), or else
// every NAME.json there, one server object each in any client's spelling
// ({"type": "http", "url": …, "headers": {…}} or {"command": …, "args": …,
// "env": {…}}), named by the file. Links and files over 1 MiB are refused.
//
// # No secrets
//
// Everyone who pulls a source reads it, and its history keeps whatever it
// ever held, so a value in env or headers must be a reference (${TOKEN},
// "Bearer ${TOKEN}", env("TOKEN")); see checkServer for the few literal
// values allowed and the checks on args, url and extra keys. A refused
// value is an error at its file:line:col and the pull changes nothing.
//
// # Records and approval
//
// A good pull is recorded in $XDG_STATE_HOME/mcpsync/sources.json (Records):
// the commit and each server with the hash of its content. A server is
// pending at its first appearance and whenever its hash differs from the
// one the user approved; Approve records the approved content. Clients get
// only approved content (InEffect): a new server waits, and a changed one
// stays as approved until the change is approved. A server removed upstream
// leaves at once, and its approval is dropped. A failed pull (unreachable,
// refused) records nothing but the error: the last good pull stays in effect.
//
// # Names
//
// In clients a source's server is named SOURCE-SERVER (QualifiedName), a
// key every client accepts; see Separator for why. Source and server names
// hold letters, digits, - and _ only.
package sources
