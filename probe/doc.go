// Package probe proves that configured MCP servers work: it starts or
// connects to each one the way a client does (initialize, then tools/list)
// and reports a typed Result per server. It is the only package that
// imports mark3labs/mcp-go.
//
// # Running
//
// Run probes many servers concurrently (Options.Parallel at once) and One
// probes a single server; a resolver verifies an entry with One before
// storing it. Each server has a deadline covering all its attempts:
// Options.Timeout, or the server's own StartupTimeout when set.
//
//   - stdio: references in command, args, env and cwd are expanded from
//     Options.Getenv (never written anywhere); a reference without a value is
//     a MissingEnv failure naming the variable, and the server is not
//     started. The server runs in the project root, or in its cwd resolved
//     against the project root; a cwd that resolves outside the project,
//     symlinks included, is refused (CwdOutsideProject). The process gets
//     the probe's environment plus the server's env, and its own process
//     group: at the end (stdin closed, 250 ms grace, SIGTERM, 250 ms,
//     SIGKILL) or at the deadline (SIGKILL at once) the whole group is
//     killed, so npx and uvx children never outlive the probe. The last
//     lines of stderr are kept for the report.
//   - http (streamable HTTP) and sse: the URL and headers are expanded the
//     same way. Transient failures (connection refused, 5xx, 429, a dropped
//     connection) are retried Options.Retries times with exponential
//     backoff; every attempt is reported.
//
// The handshake is initialize, pinned to the newest pre-2026 protocol
// (2025-11-25), as the clients in use connect. A server that rejects it
// (a 2026-07-28-only server) is asked server/discover instead, bounded by
// DiscoverTimeout so that a server ignoring unknown methods cannot cost
// mcp-go's 5 s default. Options.DiscoverFirst reverses the order.
//
// # Secrets
//
// Every value that came from the environment, every env and header value,
// URL credentials and query values, and the values of credential flags in
// args (--api-key X, --token=X) are secrets: they are replaced by *** in
// every message, hint, stderr line and target before a Result leaves the
// package. Values shorter than 4 bytes are left alone; they are not
// credentials and hiding them would garble messages.
//
// # JSON report (schema_version 2)
//
// A Report marshals to:
//
//	{
//	  "schema_version": 2,
//	  "servers": [ <result>, ... ],          // in the order given
//	  "summary": {"total": 3, "ready": 1, "degraded": 1, "failed": 1, "skipped": 0},
//	  "elapsed_ms": 812.4
//	}
//
// and each result to:
//
//	{
//	  "server": "github",                    // the entry's name
//	  "state": "ready",                      // ready | degraded | failed | skipped
//	  "transport": "stdio",                  // stdio | http | sse
//	  "target": "npx -y @modelcontextprotocol/server-github",  // command line or URL, scrubbed
//	  "origin": "mcpsync.hcl:3:1",           // where the entry is defined, when known
//	  "protocol": "2025-11-25",              // negotiated protocol version
//	  "stateless": true,                     // 2026-07-28 or later: server/discover, no session
//	  "server_info": {"name": "github-mcp", "version": "1.2.0"},
//	  "tools": ["create_issue", "search_code"],   // always an array
//	  "latency_ms": 640.2,                   // start to tools listed (last attempt)
//	  "category": "exited",                  // why not ready; absent when ready
//	  "message": "the server exited with code 1 before answering initialize",
//	  "hint": "its last stderr lines are shown; run the command by hand ...",
//	  "exit_code": 1,                        // stdio, when the server exited by itself
//	  "stderr_tail": ["Error: GITHUB_TOKEN is invalid"],
//	  "missing_env": ["GITHUB_TOKEN"],       // category missing_env
//	  "missing_tools": ["search_code"],      // category missing_required_tools
//	  "http_status": 401,                    // remote, when an HTTP status explains the failure
//	  "attempts": [{"latency_ms": 640.2, "backoff_ms": 250, "category": "...", "message": "...", "http_status": 503}]
//	}
//
// Categories (stable; see the Category constants): command_not_found,
// spawn_failed, exited, init_timeout, auth_failed, connection_refused,
// host_not_found, tls_error, protocol_error, version_mismatch, unsupported_transport,
// missing_required_tools (state degraded), missing_env,
// cwd_outside_project, invalid_config, canceled; for state skipped:
// disabled, transport_excluded. New fields and categories may be added
// without changing schema_version; renaming or removing one changes it.
// Version 2 (2026-12): "stateless" beside "protocol", and a server that
// speaks only revisions the probe does not know is version_mismatch, no
// longer protocol_error.
package probe
