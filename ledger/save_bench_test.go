package ledger

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/internal/benchgoal"
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

// BenchmarkLoadSynced loads the state a two-way sync leaves with 10,000
// servers in five clients' files (each file's entries, the bases, and
// sync's own record of each client's version), against the state an
// export leaves (BenchmarkLoad's): x-exported at most 4. Read by
// encoding/json's rules, sync's record made it 5 times as long; by the
// state's own reader 3.0 to 3.9, while sync's entries kept their servers
// (three times the bytes); 1.8 since they point to the shared snapshots as
// the files' entries do (state version 2).
func BenchmarkLoadSynced(b *testing.B) {
	exported := benchState(b)
	synced := benchState(b)
	at := time.Unix(1700000000, 0).UTC()
	for path, f := range synced.Files {
		for name, e := range f.Sections[""].Managed {
			srv := e.Snap()
			synced.SetBase("/home/u/proj/mcpsync.hcl", name, synced.NewEntry("", srv, at))
			synced.SetClientBase("/home/u/proj/mcpsync.hcl", path, name, NewEntry(e.Client, srv, at))
		}
	}
	if err := synced.Save(); err != nil {
		b.Fatal(err)
	}
	load := func(st *State) time.Duration {
		start := time.Now()
		if _, err := Load(filepath.Dir(st.Path())); err != nil {
			b.Fatal(err)
		}
		return time.Since(start)
	}
	var e, s time.Duration
	for range b.N {
		e += load(exported)
		s += load(synced)
	}
	b.ReportMetric(float64(s.Microseconds())/1000/float64(b.N), "ms-synced")
	b.ReportMetric(float64(e.Microseconds())/1000/float64(b.N), "ms-exported")
	benchgoal.Ratio(b, "x-exported", float64(s)/float64(e), 4)
}

// BenchmarkMarshalFiles writes what a backup keeps of the five files of
// BenchmarkSave's state (WriteFiles, MarshalFiles' text: entries by hash,
// each server once) and reports its size against a record per file
// (MarshalFile, what backups kept before): MB-shared, MB-per-file and
// shared-x-per-file.
func BenchmarkMarshalFiles(b *testing.B) {
	st := benchState(b)
	perFile := 0
	for _, f := range st.Files {
		data, err := MarshalFile(f)
		if err != nil {
			b.Fatal(err)
		}
		perFile += len(data)
	}
	var shared countingWriter
	b.ReportAllocs()
	for b.Loop() {
		shared = 0
		if err := WriteFiles(&shared, st.Files); err != nil { // as a backup writes it
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(shared)/1e6, "MB-shared")
	b.ReportMetric(float64(perFile)/1e6, "MB-per-file")
	b.ReportMetric(float64(shared)/float64(perFile), "shared-x-per-file")
}

// countingWriter counts what is written to it.
type countingWriter int

func (c *countingWriter) Write(p []byte) (int, error) {
	*c += countingWriter(len(p))
	return len(p), nil
}
