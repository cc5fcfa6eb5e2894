package resolve

import (
	"strings"
)

// ShortName turns a repository, package or registry name into the key a
// server is stored under: lower case, without the "mcp"/"server" affixes
// every MCP project carries. "github/github-mcp-server" → "github",
// "@modelcontextprotocol/server-everything" → "everything",
// "com.supabase/mcp" → "supabase".
func ShortName(name string) string {
	name = strings.TrimSpace(name)
	name = strings.TrimSuffix(name, ".git")
	ns := ""
	if i := strings.LastIndex(name, "/"); i >= 0 {
		ns, name = name[:i], name[i+1:]
	}
	name = strings.TrimPrefix(name, "@")
	if i := strings.IndexAny(name, "@=:"); i > 0 { // a version or a tag
		name = name[:i]
	}
	base := kebab(name)
	short := stripAffixes(base)
	if short == "" {
		// The name is only affixes ("mcp", "mcp-server"): the namespace
		// says whose it is (com.supabase/mcp → supabase).
		ns = strings.TrimPrefix(ns, "@")
		if i := strings.LastIndex(ns, "/"); i >= 0 {
			ns = ns[i+1:]
		}
		labels := strings.Split(ns, ".")
		for i := len(labels) - 1; i >= 0; i-- {
			l := kebab(labels[i])
			if l != "" && l != "github" && l != "io" && l != "com" && l != "dev" && l != "ai" && l != "org" {
				return l
			}
		}
		if base != "" {
			return base
		}
		return "server"
	}
	return short
}

// stripAffixes removes mcp/server words from the ends of a kebab name.
func stripAffixes(s string) string {
	words := strings.Split(s, "-")
	noise := map[string]bool{"mcp": true, "server": true, "mcpserver": true, "model": false}
	for len(words) > 0 && noise[words[0]] {
		words = words[1:]
	}
	for len(words) > 0 && noise[words[len(words)-1]] {
		words = words[:len(words)-1]
	}
	return strings.Join(words, "-")
}

// kebab lower-cases s and turns CamelCase, spaces, dots and underscores
// into hyphen-separated words: "LocalVectorSearchMcp" → "local-vector-search-mcp".
func kebab(s string) string {
	var b strings.Builder
	prevLower := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z':
			if prevLower {
				b.WriteByte('-')
			}
			b.WriteByte(c - 'A' + 'a')
			prevLower = false
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			b.WriteByte(c)
			prevLower = true
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "-") {
				b.WriteByte('-')
			}
			prevLower = false
		}
	}
	return strings.Trim(b.String(), "-")
}

// EnvName turns any label ("api key", "--project-ref", "X-Grafana-URL",
// "token") into an environment variable name: API_KEY, PROJECT_REF,
// X_GRAFANA_URL, TOKEN.
func EnvName(s string) string {
	s = strings.TrimLeft(s, "-")
	var b strings.Builder
	prevLower := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
			prevLower = true
		case c >= 'A' && c <= 'Z':
			if prevLower {
				b.WriteByte('_')
			}
			b.WriteByte(c)
			prevLower = false
		case c >= '0' && c <= '9':
			b.WriteByte(c)
			prevLower = true
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
				b.WriteByte('_')
			}
			prevLower = false
		}
	}
	out := strings.Trim(b.String(), "_")
	if out == "" {
		return "VALUE"
	}
	if out[0] >= '0' && out[0] <= '9' {
		out = "_" + out
	}
	return out
}

// isEnvName reports whether s is a conventional environment variable name.
func isEnvName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c == '_' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
