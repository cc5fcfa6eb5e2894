package jsonwrite

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mcpsync/mcpsync/canonical"
)

// FuzzServerJSON: AppendServer writes exactly what json.Marshal writes,
// for any server (every hash in every state file depends on it), and
// AppendServerUnescaped what an Encoder that does not escape HTML writes.
func FuzzServerJSON(f *testing.F) {
	f.Add("fs", "stdio", "npx", "-y", "K", "${K}", "https://x/<&>", "", "\u2028\x00\xff\"\\", int64(0), 0, false, true)
	f.Add("", "", "", "", "", "", "", "i", "", int64(time.Second), 3, true, false)
	f.Fuzz(func(t *testing.T, name, transport, command, arg, k, v, url, clientID, odd string, d int64, n int, disabled, extra bool) {
		srvs := []canonical.Server{
			{Name: name, Transport: canonical.Transport(transport), Command: command, Args: []string{arg, odd}, Env: map[string]string{k: v, odd: arg},
				Cwd: odd, URL: url, Headers: map[string]string{k: odd}, Disabled: disabled, ToolsAllow: []string{odd}, ToolsDeny: []string{k},
				StartupTimeout: time.Duration(d), ToolTimeout: time.Duration(n), Project: odd,
				Origin: canonical.Pos{File: odd, Line: n, Column: int(d % 1000)}},
			{Name: name, Auth: canonical.Auth{BearerTokenEnv: odd}},
			{Name: name, Auth: canonical.Auth{OAuth: &canonical.OAuth{}}},
			{Name: name, Auth: canonical.Auth{BearerTokenEnv: k, OAuth: &canonical.OAuth{ClientID: clientID, ClientSecret: odd, Scopes: []string{v},
				CallbackPort: n, RedirectURI: url, AuthServerMetadataURL: odd, Resource: k}}},
			{Name: name, Auth: canonical.Auth{OAuth: &canonical.OAuth{CallbackPort: n, Resource: odd}}, Origin: canonical.Pos{Line: n}},
			{Name: name, Args: []string{}, Env: map[string]string{}, Origin: canonical.Pos{Column: n}},
		}
		if extra {
			raw, _ := json.Marshal(map[string]any{odd: []any{v, 1.5, nil, true}})
			srvs[0].Extra = map[string]map[string]json.RawMessage{k: {odd: raw, "n": json.RawMessage(`  {"a" : 1}`)}}
		}
		for _, s := range srvs {
			want, err := json.Marshal(s)
			if err != nil {
				return
			}
			if got := AppendServer(nil, &s); !bytes.Equal(got, want) {
				t.Fatalf("AppendServer:\n%s\njson.Marshal:\n%s", got, want)
			}
			var buf bytes.Buffer
			e := json.NewEncoder(&buf)
			e.SetEscapeHTML(false)
			if err := e.Encode(s); err != nil {
				t.Fatal(err)
			}
			want = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
			if got := AppendServerUnescaped(nil, &s); !bytes.Equal(got, want) {
				t.Fatalf("AppendServerUnescaped:\n%s\nan Encoder without HTML escaping:\n%s", got, want)
			}
		}
	})
}

// FuzzExact: exactRule and AppendServerExact say whether a server's bytes
// read back as exactly the server, as reading them back and comparing
// does (the check the caches made of every entry), for any server:
// strings of any bytes, lists and maps nil, empty or not, raw extras of
// any text.
func FuzzExact(f *testing.F) {
	f.Add("fs", "npx", "-y", "K", "v", `{"a":1}`, "o", uint16(0))
	f.Add("\xff", "", "", "", "", `{"a": 1}`, "", uint16(0xffff))
	f.Add("a\u2028", "<&>", "\x00", "k", "\xc3", ` 1`, "f", uint16(0x5555))
	f.Add("n", "c", "a", "k", "v", ``, "f", uint16(0x0f0f))
	// A raw extra whose string holds a byte that is not UTF-8: encoding/json
	// copies it through both ways (CI's fuzzing found the rule said no).
	f.Add("0", "", "", "", "0", "\"\x95\"", "", uint16(0x67ff))
	f.Fuzz(func(t *testing.T, name, command, arg, k, v, raw, file string, shape uint16) {
		bit := func(i int) bool { return shape&(1<<i) != 0 }
		list := func(i int, s string) []string { // nil, empty or one element
			switch {
			case bit(i) && bit(i+1):
				return []string{s}
			case bit(i):
				return []string{}
			}
			return nil
		}
		dict := func(i int) map[string]string {
			switch {
			case bit(i) && bit(i+1):
				return map[string]string{k: v}
			case bit(i):
				return map[string]string{}
			}
			return nil
		}
		s := canonical.Server{Name: name, Transport: canonical.Transport(v), Command: command, Args: list(0, arg), Env: dict(2),
			Cwd: file, URL: v, Headers: dict(4), ToolsAllow: list(6, k), ToolsDeny: list(8, v), Project: k,
			Origin: canonical.Pos{File: file, Line: len(raw)}}
		if bit(10) {
			s.Auth.OAuth = &canonical.OAuth{ClientID: v, Scopes: list(11, arg)}
		}
		switch {
		case bit(13) && bit(14):
			s.Extra = map[string]map[string]json.RawMessage{k: {v: json.RawMessage(raw)}}
		case bit(13):
			s.Extra = map[string]map[string]json.RawMessage{}
		case bit(14):
			s.Extra = map[string]map[string]json.RawMessage{k: nil}
		case bit(15):
			s.Extra = map[string]map[string]json.RawMessage{k: {}}
		}
		roundTrips := func() (ok bool) {
			defer func() {
				if recover() != nil { // an extra that is not JSON
					ok = false
				}
			}()
			var back canonical.Server
			if err := json.Unmarshal(AppendServerUnescaped(nil, &s), &back); err != nil {
				return false
			}
			return reflect.DeepEqual(back, s)
		}()
		if got := exactRule(&s); got != roundTrips {
			t.Fatalf("exactRule %v, read back exactly %v: %#v", got, roundTrips, s)
		}
		b, exact := AppendServerExact([]byte("x"), &s)
		if exact != roundTrips || exact && !bytes.Equal(b, AppendServerUnescaped([]byte("x"), &s)) {
			t.Fatalf("AppendServerExact says %v, read back exactly %v, bytes %s: %#v", exact, roundTrips, b, s)
		}
	})
}

