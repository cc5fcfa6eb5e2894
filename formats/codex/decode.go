package codex

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/internal/adapterkit"
	"github.com/mcpsync/mcpsync/formats/internal/tomledit"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

// knownKeys are the server keys the canonical model holds; every other key
// is kept verbatim in Server.Extra["codex"].
var knownKeys = map[string]bool{
	"command": true, "args": true, "env": true, "env_vars": true, "cwd": true,
	"url": true, "bearer_token_env_var": true, "http_headers": true, "env_http_headers": true,
	"enabled": true, "enabled_tools": true, "disabled_tools": true,
	"startup_timeout_sec": true, "startup_timeout_ms": true, "tool_timeout_sec": true,
	"oauth": true, "scopes": true, "oauth_resource": true,
}

// stdioOnly and httpOnly are the keys Codex refuses on the other transport
// (codex-rs/config/src/mcp_types.rs), in the order it checks them.
var (
	httpOnly  = []string{"url", "bearer_token_env_var", "bearer_token", "http_headers", "env_http_headers", "oauth", "oauth_resource"}
	stdioOnly = []string{"args", "env", "env_vars", "cwd", "bearer_token"}
)

// file is a decoded config.toml: the servers, and the raw tables they came
// from, which Encode needs to keep what it does not change.
type file struct {
	doc     *tomledit.Doc
	set     canonical.Set
	raw     map[string]map[string]any
	wrapped map[string]bool // servers read from a cmd /c wrapper
}

func (adapter) Decode(loc formats.Location, data []byte) (canonical.Set, canonical.Diagnostics) {
	f, ds := decodeFile(loc.Path, data)
	return f.set, ds
}

// decodeFile parses data and reads every server. The file's doc is nil
// when data is not TOML.
func decodeFile(path string, data []byte) (*file, canonical.Diagnostics) {
	doc, err := tomledit.Parse(data)
	if err != nil {
		d := canonical.Errorf("invalid TOML: %s", syntaxMsg(err))
		d.Detail = "Codex refuses to start with this file (failed to load configuration); fix the syntax at this position"
		var se *tomledit.SyntaxError
		if errors.As(err, &se) {
			d.Line, d.Column = se.Line, se.Column
		}
		d.File = path
		return &file{}, canonical.Diagnostics{d}
	}
	f := &file{doc: doc, raw: map[string]map[string]any{}, wrapped: map[string]bool{}}
	r := reader{file: path, doc: doc}
	for _, alias := range []string{"mcpServers", "mcp-servers", "mcp_server", "mcpservers"} {
		if _, ok := doc.Root[alias]; ok {
			d := canonical.Warnf("Codex ignores [%s]", alias)
			d.Detail = "Codex reads servers only from [mcp_servers.NAME] tables; rename the table to mcp_servers"
			r.add(d, alias)
		}
	}
	v, ok := doc.Root[section]
	if !ok {
		return f, r.ds
	}
	servers, ok := v.(map[string]any)
	if !ok {
		d := canonical.Errorf("invalid type: %s, expected a table of servers", describe(v))
		d.Detail = "write each server as its own [mcp_servers.NAME] table"
		r.add(d, section)
		return f, r.ds
	}
	for _, name := range doc.Names(section) {
		m, ok := servers[name].(map[string]any)
		if !ok {
			d := canonical.Errorf("invalid type: %s, expected a server table", describe(servers[name]))
			d.Detail = "a server is a table: [mcp_servers." + tomledit.RenderKey(name) + "] with command or url"
			d.Server = name
			r.add(d, section, name)
			continue
		}
		srv, wrapped, ok := r.server(name, m)
		if !ok {
			continue
		}
		f.set.Servers = append(f.set.Servers, srv)
		f.raw[name] = m
		f.wrapped[name] = wrapped
	}
	r.ds.Sort()
	return f, r.ds
}

func syntaxMsg(err error) string {
	var se *tomledit.SyntaxError
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}

