package main

import (
	"encoding/json"
	"os"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/render"
	"golang.org/x/term"
)

func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }

// color reports whether output to stdout (or stderr, with toStderr) may be
// coloured: only on a terminal, and never with --no-color or NO_COLOR.
func (a *App) color(toStderr bool) bool {
	if a.NoColor {
		return false
	}
	if toStderr {
		return a.stderrTTY
	}
	return a.stdoutTTY
}

// ANSI styles used across commands.
const (
	styleReset  = render.Reset
	styleBold   = render.Bold
	styleRed    = render.Red
	styleGreen  = render.Green
	styleYellow = render.Yellow
	styleCyan   = render.Cyan
	styleDim    = render.Dim
)

// paint wraps s in style when colour is on for that stream.
func (a *App) paint(toStderr bool, style, s string) string {
	if !a.color(toStderr) || style == "" {
		return s
	}
	return style + s + styleReset
}

// printJSON writes v as indented JSON to stdout.
func (a *App) printJSON(v any) error {
	a.jsonPrinted = true
	enc := json.NewEncoder(a.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// newTable returns a tab-aligned writer for human tables on stdout (see
// render.Table).
func (a *App) newTable() *render.Table { return render.NewTable(a.Stdout, a.color(false)) }

// printDiagnostics writes the diagnostics to stderr (render.Diagnostics):
// warnings of one kind in one file share a line unless --verbose.
func (a *App) printDiagnostics(ds canonical.Diagnostics) {
	render.Diagnostics(a.Stderr, ds, a.color(true), a.Verbose, nil)
}

// printDiagnosticsFrom is printDiagnostics for a paste, each repair on its
// own line (it is a few servers the user is looking at), with the source
// lines of text that is not in a file (stdin) from sources.
func (a *App) printDiagnosticsFrom(ds canonical.Diagnostics, sources map[string][]byte) {
	render.Diagnostics(a.Stderr, ds, a.color(true), true, sources)
}
