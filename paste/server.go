package paste

import (
	"fmt"
	"maps"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/secrets"
)

const acceptedTransports = `use "stdio", "http" (streamable HTTP) or "sse"; ` +
	`also read: "local", "remote", "streamable-http", "streamableHttp", "streamable_http"`

// signature names the client an entry was written for, from keys only that
// client uses, so that its unknown keys land in the right Extra.
func signature(members []member) string {
	for _, m := range members {
		switch m.key {
		case "transport":
			if m.val.kind == kObject {
				return "cline"
			}
		case "transportType":
			return "cline"
		case "serverUrl":
			return "windsurf"
		case "httpUrl", "trust", "includeTools", "excludeTools", "authProviderType", "targetAudience", "targetServiceAccount", "tcp":
			return "gemini"
		case "alwaysAllow", "watchPaths":
			return "roo"
		case "cmd", "uri", "envs", "env_keys", "available_tools", "bundled":
			return "goose"
		case "environment":
			return "opencode"
		case "envFile":
			return "cursor"
		case "bearer_token_env_var", "http_headers", "env_http_headers", "env_vars", "startup_timeout_sec",
			"startup_timeout_ms", "tool_timeout_sec", "enabled_tools", "disabled_tools":
			return "codex"
		case "type":
			switch m.val.text {
			case "streamableHttp":
				return "cline"
			case "streamable_http":
				return "goose"
			case "local", "remote":
				return "opencode"
			}
		case "command":
			if m.val.kind == kArray {
				return "opencode"
			}
		}
	}
	return "claude-code"
}

// serverReader reads one entry into a canonical server.
type serverReader struct {
	e       entry
	client  string // where unknown keys go; whose units and dialect apply
	strict  bool
	dialect canonical.Dialect
	srv     canonical.Server
	ds      canonical.Diagnostics
	skip    bool // an entry mcpsync cannot run anywhere (a Zed extension)
	// examples: replace example values by references (Options.ExampleValues)
	examples bool

	typeText string
	typePos  canonical.Pos
	hasType  bool

	urlKey string
	urlPos canonical.Pos

	command     string
	commandPos  canonical.Pos
	commandArgs []string // from a command array or Zed's {path, args}
	commandKind string   // "array", "string", "" for the plain case
	args        []string
	cmdArgPos   []canonical.Pos // where each of commandArgs was written
	argPos      []canonical.Pos // where each of args was written
	argsGiven   bool
	envVars     []string // Codex env_vars: forwarded names
	timeout     *member
	enabled     *bool
	disabled    *bool
}

func (r *serverReader) errorAt(p canonical.Pos, field, detail, format string, args ...any) {
	d := canonical.Errorf(format, args...)
	d.Detail, d.Server, d.Field = detail, r.e.name, field
	r.ds = append(r.ds, d.At(p))
}

func (r *serverReader) warnAt(p canonical.Pos, field, detail, format string, args ...any) {
	d := canonical.Warnf(format, args...)
	d.Detail, d.Server, d.Field = detail, r.e.name, field
	r.ds = append(r.ds, d.At(p))
}

// exampleValues replaces, when the caller asked for it, the example values
// a README puts where a secret goes ("YOUR_API_KEY", "<token>", "Bearer
// your-token-here") by a reference to an environment variable: storing the
// example would hand every client a value that cannot work, and look like a
// credential besides. An env key names its variable; a header's variable is
// named after the server and the header (Authorization: SERVER_TOKEN), and
// its scheme ("Bearer ") stays in front of the reference.
func (r *serverReader) exampleValues(m *member, values map[string]string, header bool) {
	if !r.examples {
		return
	}
	for i := range m.val.members {
		sub := &m.val.members[i]
		ref, name := exampleRef(r.e.name, sub.key, values[sub.key], header)
		if ref == "" {
			continue
		}
		values[sub.key] = ref
		r.warnAt(sub.val.pos, m.key+"."+sub.key, exampleDetail(name), "%s", exampleSummary(sub.key, ref, header))
	}
}

