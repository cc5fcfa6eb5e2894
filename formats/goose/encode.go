package goose

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/internal/adapterkit"
	"github.com/mcpsync/mcpsync/formats/internal/yamledit"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

func (adapter) Encode(loc formats.Location, data []byte, want canonical.Set, opts formats.EncodeOptions) ([]byte, canonical.Diagnostics) {
	f, ds := decodeFile(loc.Path, data)
	if f.doc == nil {
		return data, ds // not YAML: the syntax error is all there is to say
	}
	if ds.HasErrors() {
		return data, adapterkit.Broken(loc.Path, "config.yaml", "Goose cannot read", ds)
	}
	// Goose itself writes with serde_yaml: two spaces, sequences at the
	// key's column. Used when the file shows no style of its own.
	f.doc.SetStyleDefaults(2, true)
	w := writer{Warnings: adapterkit.Warnings{File: loc.Path}, f: f}
	var builtin []yamledit.Entry
	for _, name := range f.names() {
		if f.internal[name] {
			builtin = append(builtin, w.keep(name))
		}
	}
	edit := adapterkit.SectionEdit[yamledit.Entry]{
		Warnings:  &w.Warnings,
		Client:    ID,
		Have:      f.set,
		Pinned:    builtin,
		Duplicate: "a file holds one extension per name; rename one of them",
		Refuse:    w.refuse,
		Keep:      w.keep,
		Render: func(srv canonical.Server, old *canonical.Server) yamledit.Entry {
			return yamledit.Entry{Name: srv.Name, Value: w.server(srv, old)}
		},
		Edit:       func(entries []yamledit.Entry) ([]byte, error) { return f.doc.EditMap(section, entries) },
		FileName:   "config.yaml",
		Unverified: yamledit.ErrUnverified,
		Risk:       adapterkit.LayoutRisk,
	}
	out, ds := edit.Run(data, want)
	if len(data) == 0 && len(want.Servers) == 0 {
		return data, ds // an empty file with nothing to hold stays empty
	}
	return out, ds
}

// refuse warns about a server Goose will not take: one named like an
// extension of Goose's own (the file's entry stays), or one over SSE, which
// Goose no longer runs.
func (w *writer) refuse(srv canonical.Server) *canonical.Diagnostic {
	if w.f.internal[srv.Name] {
		d := w.Warn(&srv, "", "the name %q is one of Goose's own extensions; server not written", srv.Name)
		d.Detail = "rename the server to add it to Goose"
		return d
	}
	if srv.Transport == canonical.SSE {
		d := w.Warn(&srv, "transport", "Goose no longer supports SSE; server not written")
		d.Detail = "if the server also serves streamable HTTP, give that url with transport http"
		return d
	}
	// Goose substitutes variables only in uri and headers, and forwards a
	// variable to a command by name (env_keys): any other reference would
	// reach the extension as text.
	field, ref, found := adapterkit.Unexpanded(srv, func(field string, t canonical.Template) bool {
		switch {
		case field == "cwd":
			return true // not written at all (warned about)
		case strings.HasPrefix(field, "env."):
			return adapterkit.OneEnvRef(t)
		case field == "url", strings.HasPrefix(field, "headers."):
			for _, seg := range t {
				if seg.Kind != canonical.Literal && seg.Kind != canonical.EnvRef {
					return false
				}
			}
			return true
		}
		return false
	})
	if !found {
		return nil
	}
	d := w.Warn(&srv, field, "server %q is not written: Goose does not expand references there, so %s would reach the server as the text %s", srv.Name, field, ref)
	d.Detail = "Goose substitutes variables only in uri and headers, and passes one to a command only as a whole env value (env_keys). " +
		"Add the extension in Goose by hand with the real value (mcpsync leaves an entry it did not write alone), " +
		"or keep it out of Goose with 'mcpsync disable " + srv.Name + " --client goose'"
	return d
}

// EntrySpan returns the bytes of one extension in data.
func (adapter) EntrySpan(_ formats.Location, data []byte, name string) (start, end int, ok bool) {
	doc, err := yamledit.Parse(data)
	if err != nil {
		return 0, 0, false
	}
	return doc.EntrySpan(section, "", name)
}

// names returns the extensions in file order.
func (f *file) names() []string {
	_, v := f.doc.Lookup(section)
	return yamledit.MapKeys(v)
}

// writer renders servers as Goose entries and collects the warnings.
type writer struct {
	adapterkit.Warnings
	f *file
}

func (w *writer) keep(name string) yamledit.Entry {
	return yamledit.Entry{Name: name, Value: yamledit.MapFrom(w.f.raw[name], w.f.order[name])}
}

