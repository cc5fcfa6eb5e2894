package yamledit

import (
	"strings"
	"testing"
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
