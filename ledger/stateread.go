package ledger

import (
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/mcpsync/mcpsync/canonical"
)

// decodeState fills st from data as json.Unmarshal(data, st) would. Every
// run loads the state, and at 10,000 servers in five clients it holds
// 60,000 entries and 10,000 snapshots; encoding/json's reflection and its
// second pass over the bytes were most of a no-op sync's load.
//
// The fast reader takes only the shape Save writes: known keys spelled as
// written, each once per object, no nulls, plain numbers. On anything else
// (an older or hand-edited file, a damaged one) it gives up and
// json.Unmarshal reads the whole file, so that the result, and the error
// for a damaged file, are encoding/json's. FuzzDecodeState holds the two
// equal.
func decodeState(data []byte, st *State) error {
	if decodeStateFast(data, st) {
		return nil
	}
	return json.Unmarshal(data, st)
}

// decodeStateFast is the fast reader alone: false, with st untouched,
// where it gives up.
func decodeStateFast(data []byte, st *State) bool {
	fast := *st // what json.Unmarshal would keep: New's version, the path
	r := reader{b: data}
	if r.state(&fast) && r.end() {
		*st = fast
		return true
	}
	return false
}

// reader walks JSON text; ok goes false at the first thing the fast path
// does not take, and every method does nothing after that.
type reader struct {
	b  []byte
	i  int
	ok bool
}

func (r *reader) fail() bool { r.ok = false; return false }

func (r *reader) ws() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

func (r *reader) end() bool {
	r.ws()
	return r.ok && r.i == len(r.b)
}

// peek returns the next byte after white space (0 at the end).
func (r *reader) peek() byte {
	r.ws()
	if r.i < len(r.b) {
		return r.b[r.i]
	}
	return 0
}

func (r *reader) expect(c byte) bool {
	if !r.ok || r.peek() != c {
		return r.fail()
	}
	r.i++
	return true
}

// str reads a string.
func (r *reader) str() string {
	b, _ := r.strBytes()
	return string(b)
}

// strBytes reads a string's bytes: one without escapes, in valid UTF-8,
// is a slice of the text (copied false); any other is unquoted by
// encoding/json, which knows its replacement and refusal rules.
func (r *reader) strBytes() (b []byte, copied bool) {
	if !r.expect('"') {
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
	r.fail()
	return nil, false
}

func (r *reader) slowStr(open int) string {
	r.i = open + 1
	for ; r.i < len(r.b); r.i++ {
		switch r.b[r.i] {
		case '\\':
			r.i++
		case '"':
			r.i++
			var s string
			if json.Unmarshal(r.b[open:r.i], &s) != nil {
				r.fail()
			}
			return s
		}
	}
	r.fail()
	return ""
}

// int reads a JSON integer (no fraction or exponent: those go slow).
func (r *reader) int() int64 {
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
		r.fail()
		return 0
	}
	if r.i < len(r.b) && (r.b[r.i] == '.' || r.b[r.i] == 'e' || r.b[r.i] == 'E') {
		r.fail()
		return 0
	}
	n, err := strconv.ParseInt(string(r.b[start:r.i]), 10, 64)
	if err != nil {
		r.fail()
	}
	return n
}

func (r *reader) bool() bool {
	r.ws()
	for _, lit := range []string{"true", "false"} {
		if len(r.b)-r.i >= len(lit) && string(r.b[r.i:r.i+len(lit)]) == lit {
			r.i += len(lit)
			return lit == "true"
		}
	}
	r.fail()
	return false
}

// member reads the next member's key and colon, or the object's closing
// brace (false); i is how many members came before. A key is a slice of
// the text, valid until the next read.
func (r *reader) member(i int) ([]byte, bool) {
	if !r.ok {
		return nil, false
	}
	switch c := r.peek(); {
	case c == '}':
		r.i++
		return nil, false
	case i > 0 && c != ',':
		r.fail()
		return nil, false
	case i > 0:
		r.i++
	}
	k, _ := r.strBytes()
	if !r.expect(':') {
		return nil, false
	}
	return k, true
}