// exampleRef is the reference that stands for an example value v of an env
// key or a header (and the variable it names), or "" when v is not one.
func exampleRef(server, key, v string, header bool) (ref, name string) {
	if strings.Contains(v, "$") {
		return "", "" // a reference, or a shell variable this client does not expand: the user's either way
	}
	scheme, cred, hasScheme := strings.Cut(v, " ")
	if !hasScheme || !header {
		scheme, cred = "", v
	}
	if !secrets.IsExample(cred) {
		return "", ""
	}
	name = key // an env key names its variable; a header, the server's and its own
	if header {
		word := key
		if strings.EqualFold(word, "authorization") {
			word = "token"
		}
		name = secrets.VarName(server + "_" + word)
	}
	if !canonical.IsVarName(name) {
		return "", ""
	}
	ref = "${" + name + "}"
	if scheme != "" {
		ref = scheme + " " + ref
	}
	return ref, name
}

func exampleSummary(key, ref string, header bool) string {
	what := "env"
	if header {
		what = "header"
	}
	return fmt.Sprintf("%s %s holds an example value, not a real one; stored as %s", what, key, ref)
}

func exampleDetail(name string) string {
	return "set " + name + " in the environment your clients start from, or edit the server to give the value"
}

// exampleServerValues is exampleValues for a server a client's adapter
// read: the same references, warned at the server.
func exampleServerValues(srv *canonical.Server) canonical.Diagnostics {
	var ds canonical.Diagnostics
	for _, part := range []struct {
		values map[string]string
		field  string
		header bool
	}{{srv.Env, "env", false}, {srv.Headers, "headers", true}} {
		for _, k := range slices.Sorted(maps.Keys(part.values)) {
			if ref, name := exampleRef(srv.Name, k, part.values[k], part.header); ref != "" {
				part.values[k] = ref
				d := canonical.Warnf("%s", exampleSummary(k, ref, part.header))
				d.Detail, d.Server, d.Field = exampleDetail(name), srv.Name, part.field+"."+k
				ds = append(ds, d.At(srv.Origin))
			}
		}
	}
	return ds
}

// readServer turns one entry into a canonical server. skip is true for an
// entry that is reported and left out.
func readServer(e entry, examples bool) (srv canonical.Server, skip bool, ds canonical.Diagnostics) {
	r := &serverReader{e: e, examples: examples, srv: canonical.Server{Name: e.name, Origin: e.namePos}}
	if e.val.kind != kObject {
		r.errorAt(e.val.pos, "", `a server is an object such as {"command": "npx", "args": […]}`,
			"server %q must be an object, not %s", e.name, e.val.describe())
		return r.srv, false, r.ds
	}
	members := e.val.members
	if t := e.val.get("transport"); t != nil && t.kind == kObject { // Cline CLI nests the transport
		flat := make([]member, 0, len(members)+len(t.members))
		for _, m := range members {
			if m.key != "transport" {
				flat = append(flat, m)
			}
		}
		members = append(flat, t.members...)
	}
	r.client = e.client
	r.strict = known().strict(e.client)
	if r.client == "" {
		r.client = signature(members)
	}
	r.dialect = known().dialect(r.client)

	seen := map[string]canonical.Pos{}
	for i := range members {
		m := &members[i]
		if prev, dup := seen[m.key]; dup {
			r.errorAt(m.keyPos, m.key, "first given at "+prev.String()+"; keep one of them", "duplicate key %q", m.key)
			continue
		}
		seen[m.key] = m.keyPos
		r.member(m)
	}
	r.finish()
	return r.srv, r.skip, r.ds
}

