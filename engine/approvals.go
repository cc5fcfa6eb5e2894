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
	lists := approvalLists{env: env}
	for _, fc := range p.Files {
		for _, tp := range fc.Targets {
			ds = append(ds, lists.load(tp.Target.Adapter)...)
			ds = append(ds, lists.check(fc, tp, e.Display)...)
		}
	}
	return ds
}

// approvalLists holds the variables that each client expanding only
// approved ones (formats.ApprovalsReader) has approved, its file read
// once for every file the plan writes.
type approvalLists struct {
	env   formats.Env
	lists map[string]map[string]bool // by the approvals file's path
}

// load reads the list of ad's client, unless ad has none or it is read
// already. A list it cannot read is a warning, and then holds nothing.
func (a *approvalLists) load(ad formats.Adapter) canonical.Diagnostics {
	ap, ok := a.approvals(ad)
	if !ok {
		return nil
	}
	if _, seen := a.lists[ap.Path]; seen {
		return nil
	}
	if a.lists == nil {
		a.lists = map[string]map[string]bool{}
	}
	approved, err := formats.ApprovalsAt(ap)
	if err != nil {
		a.lists[ap.Path] = map[string]bool{}
		d := canonical.Warnf("%s: %v", ad.DisplayName(), err)
		d.Detail = "mcpsync could not read which variables " + ad.DisplayName() + " expands; fix the file or approve them in the client"
		return canonical.Diagnostics{d.At(canonical.Pos{File: ap.Path})}
	}
	a.lists[ap.Path] = approved
	return nil
}

func (a *approvalLists) approvals(ad formats.Adapter) (formats.Approvals, bool) {
	ar, ok := ad.(formats.ApprovalsReader)
	if !ok {
		return formats.Approvals{}, false
	}
	return ar.Approvals(a.env)
}

// check warns about the references of the servers tp adds or changes
// that its client has not approved. It only reads the lists (load them
// first), so that several files can be checked at once.
func (a *approvalLists) check(fc *emitters.FileChange, tp *emitters.TargetPlan, display func(string) string) canonical.Diagnostics {
	ap, ok := a.approvals(tp.Target.Adapter)
	if !ok {
		return nil
	}
	approved := a.lists[ap.Path]
	var ds canonical.Diagnostics
	for srv := range tp.Written() {
		ds = append(ds, unapprovedDiags(tp.Target.Adapter.DisplayName(), ap, srv, approved, fc.Path, display)...)
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