// once marks field bit of a struct as read; a key seen twice gives up
// (encoding/json merges a repeated struct field into the first; a map's
// later value simply wins, as it does here).
func (r *reader) once(seen *uint32, bit uint) bool {
	if *seen&(1<<bit) != 0 {
		return r.fail()
	}
	*seen |= 1 << bit
	return true
}

// raw returns the next value's bytes, for a part encoding/json decodes
// (it checks them; this only finds where they end).
func (r *reader) raw() []byte {
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
				r.fail()
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
	r.fail()
	return nil
}

func (r *reader) literal(start int) []byte {
	if r.i == start {
		r.fail()
		return nil
	}
	return r.b[start:r.i]
}

// unmarshal decodes the next value into v with encoding/json.
func (r *reader) unmarshal(v any) {
	if raw := r.raw(); r.ok && json.Unmarshal(raw, v) != nil {
		r.fail()
	}
}

// time reads a time as encoding/json does, by time.Time's UnmarshalJSON.
func (r *reader) time() time.Time {
	var t time.Time
	if r.peek() != '"' {
		r.fail()
		return t
	}
	if raw := r.raw(); r.ok && t.UnmarshalJSON(raw) != nil {
		r.fail()
	}
	return t
}

func (r *reader) strings() []string {
	if !r.expect('[') {
		return nil
	}
	out := []string{}
	if r.peek() == ']' {
		r.i++
		return out
	}
	for r.ok {
		out = append(out, r.str())
		switch r.peek() {
		case ',':
			r.i++
		case ']':
			r.i++
			return out
		default:
			r.fail()
		}
	}
	return nil
}

func (r *reader) stringMap() map[string]string {
	m := map[string]string{}
	if !r.expect('{') {
		return m
	}
	for i := 0; ; i++ {
		k, ok := r.member(i)
		if !ok {
			return m
		}
		key := string(k)
		m[key] = r.str()
	}
}

func (r *reader) state(st *State) bool {
	r.ok = true
	var seen uint32
	if !r.expect('{') {
		return false
	}
	for i := 0; ; i++ {
		k, ok := r.member(i)
		if !ok {
			return r.ok
		}
		switch string(k) {
		case "version":
			r.once(&seen, 0)
			n := r.int()
			if int64(int(n)) != n {
				r.fail()
			}
			st.Version = int(n)
		case "files":
			r.once(&seen, 1)
			st.Files = map[string]*File{}
			if r.expect('{') {
				for j := 0; ; j++ {
					path, ok := r.member(j)
					if !ok {
						break
					}
					key := string(path)
					st.Files[key] = r.file()
				}
			}
		case "bases":
			r.once(&seen, 2)
			st.Bases = map[string]map[string]*Entry{}
			if r.expect('{') {
				for j := 0; ; j++ {
					store, ok := r.member(j)
					if !ok {
						break
					}
					key := string(store)
					st.Bases[key] = r.entries()
				}
			}
		case "sync":
			r.once(&seen, 3)
			r.unmarshal(&st.Sync) // small: what sync remembers beyond the bases
		case "snapshots":
			r.once(&seen, 4)
			st.Snapshots = map[string]canonical.Server{}
			if r.expect('{') {
				for j := 0; ; j++ {
					hash, ok := r.member(j)
					if !ok {
						break
					}
					key := string(hash)
					var s canonical.Server
					r.server(&s)
					st.Snapshots[key] = s
				}
			}
		default:
			r.fail()
		}
	}
}

