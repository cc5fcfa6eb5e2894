package main

// What every writing command shares to be trustworthy: the state lock, the
// store written through the backed-up, drift-checked pipeline, and output
// that never shows a secret-looking literal.

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/emitters"
	"github.com/mcpsync/mcpsync/emitters/state"
	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/internal/termsafe"
	"github.com/mcpsync/mcpsync/store"
)

// lockWaitEnv overrides how long a writing command waits for another
// mcpsync ("30s", "500ms").
const lockWaitEnv = "MCPSYNC_LOCK_WAIT"

// acquireLock takes mcpsync's advisory lock on the state directory for the
// whole read-plan-write of a command that writes client files, the store or
// the state. Every such command calls it (export, import, add, remove,
// restore, sync, resolve, watch, pull, approve, source), so two mcpsync
// processes never interleave their writes. While another process holds the
// lock, it says whom it waits for, and after MCPSYNC_LOCK_WAIT (default 10s)
// it gives up naming that process.
func (a *App) acquireLock() (*state.Lock, error) {
	wait := lockWait
	if v := a.Getenv(lockWaitEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return nil, usagef("%s=%q: give a duration such as 30s or 500ms", lockWaitEnv, v)
		}
		wait = d
	}
	return state.AcquireWith(a.Dirs.State, state.LockOptions{
		Wait:    wait,
		Command: a.commandLine,
		OnWait: func(h state.Holder) {
			fmt.Fprintf(a.Stderr, "waiting for %s to finish (up to %s)…\n", h, wait)
		},
	})
}

// applyOptions are the ApplyOptions every command uses: the state
// directory, the command line recorded with the backups, and the backup
// retention (MCPSYNC_BACKUP_KEEP, MCPSYNC_BACKUP_MAX_AGE).
func (a *App) applyOptions(st *state.State) emitters.ApplyOptions {
	r := a.retention()
	return emitters.ApplyOptions{StateDir: a.Dirs.State, State: st, Command: a.commandLine, Retention: &r}
}

// retention reads the backup retention from the environment; a value that
// does not parse keeps the default (a typo must not delete backups).
func (a *App) retention() emitters.Retention {
	r := emitters.DefaultRetention
	if v := a.Getenv("MCPSYNC_BACKUP_KEEP"); v != "" {
		var n int
		if _, err := fmt.Sscanf(v, "%d", &n); err == nil {
			r.Keep = n
		}
	}
	if v := a.Getenv("MCPSYNC_BACKUP_MAX_AGE"); v != "" {
		if d, err := parseAge(v); err == nil {
			r.MaxAge = d
		}
	}
	return r
}

// parseAge reads a duration that may also be given in days: "30d", "12h".
func parseAge(v string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(v, "d"); ok {
		var days float64
		if _, err := fmt.Sscanf(n, "%g", &days); err != nil || days < 0 {
			return 0, fmt.Errorf("%q is not a number of days", v)
		}
		return time.Duration(days * 24 * float64(time.Hour)), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q: give a duration such as 30d, 12h or 90m", v)
	}
	return d, nil
}

// saveStore writes the store's edits like any client file: backed up
// under the state directory (so that 'mcpsync restore' can bring the store
// back), refused when the file changed since it was read, atomic. The
// caller holds the state lock. st is reloaded from what was written.
func (a *App) saveStore(st *store.Store) error {
	data := st.Bytes()
	var before []byte
	if st.Exists {
		before = st.Original()
		if before == nil {
			before = []byte{}
		}
	}
	if bytes.Equal(data, before) && (st.Exists || len(data) == 0) {
		return nil
	}
	if _, ds := store.Parse(st.Path, data); ds.HasErrors() {
		// Bytes only writes what Parse reads; reaching this is a bug.
		return fmt.Errorf("%s: the edited store would not read back (%v); nothing was written", st.Path, ds.Err())
	}
	if st.Scope == canonical.ScopeProject {
		// A project's store is shared through git: a server this edit adds
		// or changes may not bring a literal secret into it.
		old, _ := store.Parse(st.Path, before)
		var ds canonical.Diagnostics
		for _, srv := range st.Servers.Servers {
			if prev, ok := old.Servers.Get(srv.Name); ok && canonical.Equal(prev, srv) {
				continue
			}
			if d := emitters.SharedSecret(srv, st.Path); d != nil {
				ds = append(ds, d)
			}
		}
		if len(ds) > 0 {
			a.printDiagnostics(ds)
			return reportedError{ds.Err()}
		}
	}
	p := emitters.PlanWrite(st.Path, st.Root, before, data)
	if err := p.Err(); err != nil {
		a.printDiagnostics(p.Diags)
		return reportedError{err}
	}
	if _, err := emitters.Apply(p, a.applyOptions(nil)); err != nil {
		return fmt.Errorf("%s: cannot write the store: %w", st.Path, err)
	}
	fresh, ds := store.LoadBeneath(st.Path, st.Root)
	if ds.HasErrors() {
		return fmt.Errorf("%s: the written store does not read back: %w", st.Path, ds.Err())
	}
	fresh.Scope = st.Scope
	*st = *fresh
	return nil
}