// TestAppendServerExact: each way a server can fail to read back as it is
// (a string that is not UTF-8 in any field, a list or map empty but not
// nil, an extra that is not compact) is found as it is written, as exactRule
// finds it; a server with none of them is exact.
func TestAppendServerExact(t *testing.T) {
	clean := func() canonical.Server {
		return canonical.Server{Name: "a", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y"},
			Env: map[string]string{"K": "v"}, Headers: map[string]string{"H": "1"}, ToolsAllow: []string{"t"},
			Auth: canonical.Auth{OAuth: &canonical.OAuth{ClientID: "c", Scopes: []string{"s"}}}, Project: "/p",
			Origin: canonical.Pos{File: "f", Line: 1}}
	}
	odd := map[string]func(*canonical.Server){
		"name":        func(s *canonical.Server) { s.Name = "a\xff" },
		"arg":         func(s *canonical.Server) { s.Args[0] = "\xc3" },
		"env value":   func(s *canonical.Server) { s.Env["K"] = "\x80" },
		"header key":  func(s *canonical.Server) { s.Headers["\xfe"] = "1" },
		"client id":   func(s *canonical.Server) { s.Auth.OAuth.ClientID = "\xed\xa0\x80" },
		"origin file": func(s *canonical.Server) { s.Origin.File = "\xff" },
		"empty args":  func(s *canonical.Server) { s.Args = []string{} },
		"empty env":   func(s *canonical.Server) { s.Env = map[string]string{} },
		"empty deny":  func(s *canonical.Server) { s.ToolsDeny = []string{} },
		"empty scope": func(s *canonical.Server) { s.Auth.OAuth.Scopes = []string{} },
		"empty extra": func(s *canonical.Server) { s.Extra = map[string]map[string]json.RawMessage{} },
		"spaced raw":  func(s *canonical.Server) { s.SetExtra("c", "k", json.RawMessage(`{"a": 1}`)) },
		"not json":    func(s *canonical.Server) { s.SetExtra("c", "k", json.RawMessage(`{"a`)) },
	}
	s := clean()
	if b, exact := AppendServerExact(nil, &s); !exact || !exactRule(&s) || !bytes.Equal(b, AppendServerUnescaped(nil, &s)) {
		t.Fatalf("a clean server: AppendServerExact %v, exactRule %v, bytes %s", exact, exactRule(&s), b)
	}
	for name, change := range odd {
		s := clean()
		change(&s)
		if _, exact := AppendServerExact(nil, &s); exact || exactRule(&s) {
			t.Errorf("%s: AppendServerExact %v, exactRule %v", name, exact, exactRule(&s))
		}
	}
}

// exactRule is AppendServerExact's rule checked field by field, for the tests
// to hold it to: every string UTF-8, no list or map empty but not nil,
// Extra as exactExtra says.
func exactRule(s *canonical.Server) bool {
	return utf8.ValidString(s.Name) && utf8.ValidString(string(s.Transport)) && utf8.ValidString(s.Command) &&
		exactList(s.Args) && exactMap(s.Env) && utf8.ValidString(s.Cwd) &&
		utf8.ValidString(s.URL) && exactMap(s.Headers) && exactList(s.ToolsAllow) && exactList(s.ToolsDeny) &&
		exactAuth(s.Auth) && exactExtra(s.Extra) && utf8.ValidString(s.Project) && utf8.ValidString(s.Origin.File)
}

func exactAuth(a canonical.Auth) bool {
	if !utf8.ValidString(a.BearerTokenEnv) {
		return false
	}
	o := a.OAuth
	return o == nil || utf8.ValidString(o.ClientID) && utf8.ValidString(o.ClientSecret) && exactList(o.Scopes) &&
		utf8.ValidString(o.RedirectURI) && utf8.ValidString(o.AuthServerMetadataURL) && utf8.ValidString(o.Resource)
}

func exactList(l []string) bool {
	if l != nil && len(l) == 0 {
		return false
	}
	for _, s := range l {
		if !utf8.ValidString(s) {
			return false
		}
	}
	return true
}

func exactMap(m map[string]string) bool {
	if m != nil && len(m) == 0 {
		return false
	}
	for k, v := range m {
		if !utf8.ValidString(k) || !utf8.ValidString(v) {
			return false
		}
	}
	return true
}
