package yamledit

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// FuzzRenderAll holds renderAll's encoding of many entries at once equal to
// rendering each alone, as the edits did before: for list and map
// sections, in files indented by 2 or 4, with compact sequences or not,
// whatever the values hold (line breaks, long lines, quotes, keys that
// need quoting, nested lists and maps, numbers as text).
func FuzzRenderAll(f *testing.F) {
	for _, s := range [][3]string{
		{"plain", "uvx", "/srv/1"},
		{"a\nb\n", "line one\nline two", ""},
		{strings.Repeat("long words ", 20), "- dash", "key: value"},
		{"#hash", "'quoted'", "\"dq\" \\ back"},
		{"123", "true", "null"},
		{"  lead and trail  ", "\t", "é ü 中"},
	} {
		for _, doc := range []string{"mcpServers:\n  - name: a\n", "mcpServers:\n- name: a\n", "x:\n    y: 1\n", ""} {
			f.Add(doc, s[0], s[1], s[2], uint8(3))
		}
	}
	f.Fuzz(func(t *testing.T, doc, a, b, c string, n uint8) {
		d, err := Parse([]byte(doc))
		if err != nil || len(doc) > 1<<10 {
			return
		}
		values := []string{a, b, c}
		var want []Entry
		for i := range int(n%5) + 1 {
			v := values[i%3]
			var m Map
			switch i % 4 {
			case 0:
				m = Map{{Key: "name", Value: v}, {Key: "command", Value: b}, {Key: "args", Value: []any{a, c, int64(i)}}}
			case 1:
				m = Map{{Key: "name", Value: "n" + v}, {Key: "url", Value: c}, {Key: "headers", Value: Map{{Key: a, Value: b}}}}
			case 2:
				m = Map{{Key: "name", Value: v + "x"}, {Key: "env", Value: Map{}}, {Key: "args", Value: []any{}}, {Key: "on", Value: true}}
			default:
				m = Map{{Key: "name", Value: c + a}, {Key: v, Value: []any{Map{{Key: "k", Value: a}}, 1.5}}}
			}
			want = append(want, Entry{Name: v + string(rune('a'+i)), Value: m})
		}
		defer func(was int) { renderChunk = was }(renderChunk)
		for _, chunk := range []int{64, 2} { // 2: entries encoded in several chunks
			renderChunk = chunk
			for _, nameKey := range []string{"name", ""} {
				for _, ind := range []int{0, 2, 4} {
					e := &editor{d: d, section: "s", nameKey: nameKey}
					got := e.renderAll(want, ind)
					if e.err != nil {
						continue
					}
					pad := strings.Repeat(" ", ind)
					var each strings.Builder
					for _, w := range want {
						each.WriteString(pad + e.render(w, ind))
					}
					if e.err == nil && got != each.String() {
						t.Fatalf("chunk %d, nameKey %q, indent %d: one encoding\n%q\nentry by entry\n%q", chunk, nameKey, ind, got, each.String())
					}
				}
			}
		}
	})
}

// FuzzFastEntry holds fastEntry's text equal to yaml.v3's for every entry
// it takes: as a list item and as a pair, in files indented by 2 with
// compact sequences or not, and checks that it takes the usual servers.
func FuzzFastEntry(f *testing.F) {
	for _, s := range [][4]string{
		{"npx", "-y", "@modelcontextprotocol/server-filesystem", "/srv/1"},
		{"API_KEY", "${{ secrets.API_KEY }}", "https://mcp1.example.com/mcp", "Bearer ${{ secrets.TOKEN }}"},
		{"yes", "No", "-", "@"}, {"a: b", "a #b", "a:b", "x:"}, {"123", "1.5", "0x1F", "-1"},
		{"é", "a  b", "'q'", "\"dq\""}, {"$HOME", "/", "_x", "-yes"},
		{strings.Repeat("word ", 16), "streamable-http", "a/b.c-d_e", "${{ inputs.x }}"},
	} {
		f.Add(s[0], s[1], s[2], s[3], uint8(0))
	}
	docs := []string{"mcpServers:\n  - name: a\n", "mcpServers:\n- name: a\n"}
	f.Fuzz(func(t *testing.T, a, b, c, k string, shape uint8) {
		var v Map
		switch shape % 4 {
		case 0:
			v = Map{{Key: "name", Value: a}, {Key: "type", Value: "stdio"}, {Key: "command", Value: b},
				{Key: "args", Value: []any{a, b, c}}, {Key: "env", Value: Map{{Key: "API_KEY", Value: c}}}}
		case 1:
			v = Map{{Key: "name", Value: a}, {Key: "url", Value: b}, {Key: "requestOptions", Value: Map{{Key: "headers", Value: Map{{Key: k, Value: c}}}}}}
		case 2:
			v = Map{{Key: k, Value: a}, {Key: "args", Value: []string{b, c}}, {Key: "on", Value: true}, {Key: "n", Value: int64(len(a))}}
		default:
			v = Map{{Key: "env", Value: Map{{Key: k, Value: a}, {Key: "B", Value: b}}}, {Key: "cwd", Value: c}}
		}
		for _, doc := range docs {
			d, err := Parse([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			for _, item := range []bool{true, false} {
				got, ok := d.fastEntry(k, v, item)
				if !ok {
					continue
				}
				var n *yaml.Node
				if item {
					n = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{toNode(v, false)}}
				} else {
					n = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{strNode(k), toNode(v, false)}}
				}
				want, err := d.encode(n)
				if err != nil || got != want {
					t.Fatalf("compact %v, item %v: fastEntry wrote\n%s\nyaml.v3 (%v)\n%s", d.compact(), item, got, err, want)
				}
			}
		}
	})
}

// The usual servers take the fast way (or it would save nothing).
func TestFastEntryTakesUsualServers(t *testing.T) {
	d, err := Parse([]byte("mcpServers:\n  - name: a\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []Map{
		{{Key: "name", Value: "fs"}, {Key: "type", Value: "stdio"}, {Key: "command", Value: "npx"},
			{Key: "args", Value: []any{"-y", "@modelcontextprotocol/server-filesystem", "/srv/0"}},
			{Key: "env", Value: Map{{Key: "API_KEY", Value: "${{ secrets.API_KEY }}"}}}},
		{{Key: "name", Value: "remote"}, {Key: "type", Value: "streamable-http"}, {Key: "url", Value: "https://mcp1.example.com/mcp"},
			{Key: "requestOptions", Value: Map{{Key: "headers", Value: Map{{Key: "Authorization", Value: "Bearer ${{ secrets.TOKEN }}"}}}}}},
	} {
		if _, ok := d.fastEntry("x", v, true); !ok {
			t.Errorf("not taken: %v", v)
		}
	}
}
