package codex

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/internal/adapterkit"
	"github.com/mcpsync/mcpsync/formats/internal/tomledit"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
	"github.com/mcpsync/mcpsync/internal/winshim"
)

func (adapter) Encode(loc formats.Location, data []byte, want canonical.Set, opts formats.EncodeOptions) ([]byte, canonical.Diagnostics) {
	// On any error the input comes back unchanged with the diagnostics:
	// nothing is written.
	f, ds := decodeFile(loc.Path, data)
	if f.doc == nil {
		return data, ds // not TOML: the syntax error is all there is to say
	}
	if ds.HasErrors() {
		return data, adapterkit.Broken(loc.Path, "config.toml", "Codex refuses to load", ds)
	}
	w := writer{Warnings: adapterkit.Warnings{File: loc.Path}, f: f, opts: opts}
	edit := adapterkit.SectionEdit[tomledit.Entry]{
		Warnings:  &w.Warnings,
		Client:    ID,
		Have:      f.set,
		Duplicate: "a file holds one server per name; rename one of them",
		Refuse:    w.refuse,
		Keep:      w.keep,
		Render: func(srv canonical.Server, old *canonical.Server) tomledit.Entry {
			return tomledit.Entry{Name: srv.Name, Value: w.server(srv, old)}
		},
		Edit:       func(entries []tomledit.Entry) ([]byte, error) { return f.doc.EditSection(section, entries) },
		FileName:   "config.toml",
		Unverified: tomledit.ErrUnverified,
		Risk:       adapterkit.LayoutRisk + ". Please report it with the file attached",
	}
	return edit.Run(data, want)
}

// refuse warns about a server Codex cannot run: it has no SSE transport
// (Codex reads every url server as streamable HTTP, so an entry the file
// holds is never SSE), and it expands no reference, so a server whose
// command, arguments, url or cwd hold one, or whose env or headers hold one
// that env_vars, bearer_token_env_var and env_http_headers cannot forward
// (a ${input:…} prompt, text around a variable in env), would get the text.
func (w *writer) refuse(srv canonical.Server) *canonical.Diagnostic {
	if srv.Transport == canonical.SSE {
		d := w.Warn(&srv, "transport", "Codex has no SSE transport; server not written")
		d.Detail = "Codex speaks only stdio and streamable HTTP. If the server also serves streamable HTTP, give that url with transport http"
		return d
	}
	field, ref, found := adapterkit.Unexpanded(srv, func(field string, t canonical.Template) bool {
		switch {
		case strings.HasPrefix(field, "env."):
			return adapterkit.OneEnvRef(t)
		case strings.HasPrefix(field, "headers."):
			n := 0
			for _, seg := range t {
				switch seg.Kind {
				case canonical.EnvRef:
					n++
				case canonical.Literal:
				default:
					return false
				}
			}
			return n == 1 // bearer_token_env_var or env_http_headers
		}
		return false
	})
	if !found {
		return nil
	}
	d := w.Warn(&srv, field, "server %q is not written: Codex expands no references, so %s would reach the server as the text %s", srv.Name, field, ref)
	d.Detail = "Codex forwards a variable only as a whole env value (env_vars) or header (bearer_token_env_var, env_http_headers). " +
		"Add the server in Codex by hand with the real value (mcpsync leaves an entry it did not write alone), " +
		"or keep it out of Codex with 'mcpsync disable " + srv.Name + " --client codex'"
	return d
}

// writer renders servers as Codex tables and collects the warnings.
type writer struct {
	adapterkit.Warnings
	f    *file
	opts formats.EncodeOptions
}

// keep returns the entry exactly as the file holds it.
func (w *writer) keep(name string) tomledit.Entry {
	return tomledit.Entry{Name: name, Value: tomledit.TableFromMap(w.f.raw[name], w.f.doc.Keys(section, name))}
}

