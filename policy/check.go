package policy

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/mcpsync/mcpsync/canonical"
)

// Verdict is what one vendor's policy does to one server.
type Verdict struct {
	Vendor  string `json:"vendor"`
	Server  string `json:"server"`
	Allowed bool   `json:"allowed"`
	// Reason says why a server is blocked, or how an allowed one is
	// changed (replaced by the managed definition).
	Reason string `json:"reason,omitempty"`
}

// Set is the policies one machine's clients obey: nil parts are absent.
type Set struct {
	ClaudeManaged  map[string]canonical.Server // managed-mcp.json: exclusive
	ClaudeSettings *ClaudeSettings
	Codex          *CodexRequirements
	Gemini         *GeminiSettings
	GeminiServers  map[string]canonical.Server
}

// Check says what the vendor's policy does to s, as its client's file on
// goos holds it.
func (p Set) Check(vendor string, s canonical.Server, goos string) Verdict {
	v := Verdict{Vendor: vendor, Server: s.Name, Allowed: true}
	block := func(format string, args ...any) Verdict {
		v.Allowed, v.Reason = false, fmt.Sprintf(format, args...)
		return v
	}
	switch vendor {
	case "claude-code":
		if p.ClaudeManaged != nil {
			m, ok := p.ClaudeManaged[s.Name]
			if !ok {
				return block("managed-mcp.json has exclusive control and does not define %s", s.Name)
			}
			if !canonical.Equal(m, s) {
				v.Reason = "the definition in managed-mcp.json is used instead of this one"
			}
			s = m
		}
		if cs := p.ClaudeSettings; cs != nil {
			return claudeVerdict(v, cs, s, goos)
		}
	case "codex":
		if p.Codex == nil || p.Codex.MCPServers == nil {
			return v
		}
		req, ok := p.Codex.MCPServers[s.Name]
		if !ok {
			return block("requirements.toml lists MCP servers and not %s: Codex disables it", s.Name)
		}
		want := req.Identity
		got, why := codexIdentity(s, goos)
		switch {
		case why != "":
			return block("%s", why)
		case want.URL != "" && (got.URL != want.URL):
			return block("requirements.toml wants url %s, the server is %s", want.URL, firstNonEmpty(got.URL, "a stdio command"))
		case want.Command != "" && got.Command != want.Command:
			return block("requirements.toml wants command %s, the server runs %s", want.Command, firstNonEmpty(got.Command, "remotely"))
		case want.URL == "" && want.Command == "":
			return block("requirements.toml gives %s no identity", s.Name)
		}
	case "gemini":
		if m, ok := p.GeminiServers[s.Name]; ok && !canonical.Equal(m, s) {
			v.Reason = "the system settings' definition is used instead of this one"
		}
		if g := p.Gemini; g != nil {
			if slices.Contains(g.MCP.Excluded, s.Name) {
				return block("mcp.excluded in the system settings names %s", s.Name)
			}
			if g.MCP.Allowed != nil && !slices.Contains(g.MCP.Allowed, s.Name) {
				return block("mcp.allowed in the system settings does not name %s", s.Name)
			}
		}
	}
	return v
}

// claudeVerdict applies Claude Code's order: denylist, then the allowlist
// by transport (URLs for remote servers and commands for stdio ones once
// the list has any; names otherwise).
func claudeVerdict(v Verdict, cs *ClaudeSettings, s canonical.Server, goos string) Verdict {
	forms := commandForms(s, goos)
	if goos == "windows" && len(forms) > 1 {
		forms = forms[1:] // mcpsync writes the cmd /c form there
	}
	matches := func(e ClaudeEntry) bool {
		switch {
		case e.ServerName != "":
			return e.ServerName == s.Name
		case e.ServerURL != "":
			return s.Transport.IsRemote() && MatchURL(e.ServerURL, s.URL)
		case len(e.ServerCommand) > 0:
			if s.Transport.IsRemote() {
				return false
			}
			for _, f := range forms {
				if slices.Equal(f, e.ServerCommand) {
					return true
				}
			}
		}
		return false
	}
	for _, e := range cs.DeniedMcpServers {
		if matches(e) {
			v.Allowed, v.Reason = false, "deniedMcpServers matches it"
			return v
		}
	}
	if cs.AllowedMcpServers == nil {
		return v
	}
	kindEntries := false
	for _, e := range cs.AllowedMcpServers {
		if s.Transport.IsRemote() && e.ServerURL != "" || !s.Transport.IsRemote() && len(e.ServerCommand) > 0 {
			kindEntries = true
		}
	}
	for _, e := range cs.AllowedMcpServers {
		if e.ServerName != "" && kindEntries {
			continue // a name counts only when the list has no entries of the server's kind
		}
		if matches(e) {
			return v
		}
	}
	v.Allowed = false
	switch {
	case s.Transport.IsRemote() && kindEntries:
		v.Reason = "allowedMcpServers has serverUrl entries and none matches " + s.URL
	case kindEntries:
		v.Reason = "allowedMcpServers has serverCommand entries and none is exactly " + strings.Join(forms[0], " ")
	default:
		v.Reason = "allowedMcpServers does not name it"
	}
	return v
}

// MatchURL matches a URL against a Claude Code serverUrl pattern: * matches
// anything, anywhere; the scheme and host compare without regard to case
// and a trailing dot; a pattern without a path matches every path.
func MatchURL(pattern, url string) bool {
	pScheme, pHost, pPath := splitURL(pattern)
	uScheme, uHost, uPath := splitURL(url)
	if pPath == "" {
		pPath = "*"
	}
	return glob(strings.ToLower(pScheme+"://"+pHost), strings.ToLower(uScheme+"://"+uHost)) && glob(pPath, firstNonEmpty(uPath, "/"))
}

func splitURL(u string) (scheme, host, path string) {
	scheme, rest, ok := strings.Cut(u, "://")
	if !ok {
		return "", "", u
	}
	host, path = rest, ""
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		host, path = rest[:i], rest[i:]
	}
	return scheme, strings.TrimSuffix(host, "."), path
}

// glob matches s against a pattern whose only wildcard is *, byte by byte
// (any text, even text that is not UTF-8, is matched as written).
func glob(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, part := range parts[1 : len(parts)-1] {
		i := strings.Index(s, part)
		if i < 0 {
			return false
		}
		s = s[i+len(part):]
	}
	return len(s) >= len(last) && strings.HasSuffix(s, last)
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// ParseClaudeSettings reads the MCP part of a Claude Code managed settings file.
func ParseClaudeSettings(data []byte) (*ClaudeSettings, error) {
	var cs ClaudeSettings
	if err := json.Unmarshal(data, &cs); err != nil {
		return nil, err
	}
	return &cs, nil
}

// ParseCodex reads the MCP part of a Codex requirements.toml.
func ParseCodex(data []byte) (*CodexRequirements, error) {
	var r CodexRequirements
	if _, err := toml.Decode(string(data), &r); err != nil {
		return nil, err
	}
	return &r, nil
}

// ParseGemini reads the MCP part of Gemini CLI's system settings.
func ParseGemini(data []byte) (*GeminiSettings, error) {
	var g GeminiSettings
	if err := json.Unmarshal(data, &g); err != nil {
		return nil, err
	}
	return &g, nil
}
