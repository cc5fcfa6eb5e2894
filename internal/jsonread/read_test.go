package jsonread

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// serverReads reads data as one canonical.Server with the fast reader.
func serverReads(data []byte) (canonical.Server, bool) {
	var s canonical.Server
	r := New(data)
	r.Server(&s)
	return s, r.End()
}

// TestServerTakesWhatMarshalWrites: json.Marshal's own output takes the
// fast path, so FuzzServer's equality is not met by always giving up.
func TestServerTakesWhatMarshalWrites(t *testing.T) {
	for _, s := range []canonical.Server{
		{Name: "fs", Transport: canonical.Stdio, Command: "npx", Args: []string{"-y", "pkg", "é\"\\\n"},
			Env: map[string]string{"K": "${env:K}"}, Cwd: "/w", ToolsAllow: []string{"a"}, ToolsDeny: []string{},
			StartupTimeout: 10 * time.Second, ToolTimeout: -1, Project: "/p",
			Origin: canonical.Pos{File: "/p/.mcp.json", Line: 3, Column: 5}},
		{Name: "remote", Transport: canonical.HTTP, URL: "https://x/mcp",
			Headers: map[string]string{"Authorization": "Bearer ${T}"}, Disabled: true,
			Extra: map[string]map[string]json.RawMessage{"cursor": {"alwaysAllow": json.RawMessage(`["x"]`)}}},
		{},
	} {
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := serverReads(data)
		if !ok {
			t.Fatalf("the fast reader gave up on json.Marshal's %s", data)
		}
		var want canonical.Server
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", data, got, want)
		}
	}
}

// FuzzServer: where the fast reader takes a text, encoding/json reads it
// without error and to the same server.
func FuzzServer(f *testing.F) {
	f.Add([]byte(`{"name":"a","args":["x"],"env":{"K":"v"},"origin":{"file":"f","line":1,"column":2}}`))
	f.Add([]byte(`{"name":"a\u00e9","startupTimeout":-10,"extra":{"k":[1,{"x":"}"}]},"auth":null}`))
	f.Add([]byte(`{"env":{"K":"v","K":"w"},"disabled":true}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := serverReads(data)
		if !ok {
			return
		}
		var want canonical.Server
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("the fast reader took %q, which encoding/json refuses: %v", data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v", data, got, want)
		}
	})
}

// Time and StrAs give what they read, whatever they read before (each
// keeps the last value to give it again without parsing or allocating).
func TestTimeAndStrAsReadEachValue(t *testing.T) {
	times := []string{`"2026-12-05T11:08:51.346244178Z"`, `"2026-12-05T11:08:51.346244178Z"`, `"2026-12-05T11:08:51.346244179Z"`,
		`"2026-12-05T12:08:51.346244178+01:00"`, `"2026-12-05T11:08:51.346244178Z"`}
	r := New([]byte("[" + strings.Join(times, ",") + "]"))
	r.Expect('[')
	for i, text := range times {
		r.Elem(i)
		var want time.Time
		if err := want.UnmarshalJSON([]byte(text)); err != nil {
			t.Fatal(err)
		}
		if got := r.Time(); !got.Equal(want) || got.Location().String() != want.Location().String() || got.String() != want.String() {
			t.Errorf("time %d: read %v, want %v", i, got, want)
		}
	}
	if bad := New([]byte(`"2026-13-05T11:08:51Z"`)); !bad.Time().IsZero() || bad.OK() {
		t.Error("a time out of range was taken")
	}
	words := []string{"cursor", "cursor", "codex", "", "cursor"}
	quoted := make([]string, len(words))
	for i, w := range words {
		quoted[i] = strconv.Quote(w)
	}
	r = New([]byte("[" + strings.Join(quoted, ",") + "]"))
	r.Expect('[')
	var last string
	for i, w := range words {
		r.Elem(i)
		if got := r.StrAs(&last); got != w || last != w {
			t.Errorf("string %d: read %q (last %q), want %q", i, got, last, w)
		}
	}
}
