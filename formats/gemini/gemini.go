// Package gemini holds Gemini CLI's quirk: httpUrl, the deprecated spelling
// of a streamable HTTP server, is read with a warning and never written; an
// entry using it that mcpsync changes is rewritten with url and
// "type": "http".
// Everything else about Gemini CLI is its spec,
// formats/spec/builtin/gemini.hcl.
package gemini

import (
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/jsonedit"
	"github.com/mcpsync/mcpsync/formats/spec"
)

// Adapter returns the Gemini CLI adapter.
func Adapter() formats.Adapter { return spec.BuiltinAdapter("gemini", Hooks{}) }

// Hooks are Gemini CLI's quirks.
type Hooks struct{ spec.NoHooks }

var _ spec.EntryEncoder = Hooks{}

// DecodeEntry implements spec.Hooks: an httpUrl is deprecated. Gemini CLI
// still connects to it over streamable HTTP (and prefers it to a url beside
// it), so mcpsync reads it the same way and says what it will write.
func (Hooks) DecodeEntry(c *spec.Context, entry jsonedit.Node, srv *canonical.Server) canonical.Diagnostics {
	for _, m := range entry.Members() {
		if m.Name != "httpUrl" || srv.Transport != canonical.HTTP {
			continue
		}
		d := canonical.Warnf("httpUrl is deprecated in Gemini CLI")
		d.Detail = `it still means streamable HTTP; when mcpsync changes this server it writes "url" with "type": "http" instead`
		d.Server, d.Field = srv.Name, "httpUrl"
		line, col := m.Key.Pos()
		return canonical.Diagnostics{d.At(canonical.Pos{File: c.Loc.Path, Line: line, Column: col})}
	}
	return nil
}

// EncodeEntry implements spec.EntryEncoder: a changed entry that used
// httpUrl is written whole, with url and "type": "http", so that it says
// streamable HTTP to every Gemini release (a bare url was SSE before 0.5).
func (Hooks) EncodeEntry(c *spec.Context, s canonical.Server, old jsonedit.Node, e *spec.EncodedEntry) canonical.Diagnostics {
	if !old.Valid() || !old.Get("httpUrl").Valid() {
		return nil
	}
	spec.KeepUnknown(c, s, e)
	e.Replace = true
	return nil
}
