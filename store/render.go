package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/hclfmt"
	"github.com/mcpsync/mcpsync/internal/strquote"
)

// quotedKeys is the extra-block attribute that holds keys which are not HCL
// identifiers: extra "amp" { _ = { "amp.tools" = […] } }.
const quotedKeys = "_"

// maxInline is the line length up to which a list or object stays on one line.
const maxInline = 80

// Format renders one server as a store block, the way Bytes writes a new one.
func Format(srv canonical.Server) []byte {
	srv = srv.Clone()
	srv.Normalize()
	return []byte(renderServerBlock(srv))
}

// renderServerBlock writes a whole server block, laid out as hclwrite.Format
// lays it out (internal/hclfmt), with a final newline.
func renderServerBlock(srv canonical.Server) string { return renderServerBlockWith(srv, true) }

// renderServerBlockWith is renderServerBlock; aligned false has hclfmt
// format every block, the way FuzzRenderServerBlock checks the other
// against.
func renderServerBlockWith(srv canonical.Server, aligned bool) string {
	type attr struct{ name, expr string }
	var attrs []attr
	oneLine := true
	for _, a := range serverAttrs {
		if expr, ok := a.render(&srv, false, "  "); ok {
			attrs = append(attrs, attr{a.name, expr})
			oneLine = oneLine && !strings.Contains(expr, "\n")
		}
	}
	oauth := renderOAuth(srv.Auth.OAuth, "  ")
	if aligned && oneLine && oauth == "" && len(srv.Extra) == 0 {
		// Every attribute on a line of its own, no nested block: what
		// hclfmt.Format makes of it is the names padded to the longest
		// ('='s in one column), and nothing else moves. Formatting was
		// half of the time 'mcpsync add' took to store 10,000 pasted
		// servers; FuzzRenderServerBlock holds the two equal.
		width := 0
		for _, a := range attrs {
			width = max(width, len(a.name))
		}
		var b strings.Builder
		b.WriteString("server " + quote(srv.Name) + " {\n")
		for _, a := range attrs {
			b.WriteString("  " + a.name + strings.Repeat(" ", width-len(a.name)) + " = " + a.expr + "\n")
		}
		b.WriteString("}\n")
		return b.String()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "server %s {\n", quote(srv.Name))
	for _, a := range attrs {
		fmt.Fprintf(&b, "  %s = %s\n", a.name, a.expr)
	}
	b.WriteString(oauth)
	for _, client := range extraClients(srv.Extra) {
		b.WriteString(renderExtra(client, srv.Extra[client], "  "))
	}
	b.WriteString("}\n")
	return string(hclfmt.Format([]byte(b.String())))
}

// An attrSpec is one attribute of a server block: how to write it from the
// canonical server. render reports false when the attribute is left out.
// inFile says the attribute is already written, which matters for
// transport: an explicit transport the user wrote is kept explicit.
type attrSpec struct {
	name   string
	render func(s *canonical.Server, inFile bool, indent string) (string, bool)
}

var serverAttrs = []attrSpec{
	{"project", func(s *canonical.Server, _ bool, _ string) (string, bool) { return quote(s.Project), s.Project != "" }},
	{"command", func(s *canonical.Server, _ bool, _ string) (string, bool) { return strExpr(s.Command), s.Command != "" }},
	{"args", func(s *canonical.Server, _ bool, ind string) (string, bool) {
		return listExpr(s.Args, ind, len("args = ")), len(s.Args) > 0
	}},
	{"env", func(s *canonical.Server, _ bool, ind string) (string, bool) {
		return mapExpr(s.Env, ind, len("env = ")), len(s.Env) > 0
	}},
	{"cwd", func(s *canonical.Server, _ bool, _ string) (string, bool) { return strExpr(s.Cwd), s.Cwd != "" }},
	{"url", func(s *canonical.Server, _ bool, _ string) (string, bool) { return strExpr(s.URL), s.URL != "" }},
	{"transport", func(s *canonical.Server, inFile bool, _ string) (string, bool) {
		return strExpr(string(s.Transport)), s.Transport != "" && (inFile || s.Transport != impliedTransport(s))
	}},
	{"headers", func(s *canonical.Server, _ bool, ind string) (string, bool) {
		return mapExpr(s.Headers, ind, len("headers = ")), len(s.Headers) > 0
	}},
	{"disabled", func(s *canonical.Server, _ bool, _ string) (string, bool) { return "true", s.Disabled }},
	{"tools_allow", func(s *canonical.Server, _ bool, ind string) (string, bool) {
		return listExpr(s.ToolsAllow, ind, len("tools_allow = ")), len(s.ToolsAllow) > 0
	}},
	{"tools_deny", func(s *canonical.Server, _ bool, ind string) (string, bool) {
		return listExpr(s.ToolsDeny, ind, len("tools_deny = ")), len(s.ToolsDeny) > 0
	}},
	{"startup_timeout", func(s *canonical.Server, _ bool, _ string) (string, bool) {
		return quote(formatDuration(s.StartupTimeout)), s.StartupTimeout > 0
	}},
	{"tool_timeout", func(s *canonical.Server, _ bool, _ string) (string, bool) {
		return quote(formatDuration(s.ToolTimeout)), s.ToolTimeout > 0
	}},
}

