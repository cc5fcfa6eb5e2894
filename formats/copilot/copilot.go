// Package copilot holds GitHub Copilot CLI's quirk: the "tools" list.
// ["*"] means every tool, [] none, names a filter; copilot mcp add writes
// the list first in every entry. Everything else about Copilot CLI is its
// spec, formats/spec/builtin/copilot.hcl.
//
// In the canonical model no filter means every tool, so ["*"] is read as
// no filter and written for a new entry, as the CLI does. A list that the
// model cannot hold ([] or "*" among names) is kept verbatim for Copilot,
// with a warning, since another client would offer every tool.
package copilot

import (
	"encoding/json"
	"slices"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/jsonedit"
	"github.com/mcpsync/mcpsync/formats/spec"
)

// Adapter returns the Copilot CLI adapter.
func Adapter() formats.Adapter { return spec.BuiltinAdapter("copilot", Hooks{}) }

// Hooks are Copilot CLI's quirks.
type Hooks struct{ spec.NoHooks }

var _ spec.EntryEncoder = Hooks{}

const toolsKey = "tools"

// everyTool is what copilot mcp add writes when no --tools is given.
var everyTool = []string{"*"}

// DecodeEntry implements spec.Hooks: ["*"] is no filter; [] or a list
// holding "*" among names stays in Extra.
func (Hooks) DecodeEntry(c *spec.Context, entry jsonedit.Node, srv *canonical.Server) canonical.Diagnostics {
	var tools jsonedit.Member
	for _, m := range entry.Members() {
		if m.Name == toolsKey {
			tools = m
		}
	}
	if !tools.Value.Valid() || tools.Value.Kind() != jsonedit.KindArray {
		return nil
	}
	if slices.Equal(srv.ToolsAllow, everyTool) {
		srv.ToolsAllow = nil
		return nil
	}
	if len(srv.ToolsAllow) > 0 && !slices.Contains(srv.ToolsAllow, "*") {
		return nil // a plain filter: the model holds it
	}
	srv.ToolsAllow = nil
	srv.SetExtra(c.Spec.ID, toolsKey, tools.Value.JSON())
	if tools.Value.Len() > 0 {
		return nil // "*" among names: every tool, said oddly; kept as written
	}
	d := canonical.Warnf("tools is empty: %s offers none of this server's tools", c.Spec.DisplayName)
	d.Detail = "other clients cannot say so and would offer every tool; the empty list is kept for " + c.Spec.DisplayName
	d.Server, d.Field = srv.Name, "toolsAllow"
	line, col := tools.Key.Pos()
	return canonical.Diagnostics{d.At(canonical.Pos{File: c.Loc.Path, Line: line, Column: col})}
}

// EncodeEntry implements spec.EntryEncoder: an entry without a filter gets
// the list Copilot had for it, else ["*"], first, as copilot mcp add writes.
func (Hooks) EncodeEntry(c *spec.Context, s canonical.Server, old jsonedit.Node, e *spec.EncodedEntry) canonical.Diagnostics {
	if len(s.ToolsAllow) > 0 {
		return nil
	}
	for _, f := range e.Fields {
		if f.Key == toolsKey {
			return nil
		}
	}
	var value any = everyTool
	if raw, ok := s.Extra[c.Spec.ID][toolsKey]; ok && json.Valid(raw) {
		value = json.RawMessage(raw)
	}
	e.Fields = append(jsonedit.Object{{Key: toolsKey, Value: value}}, e.Fields...)
	return nil
}
