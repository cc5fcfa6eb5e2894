// Package jsonread reads JSON that mcpsync wrote itself, fast: a reader
// that takes only the shape its writer makes and gives up (OK false) on
// anything else, so that the caller can hand the text to encoding/json
// and get encoding/json's result and errors. mcpsync's own files (the
// state, the parsed-store cache) are read on every run and hold a server
// per entry; encoding/json's reflection and validation pass were most of
// their cost.
package jsonread

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/mcpsync/mcpsync/canonical"
)

// New returns a reader of b.
func New(b []byte) *Reader { return &Reader{b: b, ok: true} }

// OK reports whether everything read so far was taken.
func (r *Reader) OK() bool { return r.ok }

// Reader walks JSON text; ok goes false at the first thing the fast path
// does not take, and every method does nothing after that.
type Reader struct {
	b  []byte
	i  int
	ok bool
	// lastTime is the text Time read last and what it read: a state's
	// entries mostly share the time of the run that wrote them.
	lastTime    []byte
	lastTimeVal time.Time
}

// Fail marks the text as not taken; it returns false, for a caller's
// return.
func (r *Reader) Fail() bool { r.ok = false; return false }

func (r *Reader) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// End reports whether all was taken and nothing but white space follows.
func (r *Reader) End() bool {
	r.ws()
	return r.ok && r.i == len(r.b)
}

// peek returns the next byte after white space (0 at the end).
func (r *Reader) peek() byte {
	r.ws()
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

// Expect reads the byte c (after white space).
func (r *Reader) Expect(c byte) bool {
	if !r.ok || r.peek() != c {
		return r.Fail()
	}
	r.i++
	return true
}

// Str reads a string.
func (r *Reader) Str() string {
	b, _ := r.strBytes()
	return string(b)
}

// StrAs reads a string as Str does, and returns *last itself when the
// string is the same: *last is then what the caller keeps of the string
// it read before (the client of each of 10,000 entries, allocated once).
// A different string becomes *last.
func (r *Reader) StrAs(last *string) string {
	b, _ := r.strBytes()
	if string(b) != *last {
		*last = string(b)
	}
	return *last
}

// strBytes reads a string's bytes: one without escapes, in valid UTF-8,
// is a slice of the text (copied false); any other is unquoted by
// encoding/json, which knows its replacement and refusal rules.
func (r *Reader) strBytes() (b []byte, copied bool) {
	if !r.Expect('"') {
		return nil, false
	}
	start, ascii := r.i, true
	for ; r.i < len(r.b); r.i++ {
		c := r.b[r.i]
		switch {
		case c == '"':
			r.i++
			seg := r.b[start : r.i-1]
			if !ascii && !utf8.Valid(seg) {
				return []byte(r.slowStr(start - 1)), true
			}
			return seg, false
		case c == '\\' || c < 0x20:
			return []byte(r.slowStr(start - 1)), true
		case c >= 0x80:
			ascii = false
		}
	}
	r.Fail()
	return nil, false
}

func (r *Reader) slowStr(open int) string {
	r.i = open + 1
	for ; r.i < len(r.b); r.i++ {
		switch r.b[r.i] {
		case '\\':
			r.i++
		case '"':
			r.i++
			var s string
			if json.Unmarshal(r.b[open:r.i], &s) != nil {
				r.Fail()
			}
			return s
		}
	}
	r.Fail()
	return ""
}

// integer reads a JSON integer (no fraction or exponent: those go slow).
func (r *Reader) integer() int64 {
	r.ws()
	start := r.i
	if r.i < len(r.b) && r.b[r.i] == '-' {
		r.i++
	}
	digits := r.i
	for r.i < len(r.b) && r.b[r.i] >= '0' && r.b[r.i] <= '9' {
		r.i++
	}
	if r.i == digits || (r.b[digits] == '0' && r.i-digits > 1) {
		r.Fail()
		return 0
	}
	if r.i < len(r.b) && (r.b[r.i] == '.' || r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		r.Fail()
		return 0
	}
	n, err := strconv.ParseInt(string(r.b[start:r.i]), 10, 64)
	if err != nil {
		r.Fail()
	}
	return n
}

// Bool reads true or false.
func (r *Reader) Bool() bool {
	r.ws()
	for _, lit := range []string{"true", "false"} {
		if len(r.b)-r.i >= len(lit) && string(r.b[r.i:r.i+len(lit)]) == lit {
			r.i += len(lit)
			return lit == "true"
		}
	}
	r.Fail()
	return false
}

// Member reads the next member's key and colon, or the object's closing
// brace (false); i is how many members came before. A key is a slice of
// the text, valid until the next read.
func (r *Reader) Member(i int) ([]byte, bool) {
	if !r.ok {
		return nil, false
	}
	switch c := r.peek(); {
	case c == '}':
		r.i++
		return nil, false
	case i > 0 && c != ',':
		r.Fail()
		return nil, false
	case i > 0:
		r.i++
	}
	k, _ := r.strBytes()
	if !r.Expect(':') {
		return nil, false
	}
	return k, true
}

// Once marks field bit of a struct as read; a key seen twice gives up
// (encoding/json merges a repeated struct field into the first; a map's
// later value simply wins, as it does here).
func (r *Reader) Once(seen *uint32, bit uint) bool {
	if *seen&(1<<bit) != 0 {
		return r.Fail()
	}
	*seen |= 1 << bit
	return true
}

// raw returns the next value's bytes, for a part encoding/json decodes
// (it checks them; this only finds where they end).
func (r *Reader) raw() []byte {
	if !r.ok {
		return nil
	}
	r.ws()
	start, depth := r.i, 0
	for r.i < len(r.b) {
		switch c := r.b[r.i]; c {
		case '"':
			for r.i++; r.i < len(r.b) && r.b[r.i] != '"'; r.i++ {
				if r.b[r.i] == '\\' {
					r.i++
				}
			}
			if r.i >= len(r.b) {
				r.Fail()
				return nil
			}
			r.i++
			if depth == 0 {
				return r.b[start:r.i]
			}
		case '{', '[':
			depth++
			r.i++
		case '}', ']':
			if depth == 0 { // the end of the object around a literal
				return r.literal(start)
			}
			depth--
			r.i++
			if depth == 0 {
				return r.b[start:r.i]
			}
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return r.literal(start)
			}
			r.i++
		default:
			r.i++
		}
	}
	if depth == 0 {
		return r.literal(start)
	}
	r.Fail()
	return nil
}