// member reads one key of the server object.
func (r *serverReader) member(m *member) {
	switch m.key {
	case "type", "transportType":
		if m.key == "transportType" && r.hasType {
			r.extra(m)
			return
		}
		if s, ok := r.str(m); ok {
			r.typeText, r.typePos, r.hasType = s, m.val.pos, true
		}
	case "transport": // a string here; the nested object was flattened
		if s, ok := r.str(m); ok && !r.hasType {
			r.typeText, r.typePos, r.hasType = s, m.val.pos, true
		}
	case "command", "cmd":
		r.readCommand(m)
	case "args":
		r.argsGiven = true
		switch m.val.kind {
		case kString:
			parts, err := splitCommandLine(m.val.text)
			if err != nil {
				r.errorAt(m.val.pos, "args", "give the arguments as an array of strings", "cannot split args: %v", err)
				return
			}
			r.warnAt(m.val.pos, "args", "", "\"args\" is one string; split into %d arguments with shell quoting rules", len(parts))
			r.args = append(r.args, parts...)
			for range parts {
				r.argPos = append(r.argPos, m.val.pos)
			}
		default:
			if list, ok := r.strList(m); ok {
				r.args = append(r.args, list...)
				for _, el := range m.val.elems {
					r.argPos = append(r.argPos, el.pos)
				}
			}
		}
	case "env", "environment", "envs":
		if env, ok := r.strMap(m); ok {
			r.exampleValues(m, env, false)
			r.srv.Env = mergeMap(r.srv.Env, env)
		}
	case "env_vars": // Codex: forward these variables from the parent environment
		r.readEnvVars(m)
	case "cwd":
		if s, ok := r.str(m); ok {
			r.srv.Cwd = r.tmpl(s, m)
		}
	case "url", "serverUrl", "httpUrl", "uri":
		s, ok := r.str(m)
		if !ok {
			return
		}
		if r.urlKey != "" {
			// Gemini reads httpUrl before url; keep the other one verbatim.
			if m.key == "httpUrl" {
				r.warnAt(m.keyPos, m.key, "", "both %q and %q are given; using %q as Gemini CLI does, %q is kept for this client only", r.urlKey, m.key, m.key, r.urlKey)
				r.srv.SetExtra(r.client, r.urlKey, jsonString(r.srv.URL))
			} else {
				r.warnAt(m.keyPos, m.key, "", "both %q and %q are given; using %q, %q is kept for this client only", r.urlKey, m.key, r.urlKey, m.key)
				r.extra(m)
				return
			}
		}
		r.urlKey, r.urlPos = m.key, m.val.pos
		r.srv.URL = r.tmpl(s, m)
	case "headers", "http_headers":
		if h, ok := r.strMap(m); ok {
			r.exampleValues(m, h, true)
			r.srv.Headers = mergeMap(r.srv.Headers, h)
		}
	case "env_http_headers": // Codex: header name -> environment variable
		if h, ok := r.strMap(m); ok {
			refs := make(map[string]string, len(h))
			for k, v := range h {
				refs[k] = "${" + v + "}"
			}
			r.srv.Headers = mergeMap(r.srv.Headers, refs)
		}
	case "bearer_token_env_var":
		if s, ok := r.str(m); ok {
			r.srv.Auth.BearerTokenEnv = s
		}
	case "disabled":
		if b, ok := r.boolean(m); ok {
			r.disabled = &b
		}
	case "enabled":
		if b, ok := r.boolean(m); ok {
			r.enabled = &b
		}
	case "enabled_tools", "includeTools", "available_tools":
		if list, ok := r.strList(m); ok {
			r.srv.ToolsAllow = append(r.srv.ToolsAllow, list...)
		}
	case "disabled_tools", "excludeTools", "disabledTools":
		if list, ok := r.strList(m); ok {
			r.srv.ToolsDeny = append(r.srv.ToolsDeny, list...)
		}
	case "tools":
		// Copilot CLI: an allow-list of names, ["*"] for all. Claude Code
		// and Codex use objects here, which stay verbatim.
		if list, ok := plainStrings(m.val); ok {
			if !(len(list) == 1 && list[0] == "*") {
				r.srv.ToolsAllow = append(r.srv.ToolsAllow, list...)
			}
			return
		}
		r.extra(m)
	case "startup_timeout_sec", "startup_timeout_ms", "tool_timeout_sec":
		unit := time.Second
		if strings.HasSuffix(m.key, "_ms") {
			unit = time.Millisecond
		}
		if d, ok := r.duration(m, unit); ok {
			if strings.HasPrefix(m.key, "startup") {
				r.srv.StartupTimeout = d
			} else {
				r.srv.ToolTimeout = d
			}
		}
	case "timeout":
		r.timeout = m
	case "oauth":
		r.readOAuth(m)
	case "scopes", "oauth_resource": // Codex keeps these beside the oauth table
		if r.client != "codex" {
			r.extra(m)
			return
		}
		o := r.oauth()
		if m.key == "oauth_resource" {
			if s, ok := r.str(m); ok {
				o.Resource = s
			}
		} else if list, ok := r.scopes(m); ok {
			o.Scopes = list
		}
	case "name":
		if m.val.kind == kString && m.val.text == r.e.name {
			return // Goose and Continue repeat the name inside the entry
		}
		r.extra(m)
	default:
		r.extra(m)
	}
}