// groups are the Codex keys that together express one part of the model:
// when that part did not change, they keep the file's spelling (env table
// or env_vars, startup_timeout_ms or _sec, a cmd /c wrapper, ...).
var groups = []adapterkit.Group{
	{Keys: []string{"command", "args"}, Same: func(a, b *canonical.Server) bool {
		return a.Command == b.Command && slices.Equal(a.Args, b.Args)
	}},
	{Keys: []string{"env", "env_vars"}, Same: func(a, b *canonical.Server) bool {
		return maps.Equal(a.Env, b.Env) && (b.Extra[ID] == nil || rawEqual(a.Extra[ID]["env_vars"], b.Extra[ID]["env_vars"]))
	}},
	{Keys: []string{"cwd"}, Same: func(a, b *canonical.Server) bool { return a.Cwd == b.Cwd }},
	{Keys: []string{"url"}, Same: func(a, b *canonical.Server) bool { return a.URL == b.URL }},
	{Keys: []string{"bearer_token_env_var", "http_headers", "env_http_headers"}, Same: func(a, b *canonical.Server) bool {
		return maps.Equal(a.Headers, b.Headers)
	}},
	{Keys: []string{"enabled"}, Same: func(a, b *canonical.Server) bool { return a.Disabled == b.Disabled }},
	{Keys: []string{"enabled_tools"}, Same: func(a, b *canonical.Server) bool { return slices.Equal(a.ToolsAllow, b.ToolsAllow) }},
	{Keys: []string{"disabled_tools"}, Same: func(a, b *canonical.Server) bool { return slices.Equal(a.ToolsDeny, b.ToolsDeny) }},
	{Keys: []string{"startup_timeout_sec", "startup_timeout_ms"}, Same: func(a, b *canonical.Server) bool { return a.StartupTimeout == b.StartupTimeout }},
	{Keys: []string{"tool_timeout_sec"}, Same: func(a, b *canonical.Server) bool { return a.ToolTimeout == b.ToolTimeout }},
	{Keys: []string{"oauth", "scopes", "oauth_resource"}, Same: func(a, b *canonical.Server) bool {
		return oauthSame(a.Auth.OAuth, b.Auth.OAuth) && (b.Extra[ID] == nil || rawEqual(a.Extra[ID]["oauth"], b.Extra[ID]["oauth"]))
	}},
}

func oauthSame(a, b *canonical.OAuth) bool {
	if a.IsZero() || b.IsZero() {
		return a.IsZero() == b.IsZero()
	}
	return a.ClientID == b.ClientID && a.ClientSecret == b.ClientSecret && slices.Equal(a.Scopes, b.Scopes) &&
		a.CallbackPort == b.CallbackPort && a.RedirectURI == b.RedirectURI &&
		a.AuthServerMetadataURL == b.AuthServerMetadataURL && a.Resource == b.Resource
}

func rawEqual(a, b json.RawMessage) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	va, okA := tomledit.FromJSON(a)
	vb, okB := tomledit.FromJSON(b)
	return okA == okB && tomledit.Equal(va, vb)
}

// server renders srv as a Codex table. With old (what the file holds under
// that name), the parts that did not change keep the file's own keys.
func (w *writer) server(srv canonical.Server, old *canonical.Server) tomledit.Table {
	fresh := w.fresh(srv)
	if old == nil {
		return fresh
	}
	return adapterkit.Merge(groups, old, &srv, w.f.doc.Keys(section, srv.Name), w.f.raw[srv.Name], fresh)
}

// fresh renders srv from the model alone, in the key order Codex writes.
func (w *writer) fresh(srv canonical.Server) tomledit.Table {
	var t tomledit.Table
	name := srv.Name
	switch srv.Transport {
	case canonical.Stdio:
		cmd, args := srv.Command, srv.Args
		wrap := w.opts.OS == "windows" || (w.opts.OS == "" && w.f.wrapped[name])
		if wrap {
			var wrapped bool
			if cmd, args, wrapped = wrapCmd(cmd, args); wrapped {
				if bad := winshim.Unsafe(args); len(bad) > 0 {
					w.Warn(&srv, "args", "Codex on Windows starts %s through cmd /c, which reads %q as its own syntax (& | < > ^ %% \"): "+
						"the server would get a different argument; put that value in an environment variable instead", args[1], bad[0])
				}
			}
		}
		t.Set("command", cmd)
		if len(args) > 0 {
			t.Set("args", strs(args))
		}
		env, vars := w.env(srv)
		if len(env) > 0 {
			t.Set("env", env)
		}
		if len(vars) > 0 {
			t.Set("env_vars", vars)
		}
		if srv.Cwd != "" {
			t.Set("cwd", srv.Cwd)
		}
		if len(srv.Headers) > 0 {
			w.Warn(&srv, "headers", "Codex sends no headers to a stdio server; headers not written")
		}
		if !srv.Auth.OAuth.IsZero() {
			w.Warn(&srv, "oauth", "Codex has no OAuth settings for a stdio server; oauth not written")
		}
	case canonical.HTTP:
		t.Set("url", srv.URL)
		bearer, hh, ehh := w.headers(srv)
		if bearer != "" {
			t.Set("bearer_token_env_var", bearer)
		}
		if len(hh) > 0 {
			t.Set("http_headers", hh)
		}
		if len(ehh) > 0 {
			t.Set("env_http_headers", ehh)
		}
		for _, field := range adapterkit.StdioOnlyFields(srv) {
			w.Warn(&srv, field, "Codex does not take %s for a url server; %s not written", field, field)
		}
	}
	if srv.Disabled {
		t.Set("enabled", false)
	}
	if srv.StartupTimeout > 0 {
		t.Set("startup_timeout_sec", seconds(srv.StartupTimeout))
	}
	if srv.ToolTimeout > 0 {
		t.Set("tool_timeout_sec", seconds(srv.ToolTimeout))
	}
	if len(srv.ToolsAllow) > 0 {
		t.Set("enabled_tools", strs(srv.ToolsAllow))
	}
	if len(srv.ToolsDeny) > 0 {
		t.Set("disabled_tools", strs(srv.ToolsDeny))
	}
	if srv.Transport == canonical.HTTP {
		w.oauth(srv, &t)
	}
	w.extra(srv, &t)
	return t
}

