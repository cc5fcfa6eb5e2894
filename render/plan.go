package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/emitters/unidiff"
	"github.com/mcpsync/mcpsync/engine"
	"github.com/mcpsync/mcpsync/ledger"
	"github.com/mcpsync/mcpsync/reconcile"
)

// ColorDiff paints a unified diff when colour is on.
func ColorDiff(d string, color bool) string {
	if !color || d == "" {
		return d
	}
	lines := strings.SplitAfter(d, "\n")
	for i, l := range lines {
		style := ""
		switch {
		case strings.HasPrefix(l, "diff --git"), strings.HasPrefix(l, "--- "), strings.HasPrefix(l, "+++ "),
			strings.HasPrefix(l, "new file mode"), strings.HasPrefix(l, "deleted file mode"):
			style = Bold
		case strings.HasPrefix(l, "@@"):
			style = Cyan
		case strings.HasPrefix(l, "-"):
			style = Red
		case strings.HasPrefix(l, "+"):
			style = Green
		}
		if style != "" {
			body := strings.TrimRight(l, "\r\n")
			lines[i] = style + body + Reset + l[len(body):]
		}
	}
	return strings.Join(lines, "")
}

// PlanDiagnostics are the plan's diagnostics worth printing. A run with
// nothing to write is quiet however many servers a client cannot fully
// hold (that was said when the files were written): only its errors and
// the warnings of files with an entry left alone for the user to settle
// are shown. A run that writes shows them all; verbose always does.
func PlanDiagnostics(p *emitters.Plan, verbose bool) canonical.Diagnostics {
	if verbose || len(p.Changes()) > 0 {
		return p.Diags
	}
	quiet := map[*canonical.Diagnostic]bool{}
	for _, fc := range p.Files {
		if fc.Changed() || fc.Diags.HasErrors() || LeftAlone(fc) > 0 {
			continue
		}
		for _, d := range fc.Diags {
			quiet[d] = true
		}
	}
	var out canonical.Diagnostics
	for _, d := range p.Diags {
		if !quiet[d] {
			out = append(out, d)
		}
	}
	return out
}

// LeftAlone counts the entries a plan leaves alone in a file for the user
// to settle (their own entry differs, or they edited mcpsync's), not those
// the client cannot hold, which are the same on every run.
func LeftAlone(fc *emitters.FileChange) int {
	n := 0
	for _, tp := range fc.Targets {
		for _, e := range tp.Entries {
			if e.Action == emitters.Skip && e.Reason != emitters.ReasonCannotExpress {
				n++
			}
		}
	}
	return n
}

// EntryCounts summarises one file's entry changes: "+2 ~1 -1 !1".
func EntryCounts(fc *emitters.FileChange) string {
	var add, upd, rem, skip int
	for _, tp := range fc.Targets {
		for _, e := range tp.Entries {
			switch e.Action {
			case emitters.Add:
				add++
			case emitters.Update:
				upd++
			case emitters.Remove:
				rem++
			case emitters.Skip:
				skip++
			}
		}
	}
	var parts []string
	for _, c := range []struct {
		n    int
		sign string
	}{{add, "+"}, {upd, "~"}, {rem, "-"}, {skip, "!"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%s%d", c.sign, c.n))
		}
	}
	return strings.Join(parts, " ")
}

// FileClients names the client sections of a file: "claude-code (user, local)".
func FileClients(fc *emitters.FileChange) string {
	var parts []string
	for _, tp := range fc.Targets {
		parts = append(parts, fmt.Sprintf("%s (%s)", tp.Client, tp.Scope))
	}
	return strings.Join(parts, ", ")
}

// Paths says how to show paths and whether to colour.
type Paths struct {
	// Display shortens a path for people (engine.Display); StoreDisplay a
	// store's path (engine.StoreDisplay).
	Display, StoreDisplay func(string) string
	// Color: stdout takes colour; ColorErr: stderr does.
	Color, ColorErr bool
	Verbose         bool
}

func (o Paths) show(p string) string {
	if o.Display == nil {
		return p
	}
	return o.Display(p)
}

func (o Paths) storeShow(p string) string {
	if o.StoreDisplay == nil {
		return p
	}
	return o.StoreDisplay(p)
}