func (r *serverReader) extra(m *member) { r.srv.SetExtra(r.client, m.key, m.val.json()) }

func (r *serverReader) oauth() *canonical.OAuth {
	if r.srv.Auth.OAuth == nil {
		r.srv.Auth.OAuth = &canonical.OAuth{}
	}
	return r.srv.Auth.OAuth
}

// readCommand reads "command" (or Goose's "cmd") in any of its shapes: a
// string, an array (OpenCode) or Zed's legacy {path, args, env}.
func (r *serverReader) readCommand(m *member) {
	if r.commandKind != "" || r.command != "" {
		r.errorAt(m.keyPos, m.key, `give the program once, in "command"`, "the command is given twice")
		return
	}
	switch m.val.kind {
	case kString:
		r.command, r.commandPos, r.commandKind = m.val.text, m.val.pos, "string"
	case kArray:
		list, ok := r.strList(m)
		if !ok {
			return
		}
		if len(list) == 0 {
			r.errorAt(m.val.pos, "command", "give the program and its arguments, for example [\"npx\", \"-y\", \"pkg\"]", "\"command\" is an empty array")
			return
		}
		r.command, r.commandPos, r.commandKind = list[0], m.val.pos, "array"
		r.commandArgs = list[1:]
		for _, el := range m.val.elems[1:] {
			r.cmdArgPos = append(r.cmdArgPos, el.pos)
		}
	case kObject: // Zed before 2025: "command": {"path": …, "args": […], "env": {…}}
		r.commandKind = "object"
		r.commandPos = m.val.pos
		for i := range m.val.members {
			sub := &m.val.members[i]
			switch sub.key {
			case "path":
				if s, ok := r.str(sub); ok {
					r.command = s
				}
			case "args":
				if list, ok := r.strList(sub); ok {
					r.commandArgs = list
					for _, el := range sub.val.elems {
						r.cmdArgPos = append(r.cmdArgPos, el.pos)
					}
				}
			case "env":
				if env, ok := r.strMap(sub); ok {
					r.srv.Env = mergeMap(r.srv.Env, env)
				}
			default:
				r.errorAt(sub.keyPos, "command", `Zed's command object has "path", "args" and "env"`, "unknown key %q in the command object", sub.key)
			}
		}
		if r.command == "" {
			r.errorAt(m.val.pos, "command", `set "path" to the program to run`, "the command object has no \"path\"")
		}
	default:
		r.errorAt(m.val.pos, "command", `give the program as a string, for example "npx"`, "\"%s\" must be a string, not %s", m.key, m.val.describe())
	}
}

