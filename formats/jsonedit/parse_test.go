package jsonedit

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

// FuzzParseTree checks that parseTree makes exactly hujson's tree (nil and
// empty extras told apart, as hujson's packing does) or hujson's error, on
// any input.
func FuzzParseTree(f *testing.F) {
	for _, s := range seedFiles(f) {
		f.Add(s)
	}
	for _, s := range []string{
		`{}`, `{ }`, `[]`, `[ ]`, `{"a":1,}`, `{"a":1 ,}`, `{"a":1, }`, `[1,]`, `[1 , ]`,
		`{"a" : [ {"b":null} , true ] }`, ` "x" `, `"\u00e9\"\\"`, `"é"`, "\"\xff\"", "\"a\x01\"",
		`{"a":1}//c`, `{"a":/*c*/1}`, `{"a":1`, `{"a"`, `{"a":}`, `{1:2}`, `[}`, `{]`, `"\`, `-`, `+1`, `1e`,
		`{"a":1}}`, `[1 2]`, `{"a":1 "b":2}`, "\t{\r\n\"a\"\t:\t\"b\"\r\n}\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		want, wantErr := hujson.Parse(in)
		got, gotErr := parseTreeFast(in) // at any size: parseTree takes small texts to hujson
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Fatalf("error %v, hujson's %v", gotErr, wantErr)
		}
		if wantErr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("tree differs from hujson's:\n got %#v\nwant %#v", got, want)
		}
	})
}

// TestParseTreeLargeLists checks lists longer than a slab's share, and
// many small ones in a row, against hujson.
func TestParseTreeLargeLists(t *testing.T) {
	var b strings.Builder
	b.WriteString("{\n  \"servers\": {\n")
	for i := range 1000 {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `    "s%d": {"command": "npx", "args": ["-y", "pkg%d", "--flag"], "env": {"K": "v"}, "n": %d}`, i, i, i)
	}
	b.WriteString("\n  },\n  \"list\": [")
	for i := range 300 {
		fmt.Fprintf(&b, "%d, ", i)
	}
	b.WriteString("0]\n}\n")
	in := []byte(b.String())
	want, err := hujson.Parse(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(in) < treeFastFrom {
		t.Fatalf("%d bytes: below the fast path", len(in))
	}
	got, err := parseTree(in)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("tree differs from hujson's")
	}
	// Each list has no room beyond its own values: an append to one
	// must not write into the next.
	o := got.Value.(*hujson.Object).Members[0].Value.Value.(*hujson.Object)
	for _, m := range o.Members[:3] {
		if inner := m.Value.Value.(*hujson.Object); cap(inner.Members) != len(inner.Members) {
			t.Fatalf("members of %s: cap %d, len %d", m.Name.Value, cap(inner.Members), len(inner.Members))
		}
	}
}

func BenchmarkParseTree(b *testing.B) {
	// A small file, as most are: the fast path must not cost more.
	small := []byte(`{
  "mcpServers": {
    "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"], "env": {"GITHUB_TOKEN": "${GITHUB_TOKEN}"}},
    "linear": {"type": "http", "url": "https://mcp.linear.app/mcp"}
  }
}
`)
	for name, parse := range map[string]func([]byte) (hujson.Value, error){"hujson": hujson.Parse, "parseTreeFast": parseTreeFast} {
		b.Run("small/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := parse(small); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	var sb strings.Builder
	sb.WriteString("{\n  \"mcpServers\": {\n")
	for i := range 10000 {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, "    \"fs-%05d\": {\n      \"command\": \"npx\",\n      \"args\": [\n        \"-y\",\n        \"@modelcontextprotocol/server-filesystem\",\n        \"/srv/%d\"\n      ],\n      \"env\": {\n        \"API_KEY\": \"${API_KEY}\"\n      }\n    }", i, i)
	}
	sb.WriteString("\n  }\n}\n")
	in := []byte(sb.String())
	b.Run("hujson", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := hujson.Parse(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("parseTree", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := parseTree(in); err != nil {
				b.Fatal(err)
			}
		}
	})
}
