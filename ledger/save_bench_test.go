package ledger

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
)

// BenchmarkSave saves the state an export of 10,000 servers to five
// clients leaves: 50,000 entries, each holding its snapshot (shared by
// the five files, as State.NewEntry shares them).
func BenchmarkSave(b *testing.B) {
	st := benchState(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := st.Save(); err != nil {
			b.Fatal(err)
		}
	}
}

// benchState is the state of BenchmarkSave, saved once.
func benchState(b *testing.B) *State {
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
	if err := st.Save(); err != nil {
		b.Fatal(err)
	}
	return st
}

// BenchmarkLoad loads what BenchmarkSave saves: every run of mcpsync
// loads its state first.
func BenchmarkLoad(b *testing.B) {
	st := benchState(b)
	dir := filepath.Dir(st.Path())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(dir); err != nil {
			b.Fatal(err)
		}
	}
}
