// Package zed holds Zed's quirks around "context_servers". Everything else
// about Zed is its spec, formats/spec/builtin/zed.hcl.
//
//   - An entry with neither a command nor a url configures a server an
//     extension provides ({"settings": {...}, "enabled": true}): it is not a
//     server mcpsync can move to another client, and it is left alone,
//     byte for byte; import says so (LeftAlone), exports do not.
//   - The 2025 shape {"source": "custom", "command": {"path", "args",
//     "env"}} is read; a server in that shape that mcpsync changes is
//     rewritten whole in the current shape, which Zed reads too, keeping the
//     user's other keys.
//   - A command is always written with "args", even empty: Zed's settings
//     have no default for it.
package zed

import (
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/jsonedit"
	"github.com/mcpsync/mcpsync/formats/spec"
)

// Adapter returns the Zed adapter.
func Adapter() formats.Adapter { return spec.BuiltinAdapter("zed", Hooks{}) }

// Hooks are Zed's quirks.
type Hooks struct{ spec.NoHooks }

var (
	_ spec.EntryViewer  = Hooks{}
	_ spec.EntryEncoder = Hooks{}
)

// legacyPrefix names, in Extra, the unknown keys of a legacy command object.
const legacyPrefix = "command."

func isLegacy(entry jsonedit.Node) bool {
	return entry.Get("command").Kind() == jsonedit.KindObject
}

// ViewEntry implements spec.EntryViewer.
func (Hooks) ViewEntry(c *spec.Context, name string, entry jsonedit.Node) ([]jsonedit.Member, bool, canonical.Diagnostics) {
	if !entry.Get("command").Valid() && !entry.Get("url").Valid() {
		// An extension's server settings: Zed starts that server itself.
		line, col := entry.Pos()
		d := canonical.Warnf("context server %q is provided by a Zed extension (it has settings, no command or url): "+
			"Zed starts it; mcpsync leaves it alone and does not move it to other clients", name)
		d.Detail = "to use it elsewhere, add the server itself there (mcpsync add " + name + " -- COMMAND …)"
		d.Server = name
		return nil, true, canonical.Diagnostics{d.At(canonical.Pos{File: c.Loc.Path, Line: line, Column: col})}
	}
	if !isLegacy(entry) {
		return nil, false, nil
	}
	var out []jsonedit.Member
	for _, m := range entry.Members() {
		if m.Name != "command" {
			out = append(out, m)
			continue
		}
		for _, cm := range m.Value.Members() {
			switch cm.Name {
			case "path":
				cm.Name = "command"
			case "args", "env":
			default:
				cm.Name = legacyPrefix + cm.Name
			}
			out = append(out, cm)
		}
	}
	return out, false, nil
}

// EncodeEntry implements spec.EntryEncoder.
func (Hooks) EncodeEntry(c *spec.Context, s canonical.Server, old jsonedit.Node, e *spec.EncodedEntry) canonical.Diagnostics {
	var diags canonical.Diagnostics
	f := c.Spec.Fields
	if s.Transport == canonical.Stdio {
		hasArgs := false
		at := -1
		for i, fl := range e.Fields {
			hasArgs = hasArgs || fl.Key == f.Args
			if fl.Key == f.Command {
				at = i
			}
		}
		if !hasArgs && at >= 0 {
			e.Fields = append(e.Fields[:at+1], append(jsonedit.Object{{Key: f.Args, Value: []string{}}}, e.Fields[at+1:]...)...)
		}
	}
	if !old.Valid() || !isLegacy(old) {
		return nil
	}
	// The legacy entry is rewritten whole in the current shape, with the
	// user's other keys.
	e.Replace = true
	spec.KeepUnknown(c, s, e)
	kept := e.Fields[:0]
	for _, fl := range e.Fields {
		if k, ok := strings.CutPrefix(fl.Key, legacyPrefix); ok {
			d := canonical.Warnf("%q of the old command object has no place in Zed's current settings; it is dropped", k)
			d.Detail = "Zed reads the server in the current shape, with command, args and env beside each other"
			d.Server, d.Field = s.Name, "extra."+fl.Key
			diags = append(diags, d)
			continue
		}
		kept = append(kept, fl)
	}
	e.Fields = kept
	return diags
}
