package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/internal/termsafe"
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
	styleReset  = "\x1b[0m"
	styleBold   = "\x1b[1m"
	styleRed    = "\x1b[31m"
	styleGreen  = "\x1b[32m"
	styleYellow = "\x1b[33m"
	styleCyan   = "\x1b[36m"
	styleDim    = "\x1b[2m"
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

// newTable returns a tab-aligned writer for human tables on stdout. Cells
// are escaped before they are aligned (see termsafe), so that an escaped
// name keeps its column.
func (a *App) newTable() *table {
	return &table{tabwriter.NewWriter(a.Stdout, 0, 4, 2, ' ', 0), a.color(false)}
}

// table is a tabwriter whose cells are made terminal-safe first.
type table struct {
	*tabwriter.Writer
	colour bool
}

func (t *table) Write(p []byte) (int, error) {
	if _, err := io.WriteString(t.Writer, termsafe.Escape(string(p), t.colour)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// printDiagnostics writes each diagnostic to stderr as
//
//	file:line:col: error: summary
//	    detail
//	     3 |   "command": 42,
//	       |              ^
//
// reading the source line from the file when it can.
func (a *App) printDiagnostics(ds canonical.Diagnostics) {
	writeDiagnostics(a.Stderr, ds, a.color(true))
}

func writeDiagnostics(w io.Writer, ds canonical.Diagnostics, color bool) {
	writeDiagnosticsFrom(w, ds, color, nil)
}

// printDiagnosticsFrom is printDiagnostics for text that is not in a file
// (stdin): sources holds it under the name the diagnostics use.
func (a *App) printDiagnosticsFrom(ds canonical.Diagnostics, sources map[string][]byte) {
	writeDiagnosticsFrom(a.Stderr, ds, a.color(true), sources)
}

func writeDiagnosticsFrom(w io.Writer, ds canonical.Diagnostics, color bool, sources map[string][]byte) {
	lines := map[string][]string{}
	for name, data := range sources {
		lines[name] = strings.Split(string(data), "\n")
	}
	for _, d := range ds {
		sev := d.Severity.String()
		if color {
			if d.Severity == canonical.Error {
				sev = styleRed + styleBold + sev + styleReset
			} else {
				sev = styleYellow + sev + styleReset
			}
		}
		var b strings.Builder
		if p := d.Pos().String(); p != "" {
			b.WriteString(p + ": ")
		}
		b.WriteString(sev + ": ")
		if d.Server != "" {
			fmt.Fprintf(&b, "server %q: ", d.Server)
		}
		b.WriteString(d.Summary)
		fmt.Fprintln(w, b.String())
		if d.Detail != "" {
			for _, l := range strings.Split(d.Detail, "\n") {
				fmt.Fprintln(w, "    "+l)
			}
		}
		if d.File != "" && d.Line > 0 {
			src, ok := lines[d.File]
			if !ok {
				if data, err := os.ReadFile(d.File); err == nil && len(data) < 8<<20 {
					src = strings.Split(string(data), "\n")
				}
				lines[d.File] = src
			}
			if d.Line <= len(src) {
				// The line is the file's own text: a literal secret on it is
				// masked, and the caret moved to match.
				raw := strings.TrimRight(src[d.Line-1], "\r")
				line, col := secrets.MaskLine(raw), d.Column
				if line != raw && col > 0 && col <= len(raw)+1 {
					col = len(secrets.MaskLine(raw[:col-1])) + 1
				}
				num := fmt.Sprintf("%5d | ", d.Line)
				fmt.Fprintln(w, num+line)
				if col > 0 && col <= len(line)+1 {
					pad := strings.Map(func(r rune) rune {
						if r == '\t' {
							return '\t'
						}
						return ' '
					}, line[:col-1])
					fmt.Fprintln(w, strings.Repeat(" ", len(num)-2)+"| "+pad+"^")
				}
			}
		}
	}
}
