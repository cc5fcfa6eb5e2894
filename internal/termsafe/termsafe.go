// Package termsafe makes text from files, READMEs, registries and servers
// safe to show on a terminal: every control character and every Unicode
// character that reorders or hides text is shown as an escape, so that
// nothing printed can move the cursor, clear the screen, retitle the
// window, hide a line or disguise a command (a README argument holding
// "\r\x1b[2K" could otherwise make "sh -c …" look like "npx …").
//
// What stays: line feeds, tabs, a carriage return right before a line
// feed (CRLF files), printable text in any script, and, when the caller
// says colour is on, the few colour sequences mcpsync itself paints with.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// colours are the SGR sequences mcpsync paints with (bold, dim, red,
// green, yellow, cyan, reset). One of them in a file's text can only
// change a colour, never hide or move anything, so they pass when colour
// is on; every other escape sequence is escaped.
var colours = []string{"\x1b[0m", "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[36m"}

// Escape returns s with every unsafe character escaped: C0 controls but
// tab and line feed as \xNN (a carriage return too, unless a line feed
// follows), DEL as \x7f, C1 controls, bidirectional overrides and
// isolates, and invalid UTF-8 as \u00NN / \uNNNN / \xNN. With colour, the
// sequences in colours pass. Escape returns s itself when nothing needs
// escaping.
func Escape(s string, colour bool) string {
	i := unsafeAt(s, 0, colour)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	at := 0
	for i >= 0 {
		b.WriteString(s[at:i])
		n := escapeOne(&b, s, i)
		at = i + n
		i = unsafeAt(s, at, colour)
	}
	b.WriteString(s[at:])
	return b.String()
}

// Safe reports whether Escape would return s unchanged.
func Safe(s string, colour bool) bool { return unsafeAt(s, 0, colour) < 0 }

// unsafeAt returns the index of the first unsafe character at or after
// from, or -1.
func unsafeAt(s string, from int, colour bool) int {
	for i := from; i < len(s); {
		c := s[i]
		switch {
		case c == '\n' || c == '\t':
			i++
			continue
		case c == '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i += 2
				continue
			}
			return i
		case c == 0x1b:
			if colour {
				if n := colourAt(s, i); n > 0 {
					i += n
					continue
				}
			}
			return i
		case c < 0x20 || c == 0x7f:
			return i
		case c < utf8.RuneSelf:
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// unsafeRune reports the characters that are printable by Unicode's count
// but control what a terminal shows: C1 controls (a UTF-8 CSI for some
// terminals) and the bidirectional embeddings, overrides and isolates.
func unsafeRune(r rune) bool {
	return r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 ||
		r == 0x200e || r == 0x200f || r == 0x061c
}

func colourAt(s string, i int) int {
	for _, c := range colours {
		if strings.HasPrefix(s[i:], c) {
			return len(c)
		}
	}
	return 0
}

// escapeOne writes the escape of the unsafe character at s[i] and returns
// its length in bytes.
func escapeOne(b *strings.Builder, s string, i int) int {
	if c := s[i]; c < utf8.RuneSelf {
		fmt.Fprintf(b, `\x%02x`, c)
		return 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && size == 1 {
		fmt.Fprintf(b, `\x%02x`, s[i])
		return 1
	}
	fmt.Fprintf(b, `\u%04x`, r)
	return size
}
