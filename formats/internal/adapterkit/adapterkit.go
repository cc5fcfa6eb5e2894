// Package adapterkit holds what the adapters written in Go (Codex's TOML,
// Continue's and Goose's YAML) do alike: paths for the target system, the
// warnings Encode collects, which of a changed server's keys keep the
// file's own spelling, typed reads of a decoded table, and the diagnostics
// of a file they will not edit. Each client's quirks (its keys, its
// wording, what it cannot express) stay in its own package.
package adapterkit

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats/internal/value"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

// JoinPath joins with the target system's separator, so that paths for a
// Windows machine can be computed anywhere.
func JoinPath(goos string, elem ...string) string {
	sep := "/"
	if goos == "windows" {
		sep = `\`
	}
	out := strings.TrimRight(elem[0], `/\`)
	for _, e := range elem[1:] {
		out += sep + strings.Trim(e, `/\`)
	}
	return out
}

// SameServer reports whether the file already holds want, for client.
// Extra[client] counts only when want has an opinion on it; otherwise the
// keys the user wrote that mcpsync does not model are simply kept.
func SameServer(old, want canonical.Server, client string) bool {
	if want.Extra[client] == nil {
		return canonical.Equal(old, want)
	}
	return canonical.Equal(old, want, client)
}

// Warnings collects the warnings of one Encode.
type Warnings struct {
	File  string // the file being written
	Diags canonical.Diagnostics
}

// Warn records a warning about one server. It points at where the server
// was defined (the user's store, usually) when that is known, else at the
// file being written.
func (w *Warnings) Warn(srv *canonical.Server, field, format string, args ...any) *canonical.Diagnostic {
	d := canonical.Warnf(format, args...)
	d.Server, d.Field, d.File = srv.Name, field, w.File
	if srv.Origin.File != "" {
		d.At(srv.Origin)
	}
	w.Diags = append(w.Diags, d)
	return d
}

// A Group is a set of a client's keys that together express one part of
// the model. When that part did not change, the keys are kept exactly as
// the file has them (their spelling, their order, the client's own
// choices among equivalent forms).
type Group struct {
	Keys []string
	Same func(a, b *canonical.Server) bool
}

// Merge renders a changed server: the keys of every group whose part is
// the same in old and want (and the keys of always) keep their values
// from raw, in the file's order, and the other keys come from fresh, the
// server rendered from the model alone.
func Merge[M value.Ordered[F], F ~value.Field](groups []Group, old, want *canonical.Server, order []string, raw map[string]any, fresh M, always ...string) M {
	kept := make(map[string]bool, len(always))
	for _, k := range always {
		kept[k] = true
	}
	for _, g := range groups {
		if g.Same(old, want) {
			for _, k := range g.Keys {
				kept[k] = true
			}
		}
	}
	var out M
	for _, k := range order {
		if kept[k] {
			out = append(out, F{Key: k, Value: raw[k]})
		}
	}
	for _, f := range fresh {
		if !kept[value.Field(f).Key] {
			out = append(out, f)
		}
	}
	return out
}

// OrName returns path, or name when there is none (a file given on stdin).
func OrName(path, name string) string {
	if path == "" {
		return name
	}
	return path
}

// Broken is what Encode returns for a file whose decoding found errors:
// those errors and one that says nothing was written. refuses says what
// the client does with such a file ("Codex refuses to load").
func Broken(path, name, refuses string, ds canonical.Diagnostics) canonical.Diagnostics {
	d := canonical.Errorf("%s has errors; mcpsync does not edit a file %s", OrName(path, name), refuses)
	d.Detail = "fix the errors reported for this file, then run again; nothing was written"
	d.File = path
	return append(ds.Errors(), d)
}

// EditRefused is the error for an edit the editor refused: unverified is
// the editor's ErrUnverified (the result could not be proven right; risk
// says so), any other error is the editor's own.
func EditRefused(path, name string, err, unverified error, risk string) *canonical.Diagnostic {
	d := canonical.Errorf("cannot edit %s safely: %s", OrName(path, name), strings.TrimPrefix(err.Error(), unverified.Error()+": "))
	d.Detail = risk
	if !errors.Is(err, unverified) {
		d.Detail = "nothing was written"
	}
	d.File = path
	return d
}

// StdioOnlyFields lists, in a fixed order, the fields only a stdio server
// uses that srv sets: a remote server's Encode warns about each one it
// cannot write (in this order, so that the output is the same every run).
func StdioOnlyFields(srv canonical.Server) []string {
	var out []string
	if len(srv.Args) > 0 {
		out = append(out, "args")
	}
	if len(srv.Env) > 0 {
		out = append(out, "env")
	}
	if srv.Cwd != "" {
		out = append(out, "cwd")
	}
	return out
}

// Unexpanded returns the first field of srv that the client's entry holds
// with a reference the client would pass to the server as text: a command,
// argument, env value, cwd, url or header for which expressible says no.
// Only the fields of srv's transport are looked at (a stdio server's
// command, args, env and cwd; a remote server's url and headers). Such an
// entry cannot work, so the adapter does not write it (see Refuse).
func Unexpanded(srv canonical.Server, expressible func(field string, t canonical.Template) bool) (field, ref string, found bool) {
	check := func(name, v string) bool {
		t := canonical.Parse(v, canonical.DialectCanonical)
		if !t.HasRefs() || expressible(name, t) {
			return false
		}
		field, found = name, true
		for _, seg := range t {
			if seg.Kind != canonical.Literal {
				ref = seg.Text
				break
			}
		}
		return true
	}
	if srv.Transport == canonical.Stdio {
		if check("command", srv.Command) {
			return
		}
		for i, a := range srv.Args {
			if check(fmt.Sprintf("args[%d]", i), a) {
				return
			}
		}
		for _, k := range mapkeys.Sorted(srv.Env) {
			if check("env."+k, srv.Env[k]) {
				return
			}
		}
		check("cwd", srv.Cwd)
		return
	}
	if check("url", srv.URL) {
		return
	}
	for _, k := range mapkeys.Sorted(srv.Headers) {
		if check("headers."+k, srv.Headers[k]) {
			return
		}
	}
	return
}

// OneEnvRef reports whether t is a single environment reference and nothing
// else (${VAR} or ${VAR:-d}): what a client that forwards variables by name
// (Codex's env_vars, Goose's env_keys) can pass.
func OneEnvRef(t canonical.Template) bool { return len(t) == 1 && t[0].Kind == canonical.EnvRef }
