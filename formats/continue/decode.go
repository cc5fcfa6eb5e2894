package continuedev

import (
	"fmt"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/internal/adapterkit"
	"github.com/mcpsync/mcpsync/formats/internal/yamledit"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

// modelled are the item keys the canonical model holds; the others stay in
// Extra["continue"] (requestOptions without its headers, too).
var modelled = map[string]bool{
	"name": true, "type": true, "command": true, "args": true, "env": true, "cwd": true,
	"url": true, "requestOptions": true, "connectionTimeout": true,
}

type file struct {
	doc   *yamledit.Doc
	set   canonical.Set
	raw   map[string]map[string]any
	order map[string][]string
}

func (adapter) Decode(loc formats.Location, data []byte) (canonical.Set, canonical.Diagnostics) {
	f, ds := decodeFile(loc.Path, data)
	return f.set, ds
}

// decodeFile parses data and reads every server. The file's doc is nil
// when data is not YAML.
func decodeFile(path string, data []byte) (*file, canonical.Diagnostics) {
	doc, list, diags := layout.Read(path, data)
	f := &file{doc: doc, raw: map[string]map[string]any{}, order: map[string][]string{}}
	if list == nil {
		return f, diags.Diags
	}
	r := &reader{NodeDiags: diags}
	seen := map[string]*yaml.Node{}
	for _, item := range list.Content {
		if item.Kind != yaml.MappingNode {
			r.At(item, canonical.Error, "", "", "invalid type: a server is not a map", "each item of mcpServers is a map with a name")
			continue
		}
		val, err := yamledit.Decode(item)
		if err != nil {
			r.At(item, canonical.Error, "", "", err.Error(), "")
			continue
		}
		m, _ := val.(map[string]any)
		nameV, named := m[nameKey]
		if !named {
			if _, uses := m["uses"]; !uses {
				r.At(item, canonical.Error, "", "name", "a server has no name",
					"give every server a name (or uses: owner/block for a Continue Hub block)")
			}
			continue // a hub block reference: not a server, kept as it is
		}
		name, _ := nameV.(string)
		if name == "" {
			r.At(item, canonical.Error, "", "name", "invalid name: expected a non-empty string", "give the server a name")
			continue
		}
		if prev, dup := seen[name]; dup {
			r.At(item, canonical.Error, name, "name", fmt.Sprintf("duplicate server name %q", name),
				fmt.Sprintf("first defined at line %d; rename one of them", r.Pos(prev).Line))
			continue
		}
		seen[name] = item
		f.raw[name] = m
		f.order[name] = yamledit.MapKeys(item)
		if srv, ok := r.server(name, item, m); ok {
			f.set.Servers = append(f.set.Servers, srv)
		}
	}
	r.Diags.Sort()
	return f, r.Diags
}

// reader accumulates the diagnostics of one file.
type reader struct{ adapterkit.NodeDiags }

// fromContinue reads a Continue string into canonical spelling:
// ${{ secrets.X }} → ${X}, ${{ inputs.X }} → ${input:X}. A reference in
// another client's spelling is read too, with a warning that Continue
// passes it on literally.
func fromContinue(s string, warn func(summary, detail string)) string {
	tm := canonical.Parse(s, canonical.DialectContinue)
	if !tm.HasRefs() {
		return s
	}
	if f := tm.Foreign(); len(f) > 0 && warn != nil {
		warn(fmt.Sprintf("Continue passes %s literally", f[0].Text),
			"mcpsync reads it as a reference, but Continue expands only ${{ secrets.NAME }} and ${{ inputs.NAME }}")
	}
	out, _ := tm.Render(canonical.DialectCanonical)
	return out
}

// server reads one item. ok is false when it has an error.
func (r *reader) server(name string, item *yaml.Node, m map[string]any) (canonical.Server, bool) {
	start := len(r.Diags)
	node := func(field string) *yaml.Node {
		at, cur := item, item
		for _, part := range strings.SplitN(field, ".", 3) {
			k, v := yamledit.MapValue(cur, part)
			if k == nil {
				break
			}
			at, cur = k, v
		}
		return at
	}
	fail := func(field, detail, format string, args ...any) {
		r.At(node(field), canonical.Error, name, field, fmt.Sprintf(format, args...), detail)
	}
	warn := func(field, detail, format string, args ...any) {
		r.At(node(field), canonical.Warning, name, field, fmt.Sprintf(format, args...), detail)
	}
	str := func(field string) (string, bool) {
		v, ok := m[field]
		if !ok {
			return "", false
		}
		s, ok := v.(string)
		if !ok {
			fail(field, "Continue rejects the whole config when a field has the wrong type", "invalid type: %s, expected a string", describe(v))
		}
		return s, ok
	}
	conv := func(field, s string) string {
		return fromContinue(s, func(summary, detail string) { warn(field, detail, "%s", summary) })
	}
	srv := canonical.Server{Name: name, Origin: r.Pos(item)}
	if k, _ := yamledit.MapValue(item, nameKey); k != nil {
		srv.Origin = r.Pos(k)
	}
	typ, _ := str("type")
	_, hasCmd := m["command"]
	_, hasURL := m["url"]
	switch {
	case typ != "" && typ != "stdio" && typ != "sse" && typ != "streamable-http":
		fail("type", `use stdio, sse or streamable-http`, "invalid type %q", typ)
	case hasCmd && hasURL:
		fail("url", "a server either runs a command (stdio) or talks to a url; remove one", "server has both a command and a url")
	case typ == "stdio" || (typ == "" && hasCmd):
		srv.Transport = canonical.Stdio
		if !hasCmd {
			fail("command", "a stdio server runs a command: set command", "missing field command")
		}
	case typ == "sse" || typ == "streamable-http" || hasURL:
		srv.Transport = canonical.HTTP
		if typ == "sse" {
			srv.Transport = canonical.SSE
		}
		if !hasURL {
			fail("url", "a "+typ+" server needs a url", "missing field url")
		}
	default:
		fail("", `give "command" for a local server or "url" for a remote one`, "server has neither a command nor a url")
	}
	if s, ok := str("command"); ok {
		srv.Command = conv("command", s)
	}
	if v, ok := m["args"]; ok {
		list, isList := v.([]any)
		if !isList {
			fail("args", "write args as a list", "invalid type: %s, expected a list", describe(v))
		}
		for _, e := range list {
			s, ok := e.(string)
			if !ok {
				// Continue's schema takes strings; YAML reads 8080 as a
				// number, which Continue rejects.
				fail("args", "quote the argument: '"+fmt.Sprint(e)+"'", "invalid type: %s, expected a string", describe(e))
				continue
			}
			srv.Args = append(srv.Args, conv("args", s))
		}
	}
	if v, ok := m["env"]; ok && v != nil {
		em, isMap := v.(map[string]any)
		if !isMap {
			fail("env", "write env as a map of names to values", "invalid type: %s, expected a map", describe(v))
		}
		for _, k := range mapkeys.Sorted(em) {
			s, ok := em[k].(string)
			if !ok {
				fail("env."+k, "quote the value", "invalid type: %s, expected a string", describe(em[k]))
				continue
			}
			if srv.Env == nil {
				srv.Env = map[string]string{}
			}
			srv.Env[k] = conv("env."+k, s)
		}
	}
	if s, ok := str("cwd"); ok {
		srv.Cwd = conv("cwd", s)
	}
	if s, ok := str("url"); ok {
		srv.URL = conv("url", s)
	}
	if v, ok := m["requestOptions"]; ok && v != nil {
		ro, isMap := v.(map[string]any)
		if !isMap {
			fail("requestOptions", "write requestOptions as a map", "invalid type: %s, expected a map", describe(v))
		}
		rest := map[string]any{}
		for k, x := range ro {
			if k != "headers" {
				rest[k] = x
			}
		}
		if h, ok := ro["headers"]; ok && h != nil {
			hm, isMap := h.(map[string]any)
			if !isMap {
				fail("requestOptions.headers", "write headers as a map", "invalid type: %s, expected a map", describe(h))
			}
			for _, k := range mapkeys.Sorted(hm) {
				s, ok := hm[k].(string)
				if !ok {
					fail("requestOptions.headers."+k, "quote the value", "invalid type: %s, expected a string", describe(hm[k]))
					continue
				}
				if srv.Headers == nil {
					srv.Headers = map[string]string{}
				}
				srv.Headers[k] = conv("requestOptions.headers."+k, s)
			}
		}
		if len(rest) > 0 {
			srv.SetExtra(ID, "requestOptions", yamledit.ToJSON(rest))
		}
		if srv.Transport == canonical.Stdio {
			warn("requestOptions", "Continue uses requestOptions only for url servers", "requestOptions is ignored for a stdio server")
		}
	}
	switch x := m["connectionTimeout"].(type) {
	case nil:
	case int64:
		if x <= 0 {
			fail("connectionTimeout", "give a positive number of milliseconds", "connectionTimeout must be greater than 0")
		}
		srv.StartupTimeout = time.Duration(x) * time.Millisecond
	case float64:
		if x <= 0 {
			fail("connectionTimeout", "give a positive number of milliseconds", "connectionTimeout must be greater than 0")
		}
		srv.StartupTimeout = time.Duration(x * float64(time.Millisecond))
	default:
		fail("connectionTimeout", "give a number of milliseconds", "invalid type: %s, expected a number", describe(x))
	}
	for _, k := range mapkeys.Sorted(m) {
		if !modelled[k] {
			srv.SetExtra(ID, k, yamledit.ToJSON(m[k]))
		}
	}
	if canonical.Diagnostics(r.Diags[start:]).HasErrors() {
		return srv, false
	}
	for _, d := range srv.Validate() {
		d.Severity = canonical.Warning
		r.Diags = append(r.Diags, d)
	}
	return srv, true
}

func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("string %q", x)
	case int64:
		return fmt.Sprintf("number %d", x)
	case float64:
		return fmt.Sprintf("number %v", x)
	case bool:
		return fmt.Sprintf("boolean %v", x)
	case nil:
		return "null"
	case []any:
		return "list"
	case map[string]any:
		return "map"
	}
	return fmt.Sprintf("%T", v)
}
