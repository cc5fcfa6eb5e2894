// Package jsonwrite writes mcpsync's own JSON by hand: exactly the bytes
// encoding/json writes for the same values, without its reflection, for
// the files that hold a record of every server (the ledger, the caches).
package jsonwrite

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/mapkeys"
)

// AppendServer appends s as encoding/json's Marshal writes it, byte for
// byte: the same field order, omitempty and omitzero, escaping and sorted
// map keys. Every server's hash in the ledger is a SHA-256 of those bytes,
// and a ledger of 10,000 servers in five clients hashes 50,000 entries a
// run and writes as many snapshots; the caches of decoded client files
// hold every server of every file. Reflection was most of that cost.
// FuzzServerJSON holds the equality.
func AppendServer(b []byte, s *canonical.Server) []byte { return enc{html: true}.server(b, s) }

// AppendServerUnescaped is AppendServer as an encoding/json Encoder with
// SetEscapeHTML(false) writes s (without its newline): <, > and & as they
// are, as the caches of decoded files hold them (a URL's query keeps its
// &, and reads back without an unescape).
func AppendServerUnescaped(b []byte, s *canonical.Server) []byte { return enc{}.server(b, s) }

// AppendServerExact is AppendServerUnescaped, and whether its bytes read
// back (by encoding/json) as exactly s, every field as reflect.DeepEqual
// sees it, found as they are written: every string is UTF-8 (a string
// field that is not reads back with U+FFFD in place of its stray bytes),
// no list or map is empty but not nil (omitempty leaves it out, and it
// reads back nil), and every raw value of Extra is JSON as encoding/json
// writes it again (exactExtra). The caches write every server of every
// file they keep, and a pass of its own over every string and list was a
// third of writing them (an export of 10,000 servers to four clients).
// Where s is not exact, the bytes appended are not to be used: they may
// be part of AppendServerUnescaped's, or none (an Extra value that is not
// JSON, which it could not write). FuzzExact holds it to reading back,
// and to exact, the same rule checked field by field.
func AppendServerExact(b []byte, s *canonical.Server) ([]byte, bool) {
	if s.Extra != nil && !exactExtra(s.Extra) { // written by encoding/json, not by enc
		return b, false
	}
	inexact := false
	b = enc{inexact: &inexact}.server(b, s)
	return b, !inexact
}

// AppendString appends s as encoding/json's Marshal writes a string: with
// HTML escaping, U+FFFD for bytes that are not UTF-8, U+2028 and U+2029
// escaped.
func AppendString(b []byte, s string) []byte { return enc{html: true}.str(b, s) }

// AppendTime appends t as time.Time.MarshalJSON writes it, without its
// allocation for the years it writes (0 to 9999; it refuses others, with
// MarshalJSON's error).
func AppendTime(b []byte, t time.Time) ([]byte, error) {
	if y := t.Year(); y < 0 || y > 9999 {
		data, err := t.MarshalJSON()
		if err != nil {
			return nil, err
		}
		return append(b, data...), nil
	}
	b = t.AppendFormat(append(b, '"'), time.RFC3339Nano)
	return append(b, '"'), nil
}

// AppendStringField appends `,"key":"v"` as Marshal writes it, or nothing
// when v is empty (an omitempty string field after the first).
func AppendStringField(b []byte, key, v string) []byte { return enc{html: true}.stringField(b, key, v) }

// enc writes as encoding/json does, escaping <, > and & (Marshal) or
// not (an Encoder with SetEscapeHTML(false)). inexact, when not nil, is
// set where what is written would not read back as exactly the value (see
// AppendServerExact): a string that is not UTF-8, a list or map empty but
// not nil.
type enc struct {
	html    bool
	inexact *bool
}

// lost notes that what is written would not read back as it is.
func (e enc) lost() {
	if e.inexact != nil {
		*e.inexact = true
	}
}

