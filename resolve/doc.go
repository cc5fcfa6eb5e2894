// Package resolve turns what a user pastes (a GitHub URL, owner/repo, an
// official registry name such as io.github.owner/repo, a package such as
// npm:@scope/pkg, pypi:pkg, oci:image, go:module, nuget:Id, or the URL of a
// hosted endpoint) into one server entry, with the evidence that led to it.
// It never runs the entry: the caller probes it (package probe) before
// storing it.
//
// # The chain
//
// For a repository, the first step that finds something wins; each step is
// recorded as a Step (--explain prints them):
//
//  1. registry: the official MCP registry (/v0.1/servers), matched on
//     repository.url (and repository.subfolder), never on a guessed name
//     alone; only active entries.
//  2. server.json: in the subfolder asked for, at the root or in .mcp/
//     (the NuGet convention), else anywhere in the tree (one tree listing).
//  3. monorepo: at a repository's root, folders that each hold an MCP
//     server (npm/pnpm/uv workspaces, go.work, src/*, packages/*,
//     servers/* with a manifest depending on an MCP SDK) are listed for
//     the user to choose; --pick NAME resolves that folder on its own.
//  4. ownership: package.json "mcpName" or a README "mcp-name:" marker
//     names the registry entry exactly.
//  5. readme: configuration snippets in the README (then docs/*.md): every
//     fenced block of any language holding an entry in any client's shape,
//     read leniently by package paste (JSONC, fragments); agent install
//     commands (claude mcp add, code --add-mcp, codex mcp add); VS Code
//     install links. A Go module's go run way joins them. Ranked: npx/uvx/dnx
//     first, then docker and the project's own executable, go run, other
//     programs, a program at an example path, hosted endpoints; Windows
//     variants skipped; placeholders become inputs. Result.Why names the rule.
//  6. manifest: package.json bin (npx -y), pyproject.toml [project.scripts]
//     (uvx), go.mod with a main package (go run module@TAG, the latest
//     release, or @latest; never with replace directives). A private
//     workspace root is never run.
//  7. container: a Dockerfile, with the published image the README names
//     (docker run, docker pull, ghcr.io/OWNER/REPO); never an image the
//     README builds itself.
//  8. plugin: external commands (see below).
//
// A server.json or registry package becomes a command as clients build it:
//
//	npm    npx -y <runtime args> id@version <package args>
//	pypi   uvx <runtime args> id==version <package args>
//	oci    docker run -i --rm <runtime args> -e NAME... image <package args>
//	nuget  dnx <runtime args> id@version --yes [-- <package args>]
//
// The package version is pinned (not the server's); release templates
// (${VERSION}, $VERSION, 0.0.0) leave it unpinned. Runtime arguments that
// npx or uvx do not take are moved after the package (a known publisher
// mistake). Remotes are chosen with Options.Remote, or when nothing can run
// locally.
//
// # Secrets and inputs
//
// Environment variables, headers and arguments the user must supply become
// ${NAME} references and RequiredInputs; a secret is never written as a
// value, and example values from READMEs (YOUR_API_KEY, <token>, ntn_****,
// /path/to/dir) are never copied. Non-secret values given in Options.Inputs
// are written into the entry.
//
// # Network
//
// GitHub's REST API, its raw host and the registry are reached through
// configurable base URLs (Options; MCPSYNC_GITHUB_API, MCPSYNC_GITHUB_RAW,
// MCPSYNC_REGISTRY), the GitHub token goes to GitHub only, and answers are
// cached on disk for Options.TTL. A rate limit is a *RateLimitError with the
// reset time; an unknown repository a *RepoNotFoundError. The registry is
// optional: when it is down the chain goes on without it. Package
// resolvetest fakes all three for offline tests.
//
// # Resolver plugins
//
// A plugin is a command from the store:
//
//	resolver "claude" {
//	  command = ["/path/to/resolver-claude.sh"]
//	  timeout = "3m"
//	}
//
// It runs when every built-in step found nothing, in its own process group,
// killed at its deadline. It reads a PluginRequest on stdin:
//
//	{"version": 1, "input": "https://github.com/o/r", "parsed": {...},
//	 "evidence": [{"step": "readme", "found": false, "detail": "..."}], "contract": "..."}
//
// and prints one answer on stdout (the last JSON object of the output is
// read, so an LLM's preamble or a Markdown fence does no harm):
//
//	{"server": {"command": "npx", "args": ["-y", "pkg"], "env": {"API_KEY": "${API_KEY}"}},
//	 "evidence": ["README.md says so"]}
//	{"server": {"type": "http", "url": "https://host/mcp", "headers": {"Authorization": "Bearer ${TOKEN}"}}}
//	{"error": "no MCP server in this repository", "evidence": ["read README.md"]}
//
// Placeholders in the answer become inputs as README snippets do. A plugin
// that fails, times out or answers something else is a *PluginError naming
// it, with the end of its stderr; nothing is stored.
//
// An LLM agent is one such plugin: examples/resolver-claude.sh wraps
// `claude -p` with a fixed prompt and read-only web access:
//
//	exec claude -p --output-format text --no-session-persistence \
//		--tools WebFetch --allowedTools WebFetch "$prompt
//	Request:
//	$request"
package resolve