func (r *Reader) literal(start int) []byte {
	if r.i == start {
		r.Fail()
		return nil
	}
	return r.b[start:r.i]
}

// Unmarshal decodes the next value into v with encoding/json.
func (r *Reader) Unmarshal(v any) {
	if raw := r.raw(); r.ok && json.Unmarshal(raw, v) != nil {
		r.Fail()
	}
}

// Time reads a time as encoding/json does, by time.Time's UnmarshalJSON.
func (r *Reader) Time() time.Time {
	var t time.Time
	if r.peek() != '"' {
		r.Fail()
		return t
	}
	raw := r.raw()
	if r.ok && r.lastTime != nil && bytes.Equal(raw, r.lastTime) {
		return r.lastTimeVal
	}
	if r.ok && t.UnmarshalJSON(raw) != nil {
		r.Fail()
		return t
	}
	r.lastTime, r.lastTimeVal = raw, t
	return t
}

// Elem reads the comma before the next element of an array, or its
// closing bracket (false); i is how many elements came before. The
// caller has read the opening bracket.
func (r *Reader) Elem(i int) bool {
	if !r.ok {
		return false
	}
	switch c := r.peek(); {
	case c == ']':
		r.i++
		return false
	case i > 0 && c != ',':
		return r.Fail()
	case i > 0:
		r.i++
	}
	return true
}

// strings reads an array of strings ([] is an empty, not a nil, slice,
// as encoding/json makes it).
func (r *Reader) strings() []string {
	out := []string{}
	if !r.Expect('[') {
		return out
	}
	for i := 0; r.Elem(i); i++ {
		out = append(out, r.Str())
	}
	return out
}

