package goose

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/internal/adapterkit"
	"github.com/mcpsync/mcpsync/formats/internal/yamledit"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

// modelled are the keys the canonical model holds for an MCP extension;
// the others stay in Extra["goose"]. name and description are Goose's
// display fields: kept in Extra when they say something the key does not.
var modelled = map[string]bool{
	"enabled": true, "type": true, "cmd": true, "args": true, "envs": true, "env_keys": true,
	"uri": true, "headers": true, "timeout": true, "available_tools": true,
}

// goose-internal extension types: preserved, never converted.
var internalTypes = map[string]bool{"builtin": true, "platform": true, "frontend": true, "inline_python": true}

// file is a decoded config.yaml.
type file struct {
	doc      *yamledit.Doc
	set      canonical.Set
	raw      map[string]map[string]any // every extension, MCP or not
	order    map[string][]string       // key order of each extension
	internal map[string]bool           // extensions mcpsync leaves alone
}

func (adapter) Decode(loc formats.Location, data []byte) (canonical.Set, canonical.Diagnostics) {
	f, ds := decodeFile(loc.Path, data)
	return f.set, ds
}

// decodeFile parses data and reads every extension. The file's doc is nil
// when data is not YAML.
func decodeFile(path string, data []byte) (*file, canonical.Diagnostics) {
	doc, extensions, diags := layout.Read(path, data)
	f := &file{doc: doc, raw: map[string]map[string]any{}, order: map[string][]string{}, internal: map[string]bool{}}
	if extensions == nil {
		return f, diags.Diags
	}
	r := &reader{NodeDiags: diags}
	for i := 0; i+1 < len(extensions.Content); i += 2 {
		kn, vn := extensions.Content[i], extensions.Content[i+1]
		name := kn.Value
		if !yamledit.PlainKey(kn) { // mcpsync could not edit the entry safely
			r.errorAt(kn, name, "", fmt.Sprintf("the extension key %q is not a plain name", name),
				"quote it (\"name\":) or rename it")
			continue
		}
		if vn.Kind != yaml.MappingNode {
			r.errorAt(vn, name, "", "invalid type: extension is not a map",
				"an extension is a map with enabled, type and its fields")
			continue
		}
		val, err := yamledit.Decode(vn)
		if err != nil {
			r.errorAt(vn, name, "", err.Error(), "")
			continue
		}
		m, _ := val.(map[string]any)
		f.raw[name] = m
		f.order[name] = yamledit.MapKeys(vn)
		srv, internal, ok := r.extension(name, kn, vn, m)
		if internal {
			f.internal[name] = true
			continue
		}
		if ok {
			f.set.Servers = append(f.set.Servers, srv)
		}
	}
	r.Diags.Sort()
	return f, r.Diags
}

// reader accumulates the diagnostics of one file.
type reader struct{ adapterkit.NodeDiags }

func (r *reader) errorAt(n *yaml.Node, server, field, summary, detail string) {
	r.At(n, canonical.Error, server, field, summary, detail)
}

func (r *reader) warnAt(n *yaml.Node, server, field, summary, detail string) {
	r.At(n, canonical.Warning, server, field, summary, detail)
}

