// Package render turns the engine's results into text for people: the
// diagnostics with their source lines, coloured diffs, one line per file a
// plan writes, conflicts with every side's version, probe reports, tables.
// The command line prints it; mcpsync serve returns the same text to the
// agent. It writes no terminal control but the colours it is asked for.
package render

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/lazyre"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/internal/termsafe"
)

// ANSI styles.
const (
	Reset  = "\x1b[0m"
	Bold   = "\x1b[1m"
	Red    = "\x1b[31m"
	Green  = "\x1b[32m"
	Yellow = "\x1b[33m"
	Cyan   = "\x1b[36m"
	Dim    = "\x1b[2m"
)

// Style paints text when colour is on (true).
type Style bool

// Paint wraps s in code when colour is on.
func (c Style) Paint(code, s string) string {
	if !c || code == "" {
		return s
	}
	return code + s + Reset
}

// Table is a tab-aligned writer whose cells are made terminal-safe first
// (termsafe), so that an escaped name keeps its column.
type Table struct {
	*tabwriter.Writer
	color bool
	lines *lineBatch
}

// NewTable returns a Table writing into w.
func NewTable(w io.Writer, color bool) *Table {
	lines := &lineBatch{w: w}
	return &Table{tabwriter.NewWriter(lines, 0, 4, 2, ' ', 0), color, lines}
}

// Flush writes out what the table holds.
func (t *Table) Flush() error {
	if err := t.Writer.Flush(); err != nil {
		return err
	}
	return t.lines.flush()
}

// lineBatch passes what is written to it on to w in whole lines, up to
// batchSize bytes of them at a time. text/tabwriter writes each cell, and
// each cell's padding, on its own: into a SafeWriter each was masked,
// escaped and written to the terminal or the pipe by a call of its own,
// 120,000 of them for a list of 10,000 servers, four fifths of its time
// into a pipe (442 against 93 ms). A SafeWriter is given whole lines (it
// masks what one write holds).
type lineBatch struct {
	w   io.Writer
	buf []byte
}

const batchSize = 32 << 10

func (b *lineBatch) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	if len(b.buf) >= batchSize {
		if end := bytes.LastIndexByte(b.buf, '\n') + 1; end > 0 {
			if _, err := b.w.Write(b.buf[:end]); err != nil {
				return 0, err
			}
			b.buf = append(b.buf[:0], b.buf[end:]...)
		}
	}
	return len(p), nil
}

// batchLines is a lineBatch on w: for a printer that writes a line per
// server (import's and add's outcomes), which call its flush at the end.
func batchLines(w io.Writer) *lineBatch { return &lineBatch{w: w} }

// flush writes what is left, a last line without its newline too.
func (b *lineBatch) flush() error {
	if len(b.buf) == 0 {
		return nil
	}
	_, err := b.w.Write(b.buf)
	b.buf = b.buf[:0]
	return err
}

func (t *Table) Write(p []byte) (int, error) {
	if _, err := io.WriteString(t.Writer, termsafe.Escape(string(p), t.color)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// GroupWarnings folds the warnings that say the same thing of several
// servers in one file ("Cursor has no cwd; … is dropped", once per server
// of a 1,000-server export) into one line each: the first one's words, how
// many more servers it is said of and the first few of their names. Errors
// and warnings said once stay as they are, with their source line;
// --verbose and --json give every one.
func GroupWarnings(ds canonical.Diagnostics) canonical.Diagnostics {
	type group struct {
		at    int // index in out of the first
		names []string
		seen  map[string]bool // names, to find one at once: a list was n² at 10,000 servers
	}
	groups := map[string]*group{}
	shapes := map[string]string{} // warningShape by summary without the name (most are the same text)
	var out canonical.Diagnostics
	for _, d := range ds {
		if d.Severity != canonical.Warning || d.Server == "" {
			out = append(out, d)
			continue
		}
		key := d.File + "\x00" + warningShape(*d, shapes)
		if g := groups[key]; g != nil {
			if !g.seen[d.Server] {
				g.seen[d.Server] = true
				g.names = append(g.names, d.Server)
			}
			continue
		}
		groups[key] = &group{at: len(out), names: []string{d.Server}, seen: map[string]bool{d.Server: true}}
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
var shapeWord = lazyre.New(`"[^"]*"|\$\{[^}]*\}|\{env:[^}]*\}|[0-9][0-9a-z.]*`)

// warningShape is a warning's summary with what varies from server to
// server blanked: the server's own name and the values it holds. memo
// keeps the shapes already made, by the summary without the name: the
// warnings of one kind about 10,000 servers are mostly one text, and the
// expression is the slow part.
func warningShape(d canonical.Diagnostic, memo map[string]string) string {
	s := strings.ReplaceAll(d.Summary, strconv.Quote(d.Server), "…")
	s = strings.ReplaceAll(s, d.Server, "…")
	shape, ok := memo[s]
	if !ok {
		shape = shapeWord.Get().ReplaceAllString(s, "…")
		memo[s] = shape
	}
	return d.Field + "\x00" + shape
}

// Diagnostics writes each diagnostic as
//
//	file:line:col: error: summary
//	    detail
//	     3 |   "command": 42,
//	       |              ^
//
// reading the source line from the file (or from sources, for text that is
// not in a file, such as stdin, under the name the diagnostics use); a
// literal secret on the line is masked. Warnings of one kind in one file
// share a line unless verbose.
func Diagnostics(w io.Writer, ds canonical.Diagnostics, color, verbose bool, sources map[string][]byte) {
	if !verbose {
		ds = GroupWarnings(ds)
	}
	lines := map[string][]string{}
	for name, data := range sources {
		lines[name] = strings.Split(string(data), "\n")
	}
	// Every secret a warning is about is hidden on every line shown, in
	// the file's spelling of it: an argument after its flag is a line of
	// its own, which no line rule can tell from any other argument.
	scrub := &secrets.Scrubber{}
	for _, d := range ds {
		if d.Secret != "" {
			scrub.Add(d.Secret)
		}
	}
	for _, d := range ds {
		sev := d.Severity.String()
		if color {
			if d.Severity == canonical.Error {
				sev = Red + Bold + sev + Reset
			} else {
				sev = Yellow + sev + Reset
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
				// masked, and the caret moved to match. A file that does not
				// parse has no servers to learn its secrets from, and its
				// broken syntax can hide a value from the line rules:
				// MaskExcerpt masks what they miss there (a string never
				// closed; an argument after its flag, which the line before
				// tells).
				raw := strings.TrimRight(src[d.Line-1], "\r")
				prev := lineBefore(src, d.Line)
				mask := func(s string) string { return scrub.Line(secrets.MaskExcerpt(prev, s)) }
				line, col := mask(raw), d.Column
				if line != raw && col > 0 && col <= len(raw)+1 {
					col = len(mask(raw[:col-1])) + 1
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

// lineBefore is the last line before line n (1-based) of src that holds
// more than white space, without its line ending; "" when there is none.
func lineBefore(src []string, n int) string {
	for i := n - 2; i >= 0; i-- {
		if l := strings.TrimRight(src[i], "\r"); strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}