// FileLines writes one line per file: what happened (or would) to it.
// When nothing changed, the files already as they should be share one
// line; a file with an entry left alone for the user to settle, or none to
// create, keeps its own.
func FileLines(w io.Writer, p *emitters.Plan, o Paths) {
	tw := NewTable(w, o.Color)
	style := Style(o.Color)
	var same []string
	noop := len(p.Changes()) == 0
	for _, fc := range p.Files {
		if noop && fc.Before != nil && LeftAlone(fc) == 0 && !o.Verbose {
			same = append(same, o.show(fc.Path))
			continue
		}
		verb := map[emitters.ChangeKind]string{emitters.Create: "created", emitters.Modify: "updated",
			emitters.Delete: "removed", emitters.Unchanged: "unchanged"}[fc.Kind]
		code := map[emitters.ChangeKind]string{emitters.Create: Green, emitters.Modify: Yellow, emitters.Delete: Red}[fc.Kind]
		line := fmt.Sprintf("%s\t%s\t%s", style.Paint(code, verb), o.show(fc.Path), FileClients(fc))
		if c := EntryCounts(fc); c != "" {
			line += "\t" + c
		} else if fc.Before == nil && fc.Kind == emitters.Unchanged {
			line += "\t(no file, nothing to write)"
		}
		fmt.Fprintln(tw, line)
	}
	if len(same) == 1 && len(p.Files) == 1 {
		// One file: its own line is the one line.
		fmt.Fprintf(tw, "%s\t%s\t%s\n", "unchanged", same[0], FileClients(p.Files[0]))
		same = nil
	}
	tw.Flush()
	switch {
	case len(same) == 1:
		fmt.Fprintf(w, "nothing to change: %s already holds the store's servers\n", same[0])
	case len(same) > 1 && len(same) <= 3:
		fmt.Fprintf(w, "nothing to change: %s already hold the store's servers\n", engine.JoinWith(same, "and"))
	case len(same) > 3:
		fmt.Fprintf(w, "nothing to change: %d files already hold the store's servers\n", len(same))
	}
}

// Skipped says which clients got no file and why. The clients that are
// simply not installed share one line (--json has each reason).
func Skipped(w io.Writer, skipped []engine.Skip) {
	var undetected []string
	for _, s := range skipped {
		if s.Undetected {
			undetected = append(undetected, s.Client)
			continue
		}
		fmt.Fprintf(w, "skipped %s: %s\n", s.Client, s.Reason)
	}
	if len(undetected) > 0 {
		fmt.Fprintf(w, "skipped %s: not detected on this machine (name a client in --to to create its file)\n",
			strings.Join(undetected, ", "))
	}
}

// SkippedSync says which clients took no part in a sync and why, except
// those without a file (most clients on any machine; --json lists them).
func SkippedSync(w io.Writer, skipped []reconcile.Skip, o Paths) {
	for _, s := range skipped {
		if !strings.HasPrefix(s.Reason, "its file does not exist") {
			fmt.Fprintf(w, "skipped %s (%s): %s\n", s.Client, o.show(s.Path), s.Reason)
		}
	}
}

// PlanJSON is the --json form of a plan.
type PlanJSON struct {
	DryRun  bool          `json:"dryRun"`
	Changed bool          `json:"changed"`
	Files   []FileJSON    `json:"files"`
	Skipped []engine.Skip `json:"skipped,omitempty"`
	// Pending are team-source servers left out until approved.
	Pending  []string         `json:"pending,omitempty"`
	Warnings any              `json:"warnings,omitempty"`
	Errors   any              `json:"errors,omitempty"`
	Result   *emitters.Result `json:"result,omitempty"`
}

// FileJSON is one file of a plan in --json.
type FileJSON struct {
	*emitters.FileChange
	Display string `json:"display"`
	Diff    string `json:"diff,omitempty"`
}

// Files is the --json form of a plan's files; with diff, each with its
// diff (opts: masking, the base of the paths).
func Files(p *emitters.Plan, o Paths, diff *emitters.DiffOptions) []FileJSON {
	out := []FileJSON{}
	for _, fc := range p.Files {
		f := FileJSON{FileChange: fc, Display: o.show(fc.Path)}
		if diff != nil {
			f.Diff = fc.Diff(*diff)
		}
		out = append(out, f)
	}
	return out
}

// Export is the --json form of a planned (or applied) export.
func Export(run *engine.ExportRun, dryRun bool, o Paths, diff *emitters.DiffOptions) PlanJSON {
	out := PlanJSON{DryRun: dryRun, Skipped: run.Skipped, Pending: run.Pending(), Files: Files(run.Plan, o, diff),
		Changed: len(run.Plan.Changes()) > 0}
	if len(out.Files) == 0 {
		out.Files = nil
	}
	if w := run.Plan.Diags.Warnings(); len(w) > 0 {
		out.Warnings = w
	}
	if e := run.Plan.Diags.Errors(); len(e) > 0 {
		out.Errors = e
	}
	return out
}

