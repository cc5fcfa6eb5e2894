// Package strquote spells a string as each format mcpsync writes spells
// it between its quotes: the writers of client files and of the store use
// it, and so does the secret scrubber (internal/secrets), which must find
// a secret in a file however the file spells it. A value that holds a
// quote, an ampersand or a control character is escaped differently by
// each format, and a diff line holding such a secret in a spelling the
// scrubber did not know was printed unmasked.
package strquote

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// JSON is s inside a JSON string as the client files' writer (jsonedit)
// spells it: encoding/json's escapes without its HTML escaping, so that
// <, > and & stay as they are (a URL's query keeps its &).
func JSON(s string) string {
	if plainJSON(s) {
		return s
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	out := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	return string(out[1 : len(out)-1])
}

// PrintableASCII reports whether s is printable ASCII throughout: no
// format escapes such text but for its quotes, backslashes and braces.
func PrintableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// plainJSON reports whether s needs no escape inside a JSON string.
func plainJSON(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

// TOML is s inside a TOML basic string as tomledit writes it: control
// characters escaped (\uXXXX in upper case where TOML has no short
// escape), and an invalid UTF-8 byte written as U+FFFD (which the edit's
// verification then reports as a difference).
func TOML(s string) string {
	if PrintableASCII(s) && !strings.ContainsAny(s, `"\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\u`)
			h := strconv.FormatInt(int64(r), 16)
			b.WriteString(strings.Repeat("0", 4-len(h)))
			b.WriteString(strings.ToUpper(h))
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// HCL is s inside an HCL quoted template with no interpolation, as the
// store is written: ${ and %{ doubled so that they read back as text.
func HCL(s string) string {
	if PrintableASCII(s) && !strings.ContainsAny(s, `"\{`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case (r == '$' || r == '%') && i+1 < len(s) && s[i+1] == '{':
			b.WriteByte(byte(r))
			b.WriteByte(byte(r))
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\ufffd`) // HCL source is UTF-8; a broken byte cannot be written
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// YAMLSingle is s inside YAML single quotes: each quote doubled. yaml.v3
// writes a value so when it cannot be plain (it holds ": " or " #", or
// reads as another type) and has no character single quotes cannot hold.
func YAMLSingle(s string) string { return strings.ReplaceAll(s, "'", "''") }

// YAMLDouble is s inside YAML double quotes as yaml.v3 writes them, which
// it does for a value holding a control character or another character
// YAML does not print as it is (\e, \x7F, \N, \L…).
func YAMLDouble(s string) string {
	out, err := yaml.Marshal(&yaml.Node{Kind: yaml.ScalarNode, Style: yaml.DoubleQuotedStyle, Value: s})
	if err != nil {
		return s
	}
	out = bytes.TrimSuffix(out, []byte("\n"))
	if len(out) < 2 || out[0] != '"' || out[len(out)-1] != '"' {
		return s
	}
	return string(out[1 : len(out)-1])
}