func (r *reader) file() *File {
	f := &File{}
	var seen uint32
	if !r.expect('{') {
		return f
	}
	for i := 0; ; i++ {
		k, ok := r.member(i)
		if !ok {
			return f
		}
		switch string(k) {
		case "sha256":
			r.once(&seen, 0)
			f.SHA256 = r.str()
		case "written":
			r.once(&seen, 1)
			f.Written = r.time()
		case "created":
			r.once(&seen, 2)
			f.Created = r.bool()
		case "sections":
			r.once(&seen, 3)
			f.Sections = map[string]*Section{}
			if r.expect('{') {
				for j := 0; ; j++ {
					name, ok := r.member(j)
					if !ok {
						break
					}
					key := string(name)
					f.Sections[key] = r.section()
				}
			}
		case "addedKeys":
			r.once(&seen, 4)
			r.unmarshal(&f.AddedKeys)
		case "addedSideKeys":
			r.once(&seen, 5)
			r.unmarshal(&f.AddedSideKeys)
		case "createdDirs":
			r.once(&seen, 6)
			r.unmarshal(&f.CreatedDirs)
		default:
			r.fail()
		}
	}
}

func (r *reader) section() *Section {
	sec := &Section{}
	if !r.expect('{') {
		return sec
	}
	for i := 0; ; i++ {
		k, ok := r.member(i)
		if !ok {
			return sec
		}
		if string(k) != "managed" || i > 0 {
			r.fail()
			return sec
		}
		sec.Managed = r.entries()
	}
}

func (r *reader) entries() map[string]*Entry {
	m := map[string]*Entry{}
	if !r.expect('{') {
		return m
	}
	for i := 0; ; i++ {
		name, ok := r.member(i)
		if !ok {
			return m
		}
		key := string(name)
		m[key] = r.entry()
	}
}

func (r *reader) entry() *Entry {
	e := &Entry{}
	var seen uint32
	if !r.expect('{') {
		return e
	}
	for i := 0; ; i++ {
		k, ok := r.member(i)
		if !ok {
			return e
		}
		switch string(k) {
		case "client":
			r.once(&seen, 0)
			e.Client = r.str()
		case "hash":
			r.once(&seen, 1)
			e.Hash = r.str()
		case "server":
			r.once(&seen, 2)
			r.server(&e.Server)
		case "at":
			r.once(&seen, 3)
			e.At = r.time()
		case "from":
			r.once(&seen, 4)
			e.From = r.str()
		case "source":
			r.once(&seen, 5)
			e.Source = r.str()
		default:
			r.fail()
		}
	}
}

func (r *reader) server(s *canonical.Server) {
	var seen uint32
	if !r.expect('{') {
		return
	}
	for i := 0; ; i++ {
		k, ok := r.member(i)
		if !ok {
			return
		}
		switch string(k) {
		case "name":
			r.once(&seen, 0)
			s.Name = r.str()
		case "transport":
			r.once(&seen, 1)
			s.Transport = canonical.Transport(r.str())
		case "command":
			r.once(&seen, 2)
			s.Command = r.str()
		case "args":
			r.once(&seen, 3)
			s.Args = r.strings()
		case "env":
			r.once(&seen, 4)
			s.Env = r.stringMap()
		case "cwd":
			r.once(&seen, 5)
			s.Cwd = r.str()
		case "url":
			r.once(&seen, 6)
			s.URL = r.str()
		case "headers":
			r.once(&seen, 7)
			s.Headers = r.stringMap()
		case "disabled":
			r.once(&seen, 8)
			s.Disabled = r.bool()
		case "toolsAllow":
			r.once(&seen, 9)
			s.ToolsAllow = r.strings()
		case "toolsDeny":
			r.once(&seen, 10)
			s.ToolsDeny = r.strings()
		case "startupTimeout":
			r.once(&seen, 11)
			s.StartupTimeout = time.Duration(r.int())
		case "toolTimeout":
			r.once(&seen, 12)
			s.ToolTimeout = time.Duration(r.int())
		case "project":
			r.once(&seen, 13)
			s.Project = r.str()
		case "auth":
			r.once(&seen, 14)
			r.unmarshal(&s.Auth)
		case "extra":
			r.once(&seen, 15)
			r.unmarshal(&s.Extra)
		case "origin":
			r.once(&seen, 16)
			r.unmarshal(&s.Origin)
		default:
			r.fail()
		}
	}
}
