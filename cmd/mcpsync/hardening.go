package main

// Output that never shows a secret-looking literal nor acts on the
// terminal, and command lines recorded masked.

import (
	"io"
	"strings"

	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/internal/termsafe"
	"github.com/mcpsync/mcpsync/store"
)

// saveStore writes the store's edits (see engine.SaveStore). The caller
// holds the state lock.
func (a *App) saveStore(st *store.Store) error { return a.engine().SaveStore(st) }

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
