package ledger

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

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
