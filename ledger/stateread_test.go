package ledger

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// savedState is a state as Save writes it for a few servers in two files,
// a sync base, a conflict and every server field set: the shape the fast
// reader takes.
func savedState(t testing.TB, a, b string) []byte {
	t.Helper()
	at := time.Unix(1700000000, 123456789).UTC()
	srv := canonical.Server{Name: a, Transport: canonical.Stdio, Command: b, Args: []string{a, b, ""}, Env: map[string]string{a: b, "K": ""},
		Cwd: b, Disabled: true, ToolsAllow: []string{a}, ToolsDeny: []string{}, StartupTimeout: 5 * time.Second, ToolTimeout: -1, Project: b,
		Auth:  canonical.Auth{BearerTokenEnv: a, OAuth: &canonical.OAuth{ClientID: b, Scopes: []string{a}, CallbackPort: 3}},
		Extra: map[string]map[string]json.RawMessage{"cursor": {a: json.RawMessage(`{"x":[1,2.5,null,true]}`)}}}
	remote := canonical.Server{Name: b, Transport: canonical.HTTP, URL: "https://e.com/" + a, Headers: map[string]string{"Authorization": "Bearer ${" + b + "}"}}
	st := New(t.TempDir())
	for i, path := range []string{"/home/u/.cursor/mcp.json", "/p/" + a + "/.mcp.json"} {
		f := st.EnsureFile(path)
		f.SHA256, f.Written, f.Created = HashBytes([]byte(path)), at, i == 0
		f.AddedKeys = map[string]int{"": 1}
		f.CreatedDirs = []string{"/p/" + b}
		st.SetManaged(path, "", srv.Name, NewEntry("cursor", srv, at))
		st.SetManaged(path, b, remote.Name, NewEntry("claude-code", remote, at))
	}
	st.SetBase("/s/mcpsync.hcl", a, NewEntry("", srv, at))
	// What two-way sync remembers: each client's version, and a removal.
	st.SetClientBase("/s/mcpsync.hcl", "/home/u/.cursor/mcp.json", srv.Name, NewEntry("cursor", srv, at))
	st.SetClientBase("/s/mcpsync.hcl", "/p/"+a+"/.mcp.json\x00"+b, remote.Name, NewEntry("claude-code", remote, at))
	st.SetDeleted("/s/mcpsync.hcl", b+"-gone", NewEntry("", remote, at))
	st.SetConflict("/s/mcpsync.hcl", b, &Conflict{At: at, Sides: []ConflictSide{{Side: "store", Server: &remote}, {Side: "cursor", Removed: true}}})
	if err := st.Save(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(st.Path())
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestDecodeStateTakesWhatSaveWrites: a file Save wrote is read by the
// fast reader (not handed to encoding/json), into what encoding/json
// reads from it.
func TestDecodeStateTakesWhatSaveWrites(t *testing.T) {
	for _, names := range [][2]string{{"a", "b"}, {`q"\<`, "é\x01\u2028"}} {
		data := savedState(t, names[0], names[1])
		var fast State
		if !decodeStateFast(data, &fast) {
			t.Fatalf("the fast reader gave up on a state Save wrote:\n%s", data)
		}
		checkDecodeState(t, data)
	}
}

func FuzzDecodeState(f *testing.F) {
	f.Add(savedState(f, "a", "b"))
	f.Add(savedState(f, "\xff", "\\u00e9"))
	for _, st := range []*State{{Version: Version}, stateOf("a", "b", 1), stateOf(`q"\<`, "é\x01", 0)} {
		data, err := appendState(nil, st)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"Version":1,"files":{"x":{"sha256":"a","sha256":"b"}}}`))
	f.Add([]byte(`{"version":1e0,"snapshots":{"h":{"name":"n","args":null,"startupTimeout":1.5}}} `))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecodeState(t, data)
	})
}

// checkDecodeState: decodeState and json.Unmarshal agree on data, in the
// result and in whether it is an error.
func checkDecodeState(t *testing.T, data []byte) {
	t.Helper()
	want, got := New("/d"), New("/d")
	werr := json.Unmarshal(data, want)
	gerr := decodeState(data, got)
	if (werr != nil) != (gerr != nil) {
		t.Fatalf("errors differ: encoding/json %v, decodeState %v\n%q", werr, gerr, data)
	}
	if werr == nil && !reflect.DeepEqual(want, got) {
		t.Fatalf("decodeState reads differently from encoding/json\n%q\nencoding/json: %+v\ndecodeState:   %+v", data, want, got)
	}
}
