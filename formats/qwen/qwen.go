// Package qwen holds Qwen Code's quirk: a url is always SSE, whatever a
// "type" beside it says, so a type that says otherwise is worth a warning.
// Everything else about Qwen Code is its spec, formats/spec/builtin/qwen.hcl.
package qwen

import (
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/jsonedit"
	"github.com/mcpsync/mcpsync/formats/spec"
)

// Adapter returns the Qwen Code adapter.
func Adapter() formats.Adapter { return spec.BuiltinAdapter("qwen", Hooks{}) }

// Hooks are Qwen Code's quirks.
type Hooks struct{ spec.NoHooks }

// DecodeEntry implements spec.Hooks: "type": "http" beside a url looks like
// streamable HTTP but Qwen Code connects over SSE (verified with qwen
// 0.15.10: such an entry is listed as sse). mcpsync reads what Qwen does.
func (Hooks) DecodeEntry(c *spec.Context, entry jsonedit.Node, srv *canonical.Server) canonical.Diagnostics {
	if srv.Transport != canonical.SSE {
		return nil
	}
	for _, m := range entry.Members() {
		if m.Name != "type" {
			continue
		}
		if t, ok := m.Value.Text(); ok && t == "sse" {
			return nil
		}
		d := canonical.Warnf("Qwen Code ignores %q: a url is always SSE", "type")
		d.Detail = `mcpsync reads the server as SSE, as Qwen Code connects to it; for streamable HTTP write the address as "httpUrl" instead of "url"`
		d.Server, d.Field = srv.Name, "type"
		line, col := m.Key.Pos()
		return canonical.Diagnostics{d.At(canonical.Pos{File: c.Loc.Path, Line: line, Column: col})}
	}
	return nil
}
