// Package doctor checks every client file and the store for what makes a
// setup fail or leak: files that do not parse, servers a client skips,
// the same server in several scopes, literal secrets, files others can
// read that hold them, references to variables that are not set, leftover
// temporary files, and drift between the clients and the store.
//
// Every check reads; nothing here writes. Each problem is a Finding with a
// severity, a stable kind, the place (file:line:col), the server, a message
// and a fix that never shows a secret's value.
package doctor

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
)

// Kind is a finding's stable id, for scripts (--json) and for counting.
type Kind string

const (
	// ParseError: the file does not parse, or the client refuses it whole.
	ParseError Kind = "parse_error"
	// ReadError: the file exists but cannot be read.
	ReadError Kind = "read_error"
	// DuplicateName: one name twice in one server map; the client keeps one.
	DuplicateName Kind = "duplicate_name"
	// SkippedEntry: the client skips the entry (a url without the type it
	// needs, args that are not a list, ...).
	SkippedEntry Kind = "skipped_entry"
	// UnknownType: the entry's type is a spelling the client does not know.
	UnknownType Kind = "unknown_type"
	// MissingCommand: the entry has neither a command nor a url.
	MissingCommand Kind = "missing_command"
	// UnexpandedReference: a reference in a syntax the client passes on
	// literally (${VAR} in a Cursor file).
	UnexpandedReference Kind = "unexpanded_reference"
	// ClientWarning: any other problem the client's reader reports.
	ClientWarning Kind = "client_warning"
	// DuplicateAcrossScopes: one server name in several scopes (or files)
	// of one client; the message says which one the client uses.
	DuplicateAcrossScopes Kind = "duplicate_across_scopes"
	// LiteralSecret: a token, password or key written as a value.
	LiteralSecret Kind = "literal_secret"
	// WorldReadableSecret: a file other users can read holds a secret.
	WorldReadableSecret Kind = "world_readable_secret"
	// UnsetReference: a reference to a variable that is not set here.
	UnsetReference Kind = "unset_reference"
	// UnapprovedReference: a reference the client expands only once the
	// user approves the variable in the client's own settings (Kiro).
	UnapprovedReference Kind = "unapproved_reference"
	// Drift: a server defined differently in two clients, or in a client
	// and the store.
	Drift Kind = "drift"
	// LeftoverTempFile: a temporary file a killed mcpsync left next to a
	// client file (the next write removes it).
	LeftoverTempFile Kind = "leftover_temp_file"
	// UnknownClient: a client block of the store names no client mcpsync
	// knows, or an alias: its rule and file apply to nothing.
	UnknownClient Kind = "unknown_client"
	// ReplacedRemotely: the client replaces the file's servers with ones
	// from elsewhere, such as the user's account (Claude Desktop signed in
	// to a Team account); sync leaves the file out.
	ReplacedRemotely Kind = "replaced_remotely"
)

// Severity says how bad a finding is. Errors make doctor exit 1.
type Severity string

const (
	SevError   Severity = "error"
	SevWarning Severity = "warning"
	SevInfo    Severity = "info"
)

// A Finding is one problem.
type Finding struct {
	Severity Severity        `json:"severity"`
	Kind     Kind            `json:"kind"`
	Client   string          `json:"client,omitempty"` // "store" for mcpsync's own file
	Scope    canonical.Scope `json:"scope,omitempty"`
	File     string          `json:"file,omitempty"`
	Line     int             `json:"line,omitempty"`
	Column   int             `json:"column,omitempty"`
	Server   string          `json:"server,omitempty"`
	Field    string          `json:"field,omitempty"`
	Message  string          `json:"message"`
	// Fix says what to do. It never holds a secret's value.
	Fix string `json:"fix,omitempty"`
	// Root is the directory the finding's file may not leave (a
	// project-scope file's): a fix changes it beneath Root only.
	Root string `json:"-"`
}

// Pos is where the finding points.
func (f Finding) Pos() canonical.Pos {
	return canonical.Pos{File: f.File, Line: f.Line, Column: f.Column}
}

// String renders "file:line:col: severity [kind] server "x": message".
func (f Finding) String() string {
	var b strings.Builder
	if p := f.Pos().String(); p != "" {
		b.WriteString(p + ": ")
	}
	fmt.Fprintf(&b, "%s [%s] ", f.Severity, f.Kind)
	if f.Server != "" {
		fmt.Fprintf(&b, "server %q: ", f.Server)
	}
	b.WriteString(f.Message)
	return b.String()
}

// FileReport is one client file (or section) doctor looked at.
type FileReport struct {
	Client  string          `json:"client"`
	Scope   canonical.Scope `json:"scope"`
	Path    string          `json:"path"`
	Project string          `json:"project,omitempty"`
	Exists  bool            `json:"exists"`
	Servers int             `json:"servers"`
}

// Report is everything one run found.
type Report struct {
	Files    []FileReport `json:"files"`
	Findings []Finding    `json:"findings"`
}

// HasErrors reports whether any finding is an error.
func (r *Report) HasErrors() bool {
	for _, f := range r.Findings {
		if f.Severity == SevError {
			return true
		}
	}
	return false
}

// Count returns how many findings have the severity.
func (r *Report) Count(s Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// ByKind counts the findings per kind.
func (r *Report) ByKind() map[Kind]int {
	out := map[Kind]int{}
	for _, f := range r.Findings {
		out[f.Kind]++
	}
	return out
}

// sortFindings orders findings by file, line, column, then kind, keeping
// run-wide findings (no file) last.
func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if (a.File == "") != (b.File == "") {
			return b.File == ""
		}
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Kind < b.Kind
	})
}

// dedupe drops findings that say the same thing about the same place
// (two clients reading one file, two sections of one file).
func dedupe(fs []Finding) []Finding {
	seen := map[string]bool{}
	out := fs[:0]
	for _, f := range fs {
		key := fmt.Sprintf("%s|%s|%d|%d|%s|%s", f.Kind, f.File, f.Line, f.Column, f.Server, f.Message)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, f)
	}
	return out
}
