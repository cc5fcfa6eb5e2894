package render

import (
	"fmt"
	"io"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/engine"
)

// Backups writes the backups of each file, newest first (restore --list).
func Backups(w io.Writer, files []*engine.BackedUpFile, o Paths) {
	for i, f := range files {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, Style(o.Color).Paint(Bold, f.Display))
		tw := NewTable(w, o.Color)
		for _, b := range f.Backups {
			size := "(absent)"
			if !b.Absent {
				size = humanSize(b.Size)
			}
			cmd := b.Command
			if cmd == "" {
				cmd = "-"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", b.At.Local().Format("2006-01-02 15:04:05"), size, cmd, Style(o.Color).Paint(Dim, b.ID))
		}
		tw.Flush()
	}
}

// Restored writes one line per file a restore wrote.
func Restored(w io.Writer, p *emitters.Plan, o Paths) {
	tw := NewTable(w, o.Color)
	for _, fc := range p.Files {
		verb := map[emitters.ChangeKind]string{emitters.Create: "restored", emitters.Modify: "restored",
			emitters.Delete: "removed", emitters.Unchanged: "unchanged"}[fc.Kind]
		note := ""
		switch fc.Kind {
		case emitters.Delete:
			note = "(it did not exist then)"
		case emitters.Unchanged:
			note = "(already as it was)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", verb, o.show(fc.Path), note)
	}
	tw.Flush()
}

func humanSize(n int64) string {
	switch {
	case n < 0:
		return "?"
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f kB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
}

// RestoreJSON is restore's --json answer.
type RestoreJSON struct {
	DryRun bool                  `json:"dryRun"`
	Files  []RestoredFile        `json:"files"`
	Result *emitters.Result      `json:"result,omitempty"`
	Errors canonical.Diagnostics `json:"errors,omitempty"`
}

// RestoredFile is one file of a restore in --json; Diff is set in a dry run.
type RestoredFile struct {
	Path    string              `json:"path"`
	Display string              `json:"display"`
	Change  emitters.ChangeKind `json:"change"`
	Diff    string              `json:"diff,omitempty"`
}

// Restore is the --json shape of a restore's plan, and of its result once
// applied (res).
func Restore(p *emitters.Plan, dryRun bool, res *emitters.Result, o Paths, diff emitters.DiffOptions) RestoreJSON {
	out := RestoreJSON{DryRun: dryRun, Result: res, Errors: p.Diags.Errors()}
	for _, fc := range p.Files {
		f := RestoredFile{Path: fc.Path, Display: o.Display(fc.Path), Change: fc.Kind}
		if dryRun {
			f.Diff = fc.Diff(diff)
		}
		out.Files = append(out.Files, f)
	}
	return out
}
