package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsync/mcpsync/canonical"
	"github.com/mcpsync/mcpsync/formats"
	"github.com/mcpsync/mcpsync/formats/all"
	"github.com/mcpsync/mcpsync/internal/benchgoal"
	"github.com/mcpsync/mcpsync/store"
)

// BenchmarkRunEveryClient20 checks a home where every registered client
// has a user file with 20 servers, and a store of the same 20: all the
// file checks, duplicates and drift.
func BenchmarkRunEveryClient20(b *testing.B) {
	home := b.TempDir()
	reg := all.NewRegistry(all.Options{})
	env := formats.Env{Home: home, ProjectDir: filepath.Join(home, "p"), OS: "linux", Getenv: func(string) string { return "" }}
	var set canonical.Set
	var store strings.Builder
	for i := range 20 {
		set.Servers = append(set.Servers, canonical.Server{Name: fmt.Sprintf("s%02d", i), Transport: canonical.Stdio, Command: "npx",
			Args: []string{"-y", fmt.Sprintf("@example/server-%d", i)}, Env: map[string]string{"TOKEN": fmt.Sprintf("${TOKEN_%d}", i)}})
		fmt.Fprintf(&store, "server \"s%02d\" {\n  command = \"npx\"\n  args = [\"-y\", \"@example/server-%d\"]\n  env = { TOKEN = env(\"TOKEN_%d\") }\n}\n", i, i, i)
	}
	files := 0
	for _, ad := range reg.All() {
		for _, loc := range ad.Locations(env) {
			if loc.Scope != canonical.ScopeUser || loc.ReadOnly {
				continue
			}
			data, ds := ad.Encode(loc, nil, set, formats.EncodeOptions{OS: "linux"})
			if ds.HasErrors() {
				b.Fatal(ds.Err())
			}
			os.MkdirAll(filepath.Dir(loc.Path), 0o755)
			os.WriteFile(loc.Path, data, 0o600)
			files++
			break
		}
	}
	storePath := filepath.Join(home, "mcpsync.hcl")
	os.WriteFile(storePath, []byte(store.String()), 0o600)
	o := Options{Registry: reg, Env: env, LookupEnv: func(string) (string, bool) { return "x", true },
		Stores: []StoreFile{{Path: storePath, Scope: canonical.ScopeUser}}}
	b.ReportAllocs()
	for b.Loop() {
		if r := Run(o); r.HasErrors() {
			b.Fatal(r.Findings)
		}
	}
	b.ReportMetric(float64(files), "files")
}

// BenchmarkDrift compares the entries of five clients' files with a store
// of the same servers, at 1,000 and at 10,000 servers, and holds it
// linear: x-from-1000 at most 15. Each entry looked its server up in the
// store with a scan: 84×, 1.4 s at 10,000 servers. Linear is 10; what is
// above it is the processor's cache: the 50,000 entries at 10,000 servers
// (some 25 MB) are read from memory, the 5,000 at 1,000 mostly from the
// cache (12 to 14 here, with no allocation left in the loop).
func BenchmarkDrift(b *testing.B) {
	reg := all.NewRegistry(all.Options{})
	env := formats.Env{Home: "/home/u", ProjectDir: "/home/u/p", OS: "linux", Getenv: func(string) string { return "" }}
	setup := func(n int) ([]entry, map[canonical.Scope]*store.Store) {
		var src strings.Builder
		var servers []canonical.Server
		for i := range n {
			fmt.Fprintf(&src, "server \"s%05d\" {\n  command = \"npx\"\n  args = [\"-y\", \"@example/server-%d\"]\n}\n", i, i)
			servers = append(servers, canonical.Server{Name: fmt.Sprintf("s%05d", i), Transport: canonical.Stdio, Command: "npx",
				Args: []string{"-y", fmt.Sprintf("@example/server-%d", i)}})
		}
		st, ds := store.Parse("/home/u/.config/mcpsync/mcpsync.hcl", []byte(src.String()))
		if ds.HasErrors() {
			b.Fatal(ds.Err())
		}
		var entries []entry
		for _, id := range []string{"claude-code", "cursor", "vscode", "codex", "opencode"} {
			ad, err := reg.Lookup(id)
			if err != nil {
				b.Fatal(err)
			}
			var loc formats.Location
			for _, l := range ad.Locations(env) {
				if l.Scope == canonical.ScopeUser {
					loc = l
					break
				}
			}
			for _, srv := range servers {
				entries = append(entries, entry{client: ad, loc: loc, srv: srv})
			}
		}
		return entries, map[canonical.Scope]*store.Store{canonical.ScopeUser: st}
	}
	timeOf := func(n int) time.Duration {
		entries, stores := setup(n)
		start := time.Now()
		for range b.N {
			if fs := drift(entries, stores, "linux", team{}); len(fs) != 0 {
				b.Fatalf("%d findings for files that hold the store's servers: %v", len(fs), fs[0])
			}
		}
		return time.Since(start) / time.Duration(b.N)
	}
	t1, t2 := timeOf(1000), timeOf(10000)
	b.ReportMetric(float64(t1.Microseconds())/1000, "ms-1000")
	b.ReportMetric(float64(t2.Microseconds())/1000, "ms-10000")
	benchgoal.Ratio(b, "x-from-1000", float64(t2)/float64(t1), 15)
}
