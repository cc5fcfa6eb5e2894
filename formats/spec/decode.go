package spec

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/jsonedit"
	"github.com/mcpsync/mcpsync/internal/winshim"
)

// entry is one member of the server map as read.
type entry struct {
	name string
	key  jsonedit.Node     // the name, for its position
	node jsonedit.Node     // the entry's value
	srv  *canonical.Server // in readEntries' list of them, which Decode returns as the set
	// ok is false when the entry was skipped: the client would not load
	// it, or mcpsync cannot read it. It is then never changed unless the
	// wanted set replaces it by name.
	ok bool
}

// Decode implements formats.Adapter.
func (a *Adapter) Decode(loc formats.Location, data []byte) (set canonical.Set, diags canonical.Diagnostics) {
	t, d := a.resolve(loc)
	if d != nil {
		return set, canonical.Diagnostics{d}
	}
	doc, diags := a.parse(t, data)
	if diags.HasErrors() {
		return set, diags
	}
	c := &Context{Spec: a.spec, Loc: loc, Servers: t.servers}
	entries, servers, ds := a.readEntries(c, t, doc)
	diags = append(diags, ds...)
	if len(servers) > 0 {
		set.Servers = servers
	}
	if slices.ContainsFunc(entries, func(e entry) bool { return !e.ok }) {
		// Some are skipped: the set is the others, in a list of its own.
		set.Servers = make([]canonical.Server, 0, len(entries))
		for _, e := range entries {
			if e.ok {
				set.Servers = append(set.Servers, *e.srv)
			}
		}
	}
	diags = append(diags, a.hooks.FinishDecode(c, doc, &set)...)
	return set, diags.WithFile(loc.Path)
}

// LeftAlone implements formats.LeftAloner: what the hooks said of the
// entries they skip.
func (a *Adapter) LeftAlone(loc formats.Location, data []byte) canonical.Diagnostics {
	t, d := a.resolve(loc)
	if d != nil {
		return nil
	}
	doc, diags := a.parse(t, data)
	if diags.HasErrors() {
		return nil
	}
	c := &Context{Spec: a.spec, Loc: loc, Servers: t.servers}
	a.readEntries(c, t, doc)
	return c.leftAlone.WithFile(loc.Path)
}

// readEntries decodes every member of the server map, in file order.
// Duplicate names are errors: the client silently keeps the last one, and
// mcpsync will not guess which one the user meant.
//
// servers holds what each entry decoded to, in the same order (entry.srv
// points into it): Decode returns it as the set when no entry is skipped,
// the usual case. Each entry held its server itself before, and Decode
// copied them into a set: two lists of 10,000 servers for every file an
// export of 10,000 reads back, a tenth of what its decoding allocated.
func (a *Adapter) readEntries(c *Context, t target, doc *jsonedit.Doc) (entries []entry, servers []canonical.Server, diags canonical.Diagnostics) {
	n := doc.Root()
	if !n.Valid() {
		return nil, nil, nil
	}
	for i, name := range t.servers {
		if n.Kind() != jsonedit.KindObject {
			d := canonical.Errorf("%s must be an object, not %s", strings.Join(t.servers[:i], "."), n.Kind())
			d.Detail = a.spec.DisplayName + " reads its servers from " + strings.Join(t.servers, ".") + "; fix the file by hand"
			return nil, nil, canonical.Diagnostics{atNode(d, t, n)}
		}
		if d := a.duplicateKey(t, n, t.servers[:i+1]); d != nil {
			return nil, nil, canonical.Diagnostics{d}
		}
		next := n.Get(name)
		if !next.Valid() {
			if i == 0 && len(t.servers) == 1 {
				diags = append(diags, a.misplaced(t, n)...)
			}
			return nil, nil, diags
		}
		n = next
	}
	if n.Kind() != jsonedit.KindObject {
		d := canonical.Errorf("%s must be an object of servers, not %s", strings.Join(t.servers, "."), n.Kind())
		d.Detail = `write it as { "name": { ... }, ... }`
		return nil, nil, canonical.Diagnostics{atNode(d, t, n)}
	}
	members := n.Members()
	first := make(map[string]jsonedit.Node, len(members)) // sized: it grew a dozen times for 10,000 servers
	entries = make([]entry, 0, len(members))
	servers = make([]canonical.Server, 0, len(members)) // never grown: the entries point into it
	for _, m := range members {
		if prev, dup := first[m.Name]; dup {
			line, col := prev.Pos()
			d := canonical.Errorf("duplicate server name %q", m.Name)
			d.Detail = fmt.Sprintf("also defined at line %d, column %d; %s uses the last one; remove or rename one", line, col, a.spec.DisplayName)
			d.Server = m.Name
			diags = append(diags, atNode(d, t, m.Key))
			continue
		}
		first[m.Name] = m.Key
		srv, ok, ds := a.decodeServer(c, t, m.Name, m.Key, m.Value)
		diags = append(diags, ds...)
		servers = append(servers, srv)
		entries = append(entries, entry{name: m.Name, key: m.Key, node: m.Value, srv: &servers[len(servers)-1], ok: ok})
	}
	return entries, servers, diags
}

