package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strconv"
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
	if !a.Verbose {
		ds = groupWarnings(ds)
	}
	writeDiagnostics(a.Stderr, ds, a.color(true))
}

// groupWarnings folds the warnings that say the same thing of several
// servers in one file ("Cursor has no cwd; … is dropped", once per server
// of a 1,000-server export) into one line each: the first one's words, how
// many more servers it is said of and the first few of their names. Errors
// and warnings said once stay as they are, with their source line;
// --verbose and --json give every one.
func groupWarnings(ds canonical.Diagnostics) canonical.Diagnostics {
	type group struct {
		at    int // index in out of the first
		names []string
	}
	groups := map[string]*group{}
	var out canonical.Diagnostics
	for _, d := range ds {
		if d.Severity != canonical.Warning || d.Server == "" {
			out = append(out, d)
			continue
		}
		key := d.File + "\x00" + warningShape(*d)
		if g := groups[key]; g != nil {
			if !slices.Contains(g.names, d.Server) {
				g.names = append(g.names, d.Server)
			}
			continue
		}
		groups[key] = &group{at: len(out), names: []string{d.Server}}
		out = append(out, d)
	}
	for _, g := range groups {
		if len(g.names) < 2 {
			continue
		}
		d := *out[g.at]
		shown := g.names[1:min(len(g.names), 4)]
		more := fmt.Sprintf("%d more server", len(g.names)-1)
		if len(g.names) > 2 {
			more += "s"
		}
		list := strings.Join(shown, ", ")
		if len(g.names)-1 > len(shown) {
			list += ", …"
		}
		d.Summary += fmt.Sprintf(" (the same for %s: %s; --verbose lists each)", more, list)
		d.Line, d.Column = 0, 0 // many places: no one source line
		out[g.at] = &d
	}
	return out
}

// shapeWord matches what varies in a warning from one server to the next:
// quoted text, references, numbers and durations.
var shapeWord = regexp.MustCompile(`"[^"]*"|\$\{[^}]*\}|\{env:[^}]*\}|[0-9][0-9a-z.]*`)

// warningShape is a warning's summary with what varies from server to
// server blanked: the server's own name and the values it holds.
func warningShape(d canonical.Diagnostic) string {
	s := strings.ReplaceAll(d.Summary, strconv.Quote(d.Server), "…")
	s = strings.ReplaceAll(s, d.Server, "…")
	return d.Field + "\x00" + shapeWord.ReplaceAllString(s, "…")
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
