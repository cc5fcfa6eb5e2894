package continuedev

import (
	"bytes"
	"maps"
	"slices"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/internal/adapterkit"
	"github.com/mcpsync/mcpsync/formats/internal/yamledit"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

// headers are the top of a new file: Continue requires name and version;
// schema v1 marks the YAML format.
const (
	userHeader    = "name: Local Config\nversion: 1.0.0\nschema: v1\n"
	projectHeader = "name: mcpsync\nversion: 0.0.1\nschema: v1\n"
)

func (adapter) Encode(loc formats.Location, data []byte, want canonical.Set, opts formats.EncodeOptions) ([]byte, canonical.Diagnostics) {
	f, ds := decodeFile(loc.Path, data)
	if f.doc == nil {
		return data, ds // not YAML: the syntax error is all there is to say
	}
	if ds.HasErrors() {
		return data, adapterkit.Broken(loc.Path, "config.yaml", "Continue cannot load", ds)
	}
	if len(bytes.TrimSpace(data)) == 0 && len(want.Servers) > 0 {
		// A new file (or an empty one) starts with the fields Continue
		// requires.
		header := userHeader
		if loc.Scope == canonical.ScopeProject {
			header = projectHeader
		}
		if nf, _ := decodeFile(loc.Path, append(append([]byte(nil), data...), header...)); nf.doc != nil {
			f = nf
		}
	}
	// Continue's own examples indent list items under their key.
	f.doc.SetStyleDefaults(2, false)
	w := writer{Warnings: adapterkit.Warnings{File: loc.Path}, f: f}
	edit := adapterkit.SectionEdit[yamledit.Entry]{
		Warnings:  &w.Warnings,
		Client:    ID,
		Have:      f.set,
		Duplicate: "Continue names each server once; rename one of them",
		Keep:      w.keep,
		Render: func(srv canonical.Server, old *canonical.Server) yamledit.Entry {
			return yamledit.Entry{Name: srv.Name, Value: w.server(srv, old)}
		},
		Edit:       func(entries []yamledit.Entry) ([]byte, error) { return f.doc.EditList(section, nameKey, entries) },
		FileName:   "config.yaml",
		Unverified: yamledit.ErrUnverified,
		Risk:       adapterkit.LayoutRisk,
	}
	out, ds := edit.Run(data, want)
	if len(want.Servers) == 0 && len(bytes.TrimSpace(data)) == 0 {
		return data, ds // a blank file with nothing to hold stays blank
	}
	return out, ds
}

// EntrySpan returns the bytes of one server's list item in data.
func (adapter) EntrySpan(_ formats.Location, data []byte, name string) (start, end int, ok bool) {
	doc, err := yamledit.Parse(data)
	if err != nil {
		return 0, 0, false
	}
	return doc.EntrySpan(section, nameKey, name)
}

// writer renders servers as Continue entries and collects the warnings.
type writer struct {
	adapterkit.Warnings
	f *file
}

func (w *writer) keep(name string) yamledit.Entry {
	return yamledit.Entry{Name: name, Value: yamledit.MapFrom(w.f.raw[name], w.f.order[name])}
}

// groups are the Continue keys that together express one part of the
// model: when that part did not change, they keep the file's spelling.
var groups = []adapterkit.Group{
	{Keys: []string{"type"}, Same: func(a, b *canonical.Server) bool { return a.Transport == b.Transport }},
	{Keys: []string{"command"}, Same: func(a, b *canonical.Server) bool { return a.Command == b.Command }},
	{Keys: []string{"args"}, Same: func(a, b *canonical.Server) bool { return slices.Equal(a.Args, b.Args) }},
	{Keys: []string{"env"}, Same: func(a, b *canonical.Server) bool { return maps.Equal(a.Env, b.Env) }},
	{Keys: []string{"cwd"}, Same: func(a, b *canonical.Server) bool { return a.Cwd == b.Cwd }},
	{Keys: []string{"url"}, Same: func(a, b *canonical.Server) bool { return a.URL == b.URL }},
	{Keys: []string{"requestOptions"}, Same: func(a, b *canonical.Server) bool {
		return maps.Equal(a.Headers, b.Headers) && (b.Extra[ID] == nil || yamledit.JSONEqual(a.Extra[ID]["requestOptions"], b.Extra[ID]["requestOptions"]))
	}},
	{Keys: []string{"connectionTimeout"}, Same: func(a, b *canonical.Server) bool { return a.StartupTimeout == b.StartupTimeout }},
}

// server renders srv; with old (what the file holds), the parts that did
// not change keep the file's own keys and spelling.
func (w *writer) server(srv canonical.Server, old *canonical.Server) yamledit.Map {
	fresh := w.fresh(srv)
	if old == nil {
		return fresh
	}
	return adapterkit.Merge(groups, old, &srv, w.f.order[srv.Name], w.f.raw[srv.Name], fresh, "name")
}

// render spells a string in Continue's dialect, warning about what it
// cannot express.
func (w *writer) render(srv *canonical.Server, field, s string) string {
	tm := canonical.Parse(s, canonical.DialectCanonical)
	out, problems := tm.Render(canonical.DialectContinue)
	for _, p := range problems {
		w.Warn(srv, field, "%s: %s", p.Ref.Text, p.Reason)
	}
	for _, seg := range tm {
		if seg.Kind == canonical.InputRef && !varName(seg.Name) {
			d := w.Warn(srv, field, "input %q is not a plain name; Continue may not prompt for it", seg.Name)
			d.Detail = "use letters, digits and _ in input ids (" + canonical.InputEnvName(seg.Name) + ", say)"
		}
	}
	return out
}

func varName(s string) bool {
	for i, c := range s {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || (i > 0 && c >= '0' && c <= '9')) {
			return false
		}
	}
	return s != ""
}

