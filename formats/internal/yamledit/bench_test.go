package yamledit

import (
	"fmt"
	"testing"
)

// benchServers is 10,000 stdio servers as Continue's list holds them.
func benchServers() []Entry {
	var want []Entry
	for i := range 10000 {
		want = append(want, Entry{Name: fmt.Sprintf("fs-%05d", i), Value: Map{{Key: "name", Value: fmt.Sprintf("fs-%05d", i)}, {Key: "type", Value: "stdio"}, {Key: "command", Value: "npx"},
			{Key: "args", Value: []any{"-y", "@modelcontextprotocol/server-filesystem", fmt.Sprintf("/srv/%d", i)}}, {Key: "env", Value: Map{{Key: "API_KEY", Value: "${{ secrets.API_KEY }}"}}}}})
	}
	return want
}

// BenchmarkEditListNew writes 10,000 servers into a new Continue file.
func BenchmarkEditListNew(b *testing.B) {
	want := benchServers()
	b.ReportAllocs()
	for b.Loop() {
		d, _ := Parse([]byte("name: mcpsync\nversion: 0.0.1\nschema: v1\n"))
		if _, err := d.EditList("mcpServers", "name", want); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEditListOne changes one server and adds one in a file of
// 10,000.
func BenchmarkEditListOne(b *testing.B) {
	want := benchServers()
	d, _ := Parse([]byte("name: mcpsync\nversion: 0.0.1\nschema: v1\n"))
	out, err := d.EditList("mcpServers", "name", want)
	if err != nil {
		b.Fatal(err)
	}
	want[5000].Value = Map{{Key: "name", Value: "fs-05000"}, {Key: "type", Value: "stdio"}, {Key: "command", Value: "uvx"}}
	want = append(want, Entry{Name: "new", Value: Map{{Key: "name", Value: "new"}, {Key: "command", Value: "x"}}})
	b.ReportAllocs()
	for b.Loop() {
		d, _ := Parse(out)
		if _, err := d.EditList("mcpServers", "name", want); err != nil {
			b.Fatal(err)
		}
	}
}
