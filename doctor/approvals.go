package doctor

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

// unapprovedFindings report, in the file of a client that expands only the
// variables the user approved (Kiro), each reference to one it has not:
// the server receives the text ${VAR} and typically fails to authenticate.
func unapprovedFindings(ad formats.Adapter, loc formats.Location, set canonical.Set, env formats.Env) []Finding {
	ar, ok := ad.(formats.ApprovalsReader)
	if !ok || set.Len() == 0 {
		return nil
	}
	ap, ok := ar.Approvals(env)
	if !ok {
		return nil
	}
	display := func(p string) string {
		if env.Home != "" {
			if rel, err := filepath.Rel(env.Home, p); err == nil && !strings.HasPrefix(rel, "..") {
				return filepath.ToSlash(filepath.Join("~", rel))
			}
		}
		return p
	}
	approved, err := formats.ApprovalsAt(ap)
	if err != nil {
		return []Finding{{Severity: SevWarning, Kind: ClientWarning, Client: ad.ID(), Scope: loc.Scope, File: ap.Path,
			Message: fmt.Sprintf("cannot read which variables %s expands: %v", ad.DisplayName(), err),
			Fix:     "fix the file, or approve the variables in " + ad.DisplayName() + " itself"}}
	}
	var out []Finding
	for _, srv := range set.Servers {
		names, fields := formats.UnapprovedRefs(srv, approved)
		for _, n := range names {
			f := Finding{Severity: SevWarning, Kind: UnapprovedReference, Client: ad.ID(), Scope: loc.Scope,
				Server: srv.Name, Field: fields[n][0],
				File: loc.Path, Line: srv.Origin.Line, Column: srv.Origin.Column,
				Message: fmt.Sprintf("%s expands only approved variables and %s is not approved, so %s reaches the server as the text ${%s}",
					ad.DisplayName(), n, strings.Join(fields[n], ", "), n),
				Fix: ap.Fix(n, display)}
			out = append(out, f)
		}
	}
	return out
}