// impliedTransport is the transport a block means without saying it: stdio
// for a command, streamable HTTP for a url.
func impliedTransport(s *canonical.Server) canonical.Transport {
	switch {
	case s.Command != "":
		return canonical.Stdio
	case s.URL != "":
		return canonical.HTTP
	}
	return ""
}

func renderOAuth(o *canonical.OAuth, indent string) string {
	if o.IsZero() {
		return ""
	}
	var b strings.Builder
	in := indent + "  "
	b.WriteString(indent + "oauth {\n")
	line := func(name, expr string, ok bool) {
		if ok {
			fmt.Fprintf(&b, "%s%s = %s\n", in, name, expr)
		}
	}
	line("client_id", strExpr(o.ClientID), o.ClientID != "")
	line("client_secret", strExpr(o.ClientSecret), o.ClientSecret != "")
	line("scopes", listExpr(o.Scopes, in, len("scopes = ")), len(o.Scopes) > 0)
	line("callback_port", strconv.Itoa(o.CallbackPort), o.CallbackPort != 0)
	line("redirect_uri", strExpr(o.RedirectURI), o.RedirectURI != "")
	line("auth_server_metadata_url", strExpr(o.AuthServerMetadataURL), o.AuthServerMetadataURL != "")
	line("resource", strExpr(o.Resource), o.Resource != "")
	b.WriteString(indent + "}\n")
	return b.String()
}

