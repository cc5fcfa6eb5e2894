package paste

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
)

// splitCommandLine splits a command line the way a POSIX shell splits words:
// blanks separate words, 'single quotes' keep everything, "double quotes"
// keep blanks and let \ escape " \ $ and `. Outside quotes a backslash
// escapes only a blank, a quote, a backslash or $, so that Windows paths
// (C:\tools\server.exe) survive. Nothing is expanded: $VAR stays as written.
func splitCommandLine(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return nil, errors.New("a single quote is not closed")
			}
			w.WriteString(s[i+1 : i+1+end])
			i += end + 1
			inWord = true
		case c == '"':
			inWord = true
			closed := false
			for i++; i < len(s); i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
					w.WriteByte(s[i])
					continue
				}
				if s[i] == '"' {
					closed = true
					break
				}
				w.WriteByte(s[i])
			}
			if !closed {
				return nil, errors.New("a double quote is not closed")
			}
		case c == '\\' && i+1 < len(s) && strings.IndexByte(" \t\"'\\$", s[i+1]) >= 0:
			i++
			w.WriteByte(s[i])
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}

// FromCommand builds a stdio server from a command line given after "--":
// `mcpsync add NAME -- npx -y pkg`. A single argument holding a whole
// command line ("npx -y pkg") is split with shell quoting rules, and a
// Windows `cmd /c` wrapper is removed; both are reported as warnings.
// References in any spelling (${env:X}, {env:X}) are re-spelled ${X}.
func FromCommand(name string, argv []string) (canonical.Server, canonical.Diagnostics) {
	srv := canonical.Server{Name: name, Transport: canonical.Stdio}
	var ds canonical.Diagnostics
	warn := func(format string, args ...any) {
		d := canonical.Warnf(format, args...)
		d.Server, d.Field = name, "command"
		ds = append(ds, d)
	}
	if len(argv) == 0 || strings.TrimSpace(argv[0]) == "" {
		d := canonical.Errorf("no command given")
		d.Detail, d.Server, d.Field = "put the program and its arguments after --, for example: mcpsync add "+orName(name)+" -- npx -y @modelcontextprotocol/server-github", name, "command"
		return srv, canonical.Diagnostics{d}
	}
	cmd, args := argv[0], append([]string(nil), argv[1:]...)
	if len(args) == 0 && strings.ContainsAny(cmd, " \t") && !isPathWithSpaces(cmd) {
		parts, err := splitCommandLine(cmd)
		if err != nil {
			d := canonical.Errorf("cannot split the command line %q: %v", cmd, err)
			d.Detail, d.Server, d.Field = "give the program and each argument as separate words after --", name, "command"
			return srv, canonical.Diagnostics{d}
		}
		if len(parts) > 1 {
			warn("the command line %q was split with shell quoting rules into the command %q and %d arguments", cmd, parts[0], len(parts)-1)
		}
		cmd, args = parts[0], parts[1:]
	}
	if c, a, ok := unwrapCmd(cmd, args); ok {
		warn("unwrapped the Windows \"cmd /c\" wrapper: the command is %q (mcpsync adds the wrapper back when it writes for native Windows)", c)
		cmd, args = c, a
	}
	srv.Command = respell(cmd)
	for _, a := range args {
		srv.Args = append(srv.Args, respell(a))
	}
	srv.Normalize()
	return srv, append(ds, validateOne(&srv)...)
}

// respell writes the references of a command-line value canonically. Any
// spelling is understood; the shell has already expanded what it would.
func respell(s string) string {
	if !strings.ContainsAny(s, "${") {
		return s
	}
	out, _ := canonical.Parse(s, canonical.DialectCanonical).Render(canonical.DialectCanonical)
	return out
}

func orName(name string) string {
	if name == "" {
		return "NAME"
	}
	return name
}

// Flags are the command-line options of `mcpsync add NAME …` that describe
// a server field by field.
type Flags struct {
	URL       string   // --url: a remote server
	Transport string   // --transport: http (default for a URL) or sse; any spelling Parse reads
	Headers   []string // --header 'Name: value'
	Env       []string // --env NAME=value
	Cwd       string   // --cwd DIR
	Disabled  bool     // --disabled
}

