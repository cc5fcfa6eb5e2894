package canonical

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// Severity says whether a Diagnostic stops the operation.
type Severity int

const (
	// Error means the input cannot be used; nothing is written.
	Error Severity = iota
	// Warning means the operation goes on, but something was repaired,
	// dropped or cannot be expressed.
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText renders the severity as "error" or "warning" in JSON output.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads what MarshalText wrote (a kept parse result carries
// its warnings).
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = Error
	case "warning":
		*s = Warning
	default:
		return fmt.Errorf("unknown severity %q", b)
	}
	return nil
}

// A Diagnostic is one problem with a place: what (Summary), why and what to
// do (Detail), and where (File:Line:Column, 1-based; 0 means unknown).
type Diagnostic struct {
	Severity Severity `json:"severity"`
	Summary  string   `json:"summary"`
	Detail   string   `json:"detail,omitempty"`
	File     string   `json:"file,omitempty"`
	Line     int      `json:"line,omitempty"`
	Column   int      `json:"column,omitempty"`
	// Server and Field name the entry and the key the problem is about, when
	// there is one, so that warnings such as "cannot express" are precise.
	Server string `json:"server,omitempty"`
	Field  string `json:"field,omitempty"`
	// Secret is the literal secret the problem is about (a warning that a
	// value is one), for whatever shows the file's line at the position to
	// hide it however the file spells it. It is never printed.
	Secret string `json:"-"`
}

// Pos is a position in a file (1-based line and column).
type Pos struct {
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
}

// String renders "file:line:col", leaving out the parts that are unknown.
func (p Pos) String() string {
	var b strings.Builder
	b.WriteString(p.File)
	if p.Line > 0 {
		if b.Len() > 0 {
			b.WriteByte(':')
		}
		fmt.Fprintf(&b, "%d", p.Line)
		if p.Column > 0 {
			fmt.Fprintf(&b, ":%d", p.Column)
		}
	}
	return b.String()
}

// PosAt returns the position of byte off of data, the contents of file
// (the end of data when off is past it).
func PosAt(file string, data []byte, off int) Pos {
	off = min(max(off, 0), len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return Pos{File: file, Line: line, Column: col}
}

// LineOffset returns the offset of the first byte of line (1-based) in
// data; len(data) when data has fewer lines.
func LineOffset(data []byte, line int) int {
	off := 0
	for n := 1; n < line; n++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			return len(data)
		}
		off += i + 1
	}
	return off
}

// Pos returns where the diagnostic points.
func (d *Diagnostic) Pos() Pos { return Pos{File: d.File, Line: d.Line, Column: d.Column} }

// At sets the position and returns d, for chaining.
func (d *Diagnostic) At(p Pos) *Diagnostic {
	d.File, d.Line, d.Column = p.File, p.Line, p.Column
	return d
}

// Error renders "file:line:col: severity: summary: detail".
func (d *Diagnostic) Error() string {
	var b strings.Builder
	if p := d.Pos().String(); p != "" {
		b.WriteString(p)
		b.WriteString(": ")
	}
	b.WriteString(d.Severity.String())
	b.WriteString(": ")
	if d.Server != "" {
		fmt.Fprintf(&b, "server %q: ", d.Server)
	}
	b.WriteString(d.Summary)
	if d.Detail != "" {
		b.WriteString("; ")
		b.WriteString(d.Detail)
	}
	return b.String()
}

// Errorf builds an error diagnostic.
func Errorf(format string, args ...any) *Diagnostic {
	return &Diagnostic{Severity: Error, Summary: fmt.Sprintf(format, args...)}
}

// Warnf builds a warning diagnostic.
func Warnf(format string, args ...any) *Diagnostic {
	return &Diagnostic{Severity: Warning, Summary: fmt.Sprintf(format, args...)}
}

// Diagnostics is a list of problems, accumulated rather than returned at the
// first one, so that one run reports every broken file.
type Diagnostics []*Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Errors returns the error diagnostics only.
func (ds Diagnostics) Errors() Diagnostics { return ds.filter(Error) }

// Warnings returns the warning diagnostics only.
func (ds Diagnostics) Warnings() Diagnostics { return ds.filter(Warning) }

func (ds Diagnostics) filter(s Severity) Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == s {
			out = append(out, d)
		}
	}
	return out
}

// Err returns the diagnostics as an error when any of them is an error, else nil.
func (ds Diagnostics) Err() error {
	if !ds.HasErrors() {
		return nil
	}
	return DiagnosticsError(ds.Errors())
}

// WithFile fills in File on every diagnostic that has none.
func (ds Diagnostics) WithFile(file string) Diagnostics {
	for _, d := range ds {
		if d.File == "" {
			d.File = file
		}
	}
	return ds
}

// Sort orders diagnostics by file, line, column, keeping insertion order for ties.
func (ds Diagnostics) Sort() {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// DiagnosticsError is an error made of error diagnostics.
type DiagnosticsError Diagnostics

func (e DiagnosticsError) Error() string {
	lines := make([]string, len(e))
	for i, d := range e {
		lines[i] = d.Error()
	}
	return strings.Join(lines, "\n")
}
