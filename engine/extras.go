package engine

import (
	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

// lostExtras names, for each server a plan writes into a client's file,
// the keys another client's file gave it that change what the server does
// (formats.ExtraEffect: its auth, working folder, env file, timeouts, tool
// filters) and that this client does not get: it would otherwise get the
// server without them, silently.
func (e *Engine) lostExtras(p *emitters.Plan) canonical.Diagnostics {
	var ds canonical.Diagnostics
	for _, fc := range p.Files {
		ds = append(ds, e.lostExtrasOf(fc)...)
	}
	return ds
}

// lostExtrasOf is lostExtras for one file of a plan, safe to run for
// several files at once (emitters.ExportOptions.Planned).
func (e *Engine) lostExtrasOf(fc *emitters.FileChange) canonical.Diagnostics {
	clientName := func(id string) string {
		if ad, err := e.Registry().Lookup(id); err == nil {
			return ad.DisplayName()
		}
		return id // a plugin since removed
	}
	var ds canonical.Diagnostics
	for _, tp := range fc.Targets {
		for srv := range tp.Written() { // Extra of every client included
			for _, from := range mapkeys.Sorted(srv.Extra) {
				if from == tp.Client {
					continue
				}
				for _, key := range mapkeys.Sorted(srv.Extra[from]) {
					effect := formats.ExtraEffect(key)
					if effect == "" {
						continue
					}
					name := tp.Target.Adapter.DisplayName()
					d := canonical.Warnf("server %q: %s gets it without %s, the key %q only %s's file has",
						srv.Name, name, effect, key, clientName(from))
					d.Detail = "give the server the same in a form every client reads (headers with a ${VAR} reference, cwd, env in the store), " +
						"or keep it to " + clientName(from) + " with client \"" + tp.Client + "\" { exclude = [\"" + srv.Name + "\"] } in the store"
					d.Server, d.Field = srv.Name, from+"."+key
					ds = append(ds, d.At(canonical.Pos{File: fc.Path}))
				}
			}
		}
	}
	return ds
}