// SyncJSON is the --json form of a sync.
type SyncJSON struct {
	DryRun    bool                 `json:"dryRun"`
	Changed   bool                 `json:"changed"`
	Store     string               `json:"store"`
	Servers   []reconcile.Outcome  `json:"servers"`
	Conflicts []reconcile.Conflict `json:"conflicts,omitempty"`
	Skipped   []reconcile.Skip     `json:"skipped,omitempty"`
	Files     []FileJSON           `json:"files"`
	Warnings  any                  `json:"warnings,omitempty"`
	Errors    any                  `json:"errors,omitempty"`
	Result    *emitters.Result     `json:"result,omitempty"`
}

// Sync is the --json form of a planned (or, with res, applied) sync.
func Sync(run *engine.SyncRun, dryRun bool, res *emitters.Result, o Paths, diff *emitters.DiffOptions) SyncJSON {
	r := run.Result
	out := SyncJSON{DryRun: dryRun, Changed: r.Changed(), Store: r.StorePath, Servers: r.Outcomes,
		Conflicts: r.Conflicts, Skipped: r.Skipped, Files: Files(r.Plan, o, diff), Result: res}
	if out.Servers == nil {
		out.Servers = []reconcile.Outcome{}
	}
	if w := r.Plan.Diags.Warnings(); len(w) > 0 {
		out.Warnings = w
	}
	if e := r.Plan.Diags.Errors(); len(e) > 0 {
		out.Errors = e
	}
	return out
}

// Conflict shows a sync conflict with every side's version: a diff from
// the base (or, never synced, from the first side) to each side, and the
// command that settles it.
func Conflict(c reconcile.Conflict, o Paths) string {
	var b strings.Builder
	var names []string
	own := false
	for _, s := range c.Sides {
		names = append(names, s.Side)
		own = own || s.Own
	}
	switch {
	case c.Base == nil:
		fmt.Fprintf(&b, "conflict: %q is defined differently in %s and was never synced; nothing was written for it\n",
			c.Server, engine.JoinWith(names, "and"))
	case own && len(c.Sides) == 1:
		fmt.Fprintf(&b, "conflict: %q in %s (%s) is its own entry, different from the store's, and mcpsync has not synced it before; nothing was written for it\n",
			c.Server, c.Sides[0].Side, o.show(c.Sides[0].Path))
	default:
		fmt.Fprintf(&b, "conflict: %q was changed differently in %s since the last sync; nothing was written for it\n",
			c.Server, engine.JoinWith(names, "and"))
	}
	from, fromName := c.Base, "base"
	sides := c.Sides
	if from == nil && len(sides) > 0 {
		from, fromName, sides = sides[0].Server, sides[0].Side, sides[1:]
	}
	for _, s := range sides {
		if s.Removed {
			fmt.Fprintf(&b, "%s removed it\n", s.Side)
			continue
		}
		b.WriteString(unidiff.Diff(
			unidiff.File{Name: fromName + "/" + c.Server, Data: serverJSON(from)},
			unidiff.File{Name: s.Side + "/" + c.Server, Data: serverJSON(s.Server)},
			unidiff.Options{Mask: emitters.MaskSecrets}))
	}
	fmt.Fprintf(&b, "settle it with: mcpsync resolve %s --take %s\n", engine.ShellWord(c.Server), strings.Join(c.Choices, "|"))
	return b.String()
}

// ConflictNames lists the conflicts' servers for a sentence.
func ConflictNames(cs []reconcile.Conflict) string {
	names := make([]string, len(cs))
	for i, c := range cs {
		names[i] = fmt.Sprintf("%q", c.Server)
	}
	return engine.JoinWith(names, "and")
}

// serverJSON renders a server for a conflict diff.
func serverJSON(srv *canonical.Server) []byte {
	if srv == nil {
		return nil
	}
	return canonical.DisplayJSON(ledger.Snapshot(*srv))
}

// ServerDiff shows two definitions of one server, the store's and a
// client's, as a diff of their canonical JSON (client-specific keys left
// out, secrets masked).
func ServerDiff(store, client canonical.Server, clientID string) string {
	render := func(s canonical.Server) []byte {
		s = ledger.Snapshot(s)
		s.Extra = nil
		return canonical.DisplayJSON(s)
	}
	return unidiff.Diff(unidiff.File{Name: "store/" + store.Name, Data: render(store)},
		unidiff.File{Name: clientID + "/" + client.Name, Data: render(client)},
		unidiff.Options{Mask: emitters.MaskSecrets})
}
