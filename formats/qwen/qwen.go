// Package qwen holds Qwen Code's quirks. Everything else about Qwen Code is
// its spec, formats/spec/builtin/qwen.hcl.
//
//   - A url is always SSE, whatever a "type" beside it says, so a type that
//     says otherwise is worth a warning.
//   - Qwen stamps its settings files with "$version" and migrates a file
//     without one when it starts: it rewrites the file, leaves the old one as
//     settings.json.orig and loses the file's mode (0600 became 0644 with
//     qwen 0.15.10). A file mcpsync creates is stamped as Qwen stamps it, so
//     that Qwen leaves it alone.
package qwen

import (
	"bytes"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/jsonedit"
	"github.com/mcpsync/mcpsync/formats/spec"
)

// Adapter returns the Qwen Code adapter.
func Adapter() formats.Adapter { return spec.BuiltinAdapter("qwen", Hooks{}) }

// Hooks are Qwen Code's quirks.
type Hooks struct{ spec.NoHooks }

// settingsVersion is the "$version" Qwen Code 0.15.10 writes; a file with it
// needs no migration.
const settingsVersion = 4

// FinishEncode implements spec.Hooks: a new file gets "$version" last, where
// Qwen puts it. A file the user already has is Qwen's business.
func (Hooks) FinishEncode(c *spec.Context, doc *jsonedit.Doc) canonical.Diagnostics {
	if len(bytes.TrimSpace(c.Original)) > 0 || len(c.Written) == 0 || doc.Find("$version").Valid() {
		return nil
	}
	if err := doc.Append(nil, jsonedit.Field{Key: "$version", Value: settingsVersion}); err != nil {
		return canonical.Diagnostics{canonical.Errorf("%s: %v", c.Loc.Path, err)}
	}
	return nil
}

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
