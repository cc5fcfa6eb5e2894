package canonical

import (
	"encoding/json"
	"testing"
	"time"
)

// FuzzEqual: Equal's comparison without copies says what the comparison of
// normalized copies says, for pairs that differ in one way or none.
func FuzzEqual(f *testing.F) {
	f.Add("a", "", "npx", "x", "K", "v", "", "", uint8(0), false)
	f.Add("a", "http", "", "", "", "", "https://h", "T", uint8(3), true)
	f.Add("a", "", "", "", "", "", "https://h", "", uint8(7), false)
	f.Fuzz(func(t *testing.T, name, transport, command, arg, k, v, url, token string, change uint8, empties bool) {
		a := Server{Name: name, Transport: Transport(transport), Command: command, URL: url, Args: []string{arg}, Env: map[string]string{k: v}}
		if token != "" {
			a.Auth.BearerTokenEnv = token
		}
		a.SetExtra("c", "k", json.RawMessage(`{"a": 1}`))
		b := a.Clone()
		switch change % 12 {
		case 1:
			b.Transport = ""
		case 2:
			b.Args = nil
		case 3:
			b.Headers = map[string]string{"Authorization": "Bearer ${" + token + "}"}
			b.Auth.BearerTokenEnv = ""
		case 4:
			b.Env = map[string]string{}
		case 5:
			b.Auth.OAuth = &OAuth{}
		case 6:
			b.Auth.OAuth = &OAuth{Scopes: []string{}}
		case 7:
			b.Extra = map[string]map[string]json.RawMessage{"c": {"k": json.RawMessage(`{"a":1}`)}, "d": {}}
		case 8:
			b.StartupTimeout = time.Second
		case 9:
			b.Origin = Pos{File: "x", Line: 1}
		case 10:
			b.Command = ""
		case 11:
			b.Extra = nil
		}
		if empties {
			b.ToolsAllow, b.ToolsDeny = []string{}, []string{}
		}
		for _, extra := range [][]string{nil, {"c"}, {"c", "d"}} {
			if got, want := Equal(a, b, extra...), equalNormalized(a, b, extra); got != want {
				t.Fatalf("Equal = %v, normalized copies say %v (extra %v)\n%+v\n%+v", got, want, extra, a, b)
			}
			if got, want := Equal(b, a, extra...), equalNormalized(b, a, extra); got != want {
				t.Fatalf("Equal(b, a) = %v, normalized copies say %v (extra %v)", got, want, extra)
			}
		}
	})
}