func (e enc) server(b []byte, s *canonical.Server) []byte {
	b = append(b, `{"name":`...)
	b = e.str(b, s.Name)
	b = append(b, `,"transport":`...)
	b = e.str(b, string(s.Transport))
	b = e.stringField(b, "command", s.Command)
	b = e.listField(b, "args", s.Args)
	b = e.mapField(b, "env", s.Env)
	b = e.stringField(b, "cwd", s.Cwd)
	b = e.stringField(b, "url", s.URL)
	b = e.mapField(b, "headers", s.Headers)
	if s.Disabled {
		b = append(b, `,"disabled":true`...)
	}
	b = e.listField(b, "toolsAllow", s.ToolsAllow)
	b = e.listField(b, "toolsDeny", s.ToolsDeny)
	b = appendDurationField(b, "startupTimeout", s.StartupTimeout)
	b = appendDurationField(b, "toolTimeout", s.ToolTimeout)
	if s.Auth != (canonical.Auth{}) {
		b = append(b, `,"auth":{`...)
		mark := len(b)
		if s.Auth.BearerTokenEnv != "" {
			b = append(b, `"bearerTokenEnv":`...)
			b = e.str(b, s.Auth.BearerTokenEnv)
		}
		if o := s.Auth.OAuth; o != nil {
			if len(b) > mark {
				b = append(b, ',')
			}
			b = append(b, `"oauth":{`...)
			inner := len(b)
			b = e.stringField(b, "clientId", o.ClientID)
			b = e.stringField(b, "clientSecret", o.ClientSecret)
			b = e.listField(b, "scopes", o.Scopes)
			if o.CallbackPort != 0 {
				b = append(b, `,"callbackPort":`...)
				b = strconv.AppendInt(b, int64(o.CallbackPort), 10)
			}
			b = e.stringField(b, "redirectUri", o.RedirectURI)
			b = e.stringField(b, "authServerMetadataUrl", o.AuthServerMetadataURL)
			b = e.stringField(b, "resource", o.Resource)
			if len(b) > inner { // the fields above each start with a comma
				b = append(b[:inner], b[inner+1:]...)
			}
			b = append(b, '}')
		}
		b = append(b, '}')
	}
	if len(s.Extra) > 0 {
		// Raw JSON values, rare and small: encoding/json compacts and
		// escapes them its own way, so it writes them.
		var buf bytes.Buffer
		je := json.NewEncoder(&buf)
		je.SetEscapeHTML(e.html)
		if err := je.Encode(s.Extra); err != nil {
			// What a client file held is valid JSON: a value that is not
			// is a bug upstream, which a hash must not paper over.
			panic("jsonwrite: cannot marshal extra: " + err.Error())
		}
		b = append(b, `,"extra":`...)
		b = append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
	}
	b = e.stringField(b, "project", s.Project)
	if s.Origin != (canonical.Pos{}) {
		b = append(b, `,"origin":{`...)
		inner := len(b)
		b = e.stringField(b, "file", s.Origin.File)
		if s.Origin.Line != 0 {
			b = append(b, `,"line":`...)
			b = strconv.AppendInt(b, int64(s.Origin.Line), 10)
		}
		if s.Origin.Column != 0 {
			b = append(b, `,"column":`...)
			b = strconv.AppendInt(b, int64(s.Origin.Column), 10)
		}
		if len(b) > inner {
			b = append(b[:inner], b[inner+1:]...)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

func (e enc) stringField(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return e.str(b, v)
}

func (e enc) listField(b []byte, key string, v []string) []byte {
	if len(v) == 0 {
		if v != nil {
			e.lost() // omitted, it reads back nil
		}
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, `":[`...)
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = e.str(b, x)
	}
	return append(b, ']')
}

func (e enc) mapField(b []byte, key string, m map[string]string) []byte {
	if len(m) == 0 {
		if m != nil {
			e.lost() // omitted, it reads back nil
		}
		return b
	}
	keys := mapkeys.Sorted(m)
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, `":{`...)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = e.str(b, k)
		b = append(b, ':')
		b = e.str(b, m[k])
	}
	return append(b, '}')
}

func appendDurationField(b []byte, key string, d time.Duration) []byte {
	if d == 0 {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return strconv.AppendInt(b, int64(d), 10)
}

// plainJSON marks the ASCII bytes a JSON string holds as they are: one
// look-up per byte of the hashes, names and paths a state file is mostly
// made of, rather than six comparisons.
var plainJSON = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// plainJSONUnescaped is plainJSON for an Encoder that does not escape HTML.
var plainJSONUnescaped = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c != '"' && c != '\\'
	}
	return t
}()

func (e enc) str(b []byte, s string) []byte {
	plain := &plainJSON
	if !e.html {
		plain = &plainJSONUnescaped
	}
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if plain[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			e.lost() // it reads back as U+FFFD
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// exactExtra reports whether x reads back as exactly x: nil or not empty,
// its keys UTF-8, and each raw value compact JSON (compactJSON).
func exactExtra(x map[string]map[string]json.RawMessage) bool {
	if x != nil && len(x) == 0 {
		return false
	}
	for client, keys := range x {
		if !utf8.ValidString(client) {
			return false
		}
		for k, raw := range keys {
			if !utf8.ValidString(k) || !compactJSON(raw) {
				return false
			}
		}
	}
	return true
}

// compactJSON reports whether raw is JSON as encoding/json writes a raw
// value again: valid, and without a byte of white space outside its
// strings. (Empty or nil is written as null, which reads back as the four
// bytes.) Bytes that are not UTF-8 inside a string do not matter: the
// encoder copies a raw value's strings as they are, and the decoder copies
// a raw value whole, so they read back the same.
func compactJSON(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return false
	}
	inString, escaped := false, false
	for _, c := range raw {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case !inString && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return false
		}
	}
	return json.Valid(raw)
}