// duplicateKey reports a key on the way to the server map that the object
// n holds twice ("mcpServers" twice at the top): the client reads only the
// last one, so the servers of the other are hidden from it, and mcpsync
// will not guess which one the user meant, as for a duplicate server name.
func (a *Adapter) duplicateKey(t target, n jsonedit.Node, path []string) *canonical.Diagnostic {
	name := path[len(path)-1]
	var keys []jsonedit.Node
	for _, m := range n.Members() {
		if m.Name == name {
			keys = append(keys, m.Key)
		}
	}
	if len(keys) < 2 {
		return nil
	}
	line, col := keys[len(keys)-1].Pos()
	d := canonical.Errorf("duplicate key %q", strings.Join(path, "."))
	d.Detail = fmt.Sprintf("defined again at line %d, column %d; %s reads only the last one, so the servers of this one are hidden from it: "+
		"merge them into one and remove the other", line, col, a.spec.DisplayName)
	return atNode(d, t, keys[0])
}

// wrapperKeys are the server map keys clients use, from the built-in specs
// (and Codex's mcp_servers, whose adapter is Go, for a TOML table pasted as
// JSON); finding another client's key where this one's is missing is worth
// a warning.
var wrapperKeys = sync.OnceValue(func() []string {
	keys := []string{"mcp_servers"}
	for _, id := range BuiltinIDs() {
		s, err := Builtin(id)
		if err != nil {
			continue
		}
		for _, p := range s.Shape().Servers {
			if len(p) > 0 && p[0] != "projects" && !slices.Contains(keys, p[0]) {
				keys = append(keys, p[0])
			}
		}
	}
	return keys
})

func (a *Adapter) misplaced(t target, root jsonedit.Node) canonical.Diagnostics {
	var looksLikeServers []string
	for _, m := range root.Members() {
		if m.Value.Kind() == jsonedit.KindObject && (m.Value.Get("command").Valid() || m.Value.Get("url").Valid()) {
			looksLikeServers = append(looksLikeServers, m.Name)
		}
	}
	if len(looksLikeServers) > 0 {
		d := canonical.Warnf("no %q here, but the top level looks like servers (%s)", t.servers[0], strings.Join(looksLikeServers, ", "))
		d.Detail = "a plugin's .mcp.json keeps its servers at the top; " + a.spec.DisplayName + " reads them under \"" + t.servers[0] + "\", so mcpsync imports nothing from this file"
		return canonical.Diagnostics{atNode(d, t, root)}
	}
	for _, k := range wrapperKeys() {
		if k == t.servers[0] {
			continue
		}
		if v := root.Get(k); v.Kind() == jsonedit.KindObject && v.Len() > 0 {
			d := canonical.Warnf("found %q but %s reads %q", k, a.spec.DisplayName, strings.Join(t.servers, "."))
			d.Detail = "these servers are not loaded by the client and mcpsync does not import them; rename the key if they are meant for " + a.spec.DisplayName
			for _, m := range root.Members() {
				if m.Name == k {
					return canonical.Diagnostics{atNode(d, t, m.Key)}
				}
			}
		}
	}
	return nil
}

// reader decodes one entry, collecting problems against its fields.
type reader struct {
	a     *Adapter
	t     target
	name  string
	diags canonical.Diagnostics
	skip  bool
	// refs is the decode's memo of the values with references it read,
	// shared by the readers of its servers (refMemo).
	refs *refMemo
}

// skipf records why the client would not load the entry.
func (r *reader) skipf(n jsonedit.Node, field, detail, format string, args ...any) {
	d := canonical.Warnf("server %q is skipped: "+format, append([]any{r.name}, args...)...)
	d.Detail, d.Server, d.Field = detail, r.name, field
	r.diags = append(r.diags, atNode(d, r.t, n))
	r.skip = true
}

