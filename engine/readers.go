package engine

import (
	"path/filepath"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
)

// otherReaders checks each file a plan writes with every other client that
// reads the same file (.mcp.json is Claude Code's project file and Copilot
// CLI reads it too): a server the plan adds or changes there that one of
// them would skip is a warning naming that reader and its reason. The
// writer's own read-back is checked by the plan itself; this is the file's
// other audience, which would otherwise lose the server without a word.
func (e *Engine) otherReaders(p *emitters.Plan, env formats.Env) canonical.Diagnostics {
	var ds canonical.Diagnostics
	for _, fc := range p.Files {
		ds = append(ds, e.otherReadersOf(fc, env)...)
	}
	return ds
}

// otherReadersOf is otherReaders for one file of a plan. It only reads
// the plan and the registry, so that files can be checked at once
// (emitters.ExportOptions.Planned).
func (e *Engine) otherReadersOf(fc *emitters.FileChange, env formats.Env) canonical.Diagnostics {
	if !fc.Changed() || fc.After == nil {
		return nil
	}
	n := 0
	for _, tp := range fc.Targets {
		n += len(tp.Entries)
	}
	written := make(map[string]bool, n) // room for all: grown one by one, it rehashed a dozen times at 10,000
	writers := map[string]bool{}
	for _, tp := range fc.Targets {
		writers[tp.Client] = true
		for _, ec := range tp.Entries {
			if ec.Action == emitters.Add || ec.Action == emitters.Update {
				written[ec.Name] = true
			}
		}
	}
	if len(written) == 0 {
		return nil
	}
	var ds canonical.Diagnostics
	path := filepath.Clean(fc.Path)
	for _, ad := range e.Registry().All() {
		if writers[ad.ID()] {
			continue
		}
		// A client that says it does not read this file is not loaded to
		// ask where it reads (formats.ReadHinter).
		if h, ok := ad.(formats.ReadHinter); ok {
			if _, moved := env.Files[ad.ID()]; !moved && !h.MayRead(fc.Path, env) {
				continue
			}
		}
		for _, loc := range ad.Locations(env) {
			if filepath.Clean(loc.Path) != path {
				continue
			}
			// The file as it was is read only when the reader would skip a
			// server the plan writes: most readers skip none, and each read
			// is a whole decode of the file.
			var before map[string]*canonical.Diagnostic
			for name, d := range skippedBy(ad, loc, fc.After) {
				if !written[name] {
					continue
				}
				if before == nil {
					before = skippedBy(ad, loc, fc.Before)
				}
				if before[name] != nil {
					continue
				}
				why := d.Summary
				if _, rest, ok := strings.Cut(why, " is skipped: "); ok {
					why = rest
				}
				who := ad.DisplayName()
				if ar, ok := ad.(formats.AlsoReader); ok && len(ar.AlsoReadBy()) > 0 {
					who += " (and " + strings.Join(ar.AlsoReadBy(), ", ") + ", which reads its files)"
				}
				w := canonical.Warnf("%s also reads this file and would skip it: %s", who, why)
				w.Detail = d.Detail
				if w.Detail == "" {
					w.Detail = "keep the server to clients that read it, with client \"" + ad.ID() + "\" { exclude = [\"" + name + "\"] } in the store, or give it a form " + ad.DisplayName() + " reads"
				}
				w.Server, w.Field = name, d.Field
				ds = append(ds, w.At(canonical.Pos{File: fc.Path}))
			}
		}
	}
	return ds
}

// skippedBy decodes data as ad reads loc and returns, by server name, the
// diagnostic of each server it skips.
func skippedBy(ad formats.Adapter, loc formats.Location, data []byte) map[string]*canonical.Diagnostic {
	out := map[string]*canonical.Diagnostic{}
	if len(data) == 0 {
		return out
	}
	_, diags := ad.Decode(loc, data)
	for _, d := range diags {
		if d.Server == "" {
			continue
		}
		s := strings.ToLower(d.Summary)
		if strings.Contains(s, "skipped") || strings.Contains(s, "ignores") {
			out[d.Server] = d
		}
	}
	return out
}

// remotelyManaged warns, for each file a plan writes, when its client
// replaces the file's servers with ones from elsewhere (Claude Desktop
// signed in to a Team account): export writes it, since the user named it,
// but what it writes may not last. sync leaves such a file out instead
// (reconcile).
func remotelyManaged(p *emitters.Plan) canonical.Diagnostics {
	var ds canonical.Diagnostics
	for _, fc := range p.Files {
		if !fc.Changed() || fc.After == nil {
			continue
		}
		for _, tp := range fc.Targets {
			rm, ok := tp.Target.Adapter.(formats.RemoteManaged)
			if !ok {
				continue
			}
			why := rm.ManagedRemotely(tp.Target.Location, fc.Before)
			if why == "" {
				continue
			}
			w := canonical.Warnf("%s: what mcpsync writes here may be replaced when it next syncs", why)
			w.Detail = "add the servers to the account instead, or remove that key from the file to keep this machine's own (the app then stops replacing them)"
			ds = append(ds, w.At(canonical.Pos{File: fc.Path}))
			break
		}
	}
	return ds
}