func (r *serverReader) readEnvVars(m *member) {
	if m.val.kind != kArray {
		r.errorAt(m.val.pos, "env_vars", `list variable names, for example ["HOME", {name = "PATH"}]`, "\"env_vars\" must be an array, not %s", m.val.describe())
		return
	}
	for _, el := range m.val.elems {
		switch {
		case el.kind == kString:
			r.envVars = append(r.envVars, el.text)
		case el.kind == kObject && el.get("name") != nil && el.get("name").kind == kString:
			r.envVars = append(r.envVars, el.get("name").text)
		default:
			r.errorAt(el.pos, "env_vars", `each entry is a name or {name = "NAME", source = "local"}`, "an env_vars entry is %s", el.describe())
		}
	}
}

// oauthKeys are the OAuth settings the model holds, in every spelling.
var oauthKeys = map[string]bool{
	"clientId": true, "client_id": true, "clientSecret": true, "client_secret": true,
	"scopes": true, "scope": true, "callbackPort": true, "callback_port": true,
	"redirectUri": true, "redirect_uri": true, "callback_url": true,
	"authServerMetadataUrl": true, "resource": true,
}

// readOAuth maps an oauth object the model can hold entirely; any other
// shape (OpenCode's false, Gemini's endpoints) stays verbatim in Extra, so
// nothing is half-translated.
func (r *serverReader) readOAuth(m *member) {
	if m.val.kind != kObject {
		r.extra(m)
		return
	}
	for _, sub := range m.val.members {
		if !oauthKeys[sub.key] {
			r.extra(m)
			return
		}
	}
	o := r.oauth()
	for i := range m.val.members {
		sub := &m.val.members[i]
		switch sub.key {
		case "clientId", "client_id":
			if s, ok := r.str(sub); ok {
				o.ClientID = s
			}
		case "clientSecret", "client_secret":
			if s, ok := r.str(sub); ok {
				o.ClientSecret = r.tmpl(s, sub)
			}
		case "scopes", "scope":
			if list, ok := r.scopes(sub); ok {
				o.Scopes = list
			}
		case "callbackPort", "callback_port":
			if f, ok := r.number(sub); ok {
				if f != math.Trunc(f) || f < 1 || f > 65535 {
					r.errorAt(sub.val.pos, "oauth", "use a TCP port number from 1 to 65535", "callback port %s is not a port number", sub.val.text)
					continue
				}
				o.CallbackPort = int(f)
			}
		case "redirectUri", "redirect_uri", "callback_url":
			if s, ok := r.str(sub); ok {
				o.RedirectURI = s
			}
		case "authServerMetadataUrl":
			if s, ok := r.str(sub); ok {
				o.AuthServerMetadataURL = s
			}
		case "resource":
			if s, ok := r.str(sub); ok {
				o.Resource = s
			}
		}
	}
}

// scopes reads a list of scopes, or Claude Code's one space-separated string.
func (r *serverReader) scopes(m *member) ([]string, bool) {
	if m.val.kind == kString {
		return strings.Fields(m.val.text), true
	}
	return r.strList(m)
}

// finish settles what depends on several keys: the command's shape, the
// transport, enablement, timeouts, references.
func (r *serverReader) finish() {
	r.finishCommand()
	r.finishTransport()
	if r.disabled != nil && *r.disabled || r.enabled != nil && !*r.enabled {
		r.srv.Disabled = true
	}
	if len(r.envVars) > 0 {
		if r.srv.Env == nil {
			r.srv.Env = map[string]string{}
		}
		for _, name := range r.envVars {
			if _, set := r.srv.Env[name]; !set {
				r.srv.Env[name] = "${" + name + "}"
			}
		}
	}
	if m := r.timeout; m != nil {
		if u, ok := known().timeout(r.client); ok {
			if d, ok := r.duration(m, u.Unit); ok {
				if u.Startup {
					r.srv.StartupTimeout = d
				} else {
					r.srv.ToolTimeout = d
				}
			}
		} else {
			r.extra(m)
		}
	}
	if r.srv.Transport == "" && r.srv.Command == "" && r.srv.URL == "" && r.client == "zed" && r.e.val.has("settings") {
		r.warnAt(r.e.namePos, "", "only Zed can start a server that a Zed extension provides", "provided by a Zed extension; left out")
		r.skip = true
	}
	r.srv.Normalize()
}