func extraClients(extra map[string]map[string]json.RawMessage) []string {
	out := make([]string, 0, len(extra))
	for c, kv := range extra {
		if len(kv) > 0 {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// renderExtra writes one client's verbatim keys. Values are JSON written as
// HCL; strings are escaped, never turned into references, since they are
// meant for that client exactly as they are.
func renderExtra(client string, kv map[string]json.RawMessage, indent string) string {
	if len(kv) == 0 {
		return ""
	}
	keys := make([]string, 0, len(kv))
	for k := range kv {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	in := indent + "  "
	fmt.Fprintf(&b, "%sextra %s {\n", indent, quote(client))
	var odd []string
	for _, k := range keys {
		if !isAttrName(k) {
			odd = append(odd, k)
			continue
		}
		fmt.Fprintf(&b, "%s%s = %s\n", in, k, jsonExpr(kv[k], in, len(k)+3))
	}
	if len(odd) > 0 {
		obj := map[string]json.RawMessage{}
		for _, k := range odd {
			obj[k] = kv[k]
		}
		raw, _ := json.Marshal(obj)
		fmt.Fprintf(&b, "%s%s = %s\n", in, quotedKeys, jsonExpr(raw, in, len(quotedKeys)+3))
	}
	b.WriteString(indent + "}\n")
	return b.String()
}

// strExpr writes a string value as HCL. A value that is exactly one
// reference becomes a bare call (env("TOKEN")); references inside text
// become interpolations ("Bearer ${env("TOKEN")}"); everything else is
// escaped so that it reads back unchanged.
func strExpr(s string) string {
	t := canonical.Parse(s, canonical.DialectCanonical)
	if len(t) == 1 && t[0].Kind != canonical.Literal {
		return call(t[0])
	}
	var b strings.Builder
	b.WriteByte('"')
	for i, seg := range t {
		if seg.Kind != canonical.Literal {
			b.WriteString("${" + call(seg) + "}")
			continue
		}
		lit := escapeTemplate(seg.Text)
		// A "$" right before an interpolation would read as the "$${"
		// escape; so would the one before it once that one is written
		// ${"$"}: every "$" of the run is written so.
		if i+1 < len(t) {
			run := len(lit) - len(strings.TrimRight(lit, "$"))
			lit = lit[:len(lit)-run] + strings.Repeat(`${"$"}`, run)
		}
		b.WriteString(lit)
	}
	b.WriteByte('"')
	return b.String()
}

func call(seg canonical.Segment) string {
	switch seg.Kind {
	case canonical.EnvRef:
		if seg.HasDefault {
			return "env(" + quote(seg.Name) + ", " + quote(seg.Default) + ")"
		}
		return "env(" + quote(seg.Name) + ")"
	case canonical.InputRef:
		return "input(" + quote(seg.Name) + ")"
	case canonical.Builtin:
		if f, ok := funcForBuiltin[seg.Name]; ok {
			return f + "()"
		}
	}
	return quote(seg.Text)
}

// quote writes s as an HCL quoted string with no interpolation.
func quote(s string) string { return `"` + escapeTemplate(s) + `"` }

// escapeTemplate escapes s for the inside of an HCL quoted template
// (strquote.HCL, which the secret scrubber also spells values by).
func escapeTemplate(s string) string { return strquote.HCL(s) }

func listExpr(list []string, indent string, prefix int) string {
	parts := make([]string, len(list))
	for i, s := range list {
		parts[i] = strExpr(s)
	}
	return joinList(parts, indent, prefix)
}

func joinList(parts []string, indent string, prefix int) string {
	inline := "[" + strings.Join(parts, ", ") + "]"
	if len(indent)+prefix+len(inline) <= maxInline && !strings.Contains(inline, "\n") {
		return inline
	}
	var b strings.Builder
	b.WriteString("[\n")
	for _, p := range parts {
		b.WriteString(indent + "  " + p + ",\n")
	}
	b.WriteString(indent + "]")
	return b.String()
}

func mapExpr(m map[string]string, indent string, prefix int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	pairs := make([][2]string, len(keys))
	for i, k := range keys {
		pairs[i] = [2]string{objectKey(k), strExpr(m[k])}
	}
	return joinObject(pairs, indent, prefix)
}

func joinObject(pairs [][2]string, indent string, prefix int) string {
	if len(pairs) == 0 {
		return "{}"
	}
	items := make([]string, len(pairs))
	for i, p := range pairs {
		items[i] = p[0] + " = " + p[1]
	}
	inline := "{ " + strings.Join(items, ", ") + " }"
	if len(indent)+prefix+len(inline) <= maxInline && !strings.Contains(inline, "\n") {
		return inline
	}
	var b strings.Builder
	b.WriteString("{\n")
	for _, it := range items {
		b.WriteString(indent + "  " + it + "\n")
	}
	b.WriteString(indent + "}")
	return b.String()
}

// jsonExpr writes a JSON value as an HCL expression, object keys sorted.
func jsonExpr(raw json.RawMessage, indent string, prefix int) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return quote(string(raw)) // not JSON: keep the text itself
	}
	return anyExpr(v, indent, prefix)
}

func anyExpr(v any, indent string, prefix int) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(t)
	case json.Number:
		return t.String()
	case string:
		return quote(t)
	case []any:
		parts := make([]string, len(t))
		for i, e := range t {
			parts[i] = anyExpr(e, indent+"  ", 0)
		}
		return joinList(parts, indent, prefix)
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		pairs := make([][2]string, len(keys))
		for i, k := range keys {
			pairs[i] = [2]string{objectKey(k), anyExpr(t[k], indent+"  ", len(k)+3)}
		}
		return joinObject(pairs, indent, prefix)
	}
	return "null"
}

// hclKeywords cannot stand as bare object keys.
var hclKeywords = map[string]bool{"true": true, "false": true, "null": true, "for": true, "in": true,
	"if": true, "else": true, "endif": true, "endfor": true}

// objectKey writes an object key bare when it is a plain identifier.
func objectKey(k string) string {
	if isIdent(k, false) && !hclKeywords[k] {
		return k
	}
	return quote(k)
}

// isAttrName reports whether k can be an attribute name in an extra block.
func isAttrName(k string) bool { return k != quotedKeys && isIdent(k, true) && !hclKeywords[k] }

func isIdent(s string, dashes bool) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z':
		case i > 0 && c >= '0' && c <= '9':
		case i > 0 && dashes && c == '-':
		default:
			return false
		}
	}
	return true
}

// DefaultRef is how the store spells a reference to the variable name that
// falls back to value: env("NAME", "value"), for hints about a store.
func DefaultRef(name, value string) string {
	return call(canonical.Segment{Kind: canonical.EnvRef, Name: name, Default: value, HasDefault: true})
}