// maskWriter is what every command's stdout and stderr go through, so
// that whichever code path printed it, no output shows a token or acts on
// the terminal:
//
//   - secrets are masked (secrets.MaskTokens: provider tokens, JWTs, Bearer
//     credentials, URL credentials), unless *reveal is set; values that
//     only a key name marks as secret are masked where the key is known
//     (diffs, source lines, MaskServer);
//   - control characters and text-reordering characters from files,
//     READMEs, registries and servers are escaped (termsafe), except, while
//     colour is on for the stream, mcpsync's own colours.
//
// Writes are handled one call at a time: the printers write whole lines.
// WriteExact is for output that is a file's exact bytes (a diff that git
// apply takes, convert's file): into a pipe or a file it is not escaped.
type maskWriter struct {
	w      io.Writer
	reveal *bool
	// tty says the stream is a terminal; colour that colour is on for it.
	tty    bool
	colour func() bool
}

func (m *maskWriter) Write(p []byte) (int, error) { return m.write(p, true) }

// WriteExact writes p unescaped into a pipe or a file, escaped on a terminal.
func (m *maskWriter) WriteExact(p []byte) (int, error) { return m.write(p, m.tty) }

func (m *maskWriter) write(p []byte, escape bool) (int, error) {
	out := string(p)
	if m.reveal == nil || !*m.reveal {
		out = secrets.MaskTokens(out)
	}
	if escape {
		out = termsafe.Escape(out, m.colour != nil && m.colour())
	}
	if _, err := io.WriteString(m.w, out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// clearLine takes a live progress line on a terminal's stderr back to its
// start and clears it. It is the only terminal control mcpsync writes
// besides colour, and it bypasses the escaping that would show it as text.
func (a *App) clearLine() {
	w := a.Stderr
	if m, ok := w.(*maskWriter); ok {
		w = m.w
	}
	io.WriteString(w, "\r\x1b[K")
}

// printExact writes a file's exact bytes (a diff, a converted file) to
// stdout: escaped only on a terminal (see maskWriter).
func (a *App) printExact(s string) error {
	if w, ok := a.Stdout.(*maskWriter); ok {
		_, err := w.WriteExact([]byte(s))
		return err
	}
	_, err := io.WriteString(a.Stdout, s)
	return err
}

// valueFlags are the flags whose every value is secret by where it stands,
// whatever it looks like: a header's value, an environment variable's.
var valueFlags = map[string]string{"--header": ":", "-H": ":", "--env": "=", "-e": "="}

// maskedCommandLine is the command line as backups, the state lock and
// restore --list record it: the value of every --header and --env masked
// (the name kept, and the references in it), and every other
// secret-looking value too.
func maskedCommandLine(args []string) string {
	quoted := make([]string, len(args))
	sep, command := "", false
	for i, arg := range args {
		switch {
		case command:
			// the server's own command line: its flags are not ours
		case arg == "--":
			sep, command = "", true
		case sep != "":
			arg, sep = maskFlagValue(arg, sep), ""
		default:
			flag, value, inline := strings.Cut(arg, "=")
			if s, ok := valueFlags[flag]; ok {
				if inline {
					arg = flag + "=" + maskFlagValue(value, s)
				} else {
					sep = s
				}
			}
		}
		if arg == "" || strings.ContainsAny(arg, " \t'\"") {
			arg = "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
		}
		quoted[i] = arg
	}
	return secrets.MaskLine(strings.Join(quoted, " "))
}

// maskFlagValue masks the value of "NAME: value" or "NAME=value".
func maskFlagValue(arg, sep string) string {
	name, value, ok := strings.Cut(arg, sep)
	if !ok {
		return secrets.MaskLiterals(arg)
	}
	lead := value[:len(value)-len(strings.TrimLeft(value, " "))]
	if value = strings.TrimLeft(value, " "); value == "" {
		return arg
	}
	return name + sep + lead + secrets.MaskLiterals(value)
}