// reader accumulates the diagnostics of one file.
type reader struct {
	file string
	doc  *tomledit.Doc
	ds   canonical.Diagnostics
}

func (r *reader) pos(path ...string) canonical.Pos {
	line, col := r.doc.Pos(path...)
	return canonical.Pos{File: r.file, Line: line, Column: col}
}

// add records d at the position of path, or of the nearest enclosing key
// that has one.
func (r *reader) add(d *canonical.Diagnostic, path ...string) {
	for n := len(path); n > 0; n-- {
		if p := r.pos(path[:n]...); p.Line > 0 {
			d.At(p)
			break
		}
	}
	if d.File == "" {
		d.File = r.file
	}
	r.ds = append(r.ds, d)
}

// server reads one [mcp_servers.NAME] table the way Codex does, reporting
// what Codex would reject as errors (with Codex's own wording) and what it
// would silently misread as warnings. ok is false when the server has an
// error.
func (r *reader) server(name string, m map[string]any) (srv canonical.Server, wrapped bool, ok bool) {
	start := len(r.ds)
	errs := func() bool { return canonical.Diagnostics(r.ds[start:]).HasErrors() }
	fail := func(key, detail, format string, args ...any) {
		d := canonical.Errorf(format, args...)
		d.Detail, d.Server, d.Field = detail, name, key
		path := []string{section, name}
		if key != "" {
			path = append(path, strings.Split(key, ".")...)
		}
		r.add(d, path...)
	}
	warn := func(key, detail, format string, args ...any) {
		d := canonical.Warnf(format, args...)
		d.Detail, d.Server, d.Field = detail, name, key
		path := []string{section, name}
		if key != "" {
			path = append(path, strings.Split(key, ".")...)
		}
		r.add(d, path...)
	}
	in := " in `mcp_servers." + tomledit.RenderKey(name) + "`"
	get := adapterkit.Typed{M: m, Describe: describe, Fail: func(key, format string, args ...any) {
		fail(key, "Codex refuses to load the file with this value; give the type it expects", format, args...)
	}}

	srv = canonical.Server{Name: name, Origin: r.pos(section, name)}
	_, hasCmd := m["command"]
	_, hasURL := m["url"]
	switch {
	case hasCmd:
		srv.Transport = canonical.Stdio
		for _, k := range httpOnly {
			if _, ok := m[k]; ok {
				fail(k, "a server either runs a command (stdio) or talks to a url (streamable HTTP); Codex refuses the whole file: remove "+k+" or command",
					"%s is not supported for stdio%s", k, in)
			}
		}
	case hasURL:
		srv.Transport = canonical.HTTP
		for _, k := range stdioOnly {
			if _, ok := m[k]; ok {
				detail := "Codex refuses the whole file: remove " + k + " from this url server"
				if k == "bearer_token" {
					detail = "Codex does not take a token in the file: put it in an environment variable and name it with bearer_token_env_var"
				}
				fail(k, detail, "%s is not supported for streamable_http%s", k, in)
			}
		}
	default:
		fail("", `give "command" for a local server or "url" for a streamable HTTP server; Codex refuses the whole file`,
			"invalid transport%s: neither command nor url", in)
	}

	literal := func(key, s string) {
		t := canonical.Parse(s, canonical.DialectNone)
		if f := t.Foreign(); len(f) > 0 {
			warn(key, "mcpsync reads it as a reference, but Codex expands nothing: the server receives the text "+f[0].Text+
				"; to forward a variable use env_vars (env) or env_http_headers (headers)",
				"Codex passes %s literally", f[0].Text)
		}
	}

	if s, ok := get.Str("command"); ok {
		srv.Command = s
		literal("command", s)
	}
	srv.Args = get.StrList("args")
	for _, a := range srv.Args {
		literal("args", a)
	}
	if cmd, args, ok := unwrapCmd(srv.Command, srv.Args); ok {
		srv.Command, srv.Args, wrapped = cmd, args, true
	}
	if env, ok := get.StrMap("env"); ok {
		srv.Env = env
		for _, k := range mapkeys.Sorted(env) {
			literal("env."+k, env[k])
		}
	}
	if vars, ok := m["env_vars"]; ok {
		list, isList := vars.([]any)
		if !isList {
			get.Fail("env_vars", "invalid type: %s, expected a sequence", describe(vars))
		}
		withSource := false
		for _, e := range list {
			var name, source string
			switch x := e.(type) {
			case string:
				name = x
			case map[string]any:
				n, _ := x["name"].(string)
				name = n
				if s, has := x["source"]; has {
					source, _ = s.(string)
					withSource = true
					if source != "local" && source != "remote" {
						fail("env_vars", `use source = "local" (the default) or "remote"`,
							"unsupported env_vars source `%v`; expected `local` or `remote`%s", s, in)
					}
				}
				if name == "" {
					get.Fail("env_vars", "invalid env_vars entry: expected { name = \"VAR\" }")
					continue
				}
			default:
				get.Fail("env_vars", "invalid type: %s, expected a string or a table", describe(e))
				continue
			}
			if srv.Env == nil {
				srv.Env = map[string]string{}
			}
			if old, dup := srv.Env[name]; dup && old != "${"+name+"}" {
				warn("env_vars", "env sets "+name+" and env_vars forwards it too; mcpsync keeps the value from env",
					"%s is in both env and env_vars", name)
				continue
			}
			srv.Env[name] = "${" + name + "}"
		}
		if withSource {
			srv.SetExtra(ID, "env_vars", tomledit.ToJSON(vars))
		}
	}
	if s, ok := get.Str("cwd"); ok {
		srv.Cwd = s
		literal("cwd", s)
	}
	if s, ok := get.Str("url"); ok {
		srv.URL = s
		literal("url", s)
	}
	if h, ok := get.StrMap("http_headers"); ok {
		for _, k := range mapkeys.Sorted(h) {
			literal("http_headers."+k, h[k])
			setHeader(&srv, k, h[k])
		}
	}
	if h, ok := get.StrMap("env_http_headers"); ok {
		for _, k := range mapkeys.Sorted(h) {
			setHeader(&srv, k, "${"+h[k]+"}")
		}
	}
	if s, ok := get.Str("bearer_token_env_var"); ok {
		if _, dup := headerKey(srv.Headers, "Authorization"); dup {
			warn("bearer_token_env_var", "Codex sends the bearer token; the Authorization header of http_headers is dropped by mcpsync",
				"both bearer_token_env_var and an Authorization header are set")
		}
		if k, ok := headerKey(srv.Headers, "Authorization"); ok {
			delete(srv.Headers, k)
		}
		setHeader(&srv, "Authorization", "Bearer ${"+s+"}")
	}
	if b, ok := get.Bool("enabled"); ok {
		srv.Disabled = !b
	}
	srv.ToolsAllow = get.StrList("enabled_tools")
	srv.ToolsDeny = get.StrList("disabled_tools")
	if sec, ok := get.Number("startup_timeout_sec", "f64"); ok {
		srv.StartupTimeout = r.seconds(sec, fail, "startup_timeout_sec")
		if _, both := m["startup_timeout_ms"]; both {
			warn("startup_timeout_ms", "Codex uses startup_timeout_sec when both are set; remove one", "startup_timeout_ms is ignored")
		}
	} else if ms, ok := get.Uint("startup_timeout_ms"); ok {
		srv.StartupTimeout = time.Duration(ms) * time.Millisecond
	}
	if sec, ok := get.Number("tool_timeout_sec", "f64"); ok {
		srv.ToolTimeout = r.seconds(sec, fail, "tool_timeout_sec")
	}
	r.oauth(&srv, m, get, name)

	for _, k := range mapkeys.Sorted(m) {
		if knownKeys[k] {
			continue
		}
		v := m[k]
		srv.SetExtra(ID, k, tomledit.ToJSON(v))
		switch k {
		case "headers":
			warn("headers", "Codex ignores `headers` (other clients' spelling); use http_headers, or env_http_headers for values from the environment",
				"Codex ignores headers")
		case "type":
			if s, _ := v.(string); s == "sse" {
				warn("type", "Codex has no SSE transport and ignores type: it speaks streamable HTTP to this url", `type = "sse" is ignored by Codex`)
			}
		}
	}
	if errs() {
		return srv, wrapped, false
	}
	// Codex loads what the model calls invalid (an empty command, a url
	// without a scheme), but the server cannot work: say so, as a warning.
	for _, d := range srv.Validate() {
		d.Severity = canonical.Warning
		r.ds = append(r.ds, d)
	}
	return srv, wrapped, true
}