// env splits the environment into literal values (env) and variables Codex
// forwards from its own environment (env_vars).
func (w *writer) env(srv canonical.Server) (tomledit.Table, []any) {
	sources := map[string]any{}
	var rawVars json.RawMessage
	if raw, ok := w.f.raw[srv.Name]["env_vars"]; ok {
		rawVars = tomledit.ToJSON(raw)
	} else if x := srv.Extra[ID]["env_vars"]; x != nil {
		rawVars = x
	}
	if v, ok := tomledit.FromJSON(rawVars); ok {
		if list, ok := v.([]any); ok {
			for _, e := range list {
				if t, ok := e.(tomledit.Table); ok {
					if n, ok := t.Get("name"); ok {
						if s, ok := n.(string); ok {
							sources[s] = t
						}
					}
				}
			}
		}
	}
	var env tomledit.Table
	var vars []any
	seen := map[string]bool{}
	forward := func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		if src, ok := sources[name]; ok {
			vars = append(vars, src)
			return
		}
		vars = append(vars, name)
	}
	for _, k := range mapkeys.Sorted(srv.Env) {
		v := srv.Env[k]
		tm := canonical.Parse(v, canonical.DialectCanonical)
		switch {
		case !tm.HasRefs():
			env.Set(k, v)
		case len(tm) == 1 && tm[0].Kind == canonical.EnvRef:
			ref := tm[0]
			if ref.HasDefault {
				d := w.Warn(&srv, "env."+k, "Codex has no default for a forwarded variable; the default %q is dropped", ref.Default)
				d.Detail = "Codex forwards " + ref.Name + " only when it is set in the environment Codex runs in"
			}
			if ref.Name != k {
				d := w.Warn(&srv, "env."+k, "Codex cannot pass %s under the name %s; it forwards %s as is", ref.Name, k, ref.Name)
				d.Detail = "written as env_vars = [\"" + ref.Name + "\"]: the server sees " + ref.Name + ", not " + k +
					". Export " + k + " in the environment Codex runs in, or rename the variable"
			}
			forward(ref.Name)
		default:
			env.Set(k, v)
			d := w.Warn(&srv, "env."+k, "Codex cannot build %s from a reference; written literally", k)
			d.Detail = "Codex expands nothing: the server receives the text " + v + ". Give " + k +
				" its full value in the environment Codex runs in and forward it with env_vars"
		}
	}
	return env, vars
}