func (r *serverReader) finishCommand() {
	if r.commandKind == "" {
		if r.argsGiven {
			r.srv.Args = r.templates(r.args, r.argPos)
		}
		return
	}
	cmd := r.command
	args := append(append([]string(nil), r.commandArgs...), r.args...)
	pos := append(append([]canonical.Pos(nil), r.cmdArgPos...), r.argPos...)
	if r.commandKind == "array" && r.e.client != "opencode" {
		r.warnAt(r.commandPos, "command", "", "\"command\" is an array; its first element is the command and the rest are arguments")
	}
	if strings.ContainsAny(cmd, " \t") && !isPathWithSpaces(cmd) {
		parts, err := splitCommandLine(cmd)
		switch {
		case err != nil:
			r.errorAt(r.commandPos, "command", `put the program in "command" and each argument in "args"`, "cannot split the command line: %v", err)
		case len(parts) > 0:
			r.warnAt(r.commandPos, "command", "", "the command line %q was split with shell quoting rules into the command %q and %d arguments", cmd, parts[0], len(parts)-1)
			cmd, args = parts[0], append(parts[1:], args...)
			for range parts[1:] {
				pos = append([]canonical.Pos{r.commandPos}, pos...)
			}
		}
	}
	if c, a, ok := unwrapCmd(cmd, args); ok {
		r.warnAt(r.commandPos, "command", "mcpsync adds the wrapper back when it writes for native Windows", "unwrapped the Windows \"cmd /c\" wrapper: the command is %q", c)
		cmd, args = c, a
		pos = nil // the arguments moved; point at the command
	}
	r.srv.Command = r.tmplAt(cmd, r.commandPos)
	r.srv.Args = r.templates(args, pos)
}

func (r *serverReader) finishTransport() {
	if r.hasType {
		t, ok := known().spellings[strings.ToLower(r.typeText)]
		if !ok {
			r.errorAt(r.typePos, "type", acceptedTransports, "unknown transport %q", r.typeText)
			return
		}
		if r.typeText != string(t) && !known().native(r.e.client, r.typeText) {
			r.warnAt(r.typePos, "type", "", "transport %q read as %q%s", r.typeText, t, transportNote(t))
		}
		r.srv.Transport = t
	}
	switch r.urlKey {
	case "httpUrl":
		r.warnAt(r.urlPos, "url", "", "\"httpUrl\" read as the url of a streamable HTTP server")
		if !r.hasType {
			r.srv.Transport = canonical.HTTP
		}
	case "serverUrl":
		if r.hasType {
			r.warnAt(r.urlPos, "url", "", "\"serverUrl\" read as \"url\"")
		}
	}
	if !r.hasType && r.urlKey != "" && r.urlKey != "httpUrl" && r.commandKind == "" {
		r.srv.Transport = canonical.HTTP
		switch {
		case r.urlKey == "serverUrl":
			r.warnAt(r.urlPos, "url", `set "type": "sse" if this is an SSE server`, "\"serverUrl\" without a type is read as the url of a streamable HTTP server")
		case !known().urlMeansHTTP(r.e.client):
			r.warnAt(r.urlPos, "type", `set "type": "sse" if this is an SSE server`, "a url without a type is read as streamable HTTP")
		}
	}
}

func transportNote(t canonical.Transport) string {
	if t == canonical.HTTP {
		return " (streamable HTTP)"
	}
	return ""
}