func (r *reader) warnf(n jsonedit.Node, field, detail, format string, args ...any) {
	d := canonical.Warnf(format, args...)
	d.Detail, d.Server, d.Field = detail, r.name, field
	r.diags = append(r.diags, atNode(d, r.t, n))
}

// str reads a string field and turns the client's placeholders into
// canonical ones. A reference the client would not expand is still read as
// a reference (that is what the user meant) with a warning.
func (r *reader) str(n jsonedit.Node, field string) (string, bool) {
	s, ok := n.Text()
	if !ok {
		r.skipf(n, field, "", "%s must be a string, not %s", field, n.Kind())
		return "", false
	}
	return r.ref(n, field, s), true
}

// asItIs reports whether ref would return s as it is, whatever the field,
// without naming the field: s holds no reference in any dialect and does
// not start with the client's command prefix (or its literal form).
func (r *reader) asItIs(s string) bool {
	if strings.ContainsAny(s, "${") {
		return false
	}
	c := r.a.spec.Commands
	return c == nil || !strings.HasPrefix(s, c.Prefix) && !strings.HasPrefix(s, c.Literal)
}

func (r *reader) ref(n jsonedit.Node, field, s string) string {
	if c := r.a.spec.Commands; c != nil && (strings.HasPrefix(s, c.Prefix) || strings.HasPrefix(s, c.Literal)) &&
		r.a.spec.commandField(r.modelField(field)) {
		if !strings.HasPrefix(s, c.Literal) {
			r.skipf(n, field, "mcpsync does not carry a value made by a command to other clients; the entry is left as it is (write "+
				c.Literal+" for a literal "+c.Prefix+")",
				"%s starts with %q: %s runs the rest as a command to get the value", field, c.Prefix, r.a.spec.DisplayName)
			return s
		}
		s = c.Prefix + s[len(c.Literal):] // the client's literal prefix
	}
	if !strings.ContainsAny(s, "${") {
		return s // no reference in any dialect (canonical.Parse's own test)
	}
	expands := r.a.spec.expands(r.modelField(field), r.t.loc.Scope)
	read := r.refs.get(expands, s, func() refResult {
		tpl := canonical.Parse(s, r.a.spec.dialect(expands))
		if !tpl.HasRefs() {
			return refResult{out: s}
		}
		out, _ := tpl.Render(canonical.DialectCanonical)
		return refResult{out: out, foreign: tpl.Foreign()}
	})
	for _, f := range read.foreign {
		r.warnf(n, field, "it is read as a reference; write it as the client spells references if you want the client to expand it",
			"%s is not expanded by %s: the server would get %q literally", f.Text, r.a.spec.DisplayName, f.Text)
	}
	return read.out
}

// modelField names a client key ("arguments[1]", "environment.K") by the
// model's field (args[1], env.K), for the placeholder_fields of a spec.
func (r *reader) modelField(field string) string {
	key, rest := field, ""
	if i := strings.IndexAny(field, ".["); i >= 0 {
		key, rest = field[:i], field[i:]
	}
	f := r.a.spec.Fields
	for _, m := range [...]struct{ model, client string }{{"command", f.Command}, {"args", f.Args}, {"env", f.Env},
		{"cwd", f.Cwd}, {"url", f.URL}, {"headers", f.Headers}} {
		if m.client != "" && m.client == key {
			return m.model + rest
		}
	}
	return field
}

