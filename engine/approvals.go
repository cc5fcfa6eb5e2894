package engine

import (
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/formats"
)

// unapprovedRefs warns, for each server a plan adds or changes in the file
// of a client that expands only approved variables (Kiro), about every
// reference the client has not approved: it would reach the server as the
// text ${VAR}. mcpsync does not approve them itself: the list is the
// client's security setting, in a file the user did not name.
func (e *Engine) unapprovedRefs(p *emitters.Plan, env formats.Env) canonical.Diagnostics {
	var ds canonical.Diagnostics
	lists := map[string]map[string]bool{}
	for _, fc := range p.Files {
		for _, tp := range fc.Targets {
			ar, ok := tp.Target.Adapter.(formats.ApprovalsReader)
			if !ok {
				continue
			}
			ap, ok := ar.Approvals(env)
			if !ok {
				continue
			}
			approved, seen := lists[ap.Path]
			if !seen {
				var err error
				if approved, err = formats.ApprovalsAt(ap); err != nil {
					d := canonical.Warnf("%s: %v", tp.Target.Adapter.DisplayName(), err)
					d.Detail = "mcpsync could not read which variables " + tp.Target.Adapter.DisplayName() + " expands; fix the file or approve them in the client"
					ds = append(ds, d.At(canonical.Pos{File: ap.Path}))
					approved = map[string]bool{}
				}
				lists[ap.Path] = approved
			}
			byName := tp.Desired.Indexed()
			for _, ec := range tp.Entries {
				if ec.Action != emitters.Add && ec.Action != emitters.Update {
					continue
				}
				srv, ok := byName.Get(ec.Name)
				if !ok {
					continue
				}
				ds = append(ds, unapprovedDiags(tp.Target.Adapter.DisplayName(), ap, srv, approved, fc.Path, e.Display)...)
			}
		}
	}
	return ds
}

func unapprovedDiags(client string, ap formats.Approvals, srv canonical.Server, approved map[string]bool, file string, display func(string) string) canonical.Diagnostics {
	var ds canonical.Diagnostics
	names, fields := formats.UnapprovedRefs(srv, approved)
	for _, n := range names {
		d := canonical.Warnf("%s expands only approved variables and %s is not approved, so %s reaches the server as the text ${%s}",
			client, n, strings.Join(fields[n], ", "), n)
		d.Detail = ap.Fix(n, display)
		d.Server, d.Field = srv.Name, fields[n][0]
		ds = append(ds, d.At(canonical.Pos{File: file}))
	}
	return ds
}
