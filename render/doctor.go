package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/doctor"
	"github.com/mcpsync/mcpsync/engine"
)

// Finding writes one doctor finding the way diagnostics are written, with
// its fix below.
func Finding(w io.Writer, f doctor.Finding, o Paths) {
	sev := string(f.Severity)
	style := map[doctor.Severity]string{doctor.SevError: Red + Bold, doctor.SevWarning: Yellow, doctor.SevInfo: Cyan}[f.Severity]
	var b strings.Builder
	if f.File != "" {
		p := canonical.Pos{File: o.show(f.File), Line: f.Line, Column: f.Column}
		b.WriteString(p.String() + ": ")
	}
	b.WriteString(Style(o.Color).Paint(style, sev) + " ")
	b.WriteString(Style(o.Color).Paint(Dim, "["+string(f.Kind)+"]") + " ")
	if f.Client != "" {
		who := f.Client
		if f.Scope != "" {
			who += ", " + string(f.Scope)
		}
		b.WriteString("(" + who + ") ")
	}
	if f.Server != "" {
		fmt.Fprintf(&b, "server %q: ", f.Server)
	}
	b.WriteString(f.Message)
	fmt.Fprintln(w, b.String())
	if f.Fix != "" {
		for _, l := range strings.Split(f.Fix, "\n") {
			fmt.Fprintln(w, "    fix: "+l)
		}
	}
}

// DoctorJSON is doctor's --json answer (and serve's doctor tool).
type DoctorJSON struct {
	Files    any                 `json:"files"`
	Findings []doctor.Finding    `json:"findings"`
	Summary  DoctorSummary       `json:"summary"`
	Fixed    *[]engine.DoctorFix `json:"fixed,omitempty"` // with --fix, even when empty
}

// DoctorSummary counts the findings by severity and kind.
type DoctorSummary struct {
	Errors   int                 `json:"errors"`
	Warnings int                 `json:"warnings"`
	Info     int                 `json:"info"`
	ByKind   map[doctor.Kind]int `json:"byKind"`
}

// Doctor is the --json shape of a doctor run; fixed says --fix was asked
// (the list is then present even when empty).
func Doctor(res *engine.DoctorResult, fixed bool) DoctorJSON {
	rep := res.Report
	out := DoctorJSON{Files: rep.Files, Findings: rep.Findings, Summary: DoctorSummary{
		Errors: rep.Count(doctor.SevError), Warnings: rep.Count(doctor.SevWarning), Info: rep.Count(doctor.SevInfo), ByKind: rep.ByKind()}}
	if fixed {
		list := append([]engine.DoctorFix{}, res.Fixed...)
		out.Fixed = &list
	}
	return out
}

// DoctorText writes every finding and the summary line; it reports
// whether there were errors.
func DoctorText(w io.Writer, res *engine.DoctorResult, o Paths) (errs int) {
	rep := res.Report
	for _, f := range rep.Findings {
		Finding(w, f, o)
	}
	files, servers, clientsSeen := 0, 0, map[string]bool{}
	for _, f := range rep.Files {
		if f.Exists {
			files++
			servers += f.Servers
			clientsSeen[f.Client] = true
		}
	}
	summary := fmt.Sprintf("checked %d file(s) of %d client(s) holding %d server(s)", files, len(clientsSeen), servers)
	if res.Stores > 0 {
		summary += fmt.Sprintf(", and %d store(s)", res.Stores)
	}
	e, wn, i := rep.Count(doctor.SevError), rep.Count(doctor.SevWarning), rep.Count(doctor.SevInfo)
	if e+wn+i == 0 {
		fmt.Fprintln(w, summary+": no problems found")
		return 0
	}
	fmt.Fprintf(w, "%s: %d error(s), %d warning(s), %d note(s)\n", summary, e, wn, i)
	return e
}