func (r *reader) seconds(sec float64, fail func(key, detail, format string, args ...any), key string) time.Duration {
	if sec < 0 || math.IsNaN(sec) || math.IsInf(sec, 0) || sec > float64(math.MaxInt64/int64(time.Second)) {
		fail(key, "give a positive number of seconds", "cannot convert float seconds to Duration: %v is out of range", sec)
		return 0
	}
	return time.Duration(sec * float64(time.Second))
}

// oauth reads oauth = { client_id, callback_port, callback_url }, scopes
// and oauth_resource. Keys of the oauth table the model lacks stay in
// Extra["codex"]["oauth"].
func (r *reader) oauth(srv *canonical.Server, m map[string]any, get adapterkit.Typed, name string) {
	o := &canonical.OAuth{}
	o.Scopes = get.StrList("scopes")
	if s, ok := get.Str("oauth_resource"); ok {
		o.Resource = s
	}
	if v, ok := m["oauth"]; ok {
		t, isMap := v.(map[string]any)
		if !isMap {
			get.Fail("oauth", "invalid type: %s, expected a table", describe(v))
		}
		sub := adapterkit.Typed{M: t, Prefix: "oauth.", Fail: get.Fail, Describe: describe}
		if s, ok := sub.Str("client_id"); ok {
			o.ClientID = s
		}
		if s, ok := sub.Str("callback_url"); ok {
			o.RedirectURI = s
		}
		if p, ok := sub.Uint("callback_port"); ok {
			if p > 65535 {
				get.Fail("oauth.callback_port", "invalid value: integer `%d`, expected u16", p)
			} else {
				o.CallbackPort = int(p)
			}
		}
		rest := map[string]any{}
		for k, v := range t {
			if k != "client_id" && k != "callback_url" && k != "callback_port" {
				rest[k] = v
			}
		}
		if len(rest) > 0 {
			srv.SetExtra(ID, "oauth", tomledit.ToJSON(rest))
		}
	}
	if !o.IsZero() {
		srv.Auth.OAuth = o
	}
}

// setHeader sets a header, replacing one that differs only in case.
func setHeader(srv *canonical.Server, k, v string) {
	if srv.Headers == nil {
		srv.Headers = map[string]string{}
	}
	if old, ok := headerKey(srv.Headers, k); ok {
		delete(srv.Headers, old)
	}
	srv.Headers[k] = v
}

func headerKey(h map[string]string, k string) (string, bool) {
	for key := range h {
		if strings.EqualFold(key, k) {
			return key, true
		}
	}
	return "", false
}

// describe names a value the way serde does in Codex's errors:
// integer `1`, string "10", a sequence, a map.
func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("string %q", x)
	case int64:
		return fmt.Sprintf("integer `%d`", x)
	case float64:
		return fmt.Sprintf("floating point `%v`", x)
	case bool:
		return fmt.Sprintf("boolean `%v`", x)
	case []any, []map[string]any:
		return "sequence"
	case map[string]any:
		return "map"
	case time.Time:
		return "datetime"
	}
	return fmt.Sprintf("%T", v)
}