// fresh renders srv from the model alone, in the order of Continue's docs.
func (w *writer) fresh(srv canonical.Server) yamledit.Map {
	var m yamledit.Map
	m.Set("name", srv.Name)
	switch srv.Transport {
	case canonical.Stdio:
		m.Set("type", "stdio")
		m.Set("command", w.render(&srv, "command", srv.Command))
		if len(srv.Args) > 0 {
			args := make([]any, len(srv.Args))
			for i, a := range srv.Args {
				args[i] = w.render(&srv, "args", a)
			}
			m.Set("args", args)
		}
		if len(srv.Env) > 0 {
			env := yamledit.Map{}
			for _, k := range mapkeys.Sorted(srv.Env) {
				env.Set(k, w.render(&srv, "env."+k, srv.Env[k]))
			}
			m.Set("env", env)
		}
		if srv.Cwd != "" {
			m.Set("cwd", w.render(&srv, "cwd", srv.Cwd))
		}
		if len(srv.Headers) > 0 {
			w.Warn(&srv, "headers", "Continue sends no headers to a stdio server; headers not written")
		}
	default:
		if srv.Transport == canonical.SSE {
			m.Set("type", "sse")
		} else {
			m.Set("type", "streamable-http")
		}
		m.Set("url", w.render(&srv, "url", srv.URL))
		ro := yamledit.Map{}
		if len(srv.Headers) > 0 {
			h := yamledit.Map{}
			for _, k := range mapkeys.Sorted(srv.Headers) {
				h.Set(k, w.render(&srv, "headers."+k, srv.Headers[k]))
			}
			ro.Set("headers", h)
		}
		if v, ok := yamledit.FromJSON(srv.Extra[ID]["requestOptions"]); ok {
			if t, ok := v.(yamledit.Map); ok {
				for _, f := range t {
					if f.Key != "headers" {
						ro.Set(f.Key, f.Value)
					}
				}
			}
		}
		if len(ro) > 0 {
			m.Set("requestOptions", ro)
		}
		for _, field := range adapterkit.StdioOnlyFields(srv) {
			w.Warn(&srv, field, "Continue does not take %s for a url server; %s not written", field, field)
		}
	}
	if srv.StartupTimeout > 0 {
		ms := int64((srv.StartupTimeout + time.Millisecond - 1) / time.Millisecond)
		m.Set("connectionTimeout", ms)
	}
	if srv.ToolTimeout > 0 {
		w.Warn(&srv, "toolTimeout", "Continue has no per-call timeout for MCP tools; toolTimeout not written")
	}
	if srv.Disabled {
		w.Warn(&srv, "disabled", "Continue has no setting to disable one MCP server; written enabled")
	}
	if len(srv.ToolsAllow) > 0 {
		w.Warn(&srv, "toolsAllow", "Continue has no tool filter for MCP servers; toolsAllow not written")
	}
	if len(srv.ToolsDeny) > 0 {
		w.Warn(&srv, "toolsDeny", "Continue has no tool filter for MCP servers; toolsDeny not written")
	}
	if !srv.Auth.OAuth.IsZero() {
		w.Warn(&srv, "oauth", "Continue has no OAuth client settings for MCP servers; not written")
	}
	raw := w.f.raw[srv.Name]
	x := srv.Extra[ID]
	if x == nil {
		for _, k := range w.f.order[srv.Name] {
			if !modelled[k] {
				m.Set(k, raw[k])
			}
		}
	} else {
		for _, k := range mapkeys.Sorted(x) {
			if modelled[k] {
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
