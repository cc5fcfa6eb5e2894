package render

import (
	"io"

	"github.com/mcpsync/mcpsync/internal/secrets"
	"github.com/mcpsync/mcpsync/internal/termsafe"
)

// SafeWriter is what every stream mcpsync prints to goes through, so that
// whichever code path printed it, no output shows a token or acts on the
// terminal:
//
//   - secrets are masked (secrets.MaskTokens: provider tokens, JWTs, Bearer
//     credentials, URL credentials), unless *Reveal is set; values that
//     only a key name marks as secret are masked where the key is known
//     (diffs, source lines, MaskServer);
//   - control characters and text-reordering characters from files,
//     READMEs, registries and servers are escaped (termsafe), except, while
//     colour is on for the stream, mcpsync's own colours.
//
// Writes are handled one call at a time: the printers write whole lines.
// WriteExact is for output that is a file's exact bytes (a diff that git
// apply takes, convert's file): into a pipe or a file it is not escaped.
type SafeWriter struct {
	W      io.Writer
	Reveal *bool
	// TTY says the stream is a terminal; Colour that colour is on for it.
	TTY    bool
	Colour func() bool
}

func (m *SafeWriter) Write(p []byte) (int, error) { return m.write(p, true) }

// WriteExact writes p unescaped into a pipe or a file, escaped on a terminal.
func (m *SafeWriter) WriteExact(p []byte) (int, error) { return m.write(p, m.TTY) }

func (m *SafeWriter) write(p []byte, escape bool) (int, error) {
	out := string(p)
	if m.Reveal == nil || !*m.Reveal {
		out = secrets.MaskTokens(out)
	}
	if escape {
		out = termsafe.Escape(out, m.Colour != nil && m.Colour())
	}
	if _, err := io.WriteString(m.W, out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// WriteExact writes a file's exact bytes (a diff, a converted file) to w:
// through a SafeWriter, escaped only on a terminal.
func WriteExact(w io.Writer, s string) error {
	if sw, ok := w.(*SafeWriter); ok {
		_, err := sw.WriteExact([]byte(s))
		return err
	}
	_, err := io.WriteString(w, s)
	return err
}

// ClearLine takes a live progress line on a terminal back to its start
// and clears it. It is the only terminal control mcpsync writes besides
// colour, and it bypasses the escaping that would show it as text.
func ClearLine(w io.Writer) {
	if sw, ok := w.(*SafeWriter); ok {
		w = sw.W
	}
	io.WriteString(w, "\r\x1b[K") //nolint:errcheck // progress only
}