// IsZero reports whether no flag was given.
func (f Flags) IsZero() bool {
	return f.URL == "" && f.Transport == "" && len(f.Headers) == 0 && len(f.Env) == 0 && f.Cwd == "" && !f.Disabled
}

// FromFlags builds a server from the command line: a command (argv, the
// words after "--") or a URL (Flags.URL), plus the options that fit it.
// Options that do not fit (--header for a command, --env for a URL) are
// errors rather than silently dropped.
func FromFlags(name string, argv []string, f Flags) (canonical.Server, canonical.Diagnostics) {
	var srv canonical.Server
	var ds canonical.Diagnostics
	fail := func(field, detail, format string, args ...any) {
		d := canonical.Errorf(format, args...)
		d.Detail, d.Server, d.Field = detail, name, field
		ds = append(ds, d)
	}
	switch {
	case len(argv) > 0 && f.URL != "":
		fail("url", "a server either runs a command (after --) or talks to a URL (--url), not both", "both a command and --url are given")
		return canonical.Server{Name: name}, ds
	case f.URL != "":
		srv = canonical.Server{Name: name, Transport: canonical.HTTP, URL: respell(f.URL)}
		if f.Transport != "" {
			t, ok := known().spellings[strings.ToLower(f.Transport)]
			switch {
			case !ok:
				fail("transport", acceptedTransports, "unknown transport %q", f.Transport)
			case t == canonical.Stdio:
				fail("transport", "a URL is reached over http or sse; for a local program give the command after --", "--transport %s does not go with --url", f.Transport)
			default:
				srv.Transport = t
			}
		}
		for _, h := range f.Headers {
			k, v, ok := strings.Cut(h, ":")
			k = strings.TrimSpace(k)
			if !ok || k == "" || strings.ContainsAny(k, " \t") {
				fail("headers", "write it as --header 'Name: value', for example --header 'Authorization: Bearer ${API_TOKEN}'", "malformed header %q", h)
				continue
			}
			if srv.Headers == nil {
				srv.Headers = map[string]string{}
			}
			srv.Headers[k] = respell(strings.TrimSpace(v))
		}
		if len(f.Env) > 0 {
			fail("env", "the environment is for a local command; to send a secret to a URL use --header 'Authorization: Bearer ${TOKEN}'", "--env does not go with --url")
		}
		if f.Cwd != "" {
			fail("cwd", "a working directory is for a local command", "--cwd does not go with --url")
		}
	default:
		var d canonical.Diagnostics
		srv, d = FromCommand(name, argv)
		ds = append(ds, d...)
		if f.Transport != "" && !strings.EqualFold(f.Transport, "stdio") && !strings.EqualFold(f.Transport, "local") {
			fail("transport", "a command is run over stdio; for a remote server give --url", "--transport %s does not go with a command", f.Transport)
		}
		if len(f.Headers) > 0 {
			fail("headers", "headers are sent to a URL; give --url for a remote server", "--header does not go with a command")
		}
		for _, kv := range f.Env {
			k, v, ok := strings.Cut(kv, "=")
			if !ok || k == "" {
				fail("env", "write it as --env NAME=value, for example --env 'GITHUB_TOKEN=${GITHUB_TOKEN}'", "malformed --env %q", kv)
				continue
			}
			if srv.Env == nil {
				srv.Env = map[string]string{}
			}
			srv.Env[k] = respell(v)
		}
		srv.Cwd = respell(f.Cwd)
	}
	srv.Disabled = f.Disabled
	srv.Normalize()
	if !ds.HasErrors() {
		ds = append(ds, validateOne(&srv)...)
	}
	return srv, dedupe(ds)
}

// validateOne validates a server built from the command line, where there
// is no file position to point at.
func validateOne(srv *canonical.Server) canonical.Diagnostics {
	set := canonical.Set{Servers: []canonical.Server{*srv}}
	return set.Validate()
}

func dedupe(ds canonical.Diagnostics) canonical.Diagnostics {
	seen := map[string]bool{}
	out := ds[:0]
	for _, d := range ds {
		key := fmt.Sprint(d.Severity, d.Summary, d.Field)
		if !seen[key] {
			seen[key] = true
			out = append(out, d)
		}
	}
	return out
}
