package doctor

import (
	"bytes"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/internal/secrets"
)

// FileInput is one client file's bytes as read, for CheckFile.
type FileInput struct {
	Adapter  formats.Adapter
	Location formats.Location
	Data     []byte
	// Mode is the file's permission bits; 0 skips the permission check.
	Mode fs.FileMode
	// LookupEnv tells whether a referenced variable is set; nil skips the
	// unset-reference check.
	LookupEnv func(string) (string, bool)
	// ImportHint is how the user would run import for this file
	// ("--from cursor --scope project"); "" for a file import cannot name.
	ImportHint string
}

// CheckFile runs every check that needs only one file: it decodes it with
// its client's reader and reports parse errors, skipped entries, literal
// secrets (and the file's mode when it holds one) and unset references.
// It returns the servers the client loads from it.
func CheckFile(in FileInput) ([]Finding, canonical.Set) {
	loc := in.Location
	client := in.Adapter.ID()
	set, diags := in.Adapter.Decode(loc, in.Data)
	var out []Finding
	at := func(f Finding, p canonical.Pos) Finding {
		f.Client, f.Scope = client, loc.Scope
		f.File, f.Line, f.Column = p.File, p.Line, p.Column
		if f.File == "" {
			f.File = loc.Path
		}
		return f
	}
	for _, d := range diags {
		out = append(out, at(classify(d, in.Adapter.DisplayName()), d.Pos()))
	}
	secretCount := 0
	for _, srv := range set.Servers {
		for _, sf := range secrets.ScanServer(srv) {
			secretCount++
			out = append(out, at(secretFinding(in, srv, sf), locate(in.Data, loc.Path, srv.Origin, sf.Value)))
		}
		if in.LookupEnv != nil {
			withDefault := func(name string) (string, bool) {
				return canonical.Dialects[in.Adapter.Capabilities().Dialect].WithDefault(name, "value")
			}
			for _, f := range unsetRefs(srv, in.LookupEnv, in.Adapter.DisplayName(), withDefault) {
				out = append(out, at(f, srv.Origin))
			}
		}
	}
	// Tokens outside the servers (a client's own settings) still make a
	// readable file a leak; only unmistakable ones are counted here.
	rawTokens := 0
	for _, line := range strings.Split(string(in.Data), "\n") {
		for _, f := range secrets.Scan(secrets.Field{Place: secrets.InArg}, line) {
			if f.Kind == secrets.KindKnownToken || f.Kind == secrets.KindJWT {
				rawTokens++
			}
		}
	}
	if n := max(secretCount, rawTokens); n > 0 && in.Mode != 0 && in.Mode.Perm()&0o004 != 0 {
		out = append(out, at(Finding{Severity: SevError, Kind: WorldReadableSecret,
			Message: fmt.Sprintf("every user of this machine can read this file (mode %04o) and it holds %d literal secret(s)", in.Mode.Perm(), n),
			Fix:     fmt.Sprintf("chmod 600 %s, then move the secrets out (see the literal_secret findings)", shellQuote(loc.Path))},
			canonical.Pos{File: loc.Path}))
	}
	return out, set
}

// classify turns a reader's diagnostic into a finding of the right kind.
func classify(d *canonical.Diagnostic, display string) Finding {
	f := Finding{Server: d.Server, Field: d.Field, Message: d.Summary, Fix: d.Detail}
	if d.Server != "" {
		// the server is printed on its own; keep the message short
		if rest, ok := strings.CutPrefix(f.Message, fmt.Sprintf("server %q is skipped: ", d.Server)); ok {
			f.Message = "skipped: " + rest
		}
		f.Message = strings.TrimPrefix(f.Message, fmt.Sprintf("server %q: ", d.Server))
	}
	s := strings.ToLower(d.Summary)
	switch {
	case d.Severity == canonical.Error && strings.HasPrefix(s, "duplicate server name"):
		f.Severity, f.Kind = SevError, DuplicateName
	case d.Severity == canonical.Error:
		f.Severity, f.Kind = SevError, ParseError
		if f.Fix == "" {
			f.Fix = "fix the file by hand; until then " + display + " cannot load it and mcpsync does not write it"
		}
	case strings.Contains(s, "neither a command nor a url") || strings.Contains(s, "neither command nor url") ||
		(strings.Contains(s, "no command") && strings.Contains(s, "skipped")):
		f.Severity, f.Kind = SevWarning, MissingCommand
	case strings.Contains(s, "does not know the type") || strings.Contains(s, "unknown type") ||
		strings.Contains(s, "unknown transport") || d.Field == "type" && strings.Contains(s, "skipped"):
		f.Severity, f.Kind = SevWarning, UnknownType
	case strings.Contains(s, "skipped") || strings.Contains(s, "ignores"):
		f.Severity, f.Kind = SevWarning, SkippedEntry
	case strings.Contains(s, "is not expanded by") || strings.Contains(s, "not expanded"):
		f.Severity, f.Kind = SevWarning, UnexpandedReference
	default:
		f.Severity, f.Kind = SevWarning, ClientWarning
	}
	return f
}

