package reconcile

import (
	"encoding/json"
	"fmt"
	"maps"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/ledger"
)

// Team-source servers (package desired) are read-only for a sync: they
// change upstream, by 'mcpsync pull' and 'mcpsync approve', and nowhere
// else. So they take no part in the three-way merge:
//
//   - clients get the approved version exactly as export writes it: added
//     where missing, updated where mcpsync's own earlier write is;
//   - the store never gets them, and their absence from it is not a
//     removal;
//   - an edit of one in a client is reported and goes nowhere: the entry is
//     left as it is, like a client's own entry of that name;
//   - a server waiting for approval reaches no client, and a client's entry
//     of that name is neither taken into the store nor overwritten.
//
// The base records what clients got, so that a server that leaves its
// source (or the source that leaves the store) is then a removal, merged
// like any other.

// teamSource names the team source a server belongs to, or "".
func (p *planner) teamSource(name string) (source string, inEffect bool) {
	if p.opts.Desired == nil {
		return "", false
	}
	return p.opts.Desired.SourceOf(name)
}

// teamServer brings one team-source server to the clients.
func (p *planner) teamServer(name, source string, inEffect bool) {
	storePath := p.opts.Store.Path
	if take, ok := p.opts.Take[name]; ok {
		d := canonical.Errorf("cannot take %s's version of %q: it comes from team source %s, which alone changes it", take, name, source)
		d.Detail = "it changes upstream, and reaches clients once pulled and approved ('mcpsync pull', 'mcpsync status', 'mcpsync approve'); " +
			"to keep a client's version, copy it under another name: mcpsync import --from CLIENT --rename"
		d.Server = name
		p.warns = append(p.warns, d)
		return
	}
	var want canonical.Server
	if inEffect {
		want, _ = p.opts.Desired.Set.Get(name)
		want = want.Clone()
		want.Origin = canonical.Pos{}
	}
	wantFields := fieldsOf(want)
	oc := Outcome{Server: name, Action: "copied", From: []string{"source " + source}}
	base := p.st.Base(storePath, name)
	switch {
	case !inEffect:
		oc.Action = "removed"
	case base == nil:
		oc.Action = "added"
	case !base.Holds(want):
		oc.Action = "changed"
	}
	for _, sd := range p.sides {
		if !p.opts.Store.Allows(sd.id, name) {
			continue // pruneExcluded takes mcpsync's entry out
		}
		// What mcpsync wrote there (the managed snapshot) is the record of
		// a team server; a sync record of it would only go stale.
		rec := sd.record(name)
		rec.forget = true
		p.r.clients = append(p.r.clients, rec)
		cur, present := sd.current().Get(name)
		var managed *ledger.Entry
		if !sd.fresh {
			managed = p.st.Managed(sd.path, sd.section)[name]
		}
		ours := present && managed != nil && managed.Holds(cur)
		if !inEffect {
			switch {
			case ours:
				sd.removeServer(name)
				oc.Removed = append(oc.Removed, sd.id)
			case present:
				p.teamWarn(sd, name, cur, "a server of team source %s waiting for approval; the entry in %s is left alone and not taken into the store",
					"review it with 'mcpsync status', then 'mcpsync approve "+name+"'", source, sd.id)
			}
			continue
		}
		view, ok := sd.viewOf(name, p.opts.Encode)(wantFields)
		if !ok {
			continue // the client cannot hold it; export says why
		}
		if !present {
			if managed != nil {
				p.teamWarn(sd, name, cur, "comes from team source %s; it was removed from %s and is written back",
					fmt.Sprintf("to keep it out of %s, add to the store: client %q { exclude = [%q] }", sd.id, sd.id, name), source, sd.id)
			}
			sd.putServer(want)
			oc.To = append(oc.To, sd.id)
			continue
		}
		curFields := fieldsOf(cur)
		e, exps := realEdits(view, curFields)
		dropOwnExtra(e, wantFields, sd.id)
		switch {
		case len(e) == 0 && len(exps) > 0:
			for _, x := range exps {
				p.teamWarn(sd, name, cur, "%s now holds a literal value (%s) for %s, where team source %s has %s; left alone and not copied anywhere",
					"put "+x.Ref+" back in the file; a value that may be a secret is never spread to other clients", sd.id, Mask(x.Value), x.Field, source, x.Ref)
			}
		case len(e) == 0:
			// In step. A managed entry the client rewrote without changing
			// it: its snapshot follows, so that export sees no hand edit.
			if managed != nil && !ours {
				sd.want.Refresh = append(sd.want.Refresh, name)
			}
		case ours:
			// mcpsync's earlier version: the approved one replaces it,
			// keeping the keys of the client's own it has.
			w := want
			if w.Extra[sd.id] == nil && cur.Extra[sd.id] != nil {
				w = want.Clone()
				if w.Extra == nil {
					w.Extra = map[string]map[string]json.RawMessage{}
				}
				w.Extra[sd.id] = maps.Clone(cur.Extra[sd.id])
			}
			sd.putServer(w)
			oc.To = append(oc.To, sd.id)
		case managed != nil:
			sd.want.Entries = append(sd.want.Entries, emitters.EntryChange{Name: name, Action: emitters.Skip, Reason: "edited by hand; it comes from team source " + source})
			p.teamWarn(sd, name, cur, "comes from team source %s; change it upstream, or copy it under another name: the edit in %s is left there and not copied anywhere",
				"mcpsync import --from "+sd.id+" --rename copies it as a server of your own; 'mcpsync export --to "+sd.id+" --force' puts the source's version back",
				source, sd.id)
		default:
			sd.want.Entries = append(sd.want.Entries, emitters.EntryChange{Name: name, Action: emitters.Skip, Reason: "not written by mcpsync and differs from team source " + source})
			p.teamWarn(sd, name, cur, "%s already has its own entry, different from team source %s's; left alone",
				"mcpsync never overwrites an entry it did not write; rename or remove yours to get the source's, or run 'mcpsync export --to "+sd.id+" --force' to replace it",
				sd.id, source)
		}
	}
	if inEffect {
		p.bases = append(p.bases, want)
		if p.baseSources == nil {
			p.baseSources = map[string]string{}
		}
		p.baseSources[name] = source
	}
	// Whatever an earlier sync recorded of it (a conflict, a removal) is moot.
	p.r.names = append(p.r.names, nameRecord{name: name, verdict: settled, base: base})
	if len(oc.To) > 0 || len(oc.Removed) > 0 {
		p.r.Outcomes = append(p.r.Outcomes, oc)
	}
}

// teamWarn reports a team server's entry left alone in a client, at the
// entry (or the file).
func (p *planner) teamWarn(sd *side, name string, cur canonical.Server, summary, detail string, args ...any) {
	d := canonical.Warnf(summary, args...)
	d.Detail = detail
	d.Server = name
	pos := cur.Origin
	if pos.File == "" {
		pos = canonical.Pos{File: sd.tp.Target.Location.Path}
	}
	p.warns = append(p.warns, d.At(pos))
}