// Map reads an object whose members are all read by value, into a map
// ({} is an empty, not a nil, map, as encoding/json makes it); a repeated
// key's last value wins, as it does in encoding/json.
func Map[V any](r *Reader, value func() V) map[string]V {
	m := map[string]V{}
	if !r.Expect('{') {
		return m
	}
	for i := 0; ; i++ {
		k, ok := r.Member(i)
		if !ok {
			return m
		}
		key := string(k) // before value: k is valid only until the next read
		m[key] = value()
	}
}

// Servers reads an array of canonical.Server ([] is an empty, not a nil,
// slice, as encoding/json makes it).
func (r *Reader) Servers() []canonical.Server { return r.ServersN(0) }

// ServersN is Servers with room for n servers made first: a count its
// writer put before the list. Appended one by one, 10,000 servers (272
// bytes each, pointers in them) were allocated and copied a dozen times
// over, half of reading a client file's cache entry.
func (r *Reader) ServersN(n int) []canonical.Server {
	// No more room than the text could hold ({"name":""} is 11 bytes): a
	// count that says more is not believed.
	n = min(max(n, 0), (len(r.b)-r.i)/11)
	out := make([]canonical.Server, 0, n)
	if !r.Expect('[') {
		return out
	}
	for i := 0; r.Elem(i); i++ {
		out = append(out, canonical.Server{})
		r.Server(&out[i])
	}
	return out
}

// Server reads a canonical.Server as json.Marshal writes it.
func (r *Reader) Server(s *canonical.Server) {
	var seen uint32
	if !r.Expect('{') {
		return
	}
	for i := 0; ; i++ {
		k, ok := r.Member(i)
		if !ok {
			return
		}
		switch string(k) {
		case "name":
			r.Once(&seen, 0)
			s.Name = r.Str()
		case "transport":
			r.Once(&seen, 1)
			s.Transport = canonical.Transport(r.Str())
		case "command":
			r.Once(&seen, 2)
			s.Command = r.Str()
		case "args":
			r.Once(&seen, 3)
			s.Args = r.strings()
		case "env":
			r.Once(&seen, 4)
			s.Env = Map(r, r.Str)
		case "cwd":
			r.Once(&seen, 5)
			s.Cwd = r.Str()
		case "url":
			r.Once(&seen, 6)
			s.URL = r.Str()
		case "headers":
			r.Once(&seen, 7)
			s.Headers = Map(r, r.Str)
		case "disabled":
			r.Once(&seen, 8)
			s.Disabled = r.Bool()
		case "toolsAllow":
			r.Once(&seen, 9)
			s.ToolsAllow = r.strings()
		case "toolsDeny":
			r.Once(&seen, 10)
			s.ToolsDeny = r.strings()
		case "startupTimeout":
			r.Once(&seen, 11)
			s.StartupTimeout = time.Duration(r.integer())
		case "toolTimeout":
			r.Once(&seen, 12)
			s.ToolTimeout = time.Duration(r.integer())
		case "project":
			r.Once(&seen, 13)
			s.Project = r.Str()
		case "auth":
			r.Once(&seen, 14)
			r.Unmarshal(&s.Auth)
		case "extra":
			r.Once(&seen, 15)
			r.Unmarshal(&s.Extra)
		case "origin":
			r.Once(&seen, 16)
			r.pos(&s.Origin)
		default:
			r.Fail()
		}
	}
}

// pos reads a canonical.Pos.
func (r *Reader) pos(p *canonical.Pos) {
	var seen uint32
	if !r.Expect('{') {
		return
	}
	for i := 0; ; i++ {
		k, ok := r.Member(i)
		if !ok {
			return
		}
		switch string(k) {
		case "file":
			r.Once(&seen, 0)
			p.File = r.Str()
		case "line":
			r.Once(&seen, 1)
			p.Line = r.Int()
		case "column":
			r.Once(&seen, 2)
			p.Column = r.Int()
		default:
			r.Fail()
		}
	}
}

// Int reads an integer that fits an int.
func (r *Reader) Int() int {
	n := r.integer()
	if int64(int(n)) != n {
		r.Fail()
	}
	return int(n)
}
