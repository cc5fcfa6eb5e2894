package formatstest

import (
	"testing"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
)

// BenchEncodeOneChange measures the edit of a large file (data, at loc):
// the 101st server's args change and a new server is added, so that Encode
// splices, decodes again and verifies the whole file.
func BenchEncodeOneChange(b *testing.B, a formats.Adapter, loc formats.Location, data []byte) {
	set, ds := a.Decode(loc, data)
	if ds.HasErrors() || set.Len() <= 100 {
		b.Fatalf("%d servers, %v", set.Len(), ds.Err())
	}
	set.Servers[100].Args = append(set.Servers[100].Args, "--verbose")
	set.Put(canonical.Server{Name: "new", Command: "uvx", Args: []string{"mcp-server-git"}})
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		out, ds := a.Encode(loc, data, set, formats.EncodeOptions{})
		if ds.HasErrors() || len(out) <= len(data) {
			b.Fatal(ds.Err())
		}
	}
}
