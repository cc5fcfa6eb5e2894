package canonical

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Validate checks every server of the set and the set as a whole: names
// present and unique, a transport that fits the fields, a command for stdio,
// a well-formed URL for remote servers. Each problem carries the server's
// Origin so the user sees file:line:col.
func (s *Set) Validate() Diagnostics {
	var ds Diagnostics
	seen := map[string]Pos{}
	for i := range s.Servers {
		srv := &s.Servers[i]
		if prev, dup := seen[srv.Name]; dup && srv.Name != "" {
			d := Errorf("duplicate server name %q", srv.Name)
			d.Detail = "first defined at " + orUnknown(prev.String()) + "; rename one of them"
			d.Server = srv.Name
			ds = append(ds, d.At(srv.Origin))
			continue
		}
		seen[srv.Name] = srv.Origin
		ds = append(ds, srv.Validate()...)
	}
	return ds
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown place"
	}
	return s
}

// Validate checks one server on its own.
func (s *Server) Validate() Diagnostics {
	var ds Diagnostics
	add := func(field, detail, format string, args ...any) {
		d := Errorf(format, args...)
		d.Detail, d.Server, d.Field = detail, s.Name, field
		ds = append(ds, d.At(s.Origin))
	}
	if strings.TrimSpace(s.Name) == "" {
		add("name", "every server needs a name: it is the key clients list it under", "server has an empty name")
	} else if p := NameProblem(s.Name); p != "" {
		add("name", "rename it ("+NameAdvice+")", "server name %q %s", s.Name, p)
	}
	switch {
	case s.Command != "" && s.URL != "":
		add("url", "a server either runs a local command (stdio) or talks to a URL (http, sse); remove one of them",
			"server has both a command and a url")
	case s.Transport == "" && s.Command == "" && s.URL == "":
		add("command", `give a "command" for a local server or a "url" for a remote one`, "server has neither a command nor a url")
	case s.Transport == Stdio:
		if strings.TrimSpace(s.Command) == "" {
			add("command", `a stdio server runs a local program: set "command"`, "stdio server has no command")
		}
	case s.Transport.IsRemote():
		if s.URL == "" {
			add("url", `a `+string(s.Transport)+` server needs a "url"`, "%s server has no url", s.Transport)
		} else if msg := checkURL(s.URL); msg != "" {
			add("url", `use an absolute http:// or https:// URL, for example "https://example.com/mcp"`, "malformed url %q: %s", s.URL, msg)
		}
	case s.Transport != "":
		add("type", `use one of "stdio", "http" (streamable HTTP) or "sse"`, "unknown transport %q", s.Transport)
	}
	for k := range s.Env {
		if k == "" {
			add("env", "every environment variable needs a name", "env has an empty variable name")
		}
	}
	return ds
}

// checkURL returns why u is not a usable server URL, or "". References are
// allowed anywhere in it: ${BASE}/mcp is fine.
func checkURL(u string) string {
	t := Parse(u, DialectCanonical)
	if len(t) > 0 && t[0].Kind != Literal {
		return "" // the whole origin comes from a reference; nothing to check
	}
	probe := t.mapRefs(func(Segment) string { return "x" })
	p, err := url.Parse(probe)
	if err != nil {
		return strings.TrimPrefix(err.Error(), "parse "+`"`+probe+`": `)
	}
	switch p.Scheme {
	case "http", "https":
		if p.Host == "" {
			return "it has no host"
		}
	case "unix", "pipe": // VS Code accepts local sockets and pipes
	case "":
		return "it has no scheme (http:// or https://)"
	default:
		return "scheme " + p.Scheme + " is not http or https"
	}
	return ""
}

// NameProblem says what is wrong with a server name that no client can
// hold as it is, or "" when there is nothing wrong. The real clients read
// almost any name from their files (Claude Code, Codex, OpenCode, Gemini
// CLI, Qwen Code, Copilot CLI and Amp list "a b", "a/b", "../x", "a@b",
// "ünï" and quotes as they are: interop/names_test.go), but a control
// character is another matter: Copilot CLI drops a server whose name holds
// a tab, every client's list shows it as a broken line, and a terminal
// acts on an escape sequence. So are a name made of nothing but white
// space, one that starts or ends with it (the clients' own 'mcp add' trims
// or refuses it), text that is not UTF-8, and the characters that make
// text display in another order than it is stored.
func NameProblem(name string) string {
	if strings.TrimSpace(name) == "" {
		return "is empty"
	}
	if !utf8.ValidString(name) {
		return "is not valid UTF-8"
	}
	for i, r := range name {
		switch {
		case r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f:
			return fmt.Sprintf("holds a control character (%U at byte %d)", r, i)
		case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c:
			return fmt.Sprintf("holds a character that reorders text on screen (%U at byte %d)", r, i)
		}
	}
	if strings.TrimSpace(name) != name {
		return "starts or ends with white space"
	}
	return ""
}

// NameAdvice is which names are safe, for the advice about one that
// NameProblem refuses.
const NameAdvice = "letters, digits, '-', '_' and '.' are read the same way by every client"
