package canonical

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzNormalize: Normalize never panics, is idempotent, keeps the server
// Equal to itself, and Validate of any server never panics and points
// every problem at the server's origin.
func FuzzNormalize(f *testing.F) {
	f.Add("gh", "", "npx", "-y", "K", "${TOKEN}", "", "", "", false, int64(0))
	f.Add("web", "http", "", "", "", "", "https://mcp.example.com/mcp", "Authorization", "Bearer ${T}", false, int64(30))
	f.Add("bad", "sse", "x", "a", "", "", "ftp://h", "", "", true, int64(-1))
	f.Add("", "stdio", " ", "", "", "v", "", "", "", false, int64(1))
	f.Fuzz(func(t *testing.T, name, transport, command, arg, envKey, envVal, url, hk, hv string, disabled bool, secs int64) {
		s := Server{Name: name, Transport: Transport(transport), Command: command, URL: url, Disabled: disabled,
			StartupTimeout: time.Duration(secs) * time.Second, Origin: Pos{File: "f", Line: 3, Column: 5}}
		if arg != "" {
			s.Args = []string{arg}
		}
		s.Env = map[string]string{}
		if envKey != "" || envVal != "" {
			s.Env[envKey] = envVal
		}
		if hk != "" {
			s.Headers = map[string]string{hk: hv}
			s.Auth.BearerTokenEnv = envKey
		}
		s.SetExtra("c", "k", json.RawMessage(`{"a":1}`))
		if disabled {
			s.Extra["empty"] = map[string]json.RawMessage{}
		}
		if secs%3 == 0 {
			s.Auth.OAuth = &OAuth{ClientID: arg, Scopes: []string{}}
		}
		once := s.Clone()
		once.Normalize()
		// Normalized is the same, and leaves s as it was.
		was := mustJSON(t, s)
		if got, want := mustJSON(t, s.Normalized()), mustJSON(t, once); got != want {
			t.Fatalf("Normalized differs from Normalize:\n%s\n%s", got, want)
		}
		if now := mustJSON(t, s); now != was {
			t.Fatalf("Normalized changed the server it was given:\n%s\n%s", was, now)
		}
		twice := once.Clone()
		twice.Normalize()
		a, _ := json.Marshal(once)
		b, _ := json.Marshal(twice)
		if string(a) != string(b) {
			t.Fatalf("Normalize is not idempotent:\n%s\n%s", a, b)
		}
		if !Equal(s, once, "c") || !Equal(once, s, "c") {
			t.Fatalf("a normalized server is not Equal to itself:\n%+v\n%+v", s, once)
		}
		for _, d := range once.Validate() {
			if d.File != "f" || d.Line != 3 {
				t.Fatalf("problem without the server's place: %v", d)
			}
		}
	})
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
