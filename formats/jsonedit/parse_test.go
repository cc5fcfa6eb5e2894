package jsonedit

import (
	"fmt"
	"reflect"
	"strconv"
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

// A string that common knows decodes as any other: the same text, and
// without a copy of its own; the switch names every commonStrings entry
// at its place; and a tree that shares their literals reads and places
// each member as written.
func TestCommonStringsDecodeAsWritten(t *testing.T) {
	for i, s := range commonStrings {
		if got := common([]byte(s)); got != i {
			t.Fatalf("common(%q) = %d, want %d: the switch and commonStrings differ", s, got, i)
		}
	}
	for _, s := range []string{"command", "args", "env", "type", "url", "headers", "Authorization", "-y", "npx", "commands", "Command", "", "stdio "} {
		lit := hujson.Literal(strconv.Quote(s))
		if got := unquote(lit); got != s {
			t.Fatalf("unquote(%s) = %q, want %q", lit, got, s)
		}
	}
	lit := hujson.Literal(`"command"`)
	if n := testing.AllocsPerRun(100, func() { unquote(lit) }); n != 0 {
		t.Errorf("unquote of a common name: %v allocations, want 0", n)
	}
	src := `{"a": {"command": "npx", "args": ["-y", "x"]}, "b": {"type": "sse", "url": "u", "command": "npx"}}`
	d, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range d.Root().Members() {
		for _, f := range m.Value.Members() {
			if got := string(f.Key.Raw()); got != strconv.Quote(f.Name) {
				t.Errorf("%s.%s: key at its place reads %s", m.Name, f.Name, got)
			}
			if text, ok := f.Value.Text(); ok && string(f.Value.Raw()) != strconv.Quote(text) {
				t.Errorf("%s.%s: value %q at its place reads %s", m.Name, f.Name, text, f.Value.Raw())
			}
		}
	}
	if got, _ := d.Root().Get("b").Get("command").Text(); got != "npx" {
		t.Errorf("b.command = %q, want npx", got)
	}
}
