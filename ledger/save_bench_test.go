package ledger

import (
	"fmt"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// BenchmarkSave saves the state an export of 10,000 servers to five
// clients leaves: 50,000 entries, each holding its snapshot (shared by
// the five files, as State.NewEntry shares them).
func BenchmarkSave(b *testing.B) {
	st := New(b.TempDir())
	st.Files = map[string]*File{}
	at := time.Unix(1700000000, 0).UTC()
	servers := make([]canonical.Server, 10000)
	for i := range servers {
		servers[i] = canonical.Server{Name: fmt.Sprintf("fs-%05d", i), Transport: canonical.Stdio, Command: "npx",
			Args: []string{"-y", "@modelcontextprotocol/server-filesystem", fmt.Sprintf("/srv/%d", i)},
			Env:  map[string]string{"API_KEY": "${API_KEY}"}}
	}
	for f, client := range []string{"claude-code", "cursor", "vscode", "codex", "opencode"} {
		managed := make(map[string]*Entry, len(servers))
		for _, srv := range servers {
			managed[srv.Name] = st.NewEntry(client, srv, at)
		}
		st.Files[fmt.Sprintf("/home/u/proj/file%d", f)] = &File{SHA256: "x", Written: at, Sections: map[string]*Section{"": {Managed: managed}}}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := st.Save(); err != nil {
			b.Fatal(err)
		}
	}
}
