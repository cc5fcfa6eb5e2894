package spec

import (
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

// mcpRemoteDialect is what mcp-remote expands in --header values: ${VAR}
// from its own environment, without defaults.
var mcpRemoteDialect = canonical.Dialect{Name: "mcp-remote", Env: canonical.EnvDollar}

// bridgeArgs builds npx -y mcp-remote URL --header K:V ... for a remote
// server, so that a stdio-only client can reach it. The header is written
// without a space after the colon: mcp-remote's own advice, since some
// clients split arguments on spaces. Problems are reported per field.
func bridgeArgs(s canonical.Server, windows bool, problem func(field, msg string)) []string {
	args := []string{"-y", "mcp-remote", s.URL}
	if canonical.Parse(s.URL, canonical.DialectCanonical).HasRefs() {
		problem("url", "mcp-remote does not expand references in the url; "+s.URL+" reaches it literally")
	}
	for _, k := range mapkeys.Sorted(s.Headers) {
		t := canonical.Parse(s.Headers[k], canonical.DialectCanonical)
		v, probs := t.Render(mcpRemoteDialect)
		for _, p := range probs {
			problem("headers."+k, p.Reason)
		}
		if names := t.EnvNames(); len(names) > 0 {
			problem("headers."+k, "mcp-remote reads "+strings.Join(names, ", ")+" from its own environment, which the client passes on from where it was started (a desktop app does not see your shell's variables)")
		}
		if windows && strings.ContainsAny(v, " \t") {
			problem("headers."+k, "on Windows some clients split arguments at spaces, which breaks --header "+k+":"+v+
				`; mcp-remote's advice is --header "`+k+`:${`+strings.ToUpper(strings.ReplaceAll(k, "-", "_"))+`}" with the whole value in that variable`)
		}
		args = append(args, "--header", k+":"+v)
	}
	if s.Transport == canonical.SSE {
		args = append(args, "--transport", "sse-only")
	}
	return args
}

// unbridge recognises npx -y mcp-remote URL [--header K:V]... [--transport T]
// and returns the remote server it stands for.
func unbridge(command string, args []string) (canonical.Server, bool) {
	if command != "npx" {
		return canonical.Server{}, false
	}
	i := 0
	for i < len(args) && (args[i] == "-y" || args[i] == "--yes") {
		i++
	}
	if i >= len(args) || (args[i] != "mcp-remote" && !strings.HasPrefix(args[i], "mcp-remote@")) {
		return canonical.Server{}, false
	}
	i++
	// mcp-remote takes an http(s) URL and expands nothing in it; anything
	// else ("npx -y mcp-remote fuzz-arg") is a command line, kept as it is.
	if i >= len(args) || !(strings.HasPrefix(strings.ToLower(args[i]), "https://") || strings.HasPrefix(strings.ToLower(args[i]), "http://")) {
		return canonical.Server{}, false
	}
	s := canonical.Server{Transport: canonical.HTTP, URL: args[i]}
	for i++; i < len(args); i += 2 {
		if i+1 >= len(args) {
			return canonical.Server{}, false
		}
		switch args[i] {
		case "--header":
			k, v, ok := strings.Cut(args[i+1], ":")
			if !ok {
				return canonical.Server{}, false
			}
			if s.Headers == nil {
				s.Headers = map[string]string{}
			}
			s.Headers[strings.TrimSpace(k)], _ = canonical.Parse(strings.TrimLeft(v, " "), mcpRemoteDialect).Render(canonical.DialectCanonical)
		case "--transport":
			switch args[i+1] {
			case "sse-only":
				s.Transport = canonical.SSE
			case "http-only", "http-first", "sse-first":
			default:
				return canonical.Server{}, false
			}
		default:
			return canonical.Server{}, false
		}
	}
	return s, true
}
