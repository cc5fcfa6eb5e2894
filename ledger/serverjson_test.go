package ledger

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// FuzzServerJSON: appendServerJSON writes exactly what json.Marshal writes,
// for any server: every hash in every state file depends on it.
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
			if got := appendServerJSON(nil, &s); !bytes.Equal(got, want) {
				t.Fatalf("appendServerJSON:\n%s\njson.Marshal:\n%s", got, want)
			}
		}
	})
}

// The snapshots of a saved state are what json.Marshal wrote before.
func TestSaveSnapshotsAsMarshal(t *testing.T) {
	dir := t.TempDir()
	st := New(dir)
	srv := canonical.Server{Name: "a<b>", Transport: canonical.Stdio, Command: "npx", Env: map[string]string{"K": "${K}"}}
	st.SetManaged("/f.json", "mcpServers", "a<b>", NewEntry("cursor", srv, time.Unix(5, 0).UTC()))
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	back, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := back.Managed("/f.json", "mcpServers")["a<b>"]
	if e == nil || !canonical.Equal(e.Snap(), srv) || e.Hash != Hash(srv) {
		t.Fatalf("entry read back as %+v", e)
	}
	var raw struct {
		Snapshots map[string]json.RawMessage `json:"snapshots"`
	}
	data, err := os.ReadFile(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(Snapshot(srv))
	if got := raw.Snapshots[e.Hash]; !bytes.Equal(got, want) {
		t.Fatalf("snapshot written as %s, want %s", got, want)
	}
}

// FuzzEntryJSON: Entry's MarshalJSON writes what encoding/json writes for
// the same fields without it.
func FuzzEntryJSON(f *testing.F) {
	f.Add("cursor", "abc", "n", int64(0), "", "", true)
	f.Add("", "", "", int64(1700000000123456789), "f<>", "team", false)
	f.Fuzz(func(t *testing.T, client, hash, name string, at int64, from, source string, withServer bool) {
		e := Entry{Client: client, Hash: hash, From: from, Source: source}
		if at != 0 {
			e.At = time.Unix(0, at).UTC()
		}
		if withServer {
			e.Server = &canonical.Server{Name: name, Command: from, Env: map[string]string{source: hash}}
		}
		type plain Entry // the same fields, without the method
		want, werr := json.Marshal(plain(e))
		got, gerr := json.Marshal(&e)
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("errors differ: %v / %v", werr, gerr)
		}
		if werr == nil && !bytes.Equal(got, want) {
			t.Fatalf("MarshalJSON:\n%s\nencoding/json:\n%s", got, want)
		}
	})
}