// secretFinding describes a literal secret and how to move it out, in the
// client's own spelling of a reference when it has one.
func secretFinding(in FileInput, srv canonical.Server, sf secrets.ServerFinding) Finding {
	sev := SevWarning
	where := "this file"
	if in.Location.Scope == canonical.ScopeProject {
		// a project file is shared: committed, pushed, read by the team
		sev, where = SevError, "this shared project file"
	}
	f := Finding{Severity: sev, Kind: LiteralSecret, Server: srv.Name, Field: sf.Field,
		Message: sf.Describe() + " in " + where}
	ref := "${" + sf.Var + "}"
	spelled := ""
	if d, ok := canonical.Dialects[in.Adapter.Capabilities().Dialect]; ok && d.Env != canonical.EnvNone {
		if r, problems := canonical.Translate(ref, canonical.DialectCanonical, d); len(problems) == 0 {
			spelled = r
		}
	}
	cmd := ""
	if in.ImportHint != "" {
		cmd = "mcpsync import " + in.ImportHint + " --extract-secrets"
	}
	switch {
	case !sf.Extractable:
		f.Fix = "a client-specific key: replace the value by hand with a reference the client reads, and set " + sf.Var + " in the environment"
	case spelled != "":
		f.Fix = fmt.Sprintf("use %s instead and set it with: export %s=…", spelled, sf.Var)
		if cmd != "" {
			f.Fix += fmt.Sprintf(" (%s does both: it writes the reference and prints the export line)", cmd)
		}
	case cmd != "" && canReference(in, srv, sf):
		f.Fix = fmt.Sprintf("%s reads it from the environment in its own way; %s writes that (from %s) and prints the export line to set",
			in.Adapter.DisplayName(), cmd, sf.Var)
	case !canReference(in, srv, sf):
		f.Fix = fmt.Sprintf("%s expands no reference here, so the value has to stay in this file: keep it private (chmod 600 %s)",
			in.Adapter.DisplayName(), shellQuote(in.Location.Path))
	default:
		f.Fix = fmt.Sprintf("read it from the environment variable %s instead of writing it here", sf.Var)
	}
	return f
}

// canReference reports whether the client can read this secret from the
// environment: writing the server with a reference in its place gives no
// warning about that reference.
func canReference(in FileInput, srv canonical.Server, sf secrets.ServerFinding) bool {
	out, moved := secrets.Extract(srv, []secrets.ServerFinding{sf})
	if len(moved) == 0 {
		return false
	}
	out.Origin = canonical.Pos{}
	_, ds := in.Adapter.Encode(in.Location, nil, canonical.Set{Servers: []canonical.Server{out}}, formats.EncodeOptions{OS: "linux"})
	for _, d := range ds {
		if d.Severity == canonical.Error || strings.Contains(d.Summary, "${"+sf.Var+"}") {
			return false
		}
	}
	return true
}

// locate finds where value is written in data, at or after the server's
// own position; the server's position when it cannot be found (escaped).
func locate(data []byte, file string, origin canonical.Pos, value string) canonical.Pos {
	p := canonical.Pos{File: file, Line: origin.Line, Column: origin.Column}
	if origin.File != "" {
		p.File = origin.File
	}
	if value == "" {
		return p
	}
	start := 0
	if origin.Line > 0 {
		start = canonical.LineOffset(data, origin.Line)
	}
	i := bytes.Index(data[start:], []byte(value))
	if i < 0 {
		if i = bytes.Index(data, []byte(value)); i < 0 {
			return p
		}
		start = 0
	}
	return canonical.PosAt(p.File, data, start+i)
}

// unsetRefs reports the variables a server references that are not set in
// this environment and have no default. withDefault spells a reference with
// a default in the file's own syntax, for the fix; false when it has none.
func unsetRefs(srv canonical.Server, lookup func(string) (string, bool), display string, withDefault func(name string) (string, bool)) []Finding {
	fields := map[string][]string{}
	for field, v := range srv.Values() {
		for _, seg := range canonical.Parse(v, canonical.DialectCanonical) {
			if seg.Kind != canonical.EnvRef || seg.HasDefault {
				continue
			}
			if _, ok := lookup(seg.Name); !ok {
				fields[seg.Name] = append(fields[seg.Name], field)
			}
		}
	}
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []Finding
	for _, n := range names {
		fs := fields[n]
		sort.Strings(fs)
		fix := fmt.Sprintf("export %s=… where %s is started (a desktop app reads your login environment)", n, display)
		if ref, ok := withDefault(n); ok {
			fix += ", or give the reference a default: " + ref
		} else {
			fix += "; the file has no syntax for a default, so the variable must be set"
		}
		out = append(out, Finding{Severity: SevWarning, Kind: UnsetReference, Server: srv.Name, Field: fs[0],
			Message: fmt.Sprintf("%s is not set in this environment (used by %s); %s starts the server without it", n, strings.Join(fs, ", "), display),
			Fix:     fix})
	}
	return out
}

func shellQuote(s string) string {
	if strings.ContainsAny(s, " '\"$`\\!*?;&|<>()") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}
