package spec_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/spec"
)

// Each encode and decode renders a value with a reference once and reuses
// it for the servers that say it again (refMemo). What is said about the
// value must still be said of each server and field that holds it, as
// when every value was rendered on its own.
func TestRepeatedReferencesWarnEachServer(t *testing.T) {
	cursor := spec.MustAdapter(spec.MustBuiltin("cursor"), nil)
	loc := formats.Location{Scope: canonical.ScopeUser, Path: "/home/u/.cursor/mcp.json", Format: "json"}

	// Decode: ${KEY} is Claude's spelling, which Cursor passes on as text.
	in := `{"mcpServers": {
  "a": {"command": "npx", "args": ["${KEY}"], "env": {"K": "${KEY}"}},
  "b": {"command": "npx", "env": {"K": "${KEY}", "L": "${env:KEY}"}}
}}`
	set, ds := cursor.Decode(loc, []byte(in))
	if ds.HasErrors() || set.Len() != 2 {
		t.Fatalf("decode: %d servers, %v", set.Len(), ds)
	}
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%s %s %d:%d", d.Server, d.Field, d.Line, d.Column))
	}
	want := []string{"a args[0] 2:36", "a env.K 2:60", "b env.K 3:40"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("decode warnings:\n got %v\nwant %v\n%v", got, want, ds)
	}
	for _, s := range set.Servers {
		if s.Env["K"] != "${KEY}" || (s.Name == "b" && s.Env["L"] != "${KEY}") {
			t.Errorf("%s read as %v", s.Name, s.Env)
		}
	}

	// Encode: Cursor has no ${VAR:-default}; the default is dropped with a
	// warning for every field of every server that has one.
	srv := func(name string) canonical.Server {
		return canonical.Server{Name: name, Transport: canonical.Stdio, Command: "npx",
			Args: []string{"--key=${KEY:-x}"}, Env: map[string]string{"K": "${KEY:-x}"}}
	}
	out, eds := cursor.Encode(loc, nil, canonical.Set{Servers: []canonical.Server{srv("a"), srv("b")}}, formats.EncodeOptions{})
	if eds.HasErrors() {
		t.Fatal(eds)
	}
	got = got[:0]
	for _, d := range eds {
		got = append(got, d.Server+" "+d.Field)
	}
	want = []string{"a args[0]", "a env.K", "b args[0]", "b env.K"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("encode warnings:\n got %v\nwant %v\n%v", got, want, eds)
	}
	if n := strings.Count(string(out), `"${env:KEY}"`); n != 2 {
		t.Errorf("encoded env values: %d of 2\n%s", n, out)
	}
	if n := strings.Count(string(out), `"--key=${env:KEY}"`); n != 2 {
		t.Errorf("encoded args: %d of 2\n%s", n, out)
	}
}

// TestEncodeWarnsInFieldOrder: the warnings of a server's env and headers
// come in the order of their keys, the same every run: they came in map
// order, so that two exports of one store printed them in turns.
func TestEncodeWarnsInFieldOrder(t *testing.T) {
	cursor := spec.MustAdapter(spec.MustBuiltin("cursor"), nil)
	loc := formats.Location{Scope: canonical.ScopeUser, Path: "/home/u/.cursor/mcp.json", Format: "json"}
	env := map[string]string{}
	for _, k := range []string{"E", "B", "D", "A", "C", "F", "H", "G"} {
		env[k] = "${" + k + ":-x}"
	}
	srv := canonical.Server{Name: "a", Transport: canonical.Stdio, Command: "npx", Env: env}
	for range 20 {
		_, ds := cursor.Encode(loc, nil, canonical.Set{Servers: []canonical.Server{srv}}, formats.EncodeOptions{})
		var fields []string
		for _, d := range ds {
			fields = append(fields, d.Field)
		}
		if got := strings.Join(fields, " "); got != "env.A env.B env.C env.D env.E env.F env.G env.H" {
			t.Fatalf("warnings in the order %s", got)
		}
	}
}
