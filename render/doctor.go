package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/doctor"
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