// extension reads one entry. internal is true for Goose's own extensions,
// which are kept as they are; ok is false when the entry has an error.
func (r *reader) extension(name string, kn, vn *yaml.Node, m map[string]any) (srv canonical.Server, internal, ok bool) {
	start := len(r.Diags)
	// node finds the key a field names ("envs.N" is N inside envs), or
	// the nearest one there is.
	node := func(field string) *yaml.Node {
		at := kn
		cur := vn
		for _, part := range strings.SplitN(field, ".", 2) {
			k, v := yamledit.MapValue(cur, part)
			if k == nil {
				break
			}
			at, cur = k, v
		}
		return at
	}
	fail := func(key, detail, format string, args ...any) {
		r.errorAt(node(key), name, key, fmt.Sprintf(format, args...), detail)
	}
	warn := func(key, detail, format string, args ...any) {
		r.warnAt(node(key), name, key, fmt.Sprintf(format, args...), detail)
	}
	const drops = "Goose drops every extension when one cannot be read; "
	typ, hasType := m["type"].(string)
	if !hasType {
		if _, present := m["type"]; present {
			fail("type", drops+"give one of stdio, streamable_http", "invalid type: %s, expected a string", describe(m["type"]))
		} else {
			fail("type", drops+"give type: stdio (cmd, args) or type: streamable_http (uri)", "missing field `type`")
		}
		return srv, false, false
	}
	if internalTypes[typ] {
		return srv, true, false
	}
	if typ != "stdio" && typ != "streamable_http" && typ != "sse" {
		fail("type", drops+"known types are stdio, streamable_http, builtin, platform, frontend, inline_python",
			"unknown variant `%s`", typ)
		return srv, false, false
	}
	get := adapterkit.Typed{M: m, Describe: describe, Fail: func(key, format string, args ...any) {
		fail(key, drops+"give the type Goose expects", format, args...)
	}}
	srv = canonical.Server{Name: name, Origin: r.Pos(kn)}
	if en, ok := get.Bool("enabled"); ok {
		srv.Disabled = !en
	} else if _, present := m["enabled"]; !present {
		fail("enabled", drops+"add enabled: true", "missing field `enabled`")
	}
	if s, ok := get.Str("name"); ok {
		if s != name {
			srv.SetExtra(ID, "name", yamledit.ToJSON(s))
		}
	} else if _, present := m["name"]; !present && typ != "sse" {
		fail("name", drops+"add name: "+name, "missing field `name`")
	}
	if v, present := m["description"]; present && v != nil && v != "" {
		srv.SetExtra(ID, "description", yamledit.ToJSON(v))
	} else if !present && typ == "streamable_http" {
		fail("description", drops+"add description: ''", "missing field `description`")
	}
	literal := func(key, s string) {
		if f := canonical.Parse(s, canonical.DialectNone).Foreign(); len(f) > 0 {
			warn(key, "mcpsync reads it as a reference, but Goose expands only uri and headers: the server receives the text "+f[0].Text+
				"; list the variable in env_keys to have Goose pass it", "Goose passes %s literally", f[0].Text)
		}
	}
	envs, _ := get.StrMap("envs")
	keys := strList(get, "env_keys")
	switch typ {
	case "stdio":
		srv.Transport = canonical.Stdio
		if s, ok := get.Str("cmd"); ok {
			srv.Command = s
			literal("cmd", s)
		} else if _, present := m["cmd"]; !present {
			fail("cmd", drops+"add the command to run", "missing field `cmd`")
		}
		if _, present := m["args"]; !present {
			fail("args", drops+"add args: [] when the command takes none", "missing field `args`")
		}
		srv.Args = strList(get, "args")
		for _, a := range srv.Args {
			literal("args", a)
		}
		for _, k := range mapkeys.Sorted(envs) {
			literal("envs."+k, envs[k])
			if srv.Env == nil {
				srv.Env = map[string]string{}
			}
			srv.Env[k] = envs[k]
		}
		for _, k := range keys {
			if srv.Env == nil {
				srv.Env = map[string]string{}
			}
			if _, dup := srv.Env[k]; dup {
				warn("env_keys", "envs sets "+k+" and env_keys fills it from the keyring too; mcpsync keeps the value from envs",
					"%s is in both envs and env_keys", k)
				continue
			}
			srv.Env[k] = "${" + k + "}"
		}
		for _, k := range mapkeys.Sorted(srv.Env) {
			if disallowed(k) {
				warn("envs."+k, "Goose refuses to set "+k+" for an extension and then does not start it; remove it",
					"Goose does not allow %s", k)
			}
		}
	default: // streamable_http, sse
		srv.Transport = canonical.HTTP
		if typ == "sse" {
			srv.Transport = canonical.SSE
			warn("type", "Goose no longer supports SSE extensions and does not start this one; use the server's streamable HTTP endpoint with type: streamable_http",
				"Goose no longer supports sse")
		}
		if s, ok := get.Str("uri"); ok {
			srv.URL = s
		} else if _, present := m["uri"]; !present && typ != "sse" {
			fail("uri", drops+"add the server's url as uri", "missing field `uri`")
		}
		if h, ok := get.StrMap("headers"); ok && len(h) > 0 {
			srv.Headers = h
		}
		if len(envs) > 0 {
			srv.SetExtra(ID, "envs", yamledit.ToJSON(m["envs"]))
		}
		if len(keys) > 0 && !slices.Equal(keys, derivedKeys(srv, envs)) {
			srv.SetExtra(ID, "env_keys", yamledit.ToJSON(m["env_keys"]))
		}
		for field, set := range map[string]bool{"cmd": m["cmd"] != nil, "args": m["args"] != nil} {
			if set {
				warn(field, "a "+typ+" extension does not run a command; Goose ignores "+field, "Goose ignores %s here", field)
			}
		}
	}
	if t, ok := get.Uint("timeout"); ok {
		srv.ToolTimeout = time.Duration(t) * time.Second
	}
	srv.ToolsAllow = strList(get, "available_tools")
	for _, k := range mapkeys.Sorted(m) {
		if modelled[k] || k == "name" || k == "description" {
			continue
		}
		srv.SetExtra(ID, k, yamledit.ToJSON(m[k]))
		switch k {
		case "env":
			warn("env", "Goose reads environment variables from envs (values) and env_keys (from its keyring); it ignores env", "Goose ignores env")
		case "cwd":
			warn("cwd", "Goose has no working directory setting and ignores cwd", "Goose ignores cwd")
		}
	}
	if canonical.Diagnostics(r.Diags[start:]).HasErrors() {
		return srv, false, false
	}
	for _, d := range srv.Validate() {
		d.Severity = canonical.Warning
		r.Diags = append(r.Diags, d)
	}
	return srv, false, true
}

// derivedKeys are the env_keys Goose needs to fill the ${VAR} of uri and
// headers: every variable they reference that envs does not set, sorted.
func derivedKeys(srv canonical.Server, envs map[string]string) []string {
	var names []string
	add := func(s string) {
		for _, n := range canonical.Parse(s, dialect).EnvNames() {
			if _, set := envs[n]; !set && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	add(srv.URL)
	for _, k := range mapkeys.Sorted(srv.Headers) {
		add(srv.Headers[k])
	}
	slices.Sort(names)
	return names
}

// strList reads a list of strings; an empty list is nil, like an absent one.
func strList(get adapterkit.Typed, key string) []string {
	if l := get.StrList(key); len(l) > 0 {
		return l
	}
	return nil
}

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
	case nil:
		return "null"
	case []any:
		return "sequence"
	case map[string]any:
		return "map"
	}
	return strings.TrimPrefix(fmt.Sprintf("%T", v), "*")
}
