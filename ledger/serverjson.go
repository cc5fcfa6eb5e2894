package ledger

import (
	"encoding/json"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/mcpsync/mcpsync/canonical"
)

// appendServerJSON appends s as encoding/json's Marshal writes it, byte for
// byte: the same field order, omitempty and omitzero, escaping and sorted
// map keys. Every server's hash is a SHA-256 of those bytes, and a ledger
// of 10,000 servers in five clients hashes 50,000 entries a run and writes
// as many snapshots; reflection was most of that cost. FuzzServerJSON holds
// the equality.
func appendServerJSON(b []byte, s *canonical.Server) []byte {
	b = append(b, `{"name":`...)
	b = appendJSONString(b, s.Name)
	b = append(b, `,"transport":`...)
	b = appendJSONString(b, string(s.Transport))
	b = appendStringField(b, "command", s.Command)
	b = appendListField(b, "args", s.Args)
	b = appendMapField(b, "env", s.Env)
	b = appendStringField(b, "cwd", s.Cwd)
	b = appendStringField(b, "url", s.URL)
	b = appendMapField(b, "headers", s.Headers)
	if s.Disabled {
		b = append(b, `,"disabled":true`...)
	}
	b = appendListField(b, "toolsAllow", s.ToolsAllow)
	b = appendListField(b, "toolsDeny", s.ToolsDeny)
	b = appendDurationField(b, "startupTimeout", s.StartupTimeout)
	b = appendDurationField(b, "toolTimeout", s.ToolTimeout)
	if s.Auth != (canonical.Auth{}) {
		b = append(b, `,"auth":{`...)
		mark := len(b)
		if s.Auth.BearerTokenEnv != "" {
			b = append(b, `"bearerTokenEnv":`...)
			b = appendJSONString(b, s.Auth.BearerTokenEnv)
		}
		if o := s.Auth.OAuth; o != nil {
			if len(b) > mark {
				b = append(b, ',')
			}
			b = append(b, `"oauth":{`...)
			inner := len(b)
			b = appendStringField(b, "clientId", o.ClientID)
			b = appendStringField(b, "clientSecret", o.ClientSecret)
			b = appendListField(b, "scopes", o.Scopes)
			if o.CallbackPort != 0 {
				b = append(b, `,"callbackPort":`...)
				b = strconv.AppendInt(b, int64(o.CallbackPort), 10)
			}
			b = appendStringField(b, "redirectUri", o.RedirectURI)
			b = appendStringField(b, "authServerMetadataUrl", o.AuthServerMetadataURL)
			b = appendStringField(b, "resource", o.Resource)
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
		data, err := json.Marshal(s.Extra)
		if err != nil {
			panic("state: cannot marshal extra: " + err.Error())
		}
		b = append(b, `,"extra":`...)
		b = append(b, data...)
	}
	b = appendStringField(b, "project", s.Project)
	if s.Origin != (canonical.Pos{}) {
		b = append(b, `,"origin":{`...)
		inner := len(b)
		b = appendStringField(b, "file", s.Origin.File)
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

func appendStringField(b []byte, key, v string) []byte {
	if v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, '"', ':')
	return appendJSONString(b, v)
}

func appendListField(b []byte, key string, v []string) []byte {
	if len(v) == 0 {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, `":[`...)
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, x)
	}
	return append(b, ']')
}

func appendMapField(b []byte, key string, m map[string]string) []byte {
	if len(m) == 0 {
		return b
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, ',', '"')
	b = append(b, key...)
	b = append(b, `":{`...)
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendJSONString(b, k)
		b = append(b, ':')
		b = appendJSONString(b, m[k])
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

// appendJSONString is encoding/json's string encoding with HTML escaping
// (Marshal's default): the same escapes, U+FFFD for bytes that are not
// UTF-8, U+2028 and U+2029 escaped.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if plainJSON[c] {
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

// MarshalJSON writes the entry as encoding/json would without this method
// (FuzzEntryJSON holds that): by hand, because a state file holds an entry
// per server per client file, and reflection was most of the cost of
// saving it.
func (e *Entry) MarshalJSON() ([]byte, error) {
	return appendEntry(make([]byte, 0, 160), e, true, nil)
}

// appendEntry appends e as Entry.MarshalJSON writes it; without its
// server unless withServer.
func appendEntry(b []byte, e *Entry, withServer bool, times *timeMemo) ([]byte, error) {
	b = append(b, '{')
	if e.Client != "" {
		b = append(b, `"client":`...)
		b = appendJSONString(b, e.Client)
		b = append(b, ',')
	}
	b = append(b, `"hash":`...)
	b = appendJSONString(b, e.Hash)
	if withServer && e.Server != nil {
		b = append(b, `,"server":`...)
		b = appendServerJSON(b, e.Server)
	}
	if !e.At.IsZero() {
		var err error
		if b, err = times.append(append(b, `,"at":`...), e.At); err != nil {
			return nil, err
		}
	}
	b = appendStringField(b, "from", e.From)
	b = appendStringField(b, "source", e.Source)
	return append(b, '}'), nil
}