// headers splits the headers into bearer_token_env_var, literal
// http_headers and env_http_headers (a header whose whole value is one
// variable).
func (w *writer) headers(srv canonical.Server) (bearer string, hh, ehh tomledit.Table) {
	for _, k := range mapkeys.Sorted(srv.Headers) {
		v := srv.Headers[k]
		tm := canonical.Parse(v, canonical.DialectCanonical)
		if !tm.HasRefs() {
			hh.Set(k, v)
			continue
		}
		dropDefault := func(ref canonical.Segment) {
			if ref.HasDefault {
				w.Warn(&srv, "headers."+k, "Codex has no default for a header variable; the default %q is dropped", ref.Default)
			}
		}
		if strings.EqualFold(k, "Authorization") && bearer == "" && len(tm) == 2 && tm[0].Kind == canonical.Literal &&
			strings.EqualFold(tm[0].Text, "Bearer ") && tm[1].Kind == canonical.EnvRef {
			bearer = tm[1].Name
			dropDefault(tm[1])
			continue
		}
		var refs []canonical.Segment
		for _, seg := range tm {
			if seg.Kind != canonical.Literal {
				refs = append(refs, seg)
			}
		}
		if len(refs) == 1 && refs[0].Kind == canonical.EnvRef {
			ehh.Set(k, refs[0].Name)
			dropDefault(refs[0])
			if len(tm) > 1 {
				d := w.Warn(&srv, "headers."+k, "Codex sends only the value of %s as header %s; the text around the reference is not sent", refs[0].Name, k)
				d.Detail = "written as env_http_headers: put the whole header value (" + v + ") in " + refs[0].Name
			}
			continue
		}
		hh.Set(k, v)
		d := w.Warn(&srv, "headers."+k, "Codex cannot build header %s from references; written literally", k)
		d.Detail = "Codex expands nothing: the server receives the text " + v
	}
	return bearer, hh, ehh
}

// oauth writes oauth = { client_id, callback_port, callback_url }, scopes and
// oauth_resource, with the oauth keys kept in Extra.
func (w *writer) oauth(srv canonical.Server, t *tomledit.Table) {
	o := srv.Auth.OAuth
	var ot tomledit.Table
	if !o.IsZero() {
		if o.ClientID != "" {
			ot.Set("client_id", o.ClientID)
		}
		if o.CallbackPort != 0 {
			ot.Set("callback_port", int64(o.CallbackPort))
		}
		if o.RedirectURI != "" {
			ot.Set("callback_url", o.RedirectURI)
		}
		if o.ClientSecret != "" {
			w.Warn(&srv, "oauth.clientSecret", "Codex has no OAuth client secret setting; not written")
		}
		if o.AuthServerMetadataURL != "" {
			w.Warn(&srv, "oauth.authServerMetadataUrl", "Codex discovers the authorization server itself; authServerMetadataUrl not written")
		}
	}
	if x := srv.Extra[ID]["oauth"]; x != nil {
		if v, ok := tomledit.FromJSON(x); ok {
			if et, ok := v.(tomledit.Table); ok {
				for _, f := range et {
					if _, set := ot.Get(f.Key); !set {
						ot.Set(f.Key, f.Value)
					}
				}
			}
		}
	}
	if len(ot) > 0 {
		t.Set("oauth", ot)
	}
	if o.IsZero() {
		return
	}
	if len(o.Scopes) > 0 {
		t.Set("scopes", strs(o.Scopes))
	}
	if o.Resource != "" {
		t.Set("oauth_resource", o.Resource)
	}
}

// extra writes the keys the model does not know: those of want.Extra
// ["codex"], or, when want has none, those the file already has.
func (w *writer) extra(srv canonical.Server, t *tomledit.Table) {
	raw := w.f.raw[srv.Name]
	x := srv.Extra[ID]
	if x == nil {
		for _, k := range w.f.doc.Keys(section, srv.Name) {
			if !knownKeys[k] {
				t.Set(k, raw[k])
			}
		}
		return
	}
	for _, k := range mapkeys.Sorted(x) {
		if knownKeys[k] {
			continue // env_vars sources and oauth keys, merged above
		}
		v, ok := tomledit.FromJSON(x[k])
		if !ok {
			w.Warn(&srv, k, "%s is null, which TOML cannot write; not written", k)
			continue
		}
		if old, has := raw[k]; has && tomledit.Equal(old, v) {
			v = old // keep the file's own value (a date-time, say)
		}
		t.Set(k, v)
	}
}

func strs(s []string) []any {
	out := make([]any, len(s))
	for i, e := range s {
		out[i] = e
	}
	return out
}

// seconds writes a duration as Codex's float seconds; whole seconds as an
// integer, which Codex reads alike.
func seconds(d time.Duration) any {
	if d%time.Second == 0 {
		return int64(d / time.Second)
	}
	return d.Seconds()
}

// EntrySpan returns the bytes that hold server name in data: from the start
// of its first table or key to the end of its last (they may have other
// tables between them). The conformance suite checks that an edit of one
// server changes nothing outside this range.
func (adapter) EntrySpan(_ formats.Location, data []byte, name string) (start, end int, ok bool) {
	doc, err := tomledit.Parse(data)
	if err != nil {
		return 0, 0, false
	}
	spans := doc.Spans(section, name)
	if len(spans) == 0 {
		return 0, 0, false
	}
	return spans[0].Start, spans[len(spans)-1].End, true
}