// groups are the Goose keys that together express one part of the
// model: when that part did not change, they keep the file's spelling.
var groups = []adapterkit.Group{
	{Keys: []string{"type"}, Same: func(a, b *canonical.Server) bool { return a.Transport == b.Transport }},
	{Keys: []string{"enabled"}, Same: func(a, b *canonical.Server) bool { return a.Disabled == b.Disabled }},
	{Keys: []string{"cmd", "args"}, Same: func(a, b *canonical.Server) bool {
		return a.Transport == b.Transport && a.Command == b.Command && slices.Equal(a.Args, b.Args)
	}},
	{Keys: []string{"uri"}, Same: func(a, b *canonical.Server) bool { return a.Transport == b.Transport && a.URL == b.URL }},
	{Keys: []string{"headers"}, Same: func(a, b *canonical.Server) bool {
		return a.Transport == b.Transport && maps.Equal(a.Headers, b.Headers)
	}},
	{Keys: []string{"envs", "env_keys"}, Same: func(a, b *canonical.Server) bool {
		if a.Transport != b.Transport {
			return false
		}
		if a.Transport == canonical.Stdio {
			return maps.Equal(a.Env, b.Env)
		}
		return a.URL == b.URL && maps.Equal(a.Headers, b.Headers) &&
			(b.Extra[ID] == nil || (yamledit.JSONEqual(a.Extra[ID]["envs"], b.Extra[ID]["envs"]) && yamledit.JSONEqual(a.Extra[ID]["env_keys"], b.Extra[ID]["env_keys"])))
	}},
	{Keys: []string{"timeout"}, Same: func(a, b *canonical.Server) bool {
		return a.ToolTimeout == b.ToolTimeout && a.StartupTimeout == b.StartupTimeout
	}},
	{Keys: []string{"available_tools"}, Same: func(a, b *canonical.Server) bool { return slices.Equal(a.ToolsAllow, b.ToolsAllow) }},
}

// server renders srv; with old (what the file holds), the parts that did
// not change keep the file's own keys and spelling.
func (w *writer) server(srv canonical.Server, old *canonical.Server) yamledit.Map {
	fresh := w.fresh(srv)
	if old == nil {
		return fresh
	}
	return adapterkit.Merge(groups, old, &srv, w.f.order[srv.Name], w.f.raw[srv.Name], fresh)
}

// fresh renders srv from the model alone, in the key order Goose writes.
func (w *writer) fresh(srv canonical.Server) yamledit.Map {
	raw := w.f.raw[srv.Name]
	x := srv.Extra[ID]
	var m yamledit.Map
	m.Set("enabled", !srv.Disabled)
	// name and description: want's, else the file's, else (for a new
	// extension only) the default Goose itself writes.
	display := func(key string, def any) {
		if v, ok := yamledit.FromJSON(x[key]); ok {
			m.Set(key, v)
		} else if v, ok := raw[key]; ok {
			m.Set(key, v)
		} else if raw == nil {
			m.Set(key, def)
		}
	}
	switch srv.Transport {
	case canonical.Stdio:
		m.Set("type", "stdio")
		display("name", srv.Name)
		display("description", "")
		m.Set("cmd", srv.Command)
		args := make([]any, len(srv.Args))
		for i, a := range srv.Args {
			args[i] = a
		}
		m.Set("args", args)
		envs, keys := w.env(srv)
		m.Set("envs", envs)
		m.Set("env_keys", keys)
		if srv.Cwd != "" {
			w.Warn(&srv, "cwd", "Goose has no working directory setting; cwd not written")
		}
		if len(srv.Headers) > 0 {
			w.Warn(&srv, "headers", "Goose sends no headers to a stdio extension; headers not written")
		}
	case canonical.HTTP:
		m.Set("type", "streamable_http")
		display("name", srv.Name)
		display("description", "")
		m.Set("uri", w.render(&srv, "url", srv.URL))
		headers := yamledit.Map{}
		for _, k := range mapkeys.Sorted(srv.Headers) {
			headers.Set(k, w.render(&srv, "headers."+k, srv.Headers[k]))
		}
		m.Set("headers", headers)
		envs := yamledit.Map{}
		if v, ok := yamledit.FromJSON(x["envs"]); ok {
			if t, ok := v.(yamledit.Map); ok {
				envs = t
			}
		} else if v, ok := raw["envs"].(map[string]any); ok && x == nil {
			envs = yamledit.MapFrom(v, nil)
		}
		set := map[string]string{}
		for _, f := range envs {
			s, _ := f.Value.(string)
			set[f.Key] = s
		}
		var keys []any
		if v, ok := yamledit.FromJSON(x["env_keys"]); ok {
			keys, _ = v.([]any)
		}
		for _, n := range derivedKeys(srv, set) {
			if !slices.Contains(keys, any(n)) {
				keys = append(keys, n)
			}
		}
		if keys == nil {
			keys = []any{}
		}
		m.Set("envs", envs)
		m.Set("env_keys", keys)
		for _, field := range adapterkit.StdioOnlyFields(srv) {
			w.Warn(&srv, field, "Goose does not take %s for a streamable_http extension; %s not written", field, field)
		}
	}
	switch {
	case srv.ToolTimeout > 0:
		m.Set("timeout", wholeSeconds(&srv, w, "toolTimeout", srv.ToolTimeout))
		if srv.StartupTimeout > 0 && srv.StartupTimeout != srv.ToolTimeout {
			w.Warn(&srv, "startupTimeout", "Goose has one timeout, written from toolTimeout; startupTimeout not written")
		}
	case srv.StartupTimeout > 0:
		m.Set("timeout", wholeSeconds(&srv, w, "startupTimeout", srv.StartupTimeout))
		w.Warn(&srv, "startupTimeout", "Goose has one timeout for start-up and tool calls; written from startupTimeout")
	}
	if len(srv.ToolsAllow) > 0 {
		tools := make([]any, len(srv.ToolsAllow))
		for i, t := range srv.ToolsAllow {
			tools[i] = t
		}
		m.Set("available_tools", tools)
	}
	if len(srv.ToolsDeny) > 0 {
		w.Warn(&srv, "toolsDeny", "Goose has only an allow-list (available_tools); toolsDeny not written")
	}
	if !srv.Auth.OAuth.IsZero() {
		w.Warn(&srv, "oauth", "Goose runs OAuth itself; oauth settings not written")
	}
	// Keys the model does not know: want's, or the file's when want has none.
	if x == nil {
		for _, k := range w.f.order[srv.Name] {
			if !modelled[k] && k != "name" && k != "description" {
				m.Set(k, raw[k])
			}
		}
	} else {
		for _, k := range mapkeys.Sorted(x) {
			if modelled[k] || k == "name" || k == "description" {
				continue
			}
			if v, ok := yamledit.FromJSON(x[k]); ok {
				if old, has := raw[k]; has && yamledit.Equal(old, v) {
					v = old
				}
				m.Set(k, v)
			}
		}
	}
	return m
}