func (r *reader) strings(n jsonedit.Node, field string) ([]string, bool) {
	if n.Kind() != jsonedit.KindArray {
		r.skipf(n, field, "write it as a list: [\"a\", \"b\"]", "%s must be an array of strings, not %s", field, n.Kind())
		return nil, false
	}
	els := n.Elements()
	out := make([]string, 0, len(els))
	for i, e := range els {
		if s, ok := e.Text(); ok && r.asItIs(s) {
			out = append(out, s)
			continue
		}
		s, ok := r.str(e, fmt.Sprintf("%s[%d]", field, i))
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// stringMap reads env or headers. Numbers and booleans are taken as their
// text (VS Code allows them); null is skipped with a warning.
func (r *reader) stringMap(n jsonedit.Node, field string) (map[string]string, bool) {
	if n.Kind() != jsonedit.KindObject {
		r.skipf(n, field, `write it as an object: {"NAME": "value"}`, "%s must be an object, not %s", field, n.Kind())
		return nil, false
	}
	members := n.Members()
	out := make(map[string]string, len(members))
	for _, m := range members {
		switch m.Value.Kind() {
		case jsonedit.KindString:
			s, _ := m.Value.Text()
			if !r.asItIs(s) {
				s = r.ref(m.Value, field+"."+m.Name, s)
			}
			out[m.Name] = s
		case jsonedit.KindNumber, jsonedit.KindBool:
			out[m.Name] = m.Value.Literal()
		default:
			r.skipf(m.Value, field+"."+m.Name, "", "%s.%s must be a string, not %s", field, m.Name, m.Value.Kind())
			return nil, false
		}
	}
	return out, true
}

func (r *reader) boolean(n jsonedit.Node, field string) (bool, bool) {
	b, ok := n.Bool()
	if !ok {
		r.skipf(n, field, "", "%s must be true or false, not %s", field, n.Kind())
	}
	return b, ok
}

func (r *reader) duration(n jsonedit.Node, field string) (time.Duration, bool) {
	f, ok := n.Float()
	if !ok || f < 0 || f > math.MaxInt32 {
		r.skipf(n, field, "", "%s must be a positive number (%s)", field, unitName(r.a.spec.Fields.TimeoutUnit))
		return 0, false
	}
	if r.a.spec.Fields.TimeoutUnit == "s" {
		return time.Duration(f * float64(time.Second)), true
	}
	return time.Duration(f * float64(time.Millisecond)), true
}

func unitName(u string) string {
	if u == "s" {
		return "seconds"
	}
	return "milliseconds"
}

// decodeServer maps one entry into a canonical server: known keys into the
// model, every other key into Extra verbatim. It reports ok == false for an
// entry the client would skip.
func (a *Adapter) decodeServer(c *Context, t target, name string, key, n jsonedit.Node) (canonical.Server, bool, canonical.Diagnostics) {
	line, col := key.Pos()
	srv := canonical.Server{Name: name, Origin: canonical.Pos{File: t.loc.Path, Line: line, Column: col}}
	r := &reader{a: a, t: t, name: name, refs: &c.refs}
	if nr := a.spec.Names; nr != nil && !nr.Pattern.MatchString(name) {
		r.skipf(key, "", "rename it to a name of "+nr.Rule, "%s accepts only server names of %s", a.spec.DisplayName, nr.Rule)
		return srv, false, r.diags
	}
	if n.Kind() != jsonedit.KindObject {
		r.skipf(n, "", "a server is an object such as {\"command\": \"npx\", \"args\": [...]}", "it is %s, not an object", n.Kind())
		return srv, false, r.diags
	}
	members := n.Members()
	if v, ok := a.hooks.(EntryViewer); ok {
		view, skip, ds := v.ViewEntry(c, name, n)
		if skip {
			// An entry the client keeps for itself: said only when asked
			// (LeftAlone), so that every export is not a warning.
			c.leftAlone = append(c.leftAlone, ds...)
			return srv, false, r.diags
		}
		r.diags = append(r.diags, ds...)
		if view != nil {
			members = view
		}
	}
	f := a.spec.Fields
	var known [fOAuth + 1]jsonedit.Node // by kind; not Valid when absent
	var urlKey string
	for i, m := range members {
		for _, prev := range members[:i] {
			if prev.Name == m.Name {
				r.warnf(m.Key, m.Name, a.spec.DisplayName+" uses the last one; remove the other", "key %q is repeated", m.Name)
				break
			}
		}
		kind := a.keys[m.Name]
		if kind == fUnknown || (kind == fOAuth && m.Value.Kind() != jsonedit.KindObject) {
			srv.SetExtra(a.spec.ID, m.Name, m.Value.JSON())
			continue
		}
		if kind == fURL {
			if prev := known[fURL]; prev.Valid() && a.urlTransport[urlKey] != "" && a.urlTransport[m.Name] == "" {
				// a dedicated key (httpUrl) wins over the plain url
				srv.SetExtra(a.spec.ID, m.Name, m.Value.JSON())
				continue
			} else if prev.Valid() {
				srv.SetExtra(a.spec.ID, urlKey, prev.JSON())
			}
			urlKey = m.Name
		}
		known[kind] = m.Value
	}

	// The transport: a dedicated url key, else the type, else what a bare
	// url or a command means to this client.
	typeNode := known[fType]
	hasType := typeNode.Valid()
	switch {
	case urlKey != "" && a.urlTransport[urlKey] != "":
		srv.Transport = a.urlTransport[urlKey]
		if hasType {
			srv.SetExtra(a.spec.ID, f.Type, typeNode.JSON())
		}
	case hasType:
		spelling, ok := typeNode.Text()
		if !ok {
			r.skipf(typeNode, f.Type, "", "type must be a string, not %s", typeNode.Kind())
			break
		}
		tr, ok := a.transportOf(spelling)
		if !ok {
			r.skipf(typeNode, f.Type, "use one of "+a.typeSpellings(), "%s does not know the type %q", a.spec.DisplayName, spelling)
			break
		}
		srv.Transport = tr
	case len(members) == 1 && (known[fEnabled].Valid() || known[fDisabled].Valid()):
		r.skipf(n, "", "it may switch off a server defined in another file; the entry is left as it is",
			"it only says whether the server is enabled")
	case a.spec.TypeRequired:
		r.skipf(n, f.Type, a.typeAdvice(), "it has no type, which %s requires", a.spec.DisplayName)
	case urlKey != "":
		switch a.spec.URLWithoutType {
		case "http", "auto":
			srv.Transport = canonical.HTTP
		case "sse":
			srv.Transport = canonical.SSE
		case "invalid":
			r.skipf(known[fURL], urlKey, a.typeAdvice(), "it has a url but no type, which %s rejects", a.spec.DisplayName)
		}
	case known[fCommand].Valid():
		srv.Transport = canonical.Stdio
	case a.stdioOnly():
		r.skipf(n, f.Command, a.spec.DisplayName+" runs only local servers from this file; the entry is left as it is",
			"it has no %s", f.Command)
	default:
		r.skipf(n, "", `give a "command" for a local server or a "url" for a remote one; the entry is left as it is`,
			"it has neither a command nor a url")
	}

	// Keys that belong to the other kind of transport are kept verbatim:
	// the client ignores them, and writing back must not lose them.
	for kind := fType; kind <= fOAuth; kind++ {
		v := known[kind]
		if !v.Valid() {
			continue
		}
		stdioOnly := kind == fCommand || kind == fArgs || kind == fEnv || kind == fCwd
		remoteOnly := kind == fURL || kind == fHeaders || kind == fOAuth
		if (srv.Transport == canonical.Stdio && remoteOnly) || (srv.Transport.IsRemote() && stdioOnly) {
			k := a.keyOf(kind, urlKey)
			srv.SetExtra(a.spec.ID, k, v.JSON())
			known[kind] = jsonedit.Node{}
		}
	}

	for kind := fType; kind <= fOAuth; kind++ {
		v := known[kind]
		if !v.Valid() {
			continue
		}
		switch kind {
		case fCommand:
			if f.CommandArray {
				parts, ok := r.strings(v, f.Command)
				if ok && len(parts) == 0 {
					r.skipf(v, f.Command, `write it as ["program", "arg", ...]`, "%s is an empty array", f.Command)
				} else if ok {
					srv.Command, srv.Args = parts[0], parts[1:]
				}
			} else {
				srv.Command, _ = r.str(v, f.Command)
			}
		case fArgs:
			srv.Args, _ = r.strings(v, f.Args)
		case fEnv:
			srv.Env, _ = r.stringMap(v, f.Env)
		case fCwd:
			srv.Cwd, _ = r.str(v, f.Cwd)
		case fURL:
			srv.URL, _ = r.str(v, urlKey)
		case fHeaders:
			srv.Headers, _ = r.stringMap(v, f.Headers)
		case fEnabled:
			on, _ := r.boolean(v, f.Enabled)
			srv.Disabled = !on
		case fDisabled:
			srv.Disabled, _ = r.boolean(v, f.Disabled)
		case fToolsAllow:
			srv.ToolsAllow, _ = r.strings(v, f.ToolsAllow)
		case fToolsDeny:
			srv.ToolsDeny, _ = r.strings(v, f.ToolsDeny)
		case fStartupTimeout:
			srv.StartupTimeout, _ = r.duration(v, f.StartupTimeout)
		case fToolTimeout:
			srv.ToolTimeout, _ = r.duration(v, f.ToolTimeout)
		case fOAuth:
			a.readOAuth(r, v, &srv)
		}
	}
	if srv.Transport == canonical.Stdio && !r.skip && strings.TrimSpace(srv.Command) == "" {
		r.skipf(n, f.Command, "", "it has no command")
	}
	if srv.Transport.IsRemote() && !r.skip && srv.URL == "" {
		r.skipf(n, urlKey, "", "a %s server needs a url", srv.Transport)
	}
	if srv.Transport == canonical.Stdio {
		srv.Command, srv.Args, _ = winshim.Unwrap(srv.Command, srv.Args)
		if !a.caps.Supports(canonical.HTTP) && !a.caps.Supports(canonical.SSE) {
			if remote, ok := unbridge(srv.Command, srv.Args); ok {
				// mcp-remote expands ${VAR} in its arguments itself: the
				// client's not expanding them is no problem here.
				r.diags = slices.DeleteFunc(r.diags, func(d *canonical.Diagnostic) bool {
					return d.Severity == canonical.Warning && strings.HasPrefix(d.Field, "args[")
				})
				srv.Transport, srv.URL, srv.Headers = remote.Transport, remote.URL, remote.Headers
				srv.Command, srv.Args = "", nil
				srv.Env = nil
				if v := known[fEnv]; v.Valid() {
					srv.SetExtra(a.spec.ID, f.Env, v.JSON())
				}
			}
		}
	}
	r.diags = append(r.diags, a.hooks.DecodeEntry(c, n, &srv)...)
	srv.Normalize()
	return srv, !r.skip, r.diags
}

// keyOf returns the client's key for a field kind.
func (a *Adapter) keyOf(kind fieldKind, urlKey string) string {
	f := a.spec.Fields
	switch kind {
	case fCommand:
		return f.Command
	case fArgs:
		return f.Args
	case fEnv:
		return f.Env
	case fCwd:
		return f.Cwd
	case fURL:
		return urlKey
	case fHeaders:
		return f.Headers
	case fOAuth:
		return a.spec.OAuth.Key
	}
	return ""
}

func (a *Adapter) readOAuth(r *reader, n jsonedit.Node, srv *canonical.Server) {
	o := a.spec.OAuth
	var out canonical.OAuth
	for _, m := range n.Members() {
		switch m.Name {
		case "":
		case o.ClientID:
			out.ClientID, _ = r.str(m.Value, o.Key+"."+m.Name)
		case o.ClientSecret:
			out.ClientSecret, _ = r.str(m.Value, o.Key+"."+m.Name)
		case o.RedirectURI:
			out.RedirectURI, _ = r.str(m.Value, o.Key+"."+m.Name)
		case o.AuthServerMetadataURL:
			out.AuthServerMetadataURL, _ = r.str(m.Value, o.Key+"."+m.Name)
		case o.Resource:
			out.Resource, _ = r.str(m.Value, o.Key+"."+m.Name)
		case o.CallbackPort:
			if f, ok := m.Value.Float(); ok && f == math.Trunc(f) && f > 0 && f < 65536 {
				out.CallbackPort = int(f)
			} else {
				r.skipf(m.Value, o.Key+"."+m.Name, "", "%s.%s must be a port number", o.Key, m.Name)
			}
		case o.Scopes:
			if o.ScopesString {
				s, _ := r.str(m.Value, o.Key+"."+m.Name)
				out.Scopes = strings.Fields(s)
			} else {
				out.Scopes, _ = r.strings(m.Value, o.Key+"."+m.Name)
			}
		}
	}
	srv.Auth.OAuth = &out
}

// transportOf maps a type spelling to a transport: the first transport that
// writes or accepts it.
func (a *Adapter) transportOf(spelling string) (canonical.Transport, bool) {
	for _, t := range a.spec.Transports {
		if t.Type == spelling {
			return t.Name, true
		}
	}
	for _, t := range a.spec.Transports {
		for _, al := range t.Aliases {
			if al == spelling {
				return t.Name, true
			}
		}
	}
	return "", false
}

func (a *Adapter) typeSpellings() string {
	var out []string
	seen := map[string]bool{}
	for _, t := range a.spec.Transports {
		if t.Type != "" && !seen[t.Type] {
			seen[t.Type] = true
			out = append(out, fmt.Sprintf("%q", t.Type))
		}
	}
	return strings.Join(out, ", ")
}

func (a *Adapter) typeAdvice() string {
	var out []string
	for _, t := range a.spec.Transports {
		if (t.Name.IsRemote() || a.spec.TypeRequired) && t.Type != "" && !slices.Contains(out, fmt.Sprintf(`"%s": %q`, a.spec.Fields.Type, t.Type)) {
			out = append(out, fmt.Sprintf(`"%s": %q`, a.spec.Fields.Type, t.Type))
		}
	}
	return "add " + strings.Join(out, " or ") + "; the entry is left as it is"
}
