// Package cline holds the quirks of Cline's two clients, the VS Code
// extension and Cline CLI 3.x. Everything else about them is their specs,
// formats/spec/builtin/cline.hcl and cline-cli.hcl.
//
// Both read the legacy "transportType" key: "http" there means streamable
// HTTP, where a url alone would be SSE.
//
// Cline CLI writes each server's transport nested,
//
//	"name": {"transport": {"type": "stdio", "command": "npx", "args": [...]}, "disabled": false}
//
// and also reads the extension's flat entries. mcpsync reads both shapes,
// writes a new server nested as cline mcp add does, rewrites a changed
// nested entry whole (keeping the user's other keys, inside and outside
// "transport"), and edits a flat entry in place, flat.
package cline

import (
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/jsonedit"
	"github.com/mcpsync/mcpsync/formats/spec"
)

// Adapter returns the adapter of the Cline VS Code extension.
func Adapter() formats.Adapter { return spec.BuiltinAdapter("cline", Hooks{}) }

// CLIAdapter returns the adapter of Cline CLI.
func CLIAdapter() formats.Adapter { return spec.BuiltinAdapter("cline-cli", CLIHooks{}) }

// Hooks are the extension's quirks.
type Hooks struct{ spec.NoHooks }

// DecodeEntry implements spec.Hooks: "transportType": "http" beside a url
// without a type is streamable HTTP.
func (Hooks) DecodeEntry(c *spec.Context, entry jsonedit.Node, srv *canonical.Server) canonical.Diagnostics {
	if srv.Transport != canonical.SSE || entry.Get(c.Spec.Fields.Type).Valid() {
		return nil
	}
	if t, ok := entry.Get("transportType").Text(); ok && t == "http" {
		srv.Transport = canonical.HTTP
	}
	return nil
}

// CLIHooks are Cline CLI's quirks: the extension's, and the nested shape.
type CLIHooks struct{ Hooks }

var (
	_ spec.EntryViewer  = CLIHooks{}
	_ spec.EntryEncoder = CLIHooks{}
)

// transportKey holds the transport of a nested entry; an unknown key inside
// it is kept in Extra as "transport.<key>".
const transportKey = "transport"

func nested(entry jsonedit.Node) bool {
	return entry.Get(transportKey).Kind() == jsonedit.KindObject
}

// inside reports whether a key of the spec lives in the transport object.
func inside(f spec.Fields, key string) bool {
	for _, k := range []string{f.Type, f.Command, f.Args, f.Env, f.Cwd, f.URL, f.Headers} {
		if k != "" && k == key {
			return true
		}
	}
	return false
}

// ViewEntry implements spec.EntryViewer: a nested entry is read as if its
// transport's keys sat beside the others.
func (CLIHooks) ViewEntry(c *spec.Context, name string, entry jsonedit.Node) ([]jsonedit.Member, bool, canonical.Diagnostics) {
	if !nested(entry) {
		return nil, false, nil
	}
	var out []jsonedit.Member
	for _, m := range entry.Members() {
		if m.Name != transportKey {
			out = append(out, m)
			continue
		}
		for _, tm := range m.Value.Members() {
			if !inside(c.Spec.Fields, tm.Name) {
				tm.Name = transportKey + "." + tm.Name
			}
			out = append(out, tm)
		}
	}
	return out, false, nil
}

// DecodeEntry implements spec.Hooks: the legacy transportType applies to
// flat entries only.
func (h CLIHooks) DecodeEntry(c *spec.Context, entry jsonedit.Node, srv *canonical.Server) canonical.Diagnostics {
	if nested(entry) {
		return nil
	}
	return h.Hooks.DecodeEntry(c, entry, srv)
}

// EncodeEntry implements spec.EntryEncoder: a new entry, or a changed
// nested one, is written nested; a flat entry stays flat.
func (CLIHooks) EncodeEntry(c *spec.Context, s canonical.Server, old jsonedit.Node, e *spec.EncodedEntry) canonical.Diagnostics {
	if old.Valid() && !nested(old) {
		return nil
	}
	spec.KeepUnknown(c, s, e)
	f := c.Spec.Fields
	var in, out jsonedit.Object
	for _, fl := range e.Fields {
		if k, ok := strings.CutPrefix(fl.Key, transportKey+"."); ok {
			in = append(in, jsonedit.Field{Key: k, Value: fl.Value})
		} else if inside(f, fl.Key) {
			in = append(in, fl)
		} else {
			out = append(out, fl)
		}
	}
	e.Fields = append(jsonedit.Object{{Key: transportKey, Value: in}}, out...)
	e.Replace = true
	return nil
}