// render spells a uri or header value in Goose's ${VAR}, warning about what
// it cannot express.
func (w *writer) render(srv *canonical.Server, field, s string) string {
	out, problems := canonical.Parse(s, canonical.DialectCanonical).Render(dialect)
	for _, p := range problems {
		w.Warn(srv, field, "%s: %s", p.Ref.Text, p.Reason)
	}
	return out
}

// env splits a stdio environment into literal envs and env_keys, which
// Goose fills from its keyring (or the environment).
func (w *writer) env(srv canonical.Server) (yamledit.Map, []any) {
	envs := yamledit.Map{}
	keys := []any{}
	seen := map[string]bool{}
	for _, k := range mapkeys.Sorted(srv.Env) {
		v := srv.Env[k]
		if disallowed(k) {
			d := w.Warn(&srv, "env."+k, "Goose does not allow %s for an extension; not written", k)
			d.Detail = "Goose refuses to start an extension that sets " + k
			continue
		}
		tm := canonical.Parse(v, canonical.DialectCanonical)
		switch {
		case !tm.HasRefs():
			envs.Set(k, v)
		case len(tm) == 1 && tm[0].Kind == canonical.EnvRef:
			ref := tm[0]
			if ref.HasDefault {
				w.Warn(&srv, "env."+k, "Goose has no default for a variable; the default %q is dropped", ref.Default)
			}
			if ref.Name != k {
				d := w.Warn(&srv, "env."+k, "Goose cannot pass %s under the name %s; written as env_keys %s", ref.Name, k, ref.Name)
				d.Detail = "the extension sees " + ref.Name + ", not " + k + "; store " + k + " in Goose's keyring instead, or rename the variable"
			}
			if !seen[ref.Name] {
				seen[ref.Name] = true
				keys = append(keys, ref.Name)
			}
		default:
			envs.Set(k, v)
			d := w.Warn(&srv, "env."+k, "Goose cannot build %s from a reference; written literally", k)
			d.Detail = "Goose expands nothing in envs: the extension receives the text " + v
		}
	}
	return envs, keys
}

func wholeSeconds(srv *canonical.Server, w *writer, field string, d time.Duration) int64 {
	s := int64((d + time.Second - 1) / time.Second)
	if d%time.Second != 0 {
		w.Warn(srv, field, "Goose counts whole seconds; %v written as %ds", d, s)
	}
	return s
}