// isPathWithSpaces recognises a program path whose directories contain
// spaces ("C:\Program Files\nodejs\npx.cmd", "./My Tool.app/Contents/x"), which is
// a path, not a command line: it starts like a path, and every word after the
// first continues it (it does not start an option or another path, and a
// later word still holds a path separator).
func isPathWithSpaces(s string) bool {
	pathStart := func(w string) bool {
		return strings.HasPrefix(w, "/") || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../") ||
			strings.HasPrefix(w, "~/") || strings.HasPrefix(w, ".\\") ||
			len(w) > 2 && w[1] == ':' && (w[2] == '\\' || w[2] == '/')
	}
	words := strings.Fields(s)
	if len(words) < 2 || !pathStart(words[0]) {
		return false
	}
	continues := false
	for _, w := range words[1:] {
		if pathStart(w) || strings.ContainsAny(w[:1], "-$\"'") {
			return false
		}
		if strings.ContainsAny(w, `/\`) {
			continues = true
		}
	}
	return continues
}

// unwrapCmd turns `cmd /c npx -y pkg` (what Windows needs to start npx)
// into `npx -y pkg`.
func unwrapCmd(cmd string, args []string) (string, []string, bool) {
	base := strings.ToLower(path.Base(strings.ReplaceAll(cmd, `\`, "/")))
	if base != "cmd" && base != "cmd.exe" {
		return cmd, args, false
	}
	i := 0
	for i < len(args) && strings.EqualFold(args[i], "/s") || i < len(args) && strings.EqualFold(args[i], "/q") {
		i++
	}
	if i >= len(args) || !strings.EqualFold(args[i], "/c") || i+1 >= len(args) {
		return cmd, args, false
	}
	rest := args[i+1:]
	if len(rest) == 1 && strings.ContainsAny(rest[0], " \t") {
		if parts, err := splitCommandLine(rest[0]); err == nil && len(parts) > 0 {
			rest = parts
		}
	}
	return rest[0], append([]string(nil), rest[1:]...), true
}

// tmpl re-spells the references in s canonically (${VAR}).
func (r *serverReader) tmpl(s string, m *member) string { return r.tmplAt(s, m.val.pos) }

func (r *serverReader) tmplAt(s string, p canonical.Pos) string {
	if !strings.ContainsAny(s, "${") {
		return s
	}
	t := canonical.Parse(s, r.dialect)
	if !t.HasRefs() {
		return s
	}
	if r.strict {
		for _, seg := range t.Foreign() {
			r.warnAt(p, "", "", "%s does not expand %s; it is read as a reference all the same", clientName(r.client), seg.Text)
		}
	}
	out, _ := t.Render(canonical.DialectCanonical)
	return out
}

// templates re-spells each argument; pos says where each was written
// (the command's place when it is not known).
func (r *serverReader) templates(list []string, pos []canonical.Pos) []string {
	if len(list) == 0 {
		return nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		p := r.commandPos
		if len(pos) == len(list) {
			p = pos[i]
		} else if p.Line == 0 {
			p = r.e.namePos
		}
		out[i] = r.tmplAt(s, p)
	}
	return out
}

func clientName(id string) string {
	switch id {
	case "codex":
		return "Codex"
	case "opencode":
		return "OpenCode"
	case "vscode":
		return "VS Code"
	}
	return id
}

// str requires a string.
func (r *serverReader) str(m *member) (string, bool) {
	if m.val.kind != kString {
		r.errorAt(m.val.pos, m.key, "quote the value", "%q must be a string, not %s", m.key, m.val.describe())
		return "", false
	}
	return m.val.text, true
}

func (r *serverReader) boolean(m *member) (bool, bool) {
	if m.val.kind != kBool {
		r.errorAt(m.val.pos, m.key, "write true or false, without quotes", "%q must be true or false, not %s", m.key, m.val.describe())
		return false, false
	}
	return m.val.boolean, true
}

func (r *serverReader) number(m *member) (float64, bool) {
	if m.val.kind == kNumber {
		if f, err := strconv.ParseFloat(m.val.text, 64); err == nil {
			return f, true
		}
	}
	r.errorAt(m.val.pos, m.key, "write a number, without quotes", "%q must be a number, not %s", m.key, m.val.describe())
	return 0, false
}

func (r *serverReader) duration(m *member, unit time.Duration) (time.Duration, bool) {
	f, ok := r.number(m)
	if !ok {
		return 0, false
	}
	d := f * float64(unit)
	if f <= 0 || math.IsNaN(d) || d >= math.MaxInt64 {
		r.errorAt(m.val.pos, m.key, "give a positive number", "%q is out of range: %s", m.key, m.val.text)
		return 0, false
	}
	return time.Duration(d), true
}

// strList reads an array of strings. Numbers and booleans are repaired into
// their text, with a warning: that text is what the user wrote, and what
// the server receives from every client that accepts them.
func (r *serverReader) strList(m *member) ([]string, bool) {
	if m.val.kind != kArray {
		r.errorAt(m.val.pos, m.key, `write a list, for example ["a", "b"]`, "%q must be an array of strings, not %s", m.key, m.val.describe())
		return nil, false
	}
	out := make([]string, 0, len(m.val.elems))
	ok := true
	for i, el := range m.val.elems {
		s, good := r.scalarText(el, fmt.Sprintf("%s[%d]", m.key, i), m.key)
		ok = ok && good
		out = append(out, s)
	}
	return out, ok
}

// strMap reads an object of strings (env, headers), re-spelling references.
func (r *serverReader) strMap(m *member) (map[string]string, bool) {
	if m.val.kind != kObject {
		r.errorAt(m.val.pos, m.key, `write an object, for example {"NAME": "value"}`, "%q must be an object of strings, not %s", m.key, m.val.describe())
		return nil, false
	}
	out := make(map[string]string, len(m.val.members))
	ok := true
	for i := range m.val.members {
		sub := &m.val.members[i]
		if _, dup := out[sub.key]; dup {
			r.errorAt(sub.keyPos, m.key, "keep one of them", "duplicate key %q in %q", sub.key, m.key)
			ok = false
			continue
		}
		s, good := r.scalarText(sub.val, m.key+"."+sub.key, m.key)
		if good {
			s = r.tmpl(s, sub)
		}
		ok = ok && good
		out[sub.key] = s
	}
	return out, ok
}

// scalarText reads a string, or repairs a number or boolean into its text.
func (r *serverReader) scalarText(n *node, where, field string) (string, bool) {
	switch n.kind {
	case kString:
		return n.text, true
	case kNumber, kBool:
		text := n.text
		if n.kind == kBool {
			text = strconv.FormatBool(n.boolean)
		}
		r.warnAt(n.pos, field, "quote it to silence this warning; several clients reject a value that is not a string",
			"%s is %s; read as the string %q", where, n.describe(), text)
		return text, true
	case kNull:
		r.errorAt(n.pos, field, "remove the entry, or quote the value", "%s is null", where)
	default:
		r.errorAt(n.pos, field, "give a string", "%s must be a string, not %s", where, n.describe())
	}
	return "", false
}

func plainStrings(n *node) ([]string, bool) {
	if n.kind != kArray {
		return nil, false
	}
	out := make([]string, 0, len(n.elems))
	for _, el := range n.elems {
		if el.kind != kString {
			return nil, false
		}
		out = append(out, el.text)
	}
	return out, true
}

func mergeMap(into, from map[string]string) map[string]string {
	if into == nil {
		return from
	}
	for k, v := range from {
		into[k] = v
	}
	return into
}

func jsonString(s string) []byte {
	n := &node{kind: kString, text: s}
	return n.json()
}
